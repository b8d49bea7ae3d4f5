import check from '../../checks/table-list-mismatch.js';
import { givenVitessVersions } from '../../src/vitess/versions.js';
import { checkTester } from '../helpers/check-tester.js';
import { cluster, type ClusterBuilder } from '../helpers/cluster.js';
import { reshardScenario } from '../helpers/reshard-scenario.js';
import { joinRegExp } from '../helpers/regexp.js';

const hashOn = (column: string) => ({ columnVindexes: [{ name: 'hash', columns: [column] }] });
const rule = (table: string, shard: string) => ({
  match: table,
  filter: `select * from ${table} where in_keyrange(customer_id, 'customer.hash', '${shard}')`,
});

/** commerce/0 → customer -80, 80-: MoveTables commerce2customer of customer and corder. */
function unshardedToSharded(): ClusterBuilder {
  return cluster()
    .keyspace('commerce', { shards: ['0'] })
    .keyspace('customer', {
      shards: ['-80', '80-'],
      tables: { customer: hashOn('customer_id'), corder: hashOn('customer_id') },
    })
    .moveTables('commerce2customer', {
      from: 'commerce',
      to: 'customer',
      tables: ['customer', 'corder'],
      column: 'customer_id',
    });
}

/** customer 0 → -80, 80- with the reference table zip excluded, as Reshard writes it. */
function reshardWithReference(): ClusterBuilder {
  const b = cluster().keyspace('customer', {
    shards: ['0', '-80', '80-'],
    notServing: ['-80', '80-'],
    tables: { customer: hashOn('customer_id'), zip: { type: 'reference' } },
  });
  for (const shard of ['-80', '80-']) {
    b.stream('customer', shard, 1, {
      workflow: 'cust2cust',
      type: 'Reshard',
      sourceKeyspace: 'customer',
      sourceShard: '0',
      rules: [
        { match: 'zip', filter: 'exclude' },
        { match: '/.*', filter: shard },
      ],
    });
  }
  return b;
}

const move = {
  workflow: 'commerce2customer',
  type: 'MoveTables' as const,
  sourceKeyspace: 'commerce',
  sourceShard: '0',
};

checkTester(check, {
  valid: [
    { name: 'healthy MoveTables of two tables', reasons: ['tableListMismatch'], model: unshardedToSharded() },
    {
      name: 'every moved table is on the source primary (LOCK TABLES finds them), other tables too',
      reasons: ['tableMissingOnSource'],
      model: unshardedToSharded().schemaTables('commerce', '0', ['corder', 'customer', 'product']),
    },
    {
      // lower_case_table_names=1 lists names in lower case; LOCK TABLES `Customer` still finds `customer`.
      name: 'a moved table listed in another letter case is found',
      reasons: ['tableMissingOnSource'],
      model: unshardedToSharded().schemaTables('commerce', '0', ['CORDER', 'Customer']),
    },
    {
      // switchWrites: writes already switched ⇒ nothing to do, no LOCK TABLES (server.go).
      name: 'a moved table dropped on the source after writes were switched: no LOCK TABLES any more',
      reasons: ['tableMissingOnSource'],
      model: unshardedToSharded()
        .routing([
          { fromTable: 'customer', toTables: ['customer.customer'] },
          { fromTable: 'commerce.customer', toTables: ['customer.customer'] },
          { fromTable: 'corder', toTables: ['customer.corder'] },
          { fromTable: 'commerce.corder', toTables: ['customer.corder'] },
        ])
        .schemaTables('commerce', '0', ['corder']),
    },
    {
      // information_schema hides the tables of a schema the MySQL user has no privilege on: the model records a read
      // failure (src/model/schema-visibility.ts), the workflow is unverified (test/model/schema-visibility.test.ts).
      name: 'the source schema lists no table over MySQL (maybe not visible to the user): not judged',
      reasons: ['tableMissingOnSource'],
      model: unshardedToSharded().schemaTables('commerce', '0', []),
    },
    {
      name: 'the moved tables are on the source primary, read through vtctld',
      reasons: ['tableMissingOnSource'],
      model: unshardedToSharded().via('vtctld'),
    },
    {
      name: 'healthy Reshard with reference-table exclusions',
      reasons: ['tableListMismatch'],
      model: reshardWithReference(),
    },
    { name: 'healthy Reshard while other workflows write into the keyspace', model: reshardScenario() },
    {
      name: 'healthy lookup vindex backfill',
      reasons: ['tableListMismatchNotSwitched'],
      model: cluster()
        .keyspace('customer', { shards: ['-80', '80-'] })
        .keyspace('lookup', { shards: ['0'] })
        .lookup('corder_lookup', {
          from: 'customer',
          to: 'lookup',
          table: 'corder_lookup',
          ownerTable: 'corder',
          owned: true,
        }),
    },
    {
      name: 'a stream whose source does not parse is left to missing-source',
      reasons: ['tableListMismatch', 'missingFilters'],
      model: unshardedToSharded().patchStream('customer', '80-', 1, {
        source: 'keyspace:"commerce" shard:"0" filter:{rules:{match:',
      }),
    },
    {
      name: 'a MoveTables whose one stream lists its one table',
      reasons: ['missingFilters'],
      model: cluster()
        .keyspace('commerce', { shards: ['0'] })
        .keyspace('customer', { shards: ['0'] })
        .stream('customer', '0', 1, { ...move, rules: [{ match: 'customer', filter: 'select * from customer' }] }),
    },
    {
      name: 'v21: a MoveTables whose one stream lists its one table',
      reasons: ['noTables', 'nilFilterPanics'],
      options: { vitess: givenVitessVersions('21', 'flag') },
      model: cluster()
        .keyspace('commerce', { shards: ['0'] })
        .keyspace('customer', { shards: ['0'] })
        .stream('customer', '0', 1, { ...move, rules: [{ match: 'customer', filter: 'select * from customer' }] }),
    },
    {
      name: 'a Materialize whose streams list the same tables',
      reasons: ['tableListMismatchNotSwitched'],
      model: cluster()
        .keyspace('commerce', { shards: ['0'] })
        .keyspace('customer', { shards: ['-80', '80-'] })
        .materialize('mat', { from: 'commerce', to: 'customer', tables: ['t1', 't2'] }),
    },
  ],
  invalid: [
    {
      // traffic_switcher.go executeLockTablesOnSource: `LOCK TABLES <t> READ, …` on every source primary, after the
      // source writes are stopped; server.go switchWrites wraps the failure "failed to execute LOCK TABLES …".
      name: 'a moved table missing on the source primary: the write switch LOCK TABLES fails',
      model: unshardedToSharded().schemaTables('commerce', '0', ['customer', 'product']),
      findings: [
        {
          keyspace: 'customer',
          workflow: 'commerce2customer',
          tablet: 'zone1-0000000100',
          message: /^MoveTables customer\.commerce2customer moves \[corder\], which vt_commerce on source primary \S+ /,
          details: { reason: 'tableMissingOnSource', missingTables: ['corder'], sourceShard: '0' },
        },
      ],
    },
    {
      // Through vtctld the tablet's DBA user sees every table: an empty list is the truth, every moved table is gone.
      name: 'the source schema lists no table, read through vtctld: every moved table is missing',
      model: unshardedToSharded().via('vtctld').schemaTables('commerce', '0', []),
      findings: [
        {
          keyspace: 'customer',
          workflow: 'commerce2customer',
          tablet: 'zone1-0000000100',
          details: { reason: 'tableMissingOnSource', missingTables: ['corder', 'customer'], sourceShard: '0' },
        },
      ],
    },
    {
      name: 'a Reshard stream without filter rules: missing filters',
      model: cluster()
        .keyspace('customer', { shards: ['0', '-80', '80-'], notServing: ['-80', '80-'] })
        .stream('customer', '-80', 1, {
          workflow: 'cust2cust',
          type: 'Reshard',
          sourceKeyspace: 'customer',
          sourceShard: '0',
          rules: [],
        }),
      // server.go buildTrafficSwitcher (main b3666b2d): `bls.Filter == nil || bls.Filter.Rules == nil` for every
      // workflow type, before the table lists are compared.
      findings: [
        {
          shard: '-80',
          streamId: 1,
          details: { reason: 'missingFilters', vitessError: 'missing filters for customer/0' },
        },
      ],
    },
    {
      name: 'a MoveTables stream lacks a table',
      model: unshardedToSharded().stream('customer', '80-', 1, { ...move, rules: [rule('customer', '80-')] }),
      findings: [
        {
          keyspace: 'customer',
          shard: '80-',
          workflow: 'commerce2customer',
          streamId: 1,
          tablet: 'zone1-0000000120',
          message: joinRegExp(
            /^stream 1 on customer\/80- of MoveTables customer\.commerce2customer /,
            /replicates \[customer\] while the other stream replicates \[corder customer\]$/,
          ),
          details: {
            reason: 'tableListMismatch',
            tables: ['customer'],
            expectedTables: ['corder', 'customer'],
            missingTables: ['corder'],
            extraTables: [],
            vitessError: 'table lists are mismatched across streams: [corder customer] vs [customer]',
          },
        },
      ],
    },
    {
      name: 'the odd stream is the one the majority disagrees with, even when it comes first',
      model: cluster()
        .keyspace('src', { shards: ['-80', '80-'] })
        .keyspace('dst', { shards: ['-40', '40-80', '80-c0', 'c0-'] })
        .moveTables('wf', { from: 'src', to: 'dst', tables: ['a', 'b'], allSources: true })
        .stream('dst', '-40', 1, {
          workflow: 'wf',
          type: 'MoveTables',
          sourceKeyspace: 'src',
          sourceShard: '-80',
          rules: [
            { match: 'a', filter: 'select * from a' },
            { match: 'c', filter: 'select * from c' },
          ],
        }),
      findings: [
        {
          shard: '-40',
          streamId: 1,
          message: /replicates \[a c\] while the other 7 streams replicate \[a b\]$/,
          details: {
            missingTables: ['b'],
            extraTables: ['c'],
            vitessError: 'table lists are mismatched across streams: [a b] vs [a c]',
          },
        },
      ],
    },
    {
      name: 'a Reshard stream with a different reference-table exclusion',
      model: reshardWithReference().stream('customer', '80-', 1, {
        workflow: 'cust2cust',
        type: 'Reshard',
        sourceKeyspace: 'customer',
        sourceShard: '0',
        rules: [
          { match: 'zip', filter: 'exclude' },
          { match: 'country', filter: 'exclude' },
          { match: '/.*', filter: '80-' },
        ],
      }),
      findings: [
        {
          shard: '80-',
          streamId: 1,
          details: {
            reason: 'tableListMismatch',
            extraTables: ['country'],
            vitessError: 'table lists are mismatched across streams: [/.* zip] vs [/.* country zip]',
          },
        },
      ],
    },
    {
      name: 'a Materialize stream lacking a table is a warning without a Vitess error',
      model: cluster()
        .keyspace('commerce', { shards: ['0'] })
        .keyspace('customer', { shards: ['-80', '80-'] })
        .materialize('mat', { from: 'commerce', to: 'customer', tables: ['t1', 't2'] })
        .stream('customer', '80-', 1, {
          workflow: 'mat',
          type: 'Materialize',
          sourceKeyspace: 'commerce',
          sourceShard: '0',
          rules: [{ match: 't1', filter: 'select * from t1' }],
        }),
      findings: [
        {
          severity: 'warning',
          shard: '80-',
          details: { reason: 'tableListMismatchNotSwitched', missingTables: ['t2'], vitessError: undefined },
        },
      ],
    },
    {
      name: 'a MoveTables whose streams list no table',
      model: cluster()
        .keyspace('commerce', { shards: ['0'] })
        .keyspace('customer', { shards: ['0'] })
        .stream('customer', '0', 1, { ...move, rules: [] }),
      findings: [
        {
          keyspace: 'customer',
          workflow: 'commerce2customer',
          // `no tables in workflow` is unreachable once buildTrafficSwitcher refuses a stream
          // without filter rules (`missing filters for %s/%s`, main b3666b2d server.go).
          message:
            'stream 1 on customer/0 of MoveTables customer.commerce2customer has no filter rule in its source (commerce/0), so building the traffic switcher fails',
          details: { reason: 'missingFilters', vitessError: 'missing filters for commerce/0' },
        },
      ],
    },
    {
      // Before the filter test (v21 and older), getWorkflowState fails on a table migration without tables
      // (`no tables in workflow %s.%s`, server.go), naming a reverse workflow by its forward name and keyspace.
      // An empty `filter:{}`: a Filter without rules (no filter at all panics there, below).
      name: 'v21: a reverse workflow without tables is named by its forward name and keyspace',
      options: { vitess: givenVitessVersions('21', 'flag') },
      model: cluster()
        .keyspace('commerce', { shards: ['0'] })
        .keyspace('customer', { shards: ['0'] })
        .stream('commerce', '0', 1, {
          workflow: 'c2c_reverse',
          type: 'MoveTables',
          sourceKeyspace: 'customer',
          sourceShard: '0',
          source: 'keyspace:"customer" shard:"0" filter:{}',
        }),
      findings: [
        {
          keyspace: 'commerce',
          workflow: 'c2c_reverse',
          details: { reason: 'noTables', vitessError: 'no tables in workflow customer.c2c' },
        },
      ],
    },
    ...[19, 20, 21].map((v) => ({
      // server.go:2587 @v0.19.10, :2646 @v0.20.8, :2738 @v0.21.5: `bls.Filter.Rules` through a nil Filter, which
      // vtctld v19.0.10 answered with `uncaught panic: runtime error: invalid memory address or nil pointer
      // dereference` and a goroutine stack (the real-Vitess suite's state filters-removed, before it used filter:{}).
      name: `v${v}: a MoveTables whose stream sources have no filter at all: vtctld panics`,
      options: { vitess: givenVitessVersions(String(v), 'flag') },
      model: cluster()
        .keyspace('commerce', { shards: ['0'] })
        .keyspace('customer', { shards: ['-80', '80-'] })
        .stream('customer', '-80', 1, { ...move, rules: [] })
        .stream('customer', '80-', 1, { ...move, rules: [] }),
      findings: ['-80', '80-'].map((shard) => ({
        severity: 'error' as const,
        shard,
        message: `stream 1 on customer/${shard} of MoveTables customer.commerce2customer has no filter in its source (commerce/0), so building the traffic switcher panics in vtctld (nil pointer dereference)`,
        details: { reason: 'nilFilterPanics', vitessError: undefined },
      })),
    })),
    {
      name: 'v21: one MoveTables stream source without a filter: vtctld panics whatever the other streams list',
      options: { vitess: givenVitessVersions('21', 'flag') },
      model: cluster()
        .keyspace('commerce', { shards: ['0'] })
        .keyspace('customer', { shards: ['-80', '80-'] })
        .stream('customer', '-80', 1, move)
        .stream('customer', '80-', 1, { ...move, rules: [] }),
      findings: [{ shard: '80-', details: { reason: 'nilFilterPanics' } }],
    },
    {
      name: 'v22: the same streams fail the filter test (missing filters), no panic',
      model: cluster()
        .keyspace('commerce', { shards: ['0'] })
        .keyspace('customer', { shards: ['-80', '80-'] })
        .stream('customer', '-80', 1, move)
        .stream('customer', '80-', 1, { ...move, rules: [] }),
      findings: [
        { shard: '80-', details: { reason: 'missingFilters', vitessError: 'missing filters for commerce/0' } },
      ],
    },
    {
      name: 'a reverse workflow without tables: missing filters for its source',
      model: cluster()
        .keyspace('commerce', { shards: ['0'] })
        .keyspace('customer', { shards: ['0'] })
        .stream('commerce', '0', 1, {
          workflow: 'c2c_reverse',
          type: 'MoveTables',
          sourceKeyspace: 'customer',
          sourceShard: '0',
          rules: [],
        }),
      findings: [
        {
          keyspace: 'commerce',
          workflow: 'c2c_reverse',
          details: { reason: 'missingFilters', vitessError: 'missing filters for customer/0' },
        },
      ],
    },
  ],
});
