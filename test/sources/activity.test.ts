/**
 * The open-transactions and metadata-lock reads against real MariaDB sessions: a real
 * transaction left open by another connection, a statement running inside one, a user without PROCESS, and a private
 * server with performance_schema and its metadata-lock instrument on (MariaDB 10.5+ has MySQL 5.7's
 * `performance_schema.metadata_locks`, off by default; MySQL 8.0 has it on by default), so the MDL statement is run
 * against a server that records locks, not only against an empty table.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type mysql from 'mysql2/promise';
import { readSidecar } from '../../src/sources/mysql.js';
import type { SidecarTarget } from '../../src/sources/sidecar.js';
import { privateServer, testPool, type PrivateServer } from '../harness/env.js';
import type { MariaDbInstance } from '../harness/mariadb.js';

const pool = await testPool();
const cleanup: (() => Promise<void>)[] = [];
after(async () => {
  for (const fn of cleanup.reverse()) await fn().catch(() => undefined);
});

/** A schema with one table, and a root session left inside a transaction that updated it (never committed). */
async function openTransaction(inst: MariaDbInstance, dbName: string): Promise<mysql.Connection> {
  await inst.exec(
    `CREATE DATABASE \`${dbName}\``,
    `CREATE TABLE \`${dbName}\`.\`customer\` (\`customer_id\` INT PRIMARY KEY, \`name\` TEXT)`,
    `INSERT INTO \`${dbName}\`.\`customer\` VALUES (1, 'a')`,
  );
  cleanup.push(() => inst.dropDatabase(dbName));
  const c = await inst.rootConnection();
  cleanup.push(() => c.end().catch(() => c.destroy()));
  await c.query(`USE \`${dbName}\``);
  await c.query('BEGIN');
  await c.query("UPDATE `customer` SET `name` = 'secret-name' WHERE `customer_id` = 1");
  return c;
}

const target = (inst: MariaDbInstance, sidecarDb: string, dbName: string): SidecarTarget => ({
  alias: 'zone1-0000000100',
  keyspace: 'commerce',
  shard: '0',
  endpoint: inst.endpoint,
  sidecarDb,
  dbName,
});

async function sidecar(inst: MariaDbInstance): Promise<string> {
  const db = pool.uniqueName('_vt_act');
  await inst.applySidecarDdl(db);
  cleanup.push(() => inst.dropDatabase(db));
  return db;
}

test('idle and running transactions of other sessions, digested; a user without PROCESS is refused', async () => {
  const inst = pool.instance(2);
  const db = await sidecar(inst);
  const dbName = pool.uniqueName('vt_act');
  const idle = await openTransaction(inst, dbName);
  const [[idleRow]] = (await idle.query('SELECT CONNECTION_ID() AS id')) as unknown as [{ id: string }[]];
  // A second session running a statement inside its transaction (it holds a literal that must not leave the reader).
  const busy = await inst.rootConnection();
  cleanup.push(() => busy.end().catch(() => busy.destroy()));
  await busy.query(`USE \`${dbName}\``);
  await busy.query('BEGIN');
  await busy.query("INSERT INTO `customer` VALUES (2, 'b')");
  // A third, read-only: a consistent snapshot that read the table (a dump's transaction): no row modified or locked.
  const snap = await inst.rootConnection();
  cleanup.push(() => snap.end().catch(() => snap.destroy()));
  await snap.query(`USE \`${dbName}\``);
  await snap.query('START TRANSACTION WITH CONSISTENT SNAPSHOT');
  await snap.query('SELECT * FROM `customer`');
  const running = busy.query("SELECT SLEEP(4), 'secret-literal' AS `x`");
  await new Promise((r) => setTimeout(r, 1500));

  const { reader } = pool.info;
  const conn = { host: inst.host, port: inst.port, user: reader.user, password: reader.password, timeoutMs: 5000 };
  const r = await readSidecar(target(inst, db, dbName), conn);
  assert.ok(r.transactions?.ok, JSON.stringify(r.transactions));
  const rows = r.transactions.value;
  assert.equal(rows.length, 3, JSON.stringify(rows));
  const first = rows[0]!;
  assert.equal(first.thread_id, Number(idleRow!.id));
  assert.equal(first.user, pool.info.root.user);
  assert.equal(first.command, 'Sleep');
  assert.equal(first.digest, null, 'an idle session has no running statement');
  assert.equal(first.rows_modified, 1);
  assert.ok((first.tables_locked ?? 0) >= 1, 'a writer holds row locks');
  const readOnly = rows.find((t) => t.digest === null && t.thread_id !== first.thread_id);
  assert.deepEqual([readOnly?.rows_modified, readOnly?.tables_locked], [0, 0], 'a consistent snapshot locks nothing');
  assert.ok(first.trx_seconds >= 1, `age ${first.trx_seconds}`);
  assert.equal(rows[1]!.digest, 'SELECT SLEEP(?), ? AS `x`');
  assert.ok(!JSON.stringify(r).includes('secret'), 'no literal leaves the reader');
  // Sessions of other schemas are not this tablet's.
  const other = await readSidecar(target(inst, db, pool.uniqueName('vt_other')), conn);
  assert.deepEqual(other.transactions, { ok: true, value: [] });

  const user = pool.uniqueName('np').slice(0, 32);
  await inst.createUser(user, 'np-pw', ['SELECT ON *.*']);
  cleanup.push(() => inst.dropUser(user));
  const denied = await readSidecar(target(inst, db, dbName), { ...conn, user, password: 'np-pw' });
  assert.ok(denied.vreplication.ok, 'the sidecar reads do not depend on PROCESS');
  assert.match(
    denied.transactions?.ok ? '' : (denied.transactions?.error.reason ?? ''),
    /PROCESS privilege.*; grant PROCESS to the MySQL user to read open transactions$/,
  );
  await running;
});

let server: PrivateServer | undefined;
before(async () => {
  server = await privateServer([
    '--performance-schema=ON',
    '--performance-schema-instrument=wait/lock/metadata/sql/mdl=ON',
    '--performance-schema-consumer-events-statements-current=ON',
  ]);
});
after(async () => {
  await server?.stop();
});

test('with performance_schema recording metadata locks, the open transaction’s lock on the table is read', async () => {
  const inst = server!.instance;
  const db = await sidecar(inst);
  const dbName = pool.uniqueName('vt_mdl');
  const idle = await openTransaction(inst, dbName);
  const [[idleRow]] = (await idle.query('SELECT CONNECTION_ID() AS id')) as unknown as [{ id: string }[]];
  const { reader } = inst;
  const r = await readSidecar(target(inst, db, dbName), {
    host: inst.host,
    port: inst.port,
    user: reader.user,
    password: reader.password,
    timeoutMs: 5000,
  });
  assert.ok(r.metadataLocks?.ok, JSON.stringify(r.metadataLocks));
  assert.equal(r.metadataLocks.value.instrumented, true);
  const mine = r.metadataLocks.value.locks.filter((l) => l.thread_id === Number(idleRow!.id));
  assert.deepEqual(
    mine.map((l) => [l.table_name, l.lock_type, l.lock_duration, l.lock_status]),
    [['customer', 'SHARED_WRITE', 'TRANSACTION', 'GRANTED']],
  );
  assert.ok(!JSON.stringify(r).includes('secret'), 'digests only');
});
