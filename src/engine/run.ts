/**
 * The runner: one pure function from a model and a list of checks to the report object.
 *
 * It isolates failures (a check that throws gets status `error`, the run goes on), stamps `check`, `severity`
 * and `predicts` on every finding, sorts, and derives the per-workflow verdicts. It never imports `checks/`:
 * the composition roots pass the registry in.
 */
import type { ClusterModel } from '../model/types.js';
import {
  checkApplies,
  readOfNeed,
  reasonApplies,
  reasonNeedsRead,
  reasonOf,
  type Check,
  type CheckFinding,
  type Finding,
  type Reason,
} from './check.js';
import { primaryRead } from '../reads/registry.js';
import type { Action } from './steps.js';
import { fillRemediation } from './remediation.js';
import { SEVERITY_RANK, type Severity } from './severity.js';
import { byCodeUnit, oneLine } from '../text.js';
import { compareShardNames } from '../vitess/keyrange.js';
import type { ReadoutPart } from '../readout.js';
import type { CheckOptions } from './options.js';
import {
  REPORT_VERSION,
  type CheckResult,
  type NotJudgedPart,
  type Report,
  type WorkflowCopyProgress,
} from './report.js';
import { buildStreamSummaries, matrixTargetShards } from './streams.js';
import { buildVerdicts, concernOf } from './verdict.js';
import { reverseModel, reverseSwitched, reverseSwitchSteps } from './reverse-switch.js';
import { resolveVitessVersions } from '../model/versions.js';
import { formatRange, formatRelease } from '../vitess/versions.js';
import { goSprintf } from '../vitess/go-format.js';

/** What `--fail-on` accepts. */
export type FailOn = Severity | 'never';

export interface RunMeta {
  readonly toolVersion: string;
  readonly snapshot: string | null;
  readonly startedAt: string;
  /** Milliseconds already spent before checking (collection); added to the checks' own time. */
  readonly elapsedMs: number;
  readonly failOn: FailOn;
  /** The readout parts the run lacks (`readout.lacks`); checks that need one are skipped with a reason. */
  readonly lacks?: readonly ReadoutPart[];
  /** Names the readout's source in skip reasons, e.g. `a GetWorkflows JSON file` (default `this readout`). */
  readonly lacksSource?: string;
  /**
   * `vtpreflight sweep`: no per-workflow verdicts (no action is judged); the gate fails on any part of the cluster
   * not read or check not run for lack of input, besides the findings at or above `--fail-on` (README "Sweep").
   */
  readonly sweep?: boolean;
  /**
   * Epoch milliseconds after which no further check starts (`--deadline` from the end of the read): a
   * check reached after it is skipped with {@link CHECK_DEADLINE_PASSED}, so its verdicts are unverified, never ready.
   */
  readonly deadlineAt?: number;
  /** The clock compared with `deadlineAt` (default `Date.now`). */
  readonly now?: () => number;
}

/** The skip reason of a check the run's deadline left no time for. */
export const CHECK_DEADLINE_PASSED = 'not run: the run deadline (--deadline) had passed';

/** How a skip reason names a readout part. */
const PART_NAMES: Record<ReadoutPart, string> = {
  topology: 'the topology (keyspace, shard and routing records)',
  tablets: 'the tablet records',
  fullStatus: "the tablets' GetFullStatus",
  vschema: 'the vschemas',
  streamDetails: "the streams' filters and timestamps",
};

/**
 * The actions a run judges for `--action`: the action itself; for `switch` also Externalize, by which lookup
 * backfills are judged (DESIGN: "SwitchTraffic; for lookup backfills, Externalize").
 */
export function judgedActions(action: Action): readonly Action[] {
  return action === 'switch' ? ['switch', 'externalize'] : [action];
}

/** The checks `vtpreflight sweep` runs: the `leftovers` group, and the read-failures check so that what was not read
 * is said. */
export function sweepChecks(checks: readonly Check[]): Check[] {
  return checks.filter((c) => c.group === 'leftovers' || c.role === 'read-failures');
}

/** `{ [key]: id }` of the check given `role`, or nothing when no check of the run has it. */
function roleOf<K extends string>(
  checks: readonly Check[],
  role: NonNullable<Check['role']>,
  key: K,
): Partial<Record<K, string>> {
  const c = checks.find((x) => x.role === role);
  return c === undefined ? {} : ({ [key]: c.id } as Partial<Record<K, string>>);
}

/** True when `severity` is at or above the `--fail-on` level. */
export function meetsFailOn(severity: Severity, failOn: FailOn): boolean {
  return failOn !== 'never' && SEVERITY_RANK[severity] <= SEVERITY_RANK[failOn];
}

const cmp = (a: string | undefined, b: string | undefined) => byCodeUnit(a ?? '', b ?? '');
/** Findings without a shard first, then the one shard order (`src/vitess/keyrange.ts`). */
const cmpShard = (a: string | undefined, b: string | undefined) =>
  a === undefined ? (b === undefined ? 0 : -1) : b === undefined ? 1 : compareShardNames(a, b);

/** The finding order: check id, keyspace, shard (key-range order), workflow, stream id, tablet, message. */
export function compareFindings(a: Finding, b: Finding): number {
  return (
    cmp(a.check, b.check) ||
    cmp(a.keyspace, b.keyspace) ||
    cmpShard(a.shard, b.shard) ||
    cmp(a.workflow, b.workflow) ||
    (a.streamId ?? -1) - (b.streamId ?? -1) ||
    cmp(a.tablet, b.tablet) ||
    cmp(a.message, b.message)
  );
}

/** Runs `checks` against `model` and returns the report object (docs/report-contract.md). */
export function runModelChecks(
  model: ClusterModel,
  checks: readonly Check[],
  given: CheckOptions,
  meta: RunMeta,
): Report {
  // Every check sees the versions to judge against: given (--vitess-version) or inferred from the cluster.
  const vitess = resolveVitessVersions(model, given.vitess);
  const options: CheckOptions = { ...given, vitess };
  const results: CheckResult[] = [];
  const findings: Finding[] = [];
  const sorted = [...checks].sort((a, b) => byCodeUnit(a.id, b.id));
  const judged = judgedActions(options.action.action);
  const types = options.action.tabletTypes;
  const reasonsOf = new Map(checks.map((c) => [c.id, c] as const));
  // A write ReverseTraffic is SwitchTraffic of `<wf>_reverse` after its canSwitch (src/engine/reverse-switch.ts).
  const reversed = !meta.sweep && options.action.action === 'reverse' ? reverseSwitched(model) : new Map();
  const revs = [...reversed.values()];
  const revSteps = reverseSwitchSteps(types);
  const revModel = revs.length > 0 ? reverseModel(model, revs) : null;
  const revOptions: CheckOptions = { ...options, action: { ...options.action, action: 'switch' } };
  const checkTime = performance.now();
  for (const check of sorted) {
    const base = {
      title: check.title,
      severity: options.severities[check.id] ?? check.severity,
      remediation: check.remediation,
    };
    const selected = (options.only.length === 0 || options.only.includes(check.id)) && !options.skip.includes(check.id);
    if (!selected) {
      results.push({ id: check.id, status: 'skipped', findings: 0, durationMs: 0, ...base });
      continue;
    }
    // A check none of whose reasons applies to the action judged has nothing to say about it (not unverified).
    // A sweep judges no action: every leftover it finds is its answer.
    const judgesReverse = revModel !== null && checkApplies(check, ['switch'], types);
    if (!meta.sweep && !checkApplies(check, judged, types) && !judgesReverse) {
      const skipReason = `does not apply to --action ${options.action.action}`;
      results.push({
        id: check.id,
        status: 'skipped',
        findings: 0,
        durationMs: 0,
        skipReason,
        notApplicable: true,
        ...base,
      });
      continue;
    }
    if (meta.deadlineAt !== undefined && (meta.now ?? Date.now)() >= meta.deadlineAt) {
      results.push({
        id: check.id,
        status: 'skipped',
        findings: 0,
        durationMs: 0,
        skipReason: CHECK_DEADLINE_PASSED,
        ...base,
      });
      continue;
    }
    const missing = (check.needs ?? []).filter((n) => meta.lacks?.includes(n));
    if (missing.length > 0) {
      const skipReason = `needs ${missing.map((m) => PART_NAMES[m]).join(' and ')}, which ${meta.lacksSource ?? 'this readout'} does not carry`;
      results.push({ id: check.id, status: 'skipped', findings: 0, durationMs: 0, skipReason, ...base });
      continue;
    }
    const t0 = performance.now();
    let raw: readonly CheckFinding[];
    try {
      raw = check.run(model, options);
      if (judgesReverse) {
        // The reverse workflows' own SwitchTraffic steps after their canSwitch; a finding of both passes is kept once.
        const kept = raw.filter((f) => judged.some((a) => reasonApplies(reasonOf(check, f.reason), a, types)));
        const seen = new Set(kept.map((f) => JSON.stringify(f)));
        const more = check
          .run(revModel, revOptions)
          .filter(
            (f) =>
              !seen.has(JSON.stringify(f)) &&
              revSteps.includes(reasonOf(check, f.reason).step) &&
              reasonApplies(reasonOf(check, f.reason), 'switch', types) &&
              revs.some((w) => concernOf(f, w) !== null),
          );
        raw = [...kept, ...more];
      }
    } catch (e) {
      results.push({
        id: check.id,
        status: 'error',
        findings: 0,
        durationMs: Math.round(performance.now() - t0),
        error: oneLine(e, 500),
        ...base,
      });
      continue;
    }
    let notJudged: readonly NotJudgedPart[] = [];
    try {
      // What it could not judge for lack of data, kept only where its reason applies to the action judged.
      notJudged = (check.notJudged?.(model, options) ?? [])
        .filter((g) => meta.sweep || judged.some((a) => reasonApplies(reasonOf(check, g.reason), a, types)))
        .map((g) => ({ ...g }));
    } catch (e) {
      results.push({ id: check.id, status: 'error', findings: 0, durationMs: 0, error: oneLine(e, 500), ...base });
      continue;
    }
    const durationMs = Math.round(performance.now() - t0);
    let stamped: Finding[];
    try {
      // Findings whose reason predicts none of the actions judged are not part of this run's answer.
      stamped = raw
        .filter(
          (f) =>
            meta.sweep ||
            judged.some((a) => reasonApplies(reasonOf(check, f.reason), a, types)) ||
            (judgesReverse && reasonApplies(reasonOf(check, f.reason), 'switch', types)),
        )
        .map((f) => stamp(check, f, options.severities[check.id]));
    } catch (e) {
      // A finding that names an undeclared reason, or claims a Vitess error its reason does not have: a bug.
      results.push({ id: check.id, status: 'error', findings: 0, durationMs, error: oneLine(e), ...base });
      continue;
    }
    findings.push(...stamped);
    results.push({
      id: check.id,
      status: stamped.length > 0 ? 'fail' : 'pass',
      findings: stamped.length,
      durationMs,
      ...(notJudged.length > 0 ? { notJudged } : {}),
      ...base,
      // The command to type, with the names its findings know (every reporter shows this one text).
      remediation: fillRemediation(check.remediation, stamped),
    });
  }
  // Verdicts follow each check's own order (Vitess's order within a check); the report is sorted.
  const { rows: verdicts, unverifiedFailsGate } = meta.sweep
    ? {
        rows: [],
        // A sweep is about the whole cluster: anything not read or not checked leaves it unverified.
        unverifiedFailsGate:
          // A declared read only when a leftover check declares it (none does today); an error answer to
          // GetFullStatus (ReadFailure.notNeeded) never.
          model.failures.some(
            (f) =>
              !f.unavailable &&
              f.notNeeded !== true &&
              (f.reads === undefined ||
                f.reads.some(
                  (id) =>
                    primaryRead(id).role === 'core' ||
                    checks.some((c) =>
                      (Object.values(c.reasons) as Reason[]).some((r) =>
                        (r.reads ?? []).some((n) => readOfNeed(n) === id),
                      ),
                    ),
                )),
          ) ||
          // GetMirrorRules is kept out of `failures` (check judges it in leftover-mirror-rules), but a sweep that
          // could not read it may have missed a leftover.
          (!model.mirrorRules.ok &&
            model.mirrorRules.error.unavailable !== true &&
            model.mirrorRules.error.kind !== 'not-collected') ||
          results.some((r) => r.status === 'skipped' && r.skipReason !== undefined && r.notApplicable !== true) ||
          results.some((r) => r.notJudged !== undefined),
      }
    : buildVerdicts(
        model,
        findings,
        { checks: results, only: options.only, skip: options.skip },
        {
          action: options.action.action,
          ...(options.action.create !== undefined ? { create: options.action.create } : {}),
          ...(reversed.size > 0 ? { reverseSwitched: { workflows: reversed, steps: revSteps } } : {}),
          traits: (id) => reasonsOf.get(id),
          roles: {
            ...roleOf(checks, 'read-failures', 'readFailures'),
            ...roleOf(checks, 'workflow-not-found', 'workflowNotFound'),
          },
          applies: (f, a) => {
            const c = reasonsOf.get(f.check);
            return c === undefined || reasonApplies(reasonOf(c, f.reason), a, types);
          },
          needsRead: (read, a, concern) =>
            checks.some((c) =>
              (Object.values(c.reasons) as Reason[]).some(
                (r) =>
                  reasonApplies(r, a, types) && reasonNeedsRead(r, read, concern, options.severities[c.id], vitess),
              ),
            ),
        },
      );
  findings.sort(compareFindings);
  const summary = { error: 0, warning: 0, info: 0 };
  for (const f of findings) summary[f.severity]++;
  // A check that threw leaves the result partial: it fails the gate unless --fail-on never, so that an
  // incomplete run never passes silently (DESIGN: "a partial read … is never a silent pass").
  const errored = meta.failOn !== 'never' && results.some((r) => r.status === 'error');
  // A workflow left unverified by a read that failed, a check skipped for lack of input or a check that errored fails
  // the gate like an error; one left unverified only by the user's own --only/--skip does not (DESIGN exit codes).
  // A primary's streams or the topology not read may hide workflows no verdict row stands for: never a silent pass.
  const hidden = model.failures.some(
    (f) =>
      !f.unavailable &&
      f.notNeeded !== true &&
      (f.part === 'streams' || f.part === 'topology') &&
      (f.reads === undefined || f.reads.some((id) => primaryRead(id).role === 'core')),
  );
  const unverified = meta.failOn !== 'never' && (unverifiedFailsGate || hidden);
  const failing = errored || unverified || findings.some((f) => meetsFailOn(f.severity, meta.failOn));
  const shardsOf = new Map(
    model.workflows.map((wf) => [`${wf.keyspace}\u0000${wf.name}`, matrixTargetShards(model, wf)] as const),
  );
  return {
    version: REPORT_VERSION,
    tool: { name: 'vtpreflight', version: meta.toolVersion },
    ...(meta.sweep ? { command: 'sweep' as const } : {}),
    target: {
      vtctld: model.vtctld,
      snapshot: meta.snapshot,
      keyspaces: [...model.selection.keyspaces],
      workflows: [...model.selection.workflows],
    },
    startedAt: meta.startedAt,
    durationMs: Math.round(meta.elapsedMs + (performance.now() - checkTime)),
    checks: results,
    findings,
    workflows: verdicts.map((v) => ({ ...v, targetShards: shardsOf.get(`${v.keyspace}\u0000${v.workflow}`) ?? [] })),
    summary: { ...summary, exitCode: failing ? 1 : 0 },
    options: {
      failOn: meta.failOn,
      maxLagSeconds: options.maxLagSeconds,
      maxLag: options.maxLagGiven ?? `${options.maxLagSeconds}s`,
      only: [...options.only],
      skip: [...options.skip],
      severities: { ...options.severities },
      action: { ...options.action, tabletTypes: options.action.tabletTypes && [...options.action.tabletTypes] },
    },
    streams: buildStreamSummaries(model),
    ...copyProgressOf(model, verdicts),
    vitess: {
      judgedAgainst: formatRange(vitess.lo, vitess.hi),
      lowest: formatRelease(vitess.lo),
      highest: formatRelease(vitess.hi),
      source: vitess.source,
      evidence: [...vitess.evidence],
      mixed: vitess.mixed,
    },
  };
}

/**
 * What a finding's `predicts` says: the Vitess template with each Go verb (`%s`, `%d`, `%v` …) shown as `…`, so that no
 * report shows a raw format string. The text with this finding's values is `details.vitessError`; the exact template
 * with its upstream file and line is in the check's reasons (`vtpreflight checks ID`).
 */
export function predictsText(template: string): string {
  return template.replace(/%%|%[-+# 0]*[0-9.]*[a-zA-Z]/g, (verb) => (verb === '%%' ? '%' : '…'));
}

/**
 * A finding in the contract's key order, without undefined keys. Severity (unless the user overrides it per check),
 * `predicts` and `step` come from the finding's declared reason; `details.reason` and `details.vitessError` from its
 * typed fields.
 */
export function stamp(check: Check, f: CheckFinding, severityOverride?: Severity): Finding {
  const reason = reasonOf(check, f.reason);
  if ((f.vitessError !== undefined || f.vitessArgs !== undefined) && reason.vitess === undefined)
    throw new Error(`check ${check.id}: reason ${f.reason} is heuristic but its finding carries a Vitess error`);
  if (f.vitessArgs !== undefined && f.vitessError !== undefined)
    throw new Error(`check ${check.id}: a finding of reason ${f.reason} gives both vitessArgs and vitessError`);
  // The reason's template with the finding's arguments, as Go prints them; a hand-filled text only where it has none.
  const vitessError =
    f.vitessArgs !== undefined && reason.vitess !== undefined
      ? goSprintf(reason.vitess.template, f.vitessArgs)
      : f.vitessError;
  const severity = severityOverride ?? reason.severity;
  const out: Record<string, unknown> = { check: check.id, severity, message: f.message };
  if (f.keyspace !== undefined) out.keyspace = f.keyspace;
  if (f.shard !== undefined) out.shard = f.shard;
  if (f.workflow !== undefined) out.workflow = f.workflow;
  if (f.streamId !== undefined) out.streamId = f.streamId;
  if (f.tablet !== undefined) out.tablet = f.tablet;
  if (reason.vitess !== undefined) out.predicts = predictsText(reason.vitess.template);
  out.reason = f.reason;
  out.step = reason.step;
  out.details = {
    reason: f.reason,
    ...f.details,
    ...(vitessError !== undefined ? { vitessError } : {}),
  };
  return out as unknown as Finding;
}

/** The copy progress of the judged workflows that show one (`report.copyProgress`); nothing when none does. */
function copyProgressOf(
  model: ClusterModel,
  verdicts: readonly { readonly keyspace: string; readonly workflow: string }[],
): { copyProgress?: WorkflowCopyProgress[] } {
  const out: WorkflowCopyProgress[] = [];
  for (const v of verdicts) {
    const tables = model.copyProgress?.get(`${v.keyspace}/${v.workflow}`);
    if (tables === undefined || tables.length === 0) continue;
    out.push({
      keyspace: v.keyspace,
      workflow: v.workflow,
      tables: tables.map((t) => ({
        table: t.table,
        rowsCopied: t.rowsCopied,
        rowsTotal: t.rowsTotal,
        percent: Math.round(t.rowsPercentage * 10) / 10,
        ...(t.phase !== undefined ? { phase: t.phase } : {}),
      })),
    });
  }
  return out.length > 0 ? { copyProgress: out } : {};
}
