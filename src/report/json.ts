/**
 * The `json` reporter: the JSON report contract of docs/report-contract.md, version 1, which scripts and CI parse.
 *
 * The report object (src/engine/report.ts `Report`) is the contract: this reporter writes every field of it, in the
 * key order `CONTRACT_KEYS` gives (whatever order an object was built in), and nothing else. Output: 2-space indent
 * and a trailing newline.
 *
 * Decisions on the contract (version 1 allows additive fields only):
 * - `checks[].skipReason` follows `durationMs`, only when a check was skipped because the readout lacks what it
 *   needs (`check --workflows-json`).
 * - `checks[].notJudged` (after `notApplicable`), only when non-empty: what the check could not judge because the
 *   readout does not carry the data (an older readout), `{ keyspace, shard, workflow, reason, part, why }`.
 * - `checks[].error` is added, only when a check has status `error`: without it a script sees that a check
 *   failed to run but not why, and the reason is data, not display.
 * - `checks[].title`, `severity` (as configured for the run) and `remediation` follow: the remediation is the one
 *   with the findings' names filled in (`vtctldclient Workflow --keyspace customer show --workflow cust2cust`), which
 *   the human reports show, and no human view may show what the JSON does not carry.
 * - `findings[].predicts` is the Vitess template with its Go verbs shown as `…`; the text with the finding's values
 *   is `details.vitessError`.
 * - Optional finding fields (`keyspace`, `shard`, `workflow`, `streamId`, `tablet`, `predicts`, `details`)
 *   are omitted when absent, never written as `null`; `vitessWouldSay` and `target.vtctld`/`snapshot` are
 *   `null` when absent, as in the example of docs/report-contract.md.
 * - `workflows[].targetShards`, `options` and `streams` (after `summary`) are added when the engine produced them:
 *   the matrix the HTML report draws needs per-stream facts, and the HTML may only show what this JSON carries.
 *   `streams[]`: `{ keyspace, workflow, shard, streamId, tablet, sourceKeyspace, sourceShard, state, position,
 *   lagSeconds, message, copyTablesLeft }`; `options`: `{ failOn, maxLagSeconds, only, skip, severities }`.
 * - `vitess` (after `streams`): the Vitess releases the checks judged against, `{ judgedAgainst, lowest, highest,
 *   source, evidence, mixed }` (source: `flag`, `env`, `config`, `cluster` or `default`).
 * - `command` (last): `"sweep"` in a `vtpreflight sweep` report (its `workflows` is empty: a sweep judges no action);
 *   absent from `check` reports.
 * - `interrupted` (after `command`): `{ by, at, run, message }` when `--wait` was stopped (SIGINT, SIGTERM) or lost
 *   the cluster: the report is the last complete run's. Absent otherwise.
 */
import { CONTRACT_KEYS, type Report } from '../engine/report.js';
import type { RenderOptions, Reporter } from './types.js';
import { bigintAsString } from '../text.js';
import { streamJson } from './json-stream.js';
import { escapeC1InJson } from './escape.js';

type Obj = Readonly<Record<string, unknown>>;

/** `o`'s fields named by `keys`, in that order, leaving out undefined ones. */
function pick(o: object, keys: readonly string[], nested: Readonly<Record<string, (v: unknown) => unknown>> = {}): Obj {
  const out: Record<string, unknown> = {};
  for (const k of keys) {
    const v = (o as Obj)[k];
    if (v === undefined) continue;
    const f = nested[k];
    out[k] = f !== undefined ? f(v) : Array.isArray(v) ? [...v] : v;
  }
  return out;
}

const each = (keys: readonly string[], nested?: Readonly<Record<string, (v: unknown) => unknown>>) => (v: unknown) =>
  (v as readonly object[]).map((o) => pick(o, keys, nested));
const one = (keys: readonly string[]) => (v: unknown) => pick(v as object, keys);
const K = CONTRACT_KEYS;

/** The report as a plain object in the contract's key order (what {@link renderJson} serialises). */
export function toContractJson(report: Report): Record<string, unknown> {
  return pick(report, K.report, {
    tool: one(K.tool),
    target: one(K.target),
    checks: each(K.check, { notJudged: each(K.notJudged) }),
    findings: each(K.finding),
    workflows: each(K.workflow, { unverifiedBy: each(K.unverifiedBy), evidence: each(K.evidence) }),
    summary: one(K.summary),
    options: (v) =>
      pick(v as object, K.options, { severities: (s) => ({ ...(s as Obj) }), action: one(K.actionRequest) }),
    streams: each(K.stream),
    copyProgress: each(K.copyProgress, { tables: each(K.copyTable) }),
    vitess: one(K.vitess),
    interrupted: one(K.interrupted),
  });
}

// Evidence in `details` comes from checks; a bigint (a GTID count, a large lag) is written as a decimal string
// rather than letting JSON.stringify throw.

/**
 * Writes the JSON report contract in chunks to `emit`: the bytes of `JSON.stringify(toContractJson(report),
 * bigintAsString, 2)` and a newline, without building them as one string (src/report/json-stream.ts).
 */
export function streamReportJson(report: Report, _opts: RenderOptions, emit: (chunk: string) => void): void {
  // Raw C1 controls (hostile rows) leave only as `\u00XX` escapes: the same JSON value, nothing a terminal acts on.
  // Below the top-level sections (each finding, stream, workflow), JSON.stringify writes: bigintAsString reads
  // neither its key nor its holder.
  streamJson(toContractJson(report), bigintAsString, 2, (chunk) => emit(escapeC1InJson(chunk)), { nativeDepth: 2 });
  emit('\n');
}

/** Renders the JSON report contract (docs/report-contract.md, version 1). `opts` is accepted for the common signature
 * and ignored. */
export default function renderJson(report: Report, opts: RenderOptions): string {
  const chunks: string[] = [];
  streamReportJson(report, opts, (c) => chunks.push(c));
  return chunks.join('');
}

/** `--format json`; `--output` files ending in .json. */
export const reporter = {
  format: 'json',
  extensions: ['json'],
  render: renderJson,
  stream: streamReportJson,
} as const satisfies Reporter;
