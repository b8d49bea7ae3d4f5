/**
 * The reads of a shard primary, each declared once: which statements it sends and on what, the privileges it needs on
 * MySQL 8.0/8.4 and MariaDB, whether the minimal user must have them, and how the readout carries it. The places
 * that enumerate a primary's reads (the model builder recording failures, the failed-read stub, `vtpreflight grants`,
 * the line that names what was not read) loop over {@link PRIMARY_READS} instead of listing them by hand.
 *
 * A read is `core` when every verdict of the shard's workflows rests on it (the stream rows and what decides copy,
 * lag and the point of no return): a failed core read leaves each workflow it concerns unverified, whatever the
 * action. Any other read is `declared`: a failure leaves unverified only the verdicts whose action has an applicable
 * reason that declares the read (`reads` of a reason, src/engine/check.ts), and a reason that is heuristic and can
 * only warn never does. Pure data: no I/O.
 */
import { type PrimaryRead, type PrimaryReadId, SCHEMA, SIDECAR } from './declaration.js';
import { READ_UNITS } from './units/index.js';

export { type PrimaryRead, type PrimaryReadId, type Privilege, SCHEMA, SIDECAR } from './declaration.js';

/** The columns of mysql.user read for the filtered user: never `authentication_string` or any other secret. */
export const GRANT_TABLE_COLUMNS = {
  user: ['Host', 'User', 'Select_priv', 'Insert_priv', 'Update_priv', 'Delete_priv'],
  db: ['Host', 'Db', 'User', 'Select_priv', 'Insert_priv', 'Update_priv', 'Delete_priv'],
  tables_priv: ['Host', 'Db', 'User', 'Table_name', 'Table_priv'],
} as const;
const columnGrant = (table: keyof typeof GRANT_TABLE_COLUMNS): string =>
  `SELECT (${GRANT_TABLE_COLUMNS[table].join(', ')}) ON mysql.${table}`;
const GRANT_TABLES_ADDS =
  "the filtered user's privileges (SwitchTraffic's ValidateVReplicationPermissions, Vitess v21 and later)";

/** Every read of a shard primary, in readout order. */
export const PRIMARY_READS: readonly PrimaryRead[] = [
  {
    id: 'columns',
    reads: '{sidecar}.vreplication (its column names)',
    role: 'core',
    optionalInReadout: false,
    privileges: [SIDECAR],
  },
  {
    id: 'vreplication',
    reads: '{sidecar}.vreplication',
    role: 'core',
    optionalInReadout: false,
    privileges: [SIDECAR],
  },
  { id: 'copyState', reads: '{sidecar}.copy_state', role: 'core', optionalInReadout: false, privileges: [SIDECAR] },
  {
    id: 'vreplicationLog',
    reads: '{sidecar}.vreplication_log (newest rows per stream)',
    role: 'core',
    optionalInReadout: false,
    privileges: [SIDECAR],
  },
  {
    id: 'reshardingJournal',
    reads: '{sidecar}.resharding_journal',
    role: 'core',
    optionalInReadout: false,
    privileges: [SIDECAR],
  },
  {
    id: 'positionColumns',
    reads: 'information_schema.COLUMNS of {sidecar}',
    role: 'declared',
    optionalInReadout: true,
    privileges: [SIDECAR],
  },
  {
    id: 'tables',
    reads: 'information_schema.TABLES of {schema}',
    role: 'declared',
    optionalInReadout: true,
    privileges: [SCHEMA],
  },
  {
    id: 'transactions',
    reads: 'information_schema.INNODB_TRX and PROCESSLIST',
    role: 'declared',
    optionalInReadout: true,
    privileges: [
      {
        mysql: 'PROCESS ON *.*',
        mariadb: 'PROCESS ON *.*',
        adds: "other sessions' open transactions on the moved tables (long-transactions)",
      },
    ],
  },
  {
    id: 'metadataLocks',
    reads: 'performance_schema.metadata_locks',
    role: 'declared',
    optionalInReadout: true,
    privileges: [
      {
        mysql: 'SELECT ON performance_schema.*',
        mariadb: 'SELECT ON performance_schema.*',
        adds: 'metadata locks held or awaited on the moved tables (long-transactions)',
      },
    ],
  },
  {
    id: 'tableKeys',
    reads: 'information_schema.TABLES and STATISTICS of {schema}',
    role: 'declared',
    optionalInReadout: true,
    privileges: [SCHEMA],
  },
  {
    id: 'tableProbes',
    reads: 'one row of each table to create (SELECT 1 … LIMIT 1)',
    role: 'declared',
    optionalInReadout: true,
    onDemand: true,
    privileges: [SCHEMA],
  },

  {
    id: 'sequenceValues',
    reads: 'the row id 0 of each sequence table the vschema names',
    role: 'declared',
    optionalInReadout: true,
    onDemand: true,
    privileges: [SCHEMA],
  },
  {
    id: 'autoIncrementMax',
    reads: 'MAX of each auto_increment column the vschema names',
    role: 'declared',
    optionalInReadout: true,
    onDemand: true,
    privileges: [SCHEMA],
  },
  {
    id: 'vdiffs',
    reads: '{sidecar}.vdiff and vdiff_table',
    role: 'declared',
    optionalInReadout: true,
    privileges: [SIDECAR],
  },
  {
    id: 'foreignKeys',
    reads:
      "the foreign keys of {schema} (information_schema.KEY_COLUMN_USAGE and REFERENTIAL_CONSTRAINTS; MariaDB: InnoDB's INNODB_SYS_FOREIGN)",
    role: 'declared',
    optionalInReadout: true,
    // MariaDB answers the information_schema tables by opening every table of the schema: there the same facts are
    // read from InnoDB's dictionary, which needs PROCESS (src/sources/sidecar.ts `foreignKeysInnodb`).
    privileges: [
      {
        mysql: SCHEMA.mysql,
        mariadb: 'PROCESS ON *.*',
        adds: 'the foreign keys of the moved tables, with their ON DELETE and ON UPDATE rules (moved-tables-foreign-keys)',
      },
    ],
  },

  {
    id: 'filteredUserGrants',
    reads: 'mysql.user, mysql.db and mysql.tables_priv (privilege columns of the filtered user)',
    role: 'declared',
    optionalInReadout: true,
    privileges: [
      {
        mysql: columnGrant('user'),
        mariadb: columnGrant('user'),
        adds: GRANT_TABLES_ADDS,
      },
      { mysql: columnGrant('db'), mariadb: columnGrant('db'), adds: GRANT_TABLES_ADDS },
      {
        mysql: columnGrant('tables_priv'),
        mariadb: columnGrant('tables_priv'),
        adds: GRANT_TABLES_ADDS,
      },
    ],
  },
  // The reads declared as units (src/reads/units/): statements, decoder, snapshot shape and simulator answer in one
  // file.
  ...READ_UNITS.map((u) => u.declaration),
];

/** The declaration of `id`. */
export function primaryRead(id: PrimaryReadId): PrimaryRead {
  const r = PRIMARY_READS.find((x) => x.id === id);
  if (r === undefined) throw new Error(`no primary read ${id}`);
  return r;
}

/** The reads whose failure concerns only the reasons that declare them (see the module header). */
export const DECLARED_READS: readonly PrimaryReadId[] = PRIMARY_READS.filter((r) => r.role === 'declared').map(
  (r) => r.id,
);

/**
 * The server-wide grants a read needs beyond SELECT on the sidecar database and the keyspace schema (PROCESS,
 * performance_schema, the grant tables' columns), as one phrase, or null when it needs none.
 */
export function extraGrantOf(id: PrimaryReadId, flavor: 'mysql' | 'mariadb' = 'mysql'): string | null {
  const everyRead = new Set([SIDECAR[flavor], SCHEMA[flavor]]);
  const extra = primaryRead(id).privileges.filter((p) => !everyRead.has(p[flavor]));
  return extra.length === 0 ? null : extra.map((p) => p[flavor]).join(', ');
}

/** Fills `{sidecar}` and `{schema}` of a declaration's text. */
export function fillNames(text: string, names: { readonly sidecar: string; readonly schema: string }): string {
  return text.replaceAll('{sidecar}', names.sidecar).replaceAll('{schema}', names.schema);
}
