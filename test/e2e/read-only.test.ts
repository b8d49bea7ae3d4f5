/**
 * Read-only proof, end to end: with every MariaDB server's general log on (the
 * harness keeps it on, to a table), a full `check` against a live cluster sends each primary only
 * `SET SESSION TRANSACTION READ ONLY` (first, once per session) and SELECT or SHOW statements, every one tagged
 * `/* vtpreflight *\/` (sent as one multi-statement query per primary, which MariaDB logs as one entry: each
 * statement in it is checked); and every RPC the fake vtctld recorded is in a read-only allow-list.
 *
 * Protocol commands that are not statements, allowed explicitly (mysql2's handshake and close):
 * - `Connect`: the server logs the handshake (user@host as …) when mysql2 authenticates;
 * - `Quit`: COM_QUIT when the connection is closed politely.
 * mysql2 sends nothing else of its own (no SET NAMES, no autocommit query, no Init DB): any other command type
 * (Init DB, Prepare, Execute, Field List, Ping, …) fails the test.
 */
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { testPool } from '../harness/env.js';
import type { GeneralLogEntry, MariaDbInstance } from '../harness/mariadb.js';
import { external, reshardScenario } from '../helpers/reshard-scenario.js';
import { parseReport, runCli } from './cli.js';
import { assertLiveMatchesOffline } from './compare.js';
import { READ_ONLY_FETCH, READ_ONLY_RPCS, startLiveCluster, type LiveCluster } from './live-cluster.js';

const pool = await testPool({ minInstances: 6 });
const cleanup: (() => Promise<void>)[] = [];
after(async () => {
  for (const fn of cleanup.reverse()) await fn().catch(() => undefined);
});

const PROTOCOL_COMMANDS = new Set(['Connect', 'Quit']);
const TAG = '/* vtpreflight */ ';

/** Streams, copy_state, logs and a journal everywhere, and one dead primary: every statement shape gets sent. */
function busyCluster() {
  const b = external(reshardScenario(), 'mat2', {
    from: 'commerce',
    fromShard: '0',
    to: 'customer',
    shards: ['-80'],
    type: 'Materialize',
  })
    .patchStream('customer', '-40', 1, { copyTables: ['customer', 'corder'] })
    .log('customer', '-40', {
      id: 1,
      vrepl_id: 1,
      type: 'State Changed',
      state: 'Copying',
      message: 'started',
      created_at: '2025-12-31 23:00:00',
      updated_at: '2025-12-31 23:00:00',
      count: 1,
    })
    .journal('customer', '-80', { id: '9223372036854775807', db_name: 'vt_customer', val: 'id:1' })
    .unreadable('customer', 'c0-');
  return b;
}

async function readerUser(
  live: LiveCluster,
): Promise<{ user: string; password: string; instances: MariaDbInstance[] }> {
  const user = pool.uniqueName('ro').slice(0, 32);
  const password = `pw-${pool.uniqueName('x')}`;
  const instances = [...new Set(live.primaries.flatMap((p) => (p.instance ? [p.instance] : [])))];
  for (const inst of instances) {
    // The grants README documents: SELECT, and PROCESS for the open-transactions read.
    await inst.createUser(user, password, ['SELECT ON *.*', 'PROCESS ON *.*']);
    cleanup.push(() => inst.dropUser(user));
  }
  return { user, password, instances };
}

/** The statements of one logged query: MariaDB logs a multi-statement query as one entry; each starts with the tag. */
const statementsOf = (argument: string): string[] => argument.split(`; ${TAG}`).map((p, i) => (i === 0 ? p : TAG + p));

function assertReadOnlySessions(log: readonly GeneralLogEntry[], where: string): number {
  const firstStatement = new Map<number, string>();
  for (const e of log) {
    assert.ok(
      e.commandType === 'Query' || PROTOCOL_COMMANDS.has(e.commandType),
      `${where}: command ${e.commandType} is not allowed: ${e.argument}`,
    );
    if (e.commandType !== 'Query') continue;
    const parts = statementsOf(e.argument);
    if (!firstStatement.has(e.threadId)) firstStatement.set(e.threadId, parts[0]!);
    parts.forEach((part, k) => {
      assert.ok(part.startsWith(TAG), `${where}: untagged statement: ${part}`);
      const body = part.slice(TAG.length);
      if (body === 'SET SESSION TRANSACTION READ ONLY') {
        assert.equal(k, 0, `${where}: the read-only SET leads its query: ${e.argument}`);
        return;
      }
      // The session's statement time limit (src/sources/mysql.ts statementTimeLimitSql), right after it.
      if (/^SET SESSION max_statement_time = \d+\.\d{3}$/.test(body)) {
        assert.equal(k, 1, `${where}: the statement time limit follows the read-only SET: ${e.argument}`);
        return;
      }
      assert.match(body, /^(SELECT|SHOW) [^;]*$/s, `${where}: not a single SELECT or SHOW: ${part}`);
    });
  }
  for (const [thread, first] of firstStatement)
    assert.equal(
      first,
      `${TAG}SET SESSION TRANSACTION READ ONLY`,
      `${where}: session ${thread} did not start read-only`,
    );
  const sets = log.filter(
    (e) => e.commandType === 'Query' && e.argument.startsWith(`${TAG}SET SESSION TRANSACTION READ ONLY`),
  );
  assert.equal(sets.length, firstStatement.size, `${where}: SET SESSION TRANSACTION READ ONLY once per session`);
  return firstStatement.size;
}

test('--via mysql: every statement on every primary is read-only and tagged (general log); every RPC is read-only', async () => {
  const live = await startLiveCluster(busyCluster().readout(), pool);
  cleanup.push(() => live.stop());
  const { user, password, instances } = await readerUser(live);

  const run = await runCli([
    'check',
    '--vtctld',
    live.address,
    '--format',
    'json',
    '--mysql-user',
    user,
    '--mysql-password',
    password,
  ]);
  const report = parseReport(run);
  assertLiveMatchesOffline(report, live, { via: 'mysql' });

  let sessions = 0;
  for (const inst of instances) {
    const log = await inst.generalLog(user);
    const expected = live.primaries.filter((p) => p.instance === inst).length;
    const n = assertReadOnlySessions(log, inst.endpoint);
    assert.equal(n, expected, `${inst.endpoint}: one session per primary placed there`);
    assert.ok(
      log.some((e) =>
        statementsOf(e.argument).some((q) =>
          /^\/\* vtpreflight \*\/ SELECT .* FROM `[^`]+`\.`resharding_journal`/.test(q),
        ),
      ),
      `${inst.endpoint}: journal read`,
    );
    // The GTID column sizes: information_schema, in the same tagged read-only batch (general log).
    assert.ok(
      log.some((e) =>
        statementsOf(e.argument).some((q) =>
          /^\/\* vtpreflight \*\/ SELECT .* FROM information_schema\.`COLUMNS` WHERE/.test(q),
        ),
      ),
      `${inst.endpoint}: column sizes read`,
    );
    // The open transactions and metadata locks: information_schema and performance_schema, same batch.
    assert.ok(
      log.some((e) => {
        const qs = statementsOf(e.argument);
        return (
          qs.some((q) => /^\/\* vtpreflight \*\/ SELECT .* FROM information_schema\.`INNODB_TRX`/.test(q)) &&
          qs.some((q) => /^\/\* vtpreflight \*\/ SELECT .* FROM performance_schema\.`metadata_locks`/.test(q))
        );
      }),
      `${inst.endpoint}: open transactions and metadata locks read in the batch`,
    );
    assert.ok(!log.some((e) => e.argument.includes(password)), 'the password never appears in a statement');
    sessions += n;
  }
  assert.equal(sessions, live.primaries.filter((p) => p.instance).length, 'every live primary was read');

  const rpcs = live.vtctld.calls.map((c) => c.rpc);
  assert.deepEqual(
    rpcs.filter((r) => !READ_ONLY_RPCS.has(r)),
    [],
    'only read-only RPCs',
  );
  assert.ok(!rpcs.includes('ExecuteFetchAsDBA'), '--via mysql reads no sidecar through vtctld');
  assert.ok(rpcs.includes('GetFullStatus') && rpcs.includes('FindAllShardsInKeyspace'));
});

test('sweep --via mysql: read-only, tagged sessions on every primary; only read-only RPCs', async () => {
  const live = await startLiveCluster(busyCluster().readout(), pool, { offset: 3 });
  cleanup.push(() => live.stop());
  const { user, password, instances } = await readerUser(live);
  const run = await runCli([
    'sweep',
    '--vtctld',
    live.address,
    '--format',
    'json',
    '--mysql-user',
    user,
    '--mysql-password',
    password,
  ]);
  const report = parseReport(run);
  assert.equal(report.command, 'sweep');
  let sessions = 0;
  for (const inst of instances) {
    const log = await inst.generalLog(user);
    sessions += assertReadOnlySessions(log, inst.endpoint);
    assert.ok(!log.some((e) => e.argument.includes(password)), 'the password never appears in a statement');
  }
  assert.equal(sessions, live.primaries.filter((p) => p.instance).length, 'every live primary was read, once');
  const rpcs = live.vtctld.calls.map((c) => c.rpc);
  assert.deepEqual(
    rpcs.filter((r) => !READ_ONLY_RPCS.has(r)),
    [],
    'only read-only RPCs',
  );
  assert.ok(rpcs.includes('GetMirrorRules'), 'the mirror rules are read');
});

for (const older of [false, true]) {
  test(`--via vtctld${older ? ' (a vtctld without ExecuteMultiFetchAsDBA)' : ''}: ${older ? 'ExecuteFetchAsDBA per statement' : 'one ExecuteMultiFetchAsDBA per primary'} carries only tagged SELECT/SHOW, no MySQL session is opened, every RPC is read-only`, async () => {
    const live = await startLiveCluster(
      busyCluster().readout(),
      pool,
      older ? { unimplemented: ['ExecuteMultiFetchAsDBA'] } : {},
    );
    cleanup.push(() => live.stop());
    const { user, password, instances } = await readerUser(live);

    // MySQL credentials are given but must not be used: nothing dials a primary with --via vtctld.
    const run = await runCli([
      'check',
      '--vtctld',
      live.address,
      '--format',
      'json',
      '--via',
      'vtctld',
      '--mysql-user',
      user,
      '--mysql-password',
      password,
    ]);
    const report = parseReport(run);
    assertLiveMatchesOffline(report, live, { via: 'vtctld' });

    for (const inst of instances)
      assert.deepEqual(await inst.generalLog(user), [], `${inst.endpoint}: no session of the tool`);

    const calls = live.vtctld.calls;
    assert.deepEqual(
      calls.map((c) => c.rpc).filter((r) => !READ_ONLY_RPCS.has(r)),
      [],
      'only read-only RPCs',
    );
    const single = calls
      .filter((c) => c.rpc === 'ExecuteFetchAsDBA')
      .map((c) => (c.request as { query: string }).query);
    const multi = calls
      .filter((c) => c.rpc === 'ExecuteMultiFetchAsDBA')
      .map((c) => (c.request as { sql: string }).sql);
    // Each statement of a multi-fetch starts with the tag; the text is cut before each `;<tag>`.
    const statements = [
      ...single,
      ...multi.flatMap((sql) => sql.split(`;${TAG.trimEnd()}`).map((p, i) => (i === 0 ? p : TAG.trimEnd() + p))),
    ];
    assert.ok(statements.length > 0);
    for (const query of statements) assert.match(query, READ_ONLY_FETCH, 'a single tagged SELECT/SHOW');
    // The hook ran statements that were sent, and only those (a failed multi-fetch stops at its failing statement).
    for (const f of live.fetches) assert.ok(statements.includes(f.query), f.query);
    const primaries = live.primaries.length;
    if (older) {
      assert.equal(multi.length, 1, 'asked once: the first answer (UNIMPLEMENTED) holds for every primary');
      assert.equal(single.length, 22 * primaries, 'then one ExecuteFetchAsDBA per statement');
    } else {
      assert.equal(multi.length, primaries, 'one ExecuteMultiFetchAsDBA per primary');
      // Only the dead primary's statements are re-sent one by one (its multi-fetch failed without saying where).
      assert.equal(single.length, 22);
    }
    assert.deepEqual(
      live.fetches.filter((f) => !f.allowed),
      [],
      'the hook refused nothing',
    );
    assert.ok(
      live.fetches.some((f) => /`resharding_journal`/.test(f.query)) &&
        live.fetches.some((f) => /`copy_state`/.test(f.query)) &&
        live.fetches.some((f) => /`vreplication_log`/.test(f.query)) &&
        live.fetches.some((f) => /FROM information_schema\.`COLUMNS`/.test(f.query)) &&
        live.fetches.some((f) => /FROM information_schema\.`INNODB_TRX`/.test(f.query)) &&
        live.fetches.some((f) => /FROM performance_schema\.`metadata_locks`/.test(f.query)),
    );
    // The dead primary was asked too (and failed), like every other primary of the keyspace.
    assert.ok(live.fetches.some((f) => f.alias === live.primaries.find((p) => !p.instance)?.alias));
  });
}
