/**
 * Every target shard of a workflow has a tablet that can acknowledge its primary's semi-sync writes, when the target
 * keyspace's durability policy asks for one.
 *
 * Upstream `vitessio/vitess` `go/vt/vtctl/reparentutil/policy/durability.go` (read via find_string): `semi_sync` and
 * `cross_cell` require `SemiSyncAckers = 1`; a replica counts (`IsReplicaSemiSync`) when it is a REPLICA (or PRIMARY)
 * tablet, for `cross_cell` only in another cell than the primary, and an RDONLY only under the `…_with_rdonly_ack`
 * policies. Vitess sets the semi-sync wait on the primary without a usable timeout, so a primary with no tablet able
 * to ACK blocks every commit: the streams applying rows on a new target shard, the catch-up of the write switch, and
 * all application writes once they are switched (#3951, #2385, #7446, #17749). Vitess itself reports nothing: a
 * warning.
 *
 * Read: the keyspace record's `durability_policy` (GetKeyspaces) and the tablets of each target shard (GetTablets).
 * Not judged: whether the replicas actually run semi-sync (`rpl_semi_sync_*` is not read), unknown policies.
 */
import { defineCheck, type CheckFinding } from '../src/engine/check.js';
import type { ClusterModel, Tablet, Workflow } from '../src/model/types.js';

/** Per policy: whether RDONLY tablets ACK, and whether an ACK must come from another cell. */
const POLICIES: Readonly<Record<string, { readonly rdonly: boolean; readonly otherCell: boolean }>> = {
  semi_sync: { rdonly: false, otherCell: false },
  semi_sync_with_rdonly_ack: { rdonly: true, otherCell: false },
  cross_cell: { rdonly: false, otherCell: true },
  cross_cell_with_rdonly_ack: { rdonly: true, otherCell: true },
};

function canAck(policy: { rdonly: boolean; otherCell: boolean }, primary: Tablet, t: Tablet): boolean {
  if (t.alias === primary.alias) return false;
  const typeOk = t.type === 'REPLICA' || t.type === 'PRIMARY' || (policy.rdonly && t.type === 'RDONLY');
  return typeOk && (!policy.otherCell || t.cell !== primary.cell);
}

function workflowFindings(model: ClusterModel, wf: Workflow): CheckFinding<'noSemiSyncAcker'>[] {
  if (wf.type !== 'MoveTables' && wf.type !== 'Reshard' && wf.type !== 'Migrate') return [];
  const policyName = model.keyspace(wf.keyspace)?.durabilityPolicy ?? '';
  const policy = POLICIES[policyName];
  if (policy === undefined || !model.tabletsRead.ok) return [];
  const out: CheckFinding<'noSemiSyncAcker'>[] = [];
  for (const name of wf.targetShards) {
    const shard = model.shard(wf.keyspace, name);
    const primary = shard?.primaryAlias ? model.tablet(shard.primaryAlias) : undefined;
    if (shard === undefined || primary === undefined) continue; // target-primary-missing reports it
    // The shard's own tablet list (every tablet record of this keyspace and shard): filtering every tablet of the
    // cluster for each target shard was 2,048 × 6,146 comparisons at a 1,024 → 2,048 Reshard.
    const others = shard.tablets.filter((t) => t.alias !== primary.alias);
    if (others.some((t) => canAck(policy, primary, t))) continue;
    const where = `${wf.keyspace}/${name}`;
    const have =
      others.length === 0
        ? 'no other tablet'
        : others
            .map((t) => `${t.alias} (${t.type})`)
            .sort()
            .join(', ');
    out.push({
      reason: 'noSemiSyncAcker',
      message: `target shard ${where} of ${wf.name} has no tablet that can acknowledge its primary ${primary.alias}'s writes under durability policy ${policyName} (${have}): commits on it wait for an ACK that never comes`,
      keyspace: wf.keyspace,
      shard: name,
      workflow: wf.name,
      tablet: primary.alias,
      details: { durabilityPolicy: policyName, primaryCell: primary.cell, tablets: others.map((t) => t.alias).sort() },
    });
  }
  return out;
}

export default defineCheck({
  id: 'semi-sync-ackers',
  title: "Every target shard has a tablet that can acknowledge its primary's semi-sync writes",
  reasons: {
    noSemiSyncAcker: {
      severity: 'warning',
      step: 'catch-up',
      actions: ['switch'],
      heuristic: true,
      rationale:
        'Under a semi-sync durability policy a primary without a tablet able to acknowledge blocks every commit, so the streams, the catch-up of the write switch and every switched write hang on that shard.',
    },
  },
  description:
    "With the keyspace durability policy `semi_sync` or `cross_cell` (and their `_with_rdonly_ack` variants), a primary's commits wait for one semi-sync acknowledgement (`durability.go`: a REPLICA, in another cell for `cross_cell`, an RDONLY only with `_with_rdonly_ack`). New target shards built for a Reshard or MoveTables without such a replica hang: the streams stall, the write switch times out catching up, and once writes are switched every application write waits (#3951, #2385, #7446, #17749). Read from GetKeyspaces and GetTablets; whether the replicas run semi-sync is not read.",
  remediation:
    'Add a REPLICA tablet to each target shard that lacks one (in another cell than its primary for `cross_cell`), and wait for it to replicate; or change the policy with `vtctldclient SetKeyspaceDurabilityPolicy --durability-policy=<policy> <keyspace>`. Then run vtpreflight again.',
  needs: ['topology'],
  run(model) {
    return model.workflows.flatMap((wf) => workflowFindings(model, wf));
  },
});
