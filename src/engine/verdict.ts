/**
 * Per-workflow verdicts: would SwitchTraffic (or Externalize, for lookup backfills) succeed now, and what would
 * Vitess print first if it ran?
 *
 * Findings carry the exact Vitess error text they predict in `details.vitessError` where the check can format
 * it, and the Vitess step their reason declares. This module orders them by step, in Vitess's own order
 * (src/engine/steps.ts), and wraps them the way Vitess wraps errors of that step.
 */
import type { ClusterModel, Workflow } from '../model/types.js';
import type { Finding } from './check.js';
import type { WorkflowVerdict } from './report.js';
import { STEP_INFO, stepRank } from './steps.js';

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
    f.reason === 'primaryUnreadable'
  );
}

/**
 * Checks whose Vitess step runs once per shard (or per stream) and reports every failure at once through
 * `vterrors.Aggregate` (`vitessio/vitess:go/vt/vterrors/aggregate.go` `aggregateErrors`: the texts sorted and joined
 * with `\n`), with at most one error per shard where the step returns on its first failing stream: the stream
 * migrator's `readSourceStreams` (stopped before copying on one shard, `stream_migrator.go`), its
 * `verifyStreamPositions` (every stream), and Externalize's `validateInternalizedState` (`lookup_vindex.go`).
 */
const AGGREGATED: Readonly<Record<string, 'perShard' | 'perStream'>> = {
  'source-streams-not-running': 'perShard',
  'position-drift': 'perStream',
  'stop-after-copy-state': 'perShard',
};

/** The text Vitess prints for the first-ranked finding, with its siblings aggregated the way Vitess does. */
function aggregatedText(first: Finding, ranked: readonly Finding[]): string {
  const own = first.details.vitessError!;
  const how = AGGREGATED[first.check];
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
  return [...new Set(texts)].sort().join('\n');
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

/** The verdict of each selected workflow, in model order. */
export function buildVerdicts(model: ClusterModel, findings: readonly Finding[]): WorkflowVerdict[] {
  return model.workflows.map((wf) => {
    const mine = findings.filter((f) => findingConcerns(f, wf));
    const errors = mine.filter((f) => f.severity === 'error');
    const warnings = mine.filter((f) => f.severity === 'warning');
    const blockedBy = [...new Set(errors.map((f) => f.check))].sort();
    let vitessWouldSay: string | null = null;
    const quotable = errors.filter((f) => f.details.vitessError !== undefined);
    // A lookup backfill is judged by Externalize, not SwitchTraffic: only Externalize's errors are what Vitess prints
    // (`lookup_vindex.go`); SwitchTraffic's canSwitch/validate/stream-migrator refusals never reach it.
    const externalize = quotable.filter((f) => f.step === 'externalize');
    // Stable sort: within one step, findings keep the runner's order (check id, then each check's own order).
    const ranked = (externalize.length > 0 || wf.type === 'CreateLookupIndex' ? externalize : quotable).sort(
      (a, b) => stepRank(a.step) - stepRank(b.step),
    );
    const first = ranked[0];
    if (first) {
      const text = aggregatedText(first, ranked);
      const wrap = STEP_INFO[first.step].wrap;
      vitessWouldSay = wrap === null ? text : wrap(wf.name, wf.keyspace, text);
    }
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
