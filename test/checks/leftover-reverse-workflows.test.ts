/**
 * leftover-reverse-workflows. Upstream: SwitchTraffic always creates
 * `<workflow>_reverse` (`vitessio/vitess:go/vt/vtctl/workflow/traffic_switcher.go` `createReverseVReplication`) and
 * starts it only with `--enable-reverse-replication` (default true); ReverseTraffic judges its lag like a forward
 * switch (`cannot switch traffic for workflow %s at this time: replication lag %ds is higher than allowed lag %ds`).
 */
import check from '../../checks/leftover-reverse-workflows.js';
import { checkTester } from '../helpers/check-tester.js';
import { cluster, type ClusterBuilder } from '../helpers/cluster.js';

const sweep = { sweep: true };
const keyspaces = () =>
  cluster()
    .keyspace('commerce', { shards: ['0'] })
    .keyspace('customer', { shards: ['-80'] });
const forward = (b: ClusterBuilder) =>
  b.stream('customer', '-80', 1, {
    workflow: 'c2c',
    type: 'MoveTables',
    sourceKeyspace: 'commerce',
    sourceShard: '0',
    rules: [{ match: 'customer', filter: 'select * from customer' }],
    message: 'FROZEN',
  });
const reverse = (b: ClusterBuilder, state: string) =>
  b.stream('commerce', '0', 1, {
    workflow: 'c2c_reverse',
    type: 'MoveTables',
    sourceKeyspace: 'customer',
    sourceShard: '-80',
    rules: [{ match: 'customer', filter: 'select * from customer' }],
    state,
  });

checkTester(check, {
  valid: [
    {
      // traffic_switcher.go freezeTargetVReplication: a write ReverseTraffic stops and freezes `_reverse`.
      name: 'after a write ReverseTraffic: the reverse workflow is Stopped and FROZEN by design',
      reasons: ['reverseStopped'],
      model: keyspaces()
        .stream('customer', '-80', 1, {
          workflow: 'c2c',
          type: 'MoveTables',
          sourceKeyspace: 'commerce',
          sourceShard: '0',
          rules: [{ match: 'customer', filter: 'select * from customer' }],
        })
        .stream('commerce', '0', 1, {
          workflow: 'c2c_reverse',
          type: 'MoveTables',
          sourceKeyspace: 'customer',
          sourceShard: '-80',
          rules: [{ match: 'customer', filter: 'select * from customer' }],
          state: 'Stopped',
          message: 'FROZEN',
        }),
      options: sweep,
    },
    {
      name: 'a running reverse workflow next to its forward one',
      reasons: ['reverseStopped'],
      model: reverse(forward(keyspaces()), 'Running'),
      options: sweep,
    },
    {
      name: 'the forward workflow lives on a primary that was not read',
      reasons: ['reverseWithoutForward'],
      model: reverse(keyspaces(), 'Running').unreadable('customer', '-80'),
      options: sweep,
    },
  ],
  invalid: [
    {
      name: 'switched with --enable-reverse-replication=false: the reverse workflow is Stopped',
      model: reverse(forward(keyspaces()), 'Stopped'),
      options: sweep,
      findings: [
        {
          severity: 'warning',
          keyspace: 'commerce',
          workflow: 'c2c_reverse',
          message:
            'reverse workflow commerce.c2c_reverse is Stopped (switched with --enable-reverse-replication=false, or stopped since): it falls behind, so ReverseTraffic of customer.c2c refuses for lag or has nothing current to send back',
          details: { reason: 'reverseStopped', forwardWorkflow: 'customer.c2c' },
        },
      ],
    },
    {
      name: 'a Complete that failed half-way left the reverse workflow alone',
      model: reverse(keyspaces(), 'Running'),
      options: sweep,
      findings: [
        {
          severity: 'warning',
          workflow: 'c2c_reverse',
          message:
            'commerce.c2c_reverse has no forward workflow c2c in customer (left by a Complete or Cancel that failed half-way): nothing will complete it',
          details: {
            reason: 'reverseWithoutForward',
            clean: 'vtctldclient Workflow --keyspace commerce delete --workflow c2c_reverse',
          },
        },
      ],
    },
  ],
});
