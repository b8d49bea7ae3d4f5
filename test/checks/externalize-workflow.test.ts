import check from '../../checks/externalize-workflow.js';
import { DEFAULT_ACTION_REQUEST } from '../../src/engine/options.js';
import { checkTester } from '../helpers/check-tester.js';
import { cluster } from '../helpers/cluster.js';
import { moveTablesScenario } from '../helpers/reshard-scenario.js';

const lookup = () =>
  cluster()
    .keyspace('customer', { shards: ['-80', '80-'] })
    .keyspace('lookup', { shards: ['0'] })
    .lookup('corder_lookup', {
      from: 'customer',
      to: 'lookup',
      table: 'corder_lookup',
      ownerTable: 'corder',
      owned: true,
    });

const externalize = { action: { ...DEFAULT_ACTION_REQUEST, action: 'externalize' as const } };

checkTester(check, {
  valid: [
    { name: 'a lookup vindex backfill', model: lookup(), options: externalize, reasons: ['notLookupBackfill'] },
    {
      name: 'a MoveTables under the default action (judged by SwitchTraffic)',
      model: moveTablesScenario(),
      reasons: ['notLookupBackfill'],
    },
  ],
  invalid: [
    {
      name: 'a MoveTables judged by --action externalize',
      model: moveTablesScenario(),
      options: externalize,
      findings: [
        {
          keyspace: 'customer',
          workflow: 'commerce2customer',
          reason: 'notLookupBackfill',
          message: 'customer.commerce2customer is a MoveTables workflow, not a lookup vindex backfill to externalize',
        },
      ],
    },
  ],
});
