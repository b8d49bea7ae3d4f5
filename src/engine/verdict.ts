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

/** True when the finding concerns this workflow: named, or located on one of its target or source shards. */
export function findingConcerns(f: Finding, wf: Workflow): boolean {
  if (f.workflow !== undefined)
    return f.workflow === wf.name && (f.keyspace === undefined || f.keyspace === wf.keyspace);
  if (f.keyspace === undefined) return true; // cluster-wide (e.g. a vtctld read that failed)
  if (f.keyspace === wf.keyspace)
    return (
      f.shard === undefined ||
      wf.targetShards.includes(f.shard) ||
      (wf.type === 'Reshard' && wf.sourceShards.includes(f.shard))
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
    // A lookup backfill is judged by Externalize, not SwitchTraffic: then only Externalize's errors are what Vitess prints.
    const externalize = quotable.filter((f) => f.step === 'externalize');
    // Stable sort: within one step, findings keep the runner's order (check id, then each check's own order).
    const ranked = (externalize.length > 0 ? externalize : quotable).sort(
      (a, b) => stepRank(a.step) - stepRank(b.step),
    );
    const first = ranked[0];
    if (first) {
      const text = first.details.vitessError!;
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
