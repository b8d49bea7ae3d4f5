import check from '../../checks/mirror-traffic.js';
import { DEFAULT_ACTION_REQUEST, type TabletTypeName } from '../../src/engine/options.js';
import { givenVitessVersions } from '../../src/vitess/versions.js';
import { moveTablesRules, type SwitchedType } from '../helpers/actions.js';
import { checkTester } from '../helpers/check-tester.js';
import { cluster } from '../helpers/cluster.js';
import { moveTablesScenario } from '../helpers/reshard-scenario.js';

// commerce/0 (…100) → customer -80 (…110), 80- (…120): MoveTables commerce2customer of customer, corder.
const switched = (types: readonly SwitchedType[]) =>
  moveTablesScenario()
    .routing(moveTablesRules('commerce', 'customer', ['customer', 'corder'], types))
    .servingGraph();

const mirror = (tabletTypes: TabletTypeName[] | null = null, version?: string) => ({
  action: { ...DEFAULT_ACTION_REQUEST, action: 'mirror' as const, tabletTypes },
  ...(version !== undefined ? { vitess: givenVitessVersions(version, 'flag') } : {}),
});
const WF = { keyspace: 'customer', workflow: 'commerce2customer' };

checkTester(check, {
  valid: [
    {
      name: 'a MoveTables with nothing switched',
      model: switched([]),
      options: mirror(),
      reasons: ['notMoveTables', 'reverseWorkflow', 'partialMigration', 'multiTenantMigration', 'typesSwitched'],
    },
    {
      name: 'every mirror rule already there (MirrorTraffic run again with another percentage)',
      model: switched([]).mirrorRules(
        ['customer', 'corder'].flatMap((t) =>
          ['', '@replica', '@rdonly'].map((sfx) => ({
            fromTable: `commerce.${t}${sfx}`,
            toTable: `customer.${t}`,
            percent: 10,
          })),
        ),
      ),
      options: mirror(),
      reasons: ['wrongMirrorRuleCount'],
    },
    {
      name: 'mirror rules of another target keyspace only',
      model: switched([]).mirrorRules([{ fromTable: 'commerce.customer', toTable: 'other.customer', percent: 10 }]),
      options: mirror(),
      reasons: ['wrongMirrorRuleCount'],
    },
    {
      name: 'mirroring the primary traffic only, with the reads switched',
      model: switched(['replica', 'rdonly']),
      options: mirror(['primary']),
      reasons: ['typesSwitched'],
    },
    {
      name: 'on v21, where MirrorTraffic exists',
      model: switched([]),
      options: mirror(null, '21.0'),
      reasons: ['noMirrorTrafficBeforeV21'],
    },
  ],
  invalid: [
    {
      // server.go WorkflowMirrorTraffic: startState.WorkflowType != TypeMoveTables.
      name: 'a Reshard',
      model: cluster()
        .keyspace('customer', { shards: ['0', '-80', '80-'], notServing: ['-80', '80-'] })
        .reshard('cust2cust', { keyspace: 'customer', from: ['0'], to: ['-80', '80-'] })
        .servingGraph(),
      options: mirror(),
      findings: [
        {
          keyspace: 'customer',
          workflow: 'cust2cust',
          reason: 'notMoveTables',
          details: { vitessError: 'invalid action for Reshard workflow: MirrorTraffic' },
        },
      ],
    },
    {
      name: 'a workflow named like a reverse workflow',
      model: cluster()
        .keyspace('commerce', { shards: ['0'] })
        .keyspace('customer', { shards: ['-80', '80-'] })
        .moveTables('c2c_reverse', { from: 'commerce', to: 'customer', tables: ['customer'], column: 'customer_id' })
        .servingGraph(),
      options: mirror(),
      findings: [
        {
          keyspace: 'customer',
          workflow: 'c2c_reverse',
          reason: 'reverseWorkflow',
          details: { vitessError: 'invalid action for reverse workflow: MirrorTraffic' },
        },
      ],
    },
    {
      name: 'a partial MoveTables (shard by shard)',
      model: cluster()
        .keyspace('commerce', { shards: ['-80', '80-'] })
        .keyspace('customer', { shards: ['-80', '80-'] })
        .stream('customer', '-80', 1, {
          workflow: 'partial',
          type: 'MoveTables',
          sourceKeyspace: 'commerce',
          sourceShard: '-80',
          rules: [{ match: 'customer', filter: 'select * from customer' }],
        })
        .servingGraph(),
      options: mirror(),
      findings: [{ keyspace: 'customer', workflow: 'partial', reason: 'partialMigration' }],
    },
    {
      name: 'a multi-tenant MoveTables',
      model: switched([]).patchStream('customer', '-80', 1, { options: '{"tenant_id":"7"}' }),
      options: mirror(),
      findings: [{ ...WF, reason: 'multiTenantMigration' }],
    },
    {
      // server.go: the requested types whose traffic is switched, in the request's order.
      name: 'replica and rdonly reads already switched, default tablet types',
      model: switched(['replica', 'rdonly']),
      options: mirror(),
      findings: [
        {
          ...WF,
          reason: 'typesSwitched',
          details: {
            vitessError:
              'cannot mirror [replica,rdonly] traffic for workflow commerce2customer at this time: traffic for those tablet types is switched',
          },
        },
      ],
    },
    {
      // Upstream's own case (server_test.go "does not overwrite when some but not all mirror rules already exist"):
      // the three rules of one table exist, the other table's do not.
      name: 'the mirror rules of one of the two tables exist',
      model: switched([]).mirrorRules(
        ['', '@replica', '@rdonly'].map((sfx) => ({
          fromTable: `commerce.customer${sfx}`,
          toTable: 'customer.customer',
          percent: 25,
        })),
      ),
      options: mirror(),
      findings: [
        {
          ...WF,
          reason: 'wrongMirrorRuleCount',
          details: { vitessError: 'wrong number of pre-existing mirror rules', expected: 6 },
        },
      ],
    },
    {
      name: 'on v20',
      model: switched([]),
      options: mirror(null, '20.0'),
      findings: [{ ...WF, reason: 'noMirrorTrafficBeforeV21' }],
    },
  ],
});
