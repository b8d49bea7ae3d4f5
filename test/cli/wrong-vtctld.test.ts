/**
 * A wrong `--vtctld`: real servers on loopback that are not vtctld, and addresses where nothing answers. Each is exit
 * 2 with one line that says which mistake it is, with the real elapsed time (before: every case printed "cannot reach
 * … within 10s", even after 40 ms, and a gRPC server that is not vtctld produced a report and exit 1).
 */
import assert from 'node:assert/strict';
import http from 'node:http';
import net from 'node:net';
import { after, before, describe, test } from 'node:test';
import * as grpc from '@grpc/grpc-js';
import { startFakeVtctld, type FakeVtctld } from '../../src/sim/vtctld-server.js';
import { testPool } from '../harness/env.js';
import { hasOpenssl, makeTestPki, type TestPki } from '../harness/tls.js';
import { runCli, joinRegExp } from './helpers.js';

const pool = await testPool();

const listen = (srv: net.Server): Promise<number> =>
  new Promise((resolve) => srv.listen(0, '127.0.0.1', () => resolve((srv.address() as net.AddressInfo).port)));

async function check(address: string, extra: string[] = []) {
  const t0 = performance.now();
  const r = await runCli(['check', '--vtctld', address, '--quiet', ...extra]);
  return { ...r, ms: performance.now() - t0 };
}

function assertOneLine(r: { code: number; stdout: string; stderr: string }, re: RegExp) {
  assert.deepEqual([r.code, r.stdout], [2, ''], r.stderr);
  assert.equal(r.stderr.split('\n').length, 2, r.stderr);
  assert.match(r.stderr, re);
  assert.doesNotMatch(r.stderr, /internal error|please report/);
}

describe('a wrong --vtctld', () => {
  const closers: (() => unknown)[] = [];
  after(async () => {
    for (const c of closers) await c();
  });

  test('an HTTP/1 server (vtctld’s web port): named, with the port hint', async () => {
    const srv = http.createServer((_req, res) => res.end('vtctld web'));
    const port = await listen(srv);
    closers.push(() => srv.close());
    const r = await check(`127.0.0.1:${port}`);
    assertOneLine(
      r,
      joinRegExp(
        /^vtpreflight: 127\.0\.0\.1:\d+ is not vtctld: it is an HTTP\/1 server \(HTTP\/1\.1 /,
        /200 OK\), not a gRPC port \(vtctld serves gRPC on --grpc_port, 15999 by default/,
      ),
    );
  });

  test('a gRPC server that is not vtctld (UNIMPLEMENTED to GetKeyspaces): named, no report', async () => {
    const srv = new grpc.Server();
    const port = await new Promise<number>((resolve, reject) =>
      srv.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (e, p) => (e ? reject(e) : resolve(p))),
    );
    closers.push(() => srv.forceShutdown());
    const r = await check(`127.0.0.1:${port}`);
    assertOneLine(
      r,
      joinRegExp(
        /^vtpreflight: 127\.0\.0\.1:\d+ is not vtctld: it answers gRPC but not to /,
        /GetKeyspaces \(UNIMPLEMENTED\): is it vtgate's or a vttablet's port\?/,
      ),
    );
  });

  test('a server that accepts and never answers: named, with the real elapsed time', async () => {
    const sockets: net.Socket[] = [];
    const srv = net.createServer((s) => sockets.push(s));
    const port = await listen(srv);
    closers.push(() => {
      for (const s of sockets) s.destroy();
      srv.close();
    });
    const r = await check(`127.0.0.1:${port}`, ['--timeout', '1s']);
    assertOneLine(
      r,
      joinRegExp(
        /^vtpreflight: 127\.0\.0\.1:\d+ is not vtctld: the server accepts /,
        /connections but answered nothing within (\d+(\.\d)?)s: not a gRPC server/,
      ),
    );
    const said = Number(/within (\d+(?:\.\d)?)s/.exec(r.stderr)![1]);
    assert.ok(said >= 1 && Math.abs(said * 1000 - r.ms) < 600, `said ${said}s, took ${Math.round(r.ms)}ms`);
  });

  test('a MySQL port (a real MariaDB of the test pool): named from its greeting', async () => {
    const db = pool.instance(0);
    const r = await check(`${db.host}:${db.port}`);
    assertOneLine(
      r,
      /^vtpreflight: [\d.]+:\d+ is not vtctld: it is a MySQL server \([^)]*MariaDB[^)]*\): check --vtctld\n$/,
    );
  });

  test('a refused port: "connection refused" with the time it really took, not "within 10s"', async () => {
    const srv = net.createServer();
    const port = await listen(srv);
    await new Promise((resolve) => srv.close(resolve));
    const r = await check(`127.0.0.1:${port}`);
    assertOneLine(
      r,
      joinRegExp(
        /^vtpreflight: cannot reach vtctld at 127\.0\.0\.1:\d+: connection refused after /,
        /\d+ms: nothing listens on 127\.0\.0\.1 port \d+: check --vtctld and network access\n$/,
      ),
    );
    assert.doesNotMatch(r.stderr, /within 10s/);
  });

  describe('TLS', { skip: !hasOpenssl }, () => {
    let pki: TestPki;
    let vtctld: FakeVtctld;
    before(async () => {
      pki = makeTestPki([{ name: 'server', usage: 'server', san: ['IP:127.0.0.1'] }]);
      vtctld = await startFakeVtctld(
        {
          keyspaces: [],
          shards: [],
          tablets: [],
          vschemas: {},
          routingRules: [],
          shardRoutingRules: [],
          fullStatus: {},
        },
        { tls: { key: pki.read('server.key'), cert: pki.read('server.crt') } },
      );
    });
    after(async () => {
      await vtctld.stop();
      pki.remove();
    });

    test('a vtctld that wants TLS, dialed in plaintext: the TLS hint', async () => {
      const r = await check(vtctld.address);
      assertOneLine(
        r,
        joinRegExp(
          /^vtpreflight: cannot reach vtctld at 127\.0\.0\.1:\d+: the server /,
          /wants TLS \(it completed a TLS handshake\): give --vtctld-tls-ca/,
        ),
      );
    });
  });
});
