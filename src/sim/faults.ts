/**
 * Faults injected on top of a healthy Reshard ({@link FaultKind}): each changes the few rows or records a real
 * incident changes, and names the checks that must report it and where ({@link InjectedFault}).
 */
import type { VReplicationRow } from '../readout.js';
import { type Builder, DAY, HOUR, inKeyrange, type ShardBuild } from './builder.js';
import { binlogSourceText, goQuote } from './records.js';
import { positionBehind } from './shards.js';
import type { FaultKind, InjectedFault } from './types.js';

/** One sentence per fault kind, for the demo's legend and test names. */
export const FAULT_DESCRIPTIONS: Readonly<Record<FaultKind, string>> = {
  'stream-set-mismatch': "another workflow's stream is missing on one of the Reshard's source shards",
  'lagging-stream': 'one Reshard stream has applied nothing for 7 minutes',
  'vstreamer-not-open': 'a source replica whose VStreamer is not open: the streams reading it retry with an RPC error',
  'copy-in-progress': 'one Reshard stream is still copying a table',
  'stream-error': 'one Reshard stream stopped in state Error on a duplicate key',
  'missing-source': 'one Reshard stream has a source with no filter, tables or key range',
  'frozen-workflow': 'a MoveTables into the keyspace already switched writes (FROZEN streams, routing rules moved)',
  'binlogs-purged': "one Reshard stream is behind what its source's binary logs still hold",
  'unreachable-primary': "one target primary's MySQL refuses connections and its tablet does not answer",
};

/** Records an injected fault with its description. */
function recordFault(b: Builder, kind: FaultKind, at: Omit<InjectedFault, 'kind' | 'description'>): void {
  b.faults.push({ kind, description: FAULT_DESCRIPTIONS[kind], ...at });
}

/** The Reshard stream of `target` reading `sources[j]`. */
function reshardRow(t: ShardBuild, wf: string): VReplicationRow {
  const row = t.rows.find((r) => r.workflow === wf);
  if (row === undefined) throw new Error(`simulator bug: no ${wf} stream on ${t.keyspace}/${t.name}`);
  return row;
}

/** Injects `faults` into the Reshard `wf` built by `./scenario.ts` `buildReshard`, each on its own source shard. */
export function injectReshardFaults(
  b: Builder,
  faults: readonly FaultKind[],
  wf: string,
  commerce: ShardBuild,
  sources: readonly ShardBuild[],
  targets: readonly ShardBuild[],
  parents: readonly number[][],
): void {
  if (faults.length === 0) return;
  const now = b.nowSeconds;
  // Distinct source shards for the faults (their first child target carries target-side faults), so that in
  // `all-faults` each fault stays on its own shards.
  const picks = b.rnd.pick(sources.length, faults.length);
  const childOf = (j: number): ShardBuild => targets[parents.findIndex((p) => p.includes(j))]!;
  faults.forEach((kind, k) => {
    const j = picks[k]!;
    const source = sources[j]!;
    const target = childOf(j);
    const row = reshardRow(target, wf);
    const at = {
      keyspace: target.keyspace,
      shard: target.name,
      workflow: wf,
      streamId: row.id,
      tablet: target.primary,
    };
    switch (kind) {
      case 'stream-set-mismatch': {
        // Someone deleted one Materialize stream on this source shard only (a botched manual cleanup).
        const gone = source.rows.find((r) => r.workflow === 'customer_sales')!;
        source.rows = source.rows.filter((r) => r !== gone);
        source.logs = source.logs.filter((l) => l.vrepl_id !== gone.id);
        recordFault(b, kind, {
          keyspace: source.keyspace,
          shard: source.name,
          workflow: wf,
          tablet: source.primary,
          checks: ['stream-set-mismatch'],
        });
        break;
      }
      case 'lagging-stream': {
        // The vplayer is stuck (e.g. blocked on a lock on the target): no transaction, no heartbeat for 7 minutes.
        const stuck = now - 7 * 60;
        b.patch(target, row.id, {
          time_updated: stuck,
          transaction_timestamp: stuck,
          time_heartbeat: stuck,
          pos: `MySQL56/${positionBehind(source.gtid, 3_200)}`,
        });
        recordFault(b, kind, { ...at, checks: ['replication-lag'] });
        break;
      }
      case 'vstreamer-not-open': {
        // The source replica's tabletserver is NotConnected; every stream whose tablet picker chose it keeps
        // retrying, and vreplicator.Replicate writes the RPC error into the row each time.
        const replica = source.tablets[1]!;
        for (const t of targets) {
          for (const r of t.rows) {
            if (r.workflow !== wf || !r.source.includes(`shard:${goQuote(source.name)}`)) continue;
            b.patch(t, r.id, {
              message: 'vttablet: rpc error: code = Unknown desc = VStreamer is not open',
              time_updated: now - 2,
              transaction_timestamp: now - 24,
              time_heartbeat: now - 24,
            });
            b.log(
              t,
              r.id,
              'Message',
              'Running',
              'vttablet: rpc error: code = Unknown desc = VStreamer is not open',
              now - 24,
            );
          }
        }
        recordFault(b, kind, { ...at, tablet: replica, checks: ['source-not-serving', 'stream-error'] });
        break;
      }
      case 'copy-in-progress': {
        b.patch(target, row.id, {
          state: 'Copying',
          pos: `MySQL56/${positionBehind(source.gtid, 25_000)}`,
          rows_copied: 1_234_567,
        });
        target.copyState.push({ id: target.copyState.length + 1, vrepl_id: row.id, table_name: 'corder' });
        target.copyState.push({ id: target.copyState.length + 1, vrepl_id: row.id, table_name: 'customer' });
        recordFault(b, kind, { ...at, checks: ['copy-incomplete'] });
        break;
      }
      case 'stream-error': {
        const message =
          "Duplicate entry '48213' for key 'corder.PRIMARY' (errno 1062) (sqlstate 23000) during query: insert into corder(order_id,customer_id,sku,price) values (48213,77120,'SKU-1002',30)";
        b.patch(target, row.id, { state: 'Error', message, time_updated: now - 40, transaction_timestamp: now - 41 });
        b.log(target, row.id, 'State Changed', 'Error', message, now - 40);
        recordFault(b, kind, { ...at, checks: ['stream-error'] });
        break;
      }
      case 'missing-source': {
        // A hand-edited row whose BinlogSource lost its filter: the controller refuses it with `missing source`.
        b.patch(target, row.id, { source: binlogSourceText({ keyspace: 'customer', shard: source.name }) });
        recordFault(b, kind, { ...at, checks: ['missing-source'] });
        break;
      }
      case 'frozen-workflow': {
        // A MoveTables commerce → customer whose writes were already switched: forward streams FROZEN and
        // Stopped, tables denied on the source primary, routing rules pointing at the target.
        for (const s of sources) {
          const r = b.stream(s, {
            workflow: 'commerce2customer',
            type: 'MoveTables',
            sourceKeyspace: 'commerce',
            sourceShard: commerce.name,
            rules: [
              {
                match: 'corder',
                filter: inKeyrange('select * from corder', 'customer_id', 'customer', 'hash', s.name),
              },
              {
                match: 'customer',
                filter: inKeyrange('select * from customer', 'customer_id', 'customer', 'hash', s.name),
              },
            ],
            ageSeconds: 6 * DAY,
          });
          b.patch(s, r.id, {
            state: 'Stopped',
            message: 'FROZEN',
            time_updated: now - 3 * HOUR,
            transaction_timestamp: now - 3 * HOUR,
          });
        }
        commerce.tabletControls = [
          { tabletType: 'PRIMARY', cells: [], deniedTables: ['corder', 'customer'], frozen: false },
        ];
        b.routingRules = ['corder', 'customer'].flatMap((t) =>
          ['', '@replica', '@rdonly'].flatMap((suffix) => [
            { fromTable: `${t}${suffix}`, toTables: [`customer.${t}`] },
            { fromTable: `commerce.${t}${suffix}`, toTables: [`customer.${t}`] },
          ]),
        );
        recordFault(b, kind, {
          keyspace: 'customer',
          shard: sources[0]!.name,
          workflow: 'commerce2customer',
          tablet: sources[0]!.primary,
          checks: ['frozen-workflow'],
        });
        break;
      }
      case 'binlogs-purged': {
        // Stopped for maintenance two days ago and restarted: every tablet of the source has purged what it needs.
        const purged = source.gtid.retained + 40_000;
        b.patch(target, row.id, {
          pos: `MySQL56/${positionBehind(source.gtid, purged)}`,
          transaction_timestamp: now - 2 * DAY,
          time_updated: now - 1,
        });
        recordFault(b, kind, { ...at, checks: ['binlogs-purged'] });
        break;
      }
      case 'unreachable-primary': {
        const { streamId: _none, ...primary } = at;
        b.unreachable.push(target.primary);
        b.fullStatus[target.primary] = {
          error: `UNAVAILABLE: rpc error: code = Unavailable desc = connection error: desc = "transport: Error while dialing: dial tcp 10.12.${j % 256}.17:16000: connect: connection refused"`,
        };
        recordFault(b, kind, { ...primary, checks: ['unreachable'] });
        break;
      }
    }
  });
}
