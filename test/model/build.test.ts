import { test } from 'node:test';
import assert from 'node:assert/strict';
import { deflateSync } from 'node:zlib';
import { buildModel, displayState } from '../../src/model/build.js';
import { cluster, gtidPos, NOW_SECONDS } from '../helpers/cluster.js';
import { moveTablesScenario } from '../helpers/reshard-scenario.js';

test('displayed state follows Vitess getStreamState', () => {
  assert.equal(displayState('Running', 'rpc error: code = Unknown desc = VStreamer is not open', 0), 'Error');
  assert.equal(displayState('Running', 'ERROR picking tablet', 0), 'Error');
  assert.equal(displayState('Running', '', 2), 'Copying');
  assert.equal(displayState('Stopped', '', 2), 'Stopped');
  assert.equal(displayState('Running', 'Picked source tablet: cell:"zone1" uid:100', 0), 'Running');
});

test('streams are parsed, grouped into workflows and sorted', () => {
  const m = moveTablesScenario().model();
  assert.equal(m.workflows.length, 1);
  const wf = m.workflows[0]!;
  assert.equal(wf.type, 'MoveTables');
  assert.deepEqual(wf.targetShards, ['-80', '80-']);
  assert.deepEqual(wf.sourceKeyspaces, ['commerce']);
  assert.deepEqual(wf.sourceShards, ['0']);
  const s = wf.streams[0]!;
  assert.equal(s.sourceError, null);
  assert.deepEqual(s.tables, ['corder', 'customer']);
  assert.equal(s.pos?.toString(), gtidPos('commerce', '0', 1000));
  assert.ok(Object.isFrozen(s));
  assert.throws(() => (m.keyspaces as Map<string, unknown>).set('x', {}));
});

test('a compressed pos is decoded (MySQL COMPRESS: 4-byte LE length + zlib)', () => {
  const text = gtidPos('customer', '0', 77);
  const body = deflateSync(Buffer.from(text));
  const header = Buffer.alloc(4);
  header.writeUInt32LE(text.length);
  const b = cluster()
    .keyspace('customer', { shards: ['0', '-80'] })
    .stream('customer', '-80', 1, {
      sourceShard: '0',
      pos: '',
      posBase64: Buffer.concat([header, body]).toString('base64'),
    });
  const s = b.model().streams()[0]!;
  assert.equal(s.posError, null);
  assert.equal(s.posText, text);
});

test('unparsable sources and positions are kept as stream errors, not thrown', () => {
  const b = cluster()
    .keyspace('customer', { shards: ['0', '-80'] })
    .stream('customer', '-80', 1, { source: 'keyspace:"customer" shard:', pos: 'MySQL56/zzz' });
  const s = b.model().streams()[0]!;
  assert.ok(s.sourceError);
  assert.equal(s.source, null);
  assert.ok(s.posError);
});

test('rows of another db_name and OnlineDDL streams are not this keyspace streams', () => {
  const b = cluster()
    .keyspace('customer', { shards: ['0', '-80'] })
    .stream('customer', '-80', 1, { sourceShard: '0' })
    .stream('customer', '-80', 2, { sourceShard: '0', db_name: 'vt_other' })
    .stream('customer', '-80', 3, { sourceShard: '0', workflow_type: 5, workflow: 'a1b2c3' });
  assert.deepEqual(
    b
      .model()
      .streams()
      .map((s) => s.id),
    [1],
  );
});

test('not read stays distinguishable from empty, and failures are located', () => {
  const m = cluster()
    .keyspace('customer', { shards: ['-80', '80-'] })
    .unreadable('customer', '80-', 'connect ECONNREFUSED')
    .model();
  const bad = m.shard('customer', '80-')!;
  const good = m.shard('customer', '-80')!;
  assert.equal(bad.sidecar?.ok, false);
  assert.equal(good.sidecar?.ok, true);
  assert.deepEqual(good.sidecar?.ok && good.sidecar.value.streams, []);
  assert.equal(m.failures.length, 1);
  assert.equal(m.failures[0]!.shard, '80-');
  assert.equal(m.failures[0]!.keyspace, 'customer');
  assert.equal(m.failures[0]!.reason, 'connect ECONNREFUSED');
});

test('selection filters workflows but allWorkflows keeps everything', () => {
  const m = cluster()
    .keyspace('customer', { shards: ['0', '-80', '80-'] })
    .reshard('r1', { keyspace: 'customer', from: ['0'], to: ['-80', '80-'] })
    .stream('customer', '0', 1, {
      workflow: 'other',
      sourceKeyspace: 'commerce',
      sourceShard: '0',
      type: 'MoveTables',
      rules: [{ match: 't', filter: 'select * from t' }],
    })
    .select({ workflows: ['r1'] })
    .model();
  assert.deepEqual(
    m.workflows.map((w) => w.name),
    ['r1'],
  );
  assert.deepEqual(
    m.allWorkflows.map((w) => w.name),
    ['other', 'r1'],
  );
  assert.equal(m.readAt, NOW_SECONDS * 1000);
});

test('an invalid capture time is refused with one line', () => {
  const r = cluster()
    .keyspace('c', { shards: ['0'] })
    .readout();
  assert.throws(() => buildModel({ ...r, capturedAt: 'yesterday' }), /capturedAt "yesterday"/);
});
