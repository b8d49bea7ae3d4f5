/**
 * Before stopping writes, SwitchTraffic makes sure the primaries of the source keyspace, where the reverse workflow
 * will run, let the filtered user manage the sidecar's `vreplication` table.
 *
 * Upstream: `vitessio/vitess:go/vt/vtctl/workflow/server.go` `switchWrites` → when reverse replication is enabled
 * (the default; `--enable-reverse-replication=false` skips it), before `areTabletsAvailableToStreamFrom`:
 * `validateShardsHaveVReplicationPermissions(ctx, ts.SourceKeyspaceName(), ts.SourceShards())` (server.go:3673
 * @006b7393) calls the tablet RPC `ValidateVReplicationPermissions` on each source shard's primary
 * (`go/vt/vttablet/tabletmanager/rpc_vreplication.go`), which runs `sqlValidateVReplicationPermissions` for the
 * tablet's `--db_filtered_user` (src/model/vreplication-permissions.ts decides as that query does). A false answer is
 * `user %s does not have the required set of permissions (select,insert,update,delete) on the %s.vreplication table
 * on tablet %s` (server.go:3702, `sidecar.GetIdentifier()`: the name, backquoted only when it must be), wrapped by
 * `primary tablets are not able to fully manage the reverse vreplication workflow in the %s keyspace` (server.go:3090)
 * with the SOURCE keyspace. Added in v21 (#16762); a pre-v21 tablet answers Unimplemented, which passes
 * (server.go:3692). Skipped for a frozen workflow (writes already switched). On `main` after #18348 (v23) the RPC
 * tries the writes in a rolled-back transaction instead, with another text: not modelled (read-only).
 *
 * What we cannot see: the tablet's `--db_filtered_user` (the `--filtered-user` setting, default `vt_filtered`), and
 * the tablets' version (a pre-v21 source primary would not refuse).
 */
import { versionsHold } from '../src/vitess/versions.js';
import { defineCheck, type CheckFinding } from '../src/engine/check.js';
import type { Shard } from '../src/model/types.js';
import { vreplicationPermitted } from '../src/model/vreplication-permissions.js';
import { migrationType } from '../src/model/traffic-switch.js';

/** The user read on the shard's primary when it lacks the privileges; null when it has them or was not read. */
function refusedUser(shard: Shard | undefined): string | null {
  const sc = shard?.sidecar;
  if (sc === undefined || !sc.ok) return null;
  const g = sc.value.filteredUserGrants;
  if (g === undefined || !g.ok) return null;
  return vreplicationPermitted(g.value, sc.value.sidecarDb) ? null : g.value.user;
}

export default defineCheck({
  id: 'reverse-permissions',
  title: 'The source primaries let the filtered user manage the reverse workflow',
  needs: ['topology'],
  reasons: {
    filteredUserLacksPrivileges: {
      reads: [{ read: 'filteredUserGrants', on: 'source-shard' }],
      severity: 'error',
      step: 'reverse-permissions',
      actions: ['switch'],
      vitess: {
        template:
          'primary tablets are not able to fully manage the reverse vreplication workflow in the %s keyspace: user %s does not have the required set of permissions (select,insert,update,delete) on the %s.vreplication table on tablet %s',
        file: 'go/vt/vtctl/workflow/server.go',
        line: 3090,
        wraps: {
          literal:
            'user %s does not have the required set of permissions (select,insert,update,delete) on the %s.vreplication table on tablet %s',
          file: 'go/vt/vtctl/workflow/server.go',
          line: 3702,
        },
        versions: { from: 21 },
      },
    },
  },
  description:
    "SwitchTraffic creates a reverse workflow on the source keyspace, and before it stops writes it asks every source primary whether the filtered user (the tablets' `--db_filtered_user`, here `--filtered-user`) has SELECT, INSERT, UPDATE and DELETE on the sidecar `vreplication` table: globally, on a database pattern that matches the sidecar, or on the table itself (`ValidateVReplicationPermissions`, v21+). Read with `SELECT` on `mysql.user`, `mysql.db` and `mysql.tables_priv` for that user, evaluated as the tablet does.",
  remediation:
    "Grant the filtered user the privileges on each reported source primary (`GRANT SELECT, INSERT, UPDATE, DELETE ON _vt.* TO 'vt_filtered'@'…'`), or switch with `--enable-reverse-replication=false` if you accept having no way back. Then run vtpreflight again.",
  run(model, options) {
    // Before v21 neither vtctld nor the tablets validate the permissions: nothing to predict when the whole range
    // judged against is older (a range reaching v21 is judged: a newer vtctld would refuse).
    if (versionsHold(options.vitess, '>=21') === 'none') return [];
    const out: CheckFinding[] = [];
    for (const wf of model.workflows) {
      if (wf.frozen || (wf.type !== 'MoveTables' && wf.type !== 'Reshard')) continue;
      if (migrationType(wf) === null) continue;
      for (const ks of wf.sourceKeyspaces) {
        for (const name of wf.sourceShards) {
          const shard = model.shard(ks, name);
          const user = refusedUser(shard);
          if (user === null || shard?.sidecar?.ok !== true) continue;
          const sc = shard.sidecar.value;
          out.push({
            reason: 'filteredUserLacksPrivileges',
            message: `the filtered user ${user} lacks SELECT, INSERT, UPDATE or DELETE on ${sc.sidecarDb}.vreplication on source primary ${sc.tablet} (${ks}/${name}), where the reverse workflow of ${wf.name} would run`,
            keyspace: ks,
            shard: name,
            workflow: wf.name,
            vitessError: `primary tablets are not able to fully manage the reverse vreplication workflow in the ${ks} keyspace: user ${user} does not have the required set of permissions (select,insert,update,delete) on the ${sc.sidecarDb}.vreplication table on tablet ${sc.tablet}`,
            details: { user, tablet: sc.tablet },
          });
        }
      }
    }
    return out;
  },
});
