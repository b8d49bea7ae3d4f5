/**
 * The `junit` reporter: JUnit XML for CI (Jenkins, GitLab and anything that reads Surefire-style reports).
 *
 * Shape (the common schema: testsuites > testsuite > properties, testcase > failure | error | skipped):
 * - one `<testsuite name="vtpreflight">` per run, inside `<testsuites>`; counts are of test cases, as the
 *   schema defines them: `tests` = checks, `failures` = checks with status `fail`, `errors` = checks with
 *   status `error`, `skipped` = skipped checks; `time` in seconds; `timestamp` is `startedAt` in UTC without
 *   a zone or fraction (`2026-01-02T15:04:05`), the form Ant and Surefire write;
 * - `<properties>`: the tool version, the target, the exit code with its closing line and each workflow's verdict;
 * - one `<testcase>` per check, `classname` = check id, `name` = check title (or id), `time` in seconds;
 * - one `<failure message="…" type="severity">` per finding that fails the gate (`--fail-on`, as the report records
 *   it), its body the message, the location (keyspace, shard, workflow, stream, tablet), what it predicts and the
 *   evidence (`details` as JSON); a finding below the gate is no failure (a passing job shows no red test): it is
 *   written, with the same body, to the test case's `<system-out>`, as is the check's remediation;
 * - `failures` counts the test cases with a failure, so a run the gate lets through has none;
 * - `<error message="…" type="error">` when the check threw, `<skipped/>` when it was skipped.
 * Findings are not folded here: a CI consumer wants one failure per finding.
 *
 * Everything is XML-escaped; characters XML 1.0 cannot carry (control characters, lone surrogates) are
 * replaced by visible escapes (`escape.ts`), so a hostile stream message cannot break the document.
 */
import { judgedCommand } from './action.js';
import { unverifiedText } from './unverified.js';
import { exitLine } from './text.js';
import type { Finding } from '../engine/check.js';
import type { CheckResult, Report, ReportOptions } from '../engine/report.js';
import { SEVERITY_RANK, type Severity } from '../engine/severity.js';
import { visibleControls, xmlAttr, xmlText } from './escape.js';
import { vitessSays } from './fold.js';
import type { RenderOptions, Reporter } from './types.js';
import { bigintAsString } from '../text.js';

const secondsOf = (ms: number) => (Math.max(0, ms) / 1000).toFixed(3);

/** `startedAt` as `YYYY-MM-DDTHH:MM:SS` in UTC; the input unchanged (escaped) when it is not a date. */
export function junitTimestamp(startedAt: string): string {
  const ms = Date.parse(startedAt);
  return Number.isNaN(ms) ? startedAt : new Date(ms).toISOString().slice(0, 19);
}

const attrs = (pairs: readonly (readonly [string, string | number | undefined])[]) =>
  pairs
    .filter((p): p is readonly [string, string | number] => p[1] !== undefined)
    .map(([k, v]) => ` ${k}="${xmlAttr(String(v))}"`)
    .join('');

const json = (v: unknown) => JSON.stringify(v, bigintAsString);

function failureBody(f: Finding): string {
  const lines = [f.message, ''];
  if (f.keyspace !== undefined) lines.push(`keyspace: ${f.keyspace}`);
  if (f.shard !== undefined) lines.push(`shard: ${f.shard}`);
  if (f.workflow !== undefined) lines.push(`workflow: ${f.workflow}`);
  if (f.streamId !== undefined) lines.push(`stream: ${f.streamId}`);
  if (f.tablet !== undefined) lines.push(`tablet: ${f.tablet}`);
  const says = vitessSays([f]);
  if (says !== null) lines.push(`Vitess would say: ${says}`);
  if (f.details !== undefined) lines.push(`details: ${json(f.details)}`);
  return lines.join('\n');
}

/** Whether a finding of this severity fails the gate (`options.failOn`; absent in older reports: error). */
function failsGate(severity: Severity, failOn: ReportOptions['failOn'] | undefined): boolean {
  const gate = failOn ?? 'error';
  return gate !== 'never' && SEVERITY_RANK[severity] <= SEVERITY_RANK[gate];
}

function testcase(r: CheckResult, all: readonly Finding[], failOn: ReportOptions['failOn'] | undefined): string[] {
  const findings = all.filter((f) => failsGate(f.severity, failOn));
  const below = all.filter((f) => !failsGate(f.severity, failOn));
  const open = `    <testcase${attrs([
    ['classname', r.id],
    ['name', r.title ?? r.id],
    ['time', secondsOf(r.durationMs)],
  ])}`;
  const body: string[] = [];
  if (r.status === 'skipped') {
    body.push(`      <skipped${attrs([['message', r.skipReason ?? 'skipped']])}/>`);
  } else if (r.status === 'error') {
    const message = r.error ?? 'the check failed to run';
    body.push(
      `      <error${attrs([
        ['message', message],
        ['type', 'error'],
      ])}>${xmlText(message)}</error>`,
    );
  }
  for (const f of findings) {
    // The message attribute is one line (some CI UIs show it as a title); the body keeps everything.
    const message = visibleControls(f.message);
    body.push(
      `      <failure${attrs([
        ['message', message],
        ['type', f.severity],
      ])}>${xmlText(failureBody(f))}</failure>`,
    );
  }
  const out = below.map((f) => `${f.severity} (below --fail-on ${failOn ?? 'error'}): ${failureBody(f)}`);
  if (all.length > 0 && r.remediation !== undefined && r.remediation.trim() !== '') out.push(r.remediation.trim());
  if (out.length > 0) body.push(`      <system-out>${xmlText(out.join('\n\n'))}</system-out>`);
  return body.length === 0 ? [`${open}/>`] : [`${open}>`, ...body, '    </testcase>'];
}

/** Renders the report as JUnit XML (see the module comment). `opts` is accepted for the common signature, ignored. */
export default function renderJunit(report: Report, _opts: RenderOptions): string {
  const byCheck = new Map<string, Finding[]>();
  for (const f of report.findings) {
    const list = byCheck.get(f.check);
    if (list) list.push(f);
    else byCheck.set(f.check, [f]);
  }
  // A finding whose check is missing from `checks` (an engine bug) still gets reported, in a test case of its own.
  const known = new Set(report.checks.map((r) => r.id));
  const orphans: CheckResult[] = [...byCheck.entries()]
    .filter(([id]) => !known.has(id))
    .map(([id, list]) => ({ id, status: 'fail', findings: list.length, durationMs: 0 }));
  const results = [...report.checks, ...orphans];
  const failOn = report.options?.failOn;
  const count = (status: CheckResult['status']) => results.filter((r) => r.status === status).length;
  const failing = results.filter(
    (r) => r.status !== 'error' && (byCheck.get(r.id) ?? []).some((f) => failsGate(f.severity, failOn)),
  ).length;
  const counts: [string, number][] = [
    ['tests', results.length],
    ['failures', failing],
    ['errors', count('error')],
    ['skipped', count('skipped')],
  ];
  const time = secondsOf(report.durationMs);
  const properties: [string, string][] = [
    ['vtpreflight.version', report.tool.version],
    ['report.version', String(report.version)],
  ];
  if (report.target.vtctld !== null) properties.push(['target.vtctld', report.target.vtctld]);
  if (report.target.snapshot !== null) properties.push(['target.snapshot', report.target.snapshot]);
  properties.push(
    ['target.keyspaces', report.target.keyspaces.join(',')],
    ['target.workflows', report.target.workflows.join(',')],
  );
  // The exit code and what failed the gate, in the words of the text report's closing line.
  properties.push(['summary.exitCode', String(report.summary.exitCode)], ['summary.exit', exitLine(report)]);
  if (report.interrupted !== undefined) properties.push(['interrupted', report.interrupted.message]);
  for (const w of report.workflows) {
    properties.push([`verdict.${w.keyspace}.${w.workflow}`, w.verdict]);
    const command = judgedCommand(w);
    if (command !== null) properties.push([`action.${w.keyspace}.${w.workflow}`, command]);
    const unverified = unverifiedText(w);
    if (unverified !== null) properties.push([`unverified.${w.keyspace}.${w.workflow}`, unverified]);
  }
  const timestamp = junitTimestamp(report.startedAt);
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites${attrs([['name', 'vtpreflight'], ...counts, ['time', time]])}>`,
    `  <testsuite${attrs([['name', 'vtpreflight'], ...counts, ['time', time], ['timestamp', timestamp]])}>`,
    '    <properties>',
    ...properties.map(
      ([name, value]) =>
        `      <property${attrs([
          ['name', name],
          ['value', value],
        ])}/>`,
    ),
    '    </properties>',
    ...results.flatMap((r) => testcase(r, byCheck.get(r.id) ?? [], failOn)),
    '  </testsuite>',
    '</testsuites>',
  ];
  return `${lines.join('\n')}\n`;
}

/** `--format junit`; `--output` files ending in .xml. */
export const reporter = { format: 'junit', extensions: ['xml'], render: renderJunit } as const satisfies Reporter;
