/**
 * The check contract: a check is a pure, synchronous function of the model and options.
 *
 * ## How to declare a reason (read this before adding a finding)
 * Every finding a check returns names one of the check's declared reasons (its failure modes), the way an ESLint
 * rule reports a `messageId`. The reason, not the finding, decides severity, the Vitess step and the Vitess error
 * it predicts, so that a finding cannot claim an error its reason does not have.
 * ```ts
 * export default defineCheck({
 *   id: 'copy-incomplete',
 *   reasons: {
 *     // A refusal Vitess raises itself: quote its Go format string exactly as in the upstream file and line.
 *     stillCopying: {
 *       severity: 'error',
 *       step: 'can-switch-streams',
 *       vitess: { template: 'copy is still in progress', file: 'go/vt/vtctl/workflow/server.go', line: 1234,
 *                 versions: { from: 17 } },
 *     },
 *     // A finding Vitess does not raise itself: say why it matters in one sentence.
 *     rowsLeft: { severity: 'warning', step: 'can-switch-streams', heuristic: true,
 *                 rationale: 'copy_state still lists tables, so the copy is not finished though the row says Running.'
 * },
 *   },
 *   …,
 *   run(model) {
 *     return [{ reason: 'stillCopying', message: '…', ...streamLocation(s), vitessArgs: [] }];
 *   },
 * });
 * ```
 * - `template` is the literal Go string (with its `%s`/`%d`/`%v` verbs) at `file:line` of `vitessio/vitess` at the
 *   commit of `test/checks/upstream/`; copy that line into the fixture there (test/checks/reasons.test.ts fails
 *   otherwise). `versions` is the range of Vitess major versions in which the text is exact (`to` absent = newest).
 * - `step` is where in Vitess's own order the refusal happens (src/engine/steps.ts); the verdict orders by it.
 * - A finding of a reason with `vitess` gives the template's arguments, `vitessArgs: [...]`, one per verb in order
 *   (`[]` for a template without verbs; a slice argument prints as Go's `[a b]`, a list Vitess joins itself is the
 *   joined string): the runner formats them as Go's `fmt` does (src/vitess/go-format.ts) into
 *   `details.vitessError`, and refuses a count that does not match the verbs. Only when the text cannot be given by
 *   arguments (quoted as read from the cluster, or built by the model) does a finding set `vitessError` itself, with
 *   a comment saying why. `details` carries evidence only, never `reason` or `vitessError`.
 * - Each reason needs at least one invalid case in `test/checks/<id>.test.ts` (asserting `reason`), and the check
 *   a valid case; the meta-test in test/checks/reasons.test.ts enforces it.
 * - One severity per reason: when the same condition is an error in one situation and a warning in another, that
 *   is two reasons (`timeUpdatedLag` / `timeUpdatedLagNotSwitched`).
 * - The reason ids come from the `reasons` keys alone: a finding (or a `notJudged` gap) naming any other id does not
 *   compile. A check that builds findings in helpers declares its reasons before `defineCheck` and names their ids:
 *   `const reasons = { … } satisfies Reasons; type R = keyof typeof reasons;`, its helpers returning
 *   `CheckFinding<R>` (a helper typed `CheckFinding`, whose reason is any string, is refused by `defineCheck`).
 */
import type { ClusterModel, Stream } from '../model/types.js';
import type { ReadoutPart } from '../readout.js';
import type { PrimaryReadId } from '../reads/registry.js';
import type { CheckOptions } from './options.js';
import { type Action, actionRunsStep, type VitessStep } from './steps.js';
import type { GoArg } from '../vitess/go-format.js';

import { SEVERITY_RANK, type Severity } from './severity.js';

export type { Action, VitessStep } from './steps.js';
export { SEVERITIES, type Severity } from './severity.js';

/** Where Vitess raises the error a reason predicts. */
export interface VitessText {
  /** The Go format string exactly as upstream writes it (verbs `%s`, `%d`, `%v`, `%q` included). */
  readonly template: string;
  /** Path in `vitessio/vitess`, e.g. `go/vt/vtctl/workflow/server.go`. */
  readonly file: string;
  /** 1-based line of the literal in that file, at the commit of test/checks/upstream/. */
  readonly line: number;
  /** Vitess major versions in which this text is what Vitess prints; `to` absent = up to the newest. */
  readonly versions: { readonly from: number; readonly to?: number };
  /**
   * The release whose source `file:line` (and every `wraps` level's) is read at, as the Go module version
   * (`v0.19.10`), for a text that only older releases print; its lines are kept in
   * test/checks/upstream/<release>/. Absent: the commit of the file's fixture in test/checks/upstream/.
   */
  readonly release?: string;
  /**
   * When the literal at `file:line` is a wrapper with a `%w` around a sentinel error defined elsewhere: that
   * sentinel's literal and place. `template` is then the wrapper with `%w` replaced by `wraps.literal`.
   */
  readonly wraps?: VitessWrap;
}

/**
 * A wrapped error's literal and place. When Vitess wraps twice (`vterrors.Wrapf(err, "a")` around
 * `vterrors.Wrapf(err, "b")` around `"c"`), the inner level is `wraps` again:
 * `{ literal: 'b: c', wraps: { literal: 'c' } }`.
 */
export interface VitessWrap {
  readonly literal: string;
  readonly file: string;
  readonly line: number;
  readonly wraps?: VitessWrap;
}

interface ReasonBase {
  readonly severity: Severity;
  /** The Vitess step whose outcome this reason predicts (the step where Vitess refuses, or would go wrong). */
  readonly step: VitessStep;
  /**
   * The actions (`check --action`) whose outcome this reason predicts, when narrower than "every action that runs
   * `step`" (src/engine/steps.ts `ACTION_STEPS`): e.g. a routing state SwitchTraffic reports that `complete`
   * requires. Listing an action that does not run `step` is a bug (test/checks/reasons.test.ts).
   */
  readonly actions?: readonly Action[];
  /**
   * The declared primary reads (src/reads/registry.ts) this reason judges from. When one failed, was refused or was
   * cut short, the verdicts whose action this reason applies to are `unverified` (naming the read), unless the
   * reason is heuristic and can only warn: then the check just could not judge, which the report says on one info
   * line. `on` narrows it to the primaries of one side of the workflow (e.g. the source primaries, where the reverse
   * streams run). A core read (the stream rows, copy_state, the log, the journal) needs no declaration.
   */
  readonly reads?: readonly ReadNeed[];
}

/** A declared read a reason judges from, on every primary of the workflow or on one side's only. */
export type ReadNeed = PrimaryReadId | { readonly read: PrimaryReadId; readonly on: 'source-shard' | 'target-shard' };

/** The read a {@link ReadNeed} names. */
export const readOfNeed = (n: ReadNeed): PrimaryReadId => (typeof n === 'string' ? n : n.read);

/**
 * True when `reason` (of `check`, with the user's severity override) leaves a verdict unverified when `read` failed on
 * a primary whose concern for the workflow is `concern`: it declares the read (on that side), it is not a heuristic
 * that can only warn, and its Vitess text is raised by some release `judged` against.
 */
export function reasonNeedsRead(
  reason: Reason,
  read: PrimaryReadId,
  concern: string,
  severityOverride?: Severity,
  judged?: { readonly lo: { readonly major: number }; readonly hi: { readonly major: number } },
): boolean {
  if (reason.heuristic === true && (severityOverride ?? reason.severity) !== 'error') return false;
  // A refusal no release judged against raises (e.g. a v21+ text on a v20 cluster) needs nothing read.
  const v = reason.vitess?.versions;
  if (
    v !== undefined &&
    judged !== undefined &&
    (judged.hi.major < v.from || (v.to !== undefined && judged.lo.major > v.to))
  )
    return false;
  return (reason.reads ?? []).some((n) => readOfNeed(n) === read && (typeof n === 'string' || n.on === concern));
}
/** A failure mode Vitess itself reports with `vitess.template`. */
export interface VitessReason extends ReasonBase {
  readonly vitess: VitessText;
  readonly heuristic?: undefined;
}
/** A failure mode Vitess does not report itself (a data-flow hole, a risk, a partial read). */
export interface HeuristicReason extends ReasonBase {
  readonly heuristic: true;
  /** One sentence: why this matters although Vitess says nothing. */
  readonly rationale: string;
  readonly vitess?: undefined;
}
export type Reason = VitessReason | HeuristicReason;
/** A check's reasons by id; declare them `const reasons = { … } satisfies Reasons` to name their ids as a type. */
export type Reasons = { readonly [id: string]: Reason };

/** Evidence of a finding. `reason` and `vitessError` are stamped by the runner from typed fields. */
export type Evidence = Readonly<Record<string, unknown>> & {
  readonly reason?: never;
  readonly vitessError?: never;
};

/** The location fields of a finding: where the object at fault lives, and whose it is. */
export interface FindingLocation {
  /** Keyspace of the object at fault (a stream's target keyspace, a tablet's keyspace). */
  readonly keyspace?: string;
  readonly shard?: string;
  /** The workflow the finding is about, when it is about one. */
  readonly workflow?: string;
  readonly streamId?: number;
  readonly tablet?: string;
}

/** A finding as a check returns it: its reason, location and evidence; the runner adds the rest. */
export interface CheckFinding<R extends string = string> extends FindingLocation {
  /** One of the check's declared reasons. */
  readonly reason: R;
  readonly message: string;
  /**
   * The arguments of its reason's `vitess.template`, in the order of its verbs: the runner formats them as Go does
   * into `details.vitessError` (src/vitess/go-format.ts). Only for a reason with `vitess`.
   */
  readonly vitessArgs?: readonly GoArg[];
  /**
   * Escape hatch: Vitess's error as text, for a finding whose text the arguments cannot give (a text read from the
   * cluster and quoted as read, or built by the model); say why in a comment beside it. Never with `vitessArgs`.
   */
  readonly vitessError?: string;
  readonly details?: Evidence;
}

/** `details` of a finding in the report: the reason, the evidence, and the filled-in Vitess error if predicted. */
export type FindingDetails = Readonly<Record<string, unknown>> & {
  readonly reason: string;
  readonly vitessError?: string;
};

/** A finding in the report (docs/report-contract.md; `reason` and `step` are additive). */
export interface Finding extends FindingLocation {
  readonly check: string;
  readonly severity: Severity;
  readonly message: string;
  /** The Vitess error template its reason predicts; absent for heuristic reasons. */
  readonly predicts?: string;
  readonly reason: string;
  readonly step: VitessStep;
  readonly details: FindingDetails;
}

/**
 * Something a check could not judge because the readout does not carry the data it needs (an additive read absent
 * from a readout taken by an earlier vtpreflight), located like a finding: the verdict of each workflow it concerns
 * is `unverified`, naming the check and `part`. Only for data Vitess acts on at the step of `reason`: the runner keeps
 * it only when that reason applies to the action judged. A read that failed is not this: it is a model failure.
 */
export interface NotJudged<R extends string = string> extends FindingLocation {
  /** The declared reason the check could not judge (its step decides the actions this gap concerns). */
  readonly reason: R;
  /** What is missing, e.g. `information_schema.TABLES of vt_commerce of commerce/0 (zone1-0000000100)`. */
  readonly part: string;
  /** Why it matters, in one line. */
  readonly why: string;
}

/** What a check module writes (see the guide at the top of this file). */
export interface CheckSpec<R extends string = string> {
  /** kebab-case, stable forever. */
  readonly id: string;
  readonly title: string;
  /**
   * `leftovers`: the check judges what earlier workflows left behind; `vtpreflight sweep` runs this group (and
   * `unreachable`) over every keyspace, `check` runs it over the selected workflows' keyspaces (see
   * `CheckOptions.sweep` and `src/model/leftovers.ts`).
   */
  readonly group?: 'leftovers';
  /**
   * A part the engine gives this check rather than its findings: `read-failures` says what the run could not read
   * (every verdict a failed read concerns names this check; `sweep` runs it beside the leftovers), and
   * `workflow-not-found` answers for a workflow named on the command line that has no streams (its error becomes
   * that workflow's own `blocked` row).
   */
  readonly role?: 'read-failures' | 'workflow-not-found';
  /**
   * How Vitess reports several failures of this check's step at once: through `vterrors.Aggregate` (the texts sorted
   * and joined with `\n`), one per shard (`perShard`: the step returns on its first failing stream of a shard) or one
   * per failing stream (`perStream`). Absent: Vitess stops at the first failure, which alone is quoted.
   */
  readonly aggregated?: 'perShard' | 'perStream';
  /**
   * For a check whose refusals `canSwitch` tests per stream (FROZEN, then Copying, then Error, the first stream that
   * hits deciding): this check's place in that per-stream test order.
   */
  readonly streamTestOrder?: number;
  /** Its failure modes, by stable camelCase id. */
  readonly reasons: { readonly [K in R]: Reason };
  /** Markdown: why it matters, which Vitess error it predicts, with the upstream file. */
  readonly description: string;
  /** Markdown: what to do, in full sentences ending with a period. */
  readonly remediation: string;
  /**
   * The readout parts the check cannot judge without (absent = none beyond the streams). The runner skips the
   * check, with a reason, when the readout lacks one of them (e.g. `check --workflows-json`).
   */
  readonly needs?: readonly ReadoutPart[];
  run(model: ClusterModel, options: CheckOptions): readonly CheckFinding<NoInfer<R>>[];
  /**
   * What the check could not judge for the selected workflows because the readout does not carry the data (see
   * {@link NotJudged}); absent = the check judges everything it applies to, or stays silent on purpose (an advisory
   * check saying so in its header). Called only when the check ran.
   */
  notJudged?(model: ClusterModel, options: CheckOptions): readonly NotJudged<NoInfer<R>>[];
}

/** A registered check: its spec plus what is derived from its reasons. */
export interface Check<R extends string = string> extends CheckSpec<R> {
  /** The highest severity among its reasons (the catalog's default severity). */
  readonly severity: Severity;
  /** The distinct Vitess templates its reasons predict, in declaration order, joined with ` / ` (catalog). */
  readonly predicts?: string;
}

/** Every location field of a finding about one stream: where the row lives and whose it is. */
export function streamLocation(
  s: Stream,
): Required<Pick<CheckFinding, 'keyspace' | 'shard' | 'workflow' | 'streamId' | 'tablet'>> {
  return { keyspace: s.keyspace, shard: s.shard, workflow: s.workflow, streamId: s.id, tablet: s.tablet };
}

/** Declares a check; derives its default severity and `predicts` from its reasons. */
export function defineCheck<R extends string>(spec: CheckSpec<R>): Check<R> {
  const reasons = Object.values(spec.reasons) as Reason[];
  const severity = reasons.reduce<Severity>(
    (s, r) => (SEVERITY_RANK[r.severity] < SEVERITY_RANK[s] ? r.severity : s),
    'info',
  );
  const templates = [...new Set(reasons.flatMap((r) => (r.vitess ? [r.vitess.template] : [])))];
  return Object.freeze({
    ...spec,
    severity,
    ...(templates.length > 0 ? { predicts: templates.join(' / ') } : {}),
  });
}

/**
 * True when `reason` predicts the outcome of `action` (with the tablet types requested, null = the default): its step
 * runs in that action (src/engine/steps.ts `stepsFor`), and the reason's `actions` do not narrow it away.
 */
export function reasonApplies(reason: Reason, action: Action, tabletTypes: readonly string[] | null = null): boolean {
  return (
    actionRunsStep(action, reason.step, tabletTypes) &&
    (reason.actions === undefined || reason.actions.includes(action))
  );
}

/** True when some reason of `check` applies to one of `actions` (else the check has nothing to say about them). */
export function checkApplies(
  check: Check,
  actions: readonly Action[],
  tabletTypes: readonly string[] | null = null,
): boolean {
  return (Object.values(check.reasons) as Reason[]).some((r) => actions.some((a) => reasonApplies(r, a, tabletTypes)));
}

/** The reason `id` of `check`, or a thrown Error naming the check (a bug in the check). */
export function reasonOf(check: Check, id: string): Reason {
  const r = (check.reasons as Readonly<Record<string, Reason>>)[id];
  if (r === undefined || !Object.hasOwn(check.reasons, id))
    throw new Error(
      `check ${check.id} returned a finding with undeclared reason ${JSON.stringify(id)} (declared: ${Object.keys(check.reasons).join(', ')})`,
    );
  return r;
}
