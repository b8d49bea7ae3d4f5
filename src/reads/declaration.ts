/**
 * The declaration of a shard primary's read (what it reads, its role, the privileges it needs), and the two grants
 * every sidecar or schema read needs. src/reads/registry.ts lists the declarations; a read unit
 * (src/reads/unit.ts) carries its own. Pure data: no I/O.
 */
import type { TabletSidecarRead } from '../readout.js';

/** The readout fields of a primary's read (a {@link TabletSidecarRead} key that holds a `Read`). */
export type PrimaryReadId = Exclude<
  keyof TabletSidecarRead,
  'alias' | 'keyspace' | 'shard' | 'endpoint' | 'sidecarDb' | 'dbName'
>;

/**
 * One privilege a read needs, as a GRANT clause per server flavor (`{sidecar}` and `{schema}` are filled in). Whether
 * the minimal user must hold it is not declared here: it is required for an action when a read needing it is core,
 * or is declared by a reason of that action that can do more than warn (`vtpreflight grants` computes it).
 */
export interface Privilege {
  /** `GRANT <clause> TO …` on MySQL 8.0 and 8.4. */
  readonly mysql: string;
  /** The same on MariaDB (10.6 to 11.x). */
  readonly mariadb: string;
  /** What vtpreflight reads with it, in one phrase (said of a grant offered as optional). */
  readonly adds: string;
}

/** A declared read of a shard primary. */
export interface PrimaryRead {
  readonly id: PrimaryReadId;
  /** What it reads, for people: tables and schemas. */
  readonly reads: string;
  /** `core`: every verdict rests on it; `declared`: only the reasons that name it (see the module header). */
  readonly role: 'core' | 'declared';
  /** Absent from readouts taken before the read existed (an optional readout field). */
  readonly optionalInReadout: boolean;
  /** Sent only when the run asks for it (`--action create --tables`, the vschema's sequences). */
  readonly onDemand?: true;
  /** The privileges it needs; a read not listed here needs the required grants only. */
  readonly privileges: readonly Privilege[];
}

/** SELECT on the sidecar database: every sidecar read needs it. */
export const SIDECAR: Privilege = {
  mysql: 'SELECT ON `{sidecar}`.*',
  mariadb: 'SELECT ON `{sidecar}`.*',
  adds: "the workflows' streams, copy state, logs and journals in the sidecar database",
};
/** SELECT on the tablet's schema: information_schema shows its tables only to a user with a privilege on them. */
export const SCHEMA: Privilege = {
  mysql: 'SELECT ON `{schema}`.*',
  mariadb: 'SELECT ON `{schema}`.*',
  adds: "the keyspace schema's tables, keys and foreign keys, and the sequences' rows",
};
