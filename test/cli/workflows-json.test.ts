/**
 * `check --workflows-json FILE...`: vtctldclient GetWorkflows JSON checked offline; checks that need data such a
 * file lacks are skipped with a reason.
 */
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import type { Report } from '../../src/engine/report.js';
import { runCli, tempDir, joinRegExp } from './helpers.js';

const FIXTURE = 'test/fixtures/vtctld/GetWorkflowsResponse.json';

describe('check --workflows-json', () => {
  const tmp = tempDir();
  after(() => tmp.cleanup());

  test('the healthy fixture: stream checks run and pass, topology checks are skipped with reasons', async () => {
    const r = await runCli(['check', '--workflows-json', FIXTURE, '--format', 'json']);
    // No stream of the fixture is Stopped: it may have been captured without --show-all, and stderr says so.
    assert.match(r.stderr, /^vtpreflight: warning: .*: no stream in it is Stopped; [^\n]*--show-all\n$/);
    // Nothing found, but the topology checks could not run: unverified, which fails the default gate.
    assert.equal(r.code, 1);
    const report = JSON.parse(r.stdout) as Report;
    const ran = report.checks.filter((c) => c.status !== 'skipped').map((c) => c.id);
    assert.deepEqual(ran, [
      'copy-incomplete',
      'externalize-workflow',
      'multiple-source-keyspaces',
      'multiple-target-keyspaces',
      'no-streams',
      'replication-lag',
      'stream-error',
      'switch-traffic-unsupported',
      'table-list-mismatch',
      'unreachable',
      'vitess-version-mismatch',
    ]);
    for (const c of report.checks) {
      // A check none of whose reasons bears on SwitchTraffic (--action cancel's, say) is skipped as not applicable.
      if (c.status === 'skipped' && c.notApplicable === true)
        assert.match(c.skipReason ?? '', /^does not apply to --action switch$/, c.id);
      else if (c.status === 'skipped')
        assert.match(c.skipReason ?? '', /^needs .*, which a GetWorkflows JSON file does not carry$/, c.id);
      else assert.equal(c.status, 'pass', c.id);
    }
    assert.match(
      report.checks.find((c) => c.id === 'missing-source')!.skipReason!,
      /topology .* and the tablet records/,
    );
    assert.deepEqual(report.findings, []);
    assert.deepEqual(report.summary, { error: 0, warning: 0, info: 0, exitCode: 1 });
    assert.deepEqual(
      report.workflows.map((w) => [w.workflow, w.verdict]),
      [['commerce2customer', 'unverified']],
    );
    // unverifiedBy names every topology check that was skipped, with the reason.
    const skipped = report.checks.filter((c) => c.status === 'skipped' && c.notApplicable !== true).map((c) => c.id);
    assert.deepEqual(
      report.workflows[0]!.unverifiedBy.map((u) => u.check),
      skipped,
    );
    for (const u of report.workflows[0]!.unverifiedBy)
      assert.match(u.why, /^needs .*, which a GetWorkflows JSON file does not carry$/);
    assert.equal(report.streams?.length, 2);
    // The key order of a skipped check: skipReason right after durationMs.
    assert.deepEqual(Object.keys(report.checks.find((c) => c.id === 'stream-coverage')!), [
      'id',
      'status',
      'findings',
      'durationMs',
      'skipReason',
      'title',
      'severity',
      'remediation',
    ]);
  });

  test('several files, repeatable; text, markdown and junit show the reason', async () => {
    const r = await runCli(['check', '--workflows-json', FIXTURE, '--workflows-json', FIXTURE, '--format', 'text']);
    assert.equal(r.code, 1);
    assert.match(
      r.stdout,
      // The checks that need what a GetWorkflows JSON file does not carry, one entry per reason.
      /^unverified customer\.commerce2customer \(MoveTables\)\n {9}unverified: \d+ checks: needs the topology /,
    );
    assert.match(r.stdout, /stream-coverage\s+skipped: needs the topology/);
    const md = await runCli(['check', '--workflows-json', FIXTURE, '--format', 'markdown']);
    assert.match(md.stdout, /\| `stream-coverage` \| skipped \| needs the topology/);
    const x = await runCli(['check', '--workflows-json', FIXTURE, '--format', 'junit']);
    assert.match(
      x.stdout,
      joinRegExp(
        /<skipped message="needs the topology \(keyspace, shard and routing records\) /,
        /and the vschemas, which a GetWorkflows JSON file does not carry"\/>/,
      ),
    );
  });

  test('a workflow with errors is reported', async () => {
    const wf = JSON.parse((await import('node:fs')).readFileSync(FIXTURE, 'utf8')) as {
      workflows: { shard_streams: Record<string, { streams: { state: string; message: string }[] }> }[];
    };
    const st = wf.workflows[0]!.shard_streams['-80/zone1-0000000200']!.streams[0]!;
    st.state = 'Error';
    st.message = 'Error: table customer not found';
    const r = await runCli([
      'check',
      '--workflows-json',
      tmp.write('err.json', JSON.stringify(wf)),
      '--format',
      'json',
    ]);
    assert.equal(r.code, 1);
    const report = JSON.parse(r.stdout) as Report;
    assert.deepEqual(
      report.findings.map((f) => [f.check, f.shard]),
      [['stream-error', '-80']],
    );
  });

  test('usage errors: one line, exit 2', async () => {
    const cases: [string[], RegExp][] = [
      [
        ['--snapshot', 'x.json'],
        /^vtpreflight: --workflows-json cannot be combined with --snapshot: it checks a file offline\n$/,
      ],
      [
        ['--vtctld', 'h:1'],
        /^vtpreflight: --workflows-json cannot be combined with --vtctld: it checks a file offline\n$/,
      ],
      [['--wait', '1m'], /^vtpreflight: --workflows-json cannot be combined with --wait: it checks a file offline\n$/],
    ];
    for (const [extra, re] of cases) {
      const r = await runCli(['check', '--workflows-json', FIXTURE, ...extra]);
      assert.deepEqual([r.code, r.stdout], [2, '']);
      assert.match(r.stderr, re);
    }
    const bad = await runCli(['check', '--workflows-json', tmp.write('bad.json', '{"workflows": [')]);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /^vtpreflight: --workflows-json .*bad\.json: not JSON: [^\n]*\n$/);
    const shape = await runCli([
      'check',
      '--workflows-json',
      tmp.write(
        'shape.json',
        '{"workflows": [{"name": "w", "target": {"keyspace": "k"}, "shard_streams": {"0/z-1": {"streams": [{"id": "x"}]}}}]}',
      ),
    ]);
    assert.equal(shape.code, 2);
    assert.match(
      shape.stderr,
      joinRegExp(
        /^vtpreflight: --workflows-json .*shape\.json: /,
        /workflows\[0\]\.shard_streams\["0\/z-1"\]\.streams\[0\]\.id: expected an integer, got "x"\n$/,
      ),
    );
    const missing = await runCli(['check', '--workflows-json', tmp.path('nope.json')]);
    assert.deepEqual(
      [missing.code, missing.stderr.replace(tmp.dir, 'TMP')],
      [2, 'vtpreflight: cannot read --workflows-json TMP/nope.json: ENOENT\n'],
    );
  });
});
