/**
 * leftover-online-ddl. Upstream: `vitessio/vitess:go/vt/vtctl/workflow/stream_migrator.go` `readSourceStreams` refuses
 * a source shard with a Stopped row (`cannot migrate until all streams are running: %s: %d`), and `readTabletStreams`
 * reads every row but the Reshard's `_reverse` one, Online DDL included (vitessio/vitess#20838: a finished Online DDL
 * keeps its row Stopped for the retention period).
 */
import check from '../../checks/leftover-online-ddl.js';
import { checkTester } from '../helpers/check-tester.js';
import { cluster, type ClusterBuilder } from '../helpers/cluster.js';

const sweep = { sweep: true };
const UUID = '2d1b4a5e_8f3c_11ef_9a1b_0a1b2c3d4e5f';
const onlineDdl = (b: ClusterBuilder, shard: string, state: string): ClusterBuilder =>
  b.stream('customer', shard, 7, {
    workflow: UUID,
    type: 'OnlineDDL',
    sourceKeyspace: 'customer',
    sourceShard: shard,
    rules: [{ match: '_vt_vrp_2d1b4a5e8f3c11ef9a1b0a1b2c3d4e5f_20251201120000_', filter: 'select * from corder' }],
    state,
    message: state === 'Running' ? '' : 'stopped for online DDL cutover',
  });
// customer -80 (…100), 80- (…110).
const customer = () => cluster().keyspace('customer', { shards: ['-80', '80-'] });

checkTester(check, {
  valid: [
    { name: 'no Online DDL rows', model: customer(), options: sweep },
    {
      name: 'a running Online DDL migration',
      reasons: ['stoppedOnlineDdlRows'],
      model: onlineDdl(customer(), '-80', 'Running'),
      options: sweep,
    },
    {
      name: 'check (not sweep): no action check judges reads these rows but a Reshard’s (source-streams-not-running)',
      reasons: ['stoppedOnlineDdlRows'],
      model: onlineDdl(
        cluster()
          .keyspace('customer', { shards: ['-80', '80-', '-40', '40-80'], notServing: ['-40', '40-80'] })
          .reshard('split', { keyspace: 'customer', from: ['-80'], to: ['-40', '40-80'] }),
        '-80',
        'Stopped',
      ),
    },
    {
      name: 'the primary was not read',
      reasons: ['stoppedOnlineDdlRows'],
      model: onlineDdl(customer(), '-80', 'Stopped').unreadable('customer', '-80'),
      options: sweep,
    },
  ],
  invalid: [
    {
      name: 'a finished Online DDL waits for garbage collection: a Reshard of customer would refuse',
      model: onlineDdl(customer(), '80-', 'Stopped'),
      options: sweep,
      findings: [
        {
          severity: 'warning',
          keyspace: 'customer',
          shard: '80-',
          tablet: 'zone1-0000000110',
          message: `customer/80- holds a stopped Online DDL row (${UUID}) awaiting garbage collection: a Reshard of customer reading this shard refuses to switch writes until it is gone`,
          details: {
            reason: 'stoppedOnlineDdlRows',
            vitessError: 'cannot migrate until all streams are running: 80-: 110',
            migrations: [UUID],
            states: ['Stopped'],
          },
        },
      ],
    },
    {
      name: 'sweep: the rows on the sources of a Reshard in progress and on another shard',
      model: onlineDdl(
        onlineDdl(
          cluster()
            .keyspace('customer', { shards: ['-80', '80-', '-40', '40-80'], notServing: ['-40', '40-80'] })
            .reshard('split', { keyspace: 'customer', from: ['-80'], to: ['-40', '40-80'] }),
          '-80',
          'Stopped',
        ),
        '80-',
        'Error',
      ),
      options: sweep,
      findings: [
        { shard: '-80', details: { reason: 'stoppedOnlineDdlRows', states: ['Stopped'] } },
        { shard: '80-', details: { reason: 'stoppedOnlineDdlRows', states: ['Error'] } },
      ],
    },
  ],
});
