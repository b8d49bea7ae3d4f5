/**
 * The MySQL-protocol tablets over real sockets: vtpreflight's own reader gets back exactly the generated rows; only
 * its statements are answered; writes, prepared statements and untagged or unknown statements are refused with
 * MySQL errors; replicas and unreachable primaries fail the way dead or refusing mysqlds do; latency is applied.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import mysql from 'mysql2';
import { startSimTablets, type SimTablets } from '../../src/sim/tablets.js';
import { answerSql, READ_ONLY_ERRNO } from '../../src/sim/sidecar-sql.js';
import { generateScenario } from '../../src/sim/scenario.js';
import type { SimCluster, SimSidecar } from '../../src/sim/types.js';
import { readSidecar, SET_READ_ONLY_SQL } from '../../src/sources/mysql.js';
import { formatSql, listSidecarStatements, nonEmptyProbe } from '../../src/sources/sidecar.js';

const NOW = Date.parse('2026-03-01T12:00:00.000Z');

interface Conn {
  query(sql: string): Promise<{ rows: unknown[] }>;
  execute(sql: string): Promise<unknown>;
  end(): void;
}

function connect(port: number, user = 'vtpreflight', password = ''): Promise<Conn> {
  const c = mysql.createConnection({
    host: '127.0.0.1',
    port,
    user,
    password,
    rowsAsArray: true,
    maxPreparedStatements: 1,
  });
  c.on('error', () => {});
  return new Promise((resolve, reject) => {
    c.connect((err) => {
      if (err) return reject(err);
      resolve({
        query: (sql) =>
          new Promise((res, rej) => c.query(sql, (e, rows) => (e ? rej(e) : res({ rows: rows as unknown[] })))),
        execute: (sql) => new Promise((res, rej) => c.execute(sql, (e, rows) => (e ? rej(e) : res(rows)))),
        end: () => c.destroy(),
      });
    });
  });
}

describe('simulated tablets', () => {
  let sim: SimCluster;
  let tablets: SimTablets;
  let sidecar: SimSidecar;
  let port: number;

  before(async () => {
    sim = generateScenario('copy-in-progress', { now: NOW, shards: 4 });
    tablets = await startSimTablets(sim.sidecars, [], { record: true });
    // The primary carrying the copying stream: it has copy_state rows too.
    const fault = sim.faults[0]!;
    sidecar = sim.sidecars[fault.tablet!]!;
    port = tablets.ports.get(sidecar.alias)!;
  });
  after(() => tablets.stop());

  test('one listening port per primary', () => {
    assert.equal(tablets.ports.size, Object.keys(sim.sidecars).length);
    assert.equal(new Set(tablets.ports.values()).size, tablets.ports.size);
  });

  test("vtpreflight's own reader reads back exactly the generated rows", async () => {
    for (const sc of [sidecar, ...Object.values(sim.sidecars).slice(0, 3)]) {
      const target = {
        alias: sc.alias,
        keyspace: sc.keyspace,
        shard: sc.shard,
        endpoint: 'x',
        sidecarDb: sc.sidecarDb,
        dbName: sc.dbName,
      };
      const read = await readSidecar(target, {
        host: '127.0.0.1',
        port: tablets.ports.get(sc.alias)!,
        user: 'vtpreflight',
        password: '',
        timeoutMs: 5000,
      });
      assert.deepEqual(read.columns, { ok: true, value: sc.columns });
      assert.deepEqual(read.vreplication, { ok: true, value: sc.vreplication });
      assert.deepEqual(
        read.copyState.ok && read.copyState.value.map((c) => [c.vrepl_id, c.table_name]),
        sc.copyState.map((c) => [c.vrepl_id, c.table_name]).sort(),
      );
      const logs = read.vreplicationLog.ok ? read.vreplicationLog.value : [];
      assert.deepEqual(
        logs.map((l) => l.id).sort((a, b) => a - b),
        sc.vreplicationLog.map((l) => l.id),
      );
      assert.deepEqual(read.reshardingJournal, { ok: true, value: [] });
    }
  });

  test('every statement shape the reader publishes is answered, and refused before SET … READ ONLY', () => {
    const params: Record<number, (string | number)[]> = {
      0: ['vt_customer'],
      1: ['vt_customer'],
      2: Array.from({ length: 20 }, () => 'vt_customer'),
      3: ['42'],
      4: ['vt_customer'],
      5: ['_vt', '_vt', '_vt'],
      6: ['vt_customer'],
      7: ['vt_customer'],
      8: ['vt_customer'],
      9: ['vt_customer'],
      10: ['vt_customer'],
      11: ['vt_customer'],
      12: ['vt_customer'],
      13: ['vt!_customer/%'],
      14: [],
      15: [],
      16: [],
      17: ['vt_filtered'],
      18: ['vt_filtered'],
      19: ['vt_filtered'],
      20: [],
      21: ['vt_customer'],
      22: ['vt_customer'],
      23: [],
      24: [],
    };
    const statements = listSidecarStatements('_vt');
    assert.equal(statements.length, Object.keys(params).length);
    // The emptiness probe's shape names its table: asked of a table the tablet's schema lists.
    const withT = { ...sidecar, tables: ['t'] };
    statements.forEach((sql, i) => {
      const text = i === 24 ? nonEmptyProbe(sidecar.dbName, 't') : formatSql(sql, params[i]!);
      assert.equal(answerSql(withT, text, { readOnly: false }).kind, 'error', text);
      assert.equal(answerSql(withT, text, { readOnly: true }).kind, 'rows', text);
    });
  });

  test('the emptiness probe: a row for a listed non-empty table, none for an empty one, 1146 for a missing one', () => {
    const sc = { ...sidecar, tables: ['customer', 'co`rder'], nonEmptyTables: ['co`rder'] };
    const ask = (db: string, t: string) => answerSql(sc, nonEmptyProbe(db, t), { readOnly: true });
    assert.deepEqual(ask(sidecar.dbName, 'co`rder').kind === 'rows' && ask(sidecar.dbName, 'co`rder'), {
      kind: 'rows',
      columns: (ask(sidecar.dbName, 'co`rder') as { columns: unknown }).columns,
      rows: [[1]],
    });
    const empty = ask(sidecar.dbName, 'customer');
    assert.deepEqual(empty.kind === 'rows' && empty.rows, []);
    const missing = ask(sidecar.dbName, 'product');
    assert.equal(missing.kind === 'error' && missing.errno, 1146);
    assert.equal(ask('vt_other', 'customer').kind, 'error');
  });

  test('Sequence reads name application tables the simulated tablets do not hold (1146); VDiff runs: completed', () => {
    const named = listSidecarStatements('_vt', {
      dbName: 'vt_customer',
      sequenceTables: ['customer_seq'],
      autoIncrementColumns: [{ table: 'customer', column: 'id' }],
    }).slice(25);
    assert.equal(named.length, 2);
    for (const sql of named) {
      const a = answerSql(sidecar, sql, { readOnly: true });
      assert.equal(a.kind === 'error' && a.errno, 1146, sql);
    }
    const vdiffs = listSidecarStatements('_vt').find((x) => x.includes('`vdiff` WHERE'))!;
    const a = answerSql(sidecar, formatSql(vdiffs, [sidecar.dbName]), { readOnly: true });
    const workflows = new Set(sidecar.vreplication.map((r) => r.workflow));
    assert.equal(a.kind === 'rows' && a.rows.length, workflows.size);
    if (a.kind === 'rows') for (const r of a.rows) assert.equal(r[5], 'completed');
  });

  test("the tablet schema's tables: the scenario's list for its db_name, none otherwise (not judged)", () => {
    const sql = listSidecarStatements(sidecar.sidecarDb).find((x) => x.includes('information_schema.`TABLES`'))!;
    const withTables = { ...sidecar, tables: ['customer', 'corder'] };
    const rows = (sc: typeof sidecar, db: string) => {
      const a = answerSql(sc, formatSql(sql, [db]), { readOnly: true });
      return a.kind === 'rows' ? a.rows : null;
    };
    assert.deepEqual(rows(withTables, sidecar.dbName), [['customer'], ['corder']]);
    assert.deepEqual(rows(withTables, 'vt_other'), []);
    assert.deepEqual(rows(sidecar, sidecar.dbName), []);
  });

  test('the log statement answers the newest rows of each stream of the db_name, ordered by (vrepl_id, id)', () => {
    const all = Object.values(sim.sidecars).flatMap((sc) => sc.vreplicationLog.map((l) => ({ sc, l })));
    assert.ok(all.length > 0, 'the scenario has log rows');
    const sc = all[0]!.sc;
    const ids = [...new Set(sc.vreplicationLog.map((l) => l.vrepl_id))].sort((a, b) => b - a);
    for (const limit of [1, 2, 20]) {
      const logSql = listSidecarStatements(sc.sidecarDb, undefined, limit).find((s) =>
        s.includes('`vreplication_log`'),
      )!;
      const answer = answerSql(
        sc,
        formatSql(
          logSql,
          Array.from({ length: limit }, () => sc.dbName),
        ),
        { readOnly: true },
      );
      assert.equal(answer.kind, 'rows');
      const got = answer.kind === 'rows' ? answer.rows.map((r) => [r[1], r[0]]) : [];
      const want = [...ids]
        .sort((a, b) => a - b)
        .flatMap((id) =>
          sc.vreplicationLog
            .filter((l) => l.vrepl_id === id)
            .sort((a, b) => a.id - b.id)
            .slice(-limit)
            .map((l) => [id, l.id]),
        );
      assert.deepEqual(got, want, `limit ${limit}`);
    }
  });

  test('writes get the read-only transaction error; anything else unknown is refused', async () => {
    const c = await connect(port);
    try {
      await c.query(SET_READ_ONLY_SQL);
      for (const sql of [
        "/* vtpreflight */ INSERT INTO _vt.vreplication (workflow) VALUES ('x')",
        "UPDATE _vt.vreplication SET message = 'FROZEN'",
        'delete from _vt.copy_state',
        'CREATE TABLE t (id int)',
        'DROP DATABASE _vt',
        'SET GLOBAL read_only = 0',
      ]) {
        await assert.rejects(c.query(sql), (e: { errno?: number }) => e.errno === READ_ONLY_ERRNO, sql);
      }
      for (const sql of [
        'SELECT 1',
        '/* vtpreflight */ SELECT * FROM _vt.vreplication',
        '/* vtpreflight */ SHOW DATABASES',
        "/* vtpreflight */ SELECT `id` FROM `_vt`.`vreplication` WHERE `db_name` = 'x' OR 1=1 ORDER BY `id`",
      ]) {
        await assert.rejects(c.query(sql), /doesn't yet support/, sql);
      }
    } finally {
      c.end();
    }
  });

  test('statements before the read-only SET are refused, and so are prepared statements', async () => {
    const c = await connect(port);
    try {
      const select = formatSql(listSidecarStatements('_vt')[0]!, [sidecar.dbName]);
      await assert.rejects(c.query(select), /before SET SESSION TRANSACTION READ ONLY/);
      await assert.rejects(
        c.query('SET SESSION TRANSACTION READ ONLY'),
        (e: { errno?: number }) => e.errno !== undefined,
      );
      await c.query(SET_READ_ONLY_SQL);
      assert.equal((await c.query(select)).rows.length, sidecar.vreplication.length);
      await assert.rejects(c.execute(select), /not supported in the prepared statement protocol/);
    } finally {
      c.end();
    }
  });

  test('a multi-statement query is answered as MariaDB does: each result in order, none after an error', async () => {
    const vr = formatSql(listSidecarStatements('_vt').find((q) => q.includes('SELECT * FROM'))!, [sidecar.dbName]);
    const batch = (sqls: string[]) => sqls.join('; ');
    const multi = mysql.createConnection({
      host: '127.0.0.1',
      port,
      user: 'vtpreflight',
      rowsAsArray: true,
      multipleStatements: true,
      maxPreparedStatements: 1,
    });
    multi.on('error', () => {});
    const run = (sql: string) =>
      new Promise<{ err: { errno?: number } | null; results: unknown }>((resolve) =>
        multi.query(sql, (err, results) => resolve({ err: err as { errno?: number } | null, results })),
      );
    try {
      const ok = await run(batch([SET_READ_ONLY_SQL, vr, vr]));
      assert.equal(ok.err, null);
      const results = ok.results as unknown[];
      assert.equal(results.length, 3, 'one result per statement');
      assert.equal((results[1] as unknown[]).length, sidecar.vreplication.length);
      assert.deepEqual(results[2], results[1]);
      // A write in the middle: refused, and the statement after it does not run (no third result, one error).
      const stopped = await run(batch([vr, '/* vtpreflight */ DELETE FROM _vt.copy_state WHERE vrepl_id = 1', vr]));
      assert.equal(stopped.err?.errno, READ_ONLY_ERRNO);
    } finally {
      multi.destroy();
    }
    // Without CLIENT_MULTI_STATEMENTS a batch is a syntax error and nothing in it runs: the session stays writable.
    const single = await connect(port);
    try {
      await assert.rejects(single.query(batch([SET_READ_ONLY_SQL, vr])), (e: { errno?: number }) => e.errno === 1064);
      await assert.rejects(single.query(vr), /before SET SESSION TRANSACTION READ ONLY/);
    } finally {
      single.end();
    }
  });

  test('recorded: every connection and statement, in order', async () => {
    tablets.connections.length = 0;
    const c = await connect(port);
    await c.query(SET_READ_ONLY_SQL);
    c.end();
    assert.deepEqual(tablets.connections, [{ alias: sidecar.alias, port, statements: [SET_READ_ONLY_SQL] }]);
  });

  test('replicas refuse the login; unreachable primaries refuse the connection', async () => {
    await assert.rejects(connect(tablets.replicaPort), /primary tablets only/);
    await assert.rejects(connect(tablets.refusedPort), /ECONNREFUSED/);
  });

  test('credentials are checked with mysql_native_password when required', async () => {
    const secured = await startSimTablets({ [sidecar.alias]: sidecar }, [], {
      auth: { user: 'reader', password: 's3cret' },
    });
    try {
      const p = secured.ports.get(sidecar.alias)!;
      (await connect(p, 'reader', 's3cret')).end();
      await assert.rejects(connect(p, 'reader', 'wrong'), /Access denied for user 'reader'/);
      await assert.rejects(connect(p, 'root', 's3cret'), /Access denied for user 'root'/);
    } finally {
      await secured.stop();
    }
  });

  test('the simulated round-trip time applies to the greeting, the login and each statement', async () => {
    const slow = await startSimTablets({ [sidecar.alias]: sidecar }, [], { rttMs: 40 });
    try {
      const t0 = performance.now();
      const c = await connect(slow.ports.get(sidecar.alias)!);
      const t1 = performance.now();
      await c.query(SET_READ_ONLY_SQL);
      const t2 = performance.now();
      c.end();
      assert.ok(t1 - t0 >= 75, `connect took ${t1 - t0} ms`);
      assert.ok(t2 - t1 >= 38, `statement took ${t2 - t1} ms`);
    } finally {
      await slow.stop();
    }
  });
});
