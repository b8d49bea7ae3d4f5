/** Assertions on JSON reports for the end-to-end scenarios, in the RuleTester style of test/helpers/check-tester.ts. */
import assert from 'node:assert/strict';
import type { ContractFinding, ContractReport } from './cli.js';
import { matchValue } from '../helpers/match.js';

/** A finding to match: every listed field must match (`message` may be a RegExp; `details` is a subset match). */
export interface FindingPattern {
  readonly severity?: string;
  readonly message?: string | RegExp;
  readonly keyspace?: string;
  readonly shard?: string;
  readonly workflow?: string;
  readonly streamId?: number;
  readonly tablet?: string;
  readonly reason?: string;
  readonly step?: string;
  readonly details?: Record<string, unknown>;
}

function matches(f: ContractFinding, p: FindingPattern): boolean {
  try {
    matchValue(f, p, 'finding');
    return true;
  } catch {
    return false;
  }
}

const show = (fs: readonly ContractFinding[]): string =>
  fs
    .map(
      (f) =>
        `  [${f.severity}] ${f.check} ${f.keyspace ?? ''}/${f.shard ?? ''} ${f.workflow ?? ''}#${f.streamId ?? ''}: ${f.message}`,
    )
    .join('\n') || '  (none)';

/** The findings of one check, in report order. */
export const findingsOf = (r: ContractReport, check: string): ContractFinding[] =>
  r.findings.filter((f) => f.check === check);

/** The check's findings are exactly `patterns`, in order (as check-tester requires), and its status is `fail`. */
export function assertFindings(r: ContractReport, check: string, patterns: readonly FindingPattern[]): void {
  const got = findingsOf(r, check);
  assert.equal(
    got.length,
    patterns.length,
    `${check}: expected ${patterns.length} finding(s), got ${got.length}:\n${show(got)}`,
  );
  patterns.forEach((p, i) => {
    matchValue(got[i], p, `${check} finding ${i}`);
  });
  assert.equal(r.checks.find((c) => c.id === check)?.status, 'fail', `${check} status`);
}

/**
 * For checks whose exact wording is not fixed yet: the check ran and failed (no `error` status), every pattern
 * matches at least one of its findings, and every finding has one of `severities`.
 */
export function assertSomeFindings(
  r: ContractReport,
  check: string,
  patterns: readonly FindingPattern[],
  severities: readonly string[] = ['error'],
): void {
  const result = r.checks.find((c) => c.id === check);
  assert.notEqual(result?.status, 'error', `${check} did not run: ${result?.error ?? ''}`);
  const got = findingsOf(r, check);
  assert.equal(result?.status, 'fail', `${check}: expected findings, got none; all findings:\n${show(r.findings)}`);
  for (const p of patterns)
    assert.ok(
      got.some((f) => matches(f, p)),
      `${check}: no finding matches ${JSON.stringify(p, (_k, v: unknown) => (v instanceof RegExp ? String(v) : v))}; got:\n${show(got)}`,
    );
  for (const f of got)
    assert.ok(severities.includes(f.severity), `${check}: unexpected severity ${f.severity}: ${f.message}`);
}

/**
 * Healthy: no finding at warning or above (nor info unless allowed), every check ran (none errored), every
 * workflow ready, exit 0. Every problem is listed in one failure, so a run shows all of them at once.
 */
export function assertHealthy(r: ContractReport, o: { allowInfo?: boolean } = {}): void {
  const problems: string[] = [];
  const bad = r.findings.filter((f) => f.severity !== 'info' || !o.allowInfo);
  if (bad.length > 0) problems.push(`findings ${o.allowInfo ? 'at warning or above' : ''}:\n${show(bad)}`);
  const errored = erroredChecks(r);
  if (errored.length > 0) problems.push(`checks that did not run:\n${errored.map((e) => `  ${e}`).join('\n')}`);
  const blocked = r.workflows.filter((w) => w.verdict !== 'ready');
  if (blocked.length > 0)
    problems.push(
      `workflows not ready: ${blocked.map((w) => `${w.keyspace}.${w.workflow} ${w.verdict} (${w.blockedBy.join(', ')})`).join('; ')}`,
    );
  if (r.summary.exitCode !== 0) problems.push(`summary exit code ${r.summary.exitCode}`);
  assert.deepEqual(problems, [], `not healthy:\n${problems.join('\n')}`);
}

/** The checks that errored (placeholders not implemented yet), with their one-line errors. */
export const erroredChecks = (r: ContractReport): string[] =>
  r.checks.filter((c) => c.status === 'error').map((c) => `${c.id}: ${c.error ?? ''}`);

/** The verdict row of `workflow`: its verdict and, when given, what Vitess would say. */
export function assertVerdict(r: ContractReport, workflow: string, verdict: string, vitessWouldSay?: string): void {
  const w = r.workflows.find((x) => x.workflow === workflow);
  assert.ok(w, `no verdict row for ${workflow}: ${JSON.stringify(r.workflows.map((x) => x.workflow))}`);
  assert.equal(w.verdict, verdict, `${workflow}: ${JSON.stringify(w)}`);
  if (vitessWouldSay !== undefined) assert.equal(w.vitessWouldSay, vitessWouldSay);
}
