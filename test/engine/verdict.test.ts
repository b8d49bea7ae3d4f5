/** Verdicts follow Vitess's own order of checks and its wrapping of their errors. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CHECKS } from '../../checks/index.js';
import { withDefaults } from '../../src/engine/options.js';
import { runModelChecks } from '../../src/engine/run.js';
import { cluster, NOW_SECONDS } from '../helpers/cluster.js';

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

test('a lookup backfill never quotes SwitchTraffic refusals: Externalize passes a Running stream (FIDELITY-AUDIT §2, §15)', () => {
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

test('a switch resumed past the point of no return is not refused for lag (FIDELITY-AUDIT §9)', () => {
  // server.go canSwitch is skipped when getWorkflowState says writes are switched (routing rule <table> →
  // <target>.<table>); streams stopped for the cutover fifteen minutes ago do not make SwitchTraffic refuse.
  const m = moveTables()
    .routing([{ fromTable: 'customer', toTables: ['customer.customer'] }])
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
