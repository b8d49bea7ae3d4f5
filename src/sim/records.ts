/**
 * Records written the way Vitess writes them, shared by the simulator (`./builder.ts`) and the check tests' readout
 * builder (`test/helpers/cluster.ts`), so that both describe a healthy tablet and a stream's source the same way.
 *
 * The BinlogSource writer is deliberately independent of `src/vitess/binlog-source.ts`: it prints what Go's
 * `prototext.Marshal` prints for the fields it knows, so the parser is tested against text it did not write.
 */
import type { FullStatusRecord } from '../readout.js';

/** A prototext string literal as Go writes an ASCII string: `"` and `\` escaped. */
export const goQuote = (v: string): string => `"${v.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;

/** The BinlogSource fields the writer knows. */
export interface BinlogSourceSpec {
  readonly keyspace: string;
  readonly shard: string;
  readonly rules?: readonly { readonly match: string; readonly filter: string }[];
  /** `binlogdata.OnDDLAction` name; `IGNORE` (the default) is not written. */
  readonly onDdl?: string;
  readonly stopAfterCopy?: boolean;
  readonly externalCluster?: string;
}

/**
 * A `binlogdata.BinlogSource` as Go's prototext prints it into `_vt.vreplication.source`: fields in declaration order
 * (`vitessio/vitess:proto/binlogdata.proto` `BinlogSource`: keyspace 1, shard 2, filter 6, on_ddl 7,
 * stop_after_copy 9, external_cluster 10), defaults left out, one space between fields.
 */
export function binlogSourceText(s: BinlogSourceSpec): string {
  let out = `keyspace:${goQuote(s.keyspace)} shard:${goQuote(s.shard)}`;
  if (s.rules !== undefined && s.rules.length > 0) {
    const rules = s.rules.map(
      (r) => `rules:{match:${goQuote(r.match)}${r.filter ? ` filter:${goQuote(r.filter)}` : ''}}`,
    );
    out += ` filter:{${rules.join(' ')}}`;
  }
  if (s.onDdl !== undefined && s.onDdl !== '' && s.onDdl !== 'IGNORE') out += ` on_ddl:${s.onDdl}`;
  if (s.stopAfterCopy) out += ' stop_after_copy:true';
  if (s.externalCluster) out += ` external_cluster:${goQuote(s.externalCluster)}`;
  return out;
}

/**
 * What `GetFullStatus` answers for a healthy tablet of MySQL 8.0 with GTIDs: the primary reports its executed set
 * as `primaryPosition`, any other tablet its applied set as `replicationPosition`; ROW binlogs with FULL images,
 * log_bin and log_replica_updates on, read-only unless primary.
 */
export function healthyFullStatus(o: {
  readonly serverUuid: string;
  readonly tabletType: string;
  /** `MySQL56/<gtid set>`: executed (primary) or applied (others). */
  readonly position: string;
  readonly gtidPurged?: string;
}): FullStatusRecord {
  const primary = o.tabletType === 'PRIMARY';
  return {
    serverUuid: o.serverUuid,
    primaryPosition: primary ? o.position : '',
    replicationPosition: primary ? '' : o.position,
    gtidPurged: o.gtidPurged ?? '',
    version: '8.0.40',
    readOnly: !primary,
    superReadOnly: !primary,
    gtidMode: 'ON',
    binlogFormat: 'ROW',
    binlogRowImage: 'FULL',
    logBinEnabled: true,
    logReplicaUpdates: true,
    tabletType: o.tabletType,
  };
}
