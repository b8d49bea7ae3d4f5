/**
 * Per-workflow verdicts: would SwitchTraffic (or Externalize, for lookup backfills) succeed now, and what would
 * Vitess print first if it ran?
 *
 * Findings carry the exact Vitess error text they predict in `details.vitessError` where the check can format
 * it, and the Vitess step their reason declares. This module orders them by step, in Vitess's own order
 * (src/engine/steps.ts), and wraps them the way Vitess wraps errors of that step.
 */
import { isReverseOfJudgedWorkflow } from '../model/reverse-workflow.js';
import type { ClusterModel, ReadFailure, Workflow } from '../model/types.js';
import { byCodeUnit } from '../text.js';
import { primaryRead, type PrimaryReadId } from '../reads/registry.js';
import { compareShardNames } from '../vitess/keyrange.js';
import type { CheckSpec, Finding } from './check.js';
import type { CreateRequest } from './options.js';
import type { Action, Concern, UnverifiedBy, Verdict, WorkflowVerdict } from './report.js';
import { actionQuotesStep, STEP_INFO, stepRank, type VitessStep } from './steps.js';
import { workflowKey } from './reverse-switch.js';

/** A part of the cluster a workflow's action depends on, for locating findings and read failures. */
export interface Located {
  readonly keyspace?: string;
  readonly shard?: string;
  readonly workflow?: string;
}

/**
 * Why a located finding or read failure concerns a workflow, or null when it does not. This is THE definition of
 * "concerns", used by the verdicts, their evidence and every reporter (which read `evidence` instead of deciding):
 * - `workflow`: it names the workflow, in the workflow's target keyspace, in one of its source keyspaces (a step
 *   of its action on the source primaries), or with no keyspace;
 * - `target-shard`: it is on a shard record of the target keyspace (Vitess's `BuildTargets` reads every one, not
 *   only those with streams: utils.go);
 * - `source-shard`: it is on one of the workflow's source shards (their primaries and tablets, and for a Reshard
 *   the other workflows' streams there, which the stream migrator reads);
 * - `keyspace`: it is about the target or a source keyspace as a whole;
 * - `cluster`: it has no location (e.g. a vtctld call that failed).
 */
export function concernOf(f: Located, wf: Workflow): Concern | null {
  if (f.workflow !== undefined) {
    if (f.workflow !== wf.name) return null;
    // Named in its target keyspace, or with no keyspace: about the workflow itself.
    if (f.keyspace === undefined || f.keyspace === wf.keyspace) return 'workflow';
    // Named on one of its source keyspaces (what its switch does to the source primaries: the reverse workflow's
    // permissions, the journal, the reverse position): the workflow's own step, declared where it happens.
    return wf.sourceKeyspaces.includes(f.keyspace) ? 'workflow' : null;
  }
  if (f.keyspace === undefined) return 'cluster';
  if (f.keyspace === wf.keyspace) return f.shard === undefined ? 'keyspace' : 'target-shard';
  if (wf.sourceKeyspaces.includes(f.keyspace)) {
    if (f.shard === undefined) return 'keyspace';
    return wf.sourceShards.includes(f.shard) ? 'source-shard' : null;
  }
  return null;
}

/** True when the finding concerns this workflow (see {@link concernOf}). */
export function findingConcerns(f: Located, wf: Workflow): boolean {
  return concernOf(f, wf) !== null;
}

/** Where the run's inputs stopped short: checks not run and parts not read (see {@link buildVerdicts}). */
export interface Coverage {
  /** Every check of the run with its status (`skipped` with a reason, `error` with its error). */
  readonly checks: readonly {
    readonly id: string;
    readonly status: string;
    readonly skipReason?: string;
    readonly error?: string;
    /** Skipped because none of its reasons applies to the action judged: not a gap. */
    readonly notApplicable?: true;
    /** What it ran without: data the readout does not carry, located (see `NotJudged` in check.ts). */
    readonly notJudged?: readonly (Located & {
      readonly reason: string;
      readonly part: string;
      readonly why: string;
    })[];
  }[];
  /** `--only` / `--skip` as given. */
  readonly only: readonly string[];
  readonly skip: readonly string[];
}

/** `Part` of a read failure: what was not read, and where. */
function partOf(f: ReadFailure): string {
  const where = f.keyspace !== undefined ? ` of ${f.keyspace}${f.shard !== undefined ? `/${f.shard}` : ''}` : '';
  return `${f.what}${where}${f.tablet !== undefined ? ` (${f.tablet})` : ''}`;
}

/** The action a run judges (`--action`) and which findings predict which action (their reasons' declarations). */
export interface Judge {
  readonly action: Action;
  readonly applies: (f: Pick<Finding, 'check' | 'reason'>, action: Action) => boolean;
  /** `--action create`: the one workflow judged, which need not exist yet. */
  readonly create?: CreateRequest;
  /**
   * Whether a failed declared read (src/reads/registry.ts) leaves unverified a workflow judged for `action`, on a
   * primary of that `concern`: some reason applicable to the action declares it and can do more than warn
   * (`reasonNeedsRead`, src/engine/check.ts). Absent: every failed read does (the judge of tests without checks).
   */
  readonly needsRead?: (read: PrimaryReadId, action: Action, concern: Concern) => boolean;
  /** The checks' declared quoting traits (`CheckSpec.aggregated`, `streamTestOrder`), by check id. */
  readonly traits?: (check: string) => Pick<CheckSpec, 'aggregated' | 'streamTestOrder'> | undefined;
  /** The ids of the checks given the engine's roles (`CheckSpec.role`); absent roles are not played. */
  readonly roles?: { readonly readFailures?: string; readonly workflowNotFound?: string };
  /**
   * `--action reverse`: per forward workflow (src/engine/reverse-switch.ts `workflowKey`), the `<wf>_reverse` whose
   * SwitchTraffic that ReverseTraffic runs, and the steps of it that run: findings of those steps concerning it bear
   * on the forward workflow's verdict, after its own steps, quoted and wrapped as that SwitchTraffic prints them.
   */
  readonly reverseSwitched?: {
    readonly workflows: ReadonlyMap<string, Workflow>;
    readonly steps: readonly VitessStep[];
  };
}

/**
 * True when a failed read leaves `wf`'s verdict for `action` unverified: it failed a core read, or a read that is not
 * a primary's (topology, GetFullStatus, the connection), or a declared read some applicable reason needs.
 */
export function failureConcernsAction(
  f: ReadFailure,
  wf: Workflow,
  concern: Concern,
  action: Action,
  needsRead: Judge['needsRead'],
): boolean {
  if (f.reads === undefined || f.reads.length === 0 || needsRead === undefined) return true;
  // A Reshard's source shards are in its target keyspace (concern `target-shard`): they are its source side too.
  const onSource =
    concern !== 'source-shard' &&
    f.keyspace !== undefined &&
    f.shard !== undefined &&
    wf.sourceKeyspaces.includes(f.keyspace) &&
    wf.sourceShards.includes(f.shard);
  return f.reads.some(
    (id) =>
      primaryRead(id).role === 'core' ||
      needsRead(id, action, concern) ||
      (onSource && needsRead(id, action, 'source-shard')),
  );
}

/**
 * The workflows judged: every selected one; under `--action create` only the workflow to create, in its target
 * keyspace, standing in with no streams when it does not exist yet (the usual case).
 *
 * Under an action other than SwitchTraffic, a `<wf>_reverse` whose forward workflow exists and that was not named
 * with `--workflow` gets no row of its own: it is judged as part of its forward workflow (ReverseTraffic of `<wf>`
 * loads it, complete and cancel of `<wf>` delete it), and the same action run on the `_reverse` name does something
 * else (vitessio/vitess go/vt/vtctl/workflow/server.go @006b7393 `getWorkflowState` flips the keyspaces of a
 * `_reverse` name and reports the forward state: cancel refuses it while forward writes are switched, ReverseTraffic
 * loads `<wf>` and runs canSwitch on it, MirrorTraffic refuses it). A row saying `ready` for that name was the
 * verdict of an action nobody runs. SwitchTraffic on `<wf>_reverse` is what ReverseTraffic of `<wf>` does and is
 * judged as before.
 */
export function judgedWorkflows(model: ClusterModel, judge: Judge): readonly Workflow[] {
  const create = judge.create;
  if (create === undefined)
    return judge.action === 'switch'
      ? model.workflows
      : model.workflows.filter((wf) => !isReverseOfJudgedWorkflow(model, wf));
  const existing = model.workflows.find((w) => w.keyspace === create.targetKeyspace && w.name === create.workflow);
  if (existing !== undefined) return [existing];
  // The source keyspace's shards are read by create (its table list, its schema): their read failures concern it.
  const source = create.sourceKeyspace === undefined ? undefined : model.keyspaces.get(create.sourceKeyspace);
  const toCreate: Workflow = {
    keyspace: create.targetKeyspace,
    name: create.workflow,
    type: create.reshard !== undefined ? 'Reshard' : 'MoveTables',
    subType: 'None',
    streams: [],
    sourceKeyspaces:
      create.reshard !== undefined
        ? [create.targetKeyspace]
        : create.sourceKeyspace === undefined
          ? []
          : [create.sourceKeyspace],
    sourceShards:
      create.reshard !== undefined
        ? [...create.reshard.sourceShards]
        : source?.shards.ok
          ? [...source.shards.value.keys()]
          : [],
    targetShards: [],
    frozen: false,
    vtctld: undefined,
  };
  return [toCreate];
}

/** Every finding applies to SwitchTraffic-or-Externalize: the judge of runs before `--action` existed. */
const DEFAULT_JUDGE: Judge = { action: 'switch', applies: () => true };

/**
 * What a workflow is judged by: the action asked for; under the default `switch`, a lookup backfill (or a workflow
 * with an Externalize-step error, i.e. a `stop_after_copy` backfill) is judged by Externalize instead.
 */
function actionOf(wf: Workflow, errors: readonly Finding[], requested: Action): Action {
  if (requested !== 'switch') return requested;
  return wf.type === 'CreateLookupIndex' || errors.some((f) => f.step === 'externalize') ? 'externalize' : 'switch';
}

/**
 * The verdict of each selected workflow, in model order, plus a row for each workflow named on the command line
 * that has no streams (from the `no-streams` findings).
 *
 * `blocked` when an error concerns it; else `unverified` when something it depends on was not read or not checked
 * (`unverifiedBy`: read failures located on its keyspaces' shards, checks skipped for lack of input, checks that
 * errored, checks excluded by `--only`/`--skip`); else `at-risk` with warnings; else `ready`.
 */
export function buildVerdicts(
  model: ClusterModel,
  findings: readonly Finding[],
  coverage: Coverage = { checks: [], only: [], skip: [] },
  judge: Judge = DEFAULT_JUDGE,
): { rows: WorkflowVerdict[]; unverifiedFailsGate: boolean } {
  type Gap = UnverifiedBy & { readonly byUser?: true };
  let unverifiedFailsGate = false;
  const notRun: Gap[] = [];
  for (const c of coverage.checks) {
    if (c.notApplicable === true) continue;
    if (c.status === 'error') notRun.push({ check: c.id, why: `the check failed: ${c.error ?? 'unknown error'}` });
    else if (c.status === 'skipped' && c.skipReason !== undefined) notRun.push({ check: c.id, why: c.skipReason });
    else if (c.status === 'skipped')
      notRun.push({
        check: c.id,
        why: coverage.skip.includes(c.id) ? 'not run: excluded with --skip' : 'not run: not named in --only',
        byUser: true,
      });
  }
  const rows = judgedWorkflows(model, judge).map((wf) => {
    const located = findings
      .map((f) => ({ f, concern: concernOf(f, wf) }))
      .filter((x): x is { f: Finding; concern: Concern } => x.concern !== null);
    const action = actionOf(
      wf,
      located.map((x) => x.f).filter((f) => f.severity === 'error'),
      judge.action,
    );
    // Only the findings whose reason predicts this workflow's action bear on its verdict.
    const own = located.filter((x) => judge.applies(x.f, action));
    // A write ReverseTraffic: the SwitchTraffic steps it runs on `<wf>_reverse` after that one's canSwitch.
    const rev = action === 'reverse' ? judge.reverseSwitched?.workflows.get(workflowKey(wf)) : undefined;
    const borrowed =
      rev === undefined
        ? []
        : findings
            .filter((f) => !own.some((x) => x.f === f))
            .filter((f) => judge.reverseSwitched!.steps.includes(f.step) && judge.applies(f, 'switch'))
            .map((f) => ({ f, concern: concernOf(f, rev) }))
            .filter((x): x is { f: Finding; concern: Concern } => x.concern !== null);
    const concerned = [...own, ...borrowed];
    const mine = concerned.map((x) => x.f);
    const errors = mine.filter((f) => f.severity === 'error');
    const warnings = mine.filter((f) => f.severity === 'warning');
    const blockedBy = [...new Set(errors.map((f) => f.check))].sort(byCodeUnit);
    const unread: Gap[] = model.failures
      .filter((f) => {
        // A read no action needs (ReadFailure.notNeeded) is said once by `unreachable`, as information.
        if (f.unavailable || f.notNeeded === true) return false;
        const concern = concernOf(f, wf);
        // A declared read concerns only the actions with a reason that needs it (src/reads/registry.ts).
        return concern !== null && failureConcernsAction(f, wf, concern, action, judge.needsRead);
      })
      .map((f) => ({
        check: judge.roles?.readFailures ?? '',
        part: partOf(f),
        // Not the part's fault: the run's --deadline passed first, or vtctld itself failed.
        why:
          f.cause === 'deadline'
            ? 'not read before the run deadline (--deadline)'
            : f.cause === 'vtctld'
              ? 'vtctld failed during the read'
              : f.timedOut
                ? 'timeout'
                : f.reason,
      }));
    // A check that ran without data the readout does not carry (an older readout) did not judge this workflow.
    const notJudged: Gap[] = coverage.checks.flatMap((c) =>
      (c.notJudged ?? [])
        .filter((g) => concernOf(g, wf) !== null && judge.applies({ check: c.id, reason: g.reason }, action))
        .map((g) => ({ check: c.id, part: g.part, why: g.why })),
    );
    const unverifiedBy = [...unread, ...notJudged, ...notRun];
    // Unverified fails the gate, unless its only cause is the user's own --only/--skip (docs/report-contract.md, "Exit
    // codes").
    if (errors.length === 0 && unverifiedBy.some((u) => u.byUser !== true)) unverifiedFailsGate = true;
    const row: WorkflowVerdict = {
      keyspace: wf.keyspace,
      workflow: wf.name,
      type: wf.type,
      action,
      verdict: verdictOf(errors.length, unverifiedBy.length, warnings.length),
      blockedBy,
      unverifiedBy: unverifiedBy.map(publicUnverified),
      // Materialize has no SwitchTraffic (vtctldclient `Materialize` offers create, update, cancel, show, start and
      // stop: go/cmd/vtctldclient/command/vreplication/materialize/materialize.go `registerCommands`), so no
      // SwitchTraffic refusal is ever printed for it: its verdict says whether its streams are healthy, quoting
      // nothing.
      vitessWouldSay:
        wf.type === 'Materialize' && action === 'switch'
          ? null
          : vitessWouldSay(wf.name, wf.keyspace, errors, action, judge.traits, {
              findings: new Set(borrowed.map((x) => x.f)),
              ...(rev !== undefined ? { workflow: rev } : {}),
            }),
      evidence: concerned.map(({ f, concern }) => ({
        check: f.check,
        reason: f.reason,
        severity: f.severity,
        concern,
      })),
    };
    return row;
  });
  // A workflow named on the command line that has no streams: Vitess refuses it in BuildTargets (no-streams says so).
  for (const f of findings) {
    const notFound = judge.roles?.workflowNotFound;
    if (notFound === undefined || f.check !== notFound || f.severity !== 'error' || f.workflow === undefined) continue;
    if (!judge.applies(f, judge.action)) continue;
    if (rows.some((r) => r.workflow === f.workflow && (f.keyspace === undefined || r.keyspace === f.keyspace)))
      continue;
    rows.push({
      keyspace: f.keyspace ?? '',
      workflow: f.workflow,
      type: 'unknown',
      action: judge.action,
      verdict: 'blocked',
      blockedBy: [notFound],
      unverifiedBy: [],
      vitessWouldSay: f.details.vitessError ?? null,
      evidence: [{ check: f.check, reason: f.reason, severity: f.severity, concern: 'workflow' }],
    });
  }
  return { rows, unverifiedFailsGate };
}

function verdictOf(errors: number, unverified: number, warnings: number): Verdict {
  if (errors > 0) return 'blocked';
  if (unverified > 0) return 'unverified';
  return warnings > 0 ? 'at-risk' : 'ready';
}

function publicUnverified(u: UnverifiedBy & { readonly byUser?: true }): UnverifiedBy {
  return u.part !== undefined ? { check: u.check, part: u.part, why: u.why } : { check: u.check, why: u.why };
}

/** A check's declared quoting traits (`CheckSpec.aggregated`, `streamTestOrder`), or none. */
type Traits = Judge['traits'];

/** The text Vitess prints for the first-ranked finding, with its siblings aggregated the way Vitess does. */
function aggregatedText(first: Finding, ranked: readonly Finding[], traits: Traits): string {
  const own = first.details.vitessError!;
  // Vitess reports every failure of some steps at once (vterrors.Aggregate, vitessio/vitess:go/vt/vterrors/aggregate.go
  // `aggregateErrors`: sorted, joined with `\n`), as the check declares (`CheckSpec.aggregated`).
  const how = traits?.(first.check)?.aggregated;
  if (how === undefined) return own;
  const siblings = ranked.filter((f) => f.check === first.check && f.step === first.step);
  const texts: string[] = [];
  const shardsDone = new Set<string>();
  // readSourceStreams tests Stopped rows before copy_state on each shard: a stopped shard reports only that.
  const order = (f: Finding) => (f.reason === 'stoppedStream' ? 0 : 1);
  for (const f of [...siblings].sort((a, b) => order(a) - order(b))) {
    if (how === 'perShard') {
      const key = `${f.keyspace ?? ''}/${f.shard ?? ''}`;
      if (shardsDone.has(key)) continue;
      shardsDone.add(key);
    }
    texts.push(f.details.vitessError!);
  }
  return [...new Set(texts)].sort(byCodeUnit).join('\n');
}

/**
 * `canSwitch` (`vitessio/vitess:go/vt/vtctl/workflow/server.go`) walks `wf.ShardStreams` and, per stream, tests
 * `st.Message == Frozen`, then `st.State == Copying`, then `st.State == Error`, returning on the first hit: the first
 * stream that hits decides, not a fixed rank of the three refusals. Streams of one shard come in
 * id order; the shards come in Go map order, which no one can predict: key-range order stands in for it. A finding
 * without a stream (FROZEN is judged per workflow) comes first: every stream of a frozen workflow is frozen. Each
 * check declares its place in the per-stream test order (`CheckSpec.streamTestOrder`); one that does not comes last.
 */
function streamOrder(a: Finding, b: Finding, traits: Traits): number {
  const rank = (f: Finding) => traits?.(f.check)?.streamTestOrder ?? Number.MAX_SAFE_INTEGER;
  const located = (f: Finding) => f.streamId !== undefined;
  if (located(a) !== located(b)) return located(a) ? 1 : -1;
  return compareShardNames(a.shard ?? '', b.shard ?? '') || (a.streamId ?? 0) - (b.streamId ?? 0) || rank(a) - rank(b);
}

/** The first error Vitess would print, in its own words and wrapped as it wraps errors of that step. */
function vitessWouldSay(
  workflow: string,
  keyspace: string,
  errors: readonly Finding[],
  action: Action,
  traits: Traits,
  reverse: { readonly findings: ReadonlySet<Finding>; readonly workflow?: Workflow } = { findings: new Set() },
): string | null {
  // Only the errors of the action's own steps are what Vitess prints: a lookup backfill is judged by Externalize,
  // whose run never reaches SwitchTraffic's canSwitch/validate/stream-migrator refusals (`lookup_vindex.go`). A write
  // ReverseTraffic also prints the refusals of the reverse workflow's SwitchTraffic steps (they rank after its own).
  const quotable = errors.filter(
    (f) => f.details.vitessError !== undefined && (actionQuotesStep(action, f.step) || reverse.findings.has(f)),
  );
  // Stable sort: within one step, findings keep the runner's order (check id, then each check's own order), except
  // canSwitch's per-stream loop, which is ordered like Vitess walks it (see streamOrder).
  const ranked = quotable.sort(
    (a, b) =>
      stepRank(a.step, action) - stepRank(b.step, action) ||
      (a.step === 'can-switch-streams' ? streamOrder(a, b, traits) : 0),
  );
  const first = ranked[0];
  if (!first) return null;
  const text = aggregatedText(first, ranked, traits);
  const wrap = STEP_INFO[first.step].wrap;
  if (wrap === null) return text;
  // The reverse workflow's own switch wraps its errors with its own name and target keyspace.
  const rev = reverse.findings.has(first) ? reverse.workflow : undefined;
  return rev !== undefined ? wrap(rev.name, rev.keyspace, text, 'switch') : wrap(workflow, keyspace, text, action);
}
