/**
 * The `json` reporter: the JSON report contract of DESIGN.md, version 1, which scripts and CI parse.
 *
 * Every object is rebuilt field by field, so the key order is DESIGN's whatever order the engine built its
 * objects in, and nothing outside the contract leaks out. Output: 2-space indent and a trailing newline.
 *
 * Decisions on the contract (version 1 allows additive fields only):
 * - `checks[].skipReason` follows `durationMs`, only when a check was skipped because the readout lacks what it
 *   needs (`check --workflows-json`).
 * - `checks[].error` is added, only when a check has status `error`: without it a script sees that a check
 *   failed to run but not why, and the reason is data, not display.
 * - `checks[].title`, `severity` and `remediation` are left out: they are display metadata that the check
 *   registry already publishes (`vtpreflight checks ID`), and repeating them in every report would make each
 *   wording change look like a contract change.
 * - Optional finding fields (`keyspace`, `shard`, `workflow`, `streamId`, `tablet`, `predicts`, `details`)
 *   are omitted when absent, never written as `null`; `vitessWouldSay` and `target.vtctld`/`snapshot` are
 *   `null` when absent, as in DESIGN's example.
 * - `workflows[].targetShards`, `options` and `streams` (after `summary`) are added when the engine produced them:
 *   the matrix the HTML report draws needs per-stream facts, and the HTML may only show what this JSON carries.
 *   `streams[]`: `{ keyspace, workflow, shard, streamId, tablet, sourceKeyspace, sourceShard, state, position,
 *   lagSeconds, message, copyTablesLeft }`; `options`: `{ failOn, maxLagSeconds, only, skip, severities }`.
 * - `vitess` (after `streams`): the Vitess releases the checks judged against, `{ judgedAgainst, lowest, highest,
 *   source, evidence, mixed }` (source: `flag`, `env`, `config`, `cluster` or `default`).
 * - `command` (last): `"sweep"` in a `vtpreflight sweep` report (its `workflows` is empty: a sweep judges no action);
 *   absent from `check` reports.
 */
import type { Finding } from '../engine/check.js';
import type { CheckResult, Report, StreamSummary, WorkflowVerdict } from '../engine/report.js';
import type { RenderOptions, Reporter } from './types.js';
import { bigintAsString } from '../text.js';

function checkJson(c: CheckResult): Record<string, unknown> {
  const out: Record<string, unknown> = { id: c.id, status: c.status, findings: c.findings, durationMs: c.durationMs };
  if (c.status === 'skipped' && c.skipReason !== undefined) out.skipReason = c.skipReason;
  if (c.status === 'error' && c.error !== undefined) out.error = c.error;
  return out;
}

function findingJson(f: Finding): Record<string, unknown> {
  const out: Record<string, unknown> = { check: f.check, severity: f.severity, message: f.message };
  if (f.keyspace !== undefined) out.keyspace = f.keyspace;
  if (f.shard !== undefined) out.shard = f.shard;
  if (f.workflow !== undefined) out.workflow = f.workflow;
  if (f.streamId !== undefined) out.streamId = f.streamId;
  if (f.tablet !== undefined) out.tablet = f.tablet;
  if (f.predicts !== undefined) out.predicts = f.predicts;
  if (f.reason !== undefined) out.reason = f.reason;
  if (f.step !== undefined) out.step = f.step;
  if (f.details !== undefined) out.details = f.details;
  return out;
}

function workflowJson(w: WorkflowVerdict): Record<string, unknown> {
  const out: Record<string, unknown> = {
    keyspace: w.keyspace,
    workflow: w.workflow,
    type: w.type,
    action: w.action ?? 'switch',
    verdict: w.verdict,
    blockedBy: [...w.blockedBy],
    unverifiedBy: (w.unverifiedBy ?? []).map((u) =>
      u.part !== undefined ? { check: u.check, part: u.part, why: u.why } : { check: u.check, why: u.why },
    ),
    vitessWouldSay: w.vitessWouldSay ?? null,
  };
  if (w.targetShards !== undefined) out.targetShards = [...w.targetShards];
  if (w.evidence !== undefined)
    out.evidence = w.evidence.map((e) => ({
      check: e.check,
      reason: e.reason,
      severity: e.severity,
      concern: e.concern,
    }));
  return out;
}

function streamJson(s: StreamSummary): Record<string, unknown> {
  return {
    keyspace: s.keyspace,
    workflow: s.workflow,
    shard: s.shard,
    streamId: s.streamId,
    tablet: s.tablet,
    sourceKeyspace: s.sourceKeyspace,
    sourceShard: s.sourceShard,
    state: s.state,
    position: s.position,
    lagSeconds: s.lagSeconds,
    message: s.message,
    copyTablesLeft: s.copyTablesLeft,
  };
}

/** The report as a plain object in the contract's key order (what {@link renderJson} serialises). */
export function toContractJson(report: Report): Record<string, unknown> {
  const out: Record<string, unknown> = {
    version: report.version,
    tool: { name: report.tool.name, version: report.tool.version },
    target: {
      vtctld: report.target.vtctld ?? null,
      snapshot: report.target.snapshot ?? null,
      keyspaces: [...report.target.keyspaces],
      workflows: [...report.target.workflows],
    },
    startedAt: report.startedAt,
    durationMs: report.durationMs,
    checks: report.checks.map(checkJson),
    findings: report.findings.map(findingJson),
    workflows: report.workflows.map(workflowJson),
    summary: {
      error: report.summary.error,
      warning: report.summary.warning,
      info: report.summary.info,
      exitCode: report.summary.exitCode,
    },
  };
  if (report.options !== undefined) {
    const o = report.options;
    out.options = {
      failOn: o.failOn,
      maxLagSeconds: o.maxLagSeconds,
      only: [...o.only],
      skip: [...o.skip],
      severities: { ...o.severities },
    };
  }
  if (report.streams !== undefined) out.streams = report.streams.map(streamJson);
  if (report.vitess !== undefined) {
    const v = report.vitess;
    out.vitess = {
      judgedAgainst: v.judgedAgainst,
      lowest: v.lowest,
      highest: v.highest,
      source: v.source,
      evidence: [...v.evidence],
      mixed: v.mixed,
    };
  }
  if (report.command !== undefined) out.command = report.command;
  return out;
}

// Evidence in `details` comes from checks; a bigint (a GTID count, a large lag) is written as a decimal string
// rather than letting JSON.stringify throw.

/** Renders the JSON report contract (DESIGN.md, version 1). `opts` is accepted for the common signature and ignored. */
export default function renderJson(report: Report, _opts: RenderOptions): string {
  return `${JSON.stringify(toContractJson(report), bigintAsString, 2)}\n`;
}

/** `--format json`; `--output` files ending in .json. */
export const reporter = { format: 'json', extensions: ['json'], render: renderJson } as const satisfies Reporter;
