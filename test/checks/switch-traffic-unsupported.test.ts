import check from '../../checks/switch-traffic-unsupported.js';
import { checkTester } from '../helpers/check-tester.js';
import { cluster } from '../helpers/cluster.js';

const imported = (type: 'Migrate' | 'MoveTables') =>
  cluster()
    .keyspace('commerce', { shards: ['0'] })
    .keyspace('customer', { shards: ['0'] })
    .stream('customer', '0', 1, {
      workflow: 'import1',
      type,
      sourceKeyspace: 'commerce',
      sourceShard: '0',
      rules: [{ match: 'customer', filter: 'select * from customer' }],
    });

checkTester(check, {
  valid: [
    { name: 'a MoveTables is switched by SwitchTraffic', model: imported('MoveTables'), reasons: ['migrateWorkflow'] },
  ],
  invalid: [
    {
      // server.go WorkflowSwitchTraffic: startState.WorkflowType == TypeMigrate.
      name: 'a Migrate workflow (workflow_type 3)',
      model: imported('Migrate'),
      findings: [
        {
          keyspace: 'customer',
          workflow: 'import1',
          message: 'workflow customer.import1 is a Migrate workflow, which SwitchTraffic refuses',
          details: { reason: 'migrateWorkflow', vitessError: 'invalid action for Migrate workflow: SwitchTraffic' },
        },
      ],
    },
  ],
});
