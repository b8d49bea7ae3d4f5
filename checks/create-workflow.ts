/**
 * create (`check --action create`): what `vtctldclient MoveTables create` refuses before it creates anything on the
 * target shards. Upstream `vitessio/vitess:go/vt/vtctl/workflow/utils.go` @00bd50b6 `validateNewWorkflow`, the first
 * thing the materializer's `createWorkflowStreams` (materializer.go) runs: over every shard record of the target
 * keyspace (`FindAllShardsInKeyspace`, serving or not), a record without a primary is `shard has no primary: %v`
 * (utils.go:105, `si.ShardName()`: the shard name alone); on every other shard, the primary's `_vt.vreplication`
 * rows (`ReadVReplicationWorkflows`, every workflow, frozen ones included) must not hold the workflow name, else
 * `workflow %s already exists in keyspace %s on tablet %s` (utils.go:128, the primary's alias). The errors of all
 * shards are aggregated (`vterrors.Aggregate`).
 * A target primary whose sidecar could not be read leaves the name unverified (a located read failure).
 * Not judged yet (WORKFLOW-ACTIONS.md §2): the target vschema's tables, non-empty target tables, SrvVSchema per cell,
 * the `convert_tz` probe, Reshard create.
 */
import { defineCheck, type CheckFinding } from '../src/engine/check.js';

const UTILS = 'go/vt/vtctl/workflow/utils.go';

type R = 'shardNoPrimary' | 'workflowExists' | 'targetKeyspaceNotRead';

export default defineCheck({
  id: 'create-workflow',
  needs: ['topology'],
  title: 'MoveTables create can create the workflow',
  reasons: {
    targetKeyspaceNotRead: {
      severity: 'error',
      step: 'create-validate',
      heuristic: true,
      rationale:
        'A target keyspace absent from the cluster read either does not exist, which MoveTables create refuses, or ' +
        'was not read (a snapshot of other keyspaces): either way nothing of it can be judged ready.',
    },
    shardNoPrimary: {
      severity: 'error',
      step: 'create-validate',
      vitess: { template: 'shard has no primary: %v', file: UTILS, line: 105, versions: { from: 17 } },
    },
    workflowExists: {
      severity: 'error',
      step: 'create-validate',
      vitess: {
        template: 'workflow %s already exists in keyspace %s on tablet %s',
        file: UTILS,
        line: 128,
        versions: { from: 17 },
      },
    },
  },
  description: [
    'Judged with `--action create --workflow <name> --target-keyspace <keyspace>` (`vtctldclient MoveTables',
    'create`): before anything is created, `validateNewWorkflow` (`utils.go`) reads every shard record of the target',
    'keyspace, serving or not. A record without a primary fails with `shard has no primary: %v`; a target primary',
    'that already holds a stream with the workflow name (a half-created, cancelled-with-errors or switched but never',
    'completed workflow) fails with `workflow %s already exists in keyspace %s on tablet %s`.',
  ].join(' '),
  remediation: [
    'Give every shard of the target keyspace a primary (`vtctldclient PlannedReparentShard <keyspace>/<shard>`), or',
    'delete a leftover shard record. For a name already taken, pick another `--workflow`, or finish the old workflow',
    '(`vtctldclient MoveTables --workflow <name> --target-keyspace <keyspace> complete` or `cancel`, see',
    '`vtpreflight sweep`). Then run vtpreflight again.',
  ].join(' '),
  run(model, options) {
    const create = options.action.create;
    if (create === undefined) return [];
    const ks = model.keyspaces.get(create.targetKeyspace);
    if (ks === undefined)
      return [
        {
          reason: 'targetKeyspaceNotRead',
          message:
            `target keyspace ${create.targetKeyspace} is not in the cluster read: it does not exist, or this ` +
            'readout did not read it',
          keyspace: create.targetKeyspace,
          workflow: create.workflow,
        },
      ];
    // Shard records not read: a located read failure, which leaves the verdict unverified.
    if (!ks.shards.ok) return [];
    const out: CheckFinding<R>[] = [];
    const base = { keyspace: create.targetKeyspace, workflow: create.workflow };
    for (const shard of ks.shards.value.values()) {
      if (shard.primaryAlias === null) {
        out.push({
          reason: 'shardNoPrimary',
          message:
            `shard ${create.targetKeyspace}/${shard.name} has no primary, and MoveTables create reads every shard ` +
            'record of the target keyspace',
          ...base,
          shard: shard.name,
          vitessError: `shard has no primary: ${shard.name}`,
        });
        continue;
      }
      const sidecar = shard.sidecar;
      if (sidecar === undefined || !sidecar.ok) continue;
      const streams = sidecar.value.streams.filter((s) => s.workflow === create.workflow);
      if (streams.length === 0) continue;
      out.push({
        reason: 'workflowExists',
        message:
          `the primary ${sidecar.value.tablet} of ${create.targetKeyspace}/${shard.name} already has ` +
          `${streams.length} stream(s) of workflow ${create.workflow} (id ${streams.map((s) => s.id).join(', ')})`,
        ...base,
        shard: shard.name,
        tablet: sidecar.value.tablet,
        vitessError:
          `workflow ${create.workflow} already exists in keyspace ${create.targetKeyspace} ` +
          `on tablet ${sidecar.value.tablet}`,
        details: { streamIds: streams.map((s) => s.id) },
      });
    }
    return out;
  },
});
