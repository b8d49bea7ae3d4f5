/**
 * target-primary-missing: a shard record of the target keyspace has no primary.
 *
 * Every SwitchTraffic, ReverseTraffic, Complete and Cancel starts with `BuildTargets`
 * (`vitessio/vitess:go/vt/vtctl/workflow/utils.go`), which walks EVERY shard record of the target keyspace, not
 * only the shards holding the workflow's streams, and refuses at the first one without a primary:
 * `shard %v/%v doesn't have a primary set`. A leftover shard record of an abandoned Reshard is the usual cause.
 */
import { defineCheck, type CheckFinding } from '../src/engine/check.js';
import type { ClusterModel, Workflow } from '../src/model/types.js';

function findings(model: ClusterModel, wf: Workflow): CheckFinding<'noPrimary'>[] {
  // Externalize of a lookup backfill does not go through BuildTargets.
  if (wf.type === 'CreateLookupIndex') return [];
  const ks = model.keyspace(wf.keyspace);
  if (!ks?.shards.ok) return [];
  const out: CheckFinding<'noPrimary'>[] = [];
  for (const shard of ks.shards.value.values()) {
    if (shard.primaryAlias !== null) continue;
    const streams = wf.targetShards.includes(shard.name);
    out.push({
      reason: 'noPrimary',
      message: `shard ${wf.keyspace}/${shard.name} of the target keyspace of ${wf.type} ${wf.keyspace}.${wf.name} has no primary${streams ? '' : ' (it holds none of its streams)'}, and SwitchTraffic reads every shard record of the target keyspace`,
      keyspace: wf.keyspace,
      shard: shard.name,
      workflow: wf.name,
      // Vitess formats the *topo.ShardInfo with %v; the shard name stands in for that record here.
      vitessArgs: [wf.keyspace, shard.name],
      details: { holdsStreams: streams, isPrimaryServing: shard.isPrimaryServing },
    });
  }
  return out;
}

export default defineCheck({
  id: 'target-primary-missing',
  needs: ['topology'],
  title: 'Every shard record of the target keyspace has a primary',
  reasons: {
    noPrimary: {
      severity: 'error',
      step: 'build-targets',
      vitess: {
        template: "shard %v/%v doesn't have a primary set",
        file: 'go/vt/vtctl/workflow/utils.go',
        line: 379,
        versions: { from: 17 },
      },
    },
  },
  description:
    "SwitchTraffic, ReverseTraffic, Complete and Cancel all begin with `BuildTargets` (`vitessio/vitess:go/vt/vtctl/workflow/utils.go`): it reads every shard record of the target keyspace, also the shards that hold none of the workflow's streams, and fails with `shard %v/%v doesn't have a primary set` at the first one without a primary. A shard record left behind by an abandoned Reshard, or a shard whose primary was removed without a reparent, blocks every workflow into that keyspace.",
  remediation:
    'List the shard records with `vtctldclient FindAllShardsInKeyspace <keyspace>`. Delete a leftover shard that serves nothing with `vtctldclient DeleteShards --recursive <keyspace>/<shard>`, or give the shard a primary with `vtctldclient PlannedReparentShard <keyspace>/<shard>`, then run vtpreflight again.',
  run(model) {
    return model.workflows.flatMap((wf) => findings(model, wf));
  },
});
