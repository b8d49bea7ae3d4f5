/**
 * vdiff-evidence: whether the workflow's data was compared (VDiff) before its traffic is switched.
 *
 * VDiff v2 records each run on every target primary in the sidecar: `<sidecar>.vdiff` (one row per run and target
 * shard: `vdiff_uuid`, `workflow`, `keyspace`, `state`, `last_error`) and `<sidecar>.vdiff_table` (per table:
 * `mismatch`), upstream `go/vt/sidecardb/schema/vdiff/vdiff.sql` and `vdiff_table.sql` (read at 252e9453 / 2291bf54).
 * The troubleshooting guide says to run a VDiff before switching traffic; a divergence found after the switch is
 * served to the application (#9715, #11233, #17969). While a VDiff runs it stops the workflow's target streams
 * (`update _vt.vreplication set state = 'Stopped', message='for vdiff'`, `go/vt/vttablet/tabletmanager/vdiff/
 * table_differ.go` `stopTargetVReplicationStreams`) and restarts them per table, under the workflow's named topo lock
 * (`<keyspace>/<workflow>`, PR #16260, v21; PR #18998 makes VDiff wait for it): a switch then races it. I found no
 * SwitchTraffic refusal of its own for a running VDiff, so this is a warning, not an error.
 *
 * The check reads both tables in the sidecar batch of each target primary; tables absent (a sidecar without VDiff v2)
 * read as no run. It judges the newest run (by `created_at`, then id) of the workflow over its target shards.
 *
 * Failure modes (`details.reason`):
 * - `noVDiff` (info): no VDiff of the workflow on any target primary (MoveTables and Reshard, copy finished).
 * - `vdiffRunning` (warning): the newest VDiff is `pending` or `started` on some target shard.
 * - `vdiffFailed` (warning): the newest VDiff ended in `error` or was `stopped` on some target shard.
 * - `vdiffMismatch` (warning): the newest VDiff completed and found tables that differ.
 *
 * Not judged: a target primary not read (the read failure says so), whether the VDiff ran after the copy finished,
 * and how old it is.
 */
import { defineCheck, type CheckFinding, type Reasons } from '../src/engine/check.js';
import type { ClusterModel, VDiffRow, Workflow } from '../src/model/types.js';
import { byCodeUnit } from '../src/text.js';

/** The VDiff rows of `wf` over its target shards with their shard, or null when a target primary's were not read. */
function runsOf(model: ClusterModel, wf: Workflow): (VDiffRow & { readonly targetShard: string })[] | null {
  const out: (VDiffRow & { readonly targetShard: string })[] = [];
  for (const name of wf.targetShards) {
    const sc = model.shard(wf.keyspace, name)?.sidecar;
    if (sc === undefined || !sc.ok || sc.value.vdiffs === undefined || !sc.value.vdiffs.ok) return null;
    for (const v of sc.value.vdiffs.value)
      if (v.workflow === wf.name && (v.keyspace === '' || v.keyspace === wf.keyspace))
        out.push({ ...v, targetShard: name });
  }
  return out;
}

function workflowFindings(model: ClusterModel, wf: Workflow): CheckFinding<Reason>[] {
  if ((wf.type !== 'MoveTables' && wf.type !== 'Reshard') || wf.frozen || wf.targetShards.length === 0) return [];
  // A VDiff is evidence about copied data: while any stream still copies there is nothing to ask of it yet.
  if (wf.streams.some((s) => s.displayState === 'Copying')) return [];
  const runs = runsOf(model, wf);
  if (runs === null) return [];
  const label = `${wf.keyspace}.${wf.name}`;
  const at = { keyspace: wf.keyspace, workflow: wf.name };
  if (runs.length === 0) {
    return [
      {
        ...at,
        reason: 'noVDiff',
        message: `${wf.type} ${label} has no VDiff recorded on its target primaries: its copied data was never compared with the source before the switch`,
        details: { targetShards: [...wf.targetShards] },
      },
    ];
  }
  const newest = [...runs].sort(
    (a, b) =>
      byCodeUnit(b.created_at ?? '', a.created_at ?? '') || b.id - a.id || byCodeUnit(a.vdiff_uuid, b.vdiff_uuid),
  )[0] as VDiffRow;
  const run = runs.filter((r) => r.vdiff_uuid === newest.vdiff_uuid);
  const uuid = newest.vdiff_uuid;
  const shardsIn = (states: readonly string[]) =>
    run.filter((r) => states.includes(r.state.toLowerCase())).map((r) => r.targetShard);
  const details = { vdiffUuid: uuid, createdAt: newest.created_at };
  const running = shardsIn(['pending', 'started']);
  if (running.length > 0) {
    return [
      {
        ...at,
        reason: 'vdiffRunning',
        message: `VDiff ${uuid} of ${label} is still running on ${running.join(', ')}: it stops the target streams for each table it compares, so a switch now races it, and its result is not known yet`,
        details: { ...details, shards: running },
      },
    ];
  }
  const failed = shardsIn(['error', 'stopped']);
  if (failed.length > 0) {
    const first = run.find((r) => r.targetShard === failed[0]) as VDiffRow;
    return [
      {
        ...at,
        reason: 'vdiffFailed',
        message: `the newest VDiff ${uuid} of ${label} did not complete on ${failed.join(', ')} (${first.state}${first.last_error === '' ? '' : `: ${first.last_error}`}): the data was not shown to match`,
        details: { ...details, shards: failed, state: first.state, lastError: first.last_error },
      },
    ];
  }
  const tables = [...new Set(run.flatMap((r) => r.mismatched_tables))].sort(byCodeUnit);
  if (tables.length > 0) {
    const shards = run.filter((r) => r.mismatched_tables.length > 0).map((r) => r.targetShard);
    return [
      {
        ...at,
        reason: 'vdiffMismatch',
        message: `the newest VDiff ${uuid} of ${label} found rows that differ in ${tables.join(', ')} on ${shards.join(', ')}: switching serves the target's divergent data`,
        details: { ...details, tables, shards },
      },
    ];
  }
  return [];
}

const reasons = {
  noVDiff: {
    reads: ['vdiffs'],
    severity: 'info',
    step: 'switch-reads',
    heuristic: true,
    rationale:
      'Vitess does not require a VDiff, but its troubleshooting guide asks for one before switching traffic; without it a divergence is found by the application (#9715, #11233).',
  },
  vdiffRunning: {
    reads: ['vdiffs'],
    severity: 'warning',
    step: 'can-switch-streams',
    heuristic: true,
    rationale:
      "A running VDiff takes the workflow's named topo lock (PR #16260) and stops the target streams per table ('for vdiff', table_differ.go stopTargetVReplicationStreams; PR #18998): a switch races it.",
  },
  vdiffFailed: {
    reads: ['vdiffs'],
    severity: 'warning',
    step: 'switch-reads',
    heuristic: true,
    rationale:
      'A VDiff that ended in error or was stopped proves nothing about the data (#17969: VDiff failing on unique-key-only tables), so the switch goes ahead unverified.',
  },
  vdiffMismatch: {
    reads: ['vdiffs'],
    severity: 'warning',
    step: 'switch-reads',
    heuristic: true,
    rationale:
      'A VDiff mismatch means the target differs from the source; switching serves the difference (#9715 shows false mismatches from collations, which a rerun or a look at the report tells apart).',
  },
} satisfies Reasons;

type Reason = keyof typeof reasons;

export default defineCheck({
  id: 'vdiff-evidence',
  title: 'The workflow has a completed VDiff without mismatches, and none is running',
  reasons,
  description:
    "Reads VDiff v2's sidecar tables `vdiff` and `vdiff_table` on the target primaries (`vitessio/vitess:go/vt/sidecardb/schema/vdiff/`) and judges the newest VDiff of each MoveTables or Reshard whose copy finished: none at all is an info (the troubleshooting guide asks for one before switching; #9715, #11233, #17969); one still running is a warning (it stops the workflow's streams `for vdiff` per table, `table_differ.go`); one that failed or was stopped, or found mismatched tables, is a warning. Tables absent (a sidecar without VDiff v2) read as no VDiff. Not judged: whether the VDiff is recent enough.",
  remediation:
    'Run `vtctldclient VDiff --target-keyspace <keyspace> --workflow <workflow> create`, wait for it (`show last`), and look at any mismatched table before switching; let a running VDiff finish (or `stop` it) first. Then run vtpreflight again.',
  needs: ['topology'],
  run(model) {
    return model.workflows.flatMap((wf) => workflowFindings(model, wf));
  },
});
