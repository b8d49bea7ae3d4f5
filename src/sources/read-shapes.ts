/**
 * The snapshot shape of each primary read (src/reads/registry.ts), one per read: the value a successful `Read` holds,
 * with the fields the model builder and the checks index into. The record is typed by the registry's read ids, so a
 * read added to the readout does not compile until it has its shape here or is declared as a unit (which carries its
 * shape), and a snapshot is validated the same way for every read (`src/sources/snapshot.ts` builds the primary's
 * shape from this table, the units and the registry).
 */
import { PRIMARY_READS, type PrimaryReadId } from '../reads/registry.js';
import { READ_UNITS, type UnitReadId } from '../reads/units/index.js';
import { arr, bool, nullable, num, obj, read, type Shape, str } from '../reads/shape.js';

const vreplicationRow = obj(
  { id: num, source: str, state: str },
  {
    workflow: nullable(str),
    pos: str,
    posBase64: str,
    stop_pos: nullable(str),
    max_tps: str,
    max_replication_lag: str,
    cell: nullable(str),
    tablet_types: nullable(str),
    db_name: str,
    message: nullable(str),
    time_updated: num,
    transaction_timestamp: num,
    rows_copied: num,
    tags: str,
    time_heartbeat: num,
    workflow_type: num,
    time_throttled: num,
    component_throttled: str,
    workflow_sub_type: num,
    defer_secondary_keys: num,
    options: nullable(str),
  },
);
const grantRow = { select: str, insert: str, update: str, delete: str };

/** Per read not declared as a unit, the shape of its value (a unit carries its own: src/reads/unit.ts). */
export const READ_SHAPES: { readonly [K in Exclude<PrimaryReadId, UnitReadId>]: Shape } = {
  columns: arr(str),
  vreplication: arr(vreplicationRow),
  copyState: arr(obj({ vrepl_id: num, table_name: str }, { id: num })),
  vreplicationLog: arr(
    obj(
      { vrepl_id: num },
      {
        id: num,
        type: str,
        state: str,
        message: str,
        created_at: nullable(str),
        updated_at: nullable(str),
        count: num,
      },
    ),
  ),
  reshardingJournal: arr(obj({ id: str, val: str }, { db_name: str })),
  positionColumns: arr(obj({ table_name: str, column_name: str, data_type: str, max_length: nullable(num) })),
  tables: arr(str),
  transactions: arr(
    obj(
      { thread_id: num, trx_seconds: num, rows_modified: num },
      { user: str, command: str, trx_state: str, state: nullable(str), digest: nullable(str), tables_locked: num },
    ),
  ),
  metadataLocks: obj({
    instrumented: bool,
    locks: arr(
      obj(
        { thread_id: nullable(num), table_name: str, lock_type: str, lock_duration: str, lock_status: str },
        { digest: nullable(str) },
      ),
    ),
  }),
  tableKeys: arr(
    obj({ table_name: str, has_primary_key: bool, unique_not_null: nullable(str), unique_nullable: arr(str) }),
  ),
  tableProbes: arr(obj({ table_name: str, non_empty: bool })),
  sequenceValues: arr(obj({ table_name: str, present: bool, next_id: nullable(str), cache: nullable(str) })),
  autoIncrementMax: arr(obj({ table_name: str, column_name: str, present: bool, max_value: nullable(str) })),
  vdiffs: arr(
    obj({
      id: num,
      vdiff_uuid: str,
      workflow: str,
      keyspace: str,
      shard: str,
      state: str,
      created_at: nullable(str),
      last_error: str,
      mismatched_tables: arr(str),
    }),
  ),
  foreignKeys: arr(
    obj({
      constraint_name: str,
      table_name: str,
      referenced_schema: str,
      referenced_table_name: str,
      update_rule: str,
      delete_rule: str,
    }),
  ),
  filteredUserGrants: obj({ user: str, global: arr(obj(grantRow)), db: arr(obj({ db: str, ...grantRow })) }, {}),
};

/**
 * The shape of one primary's reads in a snapshot (`readout.sidecars[]`): its identity, then every read of the registry
 * as a `Read` of its shape, required unless the registry says readouts from before the read lack it.
 */
export function primaryReadsShape(): Shape {
  const required: Record<string, Shape> = { keyspace: str, shard: str };
  const optional: Record<string, Shape> = { alias: str, endpoint: str, sidecarDb: str, dbName: str };
  const shapes: Readonly<Record<string, Shape>> = {
    ...READ_SHAPES,
    ...Object.fromEntries(READ_UNITS.map((u) => [u.declaration.id, u.shape])),
  };
  for (const r of PRIMARY_READS) {
    const shape = shapes[r.id];
    if (shape === undefined) throw new Error(`no snapshot shape for the read ${r.id}`);
    (r.optionalInReadout ? optional : required)[r.id] = read(shape);
  }
  return obj(required, optional);
}
