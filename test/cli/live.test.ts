/**
 * The CLI against a live cluster: the fake vtctld (a real gRPC server) and real MariaDB sidecars. `--via mysql` and
 * `--via vtctld` must read the same thing; vtctld static auth works from a credentials file and never leaks the
 * password; `--wait` re-checks until a copy finishes, or gives up with the last run's report.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { testPool } from '../harness/env.js';
import { cluster } from '../helpers/cluster.js';
import { runCli, startLiveCluster, tempDir, type LiveCluster, joinRegExp } from './helpers.js';

const pool = await testPool();

/** commerce/0 → customer (-80, 80-): a MoveTables of `customer`, healthy unless the test changes it. */
const scenario = () =>
  cluster()
    .keyspace('commerce', { shards: ['0'], tables: { customer: {} } })
    .keyspace('customer', {
      shards: ['-80', '80-'],
      tables: { customer: { columnVindexes: [{ name: 'hash', columns: ['customer_id'] }] } },
    })
    .moveTables('commerce2customer', { from: 'commerce', to: 'customer', tables: ['customer'] });

type Json = Record<string, any>;
const withoutTimes = (r: Json) => ({
  checks: r.checks.map((c: Json) => ({ id: c.id, status: c.status, findings: c.findings, error: c.error })),
  findings: r.findings,
  workflows: r.workflows,
  streams: r.streams.map((s: Json) => ({ ...s, lagSeconds: s.lagSeconds === null ? null : 'n' })),
  summary: r.summary,
});

describe('--via mysql and --via vtctld read the same cluster', () => {
  let live: LiveCluster;
  before(async () => {
    const b = scenario();
    const alias = b.primary('customer', '80-');
    live = await startLiveCluster(b, pool);
    // One stream in Error, so there is something to find both ways.
    await live.exec(
      alias,
      "UPDATE $SIDECAR.vreplication SET state = 'Error', message = 'vttablet: rpc error: code = Unknown desc = boom'",
    );
  });
  after(() => live.stop());

  test('same findings, verdicts and streams; only --via vtctld calls ExecuteFetchAsDBA', async () => {
    const base = [
      'check',
      '--vtctld',
      live.vtctld.address,
      '--keyspace',
      'customer',
      '--format',
      'json',
      '--timeout',
      '5s',
    ];
    const calls0 = live.vtctld.calls.length;
    const direct = await runCli([...base, '--via', 'mysql'], { env: live.env });
    const isFetch = (rpc: string) => rpc === 'ExecuteFetchAsDBA' || rpc === 'ExecuteMultiFetchAsDBA';
    const fetchesDirect = live.vtctld.calls.slice(calls0).filter((c) => isFetch(c.rpc)).length;
    const calls1 = live.vtctld.calls.length;
    const viaVtctld = await runCli([...base, '--via', 'vtctld'], { env: {} }); // no MySQL credentials needed
    const fetchesVia = live.vtctld.calls.slice(calls1).filter((c) => isFetch(c.rpc)).length;
    assert.equal(direct.stderr, '');
    assert.equal(viaVtctld.stderr, '');
    const a = JSON.parse(direct.stdout) as Json;
    const b = JSON.parse(viaVtctld.stdout) as Json;
    assert.deepEqual(withoutTimes(b), withoutTimes(a));
    assert.equal(viaVtctld.code, direct.code);
    assert.equal(fetchesDirect, 0);
    assert.ok(fetchesVia >= 2, `ExecuteFetchAsDBA/ExecuteMultiFetchAsDBA called ${fetchesVia} times`);
    // What was found: the stream in Error, on 80-, and both streams in the matrix data.
    assert.deepEqual(
      a.streams.map((s: Json) => [s.shard, s.streamId, s.state, s.sourceKeyspace, s.sourceShard]),
      [
        ['-80', 1, 'Running', 'commerce', '0'],
        ['80-', 1, 'Error', 'commerce', '0'],
      ],
    );
    assert.deepEqual(
      a.workflows.map((w: Json) => [w.workflow, w.verdict, w.targetShards]),
      [['commerce2customer', 'blocked', ['-80', '80-']]],
    );
    assert.ok(a.findings.some((f: Json) => f.check === 'stream-error' && f.shard === '80-' && f.streamId === 1));
    assert.equal(a.summary.exitCode, 1);
    assert.equal(direct.code, 1);
  });

  test('--via vtctld: a tablet whose ExecuteFetchAsDBA fails is an unreachable finding, not a crash', async () => {
    const r = await runCli([
      'check',
      '--vtctld',
      live.vtctld.address,
      '--via',
      'vtctld',
      '--keyspace',
      'commerce',
      '--format',
      'json',
      '--only',
      'unreachable',
    ]);
    // commerce/0's primary has a MariaDB too, with an empty sidecar for vt_commerce: nothing unreachable.
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual((JSON.parse(r.stdout) as Json).findings, []);
  });
});

describe('vtctld static auth', () => {
  const password = 'pw-Zq8-never-print-me';
  let live: LiveCluster;
  const tmp = tempDir();
  before(async () => {
    live = await startLiveCluster(scenario(), pool, { auth: { username: 'ci', password } });
  });
  after(async () => {
    await live.stop();
    tmp.cleanup();
  });

  const argv = (...extra: string[]) => [
    'check',
    '--vtctld',
    live.vtctld.address,
    '--timeout',
    '5s',
    '--only',
    'unreachable,stream-error',
    ...extra,
  ];

  test('a credentials file as vtctldclient reads it authenticates every call', async () => {
    const creds = tmp.write('creds.json', JSON.stringify({ Username: 'ci', Password: password }));
    const r = await runCli(argv('--grpc-auth-static-client-creds', creds, '--format', 'json'), { env: live.env });
    assert.equal(r.code, 0, r.stderr + r.stdout);
    assert.deepEqual((JSON.parse(r.stdout) as Json).findings, []);
    // vtctldclient's underscore spelling and Go's case-insensitive keys work too.
    const lower = tmp.write('creds-lower.json', JSON.stringify({ username: 'ci', password }));
    const r2 = await runCli(argv('--grpc_auth_static_client_creds', lower), { env: live.env });
    assert.equal(r2.code, 0, r2.stderr);
  });

  test('from the environment and from a config file with passwordEnv', async () => {
    const r = await runCli(argv(), {
      env: { ...live.env, VTPREFLIGHT_VTCTLD_USERNAME: 'ci', VTPREFLIGHT_VTCTLD_PASSWORD: password },
    });
    assert.equal(r.code, 0, r.stderr);
    const cfg = tmp.write('auth.yaml', 'vtctld:\n  auth:\n    username: ci\n    passwordEnv: VTCTLD_PW\n');
    const r2 = await runCli(argv('--config', cfg), { env: { ...live.env, VTCTLD_PW: password } });
    assert.equal(r2.code, 0, r2.stderr);
  });

  test('wrong or missing credentials: one line, exit 2, no report, and the password appears nowhere', async () => {
    // Without the keyspace list nothing can be checked: a refused GetKeyspaces stops the run (exit 2).
    const wrong = tmp.write('wrong.json', JSON.stringify({ Username: 'ci', Password: `${password}-x` }));
    const snap = tmp.path('snap.json');
    for (const [extra, code] of [
      [['--grpc-auth-static-client-creds', wrong], 'PERMISSION_DENIED'],
      [[], 'UNAUTHENTICATED'],
    ] as const) {
      const r = await runCli(
        argv(
          ...extra,
          '--format',
          'json',
          '--format',
          'text',
          '--output',
          tmp.path('r.json'),
          '--output',
          tmp.path('r.txt'),
        ),
        { env: live.env },
      );
      assert.equal(r.code, 2, r.stderr);
      assert.match(
        r.stderr,
        new RegExp(`^vtpreflight: vtctld at \\S+ refused the credentials \\(${code}\\)[^\\n]*\\n$`),
      );
      assert.equal(existsSync(tmp.path('r.txt')), false, 'no report is written when nothing could be checked');
      for (const out of [r.stdout, r.stderr]) assert.equal(out.includes(password), false);
    }
    const s = await runCli(
      [
        'snapshot',
        '--vtctld',
        live.vtctld.address,
        '--grpc-auth-static-client-creds',
        wrong,
        '--output',
        snap,
        '--quiet',
      ],
      { env: live.env },
    );
    assert.equal(s.code, 2, s.stderr);
    assert.equal(existsSync(snap), false);
    assert.equal(s.stderr.includes(password), false);
  });

  test('a malformed credentials file is one line, exit 2, without its content', async () => {
    const bad = tmp.write('bad.json', `{"Username": "ci", "Password": "${password}",}`);
    const r = await runCli(argv('--grpc-auth-static-client-creds', bad), { env: live.env });
    assert.equal(r.code, 2);
    assert.match(
      r.stderr,
      joinRegExp(
        /^vtpreflight: --grpc-auth-static-client-creds .*bad\.json is /,
        /not valid JSON: want \{"Username": "…", "Password": "…"\}/,
      ),
    );
    assert.equal(r.stderr.trim().split('\n').length, 1);
    assert.equal(r.stderr.includes(password), false);
    const empty = tmp.write('empty.json', '{"Password": "x"}');
    const r2 = await runCli(argv('--grpc-auth-static-client-creds', empty), { env: live.env });
    assert.equal(r2.code, 2);
    assert.match(r2.stderr, /lacks a string Username and Password/);
  });
});

describe('--wait', () => {
  let live: LiveCluster;
  let alias = '';
  before(async () => {
    const b = scenario();
    alias = b.primary('customer', '80-');
    b.patchStream('customer', '80-', 1, { state: 'Copying', copyTables: ['customer'] });
    live = await startLiveCluster(b, pool);
  });
  after(() => live.stop());

  /** A fake clock that `sleep` advances, and a hook run on each sleep. */
  const fakeTime = (onSleep: (n: number) => Promise<void> = async () => {}) => {
    let t = Date.parse('2026-03-01T12:00:00Z');
    let n = 0;
    return {
      now: () => t,
      sleep: async (ms: number) => {
        t += ms;
        await onSleep(++n);
      },
      sleeps: () => n,
    };
  };

  test('--quiet silences the wait lines; --wait with --snapshot and --interval without --wait are usage errors', async () => {
    const clock = fakeTime();
    const r = await runCli(
      [
        'check',
        '--vtctld',
        live.vtctld.address,
        '--keyspace',
        'customer',
        '--only',
        'copy-incomplete',
        '--format',
        'json',
        '--wait',
        '5s',
        '--interval',
        '10s',
        '--quiet',
      ],
      { env: live.env, ...clock },
    );
    assert.equal(r.code, 1);
    assert.equal(r.stderr, '');
    const s = await runCli(['check', '--snapshot', 'x.json', '--wait', '1m']);
    assert.deepEqual([s.code, s.stderr], [2, 'vtpreflight: --wait needs a live cluster: a --snapshot never changes\n']);
    const i = await runCli(['check', '--vtctld', 'h:1', '--interval', '5s']);
    assert.deepEqual([i.code, i.stderr], [2, 'vtpreflight: --interval needs --wait DURATION\n']);
  });

  test('gives up when the copy does not finish: exit 1, the last report, open findings with their age', async () => {
    const clock = fakeTime();
    const before = live.vtctld.calls.filter((c) => c.rpc === 'GetKeyspaces').length;
    const r = await runCli(
      [
        'check',
        '--vtctld',
        live.vtctld.address,
        '--keyspace',
        'customer',
        '--only',
        'copy-incomplete',
        '--format',
        'json',
        '--wait',
        '25s',
        '--interval',
        '10s',
      ],
      { env: live.env, ...clock },
    );
    assert.equal(r.code, 1, r.stderr);
    const runs = live.vtctld.calls.filter((c) => c.rpc === 'GetKeyspaces').length - before;
    assert.equal(runs, 3); // at 0s, 10s, 20s; 5s left is less than one interval
    assert.match(r.stderr, /wait: 1 finding still open after run 1 \(0ms\); next run in 10s, giving up in 25s/);
    assert.match(
      r.stderr,
      joinRegExp(
        /copy-incomplete customer\.commerce2customer: 1 open on /,
        /customer\/80- stream 1 zone1-\d+, since 12:00:00Z \(20s\)/,
      ),
    );
    assert.match(r.stderr, /wait: gave up after 20s \(run 3\): 1 finding still open/);
    const report = JSON.parse(r.stdout) as Record<string, any>;
    assert.deepEqual(
      report.findings.map((f: any) => [f.check, f.shard]),
      [['copy-incomplete', '80-']],
    );
  });

  test('re-checks until the copy finishes; the final report is the clear run’s', async () => {
    const clock = fakeTime(async (n) => {
      if (n === 2) {
        // The copy finishes during the second pause.
        await live.exec(alias, 'DELETE FROM $SIDECAR.copy_state');
        await live.exec(alias, "UPDATE $SIDECAR.vreplication SET state = 'Running', time_updated = UNIX_TIMESTAMP()");
      }
    });
    const r = await runCli(
      [
        'check',
        '--vtctld',
        live.vtctld.address,
        '--keyspace',
        'customer',
        '--only',
        'copy-incomplete',
        '--format',
        'json',
        '--wait',
        '10m',
        '--interval',
        '15s',
      ],
      { env: live.env, ...clock },
    );
    assert.equal(r.code, 0, r.stderr);
    assert.equal(clock.sleeps(), 2);
    assert.match(r.stderr, /still open after run 2 \(15s\)/);
    assert.match(r.stderr, /since 12:00:00Z \(15s\)/);
    assert.match(r.stderr, /wait: clear after 30s \(run 3\): nothing at or above --fail-on error/);
    const report = JSON.parse(r.stdout) as Record<string, any>;
    assert.deepEqual(report.findings, []);
    assert.deepEqual(
      report.streams.map((s: any) => [s.shard, s.state]),
      [
        ['-80', 'Running'],
        ['80-', 'Running'],
      ],
    );
  });
});
