/**
 * Per-workflow verdicts: would SwitchTraffic (or Externalize, for lookup backfills) succeed now, and what would
 * Vitess print first if it ran?
 *
 * Findings carry the exact Vitess error text they predict in `details.vitessError` where the check can format
 * it. This module orders them the way Vitess runs its own steps and wraps them the way Vitess wraps them:
 * `vitessio/vitess:go/vt/vtctl/workflow/server.go` `WorkflowSwitchTraffic` (GetWorkflows/buildTrafficSwitcher
 * errors first, then `canSwitch`, then `switchWrites`: `ts.validate`, the stream migrator, stopping streams,
 * the catch-up wait) and `lookup_vindex.go` for Externalize.
 */
import type { ClusterModel, Workflow } from '../model/types.js';
import type { Finding } from './check.js';
import type { WorkflowVerdict } from './report.js';

type Phase = 'build' | 'canSwitch' | 'validate' | 'migrate' | 'stop' | 'catchup' | 'externalize';
/** Rank of the first check of each phase, for findings that name their own phase (`details.vitessPhase`). */
const PHASE_RANK: Readonly<Record<Phase, number>> = {
  build: 9,
  canSwitch: 19,
  validate: 29,
  migrate: 39,
  stop: 49,
  catchup: 59,
  externalize: 70,
};

/**
 * Where in Vitess's sequence a finding's error is raised: by default its check's place, unless the finding says
 * otherwise in `details.vitessPhase` (one check can predict errors raised at different steps).
 */
function placeOf(f: Finding): { rank: number; phase: Phase } | undefined {
  const own = f.details?.vitessPhase;
  if (typeof own === 'string' && Object.hasOwn(PHASE_RANK, own))
    return { rank: PHASE_RANK[own as Phase], phase: own as Phase };
  return ORDER[f.check];
}

/** Vitess's order of its own checks, by our check id. Lower runs first. */
const ORDER: Readonly<Record<string, { rank: number; phase: Phase }>> = {
  // GetWorkflows / buildTrafficSwitcher (§5.2 step 2)
  'no-streams': { rank: 10, phase: 'build' },
  'multiple-source-keyspaces': { rank: 11, phase: 'build' },
  'multiple-target-keyspaces': { rank: 12, phase: 'build' },
  'table-list-mismatch': { rank: 13, phase: 'build' },
  // canSwitch (§5.3): lag, then per stream frozen / copying / error, then the tablet refresh
  'replication-lag': { rank: 20, phase: 'canSwitch' },
  'frozen-workflow': { rank: 21, phase: 'canSwitch' },
  'copy-incomplete': { rank: 22, phase: 'canSwitch' },
  'stream-error': { rank: 23, phase: 'canSwitch' },
  unreachable: { rank: 24, phase: 'canSwitch' },
  // switchWrites (§5.5): validate, stream migrator, stop streams, catch-up
  'shard-set-mismatch': { rank: 30, phase: 'validate' },
  'source-streams-not-running': { rank: 40, phase: 'migrate' },
  'stream-set-mismatch': { rank: 41, phase: 'migrate' },
  'position-drift': { rank: 50, phase: 'stop' },
  'missing-source': { rank: 60, phase: 'catchup' },
  'source-not-serving': { rank: 61, phase: 'catchup' },
  'binlogs-purged': { rank: 62, phase: 'catchup' },
  'stop-after-copy-state': { rank: 63, phase: 'catchup' },
};

function wrap(phase: Phase, wf: Workflow, text: string): string {
  switch (phase) {
    case 'build':
    case 'externalize':
      return text;
    case 'validate':
      // switchReads and switchWrites wrap ts.validate's error with handleError("workflow validation failed", err),
      // which formats `%s: %v` (`vitessio/vitess:go/vt/vtctl/workflow/server.go`).
      return `workflow validation failed: ${text}`;
    case 'canSwitch':
      return `cannot switch traffic for workflow ${wf.name} at this time: ${text}`;
    case 'migrate':
      return `failed to migrate the workflow streams: ${text}`;
    case 'stop':
      return `failed to stop the workflow streams in the ${wf.keyspace} keyspace: ${text}`;
    case 'catchup':
      return `failed to sync up replication between the source and target: ${text}`;
  }
}

/**
 * SwitchTraffic's `BuildTargets` (`vitessio/vitess:go/vt/vtctl/workflow/utils.go`) reads every shard of the target
 * keyspace, streams or not: a shard without a primary (`shard %v/%v doesn't have a primary set`) or a primary that
 * cannot be read fails it (FIDELITY-AUDIT §18). So a primary vtpreflight could not read anywhere in the target
 * keyspace concerns every MoveTables/Reshard/Migrate workflow there.
 */
function readsEveryTargetPrimary(f: Finding, wf: Workflow): boolean {
  return (
    (wf.type === 'MoveTables' || wf.type === 'Reshard' || wf.type === 'Migrate') &&
    f.check === 'unreachable' &&
    f.details?.reason === 'primaryUnreadable'
  );
}

/** True when the finding concerns this workflow: named, or located on one of its target or source shards. */
export function findingConcerns(f: Finding, wf: Workflow): boolean {
  if (f.workflow !== undefined)
    return f.workflow === wf.name && (f.keyspace === undefined || f.keyspace === wf.keyspace);
  if (f.keyspace === undefined) return true; // cluster-wide (e.g. a vtctld read that failed)
  if (f.keyspace === wf.keyspace)
    return (
      f.shard === undefined ||
      wf.targetShards.includes(f.shard) ||
      (wf.type === 'Reshard' && wf.sourceShards.includes(f.shard)) ||
      readsEveryTargetPrimary(f, wf)
    );
  if (wf.sourceKeyspaces.includes(f.keyspace)) return f.shard === undefined || wf.sourceShards.includes(f.shard);
  return false;
}

/**
 * Checks whose Vitess step runs once per shard (or per stream) and reports every failure at once through
 * `vterrors.Aggregate` (`vitessio/vitess:go/vt/vterrors/aggregate.go` `aggregateErrors`: the texts sorted and joined
 * with `\n`), with at most one error per shard where the step returns on its first failing stream:
 * the stream migrator's `readSourceStreams` (stopped before copying on one shard, `stream_migrator.go`), its
 * `verifyStreamPositions` (every stream), and Externalize's `validateInternalizedState` (`lookup_vindex.go`).
 */
const AGGREGATED: Readonly<Record<string, 'perShard' | 'perStream'>> = {
  'source-streams-not-running': 'perShard',
  'position-drift': 'perStream',
  'stop-after-copy-state': 'perShard',
};

/** The text Vitess prints for the first-ranked finding, with its siblings aggregated the way Vitess does. */
function aggregatedText(first: Finding, ranked: readonly Finding[]): string {
  const own = first.details!.vitessError as string;
  const how = AGGREGATED[first.check];
  if (how === undefined) return own;
  const siblings = ranked.filter((f) => f.check === first.check && placeOf(f)!.phase === placeOf(first)!.phase);
  const texts: string[] = [];
  const shardsDone = new Set<string>();
  // readSourceStreams tests Stopped rows before copy_state on each shard: a stopped shard reports only that.
  const order = (f: Finding) => (f.details?.reason === 'stoppedStream' ? 0 : 1);
  for (const f of [...siblings].sort((a, b) => order(a) - order(b))) {
    if (how === 'perShard') {
      const key = `${f.keyspace ?? ''}/${f.shard ?? ''}`;
      if (shardsDone.has(key)) continue;
      shardsDone.add(key);
    }
    texts.push(f.details!.vitessError as string);
  }
  return [...new Set(texts)].sort().join('\n');
}

/** The verdict of each selected workflow, in model order. */
export function buildVerdicts(model: ClusterModel, findings: readonly Finding[]): WorkflowVerdict[] {
  return model.workflows.map((wf) => {
    const mine = findings.filter((f) => findingConcerns(f, wf));
    const errors = mine.filter((f) => f.severity === 'error');
    const warnings = mine.filter((f) => f.severity === 'warning');
    const blockedBy = [...new Set(errors.map((f) => f.check))].sort();
    let vitessWouldSay: string | null = null;
    const quotable = errors.filter((f) => typeof f.details?.vitessError === 'string' && placeOf(f));
    // A lookup backfill is judged by Externalize, not SwitchTraffic: only Externalize's errors are what Vitess prints
    // (`lookup_vindex.go`); SwitchTraffic's canSwitch/validate/stream-migrator refusals never reach it.
    const externalize = quotable.filter((f) => placeOf(f)!.phase === 'externalize');
    const ranked = (externalize.length > 0 || wf.type === 'CreateLookupIndex' ? externalize : quotable).sort(
      (a, b) => placeOf(a)!.rank - placeOf(b)!.rank,
    );
    const first = ranked[0];
    if (first) vitessWouldSay = wrap(placeOf(first)!.phase, wf, aggregatedText(first, ranked));
    return {
      keyspace: wf.keyspace,
      workflow: wf.name,
      type: wf.type,
      verdict: errors.length > 0 ? 'blocked' : warnings.length > 0 ? 'at-risk' : 'ready',
      blockedBy,
      vitessWouldSay,
    };
  });
}
