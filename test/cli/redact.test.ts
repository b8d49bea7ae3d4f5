/**
 * `snapshot --redact` against a live cluster (fake vtctld + real MariaDB sidecars): the file holds no address of
 * the cluster, and checks to the same findings as an unredacted snapshot.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { testPool } from '../harness/env.js';
import { cluster } from '../helpers/cluster.js';
import { runCli, startLiveCluster, tempDir, type LiveCluster } from './helpers.js';

const pool = await testPool();

describe('snapshot --redact', () => {
  let live: LiveCluster;
  const tmp = tempDir();
  before(async () => {
    const b = cluster()
      .keyspace('commerce', { shards: ['0'], tables: { customer: {} } })
      .keyspace('customer', {
        shards: ['-80', '80-'],
        tables: { customer: { columnVindexes: [{ name: 'hash', columns: ['customer_id'] }] } },
      })
      .moveTables('commerce2customer', { from: 'commerce', to: 'customer', tables: ['customer'] });
    live = await startLiveCluster(b, pool);
    await live.exec(
      b.primary('customer', '80-'),
      "UPDATE $SIDECAR.vreplication SET state = 'Error', message = 'error connecting: password=s3cr3t'",
    );
  });
  after(async () => {
    await live.stop();
    tmp.cleanup();
  });

  test('no host or secret in the file; the same findings as the plain snapshot', async () => {
    const plain = tmp.path('plain.json');
    const redacted = tmp.path('redacted.json');
    const base = ['snapshot', '--vtctld', live.vtctld.address, '--quiet'];
    assert.equal((await runCli([...base, '--output', plain], { env: live.env })).code, 0);
    const r = await runCli([...base, '--output', redacted, '--redact'], { env: live.env });
    assert.deepEqual([r.code, r.stderr], [0, '']);
    const [vtctldHost] = live.vtctld.address.split(':');
    const text = readFileSync(redacted, 'utf8');
    assert.ok(readFileSync(plain, 'utf8').includes('s3cr3t'));
    for (const gone of [vtctldHost!, 's3cr3t', 'localhost']) assert.ok(!text.includes(gone), `${gone} redacted`);
    const check = async (file: string) =>
      JSON.parse((await runCli(['check', '--snapshot', file, '--format', 'json'])).stdout) as {
        findings: { check: string; shard?: string; streamId?: number }[];
      };
    const a = await check(plain);
    const b = await check(redacted);
    assert.ok(a.findings.length > 0);
    assert.deepEqual(
      b.findings.map((f) => [f.check, f.shard, f.streamId]),
      a.findings.map((f) => [f.check, f.shard, f.streamId]),
    );
  });
});
