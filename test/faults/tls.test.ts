/**
 * Every TLS mismatch through the CLI, against a real MariaDB started with TLS and a real gRPC
 * vtctld with TLS, certificates made with openssl at test time. MySQL: a certificate for another name is refused unless
 * `--mysql-tls-server-name` names it, an untrusted CA is refused; the refusals are `unreachable` findings (exit 1,
 * never ready), one line each. vtctld: a wrong CA, a wrong name, a plaintext client against TLS and a TLS client
 * against
 * plaintext are each exit 2 in one line.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startFakeVtctld, type FakeVtctld } from '../../src/sim/vtctld-server.js';
import { fakeClusterOf } from '../cli/helpers.js';
import { parseReport, runCli } from '../e2e/cli.js';
import { startLiveCluster, type LiveCluster } from '../e2e/live-cluster.js';
import { unshardedToSharded } from '../e2e/scenarios.js';
import { privateServer, testPool, type PrivateServer } from '../harness/env.js';
import { hasOpenssl, makeTestPki, type TestPki } from '../harness/tls.js';
import { cluster } from '../helpers/cluster.js';

const pool = await testPool();

describe('TLS mismatches through the CLI', { skip: hasOpenssl ? false : 'no openssl CLI', timeout: 120_000 }, () => {
  let pki: TestPki;
  let db: PrivateServer;
  let live: LiveCluster;
  let tlsVtctld: FakeVtctld;
  let plainVtctld: FakeVtctld;
  before(async () => {
    pki = makeTestPki([
      { name: 'db', usage: 'server', san: ['DNS:db.other.example'] },
      { name: 'vtctld', usage: 'server', san: ['DNS:vtctld.test'] },
    ]);
    db = await privateServer([
      `--ssl-ca=${pki.caFile}`,
      `--ssl-cert=${pki.file('db.crt')}`,
      `--ssl-key=${pki.file('db.key')}`,
    ]);
    const b = cluster()
      .keyspace('commerce', { shards: ['0'] })
      .keyspace('customer', {
        shards: ['0'],
        tables: { customer: { columnVindexes: [{ name: 'hash', columns: ['customer_id'] }] } },
      })
      .moveTables('commerce2customer', {
        from: 'commerce',
        to: 'customer',
        tables: ['customer'],
        column: 'customer_id',
      });
    live = await startLiveCluster(b.readout(), pool, {
      place: { [b.primary('commerce', '0')]: db.instance, [b.primary('customer', '0')]: db.instance },
    });
    const fake = fakeClusterOf(unshardedToSharded().readout());
    tlsVtctld = await startFakeVtctld(fake, { tls: { key: pki.read('vtctld.key'), cert: pki.read('vtctld.crt') } });
    plainVtctld = await startFakeVtctld(fake);
  });
  after(async () => {
    await live?.stop().catch(() => undefined);
    await tlsVtctld?.stop();
    await plainVtctld?.stop();
    await db?.stop();
    pki?.remove();
  });

  const mysqlRun = (...tls: string[]) =>
    runCli(['check', '--vtctld', live.address, '--format', 'json', '--timeout', '5s', ...tls]);

  test('MySQL: the name the certificate carries, given with --mysql-tls-server-name: read, ready', async () => {
    const run = await mysqlRun('--mysql-tls-ca', pki.caFile, '--mysql-tls-server-name', 'db.other.example');
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(
      parseReport(run).workflows.map((w) => w.verdict),
      ['ready'],
    );
  });

  for (const [name, flags, pattern] of [
    [
      'a certificate for another name',
      () => ['--mysql-tls-ca', pki.caFile],
      /TLS: the server certificate does not name 127\.0\.0\.1 \(ERR_TLS_CERT_ALTNAME_INVALID\)/,
    ],
    [
      'a wrong --mysql-tls-server-name',
      () => ['--mysql-tls-ca', pki.caFile, '--mysql-tls-server-name', 'db.wrong.example'],
      /TLS: the server certificate does not name db\.wrong\.example/,
    ],
    [
      'an untrusted CA',
      () => ['--mysql-tls-ca', pki.otherCaFile, '--mysql-tls-server-name', 'db.other.example'],
      /TLS: the server certificate is not signed by the given CA/,
    ],
  ] as const) {
    test(`MySQL: ${name} is refused: unreachable, one line each, never ready`, async () => {
      const run = await mysqlRun(...flags());
      assert.equal(run.code, 1, run.stderr);
      const report = parseReport(run);
      const found = report.findings.filter((f) => f.check === 'unreachable' && f.reason === 'primaryUnreadable');
      assert.equal(found.length, 2, found.map((f) => f.message).join('\n'));
      for (const f of found) {
        assert.match(f.message, pattern);
        assert.doesNotMatch(f.message, /\n/);
        assert.equal(f.details?.kind, 'tls', f.message);
      }
      // Nothing was read, so no workflow is even known; none may be ready.
      assert.ok(report.workflows.every((w) => w.verdict !== 'ready'));
    });
  }

  const vtctldRun = (address: string, ...tls: string[]) =>
    runCli(['check', '--vtctld', address, '--format', 'json', '--timeout', '3s', ...tls]);
  const exit2 = (r: { code: number; stdout: string; stderr: string }, pattern: RegExp) => {
    assert.equal(r.code, 2, r.stderr);
    assert.equal(r.stdout, '');
    assert.equal(r.stderr.split('\n').length, 2, r.stderr);
    assert.match(r.stderr, pattern);
  };

  test('vtctld: the right CA and name connect', async () => {
    const r = await vtctldRun(
      tlsVtctld.address,
      '--vtctld-tls-ca',
      pki.caFile,
      '--vtctld-tls-server-name',
      'vtctld.test',
    );
    assert.notEqual(r.code, 2, r.stderr);
  });
  test('vtctld: an untrusted CA is exit 2, one line', async () => {
    exit2(
      await vtctldRun(tlsVtctld.address, '--vtctld-tls-ca', pki.otherCaFile, '--vtctld-tls-server-name', 'vtctld.test'),
      /^vtpreflight: cannot reach vtctld at .*TLS/,
    );
  });
  test('vtctld: a certificate for another name is exit 2, one line', async () => {
    exit2(
      await vtctldRun(tlsVtctld.address, '--vtctld-tls-ca', pki.caFile),
      /^vtpreflight: cannot reach vtctld at .*TLS/,
    );
  });
  test('vtctld: a plaintext client against a TLS vtctld is exit 2, one line', async () => {
    exit2(await vtctldRun(tlsVtctld.address), /^vtpreflight: .*vtctld/);
  });
  test('vtctld: a TLS client against a plaintext vtctld is exit 2, one line', async () => {
    exit2(
      await vtctldRun(plainVtctld.address, '--vtctld-tls-ca', pki.caFile, '--vtctld-tls-server-name', 'vtctld.test'),
      /^vtpreflight: .*vtctld/,
    );
  });
});
