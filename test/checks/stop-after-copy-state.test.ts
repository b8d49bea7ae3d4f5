import check from '../../checks/stop-after-copy-state.js';
import type { VindexRecord } from '../../src/readout.js';
import { givenVitessVersions } from '../../src/vitess/versions.js';
import { checkTester } from '../helpers/check-tester.js';
import { cluster, sourceText } from '../helpers/cluster.js';
import { moveTablesScenario } from '../helpers/reshard-scenario.js';
import { joinRegExp } from '../helpers/regexp.js';

const HASH: VindexRecord = { type: 'hash', params: {}, owner: '' };
const lookupVindex = (table: string, owner: string, writeOnly = true): VindexRecord => ({
  type: 'consistent_lookup_unique',
  params: { table, from: 'sku', to: 'keyspace_id', ...(writeOnly ? { write_only: 'true' } : {}) },
  owner,
});
const FILTER = (owned: boolean) =>
  `select id as id, keyspace_id() as keyspace_id from corder${owned ? ' group by id, keyspace_id' : ''}`;

/**
 * customer (-80: primary zone1-0000000100, 80-: …110) owns the vindex; the lookup table lives in lookup/0 (primary
 * …120),
 * where the backfill has stream 1 (from customer/-80) and stream 2 (from customer/80-).
 */
const backfill = (
  owned: boolean,
  o: { stopped?: boolean; vindexes?: Record<string, VindexRecord>; lookupShards?: string[] } = {},
) =>
  cluster()
    .keyspace('customer', {
      shards: ['-80', '80-'],
      vindexes: o.vindexes ?? {
        hash: HASH,
        corder_lookup: lookupVindex('lookup.corder_lookup', owned ? 'corder' : ''),
      },
    })
    .keyspace('lookup', { shards: o.lookupShards ?? ['0'] })
    .lookup('corder_lookup', {
      from: 'customer',
      to: 'lookup',
      table: 'corder_lookup',
      ownerTable: 'corder',
      owned,
      ...(o.stopped !== undefined ? { stopped: o.stopped } : {}),
    });

const moveTables = () => moveTablesScenario(['customer']);

const mtRule = (shard: string) => ({
  match: 'customer',
  filter: `select * from customer where in_keyrange(customer_id, 'customer.hash', '${shard}')`,
});

checkTester(check, {
  valid: [
    {
      name: 'owned backfill: every stream Stopped after copy',
      reasons: ['notStoppedAfterCopy', 'stillCopying', 'invalidBinlogSource', 'notFoundOnShard', 'vindexNotFound'],
      model: backfill(true),
    },
    {
      name: 'unowned backfill: every stream Running',
      reasons: [
        'notRunning',
        'stillCopyingNotRunning',
        'stillCopyingWhileRunning',
        'stoppedAfterCopy',
        'multipleFilterRules',
        'multipleFilterRulesV22',
      ],
      model: backfill(false),
    },
    {
      name: 'owned backfill created with --continue-after-copy-with-owner: Running',
      reasons: ['stopAfterCopyFlag'],
      model: backfill(true, { stopped: false })
        .patchStream('lookup', '0', 1, {
          source: sourceText({
            keyspace: 'customer',
            shard: '-80',
            rules: [{ match: 'corder_lookup', filter: FILTER(true) }],
          }),
        })
        .patchStream('lookup', '0', 2, {
          source: sourceText({
            keyspace: 'customer',
            shard: '80-',
            rules: [{ match: 'corder_lookup', filter: FILTER(true) }],
          }),
        }),
    },
    {
      name: 'owned backfill already externalized (streams FROZEN)',
      model: backfill(true)
        .patchStream('lookup', '0', 1, { message: 'FROZEN' })
        .patchStream('lookup', '0', 2, { message: 'FROZEN' }),
    },
    {
      name: 'vschema of the vindex keyspace not read: ownership unknown',
      reasons: ['mixedOwnership', 'vindexNotFound'],
      model: backfill(true, { stopped: false }).vschemaUnreadable('customer'),
    },
    { name: 'healthy MoveTables', model: moveTables() },
    {
      name: 'healthy Reshard',
      model: cluster()
        .keyspace('customer', { shards: ['0', '-80', '80-'], notServing: ['-80', '80-'] })
        .reshard('cust2cust', { keyspace: 'customer', from: ['0'], to: ['-80', '80-'] }),
    },
    {
      name: 'a Materialize keeping an externalized lookup table up to date is no backfill',
      model: cluster()
        .keyspace('customer', {
          shards: ['-80'],
          vindexes: { hash: HASH, corder_lookup: lookupVindex('lookup.corder_lookup', 'corder', false) },
        })
        .keyspace('lookup', { shards: ['0'] })
        .materialize('mat', { from: 'customer', to: 'lookup', tables: ['corder_lookup'] })
        .patchStream('lookup', '0', 1, { state: 'Stopped', message: 'Stopped by user' }),
    },
    {
      name: 'a FROZEN MoveTables stream is not judged here',
      model: moveTables().patchStream('customer', '-80', 1, { state: 'Stopped', message: 'FROZEN' }),
    },
  ],
  invalid: [
    {
      name: 'owned backfill with a stream that is Running after its copy',
      model: backfill(true).patchStream('lookup', '0', 2, { state: 'Running', message: '' }),
      findings: [
        {
          keyspace: 'lookup',
          shard: '0',
          streamId: 2,
          workflow: 'corder_lookup',
          tablet: 'zone1-0000000120',
          message:
            'stream 2 of corder_lookup on lookup/0 backfills owned vindex customer.corder_lookup but is Running instead of Stopped after copy, so Externalize fails',
          details: {
            reason: 'notStoppedAfterCopy',
            vitessError: 'stream 2 for lookup.0 is not in Stopped after copy state: Running, ',
            owned: true,
            stopAfterCopy: true,
          },
        },
      ],
    },
    {
      name: 'owned backfill still copying: fails now, resolves when the copy finishes',
      model: backfill(true, { stopped: false }).patchStream('lookup', '0', 1, {
        state: 'Copying',
        copyTables: ['corder_lookup'],
      }),
      findings: [
        {
          streamId: 1,
          message:
            'stream 1 of corder_lookup on lookup/0 is still copying (1 table left) the backfill of owned vindex customer.corder_lookup, so Externalize fails until the copy finishes and the stream stops after copy',
          details: {
            reason: 'stillCopying',
            vitessError: 'stream 1 for lookup.0 is not in Stopped after copy state: Copying, ',
          },
        },
        {
          streamId: 2,
          details: {
            reason: 'notStoppedAfterCopy',
            vitessError: 'stream 2 for lookup.0 is not in Stopped after copy state: Running, ',
          },
        },
      ],
    },
    {
      name: 'unowned backfill with a stopped stream',
      model: backfill(false).patchStream('lookup', '0', 1, { state: 'Stopped', message: 'Stopped by user' }),
      findings: [
        {
          streamId: 1,
          message:
            'stream 1 of corder_lookup on lookup/0 backfills unowned vindex customer.corder_lookup but is Stopped with message "Stopped by user" instead of Running, so Externalize fails',
          details: {
            reason: 'notRunning',
            vitessError: 'stream 1 for lookup.0 is not in Running state: Stopped',
            owned: false,
          },
        },
      ],
    },
    {
      name: 'unowned backfill copying: error in state Copying, warning when Running with tables left',
      model: backfill(false)
        .patchStream('lookup', '0', 1, { state: 'Copying', copyTables: ['corder_lookup'] })
        .patchStream('lookup', '0', 2, { copyTables: ['corder_lookup'] }),
      findings: [
        {
          streamId: 1,
          severity: 'error',
          message: joinRegExp(
            /and is still copying \(1 table left\) in state Copying, so /,
            /Externalize fails until the copy finishes and the stream runs$/,
          ),
          details: {
            reason: 'stillCopyingNotRunning',
            vitessError: 'stream 1 for lookup.0 is not in Running state: Copying',
          },
        },
        {
          streamId: 2,
          severity: 'warning',
          message: joinRegExp(
            /and is Running but still copying \(1 table left\): Externalize /,
            /would pass now and expose an incomplete lookup table$/,
          ),
          details: { reason: 'stillCopyingWhileRunning', vitessError: undefined },
        },
      ],
    },
    {
      name: 'owned and unowned vindexes in one workflow',
      model: backfill(true, {
        vindexes: {
          hash: HASH,
          corder_lookup: lookupVindex('lookup.corder_lookup', 'corder'),
          sku_lookup: lookupVindex('lookup.sku_lookup', ''),
        },
      }).stream('lookup', '0', 3, {
        workflow: 'corder_lookup',
        type: 'CreateLookupIndex',
        sourceKeyspace: 'customer',
        sourceShard: '-80',
        rules: [{ match: 'sku_lookup', filter: 'select sku as sku, keyspace_id() as keyspace_id from corder' }],
      }),
      findings: [
        {
          keyspace: 'lookup',
          workflow: 'corder_lookup',
          shard: undefined,
          message:
            'workflow corder_lookup in lookup backfills owned vindex customer.corder_lookup and unowned vindex customer.sku_lookup, which Externalize refuses',
          details: {
            reason: 'mixedOwnership',
            vitessError: "workflow can't backfill mix of unowned and owned vindexes, vindex sku_lookup is unowned",
          },
        },
      ],
    },
    {
      name: 'a stream without filter, another with two rules',
      model: backfill(false)
        .patchStream('lookup', '0', 1, { source: sourceText({ keyspace: 'customer', shard: '-80' }) })
        .patchStream('lookup', '0', 2, {
          source: sourceText({
            keyspace: 'customer',
            shard: '80-',
            rules: [
              { match: 'corder_lookup', filter: FILTER(false) },
              { match: 'other', filter: '' },
            ],
          }),
        }),
      findings: [
        {
          streamId: 1,
          severity: 'error',
          message:
            'stream 1 of corder_lookup on lookup/0 has no filter in its source, so Externalize fails with "invalid binlog source"',
          details: { reason: 'invalidBinlogSource', vitessError: 'invalid binlog source' },
        },
        {
          // release-22.0 server.go LookupVindexExternalize refuses len(Rules) != 1; PR #17566 (v23+) does not.
          streamId: 2,
          severity: 'warning',
          message: /has 2 filter rules: Externalize up to v22 requires exactly one .*; v23 and newer accept it$/,
          details: { reason: 'multipleFilterRules', refusedThrough: 'v22' },
        },
      ],
    },
    {
      // release-22.0 server.go LookupVindexExternalize, `len(bls.Filter.Rules) != 1` ⇒
      // `invalid binlog source`: an error when the judged Vitess is v22 (the line the compose file pins).
      name: 'v22 Externalize: a stream with two filter rules fails with invalid binlog source',
      options: { vitess: givenVitessVersions('22.0', 'flag') },
      model: backfill(false).patchStream('lookup', '0', 2, {
        source: sourceText({
          keyspace: 'customer',
          shard: '80-',
          rules: [
            { match: 'corder_lookup', filter: FILTER(false) },
            { match: 'other', filter: '' },
          ],
        }),
      }),
      findings: [
        {
          streamId: 2,
          severity: 'error',
          details: { reason: 'multipleFilterRulesV22', vitessError: 'invalid binlog source' },
        },
      ],
    },
    {
      // main lookup_vindex.go getVindexesAndVSchema: the names come from the workflow options' lookup_vindexes.
      name: 'v23+: a vindex named in the workflow options is missing',
      model: backfill(true).patchStream('lookup', '0', 1, {
        options: '{"lookup_vindexes":["corder_lookup","sku_lookup"]}',
      }),
      findings: [
        {
          details: { reason: 'vindexNotFound', vitessError: 'vindex sku_lookup not found in the customer keyspace' },
        },
      ],
    },
    {
      // Externalize reads serving shards only (GetServingShards): a stream on a non-serving lookup shard is ignored.
      name: 'a wrong-state stream on a non-serving lookup shard is not judged',
      model: backfill(true, { lookupShards: ['0', '-80', '80-'] })
        .shardRecord('lookup', '-80', { isPrimaryServing: false })
        .shardRecord('lookup', '80-', { isPrimaryServing: false })
        .patchStream('lookup', '-80', 1, { state: 'Running', message: '' }),
      findings: [],
    },
    {
      name: 'no lookup vindex of the workflow in the vschema',
      model: backfill(true, { vindexes: { hash: HASH } }),
      findings: [
        {
          // release-22.0 getVindexAndVSchema / main lookup_vindex.go getVindexesAndVSchema:
          // `vindex %s not found in the %s keyspace` refuses Externalize (it was only a warning here).
          severity: 'error',
          keyspace: 'lookup',
          workflow: 'corder_lookup',
          message:
            'Externalize looks up vindex corder_lookup of workflow corder_lookup in the customer vschema, which has no vindex of that name, so it fails',
          details: { reason: 'vindexNotFound', vitessError: 'vindex corder_lookup not found in the customer keyspace' },
        },
      ],
    },
    {
      name: 'a serving shard of the lookup keyspace without streams of the workflow',
      model: backfill(true, { lookupShards: ['-80', '80-'] })
        .removeStream('lookup', '80-', 1)
        .removeStream('lookup', '80-', 2),
      findings: [
        {
          keyspace: 'lookup',
          shard: '80-',
          workflow: 'corder_lookup',
          tablet: 'zone1-0000000130',
          message: 'serving shard lookup/80- has no stream of workflow corder_lookup, so Externalize fails there',
          details: { reason: 'notFoundOnShard', vitessError: 'workflow corder_lookup not found on zone1-0000000130' },
        },
      ],
    },
    {
      name: 'a legacy backfill without workflow_type (Materialize) is judged by its write-only vindex',
      model: backfill(true, { stopped: false })
        .patchStream('lookup', '0', 1, { type: 'Materialize' })
        .patchStream('lookup', '0', 2, { type: 'Materialize' }),
      findings: [
        { streamId: 1, details: { reason: 'notStoppedAfterCopy' } },
        { streamId: 2, details: { reason: 'notStoppedAfterCopy' } },
      ],
    },
    {
      name: 'MoveTables created with --stop-after-copy, stopped after copy',
      model: moveTables().patchStream('customer', '-80', 1, {
        source: sourceText({ keyspace: 'commerce', shard: '0', rules: [mtRule('-80')], stopAfterCopy: true }),
        state: 'Stopped',
        message: 'Stopped after copy.',
      }),
      findings: [
        {
          keyspace: 'customer',
          shard: '-80',
          streamId: 1,
          workflow: 'commerce2customer',
          tablet: 'zone1-0000000110',
          message:
            'stream 1 of commerce2customer on customer/-80 is Stopped after copy and its source has stop_after_copy, so it stops again whenever it is started: it never replicates changes and MoveTables SwitchTraffic cannot catch up',
          details: { reason: 'stoppedAfterCopy', stopAfterCopy: true },
        },
      ],
    },
    {
      name: 'MoveTables stream stopped after copy without the flag',
      model: moveTables().patchStream('customer', '80-', 1, { state: 'Stopped', message: 'Stopped after copy.' }),
      findings: [
        {
          shard: '80-',
          message:
            'stream 1 of commerce2customer on customer/80- is Stopped after copy and replicates no changes until it is started again, so MoveTables SwitchTraffic cannot catch up',
          details: { reason: 'stoppedAfterCopy', stopAfterCopy: false },
        },
      ],
    },
    {
      name: 'Reshard still copying with stop_after_copy',
      model: cluster()
        .keyspace('customer', { shards: ['0', '-80', '80-'], notServing: ['-80', '80-'] })
        .reshard('cust2cust', { keyspace: 'customer', from: ['0'], to: ['-80', '80-'] })
        .patchStream('customer', '-80', 1, {
          source: sourceText({
            keyspace: 'customer',
            shard: '0',
            rules: [{ match: '/.*', filter: '-80' }],
            stopAfterCopy: true,
          }),
          state: 'Copying',
          copyTables: ['customer'],
        }),
      findings: [
        {
          shard: '-80',
          streamId: 1,
          message:
            'stream 1 of cust2cust on customer/-80 has stop_after_copy in its source, so it stops when its copy finishes and never replicates changes: Reshard SwitchTraffic cannot catch up',
          details: { reason: 'stopAfterCopyFlag', tablesLeft: 1 },
        },
      ],
    },
  ],
});
