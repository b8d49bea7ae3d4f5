/**
 * Shared scenarios for check tests: a Reshard of `customer` while other workflows write into it from `commerce` (the
 * stream-migrator checks: `stream-set-mismatch`, `source-streams-not-running`, `position-drift`), and the plain
 * MoveTables from unsharded `commerce` into `customer` that many checks start from.
 */
import { cluster, gtidPos, type ClusterBuilder, type StreamOptions } from './cluster.js';

/** Tables of the `customer` vschema: two sharded tables and one reference table. */
export const CUSTOMER_TABLES = {
  customer: { columnVindexes: [{ name: 'hash', columns: ['customer_id'] }] },
  corder: { columnVindexes: [{ name: 'hash', columns: ['customer_id'] }] },
  ref_country: { type: 'reference' },
};

/** An in_keyrange rule of the kind MoveTables/Materialize write into a sharded target. */
export function shardedRule(table: string, shard: string): { match: string; filter: string } {
  return { match: table, filter: `select * from ${table} where in_keyrange(customer_id, 'customer.hash', '${shard}')` };
}

/**
 * Adds one stream of `workflow` on each of the given shards of `to` (not on every shard, as a real external workflow
 * into a keyspace under Reshard lives only on the serving, source shards). Returns the builder.
 */
export function external(
  b: ClusterBuilder,
  workflow: string,
  o: {
    from: string;
    fromShard: string;
    to: string;
    shards: readonly string[];
    tables?: readonly string[];
    type?: StreamOptions['type'];
    extra?: StreamOptions;
  },
): ClusterBuilder {
  for (const shard of o.shards) {
    b.stream(o.to, shard, b.nextId(o.to, shard), {
      workflow,
      type: o.type ?? 'MoveTables',
      sourceKeyspace: o.from,
      sourceShard: o.fromShard,
      rules: (o.tables ?? ['customer', 'corder']).map((t) => shardedRule(t, shard)),
      ...o.extra,
    });
  }
  return b;
}

/**
 * commerce (unsharded) and customer (-80, 80- serving; -40, 40-80, 80-c0, c0- new), Reshard `cust2cust` from the
 * two serving shards to the four new ones, plus an external MoveTables `commerce2customer` from commerce/0 on both
 * source shards and a reference-table Materialize `refmat` on both: the healthy case.
 * Primaries: commerce/0 zone1-0000000100, customer/-80 …110, customer/80- …120.
 */
export function reshardScenario(): ClusterBuilder {
  const b = cluster()
    .keyspace('commerce', { shards: ['0'] })
    .keyspace('customer', {
      shards: ['-80', '80-', '-40', '40-80', '80-c0', 'c0-'],
      tables: CUSTOMER_TABLES,
      notServing: ['-40', '40-80', '80-c0', 'c0-'],
    })
    .reshard('cust2cust', { keyspace: 'customer', from: ['-80', '80-'], to: ['-40', '40-80', '80-c0', 'c0-'] });
  external(b, 'commerce2customer', { from: 'commerce', fromShard: '0', to: 'customer', shards: ['-80', '80-'] });
  for (const shard of ['-80', '80-']) {
    b.stream('customer', shard, b.nextId('customer', shard), {
      workflow: 'refmat',
      type: 'Materialize',
      sourceKeyspace: 'commerce',
      sourceShard: '0',
      rules: [{ match: 'ref_country', filter: 'select * from ref_country' }],
    });
  }
  return b;
}

/** A Reshard merging four source shards into two, with `commerce2customer` on each of the four. */
export function mergeScenario(): ClusterBuilder {
  const b = cluster()
    .keyspace('commerce', { shards: ['0'] })
    .keyspace('customer', {
      shards: ['-40', '40-80', '80-c0', 'c0-', '-80', '80-'],
      tables: CUSTOMER_TABLES,
      notServing: ['-80', '80-'],
    })
    .reshard('merge', { keyspace: 'customer', from: ['-40', '40-80', '80-c0', 'c0-'], to: ['-80', '80-'] });
  return external(b, 'commerce2customer', {
    from: 'commerce',
    fromShard: '0',
    to: 'customer',
    shards: ['-40', '40-80', '80-c0', 'c0-'],
  });
}

export { gtidPos };

/**
 * MoveTables `commerce2customer` from unsharded `commerce/0` (primary zone1-0000000100, replica …101) into
 * `customer` `-80` (…110/…111) and `80-` (…120/…121), copying `tables` keyed by `customer_id`; healthy and caught up.
 */
export function moveTablesScenario(tables: readonly string[] = ['customer', 'corder']): ClusterBuilder {
  return cluster()
    .keyspace('commerce', { shards: ['0'] })
    .keyspace('customer', { shards: ['-80', '80-'] })
    .moveTables('commerce2customer', { from: 'commerce', to: 'customer', tables: [...tables], column: 'customer_id' });
}
