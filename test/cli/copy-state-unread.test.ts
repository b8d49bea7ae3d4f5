/**
 * A `_vt.copy_state` that could not be read is never "nothing left to copy" (`Read<>` for
 * `Stream.copyTables`): through the CLI on a snapshot, the model keeps it unknown, the stream summary says null (not
 * 0), no check takes the stream for "done copying", and the workflow is unverified (exit 1), never ready.
 */
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { buildModel } from '../../src/model/build.js';
import { copyTablesLeft } from '../../src/model/copy-state.js';
import { cluster } from '../helpers/cluster.js';
import { runCli, snapshotFile, tempDir } from './helpers.js';

const tmp = tempDir('vtpreflight-copy-state-');
after(() => tmp.cleanup());

const moveTables = () =>
  cluster()
    .keyspace('commerce', { shards: ['0'], tables: { customer: {} } })
    .keyspace('customer', { shards: ['0'], tables: { customer: {} } })
    .moveTables('commerce2customer', { from: 'commerce', to: 'customer', tables: ['customer'] });

test('copy_state not read: unknown in the model, null in the report, unverified through the CLI', async () => {
  const b = moveTables().copyStateUnreadable('customer', '0', 'connection lost');
  const stream = buildModel(b.readout()).workflows[0]!.streams[0]!;
  assert.equal(stream.copyTables.ok, false);
  assert.equal(copyTablesLeft(stream), null);

  const r = await runCli(['check', '--snapshot', await snapshotFile(b, tmp.path('unread.json')), '--format', 'json']);
  assert.equal(r.code, 1, r.stderr);
  const report = JSON.parse(r.stdout);
  assert.deepEqual(
    report.streams.map((s: { copyTablesLeft: number | null }) => s.copyTablesLeft),
    [null],
  );
  assert.equal(report.workflows[0].verdict, 'unverified');
  assert.ok(report.workflows[0].unverifiedBy.some((u: { part?: string }) => /copy_state/.test(u.part ?? '')));

  // Read and empty: 0, and the same workflow is ready.
  const read = await runCli([
    'check',
    '--snapshot',
    await snapshotFile(moveTables(), tmp.path('read.json')),
    '--format',
    'json',
  ]);
  const ok = JSON.parse(read.stdout);
  assert.deepEqual(
    ok.streams.map((s: { copyTablesLeft: number | null }) => s.copyTablesLeft),
    [0],
  );
  assert.equal(ok.workflows[0].verdict, 'ready', read.stdout);
});
