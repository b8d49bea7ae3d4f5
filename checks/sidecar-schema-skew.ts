/**
 * sidecar-schema-skew: source primaries whose `_vt.vreplication` lacks columns the target primaries have, so the
 * reverse streams the write switch inserts there fail.
 *
 * After writes are stopped and the targets caught up, the write switch creates the reverse workflow on every source
 * primary (`vitessio/vitess:go/vt/vtctl/workflow/traffic_switcher.go` `createReverseVReplication`) with
 * `binlogplayer.CreateVReplicationState` — an `insert into _vt.vreplication (workflow, source, pos, max_tps,
 * max_replication_lag, time_updated, transaction_timestamp, state, db_name, workflow_type, workflow_sub_type)` — and
 * then `getReverseVReplicationUpdateQuery` (`update _vt.vreplication set cell = …, tablet_types = …` and, in newer
 * releases, `options`). The statements are written by vtctld for its own version, the source tablets' sidecar is
 * theirs: a long migration that straddles an upgrade leaves the sources behind and the insert fails with `Unknown
 * column 'workflow_sub_type' in 'field list' (errno 1054)` (vitessio/vitess #12100: v15 vtctld and target, v14 source
 * tablets; `createReverseVReplication failed`, the switch is cancelled after writes were stopped); GetWorkflows
 * failed the same way on `tags` (#11535). The target primaries' schema stands in for vtctld's version: a column they
 * have and a source lacks is one the newer side may write.
 *
 * Failure modes (`details.reason`):
 * - `reverseInsertColumnMissing` (error): a source primary lacks a column the reverse insert or update names.
 * - `sourceColumnsBehind` (warning): it lacks other columns the targets have (an older sidecar schema).
 */
import { defineCheck, type CheckFinding, type Reasons } from '../src/engine/check.js';
import type { ClusterModel, Workflow } from '../src/model/types.js';

/** Columns `CreateVReplicationState` and `getReverseVReplicationUpdateQuery` name (traffic_switcher.go). */
export const REVERSE_STREAM_COLUMNS: readonly string[] = [
  'workflow',
  'source',
  'pos',
  'max_tps',
  'max_replication_lag',
  'time_updated',
  'transaction_timestamp',
  'state',
  'db_name',
  'workflow_type',
  'workflow_sub_type',
  'cell',
  'tablet_types',
  'options',
];

function workflowFindings(model: ClusterModel, wf: Workflow): CheckFinding<R>[] {
  const targetColumns = new Set<string>();
  const targetsRead: string[] = [];
  for (const name of wf.targetShards) {
    const sc = model.shard(wf.keyspace, name)?.sidecar;
    if (sc === undefined || !sc.ok) continue;
    targetsRead.push(sc.value.tablet);
    for (const c of sc.value.columns) targetColumns.add(c.toLowerCase());
  }
  if (targetsRead.length === 0) return [];
  const out: CheckFinding<R>[] = [];
  for (const ks of wf.sourceKeyspaces) {
    for (const name of wf.sourceShards) {
      const sc = model.shard(ks, name)?.sidecar;
      if (sc === undefined || !sc.ok || sc.value.columns.length === 0) continue;
      const have = new Set(sc.value.columns.map((c) => c.toLowerCase()));
      const missing = [...targetColumns].filter((c) => !have.has(c)).sort();
      if (missing.length === 0) continue;
      // In the order Vitess writes them: the insert's columns fail first, then the update's.
      const inInsert = REVERSE_STREAM_COLUMNS.filter((c) => missing.includes(c));
      const base = { keyspace: ks, shard: name, tablet: sc.value.tablet };
      const details = {
        missingColumns: missing,
        sidecarDb: sc.value.sidecarDb,
        targetPrimaries: targetsRead,
        workflow: `${wf.keyspace}.${wf.name}`,
      };
      if (inInsert.length > 0) {
        out.push({
          ...base,
          reason: 'reverseInsertColumnMissing',
          message: `source primary ${sc.value.tablet} of ${ks}/${name} has no ${inInsert.join(', ')} in ${sc.value.sidecarDb}.vreplication although the target primaries of ${wf.name} have: SwitchTraffic writes the reverse workflow there after stopping writes and fails with "Unknown column '${inInsert[0]}' in 'field list' (errno 1054)"`,
          details: {
            ...details,
            reverseColumns: inInsert,
            mysqlError: `Unknown column '${inInsert[0]}' in 'field list' (errno 1054)`,
          },
        });
      } else {
        out.push({
          ...base,
          reason: 'sourceColumnsBehind',
          message: `source primary ${sc.value.tablet} of ${ks}/${name} has an older ${sc.value.sidecarDb}.vreplication than the target primaries of ${wf.name} (no ${missing.join(', ')}): its tablets run an older Vitess than the targets`,
          details,
        });
      }
    }
  }
  return out;
}

const reasons = {
  // MySQL's error inside Vitess's reverse-stream step (after the catch-up): not a Vitess literal, so heuristic.
  reverseInsertColumnMissing: {
    severity: 'error',
    step: 'catch-up',
    heuristic: true,
    rationale:
      "The write switch inserts the reverse streams on the source primaries after writes are stopped, naming columns this older sidecar lacks: MySQL refuses with `Unknown column '…' in 'field list' (errno 1054)` and the switch is cancelled.",
  },
  sourceColumnsBehind: {
    severity: 'warning',
    step: 'catch-up',
    heuristic: true,
    rationale:
      "The source tablets' sidecar is older than the targets': they run an older Vitess than the one writing the reverse streams.",
  },
} satisfies Reasons;

type R = keyof typeof reasons;

export default defineCheck({
  id: 'sidecar-schema-skew',
  // The source primaries are found through the shard records.
  needs: ['topology'],
  title: 'Source primaries can hold the reverse streams the write switch creates',
  reasons,
  description:
    "After stopping writes, the write switch inserts the reverse workflow into `_vt.vreplication` on every source primary (`vitessio/vitess:go/vt/vtctl/workflow/traffic_switcher.go` `createReverseVReplication`, `binlogplayer.CreateVReplicationState`: `workflow_type`, `workflow_sub_type`, then `cell`, `tablet_types`, `options`). vtctld writes those statements for its own version; a source whose tablets (and sidecar schema) are older lacks the columns, the insert fails with `Unknown column '…' in 'field list' (errno 1054)` and the switch is cancelled after writes were stopped (vitessio/vitess #12100; GetWorkflows and `tags`, #11535). This check compares the column list of each source primary's `vreplication` with the target primaries' (read with the streams): a missing column the reverse streams name is an error, any other missing column a warning.",
  remediation: [
    'Upgrade the source keyspace tablets to the version of vtctld and the target tablets (they add the sidecar columns at start-up), confirm with `SHOW COLUMNS FROM _vt.vreplication` on a source primary, then run vtpreflight again.',
  ].join(' '),
  run(model) {
    return model.workflows
      .filter((wf) => (wf.type === 'MoveTables' || wf.type === 'Reshard') && !wf.name.endsWith('_reverse'))
      .flatMap((wf) => workflowFindings(model, wf));
  },
});
