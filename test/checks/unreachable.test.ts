import check from '../../checks/unreachable.js';
import { checkTester } from '../helpers/check-tester.js';
import { cluster } from '../helpers/cluster.js';

const base = () =>
  cluster()
    .keyspace('customer', { shards: ['0', '-80', '80-'], notServing: ['-80', '80-'] })
    .reshard('cust2cust', { keyspace: 'customer', from: ['0'], to: ['-80', '80-'] });

checkTester(check, {
  valid: [{ name: 'everything read', model: base() }],
  invalid: [
    {
      name: 'a primary whose MySQL refuses connections',
      model: base().unreadable('customer', '80-', 'cannot connect to 127.0.0.1:17120: ECONNREFUSED'),
      findings: [
        {
          keyspace: 'customer',
          shard: '80-',
          tablet: 'zone1-0000000120',
          message:
            /^could not read the streams of customer\/80- on zone1-0000000120 \(127\.0\.0\.1:17120\): connect failed: cannot connect/,
          details: { reason: 'primaryUnreadable' },
        },
      ],
    },
    {
      name: 'a replica that does not answer GetFullStatus predicts the refresh refusal',
      model: (() => {
        const b = base();
        return b.fullStatusOf(b.replica('customer', '-80'), { error: 'DEADLINE_EXCEEDED: context deadline exceeded' });
      })(),
      findings: [
        {
          keyspace: 'customer',
          shard: '-80',
          tablet: 'zone1-0000000111',
          message: /^tablet zone1-0000000111 of customer\/-80 did not answer GetFullStatus/,
          details: {
            reason: 'tabletUnreachable',
            vitessError: 'could not refresh all of the tablets involved in the operation:\n…',
          },
        },
      ],
    },
    {
      // FIDELITY-AUDIT §18: rpc_actions.go RefreshState only re-reads the tablet record; rpc_replication.go FullStatus
      // fails when mysqld is down while vttablet answers. No refresh refusal is predicted for it.
      name: 'a replica whose mysqld is down answers GetFullStatus with an error: a warning, no refresh refusal',
      model: (() => {
        const b = base();
        return b.fullStatusOf(b.replica('customer', '-80'), {
          error: 'UNKNOWN: dial unix /vt/vtdataroot/vt_0000000111/mysql.sock: connect: no such file or directory',
        });
      })(),
      findings: [
        {
          severity: 'warning',
          tablet: 'zone1-0000000111',
          details: { reason: 'tabletStatusFailed', vitessError: undefined },
        },
      ],
    },
    {
      name: 'a vtctld call that failed',
      model: base().topologyUnreadable('routingRules', 'UNAVAILABLE: connection reset'),
      findings: [
        {
          message: /^GetRoutingRules failed at vtctld 127\.0\.0\.1:15999: UNAVAILABLE/,
          details: { reason: 'vtctldReadFailed' },
        },
      ],
    },
    {
      // A warning here; the workflow it concerns is unverified and the gate fails (test/engine/verdict.test.ts).
      name: 'copy_state unreadable is a warning: streams were still read',
      model: base().copyStateUnreadable('customer', '-80'),
      findings: [{ severity: 'warning', shard: '-80', details: { reason: 'partialRead' } }],
    },
    {
      name: 'vtctld dying during the GetFullStatus calls is one finding about vtctld, no tablet blamed',
      model: (() => {
        const b = base();
        const down = { error: 'UNAVAILABLE: connection refused', cause: 'vtctld' as const };
        return b
          .fullStatusOf(b.primary('customer', '-80'), down)
          .fullStatusOf(b.replica('customer', '-80'), down)
          .fullStatusOf(b.primary('customer', '80-'), down);
      })(),
      findings: [
        {
          keyspace: undefined,
          tablet: undefined,
          message:
            /^vtctld at \(tablet zone1-0000000110\) stopped answering during the read: 3 calls failed \(GetFullStatus zone1-0000000110, GetFullStatus zone1-0000000111, GetFullStatus zone1-0000000120\): UNAVAILABLE: connection refused$/,
          details: { reason: 'vtctldReadFailed' },
        },
      ],
    },
    {
      name: 'a tablet the run deadline left unasked is not reported as unreachable (no refresh prediction)',
      model: (() => {
        const b = base();
        return b.fullStatusOf(b.replica('customer', '80-'), {
          error: 'not sent: the run deadline (--deadline) had passed',
          cause: 'deadline',
          timedOut: true,
        });
      })(),
      findings: [
        {
          shard: '80-',
          tablet: 'zone1-0000000121',
          message: /^GetFullStatus for customer\/80- was not read before the run deadline \(--deadline\)/,
          severity: 'warning',
          details: { reason: 'notReadInTime', vitessError: undefined },
        },
      ],
    },
  ],
});
