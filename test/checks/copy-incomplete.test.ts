import check from '../../checks/copy-incomplete.js';
import { checkTester } from '../helpers/check-tester.js';
import { cluster } from '../helpers/cluster.js';
import { moveTablesScenario } from '../helpers/reshard-scenario.js';

const base = () => moveTablesScenario();

checkTester(
  check,
  {
    valid: [
      { name: 'every stream finished copying', model: base() },
      {
        name: 'copy_state not readable is not judged as copying',
        reasons: ['stillCopying'],
        model: base().copyStateUnreadable('customer', '80-'),
      },
      {
        name: 'a shard not read is not judged',
        reasons: ['stillCopying'],
        model: base()
          .patchStream('customer', '80-', 1, { copyTables: ['corder'] })
          .unreadable('customer', '80-'),
      },
      {
        name: 'an error message on a stream that finished copying is no copy left behind it',
        reasons: ['copyingBehindError'],
        model: base().patchStream('customer', '80-', 1, {
          message: 'vttablet: rpc error: code = Unknown desc = VStreamer is not open',
        }),
      },
    ],
    invalid: [
      {
        name: 'one target shard still copying two tables',
        model: base().patchStream('customer', '80-', 1, { copyTables: ['customer', 'corder'], rows_copied: 1200 }),
        findings: [
          {
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
        ],
      },
      {
        name: 'stored state Copying without copy_state rows',
        model: base().patchStream('customer', '-80', 1, { state: 'Copying' }),
        findings: [
          {
            shard: '-80',
            streamId: 1,
            message: /is in state Copying$/,
            details: { vitessError: 'copy is still in progress' },
          },
        ],
      },
      {
        name: 'copying stream whose message shows an error: copy is incomplete, but Vitess would say it has errors',
        model: base().patchStream('customer', '-80', 1, {
          copyTables: ['customer'],
          message: 'Error picking tablet: context has expired',
        }),
        findings: [{ shard: '-80', streamId: 1, details: { displayState: 'Error', vitessError: undefined } }],
      },
    ],
  },
  { more: true },
);

// canSwitch's refusal is SwitchTraffic's alone (server.go canSwitch), skipped once writes are switched; a lookup
// backfill's Externalize only requires Running streams (lookup_vindex.go validateInternalizedState).
const lookupCluster = () =>
  cluster()
    .keyspace('customer', { shards: ['-80', '80-'] })
    .keyspace('lookup', { shards: ['0'], tables: { corder_lookup: {} } })
    .lookup('corder_lookup', {
      from: 'customer',
      to: 'lookup',
      table: 'corder_lookup',
      ownerTable: 'corder',
      owned: false,
    });

checkTester(check, {
  valid: [
    { name: 'unowned lookup backfill that finished copying', reasons: ['copyingNotRefused'], model: lookupCluster() },
  ],
  invalid: [
    {
      name: 'unowned lookup backfill still copying: a warning, never canSwitch text',
      model: lookupCluster().patchStream('lookup', '0', 1, { copyTables: ['corder_lookup'] }),
      findings: [
        {
          severity: 'warning',
          shard: '0',
          streamId: 1,
          reason: 'copyingNotRefused',
          details: { canSwitchSkipped: 'notSwitchTraffic', vitessError: undefined },
        },
      ],
    },
    {
      // server.go canSwitch: "writes already switched no need to check lag"; getWorkflowState: the rule keyed by the
      // table pointing first at <target keyspace>.<table> means writes are switched.
      name: 'MoveTables whose writes are already routed to the target: canSwitch is skipped',
      model: base()
        .routing([
          { fromTable: 'customer', toTables: ['customer.customer'] },
          { fromTable: 'commerce.customer', toTables: ['customer.customer'] },
          { fromTable: 'corder', toTables: ['customer.corder'] },
          { fromTable: 'commerce.corder', toTables: ['customer.corder'] },
        ])
        .patchStream('customer', '80-', 1, { copyTables: ['corder'] }),
      findings: [
        {
          severity: 'warning',
          shard: '80-',
          reason: 'copyingNotRefused',
          details: { canSwitchSkipped: 'writesSwitched', vitessError: undefined },
        },
      ],
    },
  ],
});
