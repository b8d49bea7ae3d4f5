import check from '../../checks/cancel-workflow.js';
import { DEFAULT_ACTION_REQUEST } from '../../src/engine/options.js';
import { workflowJournalId } from '../../src/model/journal.js';
import { givenVitessVersions } from '../../src/vitess/versions.js';
import { moveTablesRules, type SwitchedType } from '../helpers/actions.js';
import { checkTester } from '../helpers/check-tester.js';
import { cluster } from '../helpers/cluster.js';
import { moveTablesScenario } from '../helpers/reshard-scenario.js';

// commerce/0 (…100) → customer -80 (…110), 80- (…120): MoveTables commerce2customer of customer, corder.
const TABLES = ['customer', 'corder'];

const switched = (types: readonly SwitchedType[]) => {
  const b = moveTablesScenario().routing(moveTablesRules('commerce', 'customer', TABLES, types));
  if (types.includes('primary'))
    for (const shard of ['-80', '80-']) b.patchStream('customer', shard, 1, { state: 'Stopped', message: 'FROZEN' });
  return b.servingGraph();
};

/** The journal id of commerce2customer, as SwitchTraffic writes it on the source primaries. */
const journalId = () => {
  const m = switched([]).model();
  return workflowJournalId(m.workflows.find((w) => w.name === 'commerce2customer')!);
};

const cancel = (version?: string) => ({
  action: { ...DEFAULT_ACTION_REQUEST, action: 'cancel' as const },
  ...(version !== undefined ? { vitess: givenVitessVersions(version, 'flag') } : {}),
});
const WF = { keyspace: 'customer', workflow: 'commerce2customer' };
/** ErrWorkflowPartiallySwitched of v19–v21 (server.go:151 @v0.21.5). */
const OLD_TEXT = 'cannot cancel workflow because you have already switched some or all read and write traffic';

/** After a ReverseTraffic: writes back on commerce, commerce2customer_reverse FROZEN on commerce/0, and selected. */
const reversedNamed = (types: readonly SwitchedType[] = []) => {
  const b = switched(types);
  ['-80', '80-'].forEach((shard, i) => {
    b.stream('commerce', '0', i + 1, {
      workflow: 'commerce2customer_reverse',
      type: 'MoveTables',
      sourceKeyspace: 'customer',
      sourceShard: shard,
      rules: TABLES.map((t) => ({ match: t, filter: `select * from ${t}` })),
      state: 'Stopped',
      message: 'FROZEN',
    });
  });
  return b.select({ workflows: ['commerce2customer_reverse'] });
};

/** customer 0 → -80, 80- (targets not primary-serving): Reshard cust2cust, with `types` reads served by the targets. */
const reshardReads = (types: readonly ('REPLICA' | 'RDONLY')[]) => {
  const range = (name: string) => (name === '0' ? null : { start: name.split('-')[0]!, end: name.split('-')[1]! });
  const partition = (servedType: string, shards: string[]) => ({
    servedType,
    shards: shards.map((name) => ({ name, keyRange: range(name) })),
    shardTabletControls: [],
  });
  return cluster()
    .keyspace('customer', { shards: ['0', '-80', '80-'], notServing: ['-80', '80-'] })
    .reshard('cust2cust', { keyspace: 'customer', from: ['0'], to: ['-80', '80-'] })
    .servingGraph()
    .srvKeyspace('customer', {
      partitions: [
        partition('PRIMARY', ['0']),
        ...(['REPLICA', 'RDONLY'] as const).map((t) => partition(t, types.includes(t) ? ['-80', '80-'] : ['0'])),
      ],
    });
};

/** commerce, customer both -80, 80-: partial MoveTables partial80 of shard -80; `switched`: its shard rule flipped. */
const partial = (switched: boolean) =>
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
    .shardRouting(
      switched
        ? [{ fromKeyspace: 'commerce', toKeyspace: 'customer', shard: '-80' }]
        : [{ fromKeyspace: 'customer', toKeyspace: 'commerce', shard: '-80' }],
    )
    .servingGraph();

checkTester(check, {
  valid: [
    {
      name: 'nothing switched yet',
      model: switched([]),
      options: cancel(),
      reasons: ['writesSwitched', 'interruptedSwitch'],
    },
    {
      name: 'reads switched on v22, which allows the cancel (#17128)',
      model: switched(['replica', 'rdonly']),
      options: cancel('22.0'),
      reasons: ['trafficSwitchedBeforeV22', 'trafficSwitchedVersionUnknown'],
    },
    {
      name: 'nothing switched on v21',
      model: switched([]),
      options: cancel('21.0'),
      reasons: ['trafficSwitchedBeforeV22'],
    },
    {
      name: 'a journal of another workflow on the source primary',
      model: switched([]).journal('commerce', '0', { id: '1', db_name: 'vt_commerce', val: '' }),
      options: cancel(),
      reasons: ['interruptedSwitch'],
    },
    {
      name: 'cancel named on commerce2customer_reverse with --keep-data: the tables stay',
      model: reversedNamed(),
      options: { action: { ...DEFAULT_ACTION_REQUEST, action: 'cancel' as const, keepData: true } },
      reasons: ['reverseNameDropsServedTables'],
    },
    {
      name: 'a Reshard with no read switched on v22',
      model: reshardReads([]),
      options: cancel('22.0'),
      reasons: ['reshardReadsOnDroppedTargets'],
    },
    {
      name: 'a partial MoveTables whose shard rule still points back to the source',
      model: partial(false),
      options: cancel(),
      reasons: ['partialShardsSwitched'],
    },
  ],
  invalid: [
    {
      // server.go:1379 @v0.22.x refuses only WritesSwitched; dropTargets (server.go:1993) drops the target tables.
      name: 'a Reshard cancel on v22 after a reads-only switch',
      model: reshardReads(['REPLICA', 'RDONLY']),
      options: cancel('22.0'),
      findings: [
        {
          keyspace: 'customer',
          workflow: 'cust2cust',
          reason: 'reshardReadsOnDroppedTargets',
          severity: 'error',
          message:
            'REPLICA reads in zone1 and RDONLY reads in zone1 of customer are served by the target shards -80, 80- of cust2cust: Vitess v22+ does not refuse this cancel and leaves the serving graph as it is, so it drops the tables on -80, 80- while those reads are still routed there, and they fail',
          details: {
            readsServed: [
              { type: 'REPLICA', cells: ['zone1'] },
              { type: 'RDONLY', cells: ['zone1'] },
            ],
          },
        },
      ],
    },
    {
      name: 'a Reshard cancel --keep-data on v23 after a REPLICA-only switch: the reads go stale',
      model: reshardReads(['REPLICA']),
      options: { ...cancel('23.0'), action: { ...DEFAULT_ACTION_REQUEST, action: 'cancel' as const, keepData: true } },
      findings: [
        {
          keyspace: 'customer',
          workflow: 'cust2cust',
          reason: 'reshardReadsOnDroppedTargets',
          message: /^REPLICA reads in zone1 of customer .* no workflow replicates to any more and go stale$/,
        },
      ],
    },
    {
      // Partial: getWorkflowState never sets WritesSwitched (server.go:466-481 @v0.22.x); the cancel deletes only the
      // `<target>.<shard>` keys (traffic_switcher.go:446), leaving commerce.-80 → customer (traffic_switcher.go:781).
      name: 'a partial MoveTables cancel after its shard switch',
      model: partial(true),
      options: cancel(),
      findings: [
        {
          keyspace: 'customer',
          workflow: 'partial80',
          reason: 'partialShardsSwitched',
          severity: 'error',
          message:
            'shards -80 of commerce are switched to customer by shard routing rules: Vitess does not refuse the cancel of a partial MoveTables and leaves those rules, so it drops customer on customer while -80 still routes there: the writes taken since the shard switch are lost and those queries fail',
          details: { shardsSwitched: ['-80'], sourceKeyspace: 'commerce', tables: ['customer'] },
        },
      ],
    },
    {
      // The near miss of reverseNameDropsServedTables: the forward state says writes are switched, so it is refused.
      name: 'cancel named on commerce2customer_reverse while forward writes are switched: refused instead',
      model: reversedNamed(['primary', 'replica', 'rdonly']),
      options: cancel(),
      findings: [
        {
          reason: 'writesSwitched',
          keyspace: 'commerce',
          workflow: 'commerce2customer_reverse',
          details: { vitessError: 'cannot delete workflow because you have already switched write traffic' },
        },
      ],
    },
    {
      // server.go @006b7393 WorkflowDelete: the forward state (not switched) is not refused; dropTargets follows.
      name: 'cancel named on commerce2customer_reverse after a ReverseTraffic',
      model: reversedNamed(),
      options: cancel(),
      findings: [
        {
          reason: 'reverseNameDropsServedTables',
          severity: 'warning',
          keyspace: 'commerce',
          workflow: 'commerce2customer_reverse',
          message:
            'cancel of commerce.commerce2customer_reverse (a reverse workflow) is not refused while writes are served by commerce, and without --keep-data it drops the moved tables there, in the keyspace serving them',
        },
      ],
    },
    {
      // server.go WorkflowDelete: state.WritesSwitched → ErrWorkflowDeleteWritesSwitched (server.go:128).
      name: 'writes already switched',
      model: switched(['primary', 'replica', 'rdonly']),
      options: cancel(),
      findings: [
        {
          ...WF,
          reason: 'writesSwitched',
          message:
            'writes of customer.commerce2customer are already switched (routing rule commerce.corder → customer.corder), so it can no longer be cancelled (Vitess before v22 refuses with "' +
            OLD_TEXT +
            '")',
          details: {
            vitessError: 'cannot delete workflow because you have already switched write traffic',
            versionNote:
              /^judged by the rule of Vitess >=22 \(the newest in v\d+–v24\); Vitess <22 applies another rule$/,
          },
        },
      ],
    },
    {
      // v22+: ErrWorkflowDeleteWritesSwitched (server.go:127 @v0.22.4), exact for the range.
      name: 'writes already switched, judged against v22: v22 text, no note',
      model: switched(['primary', 'replica', 'rdonly']),
      options: cancel('22.0'),
      findings: [
        {
          ...WF,
          reason: 'writesSwitched',
          message: /so it can no longer be cancelled$/,
          details: {
            vitessError: 'cannot delete workflow because you have already switched write traffic',
            versionNote: undefined,
          },
        },
      ],
    },
    {
      // v19: DropTargets returns ErrWorkflowPartiallySwitched (server.go:2480 @v0.19.10), measured on real v19.0.0.
      name: 'writes already switched, judged against v19: v19 text',
      model: switched(['primary', 'replica', 'rdonly']),
      options: cancel('19.0'),
      findings: [
        {
          ...WF,
          reason: 'trafficSwitchedBeforeV22',
          severity: 'error',
          message: /so it can no longer be cancelled$/,
          details: { vitessError: OLD_TEXT, versionNote: undefined },
        },
      ],
    },
    {
      // v21.5: WorkflowDelete returns ErrWorkflowPartiallySwitched (server.go:2083 @v0.21.5), measured on real v21.5.
      name: 'writes already switched, judged against v21.5: the same old text',
      model: switched(['primary', 'replica', 'rdonly']),
      options: cancel('21.0.5'),
      findings: [{ ...WF, reason: 'trafficSwitchedBeforeV22', details: { vitessError: OLD_TEXT } }],
    },
    {
      // A Reshard cancel after a reads-only switch: refused before v22 (measured on v19.0.0 and v21.5).
      name: 'a Reshard with replica and rdonly reads switched, judged against v19',
      model: cluster()
        .keyspace('customer', { shards: ['0', '-80', '80-'], notServing: ['-80', '80-'] })
        .reshard('cust2cust', { keyspace: 'customer', from: ['0'], to: ['-80', '80-'] })
        .servingGraph()
        .srvKeyspace('customer', {
          partitions: [
            { servedType: 'PRIMARY', shards: [{ name: '0', keyRange: null }], shardTabletControls: [] },
            ...(['REPLICA', 'RDONLY'] as const).map((servedType) => ({
              servedType,
              shards: [
                { name: '-80', keyRange: { start: '', end: '80' } },
                { name: '80-', keyRange: { start: '80', end: '' } },
              ],
              shardTabletControls: [],
            })),
          ],
        }),
      options: cancel('19.0'),
      findings: [
        {
          keyspace: 'customer',
          workflow: 'cust2cust',
          reason: 'trafficSwitchedBeforeV22',
          details: { vitessError: OLD_TEXT, readsSwitched: ['REPLICA', 'RDONLY'] },
        },
      ],
    },
    {
      name: 'a Reshard whose source shard no longer serves primary traffic',
      model: cluster()
        .keyspace('customer', { shards: ['0', '-80', '80-'], notServing: ['0'] })
        .reshard('cust2cust', { keyspace: 'customer', from: ['0'], to: ['-80', '80-'] })
        .servingGraph(),
      options: cancel(),
      findings: [{ keyspace: 'customer', workflow: 'cust2cust', reason: 'writesSwitched' }],
    },
    {
      name: 'reads switched on v21',
      model: switched(['replica', 'rdonly']),
      options: cancel('21.0'),
      findings: [
        {
          ...WF,
          reason: 'trafficSwitchedBeforeV22',
          severity: 'error',
          message:
            'REPLICA and RDONLY reads of customer.commerce2customer are switched, and Vitess before v22 refuses to cancel a workflow with any switched traffic',
          details: { vitessError: OLD_TEXT },
        },
      ],
    },
    {
      name: 'replica reads switched, release unknown',
      model: switched(['replica']),
      options: cancel(),
      findings: [{ ...WF, reason: 'trafficSwitchedVersionUnknown', severity: 'warning' }],
    },
    {
      name: 'a journal on the source primary while writes are not switched',
      model: switched([]).journal('commerce', '0', { id: journalId(), db_name: 'vt_commerce', val: '' }),
      options: cancel(),
      findings: [{ ...WF, reason: 'interruptedSwitch', severity: 'warning', details: { journalId: journalId() } }],
    },
  ],
});
