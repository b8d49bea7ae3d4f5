/**
 * A source schema that lists no table: not read, not "nothing there".
 *
 * `information_schema.TABLES` lists only the tables the MySQL user has some privilege on, so a user with SELECT on
 * the sidecar database but not on `vt_<keyspace>` reads an empty list, without an error. A MoveTables source primary
 * always holds the tables it moves until Complete drops them, so an empty list there is either that missing grant or
 * every moved table gone: the checks that judge the schema (the write switch's LOCK TABLES in table-list-mismatch,
 * Complete's RENAME in complete-workflow, moved-tables-without-key) cannot tell, so the read is a failure and the
 * workflow `unverified` with the grant that would allow it. Read through vtctld (`ExecuteFetchAsDBA`, the tablet's
 * DBA user, which sees every table) the list is the truth and stays as read: the checks judge an empty one.
 */
import type { ReadError } from '../readout.js';
import { goStringSlice } from './traffic-switch.js';
import type { ReadFailure, Shard, ShardSidecar, Workflow } from './types.js';

/** One source shard whose schema lists no table: the failure to record, and its sidecar with the lists failed. */
export interface InvisibleSchema {
  readonly failure: ReadFailure;
  readonly shard: Shard;
}

/**
 * A shard whose schema list is invisible to the MySQL user: the failure to record (kind `privilege`, inferred, not an
 * errno: MySQL hides the tables of a schema the user has no privilege on) and the shard with `lists` failed.
 */
function invisible(
  shard: Shard,
  sc: ShardSidecar,
  keyspace: string,
  what: string,
  reason: string,
  lists: (failed: { readonly ok: false; readonly error: ReadError }) => Partial<ShardSidecar>,
): InvisibleSchema {
  const error: ReadError = { what, where: sc.tablet, reason, kind: 'privilege' };
  const failed = lists({ ok: false, error });
  // The reads it fails, in registry order (src/reads/registry.ts).
  const reads = (['tables', 'tableKeys'] as const).filter((id) => failed[id] !== undefined);
  return {
    failure: { ...error, kind: 'privilege', part: 'sidecar', keyspace, shard: shard.name, tablet: sc.tablet, reads },
    shard: { ...shard, sidecar: { ok: true, value: { ...sc, ...failed } } },
  };
}

/** The tables a workflow names explicitly (its streams' rule `match` values, regular expressions left out). */
function namedTables(wf: Workflow): string[] {
  return [...new Set(wf.streams.flatMap((s) => s.tables))].filter((t) => !t.startsWith('/')).sort();
}

/**
 * The source shards of the selected MoveTables workflows whose schema read listed no table (over MySQL), each once,
 * with the shard as it must be modelled: its `tables` (and an empty `tableKeys`) a failed read.
 */
export function invisibleSourceSchemas(
  workflows: readonly Workflow[],
  shardOf: (keyspace: string, shard: string) => Shard | undefined,
): InvisibleSchema[] {
  const out = new Map<string, InvisibleSchema>();
  for (const wf of workflows) {
    if (wf.type !== 'MoveTables') continue;
    const moved = namedTables(wf);
    if (moved.length === 0) continue;
    for (const ks of wf.sourceKeyspaces) {
      for (const name of wf.sourceShards) {
        const key = `${ks}/${name}`;
        const shard = shardOf(ks, name);
        const sc = shard?.sidecar;
        if (out.has(key) || shard === undefined || sc === undefined || !sc.ok) continue;
        const tables = sc.value.tables;
        if (tables === undefined || !tables.ok || tables.value.length > 0) continue;
        const db = sc.value.dbName;
        const keys = sc.value.tableKeys;
        out.set(
          key,
          invisible(
            shard,
            sc.value,
            ks,
            `information_schema.TABLES of ${db}`,
            `lists no table, though ${wf.type} ${wf.keyspace}.${wf.name} moves ${goStringSlice(moved)} from it: the MySQL user cannot see the tables of ${db} (grant it SELECT on ${db}, or read with --via vtctld), or they are gone`,
            (failed) => ({
              tables: failed,
              ...(keys !== undefined && keys.ok && keys.value.length === 0 ? { tableKeys: failed } : {}),
            }),
          ),
        );
      }
    }
  }
  return [...out.values()];
}

/**
 * The target shards of the selected MoveTables whose base-table read (`tableKeys`, information_schema.TABLES and
 * STATISTICS) listed no table over MySQL, each once. MoveTables create deploys the moved tables' schema to every
 * target primary before its streams start (materializer.go `deploySchema`), so an existing workflow's target schema
 * without any table is, over MySQL, a user without SELECT on `vt_<keyspace>`: the keys of the tables it applies to
 * (moved-tables-without-key) were not read. The shard's `tableKeys` (and an empty `tables`) become that failed read.
 */
export function invisibleTargetSchemas(
  workflows: readonly Workflow[],
  shardOf: (keyspace: string, shard: string) => Shard | undefined,
): InvisibleSchema[] {
  const out = new Map<string, InvisibleSchema>();
  for (const wf of workflows) {
    if (wf.type !== 'MoveTables') continue;
    const moved = namedTables(wf);
    if (moved.length === 0) continue;
    for (const name of wf.targetShards) {
      const key = `${wf.keyspace}/${name}`;
      const shard = shardOf(wf.keyspace, name);
      const sc = shard?.sidecar;
      if (out.has(key) || shard === undefined || sc === undefined || !sc.ok) continue;
      const keys = sc.value.tableKeys;
      if (keys === undefined || !keys.ok || keys.value.length > 0) continue;
      const tables = sc.value.tables;
      // A table list naming tables where the base-table read found none is not a visibility problem.
      if (tables !== undefined && (!tables.ok || tables.value.length > 0)) continue;
      const db = sc.value.dbName;
      out.set(
        key,
        invisible(
          shard,
          sc.value,
          wf.keyspace,
          `information_schema.TABLES (base tables) of ${db}`,
          `lists no table, though ${wf.type} ${wf.keyspace}.${wf.name} moves ${goStringSlice(moved)} into it: the MySQL user cannot see the tables of ${db} (grant it SELECT on ${db}, or read with --via vtctld)`,
          (failed) => ({ tableKeys: failed, ...(tables !== undefined ? { tables: failed } : {}) }),
        ),
      );
    }
  }
  return [...out.values()];
}
