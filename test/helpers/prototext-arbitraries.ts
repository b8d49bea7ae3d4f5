/**
 * Builders and fast-check arbitraries for BinlogSource tests (unit, property and fuzz).
 */
import fc from 'fast-check';
import type { BinlogSource, Filter, OnDdlAction, Rule } from '../../src/vitess/binlog-source.js';
import type { KeyRange } from '../../src/vitess/keyrange.js';

/** A Rule with proto3 defaults, overridden by `over`. */
export function rule(match: string, filter = '', over: Partial<Rule> = {}): Rule {
  return {
    match,
    filter,
    convertEnumToText: {},
    convertCharset: {},
    sourceUniqueKeyColumns: '',
    targetUniqueKeyColumns: '',
    sourceUniqueKeyTargetColumns: '',
    convertIntToEnum: {},
    forceUniqueKey: '',
    ...over,
  };
}

/** A Filter with proto3 defaults holding `rules`. */
export function filter(rules: readonly Rule[], over: Partial<Filter> = {}): Filter {
  return { rules, fieldEventMode: 'ERR_ON_MISMATCH', workflowType: '0', workflowName: '', ...over };
}

/** A BinlogSource with proto3 defaults, overridden by `over`. */
export function bls(over: Partial<BinlogSource> = {}): BinlogSource {
  return {
    keyspace: '',
    shard: '',
    tabletType: 'UNKNOWN',
    keyRange: null,
    tables: [],
    filter: null,
    onDdl: 'IGNORE',
    externalMysql: '',
    stopAfterCopy: false,
    externalCluster: '',
    sourceTimeZone: '',
    targetTimeZone: '',
    unknownFields: [],
    ...over,
  };
}

/** Strings that stress escaping: any code point, control characters, quotes, backslashes, text-format punctuation. */
export const anyText: fc.Arbitrary<string> = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 12 }),
  fc.string({ unit: 'binary-ascii', maxLength: 12 }),
  fc.string({
    unit: fc.constantFrom(
      '"',
      "'",
      '\\',
      '\n',
      '\r',
      '\t',
      '\0',
      '#',
      '{',
      '}',
      '<',
      '>',
      ':',
      ' ',
      'é',
      '😀',
      '\u007f',
      '\ufeff',
    ),
    maxLength: 8,
  }),
  fc.constantFrom('', 'select * from t1', '/.*', '-80', 'exclude', 'UTC', "in_keyrange(col1, 'ks.hash', '-80')"),
);

// Parsed values are ordinary objects; keep generated ones comparable with deepStrictEqual.
const NO_NULL_PROTO = { noNullPrototype: true } as const;

const hexBound: fc.Arbitrary<string> = fc
  .uint8Array({ maxLength: 9 })
  .map((b) => Array.from(b, (x) => x.toString(16).padStart(2, '0')).join(''));

/** Any `topodata.KeyRange` (raw bounds, not necessarily ordered). */
export const anyKeyRange: fc.Arbitrary<KeyRange> = fc.record({ start: hexBound, end: hexBound }, NO_NULL_PROTO);

const textMap = <T>(value: fc.Arbitrary<T>): fc.Arbitrary<Record<string, T>> =>
  fc.dictionary(anyText, value, { maxKeys: 3, noNullPrototype: true });

export const anyRule: fc.Arbitrary<Rule> = fc.record(
  {
    match: anyText,
    filter: anyText,
    convertEnumToText: textMap(anyText),
    convertCharset: textMap(fc.record({ fromCharset: anyText, toCharset: anyText }, NO_NULL_PROTO)),
    sourceUniqueKeyColumns: anyText,
    targetUniqueKeyColumns: anyText,
    sourceUniqueKeyTargetColumns: anyText,
    convertIntToEnum: textMap(fc.boolean()),
    forceUniqueKey: anyText,
  },
  NO_NULL_PROTO,
);

export const anyFilter: fc.Arbitrary<Filter> = fc.record(
  {
    rules: fc.array(anyRule, { maxLength: 4 }),
    fieldEventMode: fc.constantFrom('ERR_ON_MISMATCH' as const, 'BEST_EFFORT' as const),
    workflowType: fc.bigInt({ min: -(1n << 63n), max: (1n << 63n) - 1n }).map(String),
    workflowName: anyText,
  },
  NO_NULL_PROTO,
);

/** Any BinlogSource that the writer can represent (canonical enum names, `unknownFields: []`). */
export const anyBinlogSource: fc.Arbitrary<BinlogSource> = fc.record(
  {
    keyspace: anyText,
    shard: anyText,
    tabletType: fc.constantFrom(
      'UNKNOWN',
      'PRIMARY',
      'REPLICA',
      'RDONLY',
      'SPARE',
      'EXPERIMENTAL',
      'BACKUP',
      'RESTORE',
      'DRAINED',
      '9',
      '-4',
    ),
    keyRange: fc.option(anyKeyRange, { nil: null }),
    tables: fc.array(anyText, { maxLength: 4 }),
    filter: fc.option(anyFilter, { nil: null }),
    onDdl: fc.constantFrom<OnDdlAction>('IGNORE', 'STOP', 'EXEC', 'EXEC_IGNORE'),
    externalMysql: anyText,
    stopAfterCopy: fc.boolean(),
    externalCluster: anyText,
    sourceTimeZone: anyText,
    targetTimeZone: anyText,
    unknownFields: fc.constant([] as readonly string[]),
  },
  NO_NULL_PROTO,
);

/**
 * Real `source` strings from upstream Vitess tests and code (see the citation on each), used as unit
 * cases and as fuzz seeds.
 */
export const UPSTREAM_SOURCES: readonly { readonly from: string; readonly text: string }[] = [
  {
    from: 'vitessio/vitess#6352 (golang/protobuf v1 spelling)',
    text: 'keyspace:"user" shard:"-80" filter:<rules:<match:"sales" filter:"select pid, count(*) as kount, sum(price) as amount from uorder group by pid" > >',
  },
  {
    from: 'vitessio/vitess:go/vt/wrangler/resharder_test.go (stop_after_copy, reference table excluded)',
    text: 'keyspace:"ks" shard:"0" filter:<rules:<match:"t1" filter:"exclude" > rules:<match:"/.*" filter:"-80" > > stop_after_copy:true ',
  },
  {
    from: 'vitessio/vitess:go/vt/vttablet/tabletmanager/vreplication/controller_test.go TestControllerKeyRange (old)',
    text: 'keyspace:"ks" shard:"0" key_range:<end:"\\200" > ',
  },
  {
    from: 'vitessio/vitess:go/vt/vttablet/tabletmanager/vreplication/controller_test.go TestControllerKeyRange (new)',
    text: 'keyspace:"ks" shard:"0" key_range:{end:"\\x80"}',
  },
  {
    from: 'vitessio/vitess:go/vt/vttablet/tabletmanager/rpc_vreplication_test.go TestCreateVReplicationWorkflow',
    text: 'keyspace:"sourceks" shard:"0" filter:{rules:{match:"t1" filter:"select * from t1"}} on_ddl:EXEC stop_after_copy:true source_time_zone:"EDT" target_time_zone:"UTC"',
  },
  {
    from: 'vitessio/vitess:go/vt/vtctl/workflow/materializer_test.go TestExternalizeLookupVindex (commas between fields)',
    text: 'keyspace:"sourceks",shard:"0",filter:{rules:{match:"owned_lookup_vdx" filter:"select * from t1 where in_keyrange(col1, \'sourceks.hash\', \'-80\')"}} stop_after_copy:true',
  },
  {
    from: 'MoveTables commerce/0 → customer -80 (materializer.go generateBinlogSources)',
    text: 'keyspace:"commerce" shard:"0" filter:{rules:{match:"customer" filter:"select * from customer where in_keyrange(customer_id, \'customer.hash\', \'-80\')"} rules:{match:"corder" filter:"select * from corder where in_keyrange(customer_id, \'customer.hash\', \'-80\')"}}',
  },
  {
    from: 'Reshard customer/0 (resharder.go createStreams)',
    text: 'keyspace:"customer" shard:"0" filter:{rules:{match:"zip" filter:"exclude"} rules:{match:"/.*" filter:"-80"}}',
  },
  {
    from: 'CreateLookupVindex backfill with an owner (prepareCreateLookup)',
    text: 'keyspace:"customer" shard:"-80" filter:{rules:{match:"corder_lookup" filter:"select sku as sku, keyspace_id() as keyspace_id from corder group by sku, keyspace_id"}} stop_after_copy:true',
  },
  {
    from: 'vitess.io docs, Online DDL design ("keys"), single-lined',
    text: 'keyspace:"commerce" shard:"0" filter:{rules:{match:"corder" filter:"select `order_id` as `order_id`, `customer_id` as `customer_id` from `corder`" source_unique_key_columns:"order_id" target_unique_key_columns:"order_id" source_unique_key_target_columns:"order_id"}}',
  },
  {
    from: 'old vitess.io docs (lookup Materialize, old spelling)',
    text: 'keyspace:"lookup" shard:"0" filter:<rules:<match:"uproduct" filter:"select * from product" > >',
  },
];
