/** Verdicts follow Vitess's own order of checks and its wrapping of their errors. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CHECKS } from '../../checks/index.js';
import { withDefaults } from '../../src/engine/options.js';
import { runModelChecks } from '../../src/engine/run.js';
import { cluster, gtidPos, NOW_SECONDS, serverUuid } from '../helpers/cluster.js';
import { DEFAULT_ACTION_REQUEST } from '../../src/engine/options.js';
import { reshardScenario } from '../helpers/reshard-scenario.js';

const meta = {
  toolVersion: '0',
  snapshot: null,
  startedAt: '2026-01-01T00:00:00.000Z',
  elapsedMs: 0,
  failOn: 'error' as const,
};
const moveTables = () =>
  cluster()
    .keyspace('commerce', { shards: ['0'] })
    .keyspace('customer', {
      shards: ['-80', '80-'],
      tables: { customer: { columnVindexes: [{ name: 'hash', columns: ['customer_id'] }] } },
    })
    .moveTables('commerce2customer', { from: 'commerce', to: 'customer', tables: ['customer'], column: 'customer_id' });

test('a healthy MoveTables is ready', () => {
  const r = runModelChecks(moveTables().model(), CHECKS, withDefaults(), meta);
  assert.deepEqual(
    r.findings.filter((f) => f.severity !== 'info').map((f) => `${f.check}: ${f.message}`),
    [],
  );
  assert.deepEqual(
    r.workflows.map((w) => [w.workflow, w.verdict, w.vitessWouldSay]),
    [['commerce2customer', 'ready', null]],
  );
});

test('canSwitch order: lag is reported before copy and errors, wrapped like SwitchTraffic', () => {
  const m = moveTables()
    .patchStream('customer', '-80', 1, { time_updated: NOW_SECONDS - 120, transaction_timestamp: NOW_SECONDS - 120 })
    .patchStream('customer', '80-', 1, { message: 'vttablet: rpc error: code = Unknown desc = VStreamer is not open' })
    .model();
  const w = runModelChecks(m, CHECKS, withDefaults(), meta).workflows[0]!;
  assert.equal(w.verdict, 'blocked');
  assert.equal(
    w.vitessWouldSay,
    'cannot switch traffic for workflow commerce2customer at this time: replication lag 120s is higher than allowed lag 30s',
  );
  assert.ok(w.blockedBy.includes('replication-lag') && w.blockedBy.includes('stream-error'));
});

test('no tablet for the reverse workflow: its own handleError text, not wrapped as a validation failure', () => {
  // switchWrites: ts.validate (wrapped "workflow validation failed"), then, separately,
  // handleError(fmt.Sprintf("no tablets were available to stream from in the %s keyspace", …), err).
  const b = moveTables();
  for (const shard of ['-80', '80-']) b.patchStream('customer', shard, 1, { tablet_types: 'RDONLY' });
  const only = CHECKS.filter((c) => c.id === 'reverse-tablets-missing');
  const w = runModelChecks(b.model(), only, withDefaults(), meta).workflows[0]!;
  assert.equal(w.verdict, 'blocked');
  assert.equal(
    w.vitessWouldSay,
    'no tablets were available to stream from in the customer keyspace: no tablet found to source data in keyspace customer, shard -80',
  );
});

test('canSwitch walks the streams: the first stream that is frozen, copying or in error decides', () => {
  // server.go canSwitch: per stream, FROZEN, then Copying, then Error, returning on the first hit. Stream 1 (from
  // commerce/-80) is in error, stream 2 (from commerce/80-) still copying: Vitess says "workflow has errors".
  const m = cluster()
    .keyspace('commerce', { shards: ['-80', '80-'] })
    .keyspace('customer', { shards: ['0'] })
    .moveTables('commerce2customer', { from: 'commerce', to: 'customer', tables: ['customer'] })
    .patchStream('customer', '0', 1, { message: 'vttablet: rpc error: code = Unknown desc = VStreamer is not open' })
    .patchStream('customer', '0', 2, { copyTables: ['customer'] })
    .model();
  const w = runModelChecks(m, CHECKS, withDefaults(), meta).workflows[0]!;
  assert.ok(w.blockedBy.includes('copy-incomplete') && w.blockedBy.includes('stream-error'), w.blockedBy.join());
  assert.equal(
    w.vitessWouldSay,
    'cannot switch traffic for workflow commerce2customer at this time: workflow has errors',
  );
});

test('a source shard without a primary fails before canSwitch, unwrapped', () => {
  const m = moveTables()
    .shardRecord('commerce', '0', { primaryAlias: null })
    .patchStream('customer', '-80', 1, { time_updated: NOW_SECONDS - 120, transaction_timestamp: NOW_SECONDS - 120 })
    .model();
  const w = runModelChecks(m, CHECKS, withDefaults(), meta).workflows[0]!;
  assert.equal(w.vitessWouldSay, 'source shard commerce/0 currently has no primary tablet');
});

test('a lookup backfill is judged by Externalize: its error is quoted unwrapped, before any SwitchTraffic refusal', () => {
  const m = cluster()
    .keyspace('customer', {
      shards: ['-80', '80-'],
      vindexes: {
        hash: { type: 'hash', params: {}, owner: '' },
        corder_lookup: {
          type: 'consistent_lookup_unique',
          params: { table: 'lookup.corder_lookup', from: 'id', to: 'keyspace_id' },
          owner: 'corder',
        },
      },
      tables: {
        corder: {
          columnVindexes: [
            { name: 'hash', columns: ['customer_id'] },
            { name: 'corder_lookup', columns: ['id'] },
          ],
        },
      },
    })
    .keyspace('lookup', { shards: ['0'], tables: { corder_lookup: {} } })
    .lookup('corder_lookup', {
      from: 'customer',
      to: 'lookup',
      table: 'corder_lookup',
      ownerTable: 'corder',
      owned: true,
      stopped: false,
    })
    .patchStream('lookup', '0', 2, { message: 'Error picking tablet: context has expired' })
    .model();
  const w = runModelChecks(m, CHECKS, withDefaults(), meta).workflows[0]!;
  assert.equal(w.verdict, 'blocked');
  assert.equal(w.vitessWouldSay, 'stream 1 for lookup.0 is not in Stopped after copy state: Running, ');
});

/** A MoveTables into customer (-80, 80-) whose target keyspace also has the shard c0- without streams. */
const withSpareShard = () =>
  cluster()
    .keyspace('commerce', { shards: ['0'] })
    .keyspace('customer', {
      shards: ['-80', '80-c0', 'c0-'],
      tables: { customer: { columnVindexes: [{ name: 'hash', columns: ['customer_id'] }] } },
    })
    .moveTables('commerce2customer', { from: 'commerce', to: 'customer', tables: ['customer'], column: 'customer_id' })
    .removeStream('customer', 'c0-', 1);

test('an unread target primary leaves the workflow unverified, naming it, even on a shard without its streams', () => {
  // The tool could not read that primary's MySQL; Vitess reaches it through its tablet manager, which answered.
  const r = runModelChecks(withSpareShard().unreadable('customer', 'c0-').model(), CHECKS, withDefaults(), meta);
  const w = r.workflows[0]!;
  assert.equal(w.verdict, 'unverified');
  assert.deepEqual(w.blockedBy, []);
  assert.deepEqual(
    w.evidence?.filter((e) => e.check === 'unreachable').map((e) => [e.reason, e.concern]),
    [['primaryUnreadable', 'target-shard']],
  );
  assert.match(w.unverifiedBy.map((u) => u.part ?? '').join('\n'), /of customer\/c0-/);
  assert.equal(r.summary.exitCode, 1);
});

test('a target shard record without a primary blocks the workflow with BuildTargets’ refusal', () => {
  const r = runModelChecks(moveTables().orphanShard('customer', '80-c0').model(), CHECKS, withDefaults(), meta);
  const w = r.workflows[0]!;
  assert.equal(w.verdict, 'blocked');
  assert.deepEqual(w.blockedBy, ['target-primary-missing']);
  assert.equal(w.vitessWouldSay, "shard customer/80-c0 doesn't have a primary set");
});

test('copy_state not read: the workflow is unverified, naming the part and why, and the gate fails', () => {
  const r = runModelChecks(moveTables().copyStateUnreadable('customer', '-80').model(), CHECKS, withDefaults(), meta);
  const w = r.workflows[0]!;
  assert.equal(w.verdict, 'unverified');
  assert.equal(w.unverifiedBy.length, 1);
  assert.equal(w.unverifiedBy[0]!.check, 'unreachable');
  assert.match(w.unverifiedBy[0]!.part!, /copy_state.* of customer\/-80/);
  assert.equal(w.unverifiedBy[0]!.why, 'table does not exist');
  assert.equal(r.summary.exitCode, 1);
  assert.equal(
    runModelChecks(moveTables().copyStateUnreadable('customer', '-80').model(), CHECKS, withDefaults(), {
      ...meta,
      failOn: 'never',
    }).summary.exitCode,
    0,
  );
});

test('--only / --skip: unverified naming the checks not run, exit by findings', () => {
  const only = runModelChecks(moveTables().model(), CHECKS, withDefaults({ only: ['replication-lag'] }), meta);
  const w = only.workflows[0]!;
  assert.equal(w.verdict, 'unverified');
  assert.deepEqual(
    w.unverifiedBy.map((u) => u.check),
    CHECKS.map((c) => c.id).filter((id) => id !== 'replication-lag'),
  );
  assert.ok(w.unverifiedBy.every((u) => u.why === 'not run: not named in --only'));
  assert.equal(only.summary.exitCode, 0);
  const skip = runModelChecks(moveTables().model(), CHECKS, withDefaults({ skip: ['unreachable'] }), meta);
  assert.deepEqual(skip.workflows[0]!.unverifiedBy, [{ check: 'unreachable', why: 'not run: excluded with --skip' }]);
  assert.equal(skip.summary.exitCode, 0);
  // A finding still fails the gate under --only.
  const lagging = moveTables().patchStream('customer', '-80', 1, {
    time_updated: NOW_SECONDS - 120,
    transaction_timestamp: NOW_SECONDS - 120,
  });
  assert.equal(
    runModelChecks(lagging.model(), CHECKS, withDefaults({ only: ['replication-lag'] }), meta).summary.exitCode,
    1,
  );
});

test('a workflow named on the command line without streams gets its row, blocked with Vitess’s text', () => {
  const r = runModelChecks(
    moveTables()
      .select({ keyspaces: ['customer'], workflows: ['typo'] })
      .model(),
    CHECKS,
    withDefaults(),
    meta,
  );
  assert.deepEqual(
    r.workflows.map((w) => [w.keyspace, w.workflow, w.verdict, w.blockedBy, w.vitessWouldSay]),
    [['customer', 'typo', 'blocked', ['no-streams'], 'no streams found in keyspace customer for typo']],
  );
});

test('a garbage pos is an error finding with Vitess’s decode error', () => {
  const r = runModelChecks(
    moveTables().patchStream('customer', '-80', 1, { pos: 'MySQL56/not-a-gtid-at-all' }).model(),
    CHECKS,
    withDefaults(),
    meta,
  );
  const f = r.findings.find((x) => x.reason === 'positionNotGtidSet')!;
  assert.equal(f.severity, 'error');
  assert.equal(f.details.vitessError, 'invalid MySQL 5.6 GTID set ("not-a-gtid-at-all"): expected uuid:interval');
  assert.equal(r.workflows[0]!.verdict, 'blocked');
});

test('a lookup backfill never quotes SwitchTraffic refusals: Externalize passes a Running stream', () => {
  // lookup_vindex.go validateInternalizedState: an unowned backfill only needs Running streams; canSwitch's
  // `copy is still in progress` / `workflow has errors` (server.go) belong to SwitchTraffic.
  const m = cluster()
    .keyspace('customer', {
      shards: ['-80', '80-'],
      vindexes: {
        corder_lookup: {
          type: 'consistent_lookup_unique',
          params: { table: 'lookup.corder_lookup', from: 'id', to: 'keyspace_id' },
          owner: '',
        },
      },
    })
    .keyspace('lookup', { shards: ['0'], tables: { corder_lookup: {} } })
    .lookup('corder_lookup', {
      from: 'customer',
      to: 'lookup',
      table: 'corder_lookup',
      ownerTable: 'corder',
      owned: false,
    })
    .patchStream('lookup', '0', 1, { copyTables: ['corder_lookup'] })
    .patchStream('lookup', '0', 2, { message: 'vttablet: rpc error: code = Unknown desc = VStreamer is not open' })
    .model();
  const w = runModelChecks(m, CHECKS, withDefaults(), meta).workflows[0]!;
  assert.equal(w.vitessWouldSay, null);
  assert.ok(!w.blockedBy.includes('copy-incomplete') && !w.blockedBy.includes('stream-error'), JSON.stringify(w));
});

test('a switch resumed past the point of no return is not refused for lag', () => {
  // server.go canSwitch is skipped when getWorkflowState says writes are switched (routing rule <source>.<table> →
  // <target>.<table>, server.go:501-503); streams stopped for the cutover fifteen minutes ago do not make
  // SwitchTraffic refuse.
  const m = moveTables()
    .routing([
      { fromTable: 'customer', toTables: ['customer.customer'] },
      { fromTable: 'commerce.customer', toTables: ['customer.customer'] },
    ])
    .patchStream('customer', '-80', 1, {
      state: 'Stopped',
      message: 'stopped for cutover',
      time_updated: NOW_SECONDS - 900,
      transaction_timestamp: NOW_SECONDS - 900,
    })
    .patchStream('customer', '80-', 1, {
      state: 'Stopped',
      message: 'stopped for cutover',
      time_updated: NOW_SECONDS - 900,
      transaction_timestamp: NOW_SECONDS - 900,
    })
    .model();
  const r = runModelChecks(m, CHECKS, withDefaults(), meta);
  assert.deepEqual(
    r.findings.filter((f) => ['replication-lag', 'copy-incomplete', 'stream-error'].includes(f.check)),
    [],
  );
  assert.equal(r.workflows[0]!.vitessWouldSay, null, JSON.stringify(r.workflows[0]));
});

test('per-shard stream-migrator errors are aggregated like vterrors.Aggregate: sorted, newline-joined', () => {
  // stream_migrator.go readSourceStreams runs per source shard; vterrors/aggregate.go aggregateErrors sorts the texts
  // and joins them with "\n"; server.go wraps the stream migrator's error with `failed to migrate the workflow
  // streams`.
  const b = reshardScenario();
  for (const shard of ['80-', '-80'])
    b.stream('customer', shard, 7, {
      workflow: '2d1b4a5e_8f3c_11ef_9a1b_0a1b2c3d4e5f',
      type: 'OnlineDDL',
      sourceKeyspace: 'customer',
      sourceShard: shard,
      rules: [{ match: '_vt_vrp_2d1b4a5e8f3c11ef9a1b0a1b2c3d4e5f_20251201120000_', filter: 'select * from corder' }],
      state: 'Stopped',
      message: 'stopped for online DDL cutover',
    });
  const w = runModelChecks(b.select({ workflows: ['cust2cust'] }).model(), CHECKS, withDefaults(), meta).workflows[0]!;
  assert.equal(
    w.vitessWouldSay,
    'failed to migrate the workflow streams: cannot migrate until all streams are running: -80: 110\ncannot migrate until all streams are running: 80-: 120',
  );
});

test('shard-set-mismatch is wrapped by switchReads/switchWrites: workflow validation failed: …', () => {
  // server.go switchWrites: handleError("workflow validation failed", err) formats `%s: %v`.
  const m = cluster()
    .keyspace('commerce', { shards: ['0'] })
    .keyspace('customer', {
      shards: ['-80', '80-', '-40', '40-80'],
      notServing: ['-40', '40-80'],
      tables: { customer: { columnVindexes: [{ name: 'hash', columns: ['customer_id'] }] } },
    })
    .moveTables('commerce2customer', {
      from: 'commerce',
      to: 'customer',
      tables: ['customer'],
      column: 'customer_id',
    })
    .removeStream('customer', '-40', 1)
    .removeStream('customer', '40-80', 1)
    .model();
  const r = runModelChecks(m, CHECKS, withDefaults(), meta);
  const w = r.workflows[0]!;
  assert.match(
    w.vitessWouldSay ?? '',
    /^workflow validation failed: mismatched shards for keyspace customer: /,
    JSON.stringify(r.findings.map((f) => [f.check, f.details?.vitessError])),
  );
});

test('a target-keyspace shard without streams whose primary MySQL refuses the tool: unverified, never ready', () => {
  // utils.go BuildTargets reads every shard of the target keyspace: a leftover shard record without a primary fails
  // SwitchTraffic (`shard %v/%v doesn't have a primary set`) although no stream lives there.
  const m = cluster()
    .keyspace('commerce', { shards: ['0'] })
    .keyspace('customer', { shards: ['-80', '80-', 'c0-'], notServing: ['c0-'] })
    .moveTables('commerce2customer', {
      from: 'commerce',
      to: 'customer',
      tables: ['customer'],
      column: 'customer_id',
    })
    .removeStream('customer', 'c0-', 1)
    .unreadable('customer', 'c0-', 'connect ECONNREFUSED')
    .model();
  const r = runModelChecks(m, CHECKS, withDefaults(), meta);
  const w = r.workflows[0]!;
  assert.equal(w.verdict, 'unverified', JSON.stringify(r.findings.map((f) => [f.check, f.shard, f.message])));
  assert.ok(w.unverifiedBy.some((u) => u.check === 'unreachable' && /customer\/c0-/.test(u.part ?? '')));
  assert.equal(r.summary.exitCode, 1);
});

test('a stream stopped by hand within --max-lag: the write switch quotes the catch-up refusal, reads at risk', () => {
  // canSwitch passes a Stopped stream within the lag limit (server.go:3443-3458 @v0.24.4); switchWrites' waitForCatchup
  // gets the engine's refusal through the VReplicationWaitForPos RPC (engine.go:847 @v0.24.4) and handleError wraps it
  // (server.go:3315 @v0.24.4).
  const b = moveTables();
  for (const shard of ['-80', '80-'])
    b.patchStream('customer', shard, 1, {
      state: 'Stopped',
      message: '',
      time_updated: NOW_SECONDS - 5,
      transaction_timestamp: NOW_SECONDS - 5,
    });
  b.fullStatusOf(b.primary('commerce', '0'), { primaryPosition: gtidPos('commerce', '0', 1500) });
  const w = runModelChecks(b.model(), CHECKS, withDefaults(), meta).workflows[0]!;
  assert.equal(w.verdict, 'blocked');
  const uuid = serverUuid('commerce', '0');
  assert.equal(
    w.vitessWouldSay,
    `failed to sync up replication between the source and target: rpc error: code = Unknown desc = replication has stopped at ${uuid}:1-1000 before reaching position ${uuid}:1-1500, message: `,
  );
  const reads = runModelChecks(
    b.model(),
    CHECKS,
    withDefaults({ action: { ...DEFAULT_ACTION_REQUEST, tabletTypes: ['replica', 'rdonly'] } }),
    meta,
  ).workflows[0]!;
  assert.equal(reads.verdict, 'at-risk');
  assert.ok(reads.evidence?.some((e) => e.check === 'replication-lag' && e.reason === 'streamStopped'));
});
