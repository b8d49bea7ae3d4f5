import check from '../../checks/source-streams-not-running.js';
import { checkTester } from '../helpers/check-tester.js';
import { NOW_SECONDS } from '../helpers/cluster.js';
import { external, reshardScenario } from '../helpers/reshard-scenario.js';
import { joinRegExp } from '../helpers/regexp.js';
import { moveTablesScenario } from '../helpers/reshard-scenario.js';

checkTester(
  check,
  {
    valid: [
      {
        name: 'the resharded keyspace vschema was not read: reference streams cannot be told apart, the migrator is not judged',
        model: reshardScenario()
          .patchStream('customer', '80-', 1, { state: 'Stopped', message: 'Stopped by user' })
          .vschemaUnreadable('customer'),
      },
      { name: 'healthy Reshard with an external MoveTables and a reference Materialize', model: reshardScenario() },
      {
        name: 'FROZEN leftovers on the source shards are not "stopped" for Vitess',
        reasons: ['stoppedStream'],
        model: external(reshardScenario(), 'old', {
          from: 'commerce',
          fromShard: '0',
          to: 'customer',
          shards: ['-80', '80-'],
          extra: { state: 'Stopped', message: 'FROZEN' },
        }),
      },
      {
        name: 'a stopped reference-table stream is ignored',
        reasons: ['stoppedStream'],
        model: reshardScenario().patchStream('customer', '-80', 2, { state: 'Stopped', message: 'Stopped by user' }),
      },
      {
        name: 'a stopped reverse workflow of the Reshard is not read',
        reasons: ['stoppedStream'],
        model: reshardScenario().stream('customer', '-80', 9, {
          workflow: 'cust2cust_reverse',
          sourceKeyspace: 'customer',
          sourceShard: '-40',
          state: 'Stopped',
        }),
      },
      {
        name: 'copy_state not readable: copying is not judged',
        reasons: ['copyingStream'],
        model: reshardScenario()
          .patchStream('customer', '80-', 1, { copyTables: ['corder'] })
          .copyStateUnreadable('customer', '80-'),
      },
      {
        name: 'a source shard not read is not judged',
        model: reshardScenario()
          .patchStream('customer', '80-', 1, { state: 'Stopped', message: '' })
          .unreadable('customer', '80-'),
      },
      {
        name: 'stopped streams on the target of a MoveTables are not this check (no stream migrator)',
        model: moveTablesScenario(['customer']).patchStream('customer', '-80', 1, {
          state: 'Stopped',
          message: 'Stopped by user',
        }),
      },
    ],
    invalid: [
      {
        name: 'an external workflow stopped on one source shard',
        model: reshardScenario().patchStream('customer', '80-', 1, { state: 'Stopped', message: 'Stopped by user' }),
        findings: [
          {
            keyspace: 'customer',
            shard: '80-',
            workflow: 'cust2cust',
            streamId: 1,
            tablet: 'zone1-0000000120',
            message: joinRegExp(
              /^stream 1 \(commerce2customer\) on source shard customer\/80- of Reshard cust2cust /,
              /is Stopped with message "Stopped by user", and the stream migrator refuses/,
            ),
            details: {
              reason: 'stoppedStream',
              vitessError: 'cannot migrate until all streams are running: 80-: 120',
              streamWorkflow: 'commerce2customer',
              message: 'Stopped by user',
            },
          },
        ],
      },
      {
        name: 'a Stopped stream with an empty message counts (only FROZEN is exempt)',
        model: reshardScenario().patchStream('customer', '-80', 1, { state: 'Stopped', message: '' }),
        findings: [
          {
            shard: '-80',
            streamId: 1,
            message: /is Stopped, and/,
            details: { reason: 'stoppedStream', vitessError: 'cannot migrate until all streams are running: -80: 110' },
          },
        ],
      },
      {
        name: 'an external workflow still copying on a source shard',
        model: reshardScenario().patchStream('customer', '-80', 1, { copyTables: ['corder', 'customer'] }),
        findings: [
          {
            shard: '-80',
            streamId: 1,
            workflow: 'cust2cust',
            tablet: 'zone1-0000000110',
            message: joinRegExp(
              /is still copying 2 tables \(corder, customer\), and /,
              /the stream migrator refuses to move a copying stream$/,
            ),
            details: {
              reason: 'copyingStream',
              vitessError: 'cannot migrate while vreplication streams in source shards are still copying: -80',
              tablesLeft: ['corder', 'customer'],
              alsoStopped: false,
            },
          },
        ],
      },
      {
        name: 'a stream both Stopped and copying gets both findings; an Error stream is not Stopped',
        model: reshardScenario()
          .patchStream('customer', '-80', 1, { state: 'Stopped', message: 'Stopped by user', copyTables: ['corder'] })
          .patchStream('customer', '80-', 1, { state: 'Error', message: 'some error' }),
        findings: [
          { shard: '-80', streamId: 1, details: { reason: 'stoppedStream' } },
          { shard: '-80', streamId: 1, details: { reason: 'copyingStream', alsoStopped: true } },
        ],
      },
    ],
  },
  { more: true },
);

// stream_migrator.go readSourceStreams reads every row but the reverse workflow's, Online DDL rows included
// (readTabletStreams has no workflow_type predicate); a completed Online DDL leaves its row Stopped with
// `stopped for online DDL cutover` until gcArtifacts removes it (vitessio/vitess#20838).
checkTester(check, {
  valid: [
    {
      // `message != 'FROZEN'` is NULL for a NULL message (rows inserted Stopped by --auto-start=false carry none):
      // rpc_vreplication.go ReadVReplicationWorkflows with ExcludeFrozen does not return them.
      name: 'a Materialize created with --auto-start=false (Stopped, NULL message) does not stop the migrator',
      reasons: ['stoppedStream'],
      model: reshardScenario()
        .patchStream('customer', '-80', 1, { state: 'Stopped', message: null })
        .patchStream('customer', '80-', 1, { state: 'Stopped', message: null }),
    },
    {
      // Only an intra-keyspace workflow is waited for after the source writes stop: an Error stream of a MoveTables
      // from another keyspace, and a healthy intra-keyspace Materialize, do not fail the stream stop.
      name: 'an Error stream from another keyspace, and a running intra-keyspace Materialize, are not waited for',
      reasons: ['intraKeyspaceCannotCatchUp'],
      model: external(
        reshardScenario().patchStream('customer', '80-', 1, {
          message: 'vttablet: rpc error: code = Unknown desc = VStreamer is not open',
        }),
        'cust_copy',
        { from: 'customer', fromShard: '-80', to: 'customer', shards: ['-80'], type: 'Materialize' },
      ),
    },
    {
      // The wait is SwitchTraffic's --timeout (30s by default): a 20s backlog, an idle stream whose heartbeats are
      // current (workflows.go heartbeat rule), and a lagging Materialize from another keyspace are not judged.
      name: 'an intra-keyspace Materialize 20s behind, an idle one with current heartbeats, one from elsewhere lagging',
      reasons: ['intraKeyspaceLagging'],
      model: external(
        external(
          external(reshardScenario(), 'cust_copy', {
            from: 'customer',
            fromShard: '-80',
            to: 'customer',
            shards: ['-80'],
            type: 'Materialize',
            extra: { transaction_timestamp: NOW_SECONDS - 20, time_heartbeat: NOW_SECONDS - 5 },
          }),
          'cust_idle',
          {
            from: 'customer',
            fromShard: '80-',
            to: 'customer',
            shards: ['80-'],
            type: 'Materialize',
            extra: { transaction_timestamp: NOW_SECONDS - 3600, time_updated: NOW_SECONDS - 1 },
          },
        ),
        'from_commerce',
        {
          from: 'commerce',
          fromShard: '0',
          to: 'customer',
          shards: ['-80'],
          type: 'Materialize',
          extra: { transaction_timestamp: NOW_SECONDS - 600, time_heartbeat: NOW_SECONDS - 5 },
        },
      ),
    },
  ],
  invalid: [
    {
      // server.go switchWrites @006b7393 (v20+): stopSourceWrites, then stopStreams within stopCtx = waitTimeout, which
      // waits for intra-keyspace materializations to catch up: a stream applying a 2-minute backlog (its heartbeat
      // older than its last update, so the transaction lag stands) may not make it within the default 30s.
      name: 'an intra-keyspace Materialize applying a 120s backlog on a Reshard source shard: at risk in the wait',
      model: external(reshardScenario(), 'cust_copy', {
        from: 'customer',
        fromShard: '-80',
        to: 'customer',
        shards: ['-80'],
        type: 'Materialize',
        extra: { transaction_timestamp: NOW_SECONDS - 120, time_heartbeat: NOW_SECONDS - 30 },
      }),
      findings: [
        {
          severity: 'warning',
          shard: '-80',
          message: /is an intra-keyspace workflow 120s behind: .*within its --timeout \(30s by default\)/,
          details: { reason: 'intraKeyspaceLagging', streamWorkflow: 'cust_copy', lagSeconds: 120 },
        },
      ],
    },
    {
      // server.go switchWrites (v20+): stopSourceWrites, then stopStreams within stopCtx (waitTimeout), which waits
      // for intra-keyspace materializations to catch up; a stream that keeps failing never does.
      name: 'an intra-keyspace Materialize in Error on a Reshard source shard: the stream stop cannot catch it up',
      model: external(reshardScenario(), 'cust_copy', {
        from: 'customer',
        fromShard: '-80',
        to: 'customer',
        shards: ['-80'],
        type: 'Materialize',
        extra: { message: 'Error: vttablet: rpc error: code = Unknown desc = table customer_copy not found' },
      }),
      findings: [
        {
          severity: 'error',
          shard: '-80',
          message:
            /is an intra-keyspace workflow in Error .*failed to stop the workflow streams in the customer keyspace/,
          details: { reason: 'intraKeyspaceCannotCatchUp', streamWorkflow: 'cust_copy' },
        },
      ],
    },
    {
      name: 'a completed Online DDL left Stopped on both source shards',
      model: reshardScenario()
        .stream('customer', '-80', 7, {
          workflow: '2d1b4a5e_8f3c_11ef_9a1b_0a1b2c3d4e5f',
          type: 'OnlineDDL',
          sourceKeyspace: 'customer',
          sourceShard: '-80',
          rules: [
            { match: '_vt_vrp_2d1b4a5e8f3c11ef9a1b0a1b2c3d4e5f_20251201120000_', filter: 'select * from corder' },
          ],
          state: 'Stopped',
          message: 'stopped for online DDL cutover',
        })
        .stream('customer', '80-', 7, {
          workflow: '2d1b4a5e_8f3c_11ef_9a1b_0a1b2c3d4e5f',
          type: 'OnlineDDL',
          sourceKeyspace: 'customer',
          sourceShard: '80-',
          rules: [
            { match: '_vt_vrp_2d1b4a5e8f3c11ef9a1b0a1b2c3d4e5f_20251201120000_', filter: 'select * from corder' },
          ],
          state: 'Stopped',
          message: 'stopped for online DDL cutover',
        }),
      findings: [
        {
          shard: '-80',
          streamId: 7,
          details: {
            reason: 'stoppedStream',
            vitessError: 'cannot migrate until all streams are running: -80: 110',
            streamWorkflow: '2d1b4a5e_8f3c_11ef_9a1b_0a1b2c3d4e5f',
          },
        },
        {
          shard: '80-',
          streamId: 7,
          details: { vitessError: 'cannot migrate until all streams are running: 80-: 120' },
        },
      ],
    },
  ],
});
