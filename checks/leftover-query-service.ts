/**
 * leftover-query-service: SrvKeyspace tablet controls with `query_service_disabled` that no Reshard explains.
 *
 * A Reshard's read switch disables the query service of the source shards for the switched tablet types in the
 * cells' SrvKeyspace (`shard_tablet_controls[].query_service_disabled`); Complete removes the shards. A Reshard
 * cancelled after a reads-only switch (v22+), or a write switch whose own cancel failed, leaves the flag behind: those
 * shards serve no queries of that type, and `RebuildKeyspaceGraph` refuses for the keyspace with `can't rebuild
 * serving keyspace while a migration is on going. TabletControls is set for partition %v`
 * (`go/vt/topotools/rebuild_keyspace.go` `RebuildKeyspaceLocked`; read in a fork of vitessio/vitess, so the
 * reason is declared heuristic and the text is carried in `details.vitessText`).
 *
 * Failure modes (`details.reason`):
 * - `queryServiceDisabled` (warning): a cell's SrvKeyspace disables the query service of a shard and no Reshard of
 *   the keyspace was read.
 * - `queryServiceDisabledUnexplained` (info): the same, but not every primary of the keyspace was read.
 */
import { defineCheck, type CheckFinding, type Reasons } from '../src/engine/check.js';
import { keyspacesWithUnreadWorkflows, leftoverKeyspaces } from '../src/model/leftovers.js';

/** The refusal, its `%v` (Go's print of the whole partition) shown as `…`. */
const REBUILD_TEXT =
  "can't rebuild serving keyspace while a migration is on going. TabletControls is set for partition …";

const reasons = {
  queryServiceDisabled: {
    severity: 'warning',
    step: 'workflow-state',
    heuristic: true,
    rationale:
      'A shard whose query service is disabled without a Reshard serves no queries of that tablet type, and RebuildKeyspaceGraph refuses for the keyspace.',
  },
  queryServiceDisabledUnexplained: {
    severity: 'info',
    step: 'workflow-state',
    heuristic: true,
    rationale: 'A Reshard on a primary that was not read may explain the flag, so it is not proven a leftover.',
  },
} satisfies Reasons;

type R = keyof typeof reasons;

export default defineCheck({
  id: 'leftover-query-service',
  group: 'leftovers',
  needs: ['topology'],
  title: 'No disabled query service is left on a SrvKeyspace without a Reshard',
  reasons,
  description:
    "A Reshard's read switch disables the query service of its source shards for the switched tablet types in each cell's SrvKeyspace. A Reshard cancelled after a reads-only switch (v22+), or a write switch whose cancel failed, leaves the flag behind: the shard serves no queries of that type, and `RebuildKeyspaceGraph` refuses with `can't rebuild serving keyspace while a migration is on going. TabletControls is set for partition %v` (`go/vt/topotools/rebuild_keyspace.go`, read in a fork: heuristic, text in `details.vitessText`). This check reports every disabled query service in a keyspace where no Reshard workflow was read.",
  remediation:
    'Confirm with `vtctldclient GetWorkflows <keyspace> --include-logs=false` that no Reshard runs, then enable the query service again with `vtctldclient SetShardTabletControl --disable-query-service=false <keyspace>/<shard> <tablet type>` and `vtctldclient RefreshStateByShard <keyspace>/<shard>`, and run vtpreflight again.',
  run(model, options) {
    const unread = keyspacesWithUnreadWorkflows(model);
    const out: CheckFinding<R>[] = [];
    for (const ks of leftoverKeyspaces(model, options)) {
      const srv = model.serving.srvKeyspaces.get(ks.name);
      if (srv === undefined || !srv.ok) continue;
      if (model.allWorkflows.some((wf) => wf.keyspace === ks.name && wf.type === 'Reshard')) continue;
      // shard → { types, cells }
      const disabled = new Map<string, { types: Set<string>; cells: Set<string> }>();
      for (const [cell, rec] of Object.entries(srv.value)) {
        for (const p of rec.partitions) {
          for (const c of p.shardTabletControls) {
            if (!c.queryServiceDisabled) continue;
            const e = disabled.get(c.name) ?? { types: new Set<string>(), cells: new Set<string>() };
            e.types.add(p.servedType.toUpperCase());
            e.cells.add(cell);
            disabled.set(c.name, e);
          }
        }
      }
      for (const [shard, e] of [...disabled.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
        const types = [...e.types].sort();
        const cells = [...e.cells].sort();
        const details = {
          tabletTypes: types,
          cells,
          vitessText: REBUILD_TEXT,
          breaks: `queries of type ${types.join(', ')} on ${ks.name}/${shard}; RebuildKeyspaceGraph ${ks.name}`,
          clean:
            'vtctldclient SetShardTabletControl --disable-query-service=false <keyspace>/<shard> <tablet type>, then vtctldclient RefreshStateByShard <keyspace>/<shard>',
        };
        const what = `the SrvKeyspace of ${ks.name} in ${cells.join(', ')} disables the query service of shard ${shard} for ${types.join(', ')}`;
        if (unread.includes(ks.name)) {
          out.push({
            reason: 'queryServiceDisabledUnexplained',
            keyspace: ks.name,
            shard,
            message: `${what}, and no Reshard was read, but not every primary of ${ks.name} was read`,
            details,
          });
          continue;
        }
        out.push({
          reason: 'queryServiceDisabled',
          keyspace: ks.name,
          shard,
          message: `${what} although no Reshard of ${ks.name} exists (left by a cancelled Reshard or a failed switch): those queries fail, and RebuildKeyspaceGraph refuses with "can't rebuild serving keyspace while a migration is on going"`,
          details,
        });
      }
    }
    return out;
  },
});
