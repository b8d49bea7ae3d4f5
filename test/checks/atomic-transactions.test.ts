/**
 * atomic-transactions: 2PC records on a Reshard's source primaries. #20002 (dt_state ignored by the drain,
 * participants orphaned; PR #20060 closed), PR #16844 (the refresh waits for the prepared pool).
 */
import check from '../../checks/atomic-transactions.js';
import type { TwoPcRow } from '../../src/readout.js';
import { checkTester } from '../helpers/check-tester.js';
import { cluster } from '../helpers/cluster.js';
import { moveTablesScenario } from '../helpers/reshard-scenario.js';

/** customer 0 → -80, 80-: Reshard cust2cust (source primary zone1-0000000100). */
const reshard = () =>
  cluster()
    .keyspace('customer', { shards: ['0', '-80', '80-'], notServing: ['-80', '80-'] })
    .reshard('cust2cust', { keyspace: 'customer', from: ['0'], to: ['-80', '80-'] });

/** commerce/0 → customer: MoveTables (no query service stops on its sources). */
const moveTables = () => moveTablesScenario(['customer']);

const row = (dtid: string, state = 1, time_created = '1764590000000000000'): TwoPcRow => ({
  dtid,
  state,
  time_created,
});
/** CAPTURED_AT (2026-01-01T00:00:00Z) in ns, minus `s` seconds. */
const before = (s: number) => (1767225600n * 1_000_000_000n - BigInt(s) * 1_000_000_000n).toString();
const NONE = { dtState: [], redoState: [] };

checkTester(check, {
  valid: [
    { name: 'no 2PC record on the source primary', model: reshard().primaryRead('customer', '0', 'twoPc', NONE) },
    {
      name: 'a server without the 2PC tables (older Vitess): nothing in flight',
      model: reshard().primaryRead('customer', '0', 'twoPc', { dtState: null, redoState: null }),
    },
    { name: 'not read (an older readout)', model: reshard() },
    {
      name: 'a MoveTables source coordinating atomic transactions: its query service stays up',
      model: moveTables().primaryRead('commerce', '0', 'twoPc', {
        dtState: [row('commerce:0:1')],
        redoState: [row('commerce:0:1')],
      }),
      reasons: ['coordinatedTransactions', 'preparedTransactions'],
    },
    {
      name: 'records on a target shard of the Reshard, not a source',
      model: reshard().primaryRead('customer', '-80', 'twoPc', {
        dtState: [row('customer:-80:7')],
        redoState: [row('x:1')],
      }),
      reasons: ['coordinatedTransactions', 'preparedTransactions'],
    },
    {
      name: 'a refused read is a read failure (unreachable), not judged here',
      model: reshard().primaryReadFails(
        'customer',
        '0',
        'twoPc',
        "SELECT command denied to user 'ro'@'%' for table 'dt_state'",
      ),
      reasons: ['coordinatedTransactions'],
    },
    {
      name: 'records 9 s old at the read: the normal traffic of a busy 2PC cluster, resolved in milliseconds',
      model: reshard().primaryRead('customer', '0', 'twoPc', {
        dtState: [row('customer:0:43', 1, before(9))],
        redoState: [row('other:-80:10', 1, before(0))],
      }),
      reasons: ['coordinatedTransactions', 'preparedTransactions'],
    },
  ],
  invalid: [
    {
      name: 'a record exactly 10 s old at the read is reported',
      model: reshard().primaryRead('customer', '0', 'twoPc', {
        dtState: [row('customer:0:44', 1, before(10))],
        redoState: [],
      }),
      findings: [{ reason: 'coordinatedTransactions', details: { count: 1, dtids: ['customer:0:44'] } }],
    },
    {
      name: 'the source primary coordinates unresolved atomic transactions (#20002)',
      model: reshard().primaryRead('customer', '0', 'twoPc', {
        dtState: [row('customer:0:42'), row('customer:0:41', 3)],
        redoState: [],
      }),
      findings: [
        {
          reason: 'coordinatedTransactions',
          severity: 'warning',
          keyspace: 'customer',
          shard: '0',
          workflow: 'cust2cust',
          message:
            'source primary customer/0 coordinates 2 atomic transaction(s) unresolved for 10s or more in dt_state (customer:0:42, customer:0:41): the write switch of customer.cust2cust stops its query service without waiting for them, orphaning their participants (#20002)',
          details: { count: 2, dtids: ['customer:0:42', 'customer:0:41'], states: [1, 3] },
        },
      ],
    },
    {
      name: 'the source primary holds prepared atomic transactions (PR #16844 waits for them)',
      model: reshard().primaryRead('customer', '0', 'twoPc', { dtState: [], redoState: [row('other:-80:9')] }),
      findings: [{ reason: 'preparedTransactions', severity: 'warning', shard: '0', details: { count: 1 } }],
    },
  ],
});
