/**
 * `vtpreflight demo`: the default scenario's three faults are each reported, in the text report and in the JSON one;
 * the demo exits 0 (it is not a gate) unless `--exit-code`; `--list` lists the scenarios; bad flags exit 2 before
 * anything starts; and the user's VTPREFLIGHT_* environment does not leak into the simulated run.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { runDemo } from '../../src/cli/commands/demo.js';
import { DEFAULT_SCENARIO, SCENARIOS } from '../../src/sim/scenario.js';
import { runCli, type JsonReport } from './helpers.js';
import { joinRegExp } from '../helpers/regexp.js';

describe('vtpreflight demo', () => {
  test('the default demo reports its three faults and exits 0', async () => {
    const r = await runCli(['demo']);
    assert.equal(r.code, 0, r.stderr);
    // The text report (the default format, whatever stdout is) names each fault's check and what it saw.
    assert.match(
      r.stdout,
      joinRegExp(
        /stream-set-mismatch · .*\n.*source shard customer\/\S+ of /,
        /Reshard cust2cust carries other workflows' streams that differ/,
      ),
    );
    assert.match(
      r.stdout,
      /replication-lag · .*\n.*workflow cust2cust in customer has transaction lag 4\d\ds, above the allowed 30s/,
    );
    assert.match(r.stdout, /source-not-serving ·[\s\S]*?VStreamer is not open/);
    assert.match(r.stdout, /blocked\s+customer\.cust2cust \(Reshard\)/);
    // The legend and the closing line go to stderr.
    assert.match(r.stderr, /simulating "reshard-faults": 2 keyspaces, 49 shards, 98 tablets/);
    assert.match(r.stderr, /faults injected into the simulated cluster:\n {2}- another workflow's stream is missing/);
    assert.match(
      r.stderr,
      /check exited 1 \(findings block the cutover\) in .*; the demo exits 0: it is a demo, not a gate/,
    );
  });

  test('--format json: one finding of each fault, at the fault', async () => {
    let stdout = '';
    const code = await runDemo({
      format: 'json',
      rtt: 0,
      io: { stdout: (s) => void (stdout += s), stderr: () => {}, env: {}, stdoutIsTTY: false, stderrIsTTY: false },
    });
    assert.equal(code, 0);
    const report = JSON.parse(stdout) as JsonReport;
    const at = (check: string) =>
      report.findings.filter((f) => f.check === check).map((f) => `${f.keyspace}/${f.shard} ${f.workflow}`);
    assert.equal(at('stream-set-mismatch').length, 1);
    assert.equal(at('replication-lag').length, 1);
    assert.equal(at('source-not-serving').length, 2, 'both streams reading the source whose VStreamer is not open');
    assert.equal(report.summary.exitCode, 1);
  });

  test('--action: check judges that action of the scenario, and create or an unknown action exit 2', async () => {
    const r = await runCli(['demo', '--action', 'cancel', '--format', 'json', '--rtt', '0ms', '--shards', '4']);
    assert.equal(r.code, 0, r.stderr);
    const report = JSON.parse(r.stdout) as JsonReport & {
      options: { action: { action: string } };
      workflows: { action: string }[];
    };
    assert.equal(report.options.action.action, 'cancel');
    assert.ok(report.workflows.length > 0 && report.workflows.every((w) => w.action === 'cancel'));
    for (const bad of ['create', 'undo']) {
      const u = await runCli(['demo', '--action', bad]);
      assert.equal(u.code, 2, u.stderr);
      assert.match(u.stderr, new RegExp(`invalid --action "${bad}": use switch, reverse, complete, cancel, `));
    }
  });

  test("--exit-code returns check's exit code", async () => {
    const r = await runCli(['demo', '--exit-code', '--rtt', '0ms', '--scenario', 'stream-error', '--shards', '4']);
    assert.equal(r.code, 1);
    const healthy = await runCli(['demo', '--exit-code', '--rtt', '0ms', '--scenario', 'reshard', '--shards', '4']);
    assert.equal(healthy.code, 0, healthy.stdout);
    assert.match(healthy.stderr, /no fault was injected/);
  });

  test('unreachable-primary never says ready for a workflow of the keyspace whose target primary was not read', async () => {
    for (const shards of ['2', '4', '16']) {
      const r = await runCli([
        'demo',
        '--exit-code',
        '--rtt',
        '0ms',
        '--scenario',
        'unreachable-primary',
        '--shards',
        shards,
        '--format',
        'json',
      ]);
      assert.equal(r.code, 1, `--shards ${shards}: ${r.stderr}`);
      const report = JSON.parse(r.stdout) as JsonReport;
      const unread = report.findings.filter((f) => f.check === 'unreachable' && f.reason === 'primaryUnreadable');
      assert.ok(unread.length > 0, `--shards ${shards}: no unread primary reported`);
      for (const w of report.workflows) {
        if (!unread.some((f) => f.keyspace === w.keyspace)) continue;
        assert.notEqual(w.verdict, 'ready', `--shards ${shards}: ${w.keyspace}.${w.workflow}`);
        assert.ok(w.blockedBy.includes('unreachable'), `--shards ${shards}: ${JSON.stringify(w)}`);
      }
    }
  });

  test('--list lists every scenario, the default marked', async () => {
    const r = await runCli(['demo', '--list']);
    assert.equal(r.code, 0);
    for (const s of SCENARIOS) assert.match(r.stdout, new RegExp(`^ {2}${s.name} `, 'm'));
    assert.match(r.stdout, new RegExp(`${DEFAULT_SCENARIO} .*\\(default\\)`));
  });

  test('bad flags exit 2 with one line, before any cluster starts', async () => {
    for (const [argv, message] of [
      [['demo', '--scenario', 'nope'], /unknown scenario "nope": run "vtpreflight demo --list"/],
      [['demo', '--shards', '1'], /invalid --shards 1: use an integer from 2 to 4096/],
      [['demo', '--shards', 'many'], /invalid --shards "many"/],
      [['demo', '--rtt', '5'], /invalid --rtt "5"/],
      [['demo', '--format', 'pdf'], /invalid --format "pdf"/],
    ] as const) {
      const r = await runCli(argv);
      assert.equal(r.code, 2, argv.join(' '));
      assert.match(r.stderr, message);
      assert.doesNotMatch(r.stderr, /simulating/);
    }
  });

  test("the user's VTPREFLIGHT_* settings stay out of the simulated run", async () => {
    let stdout = '';
    let stderr = '';
    const env = {
      VTPREFLIGHT_KEYSPACE: 'production',
      VTPREFLIGHT_CONFIG: '/nonexistent/vtpreflight.yml',
      VTPREFLIGHT_MYSQL_USER: 'admin',
    };
    const code = await runDemo({
      scenario: 'reshard',
      shards: 2,
      rtt: 0,
      format: 'json',
      io: {
        stdout: (s) => void (stdout += s),
        stderr: (s) => void (stderr += s),
        env,
        stdoutIsTTY: false,
        stderrIsTTY: false,
      },
    });
    assert.equal(code, 0, stderr);
    assert.deepEqual((JSON.parse(stdout) as { target: { keyspaces: string[] } }).target.keyspaces, []);
  });
});
