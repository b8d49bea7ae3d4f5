/** The report object: the JSON report contract of docs/report-contract.md, version 1. Every reporter renders this. */
import type { VersionSource } from '../vitess/versions.js';
import type { Finding, Severity } from './check.js';
import type { ActionRequest } from './options.js';
import type { Action } from './steps.js';

export const REPORT_VERSION = 1 as const;

export type CheckStatus = 'pass' | 'fail' | 'error' | 'skipped';

export interface CheckResult {
  readonly id: string;
  readonly status: CheckStatus;
  readonly findings: number;
  readonly durationMs: number;
  /** Set when status is `error`: the one-line error the check threw. Additive. */
  readonly error?: string;
  /** Additive: set when status is `skipped` because the readout lacks what the check needs: why, in one line. */
  readonly skipReason?: string;
  /** Additive: set (with status `skipped`) when none of the check's reasons applies to the action judged. */
  readonly notApplicable?: true;
  /**
   * Additive: what the check could not judge because the readout does not carry the data (an older readout), each
   * with the workflow it concerns; only when non-empty. Those workflows are `unverified`.
   */
  readonly notJudged?: readonly NotJudgedPart[];
  /** Display metadata for reporters (additive to the contract). */
  readonly title?: string;
  readonly severity?: Severity;
  readonly remediation?: string;
}

export type Verdict = 'blocked' | 'unverified' | 'at-risk' | 'ready';

/**
 * The operation a verdict judges (`check --action`; by default SwitchTraffic, or Externalize for a lookup
 * backfill).
 */
export type { Action } from './steps.js';

/** Something a workflow depends on that was not read or not checked (`unverifiedBy`). */
export interface UnverifiedBy {
  /** The check that could not judge (`unreachable` for a part that was not read). */
  readonly check: string;
  /** The part not read, e.g. `select _vt.copy_state of customer/-80 (zone1-0000000100)`; absent for a check not run. */
  readonly part?: string;
  /** Why, in one line (`timeout`, the read error, the skip reason). */
  readonly why: string;
}

/** What a check could not judge for lack of data in the readout (`checks[].notJudged`, additive). */
export interface NotJudgedPart {
  readonly keyspace?: string;
  readonly shard?: string;
  readonly workflow?: string;
  /** The check's reason that could not be judged. */
  readonly reason: string;
  /** What the readout lacks. */
  readonly part: string;
  readonly why: string;
}

/** How a finding concerns a workflow (src/engine/verdict.ts `concernOf`). */
export type Concern = 'workflow' | 'target-shard' | 'source-shard' | 'keyspace' | 'cluster';

/** One finding that concerns a workflow, and why (additive: `workflows[].evidence`). */
export interface VerdictEvidence {
  readonly check: string;
  readonly reason: string;
  readonly severity: Severity;
  readonly concern: Concern;
}

export interface WorkflowVerdict {
  readonly keyspace: string;
  readonly workflow: string;
  /** The workflow type, `unknown` for a workflow named on the command line that has no streams. */
  readonly type: string;
  readonly action: Action;
  readonly verdict: Verdict;
  readonly blockedBy: readonly string[];
  readonly unverifiedBy: readonly UnverifiedBy[];
  readonly vitessWouldSay: string | null;
  /** The findings that concern this workflow (in check order), with why each concerns it. */
  readonly evidence?: readonly VerdictEvidence[];
  /**
   * Additive: the target shards of this workflow's row in the stream matrix (shards with its streams, plus those
   * Vitess would have created streams on), in key-range order. Absent in reports built without a model.
   */
  readonly targetShards?: readonly string[];
}

/**
 * Additive (`report.streams[]`): one stream of a selected workflow, as the HTML matrix shows it. Built by
 * `src/engine/streams.ts` from the model.
 */
/** One workflow's copy progress (`copyProgress[]`). */
export interface WorkflowCopyProgress {
  readonly keyspace: string;
  readonly workflow: string;
  readonly tables: readonly TableCopyProgress[];
}

/** One table of a copy: rows copied to the target against the source's row estimate. */
export interface TableCopyProgress {
  readonly table: string;
  readonly rowsCopied: number;
  readonly rowsTotal: number;
  /** Rows copied in percent of the source's estimate, as vtctld computed it (0 when the estimate is 0). */
  readonly percent: number;
  /** v24+: `NOT_STARTED`, `IN_PROGRESS` or `COMPLETE` (absent when the release does not say). */
  readonly phase?: string;
}

export interface StreamSummary {
  /** Target keyspace, shard and primary alias: where the `_vt.vreplication` row lives. */
  readonly keyspace: string;
  readonly workflow: string;
  readonly shard: string;
  readonly streamId: number;
  readonly tablet: string;
  /** Source keyspace and shard from the stream's BinlogSource; '' when the source does not parse. */
  readonly sourceKeyspace: string;
  readonly sourceShard: string;
  /** Vitess's displayed state: `Error` when the message says error, `Copying` while copy_state has rows. */
  readonly state: string;
  /** The stored `pos` (flavor-prefixed GTID set or file position). */
  readonly position: string;
  /** Lag by Vitess's newest rule at read time, in seconds; null while stored as Copying (unbounded for Vitess). */
  readonly lagSeconds: number | null;
  readonly message: string;
  /** Tables still listed in `_vt.copy_state` for this stream; null when copy_state could not be read. */
  readonly copyTablesLeft: number | null;
}

/** Additive (`report.options`): the settings the checks ran with, so a report read later explains itself. */
export interface ReportOptions {
  readonly failOn: 'error' | 'warning' | 'info' | 'never';
  /** `--max-lag` in whole seconds: what the checks judge with, as Vitess truncates its own flag. */
  readonly maxLagSeconds: number;
  /** `--max-lag` as given (`500ms`, `30s`). Absent in reports from older versions. */
  readonly maxLag?: string;
  readonly only: readonly string[];
  readonly skip: readonly string[];
  readonly severities: Readonly<Record<string, Severity>>;
  /** Additive: the action judged (`--action`) and its options as vtctldclient spells them. */
  readonly action?: ActionRequest;
}

/**
 * Additive (`report.vitess`): the Vitess releases the checks judged against and how that was known
 * (`--vitess-version`, inferred from the cluster, or nothing known).
 */
export interface ReportVitess {
  /** The range as a reader says it: `v22.0.x`, `v20–v24`. */
  readonly judgedAgainst: string;
  /** Lowest and highest release of the range (`20.0.0`, `24.x`). */
  readonly lowest: string;
  readonly highest: string;
  readonly source: VersionSource;
  /** The facts used, one line each. */
  readonly evidence: readonly string[];
  /** Set when tablets run different builds or releases, or the given version contradicts the cluster. */
  readonly mixed: string | null;
}

export interface Report {
  readonly version: typeof REPORT_VERSION;
  readonly tool: { readonly name: 'vtpreflight'; readonly version: string };
  /** Additive: `sweep` for a `vtpreflight sweep` report (no per-workflow verdicts); absent for `check`. */
  readonly command?: 'sweep';
  readonly target: {
    readonly vtctld: string | null;
    readonly snapshot: string | null;
    readonly keyspaces: readonly string[];
    readonly workflows: readonly string[];
  };
  readonly startedAt: string;
  readonly durationMs: number;
  readonly checks: readonly CheckResult[];
  readonly findings: readonly Finding[];
  readonly workflows: readonly WorkflowVerdict[];
  readonly summary: {
    readonly error: number;
    readonly warning: number;
    readonly info: number;
    readonly exitCode: 0 | 1 | 2;
  };
  /** Additive: the run's settings (absent in reports from older versions and in hand-made fixtures). */
  readonly options?: ReportOptions;
  /** Additive: every stream of the selected workflows (absent in reports built without a model). */
  readonly streams?: readonly StreamSummary[];
  /**
   * Additive: copy progress per table of the selected workflows still in their copy phase, as vtctld's
   * WorkflowStatus reports it (absent when the input shows none, e.g. a live read, which does not ask for it yet).
   */
  readonly copyProgress?: readonly WorkflowCopyProgress[];
  /** Additive: the Vitess releases judged against (absent in reports from older versions). */
  readonly vitess?: ReportVitess;
  /**
   * Additive: set when `--wait` did not end on its own (stopped by SIGINT or SIGTERM, or the cluster could no longer
   * be read): this is the last complete run's report, not a judgement of the cluster now. Absent otherwise.
   */
  readonly interrupted?: ReportInterrupted;
}

/** Why a `--wait` report is the last complete run's rather than a final one (`report.interrupted`). */
export interface ReportInterrupted {
  /** `SIGINT`, `SIGTERM`, or `unreadable` (a later run could not read the cluster before the wait ran out). */
  readonly by: 'SIGINT' | 'SIGTERM' | 'unreadable';
  /** When it was interrupted (ISO 8601). */
  readonly at: string;
  /** Which run the report is (1 = the first). */
  readonly run: number;
  /** One line: what happened, for people. */
  readonly message: string;
}

/**
 * The contract's key order for every object of the report: the JSON reporter writes exactly these keys, in this
 * order, and nothing else; an absent (undefined) key is left out. Each list is checked against its interface both
 * ways (`Exact`), so a field added to the report type is a compile error until it is placed in the contract here, and
 * the report object is exactly what `--format json` prints (test/report/json.test.ts compares the lists with the
 * example in docs/report-contract.md).
 */
type Exact<T, K extends readonly (keyof T)[]> = Exclude<keyof T, K[number]> extends never ? K : never;
const keys =
  <T>() =>
  <const K extends readonly (keyof T)[]>(k: Exact<T, K>) =>
    k;

export const CONTRACT_KEYS = {
  report: keys<Report>()([
    'version',
    'tool',
    'target',
    'startedAt',
    'durationMs',
    'checks',
    'findings',
    'workflows',
    'summary',
    'options',
    'streams',
    'copyProgress',
    'vitess',
    'command',
    'interrupted',
  ]),
  tool: keys<Report['tool']>()(['name', 'version']),
  target: keys<Report['target']>()(['vtctld', 'snapshot', 'keyspaces', 'workflows']),
  check: keys<CheckResult>()([
    'id',
    'status',
    'findings',
    'durationMs',
    'skipReason',
    'notApplicable',
    'notJudged',
    'error',
    'title',
    'severity',
    'remediation',
  ]),
  finding: keys<Finding>()([
    'check',
    'severity',
    'message',
    'keyspace',
    'shard',
    'workflow',
    'streamId',
    'tablet',
    'predicts',
    'reason',
    'step',
    'details',
  ]),
  workflow: keys<WorkflowVerdict>()([
    'keyspace',
    'workflow',
    'type',
    'action',
    'verdict',
    'blockedBy',
    'unverifiedBy',
    'vitessWouldSay',
    'targetShards',
    'evidence',
  ]),
  unverifiedBy: keys<UnverifiedBy>()(['check', 'part', 'why']),
  notJudged: keys<NotJudgedPart>()(['keyspace', 'shard', 'workflow', 'reason', 'part', 'why']),
  evidence: keys<VerdictEvidence>()(['check', 'reason', 'severity', 'concern']),
  summary: keys<Report['summary']>()(['error', 'warning', 'info', 'exitCode']),
  options: keys<ReportOptions>()(['failOn', 'maxLagSeconds', 'maxLag', 'only', 'skip', 'severities', 'action']),
  actionRequest: keys<ActionRequest>()([
    'action',
    'tabletTypes',
    'keepData',
    'renameTables',
    'initializeTargetSequences',
    'cells',
    'create',
  ]),
  stream: keys<StreamSummary>()([
    'keyspace',
    'workflow',
    'shard',
    'streamId',
    'tablet',
    'sourceKeyspace',
    'sourceShard',
    'state',
    'position',
    'lagSeconds',
    'message',
    'copyTablesLeft',
  ]),
  vitess: keys<ReportVitess>()(['judgedAgainst', 'lowest', 'highest', 'source', 'evidence', 'mixed']),
  interrupted: keys<ReportInterrupted>()(['by', 'at', 'run', 'message']),
  copyProgress: keys<WorkflowCopyProgress>()(['keyspace', 'workflow', 'tables']),
  copyTable: keys<TableCopyProgress>()(['table', 'rowsCopied', 'rowsTotal', 'percent', 'phase']),
} as const;
