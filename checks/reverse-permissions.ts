/**
 * Before stopping writes, SwitchTraffic makes sure the primaries of the source keyspace, where the reverse workflow
 * will run, let the filtered user manage the sidecar's `vreplication` table.
 *
 * Upstream: `vitessio/vitess:go/vt/vtctl/workflow/server.go` `switchWrites` → when reverse replication is enabled
 * (the default; `--enable-reverse-replication=false` skips it), before `areTabletsAvailableToStreamFrom`:
 * `validateShardsHaveVReplicationPermissions(ctx, ts.SourceKeyspaceName(), ts.SourceShards())` calls the tablet RPC
 * `ValidateVReplicationPermissions` on each source shard's primary (`go/vt/vttablet/tabletmanager/rpc_vreplication.go`)
 * for the tablet's `--db_filtered_user` (the `--filtered-user` setting, default `vt_filtered`), and wraps a refusal
 * `primary tablets are not able to fully manage the reverse vreplication workflow in the %s keyspace` with the SOURCE
 * keyspace. Added in v21 (#16762); a pre-v21 tablet answers Unimplemented, which passes. Skipped for a frozen
 * workflow (writes already switched). Each release its own way:
 * - v21–v22 (server.go:3090 and :3702 @006b7393; :2884 and :3476 @v0.22.4): the tablet runs
 *   `sqlValidateVReplicationPermissions` over `mysql.user`/`db`/`tables_priv` (`vreplicationPermitted` in
 *   src/model/vreplication-permissions.ts decides as that query does: the four privileges on one level), and vtctld
 *   prints `user %s does not have the required set of permissions (select,insert,update,delete) on the
 *   %s.vreplication table on tablet %s` (the sidecar name backquoted only when it must be).
 * - v23+ (#18348, #18580; server.go:3159 and :3801, rpc_vreplication.go:990 @v0.24.4; :3064, :3676 and :988 @v0.23.2):
 *   the tablet tries a SELECT, INSERT, UPDATE and DELETE on the sidecar's `vreplication` table on its filtered
 *   connection in a transaction it rolls back, and names the first privilege MySQL denies (`firstDeniedPrivilege`):
 *   `failed to validate required vreplication metadata permissions: user %s does not have %s permission on
 *   %s.vreplication table on tablet %s: %v`, the last verb being MySQL's error 1142, whose wording (user host, table
 *   quoting) depends on the server: that part is not predicted, so no exact text is quoted.
 *
 * What we cannot see: the tablets' `--db_filtered_user` (when `mysql.user` has no row for the name read, the tablets
 * may use another: a warning that asks for `--filtered-user`), privileges granted through MySQL 8 roles (the v23+ test
 * sees them, `mysql.*` does not), and the tablets' version (a pre-v21 source primary would not refuse).
 */
import { type CheckFinding, defineCheck, type Reasons } from '../src/engine/check.js';
import { migrationType } from '../src/model/traffic-switch.js';
import type { Shard } from '../src/model/types.js';
import {
  firstDeniedPrivilege,
  type VReplicationPrivilege,
  vreplicationPermitted,
} from '../src/model/vreplication-permissions.js';
import { pickRule, versionsHold } from '../src/vitess/versions.js';

type Rule = 'filteredUserLacksPrivileges' | 'filteredUserLacksPermission';

interface Refusal {
  readonly user: string;
  readonly tablet: string;
  readonly sidecarDb: string;
  /** v23+: the first statement MySQL denies. */
  readonly missing: VReplicationPrivilege | null;
  /** `mysql.user` has no row for the user. */
  readonly noRow: boolean;
}

/** What the source primary's grant rows say, judged by the rule of `rule`; null when allowed or not read. */
function refusal(shard: Shard | undefined, rule: Rule): Refusal | null {
  const sc = shard?.sidecar;
  if (sc === undefined || !sc.ok) return null;
  const g = sc.value.filteredUserGrants;
  if (g === undefined || !g.ok) return null;
  const at = { user: g.value.user, tablet: sc.value.tablet, sidecarDb: sc.value.sidecarDb };
  // No mysql.user row: the tablets' filtered user may have another name (their --db_filtered_user).
  if (g.value.global.length === 0) return { ...at, missing: null, noRow: true };
  if (rule === 'filteredUserLacksPrivileges')
    return vreplicationPermitted(g.value, at.sidecarDb) ? null : { ...at, missing: null, noRow: false };
  const missing = firstDeniedPrivilege(g.value, at.sidecarDb);
  return missing === null ? null : { ...at, missing, noRow: false };
}

const MANAGE = 'primary tablets are not able to fully manage the reverse vreplication workflow in the %s keyspace';
const V23_INNER = 'user %s does not have %s permission on %s.vreplication table on tablet %s: %v';
const V23_MIDDLE = `failed to validate required vreplication metadata permissions: ${V23_INNER}`;

const reasons = {
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
      versions: { from: 21, to: 22 },
    },
  },
  filteredUserLacksPermission: {
    reads: [{ read: 'filteredUserGrants', on: 'source-shard' }],
    severity: 'error',
    step: 'reverse-permissions',
    actions: ['switch'],
    vitess: {
      template: `${MANAGE}: ${V23_MIDDLE}`,
      file: 'go/vt/vtctl/workflow/server.go',
      line: 3159,
      release: 'v0.24.4',
      wraps: {
        literal: V23_MIDDLE,
        file: 'go/vt/vtctl/workflow/server.go',
        line: 3801,
        wraps: { literal: V23_INNER, file: 'go/vt/vttablet/tabletmanager/rpc_vreplication.go', line: 990 },
      },
      versions: { from: 23 },
    },
  },
  filteredUserNotFound: {
    reads: [{ read: 'filteredUserGrants', on: 'source-shard' }],
    severity: 'warning',
    step: 'reverse-permissions',
    actions: ['switch'],
    heuristic: true,
    rationale:
      'mysql.user has no row for the filtered user read, so either the tablets run with another --db_filtered_user (tell vtpreflight with --filtered-user) or the user does not exist and the switch is refused, which cannot be told apart here.',
  },
} satisfies Reasons;

type R = keyof typeof reasons;

export default defineCheck({
  id: 'reverse-permissions',
  title: 'The source primaries let the filtered user manage the reverse workflow',
  needs: ['topology'],
  reasons,
  description:
    "SwitchTraffic creates a reverse workflow on the source keyspace, and before it stops writes it asks every source primary whether the filtered user (the tablets' `--db_filtered_user`, here `--filtered-user`) may manage the sidecar `vreplication` table (`ValidateVReplicationPermissions`, v21+). v21 and v22 require SELECT, INSERT, UPDATE and DELETE granted together globally, on a database pattern that matches the sidecar, or on the table itself (`user %s does not have the required set of permissions …`); from v23 the tablet tries each statement in a rolled-back transaction and names the first one denied (`failed to validate required vreplication metadata permissions: user %s does not have %s permission on …`). Read with `SELECT` on `mysql.user`, `mysql.db` and `mysql.tables_priv` for that user, evaluated as the judged release does; a user without a `mysql.user` row is a warning asking for `--filtered-user`.",
  remediation:
    "Grant the filtered user the privileges on each reported source primary (`GRANT SELECT, INSERT, UPDATE, DELETE ON _vt.* TO 'vt_filtered'@'…'`), or switch with `--enable-reverse-replication=false` if you accept having no way back. If the tablets run with another `--db_filtered_user`, name it with `--filtered-user`. Then run vtpreflight again.",
  run(model, options) {
    // Before v21 neither vtctld nor the tablets validate the permissions: nothing to predict when the whole range
    // judged against is older (a range reaching v21 is judged: a newer vtctld would refuse).
    if (versionsHold(options.vitess, '>=21') === 'none') return [];
    const rule = pickRule<Rule>(options.vitess, [
      { versions: '<23', value: 'filteredUserLacksPrivileges' },
      { versions: '>=23', value: 'filteredUserLacksPermission' },
    ]);
    const note = rule.note !== null ? { versionNote: rule.note } : {};
    const out: CheckFinding<R>[] = [];
    for (const wf of model.workflows) {
      if (wf.frozen || (wf.type !== 'MoveTables' && wf.type !== 'Reshard')) continue;
      if (migrationType(wf) === null) continue;
      for (const ks of wf.sourceKeyspaces) {
        for (const name of wf.sourceShards) {
          const r = refusal(model.shard(ks, name), rule.value);
          if (r === null) continue;
          const loc = { keyspace: ks, shard: name, workflow: wf.name };
          if (r.noRow) {
            out.push({
              reason: 'filteredUserNotFound',
              message: `mysql.user of source primary ${r.tablet} (${ks}/${name}) has no row for the filtered user ${r.user}: if the tablets run with another --db_filtered_user, pass it with --filtered-user; if not, SwitchTraffic of ${wf.name} refuses to create the reverse workflow there`,
              ...loc,
              details: { user: r.user, tablet: r.tablet },
            });
            continue;
          }
          const manage = `primary tablets are not able to fully manage the reverse vreplication workflow in the ${ks} keyspace`;
          out.push(
            rule.value === 'filteredUserLacksPrivileges'
              ? {
                  reason: rule.value,
                  message: `the filtered user ${r.user} lacks SELECT, INSERT, UPDATE or DELETE on ${r.sidecarDb}.vreplication on source primary ${r.tablet} (${ks}/${name}), where the reverse workflow of ${wf.name} would run`,
                  ...loc,
                  vitessArgs: [ks, r.user, r.sidecarDb, r.tablet],
                  details: { user: r.user, tablet: r.tablet, ...note },
                }
              : {
                  reason: rule.value,
                  message: `the filtered user ${r.user} lacks ${r.missing} on ${r.sidecarDb}.vreplication on source primary ${r.tablet} (${ks}/${name}), where the reverse workflow of ${wf.name} would run`,
                  ...loc,
                  // The text ends with MySQL's own error 1142, worded by the server: not predicted, so not quoted.
                  details: {
                    user: r.user,
                    tablet: r.tablet,
                    privilege: r.missing,
                    vitessText: `${manage}: failed to validate required vreplication metadata permissions: user ${r.user} does not have ${r.missing} permission on ${r.sidecarDb}.vreplication table on tablet ${r.tablet}: <MySQL error 1142>`,
                    ...note,
                  },
                },
          );
        }
      }
    }
    return out;
  },
});
