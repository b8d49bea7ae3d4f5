/**
 * Bad input and secrets, as a user meets them (docs/design.md, "Errors and exit codes"):
 * - usage errors (missing --vtctld, a bad --max-lag, an unknown --only id) and unreadable snapshots: one line on
 *   stderr, nothing on stdout, exit 2, no stack, and no I/O before the flags are validated (the fake vtctld
 *   records no call);
 * - a MySQL password never reaches stdout, stderr or a snapshot file, also when a primary refuses it.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { startFakeVtctld } from '../../src/sim/vtctld-server.js';
import { testPool } from '../harness/env.js';
import { parseReport, runCli, spawnCli, type CliResult } from './cli.js';
import { assertFindings } from './expect.js';
import { startLiveCluster } from './live-cluster.js';
import { moveTables } from './scenarios.js';
import { joinRegExp } from '../helpers/regexp.js';

const pool = await testPool({ minInstances: 3 });
const scratch = mkdtempSync(join(tmpdir(), 'vtpreflight-e2e-bad-'));
const cleanup: (() => Promise<void>)[] = [];
after(async () => {
  for (const fn of cleanup.reverse()) await fn().catch(() => undefined);
  rmSync(scratch, { recursive: true, force: true });
});

/** Exit 2, nothing on stdout, exactly one `vtpreflight: …` line on stderr matching `line`, no stack. */
function assertUsageError(r: CliResult, line: RegExp): void {
  assert.equal(r.code, 2, `exit code; stderr: ${r.stderr}`);
  assert.equal(r.stdout, '', 'nothing on stdout');
  assert.match(r.stderr, /^vtpreflight: [^\n]+\n$/, `one line on stderr, got:\n${r.stderr}`);
  assert.match(r.stderr.trimEnd(), line);
  assert.doesNotMatch(r.stderr, /\n\s+at |Error:|please report/, 'no stack, no internal error');
}

// A vtctld that would answer, to prove that usage errors stop before any call.
const vtctld = await startFakeVtctld({
  keyspaces: [],
  shards: [],
  tablets: [],
  vschemas: {},
  routingRules: [],
  shardRoutingRules: [],
  fullStatus: {},
});
cleanup.push(() => vtctld.stop());

test('missing --vtctld: one line, exit 2 (built binary)', async () => {
  assertUsageError(
    await spawnCli(['check', '--format', 'json']),
    /^vtpreflight: missing --vtctld HOST:PORT \(or .*--snapshot FILE\)$/,
  );
  assertUsageError(await spawnCli(['snapshot', '--output', join(scratch, 'x.json')]), /missing --vtctld/);
});

test('bad --max-lag and unknown --only id: one line naming the flag, exit 2, before any RPC', async () => {
  const calls = vtctld.calls.length;
  for (const lag of ['5 parsecs', '-3s', 'fast']) {
    assertUsageError(
      await runCli(['check', '--vtctld', vtctld.address, '--format', 'json', '--max-lag', lag]),
      /--max-lag/,
    );
  }
  const only = await spawnCli([
    'check',
    '--vtctld',
    vtctld.address,
    '--format',
    'json',
    '--only',
    'stream-error,strem-coverage',
  ]);
  assertUsageError(
    only,
    joinRegExp(
      /^vtpreflight: unknown check id "strem-coverage" in --only: did you /,
      /mean "stream-coverage"\? \(run "vtpreflight checks" for the list\)$/,
    ),
  );
  assertUsageError(
    await runCli(['check', '--vtctld', vtctld.address, '--skip', 'nope']),
    /unknown check id "nope" in --skip/,
  );
  assert.equal(vtctld.calls.length, calls, 'no RPC was sent');
});

test('a corrupt or unreadable snapshot: one line, exit 2', async () => {
  const truncated = join(scratch, 'truncated.json');
  writeFileSync(truncated, '{"version": 1, "capturedAt": "2026-01-01T00:00:00Z", "topol');
  assertUsageError(
    await spawnCli(['check', '--snapshot', truncated, '--format', 'json']),
    /^vtpreflight: snapshot .*truncated\.json is not valid JSON: /,
  );

  const notReadout = join(scratch, 'not-a-readout.json');
  writeFileSync(
    notReadout,
    JSON.stringify({
      version: 1,
      capturedAt: '2026-01-01T00:00:00Z',
      target: { keyspaces: [], workflows: [] },
      topology: {},
    }),
  );
  assertUsageError(
    await runCli(['check', '--snapshot', notReadout]),
    // The JSON path that is wrong.
    /^vtpreflight: snapshot .*not-a-readout\.json is not a vtpreflight readout: topology\.keyspaces: missing$/,
  );

  const future = join(scratch, 'future.json');
  writeFileSync(future, JSON.stringify({ version: 99 }));
  assertUsageError(await runCli(['check', '--snapshot', future]), /unsupported readout version 99/);

  assertUsageError(
    await runCli(['check', '--snapshot', join(scratch, 'absent.json')]),
    /^vtpreflight: cannot read snapshot .*absent\.json: /,
  );
});

test('secrets: a password a primary refuses never appears in stdout, stderr or the snapshot', async () => {
  const SECRET = 's3cr3t-XYZ';
  const b = moveTables();
  const refusing = b.primary('customer', '80-');
  const [i0, i1, i2] = [pool.instance(0), pool.instance(1), pool.instance(2)];
  const live = await startLiveCluster(b.readout(), pool, {
    place: { [b.primary('commerce', '0')]: i0!, [b.primary('customer', '-80')]: i1!, [refusing]: i2! },
  });
  cleanup.push(() => live.stop());
  const user = pool.uniqueName('sec').slice(0, 32);
  // The secret is right on two primaries (so it is really used) and refused by the third.
  for (const [inst, pw] of [
    [i0!, SECRET],
    [i1!, SECRET],
    [i2!, 'another-password'],
  ] as const) {
    await inst.createUser(user, pw, ['SELECT ON *.*', 'PROCESS ON *.*']); // README's grants
    cleanup.push(() => inst.dropUser(user));
  }

  const file = join(scratch, 'secret-snapshot.json');
  const runs: [string, CliResult][] = [
    [
      'check --format json (flag)',
      await spawnCli([
        'check',
        '--vtctld',
        live.address,
        '--format',
        'json',
        '--mysql-user',
        user,
        '--mysql-password',
        SECRET,
      ]),
    ],
    [
      'check --format text --debug (env)',
      await spawnCli(['check', '--vtctld', live.address, '--format', 'text', '--debug'], {
        env: { VTPREFLIGHT_MYSQL_USER: user, VTPREFLIGHT_MYSQL_PASSWORD: SECRET },
      }),
    ],
    [
      'check --format markdown (flag)',
      await runCli([
        'check',
        '--vtctld',
        live.address,
        '--format',
        'markdown',
        '--mysql-user',
        user,
        '--mysql-password',
        SECRET,
      ]),
    ],
    [
      'snapshot (flag)',
      await spawnCli([
        'snapshot',
        '--vtctld',
        live.address,
        '--output',
        file,
        '--mysql-user',
        user,
        '--mysql-password',
        SECRET,
      ]),
    ],
  ];
  for (const [what, r] of runs) {
    assert.ok(!r.stdout.includes(SECRET), `${what}: secret on stdout`);
    assert.ok(!r.stderr.includes(SECRET), `${what}: secret on stderr`);
  }
  const snapshot = readFileSync(file, 'utf8');
  assert.ok(!snapshot.includes(SECRET), 'secret in the snapshot file');

  // The refusal is reported where it happened, and the other primaries were read with the same password.
  const report = parseReport(runs[0]![1]);
  assert.equal(runs[0]![1].code, 1);
  assertFindings(report, 'unreachable', [
    {
      keyspace: 'customer',
      shard: '80-',
      tablet: refusing,
      message: /Access denied for user/,
      details: { reason: 'primaryUnreadable' },
    },
  ]);
  assert.match(snapshot, /Access denied for user/);
  const read = (JSON.parse(snapshot) as { sidecars: { alias: string; vreplication: { ok: boolean } }[] }).sidecars;
  assert.deepEqual(
    read.map((s) => [s.alias, s.vreplication.ok]),
    [
      [b.primary('commerce', '0'), true],
      [b.primary('customer', '-80'), true],
      [refusing, false],
    ],
  );
});
