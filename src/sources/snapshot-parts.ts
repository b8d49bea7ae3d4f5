/**
 * The shapes of the readout parts a snapshot may carry beyond the core (`src/sources/snapshot.ts` `READOUT`): the
 * tablets' GetFullStatus fields, GetVersion builds, keyspace routing rules and the serving graph (each primary's
 * reads are validated from the read registry: src/sources/read-shapes.ts). The model builder and the checks index
 * into every one of them, so a snapshot where one has the wrong type is refused at the reader's entry point, in one
 * line naming its JSON path, instead of failing inside a check.
 */
import { arr, bool, nullable, obj, read, record, type Shape, str } from '../reads/shape.js';

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
/** The optional parts, checked where present (`<json path>: expected …`, or null). */
export const READOUT_PARTS: Shape = obj(
  {
    fullStatus: record(read(fullStatus)),
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
