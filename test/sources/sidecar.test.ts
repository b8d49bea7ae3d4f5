/**
 * The sidecar reader against real MariaDB servers holding the real sidecar schema (current and old), plus
 * the executor contract (timeouts, failures, inlined values) with injected executors where a server cannot
 * produce the case.
 */
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { inflateSync } from 'node:zlib';
import type { TabletSidecarRead } from '../../src/readout.js';
import { openMysqlExecutor, readSidecar, type MysqlConnectOptions } from '../../src/sources/mysql.js';
import {
  KNOWN_VREPLICATION_COLUMNS,
  decodePos,
  formatSql,
  innodbForeignKeyRules,
  nonEmptyProbe,
  listSidecarStatements,
  readSidecarWith,
  type SidecarTarget,
  type SqlExecutor,
  type SqlResult,
  type SqlStatement,
  toText,
} from '../../src/sources/sidecar.js';
import { sqlExpr, type MariaDbInstance } from '../harness/mariadb.js';
import { testPool } from '../harness/env.js';

const pool = await testPool();
const created: [MariaDbInstance, string][] = [];
after(async () => {
  for (const [inst, db] of created) await inst.dropDatabase(db).catch(() => undefined);
});

const UUID = '3e11fa47-71ca-11e1-9e33-c80aa9429562';
const SOURCE = (ks: string, shard: string) =>
  `keyspace:"${ks}" shard:"${shard}" filter:{rules:{match:"customer" filter:"select * from customer where in_keyrange(id, 'xxhash', '-80')"}}`;

/** A fresh sidecar database on `inst` (its name is unique in the run). */
async function sidecar(
  inst: MariaDbInstance,
  prefix = '_vt',
  opts: Parameters<MariaDbInstance['applySidecarDdl']>[1] = {},
) {
  const db = pool.uniqueName(prefix);
  await inst.applySidecarDdl(db, opts);
  created.push([inst, db]);
  return db;
}

const target = (
  inst: MariaDbInstance,
  sidecarDb: string,
  dbName: string,
  alias = 'zone1-0000000100',
): SidecarTarget => ({
  alias,
  keyspace: 'customer',
  shard: '-80',
  endpoint: inst.endpoint,
  sidecarDb,
  dbName,
});

const readerConn = (inst: MariaDbInstance, over: Partial<MysqlConnectOptions> = {}): MysqlConnectOptions => ({
  host: inst.host,
  port: inst.port,
  user: inst.reader.user,
  password: inst.reader.password,
  timeoutMs: 5000,
  ...over,
});

function value<T>(r: { ok: true; value: T } | { ok: false; error: { reason: string } }): T {
  if (!r.ok) assert.fail(`expected a successful read, got: ${r.error.reason}`);
  return r.value;
}

/** A stream row in the order of the first 14 known vreplication columns (the oldest schema's). */
const ONE_STREAM_ROW = [1, 'wf', 'src', '', null, '1', '1', null, null, '0', '0', 'Running', null, 'vt_ks'];

const allReads = (r: TabletSidecarRead) => [
  r.columns,
  r.vreplication,
  r.copyState,
  r.vreplicationLog,
  r.reshardingJournal,
];

describe('readSidecar on the current schema', () => {
  test('reads every column of the streams of its db_name only, with exact types', async () => {
    const inst = pool.instance(0);
    const db = await sidecar(inst);
    const dbName = pool.uniqueName('vt_customer');
    const other = pool.uniqueName('vt_commerce');
    const id1 = await inst.insertStream(db, {
      workflow: 'cust2cust',
      db_name: dbName,
      source: SOURCE('customer', '-80'),
      pos: `MySQL56/${UUID}:1-1234`,
      stop_pos: `MySQL56/${UUID}:1-2000`,
      cell: 'zone1',
      tablet_types: 'in_order:REPLICA,PRIMARY',
      time_updated: 1700000100,
      transaction_timestamp: 1700000050,
      state: 'Stopped',
      message: 'Stopped after copy.',
      rows_copied: 42,
      tags: 'a,b',
      time_heartbeat: 1700000099,
      workflow_type: 1,
      time_throttled: 1700000001,
      component_throttled: 'vcopier',
      workflow_sub_type: 2,
      defer_secondary_keys: 1,
    });
    const id2 = await inst.insertStream(db, {
      workflow: 'cust2cust',
      db_name: dbName,
      source: SOURCE('customer', '80-'),
      message: null,
    });
    await inst.insertStream(db, { workflow: 'commerce2x', db_name: other, source: SOURCE('commerce', '0') });

    const r = await readSidecar(target(inst, db, dbName), readerConn(inst));

    assert.deepEqual(value(r.columns), [
      'id',
      'workflow',
      'source',
      'pos',
      'stop_pos',
      'max_tps',
      'max_replication_lag',
      'cell',
      'tablet_types',
      'time_updated',
      'transaction_timestamp',
      'state',
      'message',
      'db_name',
      'rows_copied',
      'tags',
      'time_heartbeat',
      'workflow_type',
      'time_throttled',
      'component_throttled',
      'workflow_sub_type',
      'defer_secondary_keys',
    ]);
    const rows = value(r.vreplication);
    assert.deepEqual(
      rows.map((x) => x.id),
      [id1, id2],
    );
    assert.deepEqual(rows[0], {
      id: id1,
      workflow: 'cust2cust',
      source: SOURCE('customer', '-80'),
      pos: `MySQL56/${UUID}:1-1234`,
      stop_pos: `MySQL56/${UUID}:1-2000`,
      max_tps: '9223372036854775807',
      max_replication_lag: '9223372036854775807',
      cell: 'zone1',
      tablet_types: 'in_order:REPLICA,PRIMARY',
      time_updated: 1700000100,
      transaction_timestamp: 1700000050,
      state: 'Stopped',
      message: 'Stopped after copy.',
      db_name: dbName,
      rows_copied: 42,
      tags: 'a,b',
      time_heartbeat: 1700000099,
      workflow_type: 1,
      time_throttled: 1700000001,
      component_throttled: 'vcopier',
      workflow_sub_type: 2,
      defer_secondary_keys: 1,
    });
    assert.equal(rows[1]?.message, null);
    assert.equal(rows[1]?.stop_pos, null);
    assert.equal(rows[1]?.pos, '');
    assert.equal('posBase64' in (rows[1] ?? {}), false);
    assert.deepEqual(value(r.copyState), []);
    assert.deepEqual(value(r.vreplicationLog), []);
    assert.deepEqual(value(r.reshardingJournal), []);
    assert.equal(r.endpoint, inst.endpoint);
    // The readout is plain JSON: it survives a round trip unchanged.
    assert.deepEqual(JSON.parse(JSON.stringify(r)), r);
  });

  test('several db_names on one server: each read sees only its own streams', async () => {
    const inst = pool.instance(1);
    const db = await sidecar(inst);
    const names = [pool.uniqueName('vt_a'), pool.uniqueName('vt_b'), pool.uniqueName('vt_c')];
    const ids = new Map<string, number[]>();
    for (const [i, n] of names.entries()) {
      for (let k = 0; k <= i; k += 1) {
        const id = await inst.insertStream(db, { workflow: `wf${i}`, db_name: n, source: SOURCE('ks', `${k}`) });
        ids.set(n, [...(ids.get(n) ?? []), id]);
      }
    }
    for (const n of names) {
      const r = await readSidecar(target(inst, db, n), readerConn(inst));
      assert.deepEqual(
        value(r.vreplication).map((x) => x.id),
        ids.get(n),
      );
      assert.ok(value(r.vreplication).every((x) => x.db_name === n));
    }
    const none = await readSidecar(target(inst, db, pool.uniqueName('vt_none')), readerConn(inst));
    assert.deepEqual(value(none.vreplication), []);
  });

  test('a sidecar database not named _vt, with characters that need quoting', async () => {
    const inst = pool.instance(2);
    const db = await sidecar(inst, 'side-car db.✓');
    const dbName = pool.uniqueName('vt_x');
    const id = await inst.insertStream(db, { db_name: dbName, source: SOURCE('ks', '0') });
    await inst.insertCopyState(db, { vrepl_id: id, table_name: 'customer' });
    await inst.insertLog(db, { vrepl_id: id, type: 'Stream Created', state: 'Init', message: 'created' });
    const r = await readSidecar(target(inst, db, dbName), readerConn(inst));
    assert.equal(r.sidecarDb, db);
    assert.deepEqual(
      value(r.vreplication).map((x) => x.id),
      [id],
    );
    assert.deepEqual(
      value(r.copyState).map((c) => c.table_name),
      ['customer'],
    );
    assert.deepEqual(
      value(r.vreplicationLog).map((l) => l.message),
      ['created'],
    );
  });

  test('create probes: a row, no row, no such table (empty, as Vitess ignores it); backticks doubled', async () => {
    const inst = pool.instance(2);
    const db = await sidecar(inst);
    const dbName = pool.uniqueName('vt_probe');
    await inst.exec(
      `CREATE DATABASE \`${dbName}\``,
      `CREATE TABLE \`${dbName}\`.\`full\` (id INT PRIMARY KEY)`,
      `CREATE TABLE \`${dbName}\`.\`empty\` (id INT PRIMARY KEY)`,
      `CREATE TABLE \`${dbName}\`.\`we\`\`ird\` (id INT PRIMARY KEY)`,
      `INSERT INTO \`${dbName}\`.\`full\` VALUES (1), (2)`,
      `INSERT INTO \`${dbName}\`.\`we\`\`ird\` VALUES (1)`,
    );
    created.push([inst, dbName]);
    assert.equal(nonEmptyProbe('vt_x', 'a`b'), '/* vtpreflight */ SELECT 1 FROM `vt_x`.`a``b` LIMIT 1');
    const r = await readSidecar(target(inst, db, dbName), readerConn(inst), {
      probeTables: ['full', 'missing', 'empty', 'we`ird', 'full'],
    });
    assert.deepEqual(value(r.tableProbes!), [
      { table_name: 'full', non_empty: true },
      { table_name: 'missing', non_empty: false },
      { table_name: 'empty', non_empty: false },
      { table_name: 'we`ird', non_empty: true },
    ]);
    // The reads before the probes are unaffected by a missing table.
    assert.ok(r.vreplication.ok && r.tables?.ok);
    // Not asked: no probe, and no tableProbes in the read.
    const plain = await readSidecar(target(inst, db, dbName), readerConn(inst));
    assert.equal(plain.tableProbes, undefined);
    // A refused probe (no SELECT on the table) fails the probes' read, as it fails Vitess's validation.
    const user = pool.uniqueName('np').slice(0, 32);
    await inst.createUser(user, 'np-pw', [`SELECT ON \`${db}\`.*`]);
    try {
      const denied = await readSidecar(target(inst, db, dbName), readerConn(inst, { user, password: 'np-pw' }), {
        probeTables: ['full'],
      });
      assert.equal(denied.tableProbes?.ok, false);
    } finally {
      await inst.dropUser(user);
    }
  });

  test('copy_state: the newest row per (stream, table), for the streams of this db_name only', async () => {
    const inst = pool.instance(0);
    const db = await sidecar(inst);
    const dbName = pool.uniqueName('vt_cs');
    const a = await inst.insertStream(db, { db_name: dbName, source: SOURCE('ks', '-80'), state: 'Copying' });
    const b = await inst.insertStream(db, { db_name: dbName, source: SOURCE('ks', '80-'), state: 'Running' });
    const foreign = await inst.insertStream(db, { db_name: pool.uniqueName('vt_other'), source: SOURCE('ks', '0') });
    await inst.insertCopyState(db, { vrepl_id: a, table_name: 'customer' });
    const newest = await inst.insertCopyState(db, {
      vrepl_id: a,
      table_name: 'customer',
      lastpk: 'fields:{name:"id"} rows:{lengths:1 values:"5"}',
    });
    const orders = await inst.insertCopyState(db, { vrepl_id: a, table_name: 'corder' });
    await inst.insertCopyState(db, { vrepl_id: foreign, table_name: 'product' });
    const r = await readSidecar(target(inst, db, dbName), readerConn(inst));
    assert.deepEqual(value(r.copyState), [
      { id: orders, vrepl_id: a, table_name: 'corder' },
      { id: newest, vrepl_id: a, table_name: 'customer' },
    ]);
    assert.ok(!value(r.copyState).some((c) => c.vrepl_id === b || c.vrepl_id === foreign));
  });

  test('vreplication_log: the newest rows per stream, bounded, oldest first, timestamps as text', async () => {
    const inst = pool.instance(1);
    const db = await sidecar(inst);
    const dbName = pool.uniqueName('vt_log');
    const a = await inst.insertStream(db, { db_name: dbName, source: SOURCE('ks', '-80') });
    const b = await inst.insertStream(db, { db_name: dbName, source: SOURCE('ks', '80-') });
    for (let i = 1; i <= 5; i += 1) {
      await inst.insertLog(db, {
        vrepl_id: a,
        type: 'Message',
        state: 'Running',
        message: `a${i}`,
        count: i,
        created_at: `2024-01-0${i} 10:00:00`,
      });
    }
    await inst.insertLog(db, {
      vrepl_id: b,
      type: 'State Changed',
      state: 'Error',
      message: 'boom',
      created_at: null,
      updated_at: null,
    });
    const r = await readSidecar(target(inst, db, dbName), readerConn(inst), { logLimitPerStream: 3 });
    const logs = value(r.vreplicationLog);
    assert.deepEqual(
      logs.map((l) => [l.vrepl_id, l.message, l.count]),
      [
        [a, 'a3', 3],
        [a, 'a4', 4],
        [a, 'a5', 5],
        [b, 'boom', 1],
      ],
    );
    assert.equal(logs[0]?.created_at, '2024-01-03 10:00:00');
    assert.equal(logs[0]?.type, 'Message');
    assert.equal(logs[3]?.created_at, null);
    assert.equal(logs[3]?.state, 'Error');

    const skipped = await readSidecar(target(inst, db, dbName), readerConn(inst), { logLimitPerStream: 0 });
    assert.equal(skipped.vreplicationLog.ok, false);
    assert.equal(skipped.vreplication.ok, true);
  });

  test('a compressed pos (MySQL COMPRESS) comes back as posBase64: 4-byte LE length + zlib', async () => {
    const inst = pool.instance(2);
    const db = await sidecar(inst);
    const dbName = pool.uniqueName('vt_z');
    const text = `MySQL56/${UUID}:1-98765,4e11fa47-71ca-11e1-9e33-c80aa9429562:1-3`;
    await inst.insertStream(db, { db_name: dbName, source: SOURCE('ks', '0'), pos: sqlExpr('COMPRESS(?)', [text]) });
    const r = await readSidecar(target(inst, db, dbName), readerConn(inst));
    const row = value(r.vreplication)[0];
    assert.ok(row?.posBase64, 'posBase64 is set');
    assert.equal(row.pos, '');
    const bytes = Buffer.from(row.posBase64, 'base64');
    assert.equal(bytes.readUInt32LE(0), text.length);
    assert.equal(inflateSync(bytes.subarray(4)).toString('utf8'), text);
  });

  test('64-bit values stay exact: max_tps and journal ids beyond 2^53', async () => {
    const inst = pool.instance(0);
    const db = await sidecar(inst);
    const dbName = pool.uniqueName('vt_j');
    await inst.insertStream(db, { db_name: dbName, source: SOURCE('ks', '0'), max_tps: '9007199254740993' });
    // These two ids are the same double: only an exact comparison tells them apart.
    await inst.insertJournal(db, {
      id: '9223372036854775806',
      db_name: dbName,
      val: 'id:9223372036854775806 migration_type:SHARDS',
    });
    await inst.insertJournal(db, { id: '9223372036854775807', db_name: dbName, val: 'id:9223372036854775807' });
    // Looked up by id alone, as Vitess does (checkIfJournalExistsOnTablet): the db_name does not matter.
    const elsewhere = pool.uniqueName('vt_elsewhere');
    await inst.insertJournal(db, { id: '17', db_name: elsewhere, val: 'id:17' });

    const byIds = await readSidecar(target(inst, db, dbName), readerConn(inst), {
      journalIds: ['9223372036854775806', '17', '5'],
    });
    assert.equal(value(byIds.vreplication)[0]?.max_tps, '9007199254740993');
    assert.deepEqual(value(byIds.reshardingJournal), [
      { id: '17', db_name: elsewhere, val: 'id:17' },
      { id: '9223372036854775806', db_name: dbName, val: 'id:9223372036854775806 migration_type:SHARDS' },
    ]);

    const byDb = await readSidecar(target(inst, db, dbName), readerConn(inst));
    assert.deepEqual(
      value(byDb.reshardingJournal).map((j) => j.id),
      ['9223372036854775806', '9223372036854775807'],
    );

    const none = await readSidecar(target(inst, db, dbName), readerConn(inst), { journalIds: [] });
    assert.deepEqual(value(none.reshardingJournal), []);

    const bad = await readSidecar(target(inst, db, dbName), readerConn(inst), { journalIds: ['12; DROP TABLE x'] });
    assert.equal(bad.reshardingJournal.ok, false);
    assert.match(bad.reshardingJournal.ok ? '' : bad.reshardingJournal.error.reason, /invalid journal id/);
  });

  test('the late options column (JSON) is read as text when present', async () => {
    const inst = pool.instance(1);
    const db = await sidecar(inst, '_vt', { withOptionsColumn: true });
    const dbName = pool.uniqueName('vt_o');
    await inst.insertStream(db, { db_name: dbName, source: SOURCE('ks', '0'), options: '{"tenant_id": "t1"}' });
    await inst.insertStream(db, { db_name: dbName, source: SOURCE('ks', '1') });
    const r = await readSidecar(target(inst, db, dbName), readerConn(inst));
    assert.ok(value(r.columns).includes('options'));
    assert.deepEqual(
      value(r.vreplication).map((x) => x.options),
      ['{"tenant_id": "t1"}', null],
    );
  });

  test('a missing resharding_journal table is a recorded failure; the other reads stand', async () => {
    const inst = pool.instance(2);
    const db = await sidecar(inst);
    const dbName = pool.uniqueName('vt_nj');
    await inst.insertStream(db, { db_name: dbName, source: SOURCE('ks', '0') });
    await inst.exec(`DROP TABLE \`${db}\`.resharding_journal`);
    const r = await readSidecar(target(inst, db, dbName), readerConn(inst), { journalIds: ['1'] });
    assert.equal(value(r.vreplication).length, 1);
    assert.equal(r.reshardingJournal.ok, false);
    if (!r.reshardingJournal.ok) {
      assert.equal(r.reshardingJournal.error.what, `select ${db}.resharding_journal`);
      assert.equal(r.reshardingJournal.error.where, `zone1-0000000100 (${inst.endpoint})`);
      assert.match(r.reshardingJournal.error.reason, /doesn't exist/);
      assert.equal(r.reshardingJournal.error.timedOut, undefined);
      assert.equal(r.reshardingJournal.error.kind, 'missing-table', 'ER_NO_SUCH_TABLE 1146');
    }
  });

  test('a missing sidecar database fails every read with the server’s reason', async () => {
    const inst = pool.instance(0);
    const r = await readSidecar(target(inst, pool.uniqueName('_vt_absent'), 'vt_x'), readerConn(inst));
    for (const read of allReads(r)) assert.equal(read.ok, false);
    if (!r.columns.ok) assert.match(r.columns.error.reason, /Unknown database|doesn't exist/);
    if (!r.copyState.ok) assert.match(r.copyState.error.reason, /^not read because select .* failed/);
    // ER_BAD_DB_ERROR 1049 or ER_NO_SUCH_TABLE 1146; the reads that depend on it carry the root cause's kind.
    for (const read of allReads(r)) if (!read.ok) assert.equal(read.error.kind, 'missing-table');
  });
});

describe('readSidecar on an old schema', () => {
  test('columns the server lacks are absent from the rows, not zero; a missing log table is recorded', async () => {
    const inst = pool.instance(1);
    const db = await sidecar(inst, '_vt', { variant: 'old' });
    const dbName = pool.uniqueName('vt_old');
    const id = await inst.insertStream(db, {
      db_name: dbName,
      source: SOURCE('ks', '-80'),
      pos: `MySQL56/${UUID}:1-5`,
    });
    await inst.insertCopyState(db, { vrepl_id: id, table_name: 'customer' });
    const r = await readSidecar(target(inst, db, dbName), readerConn(inst));
    assert.deepEqual(value(r.columns), [
      'id',
      'workflow',
      'source',
      'pos',
      'stop_pos',
      'max_tps',
      'max_replication_lag',
      'cell',
      'tablet_types',
      'time_updated',
      'transaction_timestamp',
      'state',
      'message',
      'db_name',
    ]);
    const row = value(r.vreplication)[0];
    assert.ok(row);
    assert.equal(row.pos, `MySQL56/${UUID}:1-5`);
    for (const late of [
      'rows_copied',
      'tags',
      'time_heartbeat',
      'workflow_type',
      'time_throttled',
      'component_throttled',
      'workflow_sub_type',
      'defer_secondary_keys',
      'options',
    ]) {
      assert.equal(late in row, false, `${late} must be absent`);
    }
    assert.deepEqual(
      value(r.copyState).map((c) => c.table_name),
      ['customer'],
    );
    assert.equal(r.vreplicationLog.ok, false);
    if (!r.vreplicationLog.ok) {
      assert.equal(r.vreplicationLog.error.what, `select ${db}.vreplication_log`);
      assert.match(r.vreplicationLog.error.reason, /doesn't exist/);
    }
    assert.deepEqual(value(r.reshardingJournal), []);
  });

  test('a schema without db_name cannot be filtered: recorded as unsupported', async () => {
    const inst = pool.instance(2);
    const db = await sidecar(inst, '_vt', { variant: 'old' });
    await inst.exec(`ALTER TABLE \`${db}\`.vreplication DROP COLUMN db_name`);
    const r = await readSidecar(target(inst, db, 'vt_x'), readerConn(inst));
    assert.equal(r.vreplication.ok, false);
    if (!r.vreplication.ok) {
      assert.match(r.vreplication.error.reason, /lacks column\(s\) db_name \(Unknown column/);
      assert.equal(r.vreplication.error.kind, 'missing-column', 'ER_BAD_FIELD_ERROR 1054');
    }
  });
});

describe('readSidecar failures are recorded, never thrown', () => {
  test('an unreachable port fails every read with what, where and why, and no password', async () => {
    const inst = pool.instance(0);
    // A port nothing listens on: bind and release one.
    const { freePort } = await import('../harness/mariadb.js');
    const port = await freePort();
    const password = 'sup3r-s3cret-pw';
    const t = { ...target(inst, '_vt', 'vt_x'), endpoint: `127.0.0.1:${port}` };
    const r = await readSidecar(t, { host: '127.0.0.1', port, user: 'vtpreflight', password, timeoutMs: 2000 });
    for (const read of allReads(r)) {
      assert.equal(read.ok, false);
      if (!read.ok) {
        assert.equal(read.error.what, 'connect');
        assert.equal(read.error.where, `zone1-0000000100 (127.0.0.1:${port})`);
        assert.equal(read.error.reason, `cannot connect to 127.0.0.1:${port}: ECONNREFUSED`);
        assert.equal(read.error.timedOut, undefined);
        assert.equal(read.error.kind, 'connect-refused');
      }
    }
    assert.ok(!JSON.stringify(r).includes(password));
  });

  test('a server that accepts but never greets times out the connect: timedOut, within the deadline', async () => {
    const { createServer } = await import('node:net');
    const held: import('node:net').Socket[] = [];
    const silent = createServer((sock) => held.push(sock));
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', () => r()));
    const port = (silent.address() as import('node:net').AddressInfo).port;
    try {
      const t0 = Date.now();
      const r = await readSidecar(
        { ...target(pool.instance(0), '_vt', 'vt_x'), endpoint: `127.0.0.1:${port}` },
        {
          host: '127.0.0.1',
          port,
          user: 'vtpreflight',
          password: 'pw-never-shown',
          timeoutMs: 300,
        },
      );
      assert.ok(Date.now() - t0 < 3000);
      assert.deepEqual(r.vreplication, {
        ok: false,
        error: {
          what: 'connect',
          where: `zone1-0000000100 (127.0.0.1:${port})`,
          reason: `cannot connect to 127.0.0.1:${port} within 300ms: ETIMEDOUT`,
          timedOut: true,
          kind: 'timeout',
        },
      });
    } finally {
      for (const s of held) s.destroy();
      await new Promise((r) => silent.close(r));
    }
  });

  /** `readSidecar` against a TCP server that answers each connection with `onConnect` (a fake mysqld). */
  const readFakeServer = async (onConnect: (sock: import('node:net').Socket) => void): Promise<TabletSidecarRead> => {
    const { createServer } = await import('node:net');
    const server = createServer(onConnect);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const port = (server.address() as import('node:net').AddressInfo).port;
    try {
      return await readSidecar(
        { ...target(pool.instance(0), '_vt', 'vt_x'), endpoint: `127.0.0.1:${port}` },
        { host: '127.0.0.1', port, user: 'vtpreflight', password: 'pw-never-shown', timeoutMs: 2000 },
      );
    } finally {
      await new Promise((r) => server.close(r));
    }
  };

  test('a server at its connection limit (ERR 1040 instead of the greeting) is kind too-many-connections', async () => {
    const { errPacket } = await import('../../src/sim/mysql-protocol.js');
    // What mysqld sends a client past max_connections: an ERR packet in place of the handshake (sequence 0).
    const r = await readFakeServer((sock) => sock.end(errPacket(1040, '08004', 'Too many connections', 0)));
    assert.equal(r.columns.ok, false);
    if (!r.columns.ok) {
      assert.equal(r.columns.error.what, 'connect');
      assert.equal(r.columns.error.kind, 'too-many-connections');
    }
  });

  test('a server that drops the connection before its greeting is kind connection-lost', async () => {
    const r = await readFakeServer((sock) => sock.destroy());
    assert.equal(r.columns.ok, false);
    for (const read of allReads(r)) if (!read.ok) assert.equal(read.error.kind, 'connection-lost');
  });

  test('a wrong password is a connect failure naming the server’s refusal, without the password', async () => {
    const inst = pool.instance(1);
    const password = 'wrong-password-1234';
    const r = await readSidecar(target(inst, '_vt', 'vt_x'), readerConn(inst, { password }));
    assert.equal(r.vreplication.ok, false);
    if (!r.vreplication.ok) {
      assert.equal(r.vreplication.error.what, 'connect');
      assert.match(
        r.vreplication.error.reason,
        new RegExp(`^cannot connect to ${inst.host}:${inst.port}: Access denied for user 'vtpreflight'`),
      );
      assert.doesNotMatch(r.vreplication.error.reason, /\n/);
      assert.equal(r.vreplication.error.kind, 'auth', 'ER_ACCESS_DENIED_ERROR 1045');
    }
    assert.ok(!JSON.stringify(r).includes(password));
  });

  test('a user without grants: every read fails with the server’s reason', async () => {
    const inst = pool.instance(2);
    const db = await sidecar(inst);
    const dbName = pool.uniqueName('vt_ng');
    await inst.insertStream(db, { db_name: dbName, source: SOURCE('ks', '0') });
    const user = pool.uniqueName('nogrant').slice(0, 32);
    const password = 'nogrant-pw-5678';
    await inst.createUser(user, password, []);
    try {
      const r = await readSidecar(target(inst, db, dbName), readerConn(inst, { user, password }));
      for (const read of allReads(r)) assert.equal(read.ok, false);
      if (!r.vreplication.ok) {
        assert.equal(r.vreplication.error.what, `select ${db}.vreplication`);
        assert.match(r.vreplication.error.reason, /command denied to user/);
        assert.equal(r.vreplication.error.kind, 'privilege', 'ER_TABLEACCESS_DENIED_ERROR 1142');
      }
      assert.deepEqual(r.columns, r.vreplication, 'the columns are the SELECT * answer’s: the same failure');
      if (!r.copyState.ok)
        assert.match(r.copyState.error.reason, /^not read because select .*vreplication failed: .*denied/);
      if (!r.reshardingJournal.ok) assert.match(r.reshardingJournal.error.reason, /command denied/);
      assert.ok(!JSON.stringify(r).includes(password));
    } finally {
      await inst.dropUser(user);
    }
  });

  test('a statement that outlives its deadline (table locked by another session) is timedOut', async () => {
    const inst = pool.instance(0);
    const db = await sidecar(inst);
    const dbName = pool.uniqueName('vt_lock');
    await inst.insertStream(db, { db_name: dbName, source: SOURCE('ks', '0') });
    const locker = await inst.rootConnection();
    try {
      await locker.query(`LOCK TABLES \`${db}\`.vreplication WRITE`);
      const t0 = Date.now();
      const r = await readSidecar(target(inst, db, dbName), readerConn(inst, { timeoutMs: 400 }));
      const elapsed = Date.now() - t0;
      assert.ok(elapsed < 4000, `took ${elapsed} ms`);
      assert.equal(r.vreplication.ok, false);
      if (!r.vreplication.ok) {
        assert.equal(r.vreplication.error.timedOut, true);
        assert.equal(r.vreplication.error.what, `select ${db}.vreplication`);
        // The server stopped it at the session's limit (90% of 400 ms), before the client's own deadline.
        assert.match(r.vreplication.error.reason, /max_statement_time exceeded/);
        assert.equal(r.vreplication.error.kind, 'timeout');
      }
      assert.equal(r.copyState.ok, false);
      // A primary too slow for one statement is not asked again: the reads after it fail with the deadline.
      assert.equal(r.reshardingJournal.ok, false);
      if (!r.reshardingJournal.ok) assert.equal(r.reshardingJournal.error.timedOut, true);
    } finally {
      await locker.query('UNLOCK TABLES').catch(() => undefined);
      await locker.end();
    }
  });

  test('an executor deadline (timedOut error) is recorded as timedOut for that read only', async () => {
    const inst = pool.instance(1);
    const db = await sidecar(inst);
    const dbName = pool.uniqueName('vt_slow');
    const id = await inst.insertStream(db, { db_name: dbName, source: SOURCE('ks', '0') });
    await inst.insertCopyState(db, { vrepl_id: id, table_name: 't' });
    const real = await openMysqlExecutor(readerConn(inst));
    // A slow transport (vtctld, a congested link): this one gives up on copy_state after its deadline.
    const slow: SqlExecutor = {
      query: async (sql, params) => {
        if (sql.includes('copy_state')) {
          await new Promise((r) => setTimeout(r, 50));
          throw Object.assign(new Error('deadline exceeded after 50ms'), { timedOut: true });
        }
        return real.query(sql, params);
      },
      close: () => real.close(),
    };
    try {
      const r = await readSidecarWith(slow, target(inst, db, dbName));
      assert.equal(r.vreplication.ok, true);
      assert.deepEqual(r.copyState, {
        ok: false,
        error: {
          what: `select ${db}.copy_state`,
          where: `zone1-0000000100 (${inst.endpoint})`,
          reason: 'deadline exceeded after 50ms',
          timedOut: true,
          kind: 'timeout',
        },
      });
      assert.equal(r.vreplicationLog.ok, true);
      assert.equal(r.reshardingJournal.ok, true);
    } finally {
      await slow.close();
    }
  });

  test('executors that throw synchronously or return malformed results do not make the reader throw', async () => {
    const t: SidecarTarget = {
      alias: 'zone1-0000000101',
      keyspace: 'ks',
      shard: '0',
      endpoint: 'fake',
      sidecarDb: '_vt',
      dbName: 'vt_ks',
    };
    const throwing: SqlExecutor = {
      query: () => {
        throw new Error('boom');
      },
      close: async () => undefined,
    };
    const r1 = await readSidecarWith(throwing, t);
    for (const read of allReads(r1)) assert.equal(read.ok, false);

    const malformed: SqlExecutor = {
      query: async (sql) =>
        sql.includes('SELECT * FROM')
          ? { columns: [...KNOWN_VREPLICATION_COLUMNS], rows: [KNOWN_VREPLICATION_COLUMNS.map(() => 'x')] }
          : { columns: ['nonsense'], rows: [[1]] },
      close: async () => undefined,
    };
    const r2 = await readSidecarWith(malformed, t);
    assert.equal(r2.columns.ok, true);
    assert.equal(r2.vreplication.ok, false);
    if (!r2.vreplication.ok) assert.match(r2.vreplication.error.reason, /^unexpected result: not a number/);
    const oneStream: SqlExecutor = {
      query: async (sql) =>
        sql.includes('SELECT * FROM')
          ? { columns: KNOWN_VREPLICATION_COLUMNS.slice(0, 14), rows: [ONE_STREAM_ROW] }
          : { columns: ['nonsense'], rows: [[1]] },
      close: async () => undefined,
    };
    const r3 = await readSidecarWith(oneStream, t);
    assert.equal(r3.vreplication.ok, true);
    if (!r3.copyState.ok) assert.match(r3.copyState.error.reason, /^unexpected result: column id missing/);
    if (!r3.copyState.ok) assert.equal(r3.copyState.error.kind, 'bad-answer');
    assert.equal(r3.copyState.ok, false);
  });

  test('a sidecar name that cannot be quoted is refused before any statement is sent', async () => {
    const never: SqlExecutor = {
      query: () => assert.fail('no statement may be sent'),
      close: async () => undefined,
    };
    for (const name of ['bad`name', 'nul\0name', '', 'x'.repeat(65)]) {
      const r = await readSidecarWith(never, {
        alias: 'a',
        keyspace: 'k',
        shard: '0',
        endpoint: 'e',
        sidecarDb: name,
        dbName: 'vt_k',
      });
      for (const read of allReads(r)) {
        assert.equal(read.ok, false);
        if (!read.ok) assert.equal(read.error.what, 'validate sidecar database name');
        if (!read.ok) assert.equal(read.error.kind, 'refused');
      }
    }
  });
});

describe('vreplication row decoding', () => {
  test('keys in column order, optional nulls left out, posBase64 after pos; each row its own values', async () => {
    const cols = [...KNOWN_VREPLICATION_COLUMNS];
    const compressed = Buffer.from([5, 0, 0, 0, 0x78, 0x9c, 0x01]);
    // id workflow source pos stop_pos max_tps max_replication_lag cell tablet_types time_updated
    // transaction_timestamp state message db_name rows_copied tags time_heartbeat workflow_type time_throttled
    // component_throttled workflow_sub_type defer_secondary_keys options
    const full = (id: number, pos: SqlResult['rows'][number][number]) => [
      id,
      'wf',
      Buffer.from(`src${id}`),
      pos,
      null,
      '9223372036854775807',
      '7',
      'zone1',
      'PRIMARY',
      '5',
      '6',
      'Running',
      Buffer.from('m'),
      'vt_ks',
      '10',
      'a:b',
      '11',
      '1',
      '0',
      '',
      '0',
      '1',
      '{}',
    ];
    const sparse = (id: number, pos: SqlResult['rows'][number][number]) => [
      id,
      null,
      Buffer.from(`src${id}`),
      pos,
      'MySQL56/x:1-2',
      null,
      null,
      null,
      null,
      '5',
      '6',
      'Stopped',
      null,
      'vt_ks',
      null,
      null,
      null,
      null,
      null,
      null,
      null,
      null,
      null,
    ];
    const rows = [
      full(1, 'MySQL56/a:1-5'),
      sparse(2, compressed),
      full(3, Buffer.from('MySQL56/b:1-3')),
      sparse(4, 'p4'),
    ];
    const exec: SqlExecutor = {
      query: async () => assert.fail('everything goes in the batch'),
      batch: async (statements) => ({
        results: statements.map((st) =>
          st.sql.includes('SELECT * FROM') ? { columns: cols, rows } : { columns: ['id'], rows: [] },
        ),
      }),
      close: async () => undefined,
    };
    const r = await readSidecarWith(exec, {
      alias: 'a',
      keyspace: 'k',
      shard: '0',
      endpoint: 'e',
      sidecarDb: '_vt',
      dbName: 'vt_ks',
    });
    const fullRow = (id: number, pos: string) => ({
      id,
      workflow: 'wf',
      source: `src${id}`,
      pos,
      stop_pos: null,
      max_tps: '9223372036854775807',
      max_replication_lag: '7',
      cell: 'zone1',
      tablet_types: 'PRIMARY',
      time_updated: 5,
      transaction_timestamp: 6,
      state: 'Running',
      message: 'm',
      db_name: 'vt_ks',
      rows_copied: 10,
      tags: 'a:b',
      time_heartbeat: 11,
      workflow_type: 1,
      time_throttled: 0,
      component_throttled: '',
      workflow_sub_type: 0,
      defer_secondary_keys: 1,
      options: '{}',
    });
    const sparseRow = (id: number, pos: Record<string, string>) => ({
      id,
      workflow: null,
      source: `src${id}`,
      ...pos,
      stop_pos: 'MySQL56/x:1-2',
      cell: null,
      tablet_types: null,
      time_updated: 5,
      transaction_timestamp: 6,
      state: 'Stopped',
      message: null,
      db_name: 'vt_ks',
      options: null,
    });
    const expected = [
      fullRow(1, 'MySQL56/a:1-5'),
      sparseRow(2, { pos: '', posBase64: compressed.toString('base64') }),
      fullRow(3, 'MySQL56/b:1-3'),
      sparseRow(4, { pos: 'p4' }),
    ];
    // JSON text compares the key order too (deepEqual does not).
    assert.deepEqual(
      value(r.vreplication).map((row) => JSON.stringify(row)),
      expected.map((row) => JSON.stringify(row)),
    );
    assert.deepEqual(value(r.vreplication), expected);
  });
});

describe('binary cells as text', () => {
  test('toText and decodePos give what TextDecoder gives (lenient and fatal), BOMs and invalid bytes included', () => {
    const lenient = new TextDecoder('utf-8');
    const fatal = new TextDecoder('utf-8', { fatal: true });
    const reference = (b: Buffer): { pos: string; posBase64?: string } => {
      let text: string;
      try {
        text = fatal.decode(b);
      } catch {
        return { pos: '', posBase64: b.toString('base64') };
      }
      // The same test as decodePos.
      return /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(text)
        ? { pos: '', posBase64: b.toString('base64') }
        : { pos: text };
    };
    // Bytes around the UTF-8 boundaries (continuation, overlong, surrogate, beyond U+10FFFF leads) and the BOM.
    const edges = [
      0x00, 0x09, 0x41, 0x7f, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbb, 0xbf, 0xc0, 0xc1, 0xc2, 0xdf, 0xe0, 0xed,
    ];
    const bytes = [...edges, 0xef, 0xf0, 0xf4, 0xf5, 0xff];
    let seed = 12345;
    const random = () => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed / 0x7fffffff;
    };
    const cases: Buffer[] = [
      Buffer.from([0xef, 0xbb, 0xbf, 0x41]),
      Buffer.from([0xef, 0xbb, 0xbf]),
      Buffer.from([0xef, 0xbb, 0xbf, 0xff]),
      Buffer.from([0xef, 0xbb]),
      Buffer.from('MySQL56/4e11fa47-71ca-11e1-9e33-c80aa9429562:1-5'),
      Buffer.from('ünïcödé ☃ 😀'),
    ];
    for (let i = 0; i < 20000; i++) {
      const b = Buffer.alloc(Math.floor(random() * 10));
      for (let j = 0; j < b.length; j++)
        b[j] = random() < 0.7 ? (bytes[Math.floor(random() * bytes.length)] ?? 0) : Math.floor(random() * 256);
      if (random() < 0.1 && b.length >= 3) b.set([0xef, 0xbb, 0xbf]);
      cases.push(b);
    }
    for (const b of cases) {
      assert.equal(toText(b), lenient.decode(b), b.toString('hex'));
      assert.deepEqual(decodePos(b), reference(b), b.toString('hex'));
    }
  });
});

describe('statement shapes', () => {
  test('1,200 streams: one batch of five statements, copy_state and the log by subquery, no id lists', async () => {
    const ids = Array.from({ length: 1200 }, (_, i) => i + 1);
    const answer = (sql: string): SqlResult => {
      if (sql.includes('SELECT * FROM')) {
        return {
          columns: KNOWN_VREPLICATION_COLUMNS.slice(0, 14),
          rows: ids.map((id) => [id, 'wf', 'src', '', null, '1', '1', null, null, '0', '0', 'Running', null, 'vt_ks']),
        };
      }
      if (sql.includes('`copy_state`'))
        return {
          columns: ['id', 'vrepl_id', 'table_name'],
          rows: [
            [7, 1, 't'],
            [8, 5000, 't'],
          ],
        };
      if (sql.includes('`vreplication_log`'))
        return {
          columns: ['id', 'vrepl_id', 'type', 'state', 'message', 'created_at', 'updated_at', 'count'],
          rows: [[9, 1200, 'Message', 'Running', 'm', null, null, 1]],
        };
      if (sql.includes('information_schema'))
        return {
          columns: ['table_name', 'column_name', 'data_type', 'max_length'],
          rows: [['vreplication', 'pos', 'varbinary', 10000]],
        };
      return { columns: ['id', 'db_name', 'val'], rows: [] };
    };
    const batches: SqlStatement[][] = [];
    const exec: SqlExecutor = {
      query: async () => assert.fail('everything goes in the batch'),
      batch: async (statements) => {
        batches.push([...statements]);
        return { results: statements.map((st) => answer(st.sql)) };
      },
      close: async () => undefined,
    };
    const r = await readSidecarWith(
      exec,
      { alias: 'a', keyspace: 'k', shard: '0', endpoint: 'e', sidecarDb: '_vt', dbName: 'vt_ks' },
      { logLimitPerStream: 1 },
    );
    assert.equal(value(r.vreplication).length, 1200);
    assert.equal(batches.length, 1);
    assert.deepEqual(
      batches[0]!.map((st) => st.params),
      [
        ['vt_ks'],
        ['vt_ks'],
        ['vt_ks'],
        ['vt_ks'],
        ['_vt', '_vt', '_vt'],
        ['vt_ks'],
        ['vt_ks'],
        ['vt_ks'],
        ['vt_ks'],
        ['vt_ks'],
        ['vt_ks'],
        ['vt_ks'],
        [],
        [],
        [],
        ['vt_filtered'],
        ['vt_filtered'],
        ['vt_filtered'],
        [],
        ['vt_ks'],
        ['vt_ks'],
        [],
      ],
      'db_name everywhere (the sidecar database for its column sizes, none for the 2PC tables, the time-zone probe, the instrumentation probe and the transactions, filtered by the reader; the filtered user for the grant tables); the log statement takes db_name once per row asked of each stream (logLimitPerStream)',
    );
    for (const st of batches[0]!) assert.match(st.sql, /^\/\* vtpreflight \*\/ SELECT /);
    // A copy_state row of a stream the vreplication read did not see (created in between) is dropped.
    assert.deepEqual(
      value(r.copyState).map((c) => c.vrepl_id),
      [1],
    );
    assert.deepEqual(
      value(r.vreplicationLog).map((l) => l.vrepl_id),
      [1200],
    );
  });

  test('a batch stopped by a failing statement: that read fails, the later ones are sent one by one', async () => {
    const sent: string[] = [];
    const exec: SqlExecutor = {
      query: async (sql) => {
        sent.push(sql);
        return { columns: ['id', 'db_name', 'val'], rows: [['1', 'vt_ks', 'v']] };
      },
      batch: async () => ({
        results: [{ columns: KNOWN_VREPLICATION_COLUMNS.slice(0, 14), rows: [ONE_STREAM_ROW] }],
        error: { at: 1, cause: Object.assign(new Error("Table '_vt.copy_state' doesn't exist"), { errno: 1146 }) },
      }),
      close: async () => undefined,
    };
    const r = await readSidecarWith(exec, {
      alias: 'a',
      keyspace: 'k',
      shard: '0',
      endpoint: 'e',
      sidecarDb: '_vt',
      dbName: 'vt_ks',
    });
    assert.equal(r.vreplication.ok, true);
    assert.match(r.copyState.ok ? '' : r.copyState.error.reason, /copy_state' doesn't exist/);
    assert.equal(
      sent.length,
      20,
      'the log, the journal, the column sizes, the tables, the base tables and keys, the 2PC tables, the VDiff runs and their tables, the foreign keys and their rules, the time-zone probe, the three grant tables, the MDL probe and locks, the sessions and their transactions',
    );
    assert.equal(r.reshardingJournal.ok && r.reshardingJournal.value.length, 1);
    // Without the failed statement's index (vtctld answers one error per call), every unanswered read is re-sent.
    sent.length = 0;
    const unknownAt: SqlExecutor = { ...exec, batch: async () => ({ results: [], error: { cause: new Error('x') } }) };
    const r2 = await readSidecarWith(unknownAt, {
      alias: 'a',
      keyspace: 'k',
      shard: '0',
      endpoint: 'e',
      sidecarDb: '_vt',
      dbName: 'vt_ks',
    });
    assert.equal(sent.length, 22);
    assert.equal(r2.reshardingJournal.ok, true);
  });

  test('open transactions: INNODB_TRX joined with the sessions by the reader, oldest first; lists sorted', async () => {
    // No statement sorts or joins information_schema tables (MariaDB 10.11 crashed on such reads): the reader
    // answers what `INNODB_TRX JOIN PROCESSLIST … WHERE DB = ? ORDER BY trx_started, ID LIMIT 100` answered.
    const long = `UPDATE t SET v = '${'é'.repeat(1100)}'`;
    const answer = (sql: string): SqlResult => {
      if (sql.includes('information_schema.`PROCESSLIST`'))
        return {
          columns: ['id', 'user', 'db', 'command', 'state', 'info'],
          rows: [
            [12, 'app', 'vt_ks', 'Sleep', '', null],
            [11, 'app', 'vt_ks', 'Query', 'Updating', long],
            [10, 'app', 'vt_ks', 'Query', 'Waiting for table metadata lock', 'LOCK TABLES t READ'],
            [13, 'other', 'vt_other', 'Sleep', '', null],
            [14, 'app', 'vt_ks', 'Sleep', '', null],
          ],
        };
      if (sql.includes('`INNODB_TRX`'))
        return {
          columns: ['thread_id', 'trx_seconds', 'trx_state', 'statement', 'rows_modified', 'tables_locked'],
          rows: [
            [13, 100, 'RUNNING', null, 0, 0], // another schema's session: not joined
            [11, 5, 'RUNNING', null, 2, 1],
            [12, 5, 'RUNNING', 'DELETE FROM t WHERE id = 7', 1, 1],
            [10, 30, 'LOCK WAIT', null, 0, 0],
            [99, 50, 'RUNNING', null, 0, 0], // session gone between the two reads: dropped
          ],
        };
      if (sql.includes('`TABLE_TYPE`')) return { columns: ['table_name'], rows: [['b'], ['B'], ['a']] };
      if (sql.includes('`STATISTICS`'))
        return {
          columns: ['table_name', 'index_name', 'nullable'],
          rows: [
            ['b', 'u', 'YES'],
            ['a', 'PRIMARY', ''],
          ],
        };
      if (sql.includes('information_schema.`TABLES`')) return { columns: ['table_name'], rows: [['b'], ['B'], ['a']] };
      return { columns: ['id', 'db_name', 'val'], rows: [] };
    };
    const exec: SqlExecutor = {
      query: async () => assert.fail('everything goes in the batch'),
      batch: async (statements) => ({ results: statements.map((st) => answer(st.sql)) }),
      close: async () => undefined,
    };
    const r = await readSidecarWith(exec, {
      alias: 'a',
      keyspace: 'k',
      shard: '0',
      endpoint: 'e',
      sidecarDb: '_vt',
      dbName: 'vt_ks',
    });
    assert.deepEqual(
      value(r.transactions!).map((t) => [
        t.thread_id,
        t.trx_seconds,
        t.command,
        t.state,
        t.digest,
        t.rows_modified,
        t.tables_locked,
      ]),
      [
        [10, 30, 'Query', 'Waiting for table metadata lock', 'LOCK TABLES t READ', 0, 0],
        [11, 5, 'Query', 'Updating', 'UPDATE t SET v = ?', 2, 1],
        [12, 5, 'Sleep', null, 'DELETE FROM t WHERE id = ?', 1, 1],
      ],
    );
    assert.deepEqual(value(r.tables!), ['B', 'a', 'b'], 'code-unit order');
    assert.deepEqual(
      value(r.tableKeys!).map((t) => [t.table_name, t.has_primary_key, t.unique_nullable]),
      [
        ['B', false, []],
        ['a', true, []],
        ['b', false, ['u']],
      ],
    );
  });

  test('listSidecarStatements: every statement is a tagged SELECT or SHOW naming the quoted sidecar', () => {
    const list = listSidecarStatements('my_vt');
    assert.equal(list.length, 25);
    for (const s of list) {
      assert.match(s, /^\/\* vtpreflight \*\/ SELECT /);
      // The column sizes and the tablet schema's tables read information_schema, the schema name a parameter.
      // The column sizes read information_schema, with the sidecar's name as a parameter; the locks and transactions
      // read information_schema and performance_schema of the tablet's schema.
      // The time-zone probe reads no table at all.
      assert.ok(
        s.includes('`my_vt`.') ||
          s.includes('FROM information_schema.`COLUMNS` WHERE `TABLE_SCHEMA` = ?') ||
          / (information|performance)_schema\./.test(s) ||
          // MoveTables create's emptiness probe names the tablet's schema and the table, both quoted.
          s === '/* vtpreflight */ SELECT 1 FROM `?`.`?` LIMIT 1' ||
          // The filtered user's grant rows (ValidateVReplicationPermissions) read the mysql schema by user.
          / FROM mysql\.`(user|db|tables_priv)` WHERE `User` = \?/.test(s) ||
          /^\/\* vtpreflight \*\/ SELECT CONVERT_TZ\('[^']*', 'UTC', 'UTC'\) AS `converted`$/.test(s) ||
          // The sessions of the open-transactions read: this schema's only, bounded (see trxSessions).
          / FROM information_schema\.`PROCESSLIST` WHERE `DB` = \? LIMIT \d+$/.test(s),
        s,
      );
      assert.ok(!s.includes(';'), s);
    }
  });
});

describe('formatSql (for executors without placeholders, e.g. vtctld ExecuteFetchAsDBA)', () => {
  test('inlines strings and numbers; leaves ? in quotes, identifiers and comments alone', () => {
    assert.equal(
      formatSql('/* a ? */ SELECT \'?\', `?`, "?" FROM t WHERE a = ? AND b IN (?, ?) LIMIT ?', ["it's", 'x', 'y', 20]),
      "/* a ? */ SELECT '?', `?`, \"?\" FROM t WHERE a = 'it''s' AND b IN ('x', 'y') LIMIT 20",
    );
    assert.equal(formatSql('SELECT ?', ['a\\b']), "SELECT X'615c62'");
    assert.equal(formatSql('SELECT ?', ['line\nbreak']), "SELECT X'6c696e650a627265616b'");
    assert.equal(formatSql('SELECT ?', ['ünï ✓']), "SELECT 'ünï ✓'");
    assert.throws(() => formatSql('SELECT ?, ?', ['a']), /more placeholders/);
    assert.throws(() => formatSql('SELECT ?', ['a', 'b']), /2 params for 1 placeholders/);
    assert.throws(() => formatSql('SELECT ?', [Number.NaN]), /cannot inline/);
  });

  test('the same text formats anew with the params of each call, past the bound of texts it keeps', () => {
    const sql = "SELECT '?' FROM t WHERE a = ? /* ? */ AND b = ?";
    assert.equal(formatSql(sql, ['x', 1]), "SELECT '?' FROM t WHERE a = 'x' /* ? */ AND b = 1");
    assert.equal(formatSql(sql, ["y'", 2]), "SELECT '?' FROM t WHERE a = 'y''' /* ? */ AND b = 2");
    for (let i = 0; i < 5000; i++) assert.equal(formatSql(`SELECT ${i}, ?`, [i]), `SELECT ${i}, ${i}`);
    assert.equal(formatSql(sql, ['z', 3]), "SELECT '?' FROM t WHERE a = 'z' /* ? */ AND b = 3");
    assert.equal(formatSql("SELECT 'open ?", []), "SELECT 'open ?");
    assert.equal(formatSql('SELECT ? /* open ?', ['q']), "SELECT 'q' /* open ?");
    assert.throws(() => formatSql(sql, ['x']), /more placeholders than the 1 params/);
  });

  test('inlined strings mean the same to a real server with and without NO_BACKSLASH_ESCAPES', async () => {
    const inst = pool.instance(2);
    const tricky = [
      'plain',
      "it's",
      'back\\slash',
      "\\'; SELECT 1; --",
      'quote"double',
      'nul\0byte',
      'tab\tnew\nline',
      "ünï ✓ '' \\\\",
      '',
    ];
    await inst.withRoot(async (c) => {
      for (const mode of ['', 'NO_BACKSLASH_ESCAPES']) {
        await c.query(`SET SESSION sql_mode = '${mode}'`);
        for (const s of tricky) {
          const [rows] = await c.query({
            sql: formatSql('SELECT CONVERT(? USING utf8mb4) AS v, ? AS n', [s, 7]),
            rowsAsArray: true,
          });
          const row = (rows as unknown[][])[0];
          assert.equal(row?.[0], s, `sql_mode='${mode}' changed ${JSON.stringify(s)}`);
          assert.equal(Number(row?.[1]), 7);
        }
      }
    });
  });
});

describe('openMysqlExecutor', () => {
  test('the session is read-only and binary columns come back as Buffers', async () => {
    const inst = pool.instance(0);
    const exec = await openMysqlExecutor(readerConn(inst));
    try {
      const ro = await exec.query(
        '/* vtpreflight */ SELECT @@session.tx_read_only AS ro, CAST(? AS BINARY) AS b, 9223372036854775807 AS big',
        ['bin'],
      );
      assert.deepEqual(ro.columns, ['ro', 'b', 'big']);
      assert.equal(Number(ro.rows[0]?.[0]), 1);
      assert.ok(Buffer.isBuffer(ro.rows[0]?.[1]));
      assert.equal(ro.rows[0]?.[2], '9223372036854775807');
    } finally {
      await exec.close();
      await exec.close(); // idempotent
    }
    await assert.rejects(exec.query('/* vtpreflight */ SELECT 1', []), /closed/);
  });
});

describe('Sequence and VDiff reads', () => {
  test('sequences, MAX of auto_increment columns, VDiff runs, foreign keys: exact; absent tables answer', async () => {
    const inst = pool.instance(1);
    const db = await sidecar(inst);
    const old = await sidecar(inst, '_vt_old', { variant: 'old' });
    const dbName = pool.uniqueName('vt_seq');
    await inst.exec(
      `CREATE DATABASE \`${dbName}\``,
      `CREATE TABLE \`${dbName}\`.customer_seq (id int, next_id bigint, cache bigint, primary key(id))`,
      `INSERT INTO \`${dbName}\`.customer_seq VALUES (0, 9223372036854775000, 1000)`,
      `CREATE TABLE \`${dbName}\`.empty_seq (id int, next_id bigint, cache bigint, primary key(id))`,
      `CREATE TABLE \`${dbName}\`.customer (customer_id bigint NOT NULL PRIMARY KEY) ENGINE = InnoDB`,
      `INSERT INTO \`${dbName}\`.customer VALUES (3), (9007199254740993)`,
      `CREATE TABLE \`${dbName}\`.corder (order_id bigint NOT NULL PRIMARY KEY) ENGINE = InnoDB`,
      `ALTER TABLE \`${dbName}\`.corder ADD COLUMN customer_id bigint NULL, ADD CONSTRAINT fk_c FOREIGN KEY (customer_id) REFERENCES customer (customer_id) ON DELETE CASCADE`,
      // A name the server stores encoded (`order@002dline`), a constraint name with a dash, other rules.
      `CREATE TABLE \`${dbName}\`.\`order-line\` (id bigint NOT NULL PRIMARY KEY, customer_id bigint NULL, CONSTRAINT \`fk-ol\` FOREIGN KEY (customer_id) REFERENCES customer (customer_id) ON DELETE SET NULL ON UPDATE NO ACTION) ENGINE = InnoDB`,
      `INSERT INTO \`${db}\`.vdiff (id, vdiff_uuid, workflow, keyspace, shard, db_name, state, created_at) VALUES (4, 'u4', 'wf', 'customer', '-80', '${dbName}', 'completed', '2026-01-01 00:00:00'), (5, 'u5', 'wf', 'customer', '-80', '${dbName}', 'error', '2026-01-02 00:00:00'), (6, 'u6', 'wf', 'customer', '-80', 'vt_other', 'started', '2026-01-03 00:00:00')`,
      `UPDATE \`${db}\`.vdiff SET last_error = 'Row count exceeded' WHERE id = 5`,
      `INSERT INTO \`${db}\`.vdiff_table (vdiff_id, table_name, mismatch) VALUES ('4', 'corder', 1), ('4', 'customer', 0), ('6', 'customer', 1)`,
    );
    created.push([inst, dbName]);
    // A schema whose name the unescaped LIKE pattern `vt_seq…/%` would match: its foreign key is not this schema's.
    const sibling = dbName.replace('_', 'X');
    await inst.exec(
      `CREATE DATABASE \`${sibling}\``,
      `CREATE TABLE \`${sibling}\`.p (id bigint NOT NULL PRIMARY KEY) ENGINE = InnoDB`,
      `CREATE TABLE \`${sibling}\`.c (id bigint NOT NULL PRIMARY KEY, p bigint NULL, CONSTRAINT fk_s FOREIGN KEY (p) REFERENCES p (id)) ENGINE = InnoDB`,
    );
    created.push([inst, sibling]);
    const opts = {
      sequenceTables: ['customer_seq', 'empty_seq', 'missing_seq'],
      autoIncrementColumns: [
        { table: 'customer', column: 'customer_id' },
        { table: 'corder', column: 'order_id' },
        { table: 'customer', column: 'nope' },
        { table: 'missing', column: 'id' },
      ],
    };
    const r = await readSidecar(target(inst, db, dbName), readerConn(inst), opts);
    assert.deepEqual(value(r.sequenceValues!), [
      { table_name: 'customer_seq', present: true, next_id: '9223372036854775000', cache: '1000' },
      { table_name: 'empty_seq', present: true, next_id: null, cache: null },
      { table_name: 'missing_seq', present: false, next_id: null, cache: null },
    ]);
    assert.deepEqual(value(r.autoIncrementMax!), [
      { table_name: 'customer', column_name: 'customer_id', present: true, max_value: '9007199254740993' },
      { table_name: 'corder', column_name: 'order_id', present: true, max_value: null },
      { table_name: 'customer', column_name: 'nope', present: false, max_value: null },
      { table_name: 'missing', column_name: 'id', present: false, max_value: null },
    ]);
    assert.deepEqual(
      value(r.vdiffs!).map((v) => [v.id, v.vdiff_uuid, v.state, v.last_error, v.mismatched_tables, v.created_at]),
      [
        [5, 'u5', 'error', 'Row count exceeded', [], '2026-01-02 00:00:00'],
        [4, 'u4', 'completed', '', ['corder'], '2026-01-01 00:00:00'],
      ],
    );
    // the schema's foreign keys, read on MariaDB from InnoDB's dictionary: names decoded, rules from the TYPE bits.
    assert.deepEqual(value(r.foreignKeys!), [
      {
        constraint_name: 'fk_c',
        table_name: 'corder',
        referenced_schema: dbName,
        referenced_table_name: 'customer',
        update_rule: 'RESTRICT',
        delete_rule: 'CASCADE',
      },
      {
        constraint_name: 'fk-ol',
        table_name: 'order-line',
        referenced_schema: dbName,
        referenced_table_name: 'customer',
        update_rule: 'NO ACTION',
        delete_rule: 'SET NULL',
      },
    ]);
    // The reads after an absent table still ran (one by one): the other reads stand.
    assert.equal(value(r.vreplication).length, 0);
    assert.ok(value(r.transactions!));

    // Nothing named: no sequence statement, no field; a sidecar without VDiff v2 tables reads as no runs.
    const o = await readSidecar(target(inst, old, dbName), readerConn(inst));
    assert.equal(o.sequenceValues, undefined);
    assert.equal(o.autoIncrementMax, undefined);
    assert.deepEqual(value(o.vdiffs!), []);
  });
});

describe('InnoDB foreign key rules', () => {
  test('the TYPE bits of INNODB_SYS_FOREIGN as REFERENTIAL_CONSTRAINTS names the rules (values read on MariaDB 10.11)', () => {
    // ON DELETE CASCADE ON UPDATE SET NULL = 9; ON DELETE SET NULL ON UPDATE CASCADE = 6; NO ACTION both = 48;
    // no clause or RESTRICT = 0.
    assert.deepEqual(innodbForeignKeyRules(9), { delete_rule: 'CASCADE', update_rule: 'SET NULL' });
    assert.deepEqual(innodbForeignKeyRules(6), { delete_rule: 'SET NULL', update_rule: 'CASCADE' });
    assert.deepEqual(innodbForeignKeyRules(48), { delete_rule: 'NO ACTION', update_rule: 'NO ACTION' });
    assert.deepEqual(innodbForeignKeyRules(0), { delete_rule: 'RESTRICT', update_rule: 'RESTRICT' });
  });
});
