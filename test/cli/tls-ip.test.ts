/**
 * Dialing a TLS vtctld by IP address through the built CLI: Node prints no DEP0123 deprecation
 * warning (grpc-js would send the IP as the TLS server name, which RFC 6066 forbids; src/sources/vtctld.ts sends none
 * for an IP), and the server's identity is still checked, against the IP address. stdout carries the report only.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { after, before, describe, test } from 'node:test';
import { startFakeVtctld, type FakeVtctld } from '../../src/sim/vtctld-server.js';
import { unshardedToSharded } from '../e2e/scenarios.js';
import { hasOpenssl, makeTestPki, type TestPki } from '../harness/tls.js';
import { cliPath } from '../helpers/paths.js';
import { fakeClusterOf } from './helpers.js';

describe('TLS to a vtctld given by IP address', { skip: hasOpenssl ? false : 'no openssl CLI' }, () => {
  let pki: TestPki;
  let byIp: FakeVtctld;
  let byName: FakeVtctld;
  before(async () => {
    pki = makeTestPki([
      { name: 'ip', usage: 'server', san: ['IP:127.0.0.1'] },
      { name: 'named', usage: 'server', san: ['DNS:vtctld.test'] },
    ]);
    const fake = fakeClusterOf(unshardedToSharded().readout());
    byIp = await startFakeVtctld(fake, { tls: { key: pki.read('ip.key'), cert: pki.read('ip.crt') } });
    byName = await startFakeVtctld(fake, { tls: { key: pki.read('named.key'), cert: pki.read('named.crt') } });
  });
  after(async () => {
    await byIp?.stop();
    await byName?.stop();
    pki?.remove();
  });

  // Asynchronous: the fake vtctld answers from this process's event loop.
  const run = (address: string) =>
    new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
      execFile(
        process.execPath,
        [cliPath, 'check', '--vtctld', address, '--vtctld-tls-ca', pki.caFile, '--format', 'json', '--timeout', '3s'],
        { encoding: 'utf8', env: { PATH: process.env.PATH ?? '' }, timeout: 60_000 },
        (err, stdout, stderr) =>
          resolve({ status: err ? (typeof err.code === 'number' ? err.code : null) : 0, stdout, stderr }),
      );
    });

  test('a certificate naming the IP: connects, no DEP0123 warning, stdout is the JSON report', async () => {
    assert.match(byIp.address, /^127\.0\.0\.1:\d+$/);
    const r = await run(byIp.address);
    assert.notEqual(r.status, 2, r.stderr);
    assert.doesNotMatch(r.stderr, /DEP0123|DeprecationWarning|ServerName/);
    assert.equal(JSON.parse(r.stdout).version, 1);
  });

  test('a certificate that does not name the IP is still refused (identity checked), without the warning', async () => {
    const r = await run(byName.address);
    assert.equal(r.status, 2, r.stderr);
    assert.match(r.stderr, /^vtpreflight: cannot reach vtctld at 127\.0\.0\.1:\d+: TLS .*127\.0\.0\.1/);
    assert.doesNotMatch(r.stderr, /DEP0123|DeprecationWarning/);
  });
});
