/**
 * `vtpreflight grants [--action A] [--flavor mysql|mariadb] [--keyspace ks,…]`: the GRANT statements of the minimal
 * MySQL user, generated from the read declarations (src/reads/registry.ts) and the checks' reasons
 * (src/engine/grants.ts): required grants first (with them alone a healthy workflow is `ready`), then the optional
 * ones, each with what it adds. No secret is ever asked for: the filtered user's privileges are read with
 * column-level SELECT on the grant tables, never `authentication_string`. Prints only; connects to nothing.
 */
import { Command } from 'commander';
import { CHECKS } from '../../../checks/index.js';
import { type Flavor, grantPlan } from '../../engine/grants.js';
import { ACTIONS, type Action } from '../../engine/steps.js';
import { UsageError } from '../../errors.js';
import type { CliIo } from '../io.js';

/** Options of the grants command. */
export interface GrantsFlags {
  readonly action?: string;
  readonly flavor?: string;
  readonly keyspace?: string;
  readonly schema?: string;
  readonly sidecarDb?: string;
  readonly user?: string;
  readonly host?: string;
}

/** A MySQL string literal of a name (quotes doubled; backslashes refused, they mean different things per sql_mode). */
function literal(s: string): string {
  if (/[\\\u0000-\u001f]/.test(s)) throw new UsageError(`${JSON.stringify(s)} holds a backslash or control character`);
  return `'${s.replace(/'/g, "''")}'`;
}

/** The statements, as text: CREATE USER, the required grants, then the optional ones commented with what they add. */
export function renderGrants(f: GrantsFlags): string {
  const action = (f.action ?? 'switch') as Action;
  if (!(ACTIONS as readonly string[]).includes(action))
    throw new UsageError(`--action must be one of ${ACTIONS.join(', ')} (got ${JSON.stringify(f.action)})`);
  const flavor = (f.flavor ?? 'mysql') as Flavor;
  if (flavor !== 'mysql' && flavor !== 'mariadb')
    throw new UsageError(`--flavor must be mysql or mariadb (got ${JSON.stringify(f.flavor)})`);
  const list = (v: string | undefined) =>
    (v ?? '')
      .split(',')
      .map((k) => k.trim())
      .filter((k) => k !== '');
  const keyspaces = list(f.keyspace);
  const sidecars = list(f.sidecarDb ?? '_vt');
  const named = [...keyspaces.map((k) => `vt_${k}`), ...list(f.schema)];
  for (const n of [...named, ...sidecars])
    if (n.includes('`') || n.length > 64) throw new UsageError(`${JSON.stringify(n)} is not a database name`);
  const schemas = named.length > 0 ? [...new Set(named)] : ['vt_<keyspace>'];
  const who = `${literal(f.user ?? 'vtpreflight')}@${literal(f.host ?? '%')}`;
  const plan = grantPlan(CHECKS, action, flavor, { sidecars, schemas });
  const grant = (clause: string) => `GRANT ${clause} TO ${who};`;
  const lines = [
    `-- The minimal MySQL user of vtpreflight for \`check --action ${action}\` (${flavor === 'mysql' ? 'MySQL 8.0 and 8.4' : 'MariaDB'}),`,
    '-- generated from its declared reads. Create it on every primary (grants do not replicate across shards).',
    ...(named.length === 0
      ? ['-- Give --keyspace (or --schema) to name them; `vt_<keyspace>` stands for each keyspace schema.']
      : []),
    `CREATE USER IF NOT EXISTS ${who} IDENTIFIED BY 'change-me';`,
    '',
    '-- Required: with these alone a healthy workflow is ready.',
  ];
  for (const g of plan.filter((x) => x.required)) {
    if (g.neededBy.length > 0) lines.push(`-- ${g.adds} (needed by ${g.neededBy.join(', ')})`);
    lines.push(grant(g.clause));
  }
  const optional = plan.filter((x) => !x.required);
  if (optional.length > 0) {
    lines.push(
      '',
      `-- Optional: no refusal of ${action} is judged from what each adds; without it the report names what it did`,
      '-- not read on one info line, and no verdict changes.',
    );
    for (const g of optional) lines.push(`-- adds ${g.adds}`, grant(g.clause));
  }
  return `${lines.join('\n')}\n`;
}

/** The `grants` command; `setExit` receives its exit code. */
export function grantsCommand(io: CliIo, setExit: (code: number) => void): Command {
  return new Command('grants')
    .description('print the GRANT statements of the minimal MySQL user vtpreflight reads with (connects to nothing)')
    .option('--action <action>', `the action to be judged: ${ACTIONS.join(', ')} (default switch)`)
    .option('--flavor <flavor>', 'mysql (8.0, 8.4) or mariadb (default mysql)')
    .option('--keyspace <names>', 'keyspaces whose schema (vt_<keyspace>) to grant on, comma-separated')
    .option('--schema <names>', 'tablet schemas to grant on when they are not vt_<keyspace> (db_name), comma-separated')
    .option('--sidecar-db <name>', 'the sidecar databases, comma-separated (default _vt)')
    .option('--user <name>', 'the user to create (default vtpreflight)')
    .option('--host <host>', "the user's host part (default %)")
    .action((f: GrantsFlags) => {
      io.stdout(renderGrants(f));
      setExit(0);
    });
}
