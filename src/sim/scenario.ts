/**
 * The scenario generator of the simulated cluster: a deterministic function of a seed and a clock reading that
 * returns a plain {@link SimCluster} — topology records, `GetFullStatus` answers and, per primary, the rows of its
 * sidecar tables in the shapes of `src/readout.ts` — for the demo, scale tests and benchmarks.
 *
 * Everything follows what Vitess itself writes: shard names from `key.GenerateShardRanges`,
 * one Reshard stream per intersecting (target, source) pair (`resharder.go` `createStreams`), Materialize streams from
 * every source shard to every serving target shard with `in_keyrange` filters (`materializer.go`), reference-table
 * streams copied onto Reshard targets, lookup backfills stopped with `Stopped after copy.`, BinlogSource prototext as
 * Go
 * prints it, positions as `MySQL56/<uuid>:1-<n>` GTID sets whose source primaries have executed more than the streams
 * applied and purged less, and timestamps a second or two before `now`.
 *
 * This module is the table of named scenarios and the four base builders; the shapes are in `./types.ts`, shard math
 * in `./shards.ts`, the builder in `./builder.ts` and the faults ({@link FaultKind}) in `./faults.ts`. Same seed, same
 * `now`, same options → the same cluster, byte for byte (`JSON.stringify`); nothing here reads the clock or does I/O.
 */
import type { VSchemaTableRecord } from '../readout.js';
import { Builder, DAY, finish, HOUR, inKeyrange } from './builder.js';
import { FAULT_DESCRIPTIONS, injectReshardFaults } from './faults.js';
import { generateShardRanges, intersecting } from './shards.js';
import {
  FAULT_KINDS,
  type FaultKind,
  type ScenarioBase,
  type ScenarioDefinition,
  type ScenarioOptions,
  type SimCluster,
} from './types.js';

/** The scenario `vtpreflight demo` runs when none is named. */
export const DEFAULT_SCENARIO = 'reshard-faults';

/** Smallest `--shards`: a Reshard needs a keyspace with more than one shard to stay interesting. */
export const MIN_SHARDS = 2;
/** Largest `--shards` (a Reshard to 8,192 shards; Materialize stops at 512 × 512). */
export const MAX_SHARDS = 4096;

/** Every named scenario, the default first. */
export const SCENARIOS: readonly ScenarioDefinition[] = [
  {
    name: DEFAULT_SCENARIO,
    description:
      'Reshard of a 16-shard keyspace to 32 shards with three realistic faults: a stream-set mismatch on a source shard, a lagging stream, a source replica whose VStreamer is not open',
    base: 'reshard',
    defaultShards: 16,
    faults: ['stream-set-mismatch', 'lagging-stream', 'vstreamer-not-open'],
  },
  {
    name: 'reshard',
    description: 'a healthy Reshard N → 2N, with Materialize and reference-table workflows writing into the keyspace',
    base: 'reshard',
    defaultShards: 16,
    faults: [],
  },
  {
    name: 'movetables',
    description: 'a healthy MoveTables from an unsharded keyspace into N shards',
    base: 'movetables',
    defaultShards: 8,
    faults: [],
  },
  {
    name: 'materialize',
    description: 'a healthy Materialize from N shards into N shards (N × N streams)',
    base: 'materialize',
    defaultShards: 8,
    faults: [],
  },
  {
    name: 'lookup',
    description: 'an owned lookup vindex backfill, stopped after copy and ready to externalize',
    base: 'lookup',
    defaultShards: 8,
    faults: [],
  },
  {
    name: 'all-faults',
    description: 'the Reshard with every fault the simulator knows',
    base: 'reshard',
    defaultShards: 16,
    faults: FAULT_KINDS,
  },
  ...FAULT_KINDS.map((kind) => ({
    name: kind,
    description: `the Reshard with one fault: ${FAULT_DESCRIPTIONS[kind]}`,
    base: 'reshard' as const,
    defaultShards: 16,
    faults: [kind],
  })),
];

/** Looks a scenario up by name. */
export function findScenario(name: string): ScenarioDefinition | undefined {
  return SCENARIOS.find((s) => s.name === name);
}

/**
 * Generates a named scenario; throws an Error naming the known ones when `name` is unknown or `shards` is out of range.
 */
export function generateScenario(name: string, opts: ScenarioOptions = {}): SimCluster {
  const def = findScenario(name);
  if (def === undefined)
    throw new Error(`unknown scenario "${name}": known scenarios are ${SCENARIOS.map((s) => s.name).join(', ')}`);
  return generateCluster({
    name: def.name,
    base: def.base,
    faults: def.faults,
    shards: opts.shards ?? def.defaultShards,
    seed: opts.seed ?? 1,
    now: opts.now ?? DEFAULT_NOW,
  });
}

const DEFAULT_NOW = Date.parse('2026-01-01T00:00:00.000Z');
// ---------------------------------------------------------------------------------------------------------------
// Bases.

const sharded = (column: string, vindex = 'hash'): VSchemaTableRecord => ({
  type: '',
  columnVindexes: [{ name: vindex, columns: [column] }],
  source: '',
  pinned: '',
});
const unshardedTable: VSchemaTableRecord = { type: '', columnVindexes: [], source: '', pinned: '' };
const referenceTable = (source = ''): VSchemaTableRecord => ({
  type: 'reference',
  columnVindexes: [],
  source,
  pinned: '',
});

const COMMERCE_TABLES: Record<string, VSchemaTableRecord> = {
  product: unshardedTable,
  customer: unshardedTable,
  corder: unshardedTable,
};

/** Reshard `customer` N → 2N, with two Materializes and a reference-table stream writing into it from `commerce`. */
function buildReshard(b: Builder, n: number, faults: readonly FaultKind[]): { workflow: string } {
  b.keyspace('commerce', COMMERCE_TABLES, false);
  b.keyspace(
    'customer',
    {
      customer: sharded('customer_id'),
      corder: sharded('customer_id'),
      customer_orders: sharded('customer_id'),
      customer_sales: sharded('customer_id'),
      product: referenceTable('commerce.product'),
    },
    true,
  );
  const [commerce] = b.addShards('commerce', ['0'], true);
  const src = generateShardRanges(n);
  const dst = generateShardRanges(2 * n);
  const sources = b.addShards('customer', src.names, true);
  const targets = b.addShards('customer', dst.names, false);
  const wf = 'cust2cust';

  // Older workflows on the (serving) source shards: every one reads commerce/0.
  for (const s of sources) {
    b.stream(s, {
      workflow: 'product_ref',
      type: 'Materialize',
      sourceKeyspace: 'commerce',
      sourceShard: commerce!.name,
      rules: [{ match: 'product', filter: 'select * from product' }],
      ageSeconds: 90 * DAY,
    });
    b.stream(s, {
      workflow: 'customer_orders',
      type: 'Materialize',
      sourceKeyspace: 'commerce',
      sourceShard: commerce!.name,
      rules: [
        {
          match: 'customer_orders',
          filter: inKeyrange(
            'select order_id, customer_id, sku, price from corder',
            'customer_id',
            'customer',
            'hash',
            s.name,
          ),
        },
      ],
      ageSeconds: 30 * DAY,
    });
    b.stream(s, {
      workflow: 'customer_sales',
      type: 'Materialize',
      sourceKeyspace: 'commerce',
      sourceShard: commerce!.name,
      rules: [
        {
          match: 'customer_sales',
          filter: inKeyrange(
            'select customer_id, sum(price) as total_price, count(*) as order_count from corder',
            'customer_id',
            'customer',
            'hash',
            s.name,
            ' group by customer_id',
          ),
        },
      ],
      ageSeconds: 14 * DAY,
    });
  }
  // The Reshard: one stream per intersecting (target, source) pair, plus the reference-table stream copied onto
  // every target (resharder.go copies streams whose tables are all reference tables).
  const parents = intersecting(dst.bounds, src.bounds);
  targets.forEach((t, i) => {
    for (const j of parents[i]!) {
      b.stream(t, {
        workflow: wf,
        type: 'Reshard',
        sourceKeyspace: 'customer',
        sourceShard: sources[j]!.name,
        rules: [{ match: '/.*', filter: t.name }],
        ageSeconds: 2 * DAY,
      });
    }
    b.stream(t, {
      workflow: 'product_ref',
      type: 'Materialize',
      sourceKeyspace: 'commerce',
      sourceShard: commerce!.name,
      rules: [{ match: 'product', filter: 'select * from product' }],
      ageSeconds: 2 * DAY,
    });
  });
  injectReshardFaults(b, faults, wf, commerce!, sources, targets, parents);
  return { workflow: wf };
}

/** MoveTables from unsharded `commerce` into `customer` (N shards), copied and running; reads not switched yet. */
function buildMoveTables(b: Builder, n: number): void {
  b.keyspace('commerce', COMMERCE_TABLES, false);
  b.keyspace('customer', { customer: sharded('customer_id'), corder: sharded('customer_id') }, true);
  const [commerce] = b.addShards('commerce', ['0'], true);
  const targets = b.addShards('customer', generateShardRanges(n).names, true);
  for (const t of targets) {
    b.stream(t, {
      workflow: 'commerce2customer',
      type: 'MoveTables',
      sourceKeyspace: 'commerce',
      sourceShard: commerce!.name,
      rules: [
        { match: 'corder', filter: inKeyrange('select * from corder', 'customer_id', 'customer', 'hash', t.name) },
        { match: 'customer', filter: inKeyrange('select * from customer', 'customer_id', 'customer', 'hash', t.name) },
      ],
      ageSeconds: 3 * DAY,
    });
  }
  // MoveTables create routes every moved table to the source until reads are switched.
  b.routingRules = ['corder', 'customer'].flatMap((t) =>
    ['', '@replica', '@rdonly'].flatMap((suffix) => [
      { fromTable: `${t}${suffix}`, toTables: [`commerce.${t}`] },
      { fromTable: `customer.${t}${suffix}`, toTables: [`commerce.${t}`] },
    ]),
  );
}

/** Materialize `sales` (N shards, by customer) into `reporting` (N shards, by region): every pair has a stream. */
function buildMaterialize(b: Builder, n: number): void {
  b.keyspace('sales', { orders: sharded('customer_id') }, true);
  b.keyspace('reporting', { orders_by_region: sharded('region_id', 'region_hash') }, true, {
    region_hash: { type: 'xxhash', params: {}, owner: '' },
  });
  const names = generateShardRanges(n).names;
  const sources = b.addShards('sales', names, true);
  const targets = b.addShards('reporting', names, true);
  for (const t of targets) {
    for (const s of sources) {
      b.stream(t, {
        workflow: 'orders_by_region',
        type: 'Materialize',
        sourceKeyspace: 'sales',
        sourceShard: s.name,
        rules: [
          {
            match: 'orders_by_region',
            filter: inKeyrange(
              'select region_id, order_id, customer_id, amount from orders',
              'region_id',
              'reporting',
              'region_hash',
              t.name,
            ),
          },
        ],
        ageSeconds: 20 * DAY,
      });
    }
  }
}

/** An owned lookup vindex backfill on `customer` (N shards) into `lookup` (min(N, 8) shards), stopped after copy. */
function buildLookup(b: Builder, n: number): void {
  b.keyspace('customer', { corder: sharded('customer_id') }, true, {
    hash: { type: 'hash', params: {}, owner: '' },
    corder_sku_lookup: {
      type: 'consistent_lookup_unique',
      params: { table: 'lookup.corder_sku_lookup', from: 'sku', to: 'keyspace_id', write_only: 'true' },
      owner: 'corder',
    },
  });
  b.keyspace('lookup', { corder_sku_lookup: sharded('sku', 'unicode_loose_xxhash') }, true, {
    unicode_loose_xxhash: { type: 'unicode_loose_xxhash', params: {}, owner: '' },
  });
  const sources = b.addShards('customer', generateShardRanges(n).names, true);
  const targets = b.addShards('lookup', generateShardRanges(Math.min(n, 8)).names, true);
  const now = b.nowSeconds;
  for (const t of targets) {
    for (const s of sources) {
      const row = b.stream(t, {
        workflow: 'corder_sku_lookup_vdx',
        type: 'CreateLookupIndex',
        sourceKeyspace: 'customer',
        sourceShard: s.name,
        rules: [
          {
            match: 'corder_sku_lookup',
            filter: inKeyrange(
              'select sku as sku, keyspace_id() as keyspace_id from corder',
              'sku',
              'lookup',
              'unicode_loose_xxhash',
              t.name,
              ' group by sku, keyspace_id',
            ),
          },
        ],
        stopAfterCopy: true,
        ageSeconds: 6 * HOUR,
      });
      b.patch(t, row.id, {
        state: 'Stopped',
        message: 'Stopped after copy.',
        time_updated: now - 2 * HOUR,
        transaction_timestamp: now - 2 * HOUR,
        time_heartbeat: now - 2 * HOUR,
      });
      b.log(t, row.id, 'State Changed', 'Stopped', 'Stopped after copy.', now - 2 * HOUR);
    }
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Assembly.

/** The low-level generator behind {@link generateScenario}. */
export function generateCluster(o: {
  name: string;
  base: ScenarioBase;
  faults: readonly FaultKind[];
  shards: number;
  seed: number;
  now: number;
}): SimCluster {
  if (!Number.isInteger(o.shards) || o.shards < MIN_SHARDS || o.shards > MAX_SHARDS) {
    throw new Error(`invalid shard count ${String(o.shards)}: use an integer from ${MIN_SHARDS} to ${MAX_SHARDS}`);
  }
  if (o.base === 'materialize' && o.shards > 512)
    throw new Error(`invalid shard count ${o.shards} for a Materialize: N × N streams, use at most 512`);
  if (o.faults.length > 0 && o.base !== 'reshard')
    throw new Error(`faults are injected into the reshard scenarios only, not ${o.base}`);
  const b = new Builder(o.name, o.seed >>> 0, o.now);
  switch (o.base) {
    case 'reshard':
      buildReshard(b, o.shards, o.faults);
      break;
    case 'movetables':
      buildMoveTables(b, o.shards);
      break;
    case 'materialize':
      buildMaterialize(b, o.shards);
      break;
    case 'lookup':
      buildLookup(b, o.shards);
      break;
  }
  return finish(b);
}
