/**
 * leftover-frozen-workflows. Upstream: `vitessio/vitess:go/vt/vtctl/workflow/
 * traffic_switcher.go` `freezeTargetVReplication` writes `FROZEN` at the write switch; `server.go` refuses a re-create
 * of the name and `Workflow start` of a frozen workflow (`cannot start a workflow when it is frozen`).
 */
import check from '../../checks/leftover-frozen-workflows.js';
import { checkTester } from '../helpers/check-tester.js';
import { cluster, NOW_SECONDS } from '../helpers/cluster.js';

const sweep = { sweep: true };
const DAY = 86400;
const switched = (agoSeconds: number) =>
  cluster()
    .keyspace('commerce', { shards: ['0'] })
    .keyspace('customer', { shards: ['-80', '80-'] })
    .moveTables('commerce2customer', { from: 'commerce', to: 'customer', tables: ['customer'], column: 'id' })
    .patchStream('customer', '-80', 1, { message: 'FROZEN', time_updated: NOW_SECONDS - agoSeconds })
    .patchStream('customer', '80-', 1, { message: 'FROZEN', time_updated: NOW_SECONDS - agoSeconds });

checkTester(check, {
  valid: [
    {
      name: 'a running workflow (not switched)',
      reasons: ['switchedRecently'],
      model: cluster()
        .keyspace('commerce', { shards: ['0'] })
        .keyspace('customer', { shards: ['-80', '80-'] })
        .moveTables('commerce2customer', { from: 'commerce', to: 'customer', tables: ['customer'], column: 'id' }),
      options: sweep,
    },
    {
      name: 'the _reverse workflow of a switch is not judged here (leftover-reverse-workflows)',
      reasons: ['switchedNotCompleted'],
      model: cluster()
        .keyspace('commerce', { shards: ['0'] })
        .keyspace('customer', { shards: ['-80'] })
        .stream('commerce', '0', 1, {
          workflow: 'commerce2customer_reverse',
          type: 'MoveTables',
          sourceKeyspace: 'customer',
          sourceShard: '-80',
          message: 'FROZEN',
          time_updated: NOW_SECONDS - 3 * DAY,
        }),
      options: sweep,
    },
  ],
  invalid: [
    {
      name: 'writes switched three days ago and never completed',
      model: switched(3 * DAY + 3600),
      options: sweep,
      findings: [
        {
          severity: 'warning',
          keyspace: 'customer',
          workflow: 'commerce2customer',
          message:
            'MoveTables customer.commerce2customer switched its writes 3d 1h ago (FROZEN) and was never completed: it blocks a re-create of commerce2customer, Workflow start and VDiff, and keeps its reverse workflow and routing rules',
          details: {
            reason: 'switchedNotCompleted',
            frozenStreams: ['-80:1', '80-:1'],
            clean: 'vtctldclient MoveTables --target-keyspace customer --workflow commerce2customer complete',
          },
        },
      ],
    },
    {
      name: 'writes switched two hours ago: Complete is next',
      model: switched(2 * 3600),
      options: sweep,
      findings: [
        {
          severity: 'info',
          message:
            'MoveTables customer.commerce2customer switched its writes 2h 0m ago (FROZEN): complete it once the switch is confirmed',
          details: { reason: 'switchedRecently', frozenForSeconds: 7200 },
        },
      ],
    },
  ],
});
