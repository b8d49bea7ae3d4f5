/**
 * The CI situation, end to end: vtctld is reachable, over mTLS with Vitess static auth, the primaries'
 * MySQL is not used at all (`--via vtctld`). The same live cluster must give the same report as offline, and a
 * missing client certificate or wrong credentials must fail in one line without leaking the password.
 */
import assert from 'node:assert/strict';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { testPool } from '../harness/env.js';
import { hasOpenssl, makeTestPki } from '../harness/tls.js';
import { parseReport, runCli } from './cli.js';
import { assertLiveMatchesOffline } from './compare.js';
import { assertFindings } from './expect.js';
import { startLiveCluster, type LiveCluster } from './live-cluster.js';
import { PER_CHECK } from './scenarios.js';

const pool = await testPool({ minInstances: 6 });
const PASSWORD = 'vtctld-s3cret-pw';

/** Throwaway CA, server and client certificates (as test/sources/vtctld-client.test.ts makes them). */
describe('--via vtctld over mTLS with static auth', {
  skip: hasOpenssl ? false : 'the openssl CLI is not installed',
}, () => {
  let dir = '';
  let live: LiveCluster | undefined;
  const scenario = PER_CHECK.find((s) => s.check === 'stream-set-mismatch')!;
  const file = (f: string) => join(dir, f);
  before(async () => {
    dir = makeTestPki([
      { name: 'server', usage: 'server', san: ['DNS:vtctld.test', 'IP:127.0.0.1'] },
      { name: 'client', usage: 'client' },
    ]).dir;
    writeFileSync(file('creds.json'), JSON.stringify({ Username: 'ci', Password: PASSWORD }));
    writeFileSync(file('wrong-creds.json'), JSON.stringify({ Username: 'ci', Password: 'not-it' }));
    const read = (f: string) => readFileSync(file(f));
    live = await startLiveCluster(scenario.build().readout(), pool, {
      vtctld: {
        tls: { key: read('server.key'), cert: read('server.crt'), ca: read('ca.crt'), requireClientCert: true },
        auth: { username: 'ci', password: PASSWORD },
      },
    });
  });
  after(async () => {
    await live?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const tlsFlags = () => [
    '--vtctld-tls-ca',
    file('ca.crt'),
    '--vtctld-tls-cert',
    file('client.crt'),
    '--vtctld-tls-key',
    file('client.key'),
  ];

  test('the same report as offline, read through ExecuteFetchAsDBA only', async () => {
    const run = await runCli([
      'check',
      '--vtctld',
      live!.address,
      '--format',
      'json',
      '--via',
      'vtctld',
      ...tlsFlags(),
      '--grpc-auth-static-client-creds',
      file('creds.json'),
    ]);
    const report = parseReport(run);
    assert.equal(run.code, 1, run.stderr);
    scenario.expect(report, { via: 'vtctld', cluster: live! });
    assertLiveMatchesOffline(report, live!, { via: 'vtctld' });
    assert.ok(live!.fetches.length > 0 && live!.fetches.every((f) => f.allowed));
  });

  test('the server name can differ from the address (--vtctld-tls-server-name)', async () => {
    const run = await runCli([
      'check',
      '--vtctld',
      live!.address,
      '--format',
      'json',
      '--via',
      'vtctld',
      '--only',
      'stream-set-mismatch',
      ...tlsFlags(),
      '--vtctld-tls-server-name',
      'vtctld.test',
      '--grpc-auth-static-client-creds',
      file('creds.json'),
    ]);
    assertFindings(parseReport(run), 'stream-set-mismatch', [
      { shard: '80-', details: { reason: 'streamsMismatched' } },
    ]);
  });

  test('no client certificate: one line, exit 2', async () => {
    const run = await runCli([
      'check',
      '--vtctld',
      live!.address,
      '--format',
      'json',
      '--via',
      'vtctld',
      '--vtctld-tls-ca',
      file('ca.crt'),
      '--grpc-auth-static-client-creds',
      file('creds.json'),
      '--timeout',
      '3s',
    ]);
    assert.equal(run.code, 2, run.stderr);
    assert.equal(run.stdout, '');
    assert.match(run.stderr, /^vtpreflight: cannot reach vtctld at [^\n]+\n$/);
  });

  test('no client certificate: the line says the TLS handshake failed, not "within 3s"', {}, async () => {
    const run = await runCli([
      'check',
      '--vtctld',
      live!.address,
      '--format',
      'json',
      '--vtctld-tls-ca',
      file('ca.crt'),
      '--grpc-auth-static-client-creds',
      file('creds.json'),
      '--timeout',
      '3s',
    ]);
    assert.equal(run.code, 2);
    assert.match(run.stderr, /TLS handshake failed.*certificate required.*--vtctld-tls-cert/);
  });

  test('wrong static credentials: not a pass, and neither password is printed', async () => {
    const run = await runCli([
      'check',
      '--vtctld',
      live!.address,
      '--format',
      'json',
      '--via',
      'vtctld',
      ...tlsFlags(),
      '--grpc-auth-static-client-creds',
      file('wrong-creds.json'),
      '--timeout',
      '3s',
    ]);
    assert.notEqual(run.code, 0, 'refused credentials are never a pass');
    assert.match(`${run.stdout}${run.stderr}`, /PERMISSION_DENIED|permission denied|invalid credentials/i);
    for (const secret of [PASSWORD, 'not-it'])
      assert.ok(!`${run.stdout}${run.stderr}`.includes(secret), `${secret} printed`);
  });

  test('refused credentials: one line naming the refusal once, exit 2 (nothing can be checked without the keyspace list)', async () => {
    const run = await runCli([
      'check',
      '--vtctld',
      live!.address,
      '--format',
      'json',
      ...tlsFlags(),
      '--grpc-auth-static-client-creds',
      file('wrong-creds.json'),
      '--timeout',
      '3s',
    ]);
    assert.equal(run.code, 2, run.stderr);
    assert.equal(run.stdout, '');
    assert.match(run.stderr, /^vtpreflight: vtctld at [^\n]+ refused the credentials \(PERMISSION_DENIED\)[^\n]*\n$/);
    assert.doesNotMatch(run.stderr, /failed at vtctld .*failed at vtctld/);
  });
});
