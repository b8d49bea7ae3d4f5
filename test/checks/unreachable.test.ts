import check from '../../checks/unreachable.js';
import { checkTester } from '../helpers/check-tester.js';
import { cluster } from '../helpers/cluster.js';
import { joinRegExp } from '../helpers/regexp.js';

const base = () =>
  cluster()
    .keyspace('customer', { shards: ['0', '-80', '80-'], notServing: ['-80', '80-'] })
    .reshard('cust2cust', { keyspace: 'customer', from: ['0'], to: ['-80', '80-'] });

/** GetFullStatus of a tablet that vtctld could not reach: its tablet manager does not answer. */
const DOWN = {
  error: 'UNAVAILABLE: connection error: dial tcp 10.0.0.11:16111: connect: connection refused',
  code: 'UNAVAILABLE',
  kind: 'unavailable' as const,
};

checkTester(check, {
  valid: [
    {
      name: 'everything read, copy_state, the log and the journal included',
      reasons: ['partialRead', 'notRead'],
      model: base(),
    },
    {
      name: 'a primary outside the selection is not read on purpose: no gap',
      reasons: ['primaryUnreadable'],
      model: base()
        .keyspace('commerce', { shards: ['0'] })
        .notRead('commerce', '0'),
    },
    {
      name: 'a tablet whose status was not asked for (not needed by any check) is no gap',
      reasons: ['notReadInTime'],
      model: (() => {
        const b = base();
        return b.fullStatusNotAsked(b.replica('customer', '-80'));
      })(),
    },
    {
      // --via vtctld reads the sidecar through the primary's tablet manager (the read itself proves it answers).
      name: 'a target primary whose status was not asked: its sidecar read reached it',
      reasons: ['targetPrimaryNotAnswering'],
      model: (() => {
        const b = base();
        return b.fullStatusNotAsked(b.primary('customer', '-80'));
      })(),
    },
    {
      name: 'an optional RPC this vtctld lacks (UNIMPLEMENTED) is no failed vtctld call',
      reasons: ['vtctldReadFailed'],
      model: base().rpc('GetMirrorRules', false),
    },
    {
      // keyspace.go RefreshTabletsByShard: `if ti.Hostname == ""` … "we just skip this tablet"; vtctld cannot dial it
      // either, so its failed GetFullStatus is no gap (src/model/build.ts).
      name: 'a tablet without a hostname does not answer GetFullStatus: the refresh skips it, nothing to report',
      reasons: ['tabletUnreachable', 'tabletStatusFailed', 'tabletStatusNotRead'],
      model: (() => {
        const b = base();
        const t = b.replica('customer', '-80');
        return b.patchTablet(t, { hostname: '' }).fullStatusOf(t, DOWN);
      })(),
    },
  ],
  invalid: [
    {
      name: 'a primary whose MySQL refuses connections',
      model: base().unreadable('customer', '80-', 'cannot connect to 127.0.0.1:17120: ECONNREFUSED'),
      findings: [
        {
          keyspace: 'customer',
          shard: '80-',
          tablet: 'zone1-0000000120',
          message: joinRegExp(
            /^could not read the streams of customer\/80- on zone1-0000000120 /,
            /\(127\.0\.0\.1:17120\): connect failed: cannot connect/,
          ),
          details: { reason: 'primaryUnreadable', kind: 'connect-refused' },
        },
      ],
    },
    {
      // server.go canSwitch: refreshTablets(ts.TargetShards(), "target") → keyspace.go RefreshTabletsByShard →
      // RefreshState on every tablet with a hostname; one failure ⇒ the per-shard line and the refusal.
      name: 'a target replica whose tablet manager cannot be reached predicts the refresh refusal',
      model: (() => {
        const b = base();
        return b.fullStatusOf(b.replica('customer', '-80'), DOWN);
      })(),
      findings: [
        {
          keyspace: 'customer',
          shard: '-80',
          tablet: 'zone1-0000000111',
          message: /^tablet zone1-0000000111 of customer\/-80 did not answer GetFullStatus/,
          details: {
            reason: 'tabletUnreachable',
            code: 'UNAVAILABLE',
            vitessError:
              'could not refresh all of the tablets involved in the operation:\nfailed to successfully refresh all tablets in the customer/-80 target shard (<nil>):\n  failed to refresh tablet zone1-0000000111: …\n',
          },
        },
      ],
    },
    {
      name: 'the source side: a source replica not answering names the source shard',
      model: (() => {
        const b = base();
        return b.fullStatusOf(b.replica('customer', '0'), DOWN);
      })(),
      findings: [
        {
          shard: '0',
          details: { reason: 'tabletUnreachable', vitessError: /in the customer\/0 source shard \(<nil>\)/ },
        },
      ],
    },
    {
      // The readout's typed kind (ReadError.kind, from the gRPC status where the read failed) decides, not the text.
      name: 'the typed kind decides: unavailable, whatever the text says',
      model: (() => {
        const b = base();
        return b.fullStatusOf(b.replica('customer', '80-'), { error: 'tablet is down', kind: 'unavailable' });
      })(),
      findings: [{ shard: '80-', details: { reason: 'tabletUnreachable', kind: 'unavailable', code: undefined } }],
    },
    {
      name: 'the typed kind decides: a timeout is no refresh refusal, even when the text begins UNAVAILABLE',
      model: (() => {
        const b = base();
        return b.fullStatusOf(b.replica('customer', '80-'), {
          error: 'UNAVAILABLE: connection error: dial tcp 10.0.0.12:16111: i/o timeout',
          kind: 'timeout',
        });
      })(),
      findings: [
        {
          severity: 'warning',
          shard: '80-',
          message: /did not answer GetFullStatus in time/,
          details: { reason: 'tabletStatusFailed', kind: 'timeout', vitessError: undefined },
        },
      ],
    },
    {
      // An older readout (no kind): the kind is derived from what it recorded (src/sources/read-kind.ts).
      name: 'an older readout without kinds: UNAVAILABLE recorded as a code still predicts the refresh refusal',
      model: (() => {
        const b = base();
        return b.fullStatusOf(b.replica('customer', '80-'), { error: 'tablet is down', code: 'UNAVAILABLE' });
      })(),
      findings: [{ shard: '80-', details: { reason: 'tabletUnreachable', kind: 'unavailable', code: 'UNAVAILABLE' } }],
    },
    {
      // A timeout cannot tell a tablet that is gone (the refresh fails) from a stalled mysqld (FullStatus waits on
      // MySQL; RefreshState does not): not ready, but no refusal quoted.
      name: 'a replica that times out on GetFullStatus: status unknown, a warning, no refresh refusal quoted',
      model: (() => {
        const b = base();
        return b.fullStatusOf(b.replica('customer', '-80'), {
          error: 'DEADLINE_EXCEEDED: context deadline exceeded',
          code: 'DEADLINE_EXCEEDED',
          kind: 'timeout',
          timedOut: true,
        });
      })(),
      findings: [
        {
          severity: 'warning',
          tablet: 'zone1-0000000111',
          message: /did not answer GetFullStatus in time .*either the tablet is down/,
          details: { reason: 'tabletStatusFailed', vitessError: undefined, kind: 'timeout', code: 'DEADLINE_EXCEEDED' },
        },
      ],
    },
    {
      // canSwitch is skipped when writes are switched ("writes already switched no need to check lag"): no refresh.
      name: 'writes already switched: canSwitch (and its refresh) is skipped, an unreachable tablet is a warning',
      model: (() => {
        const b = cluster()
          .keyspace('customer', { shards: ['0', '-80', '80-'], notServing: ['0'] })
          .reshard('cust2cust', { keyspace: 'customer', from: ['0'], to: ['-80', '80-'] });
        return b.fullStatusOf(b.replica('customer', '-80'), DOWN);
      })(),
      findings: [
        {
          severity: 'warning',
          message: /did not answer GetFullStatus \(UNAVAILABLE.*\): its status is unknown; no selected workflow's/,
          details: { reason: 'tabletStatusFailed', vitessError: undefined },
        },
      ],
    },
    {
      // utils.go BuildTargets: FindAllShardsInKeyspace, then for every shard record GetTablet(primary) and
      // tmc.ReadVReplicationWorkflow on it — streams or not. A primary whose tablet manager is down fails every action
      // on the workflow before canSwitch (a MySQL read of its sidecar, --via mysql, does not show that).
      name: 'the primary of a target-keyspace shard without streams does not answer: BuildTargets fails',
      model: (() => {
        const b = cluster()
          .keyspace('customer', { shards: ['0', '-80', '80-', '80-c0'], notServing: ['-80', '80-'] })
          .reshard('cust2cust', { keyspace: 'customer', from: ['0'], to: ['-80', '80-'] });
        return b.fullStatusOf(b.primary('customer', '80-c0'), DOWN);
      })(),
      findings: [
        {
          severity: 'error',
          shard: '80-c0',
          message: joinRegExp(
            /^primary \S+ of customer\/80-c0 did not answer GetFullStatus .*\(BuildTargets\), which fails there /,
            /before anything is changed: Vitess passes the ReadVReplicationWorkflow error through unwrapped, /,
            /so what it prints is the RPC error itself \(no Vitess text of its own to quote\)$/,
          ),
          details: { reason: 'targetPrimaryNotAnswering', vitessError: undefined },
        },
      ],
    },
    {
      name: 'a target primary with streams not answering: BuildTargets fails before the refresh',
      model: (() => {
        const b = base();
        return b.fullStatusOf(b.primary('customer', '80-'), DOWN);
      })(),
      findings: [{ severity: 'error', shard: '80-', details: { reason: 'targetPrimaryNotAnswering' } }],
    },
    {
      // BuildTargets keeps the shards with the workflow's streams; canSwitch refreshes only ts.TargetShards().
      name: 'a tablet of a target-keyspace shard without streams of the workflow is not refreshed: a warning',
      model: (() => {
        const b = cluster()
          .keyspace('customer', { shards: ['0', '-80', '80-', '80-c0'], notServing: ['-80', '80-'] })
          .reshard('cust2cust', { keyspace: 'customer', from: ['0'], to: ['-80', '80-'] });
        return b.fullStatusOf(b.replica('customer', '80-c0'), DOWN);
      })(),
      findings: [{ severity: 'warning', shard: '80-c0', details: { reason: 'tabletStatusFailed' } }],
    },
    {
      // rpc_actions.go RefreshState only re-reads the tablet record; rpc_replication.go FullStatus
      // fails when mysqld is down while vttablet answers. No refresh refusal is predicted for it.
      name: 'a replica whose mysqld is down answers GetFullStatus with an error: information, no refresh refusal',
      model: (() => {
        const b = base();
        return b.fullStatusOf(b.replica('customer', '-80'), {
          error: 'UNKNOWN: dial unix /vt/vtdataroot/vt_0000000111/mysql.sock: connect: no such file or directory',
          code: 'UNKNOWN',
          kind: 'rpc-error',
        });
      })(),
      findings: [
        {
          severity: 'info',
          tablet: 'zone1-0000000111',
          message: joinRegExp(
            /^GetFullStatus failed on 1 tablet \(zone1-0000000111\): it answered: UNKNOWN: dial unix .*\. /,
            /No workflow action calls it .*so only vtpreflight's own view of its binlog settings/,
          ),
          details: { reason: 'tabletStatusNotRead', vitessError: undefined, mariadb: false },
        },
      ],
    },
    {
      // A MariaDB tablet: FullStatus reads @@global.super_read_only (rpc_replication.go:136 @v0.24.4), which MariaDB
      // lacks; every tablet answers so. Said once for all of them, naming MariaDB; no action calls FullStatus.
      name: 'every tablet on MariaDB fails GetFullStatus on super_read_only: one information finding naming MariaDB',
      model: (() => {
        const b = base();
        const mariadb = {
          error:
            "rpc error: code = Unknown desc = Unknown system variable 'super_read_only' (errno 1193) (sqlstate HY000) during query: SELECT @@global.super_read_only",
          code: 'UNKNOWN',
          kind: 'sql-error' as const,
        };
        for (const sh of ['0', '-80', '80-']) {
          b.fullStatusOf(b.primary('customer', sh), mariadb);
          b.fullStatusOf(b.replica('customer', sh), mariadb);
        }
        return b;
      })(),
      findings: [
        {
          severity: 'info',
          shard: undefined,
          tablet: undefined,
          message: /^GetFullStatus failed on 6 tablets \(.*\): its MySQL is MariaDB, which has no super_read_only/,
          details: { reason: 'tabletStatusNotRead', mariadb: true },
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
      // Declared reads (src/reads/registry.ts): no warning, one info line for all of them, grouped by read.
      name: 'refused optional reads on several primaries: one info line naming each read and its grant',
      model: base()
        .activity('customer', '-80', {
          transactions: {
            error:
              'Access denied; you need (at least one of) the PROCESS privilege(s) (ER_SPECIFIC_ACCESS_DENIED_ERROR 1227)',
          },
        })
        .activity('customer', '80-', {
          transactions: {
            error:
              'Access denied; you need (at least one of) the PROCESS privilege(s) (ER_SPECIFIC_ACCESS_DENIED_ERROR 1227)',
          },
        })
        .filteredUserGrants('customer', '0', {
          error: "SELECT command denied to user 'ro'@'%' for table 'user' (ER_TABLEACCESS_DENIED_ERROR 1142)",
        }),
      findings: [
        {
          severity: 'info',
          keyspace: undefined,
          shard: undefined,
          message: joinRegExp(
            /^not read, so not judged: information_schema\.INNODB_TRX and PROCESSLIST on 2 primaries \(needs PROCESS /,
            /ON \*\.\*\); mysql\.user, mysql\.db and mysql\.tables_priv \(privilege columns of the filtered /,
            /user\) on 1 primary \(needs SELECT \(Host, User, Select_priv, Insert_priv, Update_priv, Delete_priv\) /,
            /ON mysql\.user, /,
            /.*ON mysql\.tables_priv\)$/,
          ),
          details: { reason: 'notRead' },
        },
      ],
    },
    {
      name: 'vtctld dying during the GetFullStatus calls is one finding about vtctld, no tablet blamed',
      model: (() => {
        const b = base();
        const down = {
          error: 'UNAVAILABLE: connection refused',
          cause: 'vtctld' as const,
          kind: 'unavailable' as const,
        };
        return b
          .fullStatusOf(b.primary('customer', '-80'), down)
          .fullStatusOf(b.replica('customer', '-80'), down)
          .fullStatusOf(b.primary('customer', '80-'), down);
      })(),
      findings: [
        {
          keyspace: undefined,
          tablet: undefined,
          message: joinRegExp(
            /^vtctld at \(tablet zone1-0000000110\) stopped answering during the read: 3 calls failed \(GetFullStatus /,
            /zone1-0000000110, GetFullStatus zone1-0000000111, GetFullStatus zone1-0000000120\): UNAVAILABLE: /,
            /connection refused$/,
          ),
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
          kind: 'not-attempted',
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
