/**
 * `src/sources/workflows-json.ts`: GetWorkflows JSON (vtctldclient `--json`) → readout → model.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { buildModel } from '../../src/model/build.js';
import { parseBinlogSource } from '../../src/vitess/binlog-source.js';
import {
  parseWorkflowsJson,
  positionWithFlavor,
  storedState,
  workflowsJsonToReadout,
  WorkflowsJsonError,
} from '../../src/sources/workflows-json.js';

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
const fixture = (name: string) =>
  JSON.parse(readFileSync(join(repoRoot, 'test', 'fixtures', 'vtctld', name), 'utf8')) as Record<string, unknown>;
const opts = { now: '2030-01-01T00:00:00.000Z', toolVersion: 't' };
const convert = (data: unknown) => workflowsJsonToReadout([{ label: 'f.json', data }], opts);

/** A v17-style workflow: enum numbers, int64 as numbers, zero values omitted, one lowerCamel key. */
const v17 = {
  workflows: [
    {
      name: 'r1',
      source: { keyspace: 'ks', shards: ['0'] },
      target: { keyspace: 'ks', shards: ['-80', '80-'] },
      workflow_type: 'Reshard',
      shardStreams: {
        '-80/zone1-0000000101': {
          streams: [
            {
              id: 1,
              shard: '-80',
              tablet: { cell: 'zone1', uid: 101 },
              binlog_source: {
                keyspace: 'ks',
                shard: '0',
                tablet_type: 1,
                on_ddl: 1,
                filter: { rules: [{ match: '/.*', filter: '-80' }], field_event_mode: 0 },
              },
              position: '0-1-100',
              state: 'Copying',
              copy_states: [{ table: 't1', last_pk: 'x' }],
              time_updated: { seconds: 1767225601 },
              message: '',
              tablet_types: [2, 1],
              tablet_selection_preference: 1,
              brand_new_field: { anything: true },
            },
          ],
          is_primary_serving: false,
        },
        '80-/zone1-0000000201': {
          streams: [
            {
              id: '1',
              shard: '80-',
              binlog_source: { keyspace: 'ks', shard: '0', filter: { rules: [{ match: '/.*', filter: '80-' }] } },
              position: '6f1e9a8c-3b2d-11ef-a5c1-0242ac120064:1-5',
              stop_position: 'MySQL56/6f1e9a8c-3b2d-11ef-a5c1-0242ac120064:1-9',
              state: 'Error',
              message: 'vttablet: rpc error: code = Unknown',
              time_updated: { seconds: '1767225600' },
            },
          ],
        },
      },
    },
  ],
  unknown_top_level: 1,
};

describe('workflowsJsonToReadout', () => {
  test('the GetWorkflows fixture converts: one sidecar per target primary, rows as stored', () => {
    for (const name of ['GetWorkflowsResponse.json', 'GetWorkflowsResponse.full.json']) {
      const r = convert(fixture(name));
      assert.equal(r.origin, 'workflows-json');
      assert.deepEqual(r.lacks, ['topology', 'tablets', 'fullStatus', 'vschema']);
      assert.deepEqual(
        r.sidecars.map((s) => `${s.keyspace}/${s.shard}/${s.alias}`),
        ['customer/-80/zone1-0000000200', 'customer/80-/zone1-0000000300'],
      );
      const s = r.sidecars[0]!;
      assert.ok(s.vreplication.ok);
      const row = s.vreplication.value[0]!;
      assert.equal(row.id, 1);
      assert.equal(row.workflow, 'commerce2customer');
      assert.equal(row.pos, 'MySQL56/6f1e9a8c-3b2d-11ef-a5c1-0242ac120064:1-1234');
      assert.equal(row.stop_pos, null);
      assert.equal(row.state, 'Running');
      assert.equal(row.time_updated, 1767225601);
      assert.equal(row.transaction_timestamp, 1767225600);
      assert.equal(row.rows_copied, 2048);
      assert.equal(row.workflow_type, 1);
      assert.equal(row.workflow_sub_type, 0);
      assert.equal(row.tablet_types, 'in_order:REPLICA,PRIMARY');
      assert.equal(row.cell, 'zone1');
      assert.equal(row.db_name, 'vt_customer');
      const bls = parseBinlogSource(row.source);
      assert.equal(bls.keyspace, 'commerce');
      assert.deepEqual(
        bls.filter?.rules.map((x) => x.match),
        ['customer', 'corder'],
      );
      // vtctld printed max_v_replication_lag 1 with every time_updated at 1767225601: it printed at 1767225602.
      assert.equal(r.capturedAt, new Date(1767225602 * 1000).toISOString());
      const model = buildModel(r);
      assert.deepEqual(model.failures, []);
      assert.deepEqual(
        model.workflows.map((w) => [w.keyspace, w.name, w.type, w.streams.length]),
        [['customer', 'commerce2customer', 'MoveTables', 2]],
      );
    }
  });

  test('v17 style: enum numbers, int64 numbers, missing keys, lowerCamel keys, unknown keys ignored', () => {
    const r = convert(v17);
    const [a, b] = r.sidecars;
    assert.ok(a!.vreplication.ok && b!.vreplication.ok);
    const ra = a!.vreplication.value[0]!;
    const bls = parseBinlogSource(ra.source);
    assert.equal(bls.tabletType, 'PRIMARY');
    assert.equal(bls.onDdl, 'STOP');
    assert.equal(ra.pos, 'MariaDB/0-1-100');
    assert.equal(ra.tablet_types, 'in_order:REPLICA,PRIMARY');
    assert.equal(ra.workflow_type, 4);
    assert.equal(ra.rows_copied, undefined, 'absent rows_copied stays unknown');
    assert.equal(ra.transaction_timestamp, 0);
    const rb = b!.vreplication.value[0]!;
    assert.equal(rb.id, 1);
    assert.equal(rb.stop_pos, 'MySQL56/6f1e9a8c-3b2d-11ef-a5c1-0242ac120064:1-9');
    assert.equal(rb.pos, 'MySQL56/6f1e9a8c-3b2d-11ef-a5c1-0242ac120064:1-5');
  });

  test('displayed Copying and Error map back to stored states that display the same', () => {
    const r = convert(v17);
    const rows = r.sidecars.map((s) => (s.vreplication.ok ? s.vreplication.value[0]! : assert.fail('not ok')));
    assert.equal(rows[0]!.state, 'Running');
    assert.ok(r.sidecars[0]!.copyState.ok);
    assert.deepEqual(
      r.sidecars[0]!.copyState.value.map((c) => [c.vrepl_id, c.table_name]),
      [[1, 't1']],
    );
    assert.equal(rows[1]!.state, 'Running');
    const model = buildModel(r);
    assert.deepEqual(
      model.workflows[0]!.streams.map((s) => [s.shard, s.displayState]),
      [
        ['-80', 'Copying'],
        ['80-', 'Error'],
      ],
    );
    assert.equal(storedState('Copying', '', 0), 'Copying');
    assert.equal(storedState('Error', 'stopped', 0), 'Error');
    assert.equal(storedState('Lagging', '', 0), 'Running');
  });

  test('position flavors', () => {
    assert.equal(positionWithFlavor(''), '');
    assert.equal(positionWithFlavor('0-1-5,1-2-7'), 'MariaDB/0-1-5,1-2-7');
    assert.equal(positionWithFlavor('MySQL56/x'), 'MySQL56/x');
    assert.equal(
      positionWithFlavor('6f1e9a8c-3b2d-11ef-a5c1-0242ac120064:1-5'),
      'MySQL56/6f1e9a8c-3b2d-11ef-a5c1-0242ac120064:1-5',
    );
  });

  test('malformed input: one-line errors naming the file and the path', () => {
    const bad: [unknown, RegExp][] = [
      [{ workflows: 3 }, /^f\.json: has "workflows" that is not a list; capture it with/],
      [
        { workflows: [{ name: 'w', target: { keyspace: 'k' }, shard_streams: { nokey: { streams: [] } } }] },
        /shard_streams\["nokey"\]: key is not <shard>\/<tablet alias>/,
      ],
      [
        {
          workflows: [{ name: 'w', target: { keyspace: 'k' }, shard_streams: { '0/z-1': { streams: [{ id: 'x' }] } } }],
        },
        /streams\[0\]\.id: expected an integer/,
      ],
      [
        {
          workflows: [
            {
              name: 'w',
              target: { keyspace: 'k' },
              shard_streams: { '0/z-1': { streams: [{ id: 1, binlog_source: { on_ddl: 9 } }] } },
            },
          ],
        },
        /on_ddl: unknown enum number 9/,
      ],
    ];
    for (const [data, re] of bad) {
      assert.throws(
        () => convert(data),
        (e: Error) => e instanceof WorkflowsJsonError && re.test(e.message) && !e.message.includes('\n'),
      );
    }
    assert.throws(
      () => parseWorkflowsJson('{', 'x.json'),
      (e: Error) =>
        e instanceof WorkflowsJsonError && /^x\.json: not JSON: /.test(e.message) && !e.message.includes('\n'),
    );
  });
});
