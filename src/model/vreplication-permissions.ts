/**
 * Whether the filtered user may manage the sidecar's `vreplication` table, decided exactly as Vitess's tablet does
 * in `ValidateVReplicationPermissions` (`vitessio/vitess:go/vt/vttablet/tabletmanager/rpc_vreplication.go`
 * `sqlValidateVReplicationPermissions`, @006b7393): `count(*) > 0` over `mysql.user AS u LEFT JOIN mysql.db AS d ON
 * u.user = d.user LEFT JOIN mysql.tables_priv AS t ON u.user = t.user WHERE u.user = <filtered user> AND (` global
 * select/insert/update/delete `= 'y'`, or the same on a `d` row with `<sidecar> LIKE d.db ESCAPE '\\'`, or a `t` row
 * with `<sidecar> LIKE t.db ESCAPE '\\'`, `t.table_name = 'vreplication'` and the four in `t.table_priv` `)`.
 * The join is on the user name only (any host), so a row of any host counts, and without a `mysql.user` row there
 * is no match at all.
 */
import type { FilteredUserGrants } from '../readout.js';

/** MySQL `value LIKE pattern ESCAPE '\\'`: `%` any run, `_` one character, `\` escapes the next; case-sensitive. */
export function sqlLike(value: string, pattern: string): boolean {
  let re = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '\\' && i + 1 < pattern.length) {
      re += escapeRegExp(pattern[++i]!);
    } else if (c === '%') {
      re += '[\\s\\S]*';
    } else if (c === '_') {
      re += '[\\s\\S]';
    } else {
      re += escapeRegExp(c);
    }
  }
  return new RegExp(`^${re}$`, 'u').test(value);
}

const escapeRegExp = (c: string) => c.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');

/** An enum privilege column compared with `= 'y'` (a case-insensitive collation). */
const yes = (v: string) => v.toLowerCase() === 'y';

/** The upstream query's answer: true when the user has the four privileges on `<sidecarDb>.vreplication`. */
export function vreplicationPermitted(grants: FilteredUserGrants, sidecarDb: string): boolean {
  if (grants.global.length === 0) return false;
  if (grants.global.some((u) => yes(u.select) && yes(u.insert) && yes(u.update) && yes(u.delete))) return true;
  if (
    grants.db.some((d) => sqlLike(sidecarDb, d.db) && yes(d.select) && yes(d.insert) && yes(d.update) && yes(d.delete))
  ) {
    return true;
  }
  return grants.tables.some((t) => {
    if (!sqlLike(sidecarDb, t.db) || t.table !== 'vreplication') return false;
    const privs = new Set(t.privs.split(',').map((p) => p.trim().toLowerCase()));
    return ['select', 'insert', 'update', 'delete'].every((p) => privs.has(p));
  });
}

/** The four privileges in the order the v23+ tablet tries them (rpc_vreplication.go:955-958 @v0.24.4). */
const TRIED = ['select', 'insert', 'update', 'delete'] as const;
export type VReplicationPrivilege = 'SELECT' | 'INSERT' | 'UPDATE' | 'DELETE';

/**
 * The v23+ tablet's answer (`ValidateVReplicationPermissions`, rpc_vreplication.go:928-1000 @v0.24.4): on the filtered
 * connection, in a transaction it rolls back, it runs a SELECT, INSERT, UPDATE and DELETE on `<sidecar>.vreplication`
 * and names the first one MySQL denies (errno 1142). MySQL grants a privilege from any level, so each privilege is
 * judged on its own: global, a matching `mysql.db` pattern, or the table's `mysql.tables_priv` row. Null when all four
 * are granted. Roles (MySQL 8) are not in these tables: a privilege granted through one is reported missing.
 */
export function firstDeniedPrivilege(grants: FilteredUserGrants, sidecarDb: string): VReplicationPrivilege | null {
  const tablePrivs = grants.tables
    .filter((t) => sqlLike(sidecarDb, t.db) && t.table === 'vreplication')
    .flatMap((t) => t.privs.split(',').map((p) => p.trim().toLowerCase()));
  for (const p of TRIED) {
    if (grants.global.some((u) => yes(u[p]))) continue;
    if (grants.db.some((d) => sqlLike(sidecarDb, d.db) && yes(d[p]))) continue;
    if (tablePrivs.includes(p)) continue;
    return p.toUpperCase() as VReplicationPrivilege;
  }
  return null;
}
