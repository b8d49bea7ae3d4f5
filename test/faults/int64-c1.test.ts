/**
 * Exit-code and escaping edges: C1 control characters (U+0080–U+009F, U+009B being a one-byte CSI) from hostile
 * rows never leave in raw form in JSON or HTML (the JSON still parses back to the exact text), and a stream
 * timestamp far outside the clock (int64 extremes) gives the lag Vitess computes with int64 arithmetic, printed in
 * full digits, never `e+25` or a float past int64.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { int64Lag, lagText } from '../../src/model/lag.js';
import { runCli, snapshotFile, tempDir } from '../cli/helpers.js';
import { cluster, NOW_SECONDS } from '../helpers/cluster.js';

const C1_RAW = /[\u0080-\u009f]/;
const HOSTILE = 'bad \u009b31m red \u0085 next-line \u0090 dcs \u009f end';

const base = () =>
  cluster()
    .keyspace('commerce', { shards: ['0'], tables: { customer: {} } })
    .keyspace('customer', {
      shards: ['-80', '80-'],
      tables: { customer: { columnVindexes: [{ name: 'hash', columns: ['customer_id'] }] } },
    })
    .moveTables('commerce2customer', { from: 'commerce', to: 'customer', tables: ['customer'] });

describe('C1 controls and int64 lag', () => {
  let dir: ReturnType<typeof tempDir>;
  before(() => {
    dir = tempDir('vtpreflight-int64-');
  });
  after(() => dir.cleanup());

  test('C1 characters of a stream message: escaped in JSON (same value) and visible in HTML', async () => {
    const snap = await snapshotFile(
      base().patchStream('customer', '-80', 1, { state: 'Error', message: HOSTILE }),
      dir.path('c1.json'),
    );
    const json = await runCli(['check', '--snapshot', snap, '--format', 'json']);
    assert.equal(json.code, 1, json.stderr);
    assert.ok(!C1_RAW.test(json.stdout), 'raw C1 in the JSON report');
    const report = JSON.parse(json.stdout) as { findings: { message: string }[]; streams?: { message: string }[] };
    assert.ok(
      report.findings.some((f) => f.message.includes(HOSTILE)) || report.streams?.some((s) => s.message === HOSTILE),
      'the exact text survives in JSON',
    );
    for (const format of ['html', 'text', 'markdown', 'junit']) {
      const run = await runCli(['check', '--snapshot', snap, '--format', format]);
      assert.ok(!C1_RAW.test(run.stdout), `raw C1 in ${format}`);
    }
  });

  test('int64Lag wraps as Go does; lagText prints every digit', () => {
    const now = NOW_SECONDS;
    assert.equal(int64Lag(now, now - 5), 5);
    // now − MinInt64 overflows int64 and wraps to a negative lag, which never exceeds the limit in Vitess.
    assert.equal(int64Lag(now, -(2 ** 63)), Number(BigInt.asIntN(64, BigInt(now) + 2n ** 63n)));
    assert.ok(int64Lag(now, -(2 ** 63)) < 0);
    assert.equal(lagText(2 ** 62), '4611686018427387904');
    assert.equal(lagText(9.2e25), BigInt(9.2e25).toString());
    assert.doesNotMatch(lagText(int64Lag(now, -9.2e25)), /e\+|\./);
  });

  for (const [name, at, verdict] of [
    ['MinInt64: the lag wraps negative, Vitess does not refuse on it', -(2 ** 63), 'ready'],
    ['-2^62: a lag of about 2^62 seconds, refused, printed in full', -(2 ** 62), 'blocked'],
  ] as const) {
    test(`a stream timestamp of ${name}`, async () => {
      const snap = await snapshotFile(
        base().patchStream('customer', '-80', 1, { time_updated: at, transaction_timestamp: at, time_heartbeat: at }),
        dir.path(`lag-${verdict}.json`),
      );
      const run = await runCli(['check', '--snapshot', snap, '--format', 'json']);
      const report = JSON.parse(run.stdout) as { workflows: { verdict: string; vitessWouldSay: string | null }[] };
      assert.equal(report.workflows[0]?.verdict, verdict, run.stdout.slice(0, 1500));
      const text = (await runCli(['check', '--snapshot', snap])).stdout;
      assert.doesNotMatch(text, /replication lag [0-9.]*e\+|replication lag \d{20,}s/);
      if (verdict === 'blocked')
        assert.match(report.workflows[0]?.vitessWouldSay ?? '', /replication lag 46116860\d{11}s/);
    });
  }
});
