import check from '../../checks/complete-workflow.js';
import { DEFAULT_ACTION_REQUEST } from '../../src/engine/options.js';
import type { RoutingRuleRecord, SrvKeyspaceRecord } from '../../src/readout.js';
import { moveTablesRules, type SwitchedType } from '../helpers/actions.js';
import { checkTester } from '../helpers/check-tester.js';
import { cluster } from '../helpers/cluster.js';
import { moveTablesScenario } from '../helpers/reshard-scenario.js';

// commerce/0 (…100) → customer -80 (…110), 80- (…120): MoveTables commerce2customer of customer, corder.
const TABLES = ['customer', 'corder'];
const ALL: SwitchedType[] = ['primary', 'replica', 'rdonly'];

/** The MoveTables with `types` switched (FROZEN streams once PRIMARY is), routing read by every cell. */
const switched = (types: readonly SwitchedType[], tables = TABLES, extraRules: RoutingRuleRecord[] = []) => {
  const b = moveTablesScenario(tables).routing([
    ...moveTablesRules('commerce', 'customer', tables, types),
    ...extraRules,
  ]);
  if (types.includes('primary'))
    for (const shard of ['-80', '80-']) b.patchStream('customer', shard, 1, { state: 'Stopped', message: 'FROZEN' });
  return b.servingGraph();
};

/** customer 0 → -80, 80- with writes switched (0 no longer serving): Reshard cust2cust. */
const reshardSwitched = (srv?: SrvKeyspaceRecord) => {
  const b = cluster()
    .keyspace('customer', { shards: ['0', '-80', '80-'], notServing: ['0'] })
    .reshard('cust2cust', { keyspace: 'customer', from: ['0'], to: ['-80', '80-'] });
  for (const shard of ['-80', '80-']) b.patchStream('customer', shard, 1, { state: 'Stopped', message: 'FROZEN' });
  b.servingGraph();
  return srv === undefined ? b : b.srvKeyspace('customer', srv);
};
const partition = (servedType: string, shards: string[]) => ({
  servedType,
  shards: shards.map((name) => ({
    name,
    keyRange: name === '0' ? null : { start: name.split('-')[0]!, end: name.split('-')[1]! },
  })),
  shardTabletControls: [],
});
const TARGETS_SERVE: SrvKeyspaceRecord = {
  partitions: ['PRIMARY', 'REPLICA', 'RDONLY'].map((t) => partition(t, ['-80', '80-'])),
};

const complete = (o: { keepData?: boolean; renameTables?: boolean } = {}) => ({
  action: { ...DEFAULT_ACTION_REQUEST, action: 'complete' as const, keepData: false, renameTables: false, ...o },
});
const WF = { keyspace: 'customer', workflow: 'commerce2customer' };
const LONG_A = `${'a'.repeat(59)}_one`;
const LONG_B = `${'a'.repeat(59)}_two`;

checkTester(check, {
  valid: [
    {
      name: 'a MoveTables with every tablet type switched and FROZEN streams',
      model: switched(ALL),
      options: complete(),
      reasons: ['notFullySwitched', 'streamsNotFrozen', 'routingStillExists'],
    },
    {
      // SwitchTraffic leaves commerce2customer_reverse in commerce: it is the forward workflow's, not judged alone.
      name: 'a switched MoveTables with its reverse workflow in the source keyspace',
      model: switched(ALL).stream('commerce', '0', 1, {
        workflow: 'commerce2customer_reverse',
        type: 'MoveTables',
        sourceKeyspace: 'customer',
        sourceShard: '-80',
        rules: [
          { match: 'corder', filter: 'select * from corder' },
          { match: 'customer', filter: 'select * from customer' },
        ],
      }),
      options: complete(),
      reasons: ['notFullySwitched'],
    },
    {
      name: 'long names that differ within their first 59 characters, renamed',
      model: switched(ALL, [`${'b'.repeat(58)}x_1`, `${'b'.repeat(58)}y_1`]),
      options: complete({ renameTables: true }),
      reasons: ['renamedNamesCollide'],
    },
    {
      name: 'long names sharing 59 characters, dropped rather than renamed',
      model: switched(ALL, [LONG_A, LONG_B]),
      options: complete(),
      reasons: ['renamedNamesCollide'],
    },
    {
      name: 'long names sharing 59 characters, kept with --keep-data',
      model: switched(ALL, [LONG_A, LONG_B]),
      options: complete({ keepData: true, renameTables: true }),
      reasons: ['renamedNamesCollide'],
    },
    {
      name: 'an old table of another name on the source primary, with --rename-tables',
      model: switched(ALL).schemaTables('commerce', '0', ['_orders_old']),
      options: complete({ renameTables: true }),
      reasons: ['renamedTableExists'],
    },
    {
      // Not read is not a risk: notJudged names the list and the verdict is unverified (test/model/schema-visibility).
      name: 'a readout from before the renamed-tables read, with --rename-tables: no finding',
      model: switched(ALL).schemaTables('commerce', '0', 'absent'),
      options: complete({ renameTables: true }),
      reasons: ['renamedTableExists'],
    },
    {
      name: 'an existing _customer_old, dropped rather than renamed',
      model: switched(ALL).schemaTables('commerce', '0', ['_customer_old']),
      options: complete(),
      reasons: ['renamedTableExists'],
    },
    {
      name: 'a source primary whose sidecar was not read: the read failure, not this check, says so',
      model: switched(ALL).unreadable('commerce', '0'),
      options: complete({ renameTables: true }),
      reasons: ['renamedTableExists'],
    },
    {
      name: 'a Reshard switched everywhere, whose SrvKeyspace names only the target shards',
      model: reshardSwitched(TARGETS_SERVE),
      options: complete(),
      reasons: ['shardStillServing', 'sourceShardStillReferenced'],
    },
    {
      name: 'a Reshard whose SrvKeyspace still names the source shard, completed with --keep-data',
      model: reshardSwitched({ partitions: [partition('PRIMARY', ['0'])] }),
      options: complete({ keepData: true }),
      reasons: ['sourceShardStillReferenced'],
    },
  ],
  invalid: [
    {
      // server.go MoveTablesComplete: !state.WritesSwitched → ErrWorkflowCompleteNotFullySwitched (server.go:127).
      name: 'reads switched, writes not',
      model: switched(['replica', 'rdonly']),
      options: complete(),
      findings: [
        {
          ...WF,
          reason: 'notFullySwitched',
          message:
            'complete of customer.commerce2customer needs all traffic switched, but writes are not switched (routing rule commerce.corder → commerce.corder)',
          details: {
            vitessError: 'cannot complete workflow because you have not yet switched all read and write traffic',
          },
        },
      ],
    },
    {
      // RDONLY left behind (SwitchTraffic --tablet-types=replica with RDONLY tablets somewhere).
      name: 'writes and replica reads switched, rdonly reads not',
      model: switched(['primary', 'replica']),
      options: complete(),
      findings: [
        {
          ...WF,
          reason: 'notFullySwitched',
          message:
            'complete of customer.commerce2customer needs all traffic switched, but RDONLY reads are not switched in cell zone1',
        },
      ],
    },
    {
      // utils.go doValidateWorkflowHasCompleted: a target stream whose message is not FROZEN, once per primary.
      name: 'a target stream restarted after the switch',
      model: switched(ALL).patchStream('customer', '80-', 1, { state: 'Running', message: '' }),
      options: complete(),
      findings: [
        {
          ...WF,
          reason: 'streamsNotFrozen',
          shard: '80-',
          streamId: 1,
          tablet: 'zone1-0000000120',
          details: { vitessError: 'vreplication streams are not frozen on tablet 120' },
        },
      ],
    },
    {
      // utils.go: a global rule pointing at <source>.<table>, kept by an earlier MoveTables --keep-routing-rules.
      name: 'a routing rule of an older MoveTables still points at the source table',
      model: switched(ALL, TABLES, [{ fromTable: 'legacy.customer', toTables: ['commerce.customer'] }]),
      options: complete(),
      findings: [
        {
          ...WF,
          reason: 'routingStillExists',
          details: { vitessError: 'routing still exists from keyspace commerce table customer to legacy.customer' },
        },
      ],
    },
    {
      // traffic_switcher.go renameTableTemplate `_%.59s_old`: both tables become _aaa…a_old.
      name: 'two long table names sharing their first 59 characters, with --rename-tables',
      model: switched(ALL, [LONG_A, LONG_B]),
      options: complete({ renameTables: true }),
      findings: [
        {
          ...WF,
          reason: 'renamedNamesCollide',
          details: { renamedTo: `_${'a'.repeat(59)}_old`, tables: [LONG_A, LONG_B] },
        },
      ],
    },
    {
      // traffic_switcher.go removeSourceTables: RENAME TABLE <db>.customer TO <db>._customer_old fails (MySQL 1050).
      name: 'an earlier complete --rename-tables left _customer_old on the source primary',
      model: switched(ALL).schemaTables('commerce', '0', ['_customer_old']),
      options: complete({ renameTables: true }),
      findings: [
        {
          ...WF,
          reason: 'renamedTableExists',
          shard: '0',
          tablet: 'zone1-0000000100',
          message:
            'complete --rename-tables renames customer to _customer_old on commerce/0 (zone1-0000000100), where vt_commerce._customer_old already exists',
        },
      ],
    },
    {
      // utils.go doValidateWorkflowHasCompleted (SHARDS): every source shard must have stopped serving primary.
      name: 'a Reshard with one of two source shards still serving',
      model: cluster()
        .keyspace('customer', { shards: ['-80', '80-', '-40', '40-80', '80-c0', 'c0-'], notServing: ['-80'] })
        .reshard('split', { keyspace: 'customer', from: ['-80', '80-'], to: ['-40', '40-80', '80-c0', 'c0-'] })
        .servingGraph()
        .srvKeyspace('customer', {
          partitions: ['PRIMARY', 'REPLICA', 'RDONLY'].map((t) => partition(t, ['-40', '40-80', '80-c0', 'c0-'])),
        }),
      options: complete(),
      findings: [
        {
          keyspace: 'customer',
          workflow: 'split',
          shard: '80-',
          reason: 'shardStillServing',
          details: { vitessError: 'shard 80- is still serving' },
        },
      ],
    },
    {
      // server.go:2541 DeleteShard (via dropSourceShards): GetShardServingCells finds the shard in a partition.
      name: 'a Reshard whose serving graph was rebuilt from a stale shard list in one cell',
      model: reshardSwitched({
        partitions: [
          partition('PRIMARY', ['0', '-80', '80-']),
          ...['REPLICA', 'RDONLY'].map((t) => partition(t, ['-80', '80-'])),
        ],
      }),
      options: complete(),
      findings: [
        {
          keyspace: 'customer',
          workflow: 'cust2cust',
          shard: '0',
          reason: 'sourceShardStillReferenced',
          details: {
            cells: ['zone1'],
            vitessError: 'shard customer/0 is still serving, cannot delete it, use the even-if-serving flag if needed',
          },
        },
      ],
    },
  ],
});
