/**
 * vtpreflight only reads: with the server's general log on, every statement the tablet reader
 * sends is `SET SESSION TRANSACTION READ ONLY` (first, once per session; then the session's statement time limit,
 * `SET SESSION max_statement_time` on MariaDB), a `SELECT` or a `SHOW`, each
 * tagged `/* vtpreflight *\/`, and each one of the shapes `listSidecarStatements` documents. The reader sends them
 * as one multi-statement query per primary, which MariaDB logs as one entry: each statement in it is checked.
 *
 * Protocol commands that are not statements are allowed explicitly: `Connect` (the handshake) and `Quit`
 * (COM_QUIT on close). mysql2 sends no statements of its own on connect (no SET NAMES, no autocommit
 * query): any other command type (Init DB, Prepare, Execute, Field List, …) fails the test.
 */
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { vreplicationPermitted } from '../../src/model/vreplication-permissions.js';
import { readSidecar } from '../../src/sources/mysql.js';
import { listSidecarStatements, type SidecarTarget } from '../../src/sources/sidecar.js';
import { sqlExpr, type GeneralLogEntry, type MariaDbInstance } from '../harness/mariadb.js';
import { testPool } from '../harness/env.js';

const pool = await testPool();
const inst = pool.instance(3);
const cleanup: (() => Promise<void>)[] = [];
after(async () => {
  for (const fn of cleanup) await fn().catch(() => undefined);
});

const ALLOWED_COMMANDS = new Set(['Connect', 'Query', 'Quit']);
const TAG = '/* vtpreflight */ ';

/** Replaces literals and IN lists so a logged statement can be compared with a documented shape. */
function shape(sql: string): string {
  return sql
    .replace(/ SELECT 1 FROM `(?:[^`]|``)*`\.`(?:[^`]|``)*` LIMIT 1$/, ' SELECT 1 FROM `?`.`?` LIMIT 1')
    .replace(/X'[0-9a-fA-F]*'/g, '?')
    .replace(/'(?:[^']|'')*'/g, '?')
    .replace(/\b\d+\b/g, '?')
    .replace(/IN \((?:CAST\(\? AS SIGNED\)(?:, )?)+\)/g, 'IN (CAST(? AS SIGNED))')
    .replace(/IN \((?:\?(?:, )?)+\)/g, 'IN (?)');
}

async function sidecarWithData(inst: MariaDbInstance, variant: 'current' | 'old') {
  const db = pool.uniqueName('_vt_ro');
  await inst.applySidecarDdl(db, { variant });
  cleanup.push(() => inst.dropDatabase(db));
  const dbName = pool.uniqueName('vt_ro');
  for (let i = 0; i < 3; i += 1) {
    const id = await inst.insertStream(db, {
      db_name: dbName,
      source: `keyspace:"ks" shard:"${i}"`,
      pos:
        i === 0
          ? sqlExpr('COMPRESS(?)', ['MySQL56/3e11fa47-71ca-11e1-9e33-c80aa9429562:1-9'])
          : 'MySQL56/3e11fa47-71ca-11e1-9e33-c80aa9429562:1-9',
      message: "it's \\ tricky",
    });
    await inst.insertCopyState(db, { vrepl_id: id, table_name: 'customer' });
    if (variant === 'current')
      await inst.insertLog(db, { vrepl_id: id, type: 'Message', state: 'Running', message: 'm' });
  }
  await inst.insertJournal(db, { id: '9223372036854775807', db_name: dbName, val: 'id:1' });
  // The tablet's own schema, with the tables a MoveTables would lock (information_schema.TABLES read).
  await inst.exec(
    `CREATE DATABASE \`${dbName}\``,
    `CREATE TABLE \`${dbName}\`.\`customer\` (id INT PRIMARY KEY)`,
    `CREATE TABLE \`${dbName}\`.\`corder\` (id INT PRIMARY KEY)`,
  );
  cleanup.push(() => inst.dropDatabase(dbName));
  return { db, dbName };
}

const target = (db: string, dbName: string): SidecarTarget => ({
  alias: 'zone1-0000000300',
  keyspace: 'ks',
  shard: '0',
  endpoint: inst.endpoint,
  sidecarDb: db,
  dbName,
});

/**
 * The statements of one logged query. MariaDB logs a multi-statement query as one `Query` entry; every statement
 * the reader sends starts with the tag, so the text is cut before each `; <tag>` (independently of the reader's own
 * splitter), and a piece holding another `;` then fails the shape check.
 */
const statementsOf = (argument: string): string[] => argument.split(`; ${TAG}`).map((p, i) => (i === 0 ? p : TAG + p));

/** Sequence reads named by a vschema: a sequence table and an auto_increment column, each present and absent. */
const FIELD_READS = {
  sequenceTables: ['customer', 'missing_seq'],
  autoIncrementColumns: [
    { table: 'customer', column: 'id' },
    { table: 'missing', column: 'id' },
  ],
};

function assertReadOnly(entries: readonly GeneralLogEntry[], sidecarDbs: readonly string[], dbName = ''): number {
  assert.ok(entries.length > 0, 'the general log recorded the sessions');
  // The log statement has one branch per row asked of each stream: the default and the limit of 2 read below.
  const shapes = new Set(
    sidecarDbs.flatMap((db) =>
      [...listSidecarStatements(db, { dbName, ...FIELD_READS }), ...listSidecarStatements(db, { dbName }, 2)].map(
        shape,
      ),
    ),
  );
  const firstStatement = new Map<number, string>();
  let statements = 0;
  for (const e of entries) {
    assert.ok(ALLOWED_COMMANDS.has(e.commandType), `unexpected command ${e.commandType}: ${e.argument}`);
    if (e.commandType !== 'Query') continue;
    const parts = statementsOf(e.argument);
    if (!firstStatement.has(e.threadId)) firstStatement.set(e.threadId, parts[0]!);
    parts.forEach((part, k) => {
      statements += 1;
      assert.ok(part.startsWith(TAG), `untagged statement: ${part}`);
      const body = part.slice(TAG.length);
      if (body === 'SET SESSION TRANSACTION READ ONLY') {
        assert.equal(k, 0, `the read-only SET leads its query: ${e.argument}`);
        return;
      }
      if (/^SET SESSION max_statement_time = \d+\.\d{3}$/.test(body)) {
        assert.equal(k, 1, `the statement time limit follows the read-only SET: ${e.argument}`);
        return;
      }
      assert.match(body, /^(SELECT|SHOW) [^;]*$/s, `not a single SELECT or SHOW: ${part}`);
      assert.ok(shapes.has(shape(part)), `not a documented statement shape: ${part}\n  shape: ${shape(part)}`);
    });
  }
  for (const [thread, first] of firstStatement) {
    assert.equal(first, `${TAG}SET SESSION TRANSACTION READ ONLY`, `session ${thread} did not start read-only`);
  }
  const sets = entries.filter((e) => e.commandType === 'Query' && e.argument.startsWith(`${TAG}SET `)).length;
  assert.equal(sets, firstStatement.size, 'SET SESSION TRANSACTION READ ONLY (and the time limit) once per session');
  return statements;
}

test('every statement the tablet reader sends is read-only and tagged (general log)', async () => {
  const user = pool.uniqueName('ro').slice(0, 32);
  const password = `pw-${pool.uniqueName('x')}`;
  await inst.createUser(user, password, ['SELECT ON *.*']);
  cleanup.push(() => inst.dropUser(user));
  const conn = { host: inst.host, port: inst.port, user, password, timeoutMs: 5000 };

  const current = await sidecarWithData(inst, 'current');
  const old = await sidecarWithData(inst, 'old');
  const absent = pool.uniqueName('_vt_absent');
  const reads = [
    await readSidecar(target(current.db, current.dbName), conn),
    await readSidecar(target(current.db, current.dbName), conn, {
      journalIds: ['9223372036854775807', '1'],
      logLimitPerStream: 2,
    }),
    // MoveTables create's emptiness probes (one table missing: the batch stops there, the rest go one by one).
    await readSidecar(target(current.db, current.dbName), conn, { probeTables: ['customer', 'gone', 'co`rder'] }),
    await readSidecar(target(old.db, old.dbName), conn), // vreplication_log missing: a failed SELECT
    await readSidecar(target(absent, 'vt_none'), conn), // unknown database
    // the sequence and MAX reads the vschema names (one table present, one absent).
    await readSidecar(target(current.db, current.dbName), conn, FIELD_READS),
  ];
  assert.equal(reads[0]?.vreplication.ok, true);
  assert.equal(reads[0]?.vreplication.ok && reads[0].vreplication.value.length, 3);
  assert.equal(reads[3]?.vreplicationLog.ok, false);
  assert.deepEqual(reads[2]?.tableProbes, {
    ok: true,
    value: [
      { table_name: 'customer', non_empty: false },
      { table_name: 'gone', non_empty: false },
      { table_name: 'co`rder', non_empty: false },
    ],
  });

  const log = await inst.generalLog(user);
  assert.equal(new Set(log.map((e) => e.threadId)).size, reads.length, 'one session per read');
  assertReadOnly(log, [current.db, old.db, absent], current.dbName);
  assert.ok(!log.some((e) => e.argument.includes(password)), 'the password never appears in a statement');
  assert.ok(
    log.some((e) => e.argument.includes('SELECT CAST(MAX(`id`) AS CHAR)')),
    'the sequence reads were sent (and checked above)',
  );
});

test('one query per primary on a current schema; an old schema falls back statement by statement, still read-only', async () => {
  const user = pool.uniqueName('bt').slice(0, 32);
  await inst.createUser(user, 'batch-pw', ['SELECT ON *.*']);
  cleanup.push(() => inst.dropUser(user));
  const conn = { host: inst.host, port: inst.port, user, password: 'batch-pw', timeoutMs: 5000 };
  const current = await sidecarWithData(inst, 'current');
  // ValidateVReplicationPermissions: a filtered user granted on the sidecar database only (db level).
  const filtered = pool.uniqueName('fu').slice(0, 32);
  await inst.createUser(filtered, 'filtered-pw', [`SELECT, INSERT, UPDATE, DELETE ON \`${current.db}\`.*`]);
  cleanup.push(() => inst.dropUser(filtered));
  const r = await readSidecar(target(current.db, current.dbName), conn, { filteredUser: filtered });
  assert.ok(r.vreplication.ok && r.copyState.ok && r.vreplicationLog.ok && r.reshardingJournal.ok);
  let log = (await inst.generalLog(user)).filter((e) => e.commandType === 'Query');
  // One query: the read-only SET, the time limit and every read. On MariaDB the foreign keys come after INNODB_TRX
  // from InnoDB's dictionary, which also needs PROCESS: this user lacks it, the server stops the batch at INNODB_TRX,
  // and the foreign-key statement is sent on its own (and refused for the same grant).
  assert.equal(log.length, 2, 'the batch, then the statement after the refused INNODB_TRX');
  assert.match(log[1]!.argument, /INNODB_SYS_FOREIGN/);
  assert.equal(statementsOf(log[1]!.argument).length, 1);
  assert.match(r.foreignKeys?.ok ? '' : (r.foreignKeys?.error.reason ?? ''), /PROCESS/);
  // The tablet schema's tables (LOCK TABLES of a MoveTables write switch) come in the same batch.
  assert.deepEqual(r.tables, { ok: true, value: ['corder', 'customer'] });
  assert.equal(statementsOf(log[0]!.argument).length, 23);
  // The filtered user's rows of mysql.user, mysql.db and mysql.tables_priv, in the same batch, judged as the tablet.
  const grants = r.filteredUserGrants?.ok ? r.filteredUserGrants.value : null;
  assert.deepEqual(grants && [grants.global.length, grants.db.map((d) => d.db), grants.tables], [1, [current.db], []]);
  assert.equal(grants && vreplicationPermitted(grants, current.db), true);
  assert.equal(grants && vreplicationPermitted(grants, 'other_sidecar'), false);
  // the 2PC tables of the current schema (go/vt/sidecardb/schema/twopc), empty, in the same batch.
  assert.deepEqual(r.twoPc, { ok: true, value: { dtState: [], redoState: [] } });
  // the harness servers are installed without time-zone tables: named zones do not convert.
  assert.deepEqual(r.timeZoneTables, { ok: true, value: false });
  // without PROCESS the open-transactions read, last in the batch, is refused and names the grant.
  assert.match(r.transactions?.ok ? '' : (r.transactions?.error.reason ?? ''), /PROCESS.*grant PROCESS/);
  // performance_schema is off on the harness (MariaDB's default): metadata locks are not recorded, and it says so.
  assert.deepEqual(r.metadataLocks, { ok: true, value: { instrumented: false, locks: [] } });
  // the GTID-set column sizes come from information_schema in the same batch.
  assert.deepEqual(
    r.positionColumns?.ok &&
      r.positionColumns.value.map((c) => `${c.table_name}.${c.column_name} ${c.data_type}(${c.max_length})`),
    [
      'resharding_journal.val mediumblob(16777215)',
      'vreplication.pos varbinary(10000)',
      'vreplication.stop_pos varbinary(10000)',
    ],
  );

  // The old schema has no vreplication_log: the server stops the query there, the journal read after it is re-sent
  // on its own, and the reads before it keep their answers.
  const old = await sidecarWithData(inst, 'old');
  const o = await readSidecar(target(old.db, old.dbName), conn);
  assert.ok(o.vreplication.ok && o.vreplication.value.length === 3 && o.copyState.ok && o.reshardingJournal.ok);
  assert.match(o.vreplicationLog.ok ? '' : o.vreplicationLog.error.reason, /doesn't exist/);
  log = (await inst.generalLog(user)).filter((e) => e.commandType === 'Query');
  // The first read's two queries, then this one's batch, then each read after the failed one alone.
  assert.equal(log.length, 21, 'the batch, then each read after the failed one alone (VDiff, foreign keys too)');
  assert.match(log[3]!.argument, /^\/\* vtpreflight \*\/ SELECT .* FROM `[^`]+`\.`resharding_journal`/);
  assert.match(log[4]!.argument, /^\/\* vtpreflight \*\/ SELECT .* FROM information_schema\.`COLUMNS`/);
  assert.match(log[5]!.argument, /^\/\* vtpreflight \*\/ SELECT .* FROM information_schema\.`TABLES`/);
  assert.match(log[10]!.argument, /^\/\* vtpreflight \*\/ SELECT .* FROM `[^`]+`\.`dt_state`/);
  assert.match(log[12]!.argument, /^\/\* vtpreflight \*\/ SELECT CONVERT_TZ\(/);
  // the old schema has no 2PC tables: each refusal (1146) reads as "no such table", not as a failure.
  assert.deepEqual(o.twoPc, { ok: true, value: { dtState: null, redoState: null } });
  // No VDiff v2 tables on the old schema: read as no runs.
  assert.match(log[8]!.argument, /^\/\* vtpreflight \*\/ SELECT .* FROM `[^`]+`\.`vdiff` /);
  assert.match(log[9]!.argument, /^\/\* vtpreflight \*\/ SELECT .* FROM `[^`]+`\.`vdiff_table` /);
  assert.deepEqual(o.vdiffs, { ok: true, value: [] });
  assert.match(log[13]!.argument, /^\/\* vtpreflight \*\/ SELECT .* FROM mysql\.`user` WHERE `User` = 'vt_filtered'/);
  assert.match(log[16]!.argument, /^\/\* vtpreflight \*\/ SELECT @@global\.performance_schema/);
  assert.match(
    log[18]!.argument,
    /^\/\* vtpreflight \*\/ SELECT .* FROM information_schema\.`PROCESSLIST` WHERE `DB` = /,
  );
  assert.match(log[19]!.argument, /^\/\* vtpreflight \*\/ SELECT .* FROM information_schema\.`INNODB_TRX`/);
  // MariaDB: the foreign keys from InnoDB's dictionary, last (it needs PROCESS, as INNODB_TRX does).
  assert.match(log[20]!.argument, /^\/\* vtpreflight \*\/ SELECT .* FROM information_schema\.`INNODB_SYS_FOREIGN`/);
  assert.ok(o.positionColumns?.ok);
  assert.deepEqual(o.tables, { ok: true, value: ['corder', 'customer'] });
  assertReadOnly(await inst.generalLog(user), [current.db, old.db]);
});

test('a user without privileges: every read fails with the server’s denial; still read-only', async () => {
  const user = pool.uniqueName('ng').slice(0, 32);
  await inst.createUser(user, 'nogrants-pw', []);
  cleanup.push(() => inst.dropUser(user));
  const { db, dbName } = await sidecarWithData(inst, 'current');
  const r = await readSidecar(target(db, dbName), {
    host: inst.host,
    port: inst.port,
    user,
    password: 'nogrants-pw',
    timeoutMs: 5000,
  });
  assert.equal(r.columns.ok, false);
  for (const read of [r.vreplication, r.reshardingJournal])
    assert.match(read.ok ? '' : read.error.reason, /denied/i, JSON.stringify(read));
  // No SELECT on mysql.*: the filtered user's grants are not read (1142), and the reason names the grant.
  const g = r.filteredUserGrants;
  assert.equal(g?.ok === false && g.error.kind, 'privilege');
  assert.match(
    g?.ok === false ? g.error.reason : '',
    /denied.*grant SELECT \(Host, User, Select_priv, Insert_priv, Update_priv, Delete_priv\) ON mysql\.user, /is,
  );
  assertReadOnly(await inst.generalLog(user), [db]);
});
