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
  ],
  invalid: [
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
            'writes of customer.commerce2customer are already switched (routing rule commerce.corder → customer.corder), so it can no longer be cancelled',
          details: { vitessError: 'cannot delete workflow because you have already switched write traffic' },
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
            'REPLICA and RDONLY reads of customer.commerce2customer are switched: Vitess before v22 refuses the cancel with "cannot cancel workflow because you have already switched some or all read and write traffic"',
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
