/**
 * The shapes of the readout parts a snapshot may carry beyond the core (`src/sources/snapshot.ts` `READOUT`): the
 * tablets' GetFullStatus fields, GetVersion builds, keyspace routing rules, the serving graph, and each primary's
 * optional reads (2PC, time zones, filtered-user grants, position columns, transactions, metadata locks, table
 * keys). The model builder and the checks index into every one of them, so a snapshot where one has the wrong type
 * is refused at the reader's entry point, in one line naming its JSON path, instead of failing inside a check.
 */
import { arr, bool, nullable, num, obj, read, record, type Shape, str } from './shape.js';

/** Unix seconds a Date can hold (±8.64e12 s); GetVersion's build time is printed as a date. */
const unixSeconds: Shape = (v, p) =>
  typeof v === 'number' && Number.isFinite(v) && Math.abs(v) <= 8.64e12 ? null : `${p}: expected unix seconds`;

const fullStatus = obj({
  serverUuid: str,
  primaryPosition: str,
  replicationPosition: str,
  gtidPurged: str,
  version: str,
  readOnly: bool,
  superReadOnly: bool,
  gtidMode: str,
  binlogFormat: str,
  binlogRowImage: str,
  logBinEnabled: bool,
  logReplicaUpdates: bool,
  tabletType: str,
});
const keyRange = nullable(obj({ start: str, end: str }));
const routingRule = obj({ fromTable: str, toTables: arr(str) });
const keyspaceRoutingRule = obj({ fromKeyspace: str, toKeyspace: str });
const srvKeyspace = obj({
  partitions: arr(
    obj({
      servedType: str,
      shards: arr(obj({ name: str, keyRange })),
      shardTabletControls: arr(obj({ name: str, keyRange, queryServiceDisabled: bool })),
    }),
  ),
});
const twoPcRows = nullable(arr(obj({ dtid: str, state: num, time_created: str })));
const grantRow = { select: str, insert: str, update: str, delete: str };

const sidecarParts = obj(
  {},
  {
    positionColumns: read(arr(obj({ table_name: str, column_name: str, data_type: str, max_length: nullable(num) }))),
    transactions: read(
      arr(
        obj(
          { thread_id: num, trx_seconds: num, rows_modified: num },
          { user: str, command: str, trx_state: str, state: nullable(str), digest: nullable(str), tables_locked: num },
        ),
      ),
    ),
    metadataLocks: read(
      obj({
        instrumented: bool,
        locks: arr(
          obj(
            { thread_id: nullable(num), table_name: str, lock_type: str, lock_duration: str, lock_status: str },
            { digest: nullable(str) },
          ),
        ),
      }),
    ),
    tableKeys: read(
      arr(obj({ table_name: str, has_primary_key: bool, unique_not_null: nullable(str), unique_nullable: arr(str) })),
    ),
    twoPc: read(obj({ dtState: twoPcRows, redoState: twoPcRows })),
    timeZoneTables: read(bool),
    filteredUserGrants: read(
      obj({ user: str, global: arr(obj(grantRow)), db: arr(obj({ db: str, ...grantRow })) }, {}),
    ),
  },
);

/** The optional parts, checked where present (`<json path>: expected …`, or null). */
export const READOUT_PARTS: Shape = obj(
  {
    fullStatus: record(read(fullStatus)),
    sidecars: arr(sidecarParts),
  },
  {
    tabletBuilds: record(read(obj({ buildTimestamp: unixSeconds, gitRev: str }))),
    keyspaceRoutingRules: read(arr(keyspaceRoutingRule)),
    cells: read(arr(str)),
    srvVSchemas: record(
      read(
        obj({ keyspaces: arr(str), routingRules: arr(routingRule), keyspaceRoutingRules: arr(keyspaceRoutingRule) }),
      ),
    ),
    srvKeyspaces: record(read(record(srvKeyspace))),
    rpcs: record(bool),
  },
);
