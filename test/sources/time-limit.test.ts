/**
 * Every statement the MySQL reader sends is bounded on the server too: the session's first query sets the flavor's
 * statement time limit (`max_statement_time` on MariaDB, `max_execution_time` on MySQL) a little under the client's
 * deadline, so a statement the client gives up on does not keep running on the primary.
 */
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { openMysqlExecutor, statementTimeLimitSql } from '../../src/sources/mysql.js';
import { errnoKind } from '../../src/sources/read-kind.js';
import { testPool } from '../harness/env.js';

test('the time limit as each flavor spells it, from the handshake version', () => {
  assert.equal(
    statementTimeLimitSql('5.5.5-10.11.6-MariaDB-0+deb12u1', 10_000),
    '/* vtpreflight */ SET SESSION max_statement_time = 9.000',
  );
  assert.equal(
    statementTimeLimitSql('11.4.2-MariaDB', 2_000),
    '/* vtpreflight */ SET SESSION max_statement_time = 1.800',
  );
  assert.equal(statementTimeLimitSql('8.0.40', 10_000), '/* vtpreflight */ SET SESSION max_execution_time = 9000');
  assert.equal(
    statementTimeLimitSql('8.4.3-commercial', 500),
    '/* vtpreflight */ SET SESSION max_execution_time = 450',
  );
  assert.equal(statementTimeLimitSql('5.7.8-log', 10), '/* vtpreflight */ SET SESSION max_execution_time = 100');
  // Servers without the variable, and versions that do not parse: nothing is set (the client deadline bounds them).
  assert.equal(statementTimeLimitSql('5.7.7', 10_000), null);
  assert.equal(statementTimeLimitSql('5.5.5-10.0.38-MariaDB', 10_000), null);
  assert.equal(statementTimeLimitSql('vtgate', 10_000), null);
});

const pool = await testPool();
const inst = pool.instance(0);
const cleanup: (() => Promise<void>)[] = [];
after(async () => {
  for (const fn of cleanup) await fn().catch(() => undefined);
});

test('a statement past the limit is stopped by the server, and the session stays usable', async () => {
  const user = pool.uniqueName('tl').slice(0, 32);
  await inst.createUser(user, 'tl-pw', ['SELECT ON *.*']);
  cleanup.push(() => inst.dropUser(user));
  const exec = await openMysqlExecutor({ host: inst.host, port: inst.port, user, password: 'tl-pw', timeoutMs: 2000 });
  cleanup.push(() => exec.close());
  const limit = await exec.query('SELECT @@SESSION.max_statement_time AS `limit`', []);
  assert.equal(Number(limit.rows[0]?.[0]), 1.8);
  const started = Date.now();
  // A server-side stop: the server's own error (1969), before the client's deadline (2 s + 1 s guard).
  const err = await exec.query('SELECT SLEEP(5)', []).then(
    () => assert.fail('SLEEP(5) outlived a 1.8 s limit'),
    (e: unknown) => e as { errno?: number },
  );
  const ms = Date.now() - started;
  assert.equal(err.errno, 1969, JSON.stringify(err));
  assert.equal(errnoKind(err.errno), 'timeout');
  assert.ok(ms < 2900, `stopped after ${ms} ms`);
  // The connection was not dropped: the next statement answers on it.
  const next = await exec.query('SELECT 1 AS `one`', []);
  assert.deepEqual(next.rows, [[1]]);
});
