/** The MariaDB harness itself: a missing server binary, what a started server looks like, and a clean stop. */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { test } from 'node:test';
import { poolInstances, sidecarDdl, startMariaDbPool, stopPool } from './mariadb.js';

test('a missing mariadbd fails with one line and an install hint', async () => {
  const saved = process.env.VTPREFLIGHT_MARIADBD;
  process.env.VTPREFLIGHT_MARIADBD = '/nonexistent/mariadbd';
  try {
    await assert.rejects(startMariaDbPool(1), (err: Error) => {
      assert.doesNotMatch(err.message, /\n/);
      assert.match(err.message, /apt-get install -y mariadb-server/);
      return true;
    });
  } finally {
    if (saved === undefined) delete process.env.VTPREFLIGHT_MARIADBD;
    else process.env.VTPREFLIGHT_MARIADBD = saved;
  }
});

test('a private server runs like a Vitess primary, holds the upstream DDL, and stops by pid', async () => {
  const pool = await startMariaDbPool(1);
  const pid = pool.instances[0]?.pid ?? 0;
  try {
    const [inst] = poolInstances(pool);
    assert.ok(inst);
    const [vars] = await inst.rows(
      'SELECT @@server_id AS sid, @@log_bin AS log_bin, @@binlog_format AS fmt, @@gtid_strict_mode AS strict, @@general_log AS glog, @@log_output AS logout, @@bind_address AS bind',
    );
    assert.deepEqual(
      { ...vars },
      { sid: '1', log_bin: '1', fmt: 'ROW', strict: '1', glog: '1', logout: 'TABLE', bind: '127.0.0.1' },
    );
    // Its own tmpdir inside the pool dir: a server starting deletes every `#sql*` file of its tmpdir, which crashed
    // running servers sharing the temp dir (SIGSEGV in ha_maria::drop_table).
    const [tmp] = await inst.rows('SELECT @@tmpdir AS tmpdir');
    assert.equal(tmp?.tmpdir, `${pool.dir}/i0/tmp`);

    await inst.applySidecarDdl('_vt');
    await inst.applySidecarDdl('_vt'); // idempotent, like vttablet's CREATE TABLE IF NOT EXISTS
    const tables = await inst.rows(
      "SELECT TABLE_NAME AS t FROM information_schema.TABLES WHERE TABLE_SCHEMA = '_vt' ORDER BY 1",
    );
    assert.deepEqual(
      tables.map((r) => r.t),
      [
        'copy_state',
        'dt_state',
        'redo_state',
        'resharding_journal',
        'vdiff',
        'vdiff_table',
        'vreplication',
        'vreplication_log',
      ],
    );
    const types = await inst.rows(
      "SELECT COLUMN_NAME AS c, COLUMN_TYPE AS t FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = '_vt' AND TABLE_NAME = 'vreplication' ORDER BY ORDINAL_POSITION",
    );
    assert.deepEqual(
      types.slice(0, 4).map((r) => `${String(r.c)} ${String(r.t)}`),
      ['id int(11)', 'workflow varbinary(1000)', 'source mediumblob', 'pos varbinary(10000)'],
    );
    assert.equal(types.length, 22);
    assert.equal(
      sidecarDdl('x', { variant: 'old' }).some((s) => s.includes('vreplication_log')),
      false,
    );

    // The reader account may read but not write.
    const reader = await (await import('mysql2/promise')).default.createConnection({
      host: inst.host,
      port: inst.port,
      user: inst.reader.user,
      password: inst.reader.password,
    });
    try {
      await assert.rejects(
        reader.query("INSERT INTO _vt.copy_state (vrepl_id, table_name) VALUES (1, 't')"),
        /command denied/,
      );
    } finally {
      await reader.end();
    }
  } finally {
    await stopPool(pool);
  }
  assert.throws(() => process.kill(pid, 0), 'the server process is gone');
  assert.equal(existsSync(pool.dir), false);
});
