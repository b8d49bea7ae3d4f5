/**
 * The end-to-end scenario table: one scenario per check id of checks/index.ts, each reusing a
 * representative invalid case of `test/checks/<id>.test.ts` (or, for checks still without a table test, the
 * failure docs/checks.md names), plus the healthy MoveTables, Reshard and lookup-vindex backfill scenarios
 * that must produce no error or warning at all. test/e2e/checks.test.ts runs every scenario against a live
 * cluster, over `--via mysql` and `--via vtctld`.
 *
 * Tablet aliases: the builder gives the n-th shard added uid 100 + 10·n (primary) and the next uids to its
 * replicas, so in `moveTables()` commerce/0 is zone1-0000000100 (replica …101), customer/-80 …110, customer/80- …120.
 */
import assert from 'node:assert/strict';
import type { RunChecksOptions } from '../../src/index.js';
import { workflowJournalId } from '../../src/model/journal.js';
import type { RoutingRuleRecord } from '../../src/readout.js';
import { DEFAULT_ACTION_REQUEST } from '../../src/engine/options.js';
import { givenVitessVersions } from '../../src/vitess/versions.js';
import { moveTablesRules, type SwitchedType } from '../helpers/actions.js';
import { cluster, NOW_SECONDS, serverUuid, sourceText, type ClusterBuilder } from '../helpers/cluster.js';
import { CUSTOMER_TABLES, external, reshardScenario, shardedRule } from '../helpers/reshard-scenario.js';
import type { ContractReport } from './cli.js';
import { assertFindings, assertHealthy, assertVerdict } from './expect.js';
import type { LiveCluster, LiveClusterOptions } from './live-cluster.js';
import { joinRegExp } from '../helpers/regexp.js';
import { moveTablesScenario } from '../helpers/reshard-scenario.js';

/** One scenario. */
export interface Scenario {
  readonly name: string;
  /** The check id this scenario is for; absent for the healthy scenarios. */
  readonly check?: string;
  readonly build: () => ClusterBuilder;
  readonly live?: LiveClusterOptions;
  /** Extra `check` flags (the builder's selection is added as --keyspace/--workflow). */
  readonly args?: readonly string[];
  /** The same settings for the offline expectation. */
  readonly options?: RunChecksOptions;
  /** Marks a scenario that shows a known bug in src/ or checks/: it runs, and its failure is reported as todo. */
  readonly todo?: string;
  /** Scenario-specific expectations on the live report. */
  readonly expect: (r: ContractReport, ctx: { via: 'mysql' | 'vtctld'; cluster: LiveCluster }) => void;
}

const A = serverUuid('commerce', '0');
const COMMERCE_PRIMARY = 'zone1-0000000100';
const COMMERCE_REPLICA = 'zone1-0000000101';
/** A server uuid no tablet of the scenarios has: an errant transaction's. */
const ERRANT = '11111111-1111-1111-1111-111111111111';
const hashOn = (column: string) => ({ columnVindexes: [{ name: 'hash', columns: [column] }] });

/** commerce/0 → customer -80, 80-: MoveTables commerce2customer of customer and corder (no vschema tables). */
const moveTables = (): ClusterBuilder => moveTablesScenario();

/**
 * moveTables() with `types` switched (routing rules as SwitchTraffic leaves them, FROZEN streams once PRIMARY is) and
 * the serving graph of its cell, plus `extra` global rules: the states the `--action` scenarios judge.
 */
const switchedMoveTables = (types: readonly SwitchedType[], extra: RoutingRuleRecord[] = []): ClusterBuilder => {
  const b = moveTables().routing([...moveTablesRules('commerce', 'customer', ['customer', 'corder'], types), ...extra]);
  if (types.includes('primary'))
    for (const shard of ['-80', '80-']) b.patchStream('customer', shard, 1, { state: 'Stopped', message: 'FROZEN' });
  return b.servingGraph();
};

/** The same MoveTables with real vschemas: what CreateMoveTables leaves behind. */
const unshardedToSharded = (): ClusterBuilder =>
  cluster()
    .keyspace('commerce', { shards: ['0'], tables: { customer: {}, corder: {} } })
    .keyspace('customer', {
      shards: ['-80', '80-'],
      tables: { customer: hashOn('customer_id'), corder: hashOn('customer_id'), zip: { type: 'reference' } },
    })
    .moveTables('commerce2customer', {
      from: 'commerce',
      to: 'customer',
      tables: ['customer', 'corder'],
      column: 'customer_id',
    });

/** customer 0 → -80, 80- (targets not serving): Reshard cust2cust. Primaries …100 (0), …110 (-80), …120 (80-). */
const reshardFromZero = (): ClusterBuilder =>
  cluster()
    .keyspace('customer', {
      shards: ['0', '-80', '80-'],
      notServing: ['-80', '80-'],
      tables: { customer: hashOn('customer_id') },
    })
    .reshard('cust2cust', { keyspace: 'customer', from: ['0'], to: ['-80', '80-'] });

/**
 * customer -80, 80- → 0 (Reshard merge, 0 not serving) while MoveTables commerce2customer writes into -80 and 80-
 * from commerce/0: the merge's stream migrator moves both of its streams. Primaries …100 (commerce/0) and three of
 * customer.
 */
const mergeWithMoveTables = (): ClusterBuilder => {
  const b = cluster()
    .keyspace('commerce', { shards: ['0'] })
    .keyspace('customer', {
      shards: ['-80', '80-', '0'],
      notServing: ['0'],
      tables: CUSTOMER_TABLES,
    })
    .reshard('merge', { keyspace: 'customer', from: ['-80', '80-'], to: ['0'] });
  external(b, 'commerce2customer', { from: 'commerce', fromShard: '0', to: 'customer', shards: ['-80', '80-'] });
  return b.select({ workflows: ['merge'] });
};

/** A lookup vindex backfill as CreateLookupVindex leaves it: owned vindex, write_only, streams stopped after copy. */
const lookupBackfill = (o: { stopped?: boolean } = {}): ClusterBuilder =>
  cluster()
    .keyspace('customer', {
      shards: ['-80', '80-'],
      vindexes: {
        hash: { type: 'hash', params: {}, owner: '' },
        corder_lookup: {
          type: 'consistent_lookup_unique',
          params: { table: 'lookup.corder_lookup', from: 'id', to: 'keyspace_id', write_only: 'true' },
          owner: 'corder',
        },
      },
      tables: {
        corder: {
          columnVindexes: [
            { name: 'hash', columns: ['customer_id'] },
            { name: 'corder_lookup', columns: ['id'] },
          ],
        },
      },
    })
    .keyspace('lookup', { shards: ['0'], tables: { corder_lookup: {} } })
    .lookup('corder_lookup', {
      from: 'customer',
      to: 'lookup',
      table: 'corder_lookup',
      ownerTable: 'corder',
      owned: true,
      ...(o.stopped === false ? { stopped: false } : {}),
    });

/** Routing rules MoveTables commerce → customer keeps at each stage of its switch (see frozen-workflow.test.ts). */
function moveTablesRouting(stage: 'created' | 'writesSwitched'): RoutingRuleRecord[] {
  const out: RoutingRuleRecord[] = [];
  for (const t of ['customer', 'corder']) {
    const src = [`commerce.${t}`];
    const dst = [`customer.${t}`];
    if (stage === 'writesSwitched') {
      out.push({ fromTable: t, toTables: dst }, { fromTable: `commerce.${t}`, toTables: dst });
      continue;
    }
    out.push({ fromTable: t, toTables: src }, { fromTable: `customer.${t}`, toTables: src });
    for (const suffix of ['@replica', '@rdonly']) {
      out.push(
        { fromTable: `${t}${suffix}`, toTables: src },
        { fromTable: `customer.${t}${suffix}`, toTables: src },
        { fromTable: `commerce.${t}${suffix}`, toTables: src },
      );
    }
  }
  return out;
}

const both = (b: ClusterBuilder, o: Parameters<ClusterBuilder['patchStream']>[3]) =>
  b.patchStream('customer', '-80', 1, o).patchStream('customer', '80-', 1, o);

/** Healthy scenarios: nothing at warning or above, every check ran, every workflow ready, exit 0. */
export const HEALTHY: readonly Scenario[] = [
  {
    name: 'healthy MoveTables (default _vt / vt_<keyspace> names)',
    build: unshardedToSharded,
    live: { defaultNames: true },
    expect: (r) => assertHealthy(r, { allowInfo: true }),
  },
  {
    // The Reshard is what is about to be switched (--workflow cust2cust); the other workflows into the keyspace are
    // judged only as the stream migrator sees them (the external MoveTables, checked on its own, would rightly be
    // refused: the Reshard created target shards it has no streams on; see shard-set-mismatch's table test).
    name: 'healthy Reshard (--workflow cust2cust) while other workflows write into the keyspace',
    build: () => reshardScenario().select({ workflows: ['cust2cust'] }),
    expect: (r) => assertHealthy(r, { allowInfo: true }),
  },
  {
    // FullStatus reads @@global.super_read_only (vitessio/vitess go/vt/vttablet/tabletmanager/rpc_replication.go:136
    // @v0.24.4), which MariaDB lacks: every MariaDB tablet answers with this error, measured on Vitess v24.0.4 with
    // MariaDB 10.11. No action calls FullStatus: the switch is ready, and one info finding says what was not read.
    name: 'healthy MoveTables on MariaDB tablets: GetFullStatus fails on super_read_only everywhere',
    build: () => {
      const b = unshardedToSharded();
      for (const alias of b.model().tablets.keys())
        b.fullStatusOf(alias, {
          error:
            "UNKNOWN: Unknown system variable 'super_read_only' (errno 1193) (sqlstate HY000) during query: SELECT @@global.super_read_only",
        });
      return b;
    },
    expect: (r) => {
      assertHealthy(r, { allowInfo: true });
      assertFindings(r, 'unreachable', [
        {
          severity: 'info',
          message: /^GetFullStatus failed on 6 tablets \(.*\): its MySQL is MariaDB, which has no super_read_only/,
          details: { reason: 'tabletStatusNotRead', mariadb: true },
        },
      ]);
    },
  },
  {
    name: 'healthy lookup-vindex backfill, stopped after copy (default _vt / vt_<keyspace> names)',
    build: () => lookupBackfill(),
    live: { defaultNames: true },
    expect: (r) => assertHealthy(r, { allowInfo: true }),
  },
  {
    // What an operator really finds: the copy ended a while ago, the streams stopped then and were not updated since.
    name: 'healthy lookup-vindex backfill that stopped after copy ten minutes ago',
    build: () => {
      const old = {
        time_updated: NOW_SECONDS - 600,
        transaction_timestamp: NOW_SECONDS - 600,
        time_heartbeat: NOW_SECONDS - 600,
      };
      return lookupBackfill().patchStream('lookup', '0', 1, old).patchStream('lookup', '0', 2, old);
    },
    expect: (r) => assertHealthy(r, { allowInfo: true }),
  },
];

/** One scenario per check id (checks/index.ts), sorted by id. */
export const PER_CHECK: readonly Scenario[] = [
  {
    // vitessio/vitess#20002): real dt_state / redo_state rows in the source primary's sidecar (harness DDL from
    // go/vt/sidecardb/schema/twopc/*.sql), read in the one batch per primary over both transports.
    check: 'atomic-transactions',
    name: "atomic transactions coordinated and prepared on a Reshard's source primary",
    build: () =>
      reshardFromZero().primaryRead('customer', '0', 'twoPc', {
        dtState: [{ dtid: 'customer:0:42', state: 1, time_created: '1764590000000000000' }],
        redoState: [{ dtid: 'customer:-80:7', state: 1, time_created: '1764590000000000000' }],
      }),
    expect: (r) =>
      assertFindings(r, 'atomic-transactions', [
        {
          severity: 'warning',
          keyspace: 'customer',
          shard: '0',
          workflow: 'cust2cust',
          details: { reason: 'coordinatedTransactions', count: 1, dtids: ['customer:0:42'] },
        },
        {
          severity: 'warning',
          keyspace: 'customer',
          shard: '0',
          workflow: 'cust2cust',
          details: { reason: 'preparedTransactions', count: 1, dtids: ['customer:-80:7'] },
        },
      ]),
  },
  {
    check: 'binlogs-purged',
    name: 'every tablet the streams may read from purged transactions they still need',
    build: () =>
      both(
        moveTables()
          .fullStatusOf(COMMERCE_PRIMARY, { gtidPurged: `${A}:1-1500` })
          .fullStatusOf(COMMERCE_REPLICA, { gtidPurged: `${A}:1-1500` }),
        {
          tablet_types: 'REPLICA,PRIMARY',
        },
      ),
    expect: (r) =>
      assertFindings(r, 'binlogs-purged', [
        {
          severity: 'error',
          keyspace: 'customer',
          shard: '-80',
          workflow: 'commerce2customer',
          streamId: 1,
          tablet: 'zone1-0000000110',
          message: joinRegExp(
            /^stream 1 of commerce2customer on customer\/-80 needs up to 500 transactions that /,
            /source commerce\/0 has purged from the binary logs of every tablet it may read from/,
          ),
          details: {
            reason: 'purgedOnEverySource',
            sourceKeyspace: 'commerce',
            sourceShard: '0',
            tabletTypes: 'REPLICA,PRIMARY',
            candidateTablets: [COMMERCE_PRIMARY, COMMERCE_REPLICA],
            purgedOn: [
              {
                tablet: COMMERCE_PRIMARY,
                type: 'PRIMARY',
                gtidPurged: `${A}:1-1500`,
                missing: `${A}:1001-1500`,
                missingCount: 500,
              },
              {
                tablet: COMMERCE_REPLICA,
                type: 'REPLICA',
                gtidPurged: `${A}:1-1500`,
                missing: `${A}:1001-1500`,
                missingCount: 500,
              },
            ],
          },
        },
        { severity: 'error', shard: '80-', streamId: 1, details: { reason: 'purgedOnEverySource' } },
      ]),
  },
  {
    // server.go WorkflowDelete: writes switched → ErrWorkflowDeleteWritesSwitched (v22+).
    check: 'cancel-workflow',
    name: '--action cancel after writes were switched',
    build: () => switchedMoveTables(['primary', 'replica', 'rdonly']),
    args: ['--action', 'cancel'],
    options: { action: { ...DEFAULT_ACTION_REQUEST, action: 'cancel' } },
    expect: (r) => {
      assertFindings(r, 'cancel-workflow', [
        {
          severity: 'error',
          keyspace: 'customer',
          workflow: 'commerce2customer',
          details: { reason: 'writesSwitched' },
        },
      ]);
      assertVerdict(
        r,
        'commerce2customer',
        'blocked',
        'cannot delete workflow because you have already switched write traffic',
      );
      assert.equal(r.workflows[0]!.action, 'cancel');
    },
  },
  {
    // utils.go doValidateWorkflowHasCompleted: a rule kept by an older MoveTables --keep-routing-rules.
    check: 'complete-workflow',
    name: '--action complete with a routing rule of an older MoveTables still pointing at a source table',
    build: () =>
      switchedMoveTables(
        ['primary', 'replica', 'rdonly'],
        [{ fromTable: 'legacy.customer', toTables: ['commerce.customer'] }],
      ),
    args: ['--action', 'complete'],
    options: { action: { ...DEFAULT_ACTION_REQUEST, action: 'complete' } },
    expect: (r) => {
      assertFindings(r, 'complete-workflow', [
        {
          severity: 'error',
          keyspace: 'customer',
          workflow: 'commerce2customer',
          details: {
            reason: 'routingStillExists',
            vitessError: 'routing still exists from keyspace commerce table customer to legacy.customer',
          },
        },
      ]);
      assertVerdict(
        r,
        'commerce2customer',
        'blocked',
        'routing still exists from keyspace commerce table customer to legacy.customer',
      );
      assert.equal(r.workflows[0]!.action, 'complete');
    },
  },
  {
    check: 'copy-incomplete',
    name: 'one target shard still copying two tables',
    build: () =>
      moveTables().patchStream('customer', '80-', 1, { copyTables: ['customer', 'corder'], rows_copied: 1200 }),
    expect: (r) =>
      assertFindings(r, 'copy-incomplete', [
        {
          severity: 'error',
          keyspace: 'customer',
          shard: '80-',
          workflow: 'commerce2customer',
          streamId: 1,
          message: /^stream 1 of commerce2customer on customer\/80- is still copying 2 table\(s\): corder, customer$/,
          details: {
            tablesLeft: 2,
            rowsCopied: 1200,
            displayState: 'Copying',
            vitessError: 'copy is still in progress',
          },
        },
      ]),
  },
  {
    // utils.go validateNewWorkflow: a FROZEN leftover of a switched, never completed workflow holds the name on every
    // target primary; the errors of both shards are aggregated.
    check: 'create-workflow',
    name: '--action create of a name a switched, never completed workflow still holds',
    // The source keyspace is read too (--source-keyspace), and --tables customer is probed on the target primaries
    // (the table does not exist there: empty, as Vitess ignores "doesn't exist"); the target vschema lacks it.
    build: () =>
      switchedMoveTables(['primary', 'replica', 'rdonly'])
        .select({ keyspaces: ['customer', 'commerce'], workflows: ['commerce2customer'] })
        .schemaTables('commerce', '0', ['corder', 'customer'])
        .tableProbes('customer', '-80', { probed: ['customer'] })
        .tableProbes('customer', '80-', { probed: ['customer'] }),
    // The probe reads vt_customer, which another scenario's default-named cluster may hold: take the instances' lock.
    live: { defaultNames: true },
    args: [
      '--action',
      'create',
      '--target-keyspace',
      'customer',
      '--source-keyspace',
      'commerce',
      '--tables',
      'customer',
    ],
    options: {
      action: {
        ...DEFAULT_ACTION_REQUEST,
        action: 'create',
        create: {
          workflow: 'commerce2customer',
          targetKeyspace: 'customer',
          sourceKeyspace: 'commerce',
          tables: ['customer'],
        },
      },
    },
    expect: (r) => {
      assertFindings(r, 'create-workflow', [
        { severity: 'error', keyspace: 'customer', details: { reason: 'tableNotInVSchema' } },
        { severity: 'error', keyspace: 'customer', shard: '-80', details: { reason: 'workflowExists' } },
        { severity: 'error', keyspace: 'customer', shard: '80-', details: { reason: 'workflowExists' } },
      ]);
      assertVerdict(
        r,
        'commerce2customer',
        'blocked',
        'workflow commerce2customer already exists in keyspace customer on tablet zone1-0000000110\n' +
          'workflow commerce2customer already exists in keyspace customer on tablet zone1-0000000120',
      );
      assert.equal(r.workflows.length, 1);
      assert.equal(r.workflows[0]!.action, 'create');
    },
  },
  {
    check: 'externalize-options-invalid',
    name: 'a lookup backfill whose workflow options differ between its shards (Vitess v23)',
    build: () => {
      const b = cluster()
        .keyspace('customer', { shards: ['-80', '80-'] })
        .keyspace('lookup', { shards: ['-80', '80-'] })
        .lookup('corder_lookup', {
          from: 'customer',
          to: 'lookup',
          table: 'corder_lookup',
          ownerTable: 'corder',
          owned: true,
        });
      for (const [shard, options] of [
        ['-80', '{"lookup_vindexes":["corder_lookup"]}'],
        ['80-', '{"lookup_vindexes":["corder_lookup","other"]}'],
      ] as const)
        for (const id of [1, 2]) b.patchStream('lookup', shard, id, { options });
      return b;
    },
    args: ['--vitess-version', '23'],
    options: { vitess: givenVitessVersions('23', 'flag') },
    expect: (r) =>
      assertFindings(r, 'externalize-options-invalid', [
        {
          severity: 'error',
          keyspace: 'lookup',
          shard: '80-',
          workflow: 'corder_lookup',
          details: {
            reason: 'inconsistentOptions',
            vitessError:
              'failed to retrieve lookup vindex names from workflow: failed to read workflow options: inconsistent workflow options on target shard lookup/80-',
          },
        },
      ]),
  },
  {
    check: 'externalize-workflow',
    name: '--action externalize on a MoveTables',
    build: moveTables,
    args: ['--action', 'externalize'],
    options: { action: { ...DEFAULT_ACTION_REQUEST, action: 'externalize' } },
    expect: (r) => {
      assertFindings(r, 'externalize-workflow', [
        {
          severity: 'error',
          keyspace: 'customer',
          workflow: 'commerce2customer',
          details: { reason: 'notLookupBackfill' },
        },
      ]);
      assertVerdict(r, 'commerce2customer', 'blocked');
      assert.equal(r.workflows[0]!.action, 'externalize');
    },
  },
  {
    check: 'frozen-workflow',
    name: 'FROZEN streams while writes are not switched: workflow is frozen',
    build: () => both(moveTables().routing(moveTablesRouting('created')), { state: 'Stopped', message: 'FROZEN' }),
    expect: (r) =>
      assertFindings(r, 'frozen-workflow', [
        {
          severity: 'error',
          keyspace: 'customer',
          workflow: 'commerce2customer',
          message:
            'workflow commerce2customer in customer has 2 FROZEN streams although its writes are not switched (routing rule commerce.corder → (none)), so SwitchTraffic refuses with "workflow is frozen"',
          details: {
            reason: 'frozen',
            vitessError: 'workflow is frozen',
            writesSwitched: false,
            frozenStreams: [
              { shard: '-80', streamId: 1 },
              { shard: '80-', streamId: 1 },
            ],
          },
        },
      ]),
  },
  {
    // vitessio/vitess#19122, #18185): the target primary's GTID set (many server UUIDs) no longer fits
    // vreplication.pos, whose real size the live MariaDB reports in information_schema.COLUMNS (varbinary(10000), the
    // harness's upstream DDL).
    check: 'gtid-set-too-long',
    name: "a target primary's GTID set longer than pos on the source: the reverse streams cannot be inserted",
    build: () => {
      const gtid = (n: number) =>
        `${n.toString(16).padStart(8, '0')}-aaaa-bbbb-cccc-${n.toString(16).padStart(12, '0')}:1-9`;
      return moveTables().fullStatusOf('zone1-0000000110', {
        primaryPosition: `MySQL56/${Array.from({ length: 260 }, (_, i) => gtid(100000 + i)).join(',')}`,
      });
    },
    expect: (r) => {
      assertFindings(r, 'gtid-set-too-long', [
        {
          severity: 'error',
          keyspace: 'commerce',
          shard: '0',
          tablet: COMMERCE_PRIMARY,
          workflow: 'commerce2customer',
          message: joinRegExp(
            /^the position of customer\/-80 is 10667 bytes but /,
            /vreplication\.pos on commerce\/0 holds 10000: the reverse stream /,
            /SwitchTraffic inserts on commerce\/0 after stopping writes fails /,
            /with "Data too long for column 'pos' at row 1 \(errno 1406\)"$/,
          ),
          details: { reason: 'reversePosTooLong', columnBytes: 10000, positionBytes: 10667 },
        },
      ]);
      // Located on the source primary, it is still the workflow's own error: its row is not `ready` above it.
      assertVerdict(r, 'commerce2customer', 'blocked');
    },
  },
  {
    check: 'leftover-frozen-workflows',
    name: 'a MoveTables switched three days ago and never completed (FROZEN streams)',
    build: () => {
      const old = { message: 'FROZEN', time_updated: NOW_SECONDS - 3 * 86400 };
      return moveTables()
        .routing(moveTablesRouting('writesSwitched'))
        .patchStream('customer', '-80', 1, old)
        .patchStream('customer', '80-', 1, old);
    },
    expect: (r) =>
      assertFindings(r, 'leftover-frozen-workflows', [
        {
          severity: 'warning',
          keyspace: 'customer',
          workflow: 'commerce2customer',
          message:
            /^MoveTables customer\.commerce2customer switched its writes 3d 0h ago \(FROZEN\) and was never completed/,
          details: {
            reason: 'switchedNotCompleted',
            frozenStreams: ['-80:1', '80-:1'],
            clean: 'vtctldclient MoveTables --target-keyspace customer --workflow commerce2customer complete',
          },
        },
      ]),
  },
  {
    check: 'leftover-journals',
    name: 'the resharding journal of an earlier, completed workflow on the source primary',
    build: () => moveTables().journal('commerce', '0', { id: '42', db_name: 'vt_commerce', val: 'id:42' }),
    expect: (r) =>
      assertFindings(r, 'leftover-journals', [
        {
          severity: 'info',
          keyspace: 'commerce',
          shard: '0',
          tablet: COMMERCE_PRIMARY,
          details: { reason: 'journalWithoutWorkflow', journalIds: ['42'] },
        },
      ]),
  },
  {
    check: 'leftover-lookup-vindexes',
    name: 'LookupVindex cancel kept its write-only vindex in the keyspace a MoveTables fills',
    build: () =>
      cluster()
        .keyspace('commerce', { shards: ['0'] })
        .keyspace('customer', {
          shards: ['-80', '80-'],
          vindexes: {
            hash: { type: 'hash', params: {}, owner: '' },
            corder_lookup: {
              type: 'consistent_lookup_unique',
              params: { table: 'customer.corder_lookup', from: 'id', to: 'keyspace_id', write_only: 'true' },
              owner: 'corder',
            },
          },
          tables: {
            customer: hashOn('customer_id'),
            corder: {
              columnVindexes: [
                { name: 'hash', columns: ['customer_id'] },
                { name: 'corder_lookup', columns: ['id'] },
              ],
            },
          },
        })
        .moveTables('commerce2customer', {
          from: 'commerce',
          to: 'customer',
          tables: ['customer'],
          column: 'customer_id',
        }),
    expect: (r) =>
      assertFindings(r, 'leftover-lookup-vindexes', [
        {
          severity: 'warning',
          keyspace: 'customer',
          details: { reason: 'writeOnlyWithoutWorkflow', vindex: 'corder_lookup' },
        },
      ]),
  },
  {
    check: 'leftover-mirror-rules',
    name: 'a cancelled MirrorTraffic left a mirror rule for a table no workflow moves',
    build: () =>
      moveTables().mirrorRules([{ fromTable: 'commerce.corder_old', toTable: 'customer.corder_old', percent: 25 }]),
    expect: (r) =>
      assertFindings(r, 'leftover-mirror-rules', [
        {
          severity: 'warning',
          keyspace: 'commerce',

          details: {
            reason: 'mirrorRuleWithoutWorkflow',
            vitessError: 'wrong number of pre-existing mirror rules',
            fromTable: 'commerce.corder_old',
            toTable: 'customer.corder_old',
            percent: 25,
          },
        },
      ]),
  },
  {
    check: 'leftover-online-ddl',
    name: 'sweep: a finished Online DDL migration waits for garbage collection on a shard',
    options: { sweep: true },
    build: () =>
      moveTables().stream('customer', '80-', 9, {
        workflow: '2d1b4a5e_8f3c_11ef_9a1b_0a1b2c3d4e5f',
        type: 'OnlineDDL',
        sourceKeyspace: 'customer',
        sourceShard: '80-',
        rules: [{ match: '_vt_vrp_2d1b4a5e8f3c11ef9a1b0a1b2c3d4e5f_20251201120000_', filter: 'select * from corder' }],
        state: 'Stopped',
        message: 'stopped for online DDL cutover',
      }),
    expect: (r) =>
      assertFindings(r, 'leftover-online-ddl', [
        {
          severity: 'warning',
          keyspace: 'customer',
          shard: '80-',
          tablet: 'zone1-0000000120',
          details: {
            reason: 'stoppedOnlineDdlRows',
            vitessError: 'cannot migrate until all streams are running: 80-: 120',
            migrations: ['2d1b4a5e_8f3c_11ef_9a1b_0a1b2c3d4e5f'],
          },
        },
      ]),
  },
  {
    check: 'leftover-query-service',
    name: "a cancelled Reshard left the source's replica query service disabled in the SrvKeyspace",
    build: () => moveTables().servingGraph().disableQueryService('commerce', '0', ['REPLICA']),
    expect: (r) =>
      assertFindings(r, 'leftover-query-service', [
        {
          severity: 'warning',
          keyspace: 'commerce',
          shard: '0',
          details: { reason: 'queryServiceDisabled', tabletTypes: ['REPLICA'], cells: ['zone1'] },
        },
      ]),
  },
  {
    check: 'leftover-reverse-workflows',
    name: 'switched with --enable-reverse-replication=false: the reverse workflow is Stopped',
    build: () =>
      moveTables().stream('commerce', '0', 1, {
        workflow: 'commerce2customer_reverse',
        type: 'MoveTables',
        sourceKeyspace: 'customer',
        sourceShard: '-80',
        rules: [{ match: 'customer', filter: 'select * from customer' }],
        state: 'Stopped',
      }),
    expect: (r) =>
      assertFindings(r, 'leftover-reverse-workflows', [
        {
          severity: 'warning',
          keyspace: 'commerce',
          workflow: 'commerce2customer_reverse',
          details: { reason: 'reverseStopped', forwardWorkflow: 'customer.commerce2customer' },
        },
      ]),
  },
  {
    check: 'leftover-routing-rules',
    name: 'complete --keep-routing-rules of an earlier move of zip left its rules',
    build: () => moveTables().routing([{ fromTable: 'commerce.zip', toTables: ['customer.zip'] }]),
    expect: (r) =>
      assertFindings(r, 'leftover-routing-rules', [
        {
          severity: 'warning',
          keyspace: 'customer',

          details: {
            reason: 'ruleBreaksLaterComplete',
            vitessError: 'routing still exists from keyspace customer table zip to commerce.zip',
          },
        },
      ]),
  },
  {
    check: 'leftover-shards',
    name: 'a cancelled Reshard of commerce kept its non-serving target shards',
    build: () =>
      cluster()
        .keyspace('commerce', { shards: ['0', '-80', '80-'], notServing: ['-80', '80-'] })
        .keyspace('customer', { shards: ['-80', '80-'] })
        .moveTables('commerce2customer', {
          from: 'commerce',
          to: 'customer',
          tables: ['customer', 'corder'],
          column: 'customer_id',
        })
        // Only commerce/0 feeds the MoveTables: the kept -80 and 80- shards have no stream, but the tables the
        // cancelled Reshard copied (shards holding no table would be taken for a Reshard not started yet).
        .removeStream('customer', '-80', 2)
        .removeStream('customer', '80-', 2)
        .schemaTables('commerce', '-80', ['corder', 'customer'])
        .schemaTables('commerce', '80-', ['corder', 'customer']),
    expect: (r) =>
      assertFindings(r, 'leftover-shards', [
        {
          severity: 'warning',
          keyspace: 'commerce',
          details: {
            reason: 'nonServingShards',
            shards: ['-80', '80-'],
            vitessError: 'mismatched shards for keyspace commerce: topo shards not in switch command: [-80 80-]',
          },
        },
      ]),
  },
  {
    check: 'leftover-tables',
    name: 'sweep: MoveTables cancel --keep-data kept the copied tables in customer, beside the originals in commerce',
    options: { sweep: true },
    build: () =>
      cluster()
        .keyspace('commerce', { shards: ['0'] })
        .keyspace('customer', { shards: ['-80', '80-'] })
        .schemaTables('commerce', '0', ['_product_old', 'corder', 'customer'])
        .schemaTables('customer', '-80', ['corder', 'customer'])
        .schemaTables('customer', '80-', ['corder', 'customer']),
    expect: (r) =>
      assertFindings(r, 'leftover-tables', [
        {
          severity: 'info',
          keyspace: 'commerce',
          details: { reason: 'tableInTwoKeyspaces', tables: ['corder', 'customer'], otherKeyspace: 'customer' },
        },
        { severity: 'info', keyspace: 'commerce', details: { reason: 'renamedTablesLeft', tables: ['_product_old'] } },
        {
          severity: 'info',
          keyspace: 'customer',
          details: { reason: 'tableInTwoKeyspaces', tables: ['corder', 'customer'], otherKeyspace: 'commerce' },
        },
      ]),
  },
  {
    check: 'long-transactions',
    name: 'a real transaction left open on the source primary (MariaDB records no metadata locks)',
    // The primary's schema is its own (db_name_override), so its open transaction is no other scenario's business.
    build: () =>
      moveTables()
        .patchTablet(COMMERCE_PRIMARY, { dbNameOverride: 'vt_commerce_open_trx' })
        .tableKeys('commerce', '0', ['customer', 'corder'])
        .activity('commerce', '0', {
          transactions: [{ user: 'root', command: 'Sleep', trx_seconds: 6 }],
          metadataLocks: { instrumented: false, locks: [] },
        }),
    live: { openTransactions: [{ alias: COMMERCE_PRIMARY, table: 'customer', ageSeconds: 6 }] },
    expect: (r, { cluster }) =>
      assertFindings(r, 'long-transactions', [
        {
          severity: 'warning',
          keyspace: 'commerce',
          shard: '0',
          tablet: COMMERCE_PRIMARY,
          message: new RegExp(
            `^session \\d+ \\(user ${cluster.rootUser}, idle\\) has a transaction open for ([6-9]|\\d\\d) s on the primary of commerce/0, which does not record metadata locks \\(performance_schema\\), so whether it holds corder, customer is unknown: `,
          ),
          details: { reason: 'longTransaction', rowsModified: 1, sessions: 1, digest: null },
        },
      ]),
  },
  {
    // server.go WorkflowMirrorTraffic: a requested tablet type whose traffic is already switched.
    check: 'mirror-traffic',
    name: '--action mirror after a reads-only SwitchTraffic',
    build: () => switchedMoveTables(['replica', 'rdonly']),
    args: ['--action', 'mirror'],
    options: { action: { ...DEFAULT_ACTION_REQUEST, action: 'mirror' } },
    expect: (r) => {
      const text =
        'cannot mirror [replica,rdonly] traffic for workflow commerce2customer at this time: traffic for those tablet types is switched';
      assertFindings(r, 'mirror-traffic', [
        {
          severity: 'error',
          keyspace: 'customer',
          workflow: 'commerce2customer',
          details: { reason: 'typesSwitched', vitessError: text },
        },
      ]);
      assertVerdict(r, 'commerce2customer', 'blocked', text);
      assert.equal(r.workflows[0]!.action, 'mirror');
    },
  },
  {
    check: 'missing-source',
    name: 'a stream whose source has none of filter, tables, key_range ("missing source")',
    build: () =>
      moveTables().patchStream('customer', '80-', 1, { source: sourceText({ keyspace: 'commerce', shard: '0' }) }),
    expect: (r) =>
      assertFindings(r, 'missing-source', [
        {
          severity: 'error',
          keyspace: 'customer',
          shard: '80-',
          workflow: 'commerce2customer',
          streamId: 1,
          tablet: 'zone1-0000000120',
          message: joinRegExp(
            /^stream 1 of commerce2customer on customer\/80- has a source with no filter, tables or key /,
            /range: its controller fails with "missing source" every 5 seconds and never replicates$/,
          ),
          details: { reason: 'emptySource', vttabletError: 'missing source' },
        },
      ]),
  },
  {
    check: 'moved-tables-foreign-keys',
    // A direct connection reads MariaDB's foreign keys from InnoDB's dictionary, ON DELETE rule included: the cascade
    // is reported. Through vtctld the flavor is unknown and information_schema is read, where MariaDB shows the
    // harness's SELECT-only reader no rule (REFERENTIAL_CONSTRAINTS): the constraint alone.
    name: 'corder → customer on the source, both moved, no --atomic-copy (real foreign key)',
    // The primary's schema is its own (db_name_override): its tables are no other scenario's business.
    build: () =>
      moveTables()
        .patchTablet(COMMERCE_PRIMARY, { dbNameOverride: 'vt_commerce_fk' })
        .foreignKeys('commerce', '0', [
          {
            table_name: 'corder',
            referenced_table_name: 'customer',
            referenced_schema: 'vt_commerce_fk',
            delete_rule: 'CASCADE',
          },
        ]),
    expect: (r, { via }) =>
      assertFindings(r, 'moved-tables-foreign-keys', [
        {
          severity: 'warning',
          keyspace: 'commerce',
          shard: '0',
          tablet: COMMERCE_PRIMARY,
          message: /^foreign key fk_corder_customer \(corder → customer\) on commerce\/0 links two tables /,
          details: { reason: 'foreignKeyWithoutAtomicCopy', constraint: 'fk_corder_customer', subType: 'None' },
        },
        ...(via === 'mysql'
          ? [
              {
                severity: 'warning' as const,
                keyspace: 'commerce',
                shard: '0',
                tablet: COMMERCE_PRIMARY,
                message:
                  /^moved table corder of customer\.commerce2customer is the child of foreign key fk_corder_customer /,
                details: { reason: 'foreignKeyCascade', constraint: 'fk_corder_customer', onDelete: 'CASCADE' },
              },
            ]
          : []),
      ]),
  },
  {
    check: 'moved-tables-without-key',
    name: 'a moved table without any key on the source primary (real tables)',
    // The primary's schema is its own (db_name_override): its tables are no other scenario's business.
    build: () =>
      moveTables()
        .patchTablet(COMMERCE_PRIMARY, { dbNameOverride: 'vt_commerce_nokey' })
        .tableKeys('commerce', '0', ['customer', { table_name: 'corder', unique_nullable: ['uk_ref'] }]),
    expect: (r) =>
      assertFindings(r, 'moved-tables-without-key', [
        {
          severity: 'warning',
          keyspace: 'commerce',
          shard: '0',
          tablet: COMMERCE_PRIMARY,
          message: /^table corder of customer\.commerce2customer has no primary key and no unique key on NOT NULL /,
          details: { reason: 'noKey', table: 'corder', uniqueNullable: ['uk_ref'] },
        },
      ]),
  },
  {
    check: 'multiple-source-keyspaces',
    name: 'one stream of the workflow reads another keyspace',
    build: () =>
      cluster()
        .keyspace('commerce', { shards: ['0'] })
        .keyspace('other', { shards: ['0'] })
        .keyspace('customer', { shards: ['-80', '80-'] })
        .moveTables('c2c', { from: 'commerce', to: 'customer', tables: ['customer'] })
        .stream('customer', '80-', 1, {
          workflow: 'c2c',
          type: 'MoveTables',
          sourceKeyspace: 'other',
          sourceShard: '0',
          rules: [{ match: 'customer', filter: 'select * from customer' }],
        }),
    expect: (r) =>
      assertFindings(r, 'multiple-source-keyspaces', [
        {
          keyspace: 'customer',
          workflow: 'c2c',
          message: joinRegExp(
            /^MoveTables customer\.c2c reads from 2 source keyspaces: /,
            /commerce \(stream 1 on -80\), other \(stream 1 on 80-\)$/,
          ),
          details: {
            reason: 'multipleSourceKeyspaces',
            sourceKeyspaces: ['commerce', 'other'],
            vitessError: 'source keyspaces are mismatched across streams: commerce vs other',
          },
        },
      ]),
  },
  {
    check: 'multiple-target-keyspaces',
    name: 'the same workflow name in two target keyspaces',
    build: () =>
      cluster()
        .keyspace('commerce', { shards: ['0'] })
        .keyspace('customer', { shards: ['0'] })
        .keyspace('archive', { shards: ['0'] })
        .moveTables('move', { from: 'commerce', to: 'customer', tables: ['customer'] })
        .moveTables('move', { from: 'customer', to: 'archive', tables: ['old_orders'] }),
    expect: (r) =>
      assertFindings(r, 'multiple-target-keyspaces', [
        {
          keyspace: 'archive',
          workflow: 'move',
          message: joinRegExp(
            /^workflow name move of MoveTables archive\.move is also /,
            /used in keyspace customer \(MoveTables from commerce\)$/,
          ),
          details: { reason: 'sameNameInOtherKeyspaces', otherKeyspaces: ['customer'] },
        },
        {
          keyspace: 'customer',
          workflow: 'move',
          details: { reason: 'sameNameInOtherKeyspaces', otherKeyspaces: ['archive'] },
        },
      ]),
  },
  {
    check: 'no-streams',
    name: 'a typo in the workflow named with --keyspace/--workflow',
    build: () => moveTables().select({ keyspaces: ['customer'], workflows: ['comerce2customer'] }),
    expect: (r) => {
      assertFindings(r, 'no-streams', [
        {
          severity: 'error',
          keyspace: 'customer',
          workflow: 'comerce2customer',
          message: /^workflow comerce2customer has no stream on any of the 2 shard primaries of keyspace customer$/,
          details: {
            reason: 'noStreams',
            primariesRead: 2,
            vitessError: 'no streams found in keyspace customer for comerce2customer',
          },
        },
      ]);
      if (r.target.keyspaces.join() !== 'customer' || r.target.workflows.join() !== 'comerce2customer')
        throw new Error(`selection not passed: ${JSON.stringify(r.target)}`);
      // The named workflow without streams gets its own row, blocked with Vitess's text.
      assertVerdict(r, 'comerce2customer', 'blocked', 'no streams found in keyspace customer for comerce2customer');
    },
  },
  {
    // vitessio/vitess#13998, #17620, #17326): a cancelled workflow left commerce/0 denying corder_old, which routing
    // still sends there; the workflow's own table denied on the targets before the switch (v20+ create) is expected.
    check: 'orphan-denied-tables',
    name: "the source primary denies a table no workflow moves (a cancelled workflow's leftover)",
    build: () =>
      moveTables()
        .shardRecord('commerce', '0', {
          tabletControls: [{ tabletType: 'PRIMARY', cells: [], deniedTables: ['corder_old'], frozen: false }],
        })
        .shardRecord('customer', '-80', {
          tabletControls: [{ tabletType: 'PRIMARY', cells: [], deniedTables: ['customer', 'corder'], frozen: false }],
        }),
    expect: (r) => {
      assertFindings(r, 'orphan-denied-tables', [
        {
          severity: 'warning',
          keyspace: 'commerce',
          shard: '0',
          tablet: COMMERCE_PRIMARY,
          message:
            'shard commerce/0 denies PRIMARY queries on corder_old although no workflow moves it, a leftover of an earlier workflow; no routing rule sends commerce.corder_old elsewhere, so every such query fails with "disallowed due to rule: enforce denied tables" (the workflow action judged is not refused by it)',
          details: {
            reason: 'deniedTableServing',
            table: 'corder_old',
            workflowsRead: ['customer.commerce2customer'],
            vttabletError: 'disallowed due to rule: enforce denied tables',
          },
        },
      ]);
      // SwitchTraffic of commerce2customer does not read that denial: the queries fail, the switch proceeds.
      assertVerdict(r, 'commerce2customer', 'at-risk');
    },
  },
  {
    check: 'position-drift',
    name: 'a GTID in a gap of the source executed set is errant (GetFullStatus position with a gap)',
    build: () => moveTables().fullStatusOf(COMMERCE_PRIMARY, { primaryPosition: `MySQL56/${A}:1-500:502-1000` }),
    expect: (r) =>
      assertFindings(r, 'position-drift', [
        {
          severity: 'warning',
          shard: '-80',
          streamId: 1,
          workflow: 'commerce2customer',
          details: { reason: 'notInSourceGtids', notExecuted: `${A}:501`, notExecutedCount: 1 },
        },
        {
          severity: 'warning',
          shard: '80-',
          streamId: 1,
          details: { reason: 'notInSourceGtids', notExecuted: `${A}:501` },
        },
      ]),
  },
  {
    check: 'replication-lag',
    name: 'one stream 95 s behind at insert time',
    build: () =>
      reshardFromZero().patchStream('customer', '80-', 1, {
        time_updated: NOW_SECONDS - 95,
        transaction_timestamp: NOW_SECONDS - 95,
      }),
    expect: (r) =>
      assertFindings(r, 'replication-lag', [
        {
          severity: 'error',
          keyspace: 'customer',
          shard: '80-',
          workflow: 'cust2cust',
          streamId: 1,
          // 95 s at insert time, plus however long the test took to get to the check (seconds at most).
          message: joinRegExp(
            /^workflow cust2cust in customer has transaction lag /,
            /(9[5-9]|1[0-4]\d)s, above the allowed 30s; worst: 80- stream 1 \1s$/,
          ),
          details: {
            reason: 'transactionLag',
            maxLagSeconds: 30,
            lagSeconds: (v: unknown) => typeof v === 'number' && v >= 95 && v < 150,
          },
        },
      ]),
  },
  {
    check: 'reverse-permissions',
    // The harness's read-only user (test/harness/mariadb.ts: SELECT and PROCESS on *.*) as the filtered user.
    name: 'v22: a MoveTables whose source primary lets the filtered user (--filtered-user vtpreflight) only read',
    build: () =>
      moveTables().filteredUserGrants('commerce', '0', {
        user: 'vtpreflight',
        global: [{ select: 'Y', insert: 'N', update: 'N', delete: 'N' }],
        db: [],
        tables: [],
      }),
    args: ['--filtered-user', 'vtpreflight', '--vitess-version', '22'],
    options: { vitess: givenVitessVersions('22', 'flag') },
    expect: (r) => {
      assertFindings(r, 'reverse-permissions', [
        {
          severity: 'error',
          keyspace: 'commerce',
          shard: '0',
          workflow: 'commerce2customer',
          details: { reason: 'filteredUserLacksPrivileges', user: 'vtpreflight' },
        },
      ]);
      // Located on the source primary, it is still the workflow's own refusal: its row quotes it.
      assertVerdict(r, 'commerce2customer', 'blocked');
      assert.match(
        r.workflows.find((w) => w.workflow === 'commerce2customer')?.vitessWouldSay ?? '',
        /primary tablets are not able to fully manage the reverse vreplication workflow in the commerce keyspace/,
      );
    },
  },
  {
    check: 'reverse-tablets-missing',
    name: 'a MoveTables with tablet_types RDONLY and no RDONLY tablet on its target shards',
    build: () => {
      const b = moveTables();
      for (const shard of ['-80', '80-']) b.patchStream('customer', shard, 1, { tablet_types: 'RDONLY' });
      return b;
    },
    expect: (r) =>
      assertFindings(r, 'reverse-tablets-missing', [
        {
          severity: 'error',
          keyspace: 'customer',
          shard: '-80',
          workflow: 'commerce2customer',
          details: {
            reason: 'noTabletForReverse',
            vitessError:
              'no tablets were available to stream from in the customer keyspace: no tablet found to source data in keyspace customer, shard -80',
          },
        },
        { severity: 'error', shard: '80-', details: { reason: 'noTabletForReverse' } },
      ]),
  },
  {
    // default tablet types include PRIMARY after a reads-only switch → _reverse is loaded.
    check: 'reverse-traffic',
    name: '--action reverse (default tablet types) after a reads-only SwitchTraffic',
    build: () => switchedMoveTables(['replica', 'rdonly']),
    args: ['--action', 'reverse'],
    options: { action: { ...DEFAULT_ACTION_REQUEST, action: 'reverse' } },
    expect: (r) => {
      assertFindings(r, 'reverse-traffic', [
        {
          severity: 'error',
          keyspace: 'customer',
          workflow: 'commerce2customer',
          details: {
            reason: 'noReverseWorkflow',
            vitessError: 'no streams found in keyspace commerce for commerce2customer_reverse',
          },
        },
      ]);
      assertVerdict(
        r,
        'commerce2customer',
        'blocked',
        'no streams found in keyspace commerce for commerce2customer_reverse',
      );
      assert.equal(r.workflows[0]!.action, 'reverse');
    },
  },
  {
    // vitessio/vitess#19011, #20368): created with --source-keyspace = --target-keyspace (before v24), then cancelled.
    check: 'same-keyspace-movetables',
    name: 'cancel without --keep-data of a MoveTables reading from its own keyspace',
    build: () =>
      cluster()
        .keyspace('commerce', { shards: ['0'] })
        .moveTables('oops', { from: 'commerce', to: 'commerce', tables: ['customer'] }),
    args: ['--action', 'cancel'],
    options: { action: { ...DEFAULT_ACTION_REQUEST, action: 'cancel' } },
    expect: (r) =>
      assertFindings(r, 'same-keyspace-movetables', [
        {
          severity: 'warning',
          keyspace: 'commerce',
          workflow: 'oops',
          message:
            'MoveTables commerce.oops reads from its own keyspace commerce: a cancel without --keep-data drops the tables it copies from; cancel it with --keep-data',
          details: { reason: 'cancelDropsSourceTables' },
        },
      ]),
  },
  {
    // vitessio/vitess#3951): semi_sync target shards with no REPLICA (GetKeyspaces durability policy, GetTablets).
    check: 'semi-sync-ackers',
    name: 'semi_sync target shards built without replicas',
    build: () =>
      cluster()
        .keyspace('commerce', { shards: ['0'] })
        .keyspace('customer', { shards: ['-80', '80-'], durabilityPolicy: 'semi_sync', replicas: 0 })
        .moveTables('commerce2customer', { from: 'commerce', to: 'customer', tables: ['customer'] }),
    expect: (r) =>
      assertFindings(r, 'semi-sync-ackers', [
        {
          severity: 'warning',
          keyspace: 'customer',
          shard: '-80',
          workflow: 'commerce2customer',
          details: { reason: 'noSemiSyncAcker', durabilityPolicy: 'semi_sync' },
        },
        {
          severity: 'warning',
          keyspace: 'customer',
          shard: '80-',
          workflow: 'commerce2customer',
          details: { reason: 'noSemiSyncAcker', durabilityPolicy: 'semi_sync' },
        },
      ]),
  },
  {
    check: 'serving-graph-missing',
    name: "a second cell whose SrvVSchema was never built (GetSrvVSchema UNKNOWN: node doesn't exist)",
    build: () => moveTables().servingGraph({ extraCells: ['zone2'], missing: { srvVSchema: ['zone2'] } }),
    expect: (r) =>
      assertFindings(r, 'serving-graph-missing', [
        {
          severity: 'error',
          keyspace: 'customer',
          workflow: 'commerce2customer',
          message:
            'cell zone2 has no SrvVSchema, which SwitchTraffic reads for customer.commerce2customer in every cell',
          details: { reason: 'srvVSchemaMissing', cell: 'zone2', vitessError: "node doesn't exist: zone2/SrvVSchema" },
        },
      ]),
  },
  {
    check: 'shard-set-mismatch',
    name: 'target shards (not serving) without streams of a MoveTables',
    build: () =>
      cluster()
        .keyspace('commerce', { shards: ['0'] })
        .keyspace('customer', {
          shards: ['-80', '80-', '-40', '40-80'],
          notServing: ['-40', '40-80'],
          tables: { customer: hashOn('customer_id') },
        })
        .moveTables('commerce2customer', {
          from: 'commerce',
          to: 'customer',
          tables: ['customer'],
          column: 'customer_id',
        })
        .removeStream('customer', '-40', 1)
        .removeStream('customer', '40-80', 1),
    expect: (r) =>
      assertFindings(r, 'shard-set-mismatch', [
        {
          keyspace: 'customer',
          workflow: 'commerce2customer',
          message:
            /^target keyspace customer has shards -40, 40-80 with no stream of MoveTables customer\.commerce2customer/,
          details: {
            reason: 'targetShardsWithoutStreams',
            extraShards: ['-40', '40-80'],
            vitessError: 'mismatched shards for keyspace customer: topo shards not in switch command: [-40 40-80]',
          },
        },
      ]),
  },
  {
    // vitessio/vitess#12100): the source keyspace's tablets still run an old Vitess; the targets' sidecar is current.
    check: 'sidecar-schema-skew',
    name: 'the source primary has an old sidecar schema: the reverse streams cannot be inserted there',
    build: moveTables,
    live: { schema: { commerce: 'old' } },
    expect: (r) =>
      assertFindings(r, 'sidecar-schema-skew', [
        {
          severity: 'error',
          keyspace: 'commerce',
          shard: '0',
          tablet: COMMERCE_PRIMARY,
          message: joinRegExp(
            /^source primary zone1-0000000100 of commerce\/0 has no workflow_type, workflow_sub_type, /,
            /options in .*"Unknown column 'workflow_type' in 'field list' \(errno 1054\)"$/,
          ),
          details: {
            reason: 'reverseInsertColumnMissing',
            reverseColumns: ['workflow_type', 'workflow_sub_type', 'options'],
          },
        },
      ]),
  },
  {
    check: 'source-not-serving',
    name: 'binlog_row_image=MINIMAL on the replica the tablet picker prefers (from GetFullStatus)',
    build: () => moveTables().fullStatusOf(COMMERCE_REPLICA, { binlogRowImage: 'MINIMAL' }),
    expect: (r) =>
      assertFindings(r, 'source-not-serving', [
        {
          severity: 'error',
          tablet: COMMERCE_REPLICA,
          message: `source tablet ${COMMERCE_REPLICA} (REPLICA) of commerce/0 has binlog_row_image=MINIMAL, which VReplication rejects, so 2 streams of workflow commerce2customer in customer cannot stream from commerce/0`,
          details: {
            reason: 'minimalRowImage',
            streamError: 'minimal binlog_row_image is not supported by Vitess VReplication',
            preferred: [COMMERCE_REPLICA],
          },
        },
      ]),
  },
  {
    check: 'source-streams-not-running',
    name: 'an external workflow stopped on one source shard of a Reshard',
    build: () => reshardScenario().patchStream('customer', '80-', 1, { state: 'Stopped', message: 'Stopped by user' }),
    expect: (r) =>
      assertFindings(r, 'source-streams-not-running', [
        {
          keyspace: 'customer',
          shard: '80-',
          workflow: 'cust2cust',
          streamId: 1,
          tablet: 'zone1-0000000120',
          message: joinRegExp(
            /^stream 1 \(commerce2customer\) on source shard customer\/80- of Reshard cust2cust /,
            /is Stopped with message "Stopped by user", and the stream migrator refuses/,
          ),
          details: {
            reason: 'stoppedStream',
            vitessError: 'cannot migrate until all streams are running: 80-: 120',
            streamWorkflow: 'commerce2customer',
            message: 'Stopped by user',
          },
        },
      ]),
  },
  {
    check: 'source-tables-global-routing',
    name: 'product stays in commerce, whose vschema does not list it, on v21 (real tables in vt_commerce)',
    build: () => moveTables().schemaTables('commerce', '0', ['corder', 'customer', 'product']),
    args: ['--vitess-version', '21'],
    options: { vitess: givenVitessVersions('21', 'flag') },
    live: { defaultNames: true },
    expect: (r) =>
      assertFindings(r, 'source-tables-global-routing', [
        {
          severity: 'warning',
          keyspace: 'commerce',
          shard: '0',
          tablet: COMMERCE_PRIMARY,
          message: /^table product stays in commerce, whose vschema does not list it, /,
          details: { reason: 'unlistedSourceTables', tables: ['product'] },
        },
      ]),
  },
  {
    // traffic_switcher.go switchShardReads → srv_keyspace.go OrderAndCheckPartitions (:665 @0950084e).
    check: 'srv-keyspace-partitions',
    name: 'a REPLICA partition that lost its first shard (SrvKeyspace through the real gRPC vtctld)',
    build: () =>
      reshardFromZero()
        .servingGraph()
        .srvKeyspace('customer', {
          partitions: [
            { servedType: 'PRIMARY', shards: [{ name: '0', keyRange: null }], shardTabletControls: [] },
            {
              servedType: 'REPLICA',
              shards: [{ name: '80-', keyRange: { start: '80', end: '' } }],
              shardTabletControls: [],
            },
          ],
        }),
    expect: (r) =>
      assertFindings(r, 'srv-keyspace-partitions', [
        {
          severity: 'error',
          keyspace: 'customer',
          workflow: 'cust2cust',
          details: {
            reason: 'startNotMinKey',
            cell: 'zone1',
            // Both wrappers (server.go:3113, traffic_switcher.go:628 @v0.24.4); no --cells prints `in cell : `.
            vitessError:
              'failed to switch read traffic for the shards: Before switching shard reads, found SrvKeyspace for customer is corrupt in cell : keyspace partition for REPLICA in cell zone1 does not start with min key',
          },
        },
      ]),
  },
  {
    check: 'stop-after-copy-state',
    name: 'an owned lookup-vindex backfill with a stream Running after its copy',
    build: () => lookupBackfill().patchStream('lookup', '0', 2, { state: 'Running', message: '' }),
    expect: (r) =>
      assertFindings(r, 'stop-after-copy-state', [
        {
          severity: 'error',
          keyspace: 'lookup',
          shard: '0',
          workflow: 'corder_lookup',
          streamId: 2,
          message:
            'stream 2 of corder_lookup on lookup/0 backfills owned vindex customer.corder_lookup but is Running instead of Stopped after copy, so Externalize fails',
          details: {
            reason: 'notStoppedAfterCopy',
            vitessError: 'stream 2 for lookup.0 is not in Stopped after copy state: Running, ',
            owned: true,
            stopAfterCopy: true,
          },
        },
      ]),
  },
  {
    // vitessio/vitess#16733): another workflow (or a hand edit) points the unqualified name at a third keyspace.
    check: 'stray-routing-rules',
    name: "a routing rule sends the workflow's table into a third keyspace",
    build: () =>
      moveTables()
        .keyspace('archive', { shards: ['0'] })
        .routing([
          { fromTable: 'customer', toTables: ['archive.customer'] },
          { fromTable: 'customer.customer', toTables: ['commerce.customer'] },
          { fromTable: 'corder', toTables: ['commerce.corder'] },
          { fromTable: 'customer.corder', toTables: ['commerce.corder'] },
        ]),
    expect: (r) =>
      assertFindings(r, 'stray-routing-rules', [
        {
          severity: 'error',
          keyspace: 'customer',
          workflow: 'commerce2customer',
          message:
            "routing rule customer → archive.customer sends table customer of workflow commerce2customer (commerce → customer) to keyspace archive: another workflow or a hand edit owns the name, and SwitchTraffic reads the workflow's switch state from these rules",
          details: { reason: 'ruleContradictsWorkflow', rule: 'customer', toTables: ['archive.customer'] },
        },
      ]),
  },
  {
    check: 'stream-coverage',
    name: 'a serving MoveTables target shard has no stream at all',
    build: () => unshardedToSharded().removeStream('customer', '80-', 1),
    expect: (r) =>
      assertFindings(r, 'stream-coverage', [
        {
          keyspace: 'customer',
          shard: '80-',
          workflow: 'commerce2customer',
          message: joinRegExp(
            /^serving target shard customer\/80- has no stream of MoveTables /,
            /customer\.commerce2customer, so rows of key range 80- are never copied$/,
          ),
          details: { reason: 'targetShardWithoutStreams', keyRange: '80-', expectedSources: ['0'] },
        },
      ]),
  },
  {
    check: 'stream-error',
    name: 'stored state Error with an empty message',
    build: () => reshardFromZero().patchStream('customer', '-80', 1, { state: 'Error', message: '' }),
    expect: (r) =>
      assertFindings(r, 'stream-error', [
        {
          severity: 'error',
          keyspace: 'customer',
          shard: '-80',
          workflow: 'cust2cust',
          streamId: 1,
          tablet: 'zone1-0000000110',
          message: /is in state Error$/,
          details: { reason: 'stateError' },
        },
      ]),
  },
  {
    check: 'stream-set-mismatch',
    name: 'a Reshard whose source shard 80- lacks a stream that -80 has',
    build: () =>
      external(reshardScenario(), 'mat2', {
        from: 'commerce',
        fromShard: '0',
        to: 'customer',
        shards: ['-80'],
        type: 'Materialize',
      }),
    expect: (r) => assertFindings(r, 'stream-set-mismatch', [STREAM_SET_MISMATCH]),
  },
  {
    check: 'stream-template-invalid',
    name: "a stream on a Reshard's source shard whose rule has no select expression",
    build: () =>
      reshardScenario().patchStream('customer', '-80', 1, {
        source: sourceText({
          keyspace: 'commerce',
          shard: '0',
          rules: [shardedRule('customer', '-80'), { match: 'corder', filter: '' }],
        }),
      }),
    expect: (r) =>
      assertFindings(r, 'stream-template-invalid', [
        {
          severity: 'error',
          keyspace: 'customer',
          shard: '-80',
          workflow: 'cust2cust',
          streamId: 1,
          details: {
            reason: 'noSelectExpression',
            vitessError: 'rule match:"corder" does not have a select expression in vreplication',
          },
        },
      ]),
  },
  {
    check: 'switch-traffic-unsupported',
    name: 'a Migrate workflow',
    build: () =>
      cluster()
        .keyspace('commerce', { shards: ['0'] })
        .keyspace('customer', { shards: ['0'] })
        .stream('customer', '0', 1, {
          workflow: 'import1',
          type: 'Migrate',
          sourceKeyspace: 'commerce',
          sourceShard: '0',
          rules: [{ match: 'customer', filter: 'select * from customer' }],
        }),
    expect: (r) =>
      assertFindings(r, 'switch-traffic-unsupported', [
        {
          severity: 'error',
          keyspace: 'customer',
          workflow: 'import1',
          details: { reason: 'migrateWorkflow', vitessError: 'invalid action for Migrate workflow: SwitchTraffic' },
        },
      ]),
  },
  {
    check: 'table-list-mismatch',
    name: 'a MoveTables stream lacks a table',
    build: () =>
      unshardedToSharded().stream('customer', '80-', 1, {
        workflow: 'commerce2customer',
        type: 'MoveTables',
        sourceKeyspace: 'commerce',
        sourceShard: '0',
        rules: [shardedRule('customer', '80-')],
      }),
    expect: (r) =>
      assertFindings(r, 'table-list-mismatch', [
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
            missingTables: ['corder'],
            vitessError: 'table lists are mismatched across streams: [corder customer] vs [customer]',
          },
        },
      ]),
  },
  {
    // vitessio/vitess#15630, #16528): a drained backup on the source replica holds its action lock; GetFullStatus still
    // answers.
    check: 'tablets-in-backup',
    name: 'a source replica taking a backup: the refresh SwitchTraffic needs would time out',
    build: () => moveTables().patchTablet(COMMERCE_REPLICA, { type: 'BACKUP' }),
    expect: (r) =>
      assertFindings(r, 'tablets-in-backup', [
        {
          severity: 'error',
          keyspace: 'commerce',
          shard: '0',
          tablet: COMMERCE_REPLICA,
          message:
            'tablet zone1-0000000101 of commerce/0 is taking a backup (type BACKUP) and holds its action lock, so the RefreshState SwitchTraffic sends to every tablet of the source shard waits until the backup ends or the refresh times out: "could not refresh all of the tablets involved in the operation"',
          details: { reason: 'backupRunning', side: 'source', workflows: ['customer.commerce2customer'] },
        },
      ]),
  },
  {
    check: 'target-primary-missing',
    name: 'a leftover shard record without primary in the target keyspace (abandoned Reshard)',
    build: () => moveTables().orphanShard('customer', '80-c0'),
    expect: (r) => {
      assertFindings(r, 'target-primary-missing', [
        {
          severity: 'error',
          keyspace: 'customer',
          shard: '80-c0',
          workflow: 'commerce2customer',
          reason: 'noPrimary',
          step: 'build-targets',
          details: { vitessError: "shard customer/80-c0 doesn't have a primary set", holdsStreams: false },
        },
      ]);
      assertVerdict(r, 'commerce2customer', 'blocked', "shard customer/80-c0 doesn't have a primary set");
    },
  },
  {
    check: 'target-sequences',
    name: "a moved table's auto_increment sequence declared in no keyspace: --initialize-target-sequences is refused",
    args: ['--initialize-target-sequences'],
    options: { action: { ...DEFAULT_ACTION_REQUEST, initializeTargetSequences: true } },
    build: () =>
      cluster()
        .keyspace('commerce', { shards: ['0'], tables: { customer: {}, corder: {} } })
        .keyspace('customer', {
          shards: ['-80', '80-'],
          tables: {
            customer: { ...hashOn('customer_id'), autoIncrement: { column: 'customer_id', sequence: 'customer_seq' } },
            corder: hashOn('customer_id'),
          },
        })
        .moveTables('commerce2customer', {
          from: 'commerce',
          to: 'customer',
          tables: ['customer', 'corder'],
          column: 'customer_id',
        }),
    expect: (r) =>
      assertFindings(r, 'target-sequences', [
        {
          severity: 'error',
          keyspace: 'customer',
          workflow: 'commerce2customer',
          details: {
            reason: 'sequenceNotFound',
            vitessError:
              'failed to locate all of the backing sequence tables being used and no global-keyspace was provided to auto create them in: customer_seq',
          },
        },
      ]),
  },
  {
    // vitessio/vitess#10668, vitess-operator#697): --source-time-zone streams; the harness MariaDB has no time-zone
    // tables, so the live CONVERT_TZ probe answers NULL on every primary.
    check: 'time-zone-tables',
    name: 'a MoveTables created with --source-time-zone on servers without time-zone tables',
    build: () => {
      const src = (shard: string) =>
        `${sourceText({
          keyspace: 'commerce',
          shard: '0',
          rules: [
            { match: 'customer', filter: `select * from customer where in_keyrange(customer_id, 'hash', '${shard}')` },
            { match: 'corder', filter: `select * from corder where in_keyrange(customer_id, 'hash', '${shard}')` },
          ],
        })} source_time_zone:"US/Pacific" target_time_zone:"UTC"`;
      return moveTables()
        .patchStream('customer', '-80', 1, { source: src('-80') })
        .patchStream('customer', '80-', 1, { source: src('80-') });
    },
    expect: (r) =>
      assertFindings(r, 'time-zone-tables', [
        {
          severity: 'warning',
          keyspace: 'customer',
          workflow: 'commerce2customer',
          details: { reason: 'sourceWithoutTimeZoneTables', shards: ['commerce/0'] },
        },
        {
          severity: 'warning',
          keyspace: 'customer',
          workflow: 'commerce2customer',
          details: { reason: 'targetWithoutTimeZoneTables', shards: ['-80', '80-'] },
        },
      ]),
  },
  {
    check: 'unreachable',
    name: "one target primary's MySQL is down",
    build: () => reshardFromZero().unreadable('customer', '80-'),
    expect: (r, { via }) => {
      assertFindings(r, 'unreachable', [
        {
          severity: 'warning',
          keyspace: 'customer',
          shard: '80-',
          tablet: 'zone1-0000000120',
          message:
            via === 'mysql'
              ? joinRegExp(
                  /^could not read the streams of customer\/80- on zone1-0000000120 \(127\.0\.0\.1:\d+\): /,
                  /connect failed: cannot connect to 127\.0\.0\.1:\d+: ECONNREFUSED$/,
                )
              : joinRegExp(
                  /^could not read the streams of customer\/80- on zone1-0000000120 /,
                  /\(vtctld ExecuteFetchAsDBA\): .*connection refused/,
                ),
          details: { reason: 'primaryUnreadable' },
        },
      ]);
      // An unread target primary never leaves its workflow ready: unverified (the tool could not read it; Vitess
      // reaches it through its tablet manager), naming the part, exit 1.
      assertVerdict(r, 'cust2cust', 'unverified');
      assert.ok(
        r.workflows
          .find((w) => w.workflow === 'cust2cust')!
          .unverifiedBy.some((u) => u.check === 'unreachable' && /customer\/80-/.test(u.part ?? '')),
      );
      if (r.summary.exitCode !== 1) throw new Error(`exit code ${r.summary.exitCode}`);
    },
  },
  {
    check: 'vdiff-evidence',
    name: 'the newest VDiff found mismatched rows in corder on 80- (real _vt.vdiff and vdiff_table rows)',
    build: () =>
      moveTables()
        .vdiffs('customer', '-80', [{ id: 1, workflow: 'commerce2customer', vdiff_uuid: 'a1b2' }])
        .vdiffs('customer', '80-', [
          { id: 1, workflow: 'commerce2customer', vdiff_uuid: 'a1b2', mismatched_tables: ['corder'] },
        ]),
    expect: (r) =>
      assertFindings(r, 'vdiff-evidence', [
        {
          severity: 'warning',
          keyspace: 'customer',
          workflow: 'commerce2customer',
          message:
            "the newest VDiff a1b2 of customer.commerce2customer found rows that differ in corder on 80-: switching serves the target's divergent data",
          details: { reason: 'vdiffMismatch', tables: ['corder'], shards: ['80-'] },
        },
      ]),
  },
  {
    check: 'vitess-version-mismatch',
    name: '--vitess-version 19 on a cluster that shows v21+ (the v20 options column, GetMirrorRules answers)',
    build: () => moveTables(),
    args: ['--vitess-version', '19'],
    options: { vitess: givenVitessVersions('19', 'flag') },
    expect: (r) =>
      assertFindings(r, 'vitess-version-mismatch', [
        {
          severity: 'warning',
          message: joinRegExp(
            /^the cluster does not run one Vitess release: v19 was given, but the cluster shows v21–v24 /,
            /\(_vt\.vreplication has the options column \(multi-tenant MoveTables, v20\) on all /,
            /3 primaries read; vtctld answers GetKeyspaceRoutingRules \(keyspace routing rules, /,
            /v20\); vtctld answers GetMirrorRules \(mirror rules, v21\)\); judged against Vitess v19$/,
          ),
          details: { reason: 'mixedVersions', source: 'flag', judgedAgainst: 'v19' },
        },
      ]),
  },
];

/**
 * More failure modes where the live path carries something the check tables only model: a 64-bit journal id
 * read back from a source primary, and GetFullStatus failures coming back as gRPC statuses.
 */
export const EXTRA: readonly Scenario[] = [
  {
    check: 'leftover-routing-rules',
    name: 'sweep: a partial MoveTables of commerce -80, switched then cancelled, kept its flipped shard routing rule',
    options: { sweep: true },
    build: () =>
      cluster()
        .keyspace('commerce', { shards: ['-80', '80-'] })
        .keyspace('customer', { shards: ['-80', '80-'] })
        .shardRouting([{ fromKeyspace: 'commerce', toKeyspace: 'customer', shard: '-80' }]),
    expect: (r) =>
      assertFindings(r, 'leftover-routing-rules', [
        {
          severity: 'warning',
          keyspace: 'commerce',
          shard: '-80',
          details: { reason: 'shardRuleLeftover', fromKeyspace: 'commerce', toKeyspace: 'customer' },
        },
      ]),
  },
  {
    // Sweep only: shards whose primaries hold no table while the serving one lists some are taken for a Reshard to
    // come (information), with the MoveTables switch refusal they still cause.
    check: 'leftover-shards',
    name: 'sweep: commerce -80 and 80- created for a Reshard not started yet (empty schemas on their primaries)',
    options: { sweep: true },
    // The empty primaries read vt_commerce, which another scenario's default-named cluster may hold: take the lock.
    live: { defaultNames: true },
    build: () =>
      cluster()
        .keyspace('commerce', { shards: ['0', '-80', '80-'], notServing: ['-80', '80-'] })
        .schemaTables('commerce', '0', ['corder', 'customer'])
        .schemaTables('commerce', '-80', [])
        .schemaTables('commerce', '80-', []),
    expect: (r) =>
      assertFindings(r, 'leftover-shards', [
        {
          severity: 'info',
          keyspace: 'commerce',
          details: {
            reason: 'nonServingShardsEmpty',
            shards: ['-80', '80-'],
            vitessText: 'mismatched shards for keyspace commerce: topo shards not in switch command: [-80 80-]',
          },
        },
      ]),
  },
  {
    // `Workflow stop` within --max-lag, the source primary 500 transactions ahead: canSwitch passes, switchWrites'
    // waitForCatchup fails with the vreplication engine's text (engine.go:847 @v0.24.4), wrapped by handleError.
    check: 'replication-lag',
    name: 'a stream stopped by hand within --max-lag while its source moved on: the catch-up refusal',
    build: () =>
      both(moveTables(), {
        state: 'Stopped',
        message: '',
        time_updated: NOW_SECONDS - 5,
        transaction_timestamp: NOW_SECONDS - 5,
      }).fullStatusOf(COMMERCE_PRIMARY, { primaryPosition: `MySQL56/${A}:1-1500` }),
    expect: (r) => {
      assertVerdict(
        r,
        'commerce2customer',
        'blocked',
        `failed to sync up replication between the source and target: rpc error: code = Unknown desc = replication has stopped at ${A}:1-1000 before reaching position ${A}:1-1500, message: `,
      );
    },
  },
  {
    // srv_keyspace.go:460 @v0.22.x: switchShardReads → UpdateShardRecords → UpdateDisableQueryService refuses a shard
    // that denies any table.
    check: 'orphan-denied-tables',
    name: 'a Reshard whose source shard still denies a table of an earlier MoveTables: its read switch is refused',
    build: () =>
      reshardFromZero().shardRecord('customer', '0', {
        tabletControls: [{ tabletType: 'PRIMARY', cells: [], deniedTables: ['legacy'], frozen: false }],
      }),
    expect: (r) => {
      assert.deepEqual(
        r.findings.filter((f) => f.check === 'orphan-denied-tables').map((f) => [f.severity, f.details.reason]),
        [
          ['warning', 'deniedTableNotRouted'],
          ['error', 'deniedTablesRefuseReshardSwitch'],
        ],
      );
      assertVerdict(r, 'cust2cust', 'blocked');
    },
  },
  {
    // server.go:2565-2631 @v0.22.x: a write ReverseTraffic is SwitchTraffic of commerce2customer_reverse, whose
    // switchWrites validates the filtered user on its source primaries, the original targets customer/-80 and 80-.
    check: 'reverse-permissions',
    name: '--action reverse after a write switch: the filtered user cannot manage the re-created forward streams',
    build: () => {
      const b = switchedMoveTables(['primary', 'replica', 'rdonly']);
      ['-80', '80-'].forEach((shard, i) => {
        b.stream('commerce', '0', i + 1, {
          workflow: 'commerce2customer_reverse',
          type: 'MoveTables',
          sourceKeyspace: 'customer',
          sourceShard: shard,
          rules: ['customer', 'corder'].map((t) => ({ match: t, filter: `select * from ${t}` })),
        });
      });
      // The harness's read-only user (SELECT and PROCESS on *.*) as the filtered user.
      const readOnly = { select: 'Y', insert: 'N', update: 'N', delete: 'N' };
      for (const shard of ['-80', '80-'])
        b.filteredUserGrants('customer', shard, { user: 'vtpreflight', global: [readOnly], db: [], tables: [] });
      return b;
    },
    args: ['--action', 'reverse', '--filtered-user', 'vtpreflight', '--vitess-version', '22'],
    options: { action: { ...DEFAULT_ACTION_REQUEST, action: 'reverse' }, vitess: givenVitessVersions('22', 'flag') },
    expect: (r) => {
      const found = r.findings.filter((f) => f.check === 'reverse-permissions');
      assert.deepEqual(
        found.map((f) => [f.keyspace, f.shard, f.workflow, f.details.reason]),
        [
          ['customer', '-80', 'commerce2customer_reverse', 'filteredUserLacksPrivileges'],
          ['customer', '80-', 'commerce2customer_reverse', 'filteredUserLacksPrivileges'],
        ],
      );
      assertVerdict(r, 'commerce2customer', 'blocked');
      assert.match(
        r.workflows.find((w) => w.workflow === 'commerce2customer')?.vitessWouldSay ?? '',
        /^primary tablets are not able to fully manage the reverse vreplication workflow in the customer keyspace: /,
      );
    },
  },
  {
    // v19–v21 refuse with ErrWorkflowPartiallySwitched (server.go:151 @v0.21.5), measured on real v19.0.0 and v21.5.
    check: 'cancel-workflow',
    name: '--action cancel after writes were switched, judged against v19: the text v19 prints',
    build: () => switchedMoveTables(['primary', 'replica', 'rdonly']),
    args: ['--action', 'cancel', '--vitess-version', '19'],
    options: { action: { ...DEFAULT_ACTION_REQUEST, action: 'cancel' }, vitess: givenVitessVersions('19', 'flag') },
    expect: (r) => {
      assertFindings(r, 'cancel-workflow', [
        { severity: 'error', workflow: 'commerce2customer', details: { reason: 'trafficSwitchedBeforeV22' } },
      ]);
      assertVerdict(
        r,
        'commerce2customer',
        'blocked',
        'cannot cancel workflow because you have already switched some or all read and write traffic',
      );
    },
  },
  {
    // server.go:1379 @v0.22.x refuses only switched writes; dropTargets drops the target tables (SHARDS) and leaves
    // the SrvKeyspace serving REPLICA/RDONLY reads from them.
    check: 'cancel-workflow',
    name: '--action cancel of a Reshard on v22 after a reads-only switch: Vitess proceeds and breaks the reads',
    build: () =>
      reshardFromZero()
        .servingGraph()
        .srvKeyspace('customer', {
          partitions: [
            { servedType: 'PRIMARY', shards: [{ name: '0', keyRange: null }], shardTabletControls: [] },
            ...['REPLICA', 'RDONLY'].map((servedType) => ({
              servedType,
              shards: [
                { name: '-80', keyRange: { start: '', end: '80' } },
                { name: '80-', keyRange: { start: '80', end: '' } },
              ],
              shardTabletControls: [],
            })),
          ],
        }),
    args: ['--action', 'cancel', '--vitess-version', '22'],
    options: { action: { ...DEFAULT_ACTION_REQUEST, action: 'cancel' }, vitess: givenVitessVersions('22', 'flag') },
    expect: (r) => {
      assertFindings(r, 'cancel-workflow', [
        {
          severity: 'error',
          keyspace: 'customer',
          workflow: 'cust2cust',
          message: /Vitess v22\+ does not refuse this cancel .* drops the tables on -80, 80- while those reads/,
          details: { reason: 'reshardReadsOnDroppedTargets' },
        },
      ]);
      // Nothing refuses, so nothing is quoted; the row is still not `ready` and the run fails the default gate.
      assertVerdict(r, 'cust2cust', 'blocked');
      assert.equal(r.workflows.find((w) => w.workflow === 'cust2cust')?.vitessWouldSay, null);
    },
  },
  {
    // Partial: never WritesSwitched (server.go:466-481 @v0.22.x); the cancel deletes only `<target>.<shard>` shard
    // routing keys (traffic_switcher.go:446), so commerce.-80 → customer stays while the tables are dropped.
    check: 'cancel-workflow',
    name: '--action cancel of a partial MoveTables after its shard switch: the shard keeps routing to dropped tables',
    build: () =>
      cluster()
        .keyspace('commerce', { shards: ['-80', '80-'] })
        .keyspace('customer', { shards: ['-80', '80-'] })
        .stream('customer', '-80', 1, {
          workflow: 'partial80',
          type: 'MoveTables',
          subType: 'Partial',
          sourceKeyspace: 'commerce',
          sourceShard: '-80',
          rules: [{ match: 'customer', filter: 'select * from customer' }],
        })
        .shardRouting([{ fromKeyspace: 'commerce', toKeyspace: 'customer', shard: '-80' }])
        .servingGraph(),
    args: ['--action', 'cancel'],
    options: { action: { ...DEFAULT_ACTION_REQUEST, action: 'cancel' } },
    expect: (r) => {
      assertFindings(r, 'cancel-workflow', [
        {
          severity: 'error',
          keyspace: 'customer',
          workflow: 'partial80',
          details: { reason: 'partialShardsSwitched', shardsSwitched: ['-80'] },
        },
      ]);
      assertVerdict(r, 'partial80', 'blocked');
    },
  },
  {
    // server.go @006b7393 WorkflowSwitchTraffic: ReverseTraffic run on the `_reverse` name loads
    // ReverseWorkflowName(commerce2customer_reverse) = commerce2customer, FROZEN since the write switch.
    check: 'reverse-traffic',
    name: '--action reverse named on commerce2customer_reverse after a write switch',
    build: () => {
      const b = switchedMoveTables(['primary', 'replica', 'rdonly']);
      ['-80', '80-'].forEach((shard, i) => {
        b.stream('commerce', '0', i + 1, {
          workflow: 'commerce2customer_reverse',
          type: 'MoveTables',
          sourceKeyspace: 'customer',
          sourceShard: shard,
          rules: ['corder', 'customer'].map((t) => ({ match: t, filter: `select * from ${t}` })),
        });
      });
      return b.select({ workflows: ['commerce2customer_reverse'] });
    },
    args: ['--action', 'reverse'],
    options: { action: { ...DEFAULT_ACTION_REQUEST, action: 'reverse' } },
    expect: (r) => {
      const frozen = {
        severity: 'error' as const,
        keyspace: 'commerce',
        workflow: 'commerce2customer_reverse',
        details: { reason: 'reverseFrozen', vitessError: 'workflow is frozen' },
      };
      assertFindings(r, 'reverse-traffic', [frozen, frozen]);
      assertVerdict(
        r,
        'commerce2customer_reverse',
        'blocked',
        'cannot switch traffic for workflow commerce2customer at this time: workflow is frozen',
      );
      assert.deepEqual(
        r.workflows.map((w) => w.workflow),
        ['commerce2customer_reverse'],
      );
    },
  },
  {
    // resharder.go @2291bf54 validateTargets (:156, wrapped :130 and by ReshardCreate): a FROZEN leftover of an earlier
    // Reshard on one target primary refuses a new Reshard create into the same shards.
    check: 'create-workflow',
    name: '--action create --source-shards 0 --target-shards -80,80-: a leftover stream on a target primary',
    build: () =>
      cluster()
        .keyspace('customer', { shards: ['0', '-80', '80-'], notServing: ['-80', '80-'] })
        .stream('customer', '80-', 1, {
          workflow: 'old_reshard',
          type: 'Reshard',
          sourceKeyspace: 'customer',
          sourceShard: '0',
          rules: [{ match: '/.*', filter: '80-' }],
          state: 'Stopped',
          message: 'FROZEN',
        })
        .select({ keyspaces: ['customer'], workflows: ['cust2cust'] }),
    // The target primaries' schema (vt_customer) is read: take the default-named instances' lock against a concurrent
    // scenario's tables there.
    live: { defaultNames: true },
    args: ['--action', 'create', '--target-keyspace', 'customer', '--source-shards', '0', '--target-shards', '-80,80-'],
    options: {
      action: {
        ...DEFAULT_ACTION_REQUEST,
        action: 'create',
        create: {
          workflow: 'cust2cust',
          targetKeyspace: 'customer',
          reshard: { sourceShards: ['0'], targetShards: ['-80', '80-'] },
        },
      },
    },
    expect: (r) => {
      assertFindings(r, 'create-workflow', [
        {
          severity: 'error',
          keyspace: 'customer',
          shard: '80-',
          details: { reason: 'reshardTargetStreams', workflows: ['old_reshard'] },
        },
      ]);
      assertVerdict(
        r,
        'cust2cust',
        'blocked',
        'buildResharder: validateTargets: some streams already exist in the target shards, please clean them up and retry the command',
      );
    },
  },
  {
    // resharder.go:125 and split.go:47 @v0.24.4: ValidateForReshard refuses targets that do not cover the source, after
    // ReshardCreate validated the SrvKeyspace of every cell (server.go:1548 @v0.24.4), here whole.
    check: 'create-workflow',
    name: '--action create --source-shards 0 --target-shards -80: the target key ranges do not cover the source',
    build: () =>
      cluster()
        .keyspace('customer', { shards: ['0', '-80', '80-'], notServing: ['-80', '80-'] })
        .servingGraph()
        .select({ keyspaces: ['customer'], workflows: ['cust2cust'] }),
    args: ['--action', 'create', '--target-keyspace', 'customer', '--source-shards', '0', '--target-shards', '-80'],
    options: {
      action: {
        ...DEFAULT_ACTION_REQUEST,
        action: 'create',
        create: {
          workflow: 'cust2cust',
          targetKeyspace: 'customer',
          reshard: { sourceShards: ['0'], targetShards: ['-80'] },
        },
      },
    },
    expect: (r) => {
      assertFindings(r, 'create-workflow', [{ severity: 'error', details: { reason: 'reshardKeyRangesDiffer' } }]);
      assertVerdict(
        r,
        'cust2cust',
        'blocked',
        "buildResharder: ValidateForReshard: source and target keyranges don't match: - vs -80",
      );
    },
  },
  {
    // utils.go @00bd50b6 validateSourceTablesExist (:1048), materializer.go @011aa691 buildMaterializer (:489) and
    // validateEmptyTables (:61, :625 wrapped at :297, v22+): a new workflow naming a table the source lacks, whose
    // sharded target vschema lacks corder, and whose customer table already holds a row on -80.
    // The live run sends Vitess's own `select 1 from <t> limit 1` (tagged) to both target primaries.
    check: 'create-workflow',
    name: '--action create --tables customer,corder,gone: gone not on the source, corder not in the target vschema, customer not empty on -80',
    build: () =>
      cluster()
        .keyspace('commerce', { shards: ['0'] })
        .keyspace('customer', { shards: ['-80', '80-'], tables: { customer: hashOn('customer_id') } })
        .select({ keyspaces: ['customer', 'commerce'], workflows: ['commerce2customer'] })
        .schemaTables('commerce', '0', ['corder', 'customer'])
        .schemaTables('customer', '-80', ['customer'])
        .tableProbes('customer', '-80', { probed: ['customer', 'corder', 'gone'], nonEmpty: ['customer'] })
        .tableProbes('customer', '80-', { probed: ['customer', 'corder', 'gone'] }),
    live: { defaultNames: true },
    args: [
      '--action',
      'create',
      '--target-keyspace',
      'customer',
      '--source-keyspace',
      'commerce',
      '--tables',
      'customer,corder,gone',
      '--vitess-version',
      '22',
    ],
    options: {
      vitess: givenVitessVersions('22', 'flag'),
      action: {
        ...DEFAULT_ACTION_REQUEST,
        action: 'create',
        create: {
          workflow: 'commerce2customer',
          targetKeyspace: 'customer',
          sourceKeyspace: 'commerce',
          tables: ['customer', 'corder', 'gone'],
        },
      },
    },
    expect: (r) => {
      assertFindings(r, 'create-workflow', [
        {
          severity: 'error',
          keyspace: 'customer',
          details: {
            reason: 'sourceTableMissing',
            vitessError: 'table(s) not found in source keyspace commerce: gone',
          },
        },
        {
          severity: 'error',
          keyspace: 'customer',
          details: {
            reason: 'targetTableNotEmpty',
            vitessError: 'non-empty tables found in target keyspace(customer): customer',
            shards: { customer: ['-80'] },
          },
        },
        {
          severity: 'error',
          keyspace: 'customer',
          details: {
            reason: 'tableNotInVSchema',
            vitessError: 'table corder not found in vschema for keyspace customer',
            tables: ['corder', 'gone'],
          },
        },
      ]);
      // The source tables are checked first (utils.go:1048), then buildMaterializer, then deploySchema.
      assertVerdict(r, 'commerce2customer', 'blocked', 'table(s) not found in source keyspace commerce: gone');
    },
  },
  {
    check: 'target-sequences',
    name: "a sequence's next_id below the moved table's highest id on the target primaries (real tables)",
    // The sequence lives in its own unsharded keyspace; its table and the target tables are in vt_<keyspace>.
    live: { defaultNames: true },
    build: () =>
      cluster()
        .keyspace('commerce', { shards: ['0'], tables: { customer: {}, corder: {} } })
        .keyspace('lookup', { shards: ['0'], tables: { customer_seq: { type: 'sequence' } } })
        .keyspace('customer', {
          shards: ['-80', '80-'],
          tables: {
            customer: { ...hashOn('customer_id'), autoIncrement: { column: 'customer_id', sequence: 'customer_seq' } },
            corder: hashOn('customer_id'),
          },
        })
        .moveTables('commerce2customer', {
          from: 'commerce',
          to: 'customer',
          tables: ['customer', 'corder'],
          column: 'customer_id',
        })
        .sequenceValues('lookup', '0', [{ table_name: 'customer_seq', next_id: '5', cache: '1000' }])
        .autoIncrementMax('customer', '-80', [{ table_name: 'customer', column_name: 'customer_id', max_value: '700' }])
        .autoIncrementMax('customer', '80-', [
          { table_name: 'customer', column_name: 'customer_id', max_value: '1200' },
        ]),
    expect: (r) =>
      assertFindings(r, 'target-sequences', [
        {
          severity: 'warning',
          keyspace: 'customer',
          workflow: 'commerce2customer',
          message: joinRegExp(
            /^table customer of customer\.commerce2customer takes customer_id from the sequence lookup\.customer_seq, /,
            /which has next_id 5, not above the highest customer_id on the target shards \(1200\): /,
          ),
          details: { reason: 'sequenceBehind', nextId: '5', targetMax: '1200' },
        },
      ]),
  },
  {
    // workflows.go getVReplicationTrxLag: time_updated replaces transaction_timestamp only after a heartbeat
    // (time_updated == time_heartbeat); a stream applying a backlog bumps time_updated on every transaction.
    check: 'replication-lag',
    name: 'a stream applying a backlog: time_updated recent, heartbeat old, last transaction 120 s ago',
    build: () =>
      reshardFromZero().patchStream('customer', '80-', 1, {
        transaction_timestamp: NOW_SECONDS - 120,
        time_updated: NOW_SECONDS - 1,
        time_heartbeat: NOW_SECONDS - 900,
      }),
    expect: (r) => {
      assertFindings(r, 'replication-lag', [
        {
          severity: 'error',
          shard: '80-',
          streamId: 1,
          details: {
            reason: 'transactionLag',
            lagSeconds: (v: unknown) => typeof v === 'number' && v >= 120 && v < 175,
          },
        },
      ]);
      assert.match(
        r.workflows[0]?.vitessWouldSay ?? '',
        joinRegExp(
          /^cannot switch traffic for workflow cust2cust at this time: /,
          /replication lag 1[2-7]\ds is higher than allowed lag 30s$/,
        ),
      );
    },
  },
  {
    // stream_migrator.go readTabletStreams has no workflow_type predicate: a completed Online DDL's row, left
    // Stopped for the 24 h retention, stops the Reshard's stream migrator (vitessio/vitess#20838).
    check: 'source-streams-not-running',
    name: 'a completed Online DDL left Stopped on both source shards of a Reshard',
    build: () => {
      const b = reshardScenario();
      for (const shard of ['-80', '80-'])
        b.stream('customer', shard, 7, {
          workflow: '2d1b4a5e_8f3c_11ef_9a1b_0a1b2c3d4e5f',
          type: 'OnlineDDL',
          sourceKeyspace: 'customer',
          sourceShard: shard,
          rules: [
            { match: '_vt_vrp_2d1b4a5e8f3c11ef9a1b0a1b2c3d4e5f_20251201120000_', filter: 'select * from corder' },
          ],
          state: 'Stopped',
          message: 'stopped for online DDL cutover',
        });
      return b;
    },
    expect: (r) =>
      assertFindings(r, 'source-streams-not-running', [
        {
          shard: '-80',
          streamId: 7,
          details: { reason: 'stoppedStream', vitessError: 'cannot migrate until all streams are running: -80: 110' },
        },
        {
          shard: '80-',
          streamId: 7,
          details: { reason: 'stoppedStream', vitessError: 'cannot migrate until all streams are running: 80-: 120' },
        },
      ]),
  },
  {
    // rpc_vreplication.go: `message != 'FROZEN'` is not true for a NULL message, so a workflow created with
    // --auto-start=false (rows Stopped, message NULL) does not stop the Reshard's stream migrator.
    check: 'source-streams-not-running',
    name: 'an external MoveTables created with --auto-start=false (Stopped, NULL message) on a Reshard source',
    build: () =>
      reshardScenario()
        .patchStream('customer', '-80', 1, { state: 'Stopped', message: null })
        .patchStream('customer', '80-', 1, { state: 'Stopped', message: null }),
    expect: (r) => {
      const got = r.findings.filter((f) => f.check === 'source-streams-not-running');
      assert.deepEqual(got, []);
      assert.equal(r.checks.find((c) => c.id === 'source-streams-not-running')?.status, 'pass');
    },
  },
  {
    // server.go canSwitch: skipped when getWorkflowState says writes are switched; a switch resumed after its
    // point of no return is not refused for the lag of streams stopped for the cutover.
    check: 'replication-lag',
    name: 'writes already routed to the target, streams stopped for cutover 15 min ago: no lag refusal',
    build: () =>
      both(moveTables().routing(moveTablesRouting('writesSwitched')), {
        state: 'Stopped',
        message: 'stopped for cutover',
        time_updated: NOW_SECONDS - 900,
        transaction_timestamp: NOW_SECONDS - 900,
        time_heartbeat: NOW_SECONDS - 900,
      }),
    expect: (r) => {
      assert.deepEqual(
        r.findings.filter((f) => ['replication-lag', 'copy-incomplete', 'stream-error'].includes(f.check)),
        [],
      );
      assert.doesNotMatch(r.workflows[0]?.vitessWouldSay ?? '', /replication lag/);
    },
  },
  {
    // stream_migrator.go:779-836 and vreplication/engine.go:841 @v0.24.4: the stream migrator waits for each other
    // stream's own position to reach the furthest one, here holding GTIDs of an errant transaction on the source
    // replica, which the source primary lacks and the replica executed: streams picking the replica reach it.
    check: 'position-drift',
    name: "a Reshard's stop position holds GTIDs only the source replica executed: a warning, not a refusal",
    build: () =>
      mergeWithMoveTables()
        .fullStatusOf(COMMERCE_REPLICA, { replicationPosition: `MySQL56/${A}:1-1000,${ERRANT}:1-2` })
        .patchStream('customer', '-80', 1, { pos: `MySQL56/${A}:1-1000,${ERRANT}:1-2` })
        .patchStream('customer', '80-', 1, { pos: `MySQL56/${A}:1-900` }),
    expect: (r) => {
      const f = r.findings.filter((x) => x.check === 'position-drift' && x.reason.startsWith('stopPosition'));
      assert.deepEqual(
        f.map((x) => [x.reason, x.severity, x.details.executedOn]),
        [['stopPositionNotOnPrimary', 'warning', [COMMERCE_REPLICA]]],
      );
      assert.ok(!r.findings.some((x) => x.check === 'position-drift' && x.severity === 'error'));
    },
  },
  {
    check: 'position-drift',
    name: 'a stream pos that is not a GTID set: an error with the text Vitess decodes it with',
    build: () => moveTables().patchStream('customer', '-80', 1, { pos: 'MySQL56/not-a-gtid-at-all' }),
    expect: (r) => {
      const f = r.findings.filter((x) => x.reason === 'positionNotGtidSet');
      if (f.length !== 1 || f[0]!.severity !== 'error' || f[0]!.shard !== '-80')
        throw new Error(`expected one positionNotGtidSet error on -80, got ${JSON.stringify(f)}`);
      if (f[0]!.details.vitessError !== 'invalid MySQL 5.6 GTID set ("not-a-gtid-at-all"): expected uuid:interval')
        throw new Error(`vitessError ${String(f[0]!.details.vitessError)}`);
      assertVerdict(r, 'commerce2customer', 'blocked');
    },
  },
  {
    // traffic_switcher.go executeLockTablesOnSource: LOCK TABLES of the moved tables on every source primary, after
    // the source writes are stopped (server.go:3217 @006b7393). The source schema holds customer only.
    check: 'table-list-mismatch',
    name: 'a moved table missing on the source primary: the write switch LOCK TABLES fails',
    build: () => moveTables().schemaTables('commerce', '0', ['customer']),
    live: { defaultNames: true },
    expect: (r) => {
      assertFindings(r, 'table-list-mismatch', [
        {
          severity: 'error',
          keyspace: 'customer',
          workflow: 'commerce2customer',
          details: { reason: 'tableMissingOnSource', missingTables: ['corder'], sourceShard: '0' },
        },
      ]);
      assertVerdict(r, 'commerce2customer', 'blocked');
    },
  },
  {
    // A MySQL user without SELECT on vt_commerce reads an empty information_schema.TABLES list, no error
    // (src/model/schema-visibility.ts). Here the source schema holds no table at all: over MySQL that cannot be told
    // from a missing grant, so the workflow is unverified naming the schema and the grant, never ready; through
    // vtctld (the tablet's DBA user sees every table) it is the truth, and LOCK TABLES fails on both moved tables.
    check: 'table-list-mismatch',
    name: 'the source schema lists no table: unverified over MySQL (grant named), blocked through vtctld',
    build: () => moveTables().schemaTables('commerce', '0', []),
    expect: (r, { via }) => {
      if (via === 'vtctld') {
        assertFindings(r, 'table-list-mismatch', [
          {
            severity: 'error',
            details: { reason: 'tableMissingOnSource', missingTables: ['corder', 'customer'], sourceShard: '0' },
          },
        ]);
        assertVerdict(r, 'commerce2customer', 'blocked');
        return;
      }
      // A declared read (src/reads/registry.ts): named on the one info line, no warning; the LOCK TABLES refusal of
      // SwitchTraffic needs it, so the verdict is unverified.
      assertFindings(r, 'unreachable', [{ severity: 'info', details: { reason: 'notRead' } }]);
      assertVerdict(r, 'commerce2customer', 'unverified');
      const parts = r.workflows[0]!.unverifiedBy;
      if (!parts.some((u) => /^information_schema\.TABLES of vt_commerce\S* of commerce\/0 /.test(u.part ?? '')))
        throw new Error(`unverifiedBy ${JSON.stringify(parts)} does not name the schema`);
      if (!parts.some((u) => /grant it SELECT on vt_commerce/.test(u.why)))
        throw new Error(`unverifiedBy ${JSON.stringify(parts)} does not name the grant`);
      if (r.summary.exitCode !== 1) throw new Error(`exit code ${r.summary.exitCode}, expected 1`);
    },
  },
  {
    // server.go switchWrites @006b7393 (v20+): after stopping the source writes, stopStreams waits, within the switch's
    // --timeout (30s by default), for intra-keyspace materializations to catch up: one applying a 2-minute backlog
    // may not make it (a warning, heuristic).
    check: 'source-streams-not-running',
    name: 'an intra-keyspace Materialize 2 minutes behind on a Reshard source shard: at risk in the stream stop',
    build: () =>
      external(
        external(reshardScenario(), 'cust_copy', {
          from: 'customer',
          fromShard: '-80',
          to: 'customer',
          shards: ['-80', '80-'],
          type: 'Materialize',
          extra: { transaction_timestamp: NOW_SECONDS - 120, time_heartbeat: NOW_SECONDS - 30 },
        }),
        'cust_copy',
        { from: 'customer', fromShard: '80-', to: 'customer', shards: ['-80', '80-'], type: 'Materialize' },
      ).select({ workflows: ['cust2cust'] }),
    expect: (r) => {
      // The intra-keyspace Materialize has a stream per (target, source) shard pair; those reading -80 are behind.
      const lagging = {
        severity: 'warning',
        workflow: 'cust2cust',
        message: /is an intra-keyspace workflow 1[23]\ds behind: .*within its --timeout \(30s by default\)/,
        details: { reason: 'intraKeyspaceLagging', streamWorkflow: 'cust_copy' },
      };
      assertFindings(r, 'source-streams-not-running', [
        { ...lagging, shard: '-80' },
        { ...lagging, shard: '80-' },
      ]);
      assertVerdict(r, 'cust2cust', 'at-risk');
    },
  },
  {
    // A primary whose streams were read but whose copy_state then could not be (dropped here, a stall in
    // test/faults/stall.test.ts): an unfinished copy would be invisible, so the workflow is unverified, never ready,
    // and the default gate fails.
    check: 'unreachable',
    name: 'copy_state unreadable after the vreplication read: unverified (not ready), exit 1',
    build: () => moveTables().copyStateUnreadable('customer', '80-'),
    expect: (r) => {
      assertFindings(r, 'unreachable', [
        { severity: 'warning', keyspace: 'customer', shard: '80-', details: { reason: 'partialRead' } },
      ]);
      assertVerdict(r, 'commerce2customer', 'unverified');
      const w = r.workflows[0]!;
      if (!w.unverifiedBy.some((u) => u.check === 'unreachable' && /copy_state/.test(u.part ?? '')))
        throw new Error(`unverifiedBy ${JSON.stringify(w.unverifiedBy)} does not name copy_state`);
      if (r.summary.exitCode !== 1) throw new Error(`exit code ${r.summary.exitCode}, expected 1`);
    },
  },
  {
    check: 'replication-lag',
    name: '--only replication-lag on a healthy MoveTables: unverified, naming the checks not run, exit 0',
    build: unshardedToSharded,
    args: ['--only', 'replication-lag'],
    options: { only: ['replication-lag'] },
    expect: (r) => {
      assertVerdict(r, 'commerce2customer', 'unverified');
      const w = r.workflows[0]!;
      const notRun = r.checks.filter((c) => c.status === 'skipped').map((c) => c.id);
      if (notRun.length < 10 || JSON.stringify(w.unverifiedBy.map((u) => u.check)) !== JSON.stringify(notRun))
        throw new Error(`unverifiedBy ${JSON.stringify(w.unverifiedBy)} does not name the checks not run`);
      if (r.summary.exitCode !== 0) throw new Error(`exit code ${r.summary.exitCode}, expected 0`);
    },
  },
  {
    check: 'frozen-workflow',
    name: 'a resharding journal of this workflow on its source primary (past the point of no return)',
    build: () => {
      const b = moveTables().routing(moveTablesRouting('writesSwitched'));
      return b.journal('commerce', '0', {
        id: workflowJournalId(b.model().workflows[0]!),
        db_name: 'vt_commerce',
        val: 'id:1',
      });
    },
    expect: (r) =>
      assertFindings(r, 'frozen-workflow', [
        {
          severity: 'warning',
          keyspace: 'customer',
          workflow: 'commerce2customer',
          tablet: COMMERCE_PRIMARY,
          message: joinRegExp(
            /^a resharding journal of workflow commerce2customer in /,
            /customer \(id \d+\) exists on source primary zone1-0000000100 /,
            /\(commerce\/0\): a previous SwitchTraffic passed its point of no /,
            /return, so the next one resumes from there and Cancel is refused$/,
          ),
          details: {
            reason: 'journalExists',
            journalChecked: true,
            journalFoundOn: [{ keyspace: 'commerce', shard: '0', tablet: COMMERCE_PRIMARY }],
            writesSwitched: true,
          },
        },
      ]),
  },
  {
    check: 'frozen-workflow',
    name: 'the same journal, checked as an operator runs it: --keyspace customer --workflow commerce2customer',
    build: () => {
      const b = moveTables().routing(moveTablesRouting('writesSwitched'));
      return b
        .journal('commerce', '0', {
          id: workflowJournalId(b.model().workflows[0]!),
          db_name: 'vt_commerce',
          val: 'id:1',
        })
        .select({ keyspaces: ['customer'], workflows: ['commerce2customer'] });
    },
    expect: (r) =>
      assertFindings(r, 'frozen-workflow', [
        {
          severity: 'warning',
          keyspace: 'customer',
          workflow: 'commerce2customer',
          tablet: COMMERCE_PRIMARY,
          details: { reason: 'journalExists', journalChecked: true },
        },
      ]),
  },
  {
    check: 'source-not-serving',
    // SwitchTraffic calls no FullStatus on source tablets and its catch-up waits on the running streams
    // (traffic_switcher.go:1032-1057 @v0.24.4): streams Running without an error are served whatever vtctld reaches.
    // The refresh of the tablets vtctld cannot reach (canSwitch, server.go:3470 @v0.24.4) is unreachable's refusal.
    name: 'no candidate source tablet reached by vtctld (UNAVAILABLE) while the streams run: a warning here',
    build: () =>
      moveTables()
        .fullStatusOf(COMMERCE_REPLICA, { error: 'UNAVAILABLE: tablet is down' })
        .fullStatusOf(COMMERCE_PRIMARY, { error: 'UNAVAILABLE: tablet is down' }),
    expect: (r) => {
      assertFindings(r, 'source-not-serving', [
        {
          severity: 'warning',
          keyspace: 'customer',
          workflow: 'commerce2customer',
          details: {
            reason: 'allCandidatesUnreachableWhileStreaming',
            tablets: [COMMERCE_REPLICA, COMMERCE_PRIMARY],
          },
        },
      ]);
      const row = r.workflows.find((w) => w.workflow === 'commerce2customer');
      assert.ok(row !== undefined && !row.blockedBy.includes('source-not-serving'), JSON.stringify(row));
    },
  },
  {
    check: 'source-not-serving',
    // Only the tablet vtctld cannot reach (UNAVAILABLE) counts against the picker; a timeout is no sign of it.
    name: 'a candidate source tablet cannot be reached (UNAVAILABLE), the other times out (DEADLINE_EXCEEDED)',
    build: () =>
      moveTables()
        .fullStatusOf(COMMERCE_REPLICA, { error: 'UNAVAILABLE: tablet is down' })
        .fullStatusOf(COMMERCE_PRIMARY, { error: 'DEADLINE_EXCEEDED: context deadline exceeded' }),
    expect: (r) => {
      assertFindings(r, 'source-not-serving', [
        {
          message: `1 of the 2 tablets of commerce/0 that 2 streams of workflow commerce2customer in customer may stream from could not be reached on their gRPC port (GetFullStatus UNAVAILABLE: ${COMMERCE_REPLICA} (REPLICA)), so they fail whenever they pick one of them`,
          details: { reason: 'someCandidatesUnreachable', tablets: [COMMERCE_REPLICA] },
        },
      ]);
      assertFindings(r, 'unreachable', [
        {
          keyspace: 'commerce',
          shard: '0',
          tablet: COMMERCE_PRIMARY,
          // A timeout may be a stalled mysqld only (RefreshState does not need MySQL): status unknown, no refusal.
          message: /^tablet zone1-0000000100 of commerce\/0 did not answer GetFullStatus in time \(.*deadline exceeded/,
          severity: 'warning',
          details: { reason: 'tabletStatusFailed' },
        },
        {
          keyspace: 'commerce',
          shard: '0',
          tablet: COMMERCE_REPLICA,
          message: /^tablet zone1-0000000101 of commerce\/0 did not answer GetFullStatus \(.*tablet is down/,
          details: { reason: 'tabletUnreachable' },
        },
      ]);
    },
  },
  {
    // vitessio/vitess#20923, #10421): writes switched while RDONLY reads stay on the source, no RDONLY tablet anywhere.
    check: 'srv-keyspace-partitions',
    name: '--tablet-types replica,primary on a Reshard without RDONLY tablets',
    build: () =>
      reshardFromZero()
        .servingGraph()
        .srvKeyspace('customer', {
          partitions: ['PRIMARY', 'REPLICA', 'RDONLY'].map((servedType) => ({
            servedType,
            shards: [{ name: '0', keyRange: null }],
            shardTabletControls: [],
          })),
        }),
    args: ['--tablet-types', 'replica,primary'],
    options: { action: { ...DEFAULT_ACTION_REQUEST, tabletTypes: ['replica', 'primary'] } },
    expect: (r) =>
      assertFindings(r, 'srv-keyspace-partitions', [
        {
          severity: 'warning',
          keyspace: 'customer',
          workflow: 'cust2cust',
          details: { reason: 'writesBeforeReads', tabletType: 'RDONLY', cellsWithoutTablets: ['zone1'] },
        },
      ]),
  },
];

/** Sidecar schema variants: what an older Vitess leaves on its primaries. */
export const SCHEMAS: readonly Scenario[] = [
  {
    name: 'MoveTables on an old Vitess sidecar schema (no workflow_type and newer columns, no vreplication_log)',
    build: () => unshardedToSharded().patchStream('customer', '80-', 1, { copyTables: ['corder'] }),
    live: { schema: 'old' },
    expect: (r) => {
      // The type comes from the streams themselves (source keyspace differs: MoveTables), as GetWorkflows had none.
      if (
        r.workflows.map((w) => `${w.keyspace}.${w.workflow} ${w.type}`).join() !==
        'customer.commerce2customer MoveTables'
      )
        throw new Error(`workflows: ${JSON.stringify(r.workflows)}`);
      assertFindings(r, 'copy-incomplete', [
        { keyspace: 'customer', shard: '80-', streamId: 1, details: { tablesLeft: 1 } },
      ]);
      // The missing vreplication_log is a partial read (warning) wherever streams were found, nothing worse.
      assertFindings(r, 'unreachable', [
        {
          severity: 'warning',
          keyspace: 'customer',
          shard: '-80',
          details: { reason: 'partialRead', what: /vreplication_log$/ },
        },
        {
          severity: 'warning',
          keyspace: 'customer',
          shard: '80-',
          details: { reason: 'partialRead', what: /vreplication_log$/ },
        },
      ]);
      if (r.findings.some((f) => f.severity === 'error' && f.check !== 'copy-incomplete'))
        throw new Error(`unexpected errors: ${JSON.stringify(r.findings)}`);
    },
  },
];

/** stream-set-mismatch: names both shards and the missing (workflow, keyspace, shard). */
export const STREAM_SET_MISMATCH = {
  severity: 'error',
  keyspace: 'customer',
  shard: '80-',
  workflow: 'cust2cust',
  tablet: 'zone1-0000000120',
  message: joinRegExp(
    /^source shard customer\/80- of Reshard cust2cust carries other workflows' /,
    /streams that differ from source shard -80: lacks 1 \(mat2 from commerce\/0\)$/,
  ),
  details: {
    reason: 'streamsMismatched',
    vitessError: 'streams are mismatched across source shards: -80 vs 80-',
    referenceShard: '-80',
    lacks: [{ workflow: 'mat2', sourceKeyspace: 'commerce', sourceShard: '0', count: 1 }],
    extra: [],
  },
} as const;

export { moveTables, unshardedToSharded, reshardFromZero, lookupBackfill };
