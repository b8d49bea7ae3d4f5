/**
 * Helpers for reporter tests: the fixed report fixtures, golden-file comparison, and small report builders.
 *
 * Golden files live in `test/fixtures/reports/` as `<fixture>.golden.<ext>`. When a reporter changes on
 * purpose, regenerate them with `UPDATE_GOLDEN=1 npm test` (or, for reporters only,
 * `npx tsc -p . && UPDATE_GOLDEN=1 node --test dist/test/report/`) and review the diff before committing.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Finding } from '../../src/engine/check.js';
import type { CheckResult, Report } from '../../src/engine/report.js';
import { repoRoot } from '../helpers/paths.js';

export const fixtureDir = join(repoRoot, 'test', 'fixtures', 'reports');

/** Loads `test/fixtures/reports/<name>-report.json` (a report object as the engine produces it), deep-frozen. */
export function loadReport(name: string): Report {
  return deepFreeze(JSON.parse(readFileSync(join(fixtureDir, `${name}-report.json`), 'utf8')) as Report);
}

/** Freezes an object graph so that a test fails if a reporter mutates its input. */
export function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value as object)) deepFreeze(v);
  }
  return value;
}

/** Compares `actual` with the golden file `file`, or rewrites the file when UPDATE_GOLDEN=1. */
export function assertGolden(actual: string, file: string): void {
  const path = join(fixtureDir, file);
  if (process.env.UPDATE_GOLDEN === '1') {
    writeFileSync(path, actual);
    return;
  }
  assert.ok(existsSync(path), `golden file ${file} is missing: run the tests once with UPDATE_GOLDEN=1`);
  assert.equal(
    actual,
    readFileSync(path, 'utf8'),
    `output differs from ${file} (UPDATE_GOLDEN=1 regenerates it; review the diff)`,
  );
}

/** `n` adjacent shard names of equal width covering the whole key range, e.g. 4 → `-40, 40-80, 80-c0, c0-`. */
export function shardNames(n: number): string[] {
  const digits = n <= 256 ? 2 : 4;
  const step = 16 ** digits / n;
  const hex = (i: number) =>
    Math.round(i * step)
      .toString(16)
      .padStart(digits, '0');
  return Array.from({ length: n }, (_, i) => `${i === 0 ? '' : hex(i)}-${i === n - 1 ? '' : hex(i + 1)}`);
}

/** A finding with the runner's stamping, defaults for a stream-error on customer. */
export function finding(over: Partial<Finding> = {}): Finding {
  return {
    check: 'stream-error',
    severity: 'error',
    message: 'stream 1 of wf on customer/-80 shows as Error',
    keyspace: 'customer',
    shard: '-80',
    workflow: 'wf',
    streamId: 1,
    reason: 'messageError',
    step: 'can-switch-streams',
    ...over,
    details: { reason: over.reason ?? 'messageError', ...over.details },
  };
}

/** A minimal report around `findings`: one check result per check id found, counts and exit code derived. */
export function makeReport(findings: readonly Finding[], over: Partial<Report> = {}): Report {
  const ids = [...new Set(findings.map((f) => f.check))].sort();
  const checks: CheckResult[] = ids.map((id) => ({
    id,
    status: 'fail',
    findings: findings.filter((f) => f.check === id).length,
    durationMs: 1,
    title: `Title of ${id}`,
    severity: 'error',
    remediation: `Fix ${id} with \`vtctldclient Workflow --keyspace customer show --workflow wf\`.`,
  }));
  const summary = { error: 0, warning: 0, info: 0 };
  for (const f of findings) summary[f.severity]++;
  return {
    version: 1,
    tool: { name: 'vtpreflight', version: '0.0.0-test' },
    target: { vtctld: 'localhost:15999', snapshot: null, keyspaces: ['customer'], workflows: [] },
    startedAt: '2026-01-02T03:04:05.678Z',
    durationMs: 1000,
    checks,
    findings: [...findings],
    workflows: [
      {
        keyspace: 'customer',
        workflow: 'wf',
        type: 'Reshard',
        action: 'switch',
        verdict: summary.error > 0 ? 'blocked' : summary.warning > 0 ? 'at-risk' : 'ready',
        blockedBy: summary.error > 0 ? ids : [],
        unverifiedBy: [],
        vitessWouldSay: null,
      },
    ],
    summary: { ...summary, exitCode: summary.error > 0 ? 1 : 0 },
    ...over,
  };
}

/** True when `text` contains an ANSI escape or any other C0/C1 control character but newline. */
export function hasRawControls(text: string): boolean {
  return /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/.test(text);
}
