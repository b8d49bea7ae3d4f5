/**
 * Optional vtctld RPCs: GetVersion, GetCellInfoNames, GetSrvVSchema, GetKeyspaceRoutingRules,
 * GetMirrorRules and ExecuteMultiFetchAsDBA against the fake vtctld over real gRPC. A vtctld that lacks one answers
 * UNIMPLEMENTED; the client classifies it `unimplemented` ("not available on this vtctld"), never `unreachable`, and
 * a whole `check` against an older vtctld records it in the readout and carries on.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Readout } from '../../src/readout.js';
import { startFakeVtctld, splitStatements, type FakeVtctld } from '../../src/sim/vtctld-server.js';
import { parseTabletBuild } from '../../src/sources/vtctld-records.js';
import { createVtctldClient, isVtctldUnimplemented, VtctldError, type VtctldClient } from '../../src/sources/vtctld.js';
import { testPool } from '../harness/env.js';
import { fakeClusterOf, runCli, startLiveCluster, tempDir } from '../cli/helpers.js';
import { readFileSync } from 'node:fs';
import { moveTablesScenario } from '../helpers/reshard-scenario.js';

const builder = () => moveTablesScenario(['customer']);

const OLD_VTCTLD = ['GetVersion', 'GetKeyspaceRoutingRules', 'GetMirrorRules', 'ExecuteMultiFetchAsDBA'];

describe('optional vtctld RPCs', () => {
  let fake: FakeVtctld;
  let old: FakeVtctld;
  let client: VtctldClient;
  let oldClient: VtctldClient;
  const fetched: string[] = [];
  const b = builder();
  const primary = b.primary('customer', '-80');
  before(async () => {
    const base = fakeClusterOf(b.readout());
    fake = await startFakeVtctld(
      {
        ...base,
        builds: { [primary]: { gitRev: '8e2c3f1a', buildTimestamp: 1733011200 } },
        srvVSchemas: {
          zone1: { keyspaces: ['commerce', 'customer'], routingRules: [], keyspaceRoutingRules: [] },
        },
        cells: ['zone1', 'zone2'],
        keyspaceRoutingRules: [{ fromKeyspace: 'commerce', toKeyspace: 'customer' }],
      },
      {
        executeFetchAsDBA: (alias, query) => {
          fetched.push(`${alias} ${query}`);
          return { fields: ['n'], rows: [[String(fetched.length)]] };
        },
      },
    );
    old = await startFakeVtctld({ ...base, unimplemented: OLD_VTCTLD });
    client = createVtctldClient({ address: fake.address, timeoutMs: 5000 });
    oldClient = createVtctldClient({ address: old.address, timeoutMs: 5000 });
  });
  after(async () => {
    client.close();
    oldClient.close();
    await fake.stop();
    await old.stop();
  });

  test('GetVersion: the build facts of the tablet, host and user dropped', async () => {
    assert.deepEqual(await client.getVersion(primary), { gitRev: '8e2c3f1a', buildTimestamp: 1733011200 });
    // vtctld's own format: Go %v of {BuildHost BuildUser BuildTimestamp BuildGitRev} (grpcvtctldserver/server.go).
    assert.deepEqual(parseTabletBuild('{vt-build-7 runner 1703174400 a1b2c3d4e5}'), {
      gitRev: 'a1b2c3d4e5',
      buildTimestamp: 1703174400,
    });
    assert.deepEqual(parseTabletBuild('something else'), { gitRev: 'something else', buildTimestamp: 0 });
  });
  test('GetCellInfoNames and GetSrvVSchema: a cell without a SrvVSchema is UNKNOWN with the topo text', async () => {
    assert.deepEqual(await client.getCellInfoNames(), ['zone1', 'zone2']);
    assert.deepEqual(await client.getSrvVSchema('zone1'), {
      keyspaces: ['commerce', 'customer'],
      routingRules: [],
      keyspaceRoutingRules: [],
    });
    await assert.rejects(client.getSrvVSchema('zone2'), (e: unknown) => {
      assert.ok(e instanceof VtctldError);
      assert.equal(e.kind, 'rpc');
      // vtctld returns the topo error as is, which grpc-go sends as UNKNOWN; vtpreflight reads it as not-found.
      assert.equal(e.code, 'UNKNOWN');
      assert.equal(e.readErrorKind, 'not-found');
      assert.match(e.message, /node doesn't exist: zone2\/SrvVSchema/);
      return true;
    });
  });
  test('GetKeyspaceRoutingRules and GetMirrorRules', async () => {
    assert.deepEqual(await client.getKeyspaceRoutingRules(), [{ fromKeyspace: 'commerce', toKeyspace: 'customer' }]);
    assert.deepEqual(await client.getMirrorRules(), []);
  });
  test('ExecuteMultiFetchAsDBA: one result per statement; anything but SELECT/SHOW is refused before sending', async () => {
    const results = await client.executeMultiFetchAsDBA(primary, [
      "/* vtpreflight */ SELECT 'a;b' AS n",
      '/* vtpreflight */ SHOW VARIABLES',
    ]);
    assert.equal(results.length, 2);
    assert.deepEqual(fetched, [
      `${primary} /* vtpreflight */ SELECT 'a;b' AS n`,
      `${primary} /* vtpreflight */ SHOW VARIABLES`,
    ]);
    const before = fake.calls.length;
    await assert.rejects(
      client.executeMultiFetchAsDBA(primary, ['/* vtpreflight */ SELECT 1', 'DELETE FROM _vt.vreplication']),
      (e: unknown) => e instanceof VtctldError && e.kind === 'invalid' && /refused by vtpreflight/.test(e.message),
    );
    await assert.rejects(
      client.executeMultiFetchAsDBA(primary, ['SELECT 1; DROP TABLE t']),
      (e: unknown) => e instanceof VtctldError && e.kind === 'invalid',
    );
    assert.equal(fake.calls.length, before, 'nothing was sent');
    assert.deepEqual(splitStatements("SELECT ';' ; /* ; */ SHOW TABLES;"), ["SELECT ';'", '/* ; */ SHOW TABLES']);
  });
  test('an older vtctld: every optional RPC is "not available on this vtctld", never unreachable', async () => {
    for (const call of [
      () => oldClient.getVersion(primary),
      () => oldClient.getKeyspaceRoutingRules(),
      () => oldClient.getMirrorRules(),
      () => oldClient.executeMultiFetchAsDBA(primary, ['/* vtpreflight */ SELECT 1']),
    ]) {
      await assert.rejects(call(), (e: unknown) => {
        assert.ok(isVtctldUnimplemented(e), String(e));
        assert.equal(e.unreachable, false);
        assert.match(e.message, /^\w+ is not available on this vtctld \(127\.0\.0\.1:\d+\): UNIMPLEMENTED: /);
        return true;
      });
    }
    // The RPCs every release has still answer.
    assert.equal((await oldClient.getKeyspaces()).length, 2);
  });
});

describe('check against an older vtctld (v19: no GetKeyspaceRoutingRules, GetMirrorRules, GetVersion)', async () => {
  const pool = await testPool({ minInstances: 3 });
  const tmp = tempDir('vtpreflight-optional-');
  after(() => tmp.cleanup());
  test('the readout records "not available on this vtctld", the run completes, judged against v19', async () => {
    const live = await startLiveCluster(builder(), pool, {}, { unimplemented: OLD_VTCTLD });
    try {
      const snap = tmp.path('old.json');
      const s = await runCli(['snapshot', '--vtctld', live.vtctld.address, '--output', snap], { env: live.env });
      assert.equal(s.code, 0, s.stderr);
      const readout = JSON.parse(readFileSync(snap, 'utf8')) as Readout;
      assert.deepEqual(readout.rpcs, { GetKeyspaceRoutingRules: false, GetMirrorRules: false, GetVersion: false });
      assert.deepEqual(readout.keyspaceRoutingRules, {
        ok: false,
        error: {
          what: 'GetKeyspaceRoutingRules',
          where: `vtctld ${live.vtctld.address}`,
          reason: 'not available on this vtctld (UNIMPLEMENTED)',
          unavailable: true,
          kind: 'unimplemented',
        },
      });
      const builds = Object.values(readout.tabletBuilds ?? {});
      assert.equal(builds.length, 3);
      assert.ok(builds.every((r) => !r.ok && r.error.unavailable === true));

      const run = await runCli(['check', '--vtctld', live.vtctld.address, '--format', 'json'], { env: live.env });
      assert.equal(run.stderr, '');
      assert.equal(run.code, 0, run.stdout);
      const report = JSON.parse(run.stdout) as {
        vitess: { judgedAgainst: string; evidence: string[] };
        findings: { severity: string }[];
      };
      // Info findings (no VDiff recorded on this harness) are not about the older vtctld.
      assert.deepEqual(
        report.findings.filter((f) => f.severity !== 'info'),
        [],
        'no unreachable finding for an RPC the vtctld does not have',
      );
      assert.equal(report.vitess.judgedAgainst, 'v19');
      assert.ok(
        report.vitess.evidence.includes(
          'vtctld answers GetKeyspaceRoutingRules with UNIMPLEMENTED (keyspace routing rules, v20)',
        ),
      );
    } finally {
      await live.stop();
    }
  });
});
