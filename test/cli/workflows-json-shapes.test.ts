/**
 * `check --workflows-json` decides what a file is before reading it (src/sources/vtctldclient-json.ts): every
 * vtctldclient output that carries streams is read, of several releases, and everything else is refused with exit 2
 * and one line naming what it looks like. The files in test/fixtures/vtctldclient are written from the upstream
 * protos and printing code (see its README); none of them parses to nothing.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, describe, test } from 'node:test';
import type { Report } from '../../src/engine/report.js';
import { runCli, tempDir, joinRegExp } from './helpers.js';

const dir = 'test/fixtures/vtctldclient';
const fixture = (name: string) => `${dir}/${name}`;

async function check(files: string[], extra: string[] = []) {
  const r = await runCli(['check', ...files.flatMap((f) => ['--workflows-json', f]), '--format', 'json', ...extra]);
  const report = r.code === 2 ? null : (JSON.parse(r.stdout) as Report);
  return { ...r, report };
}

const verdicts = (report: Report | null) =>
  report?.workflows.map((w) => [`${w.keyspace}.${w.workflow}`, w.type, w.verdict, w.blockedBy]);

describe('--workflows-json: every vtctldclient output with streams', () => {
  const tmp = tempDir();
  after(() => tmp.cleanup());

  test('v22 GetWorkflows --show-all --include-logs: the Stopped stream is judged (lag is the file’s own)', async () => {
    const r = await check([fixture('v22-getworkflows-show-all.json')]);
    assert.equal(r.stderr, '', 'a file with a Stopped stream draws no capture warning');
    assert.equal(r.code, 1);
    assert.deepEqual(verdicts(r.report), [
      ['customer.commerce2customer', 'MoveTables', 'blocked', ['replication-lag']],
    ]);
    const lag = r.report!.findings.find((f) => f.check === 'replication-lag')!;
    assert.deepEqual([lag.shard, lag.details?.reason, lag.details?.lagSeconds], ['80-', 'transactionLag', 600]);
  });

  test('v17 GetWorkflows (enum numbers, no transaction lag field): a healthy Reshard is read', async () => {
    const r = await check([fixture('v17-getworkflows.json')]);
    // Healthy, but the topology checks could not run on a GetWorkflows file: unverified, exit 1.
    assert.equal(r.code, 1, r.stderr);
    assert.equal(r.report!.workflows[0]!.verdict, 'unverified');
    assert.deepEqual(verdicts(r.report)?.[0]?.slice(0, 2), ['customer.cust2cust', 'Reshard']);
    assert.equal(r.report!.streams?.length, 2);
  });

  test('v19 Workflow show: the stream in Error blocks', async () => {
    const r = await check([fixture('v19-workflow-show-error.json')]);
    assert.equal(r.code, 1);
    assert.deepEqual(verdicts(r.report), [['customer.commerce2customer', 'MoveTables', 'blocked', ['stream-error']]]);
  });

  test('v20 MoveTables show while copying: MaxInt64 transaction lag is read, the copy blocks', async () => {
    const r = await check([fixture('v20-movetables-show-copying.json')]);
    assert.equal(r.code, 1, r.stderr);
    assert.deepEqual(verdicts(r.report), [
      ['customer.commerce2customer', 'MoveTables', 'blocked', ['copy-incomplete']],
    ]);
  });

  test('MoveTables/Reshard status (v20, v21): per-shard state and copy progress; needs --workflow', async () => {
    const copying = await check([fixture('v20-movetables-status-copying.json')], ['--workflow', 'commerce2customer']);
    assert.equal(copying.code, 1, copying.stderr);
    // Before v24 the file lists only the tables still copying, without a phase.
    assert.deepEqual(copying.report!.copyProgress?.[0]?.tables, [
      { table: 'customer', rowsCopied: 500, rowsTotal: 1000, percent: 50 },
    ]);
    assert.deepEqual(verdicts(copying.report), [
      ['customer.commerce2customer', 'MoveTables', 'blocked', ['copy-incomplete']],
    ]);
    // Lag and table lists cannot be judged from a status file: skipped with the reason, never passed.
    for (const id of ['replication-lag', 'table-list-mismatch'])
      assert.match(
        copying.report!.checks.find((c) => c.id === id)!.skipReason ?? '',
        /needs .*the streams' filters and timestamps/,
      );
    const error = await check([fixture('v21-reshard-status-error.json')], ['--workflow', 'cust2cust']);
    assert.equal(error.code, 1);
    assert.deepEqual(verdicts(error.report), [['customer.cust2cust', 'Reshard', 'blocked', ['stream-error']]]);
    assert.equal(error.report!.findings[0]!.shard, '80-');
    const unnamed = await check([fixture('v21-reshard-status-error.json')]);
    assert.deepEqual([unnamed.code, unnamed.stdout, unnamed.stderr.replace(/\n$/, '').split('\n').length], [2, '', 1]);
    assert.match(
      unnamed.stderr,
      /is MoveTables\/Reshard status output, which does not name its workflow: give --workflow/,
    );
  });

  test('v24 status, streams shown Running, a table half copied: blocked, the COMPLETE table not named', async () => {
    const r = await check([fixture('v24-movetables-status-running-copy.json')], ['--workflow', 'commerce2customer']);
    assert.equal(r.code, 1, r.stderr);
    assert.deepEqual(verdicts(r.report), [
      ['customer.commerce2customer', 'MoveTables', 'blocked', ['copy-incomplete']],
    ]);
    const copying = r.report!.findings.filter((f) => f.check === 'copy-incomplete');
    assert.ok(copying.length > 0);
    for (const f of copying) {
      // customer is COMPLETE: not in the list.
      assert.match(f.message, /is still copying 2 table\(s\): corder, product$/);
    }
    // The file's own release (v24 added the copy phase), never a claim about primaries that were not read.
    assert.equal(r.report!.vitess?.judgedAgainst, 'v24');
    // Copy progress per table, as the file shows it: in the JSON report, the text verdict and the HTML page.
    assert.deepEqual(r.report!.copyProgress, [
      {
        keyspace: 'customer',
        workflow: 'commerce2customer',
        tables: [
          { table: 'corder', rowsCopied: 1200, rowsTotal: 4800, percent: 25, phase: 'IN_PROGRESS' },
          { table: 'customer', rowsCopied: 1000, rowsTotal: 1000, percent: 100, phase: 'COMPLETE' },
          { table: 'product', rowsCopied: 0, rowsTotal: 300, percent: 0, phase: 'NOT_STARTED' },
        ],
      },
    ]);
    const html = await runCli([
      'check',
      '--workflows-json',
      fixture('v24-movetables-status-running-copy.json'),
      '--workflow',
      'commerce2customer',
      '--format',
      'html',
    ]);
    assert.match(html.stdout, /<section id="copy">/);
    assert.match(
      html.stdout,
      joinRegExp(
        /<td><code>corder<\/code><\/td><td>1,200<\/td><td>4,800<\/td>/,
        /<td><progress max="100" value="25"><\/progress> 25%<\/td>/,
      ),
    );
    const text = await runCli([
      'check',
      '--workflows-json',
      fixture('v24-movetables-status-running-copy.json'),
      '--workflow',
      'commerce2customer',
    ]);
    assert.match(
      text.stdout.replace(/\s+/g, ' '),
      /judged against Vitess v24 \(inferred from what the file shows: the file /,
    );
    assert.doesNotMatch(text.stdout, /primaries read/);
    assert.match(
      text.stdout.replace(/\s+/g, ' '),
      / copy: corder: 1,200 of 4,800 rows \(25%\); customer: copied; product: not started \(0 of 300 rows\) /,
    );
  });

  test('a file that does not show its release: the newest rules, "release unknown", no primary claimed', async () => {
    for (const [name, wf] of [
      ['v21-reshard-status-error.json', 'cust2cust'],
      ['v19-workflow-show-error.json', 'commerce2customer'],
    ] as const) {
      const r = await runCli(['check', '--workflows-json', fixture(name), '--workflow', wf]);
      assert.equal(r.code, 1, r.stderr);
      assert.match(
        r.stdout.replace(/\s+/g, ' '),
        joinRegExp(
          /judged against Vitess v19–v24 \(release unknown: the file does not show the Vitess release that /,
          /printed it; where rules differ, the newest is used\)/,
        ),
        name,
      );
      assert.doesNotMatch(r.stdout, /primaries read/, name);
    }
    const withOptions = await check([fixture('v22-getworkflows-show-all.json')]);
    assert.equal(withOptions.report!.vitess?.judgedAgainst, 'v20–v24');
  });

  test('refused with exit 2 and one line naming what the file looks like', async () => {
    const cases: [string, RegExp][] = [
      ['reject-workflow-list.json', /is `vtctldclient Workflow list` output: workflow names only, no streams/],
      ['reject-gettablets.json', /is `vtctldclient GetTablets --format json` output: tablet records, no streams/],
      ['reject-getkeyspaces.json', /is `vtctldclient GetKeyspaces` output/],
      ['reject-getworkflows-none.json', /is GetWorkflows output without a single workflow: nothing to check/],
      ['reject-empty-object.json', /is an empty object/],
      ['reject-empty-list.json', /is an empty list/],
    ];
    for (const [name, re] of cases) {
      const r = await check([fixture(name)]);
      assert.deepEqual([r.code, r.stdout], [2, ''], name);
      assert.match(r.stderr, new RegExp(`^vtpreflight: --workflows-json ${dir}/${name}: ${re.source}`), name);
      assert.match(r.stderr, /capture it with `vtctldclient GetWorkflows --show-all KEYSPACE`\n$/, name);
      assert.equal(r.stderr.split('\n').length, 2, name);
    }
    const other = await check([tmp.write('other.json', '{"foo": 1, "bar": []}')]);
    assert.equal(other.code, 2);
    assert.match(other.stderr, /is a JSON object with keys foo, bar, none of which vtctldclient prints with streams/);
    const snapshot = await check([tmp.write('snap.json', '{"version": 1, "topology": {}, "sidecars": []}')]);
    assert.match(snapshot.stderr, /is a vtpreflight snapshot: check it with --snapshot/);
  });

  test('a file that looks captured without --show-all draws a warning on stderr', async () => {
    const r = await check([fixture('v21-getworkflows-active-only.json')]);
    assert.match(
      r.stderr,
      joinRegExp(
        /^vtpreflight: warning: .*v21-getworkflows-active-only\.json: workflow commerce2customer /,
        /has no stream on 80-, target shards it was created for: captured without --show-all\?/,
      ),
    );
    const plain = await check([fixture('v19-workflow-show-error.json')]);
    assert.match(
      plain.stderr,
      /no stream in it is Stopped; `vtctldclient GetWorkflows` leaves Stopped and FROZEN streams out/,
    );
    const quiet = await check([fixture('v21-getworkflows-active-only.json')], ['--quiet']);
    assert.equal(quiet.stderr, '');
  });

  test('two files printed an hour apart: each judged as of its own capture, no lag from the gap', async () => {
    const a = JSON.parse(readFileSync(fixture('v17-getworkflows.json'), 'utf8'));
    const b = structuredClone(a);
    const w = b.workflows[0];
    w.name = 'other';
    w.target.keyspace = 'customer2';
    w.source.keyspace = 'customer2';
    for (const s of Object.values(w.shard_streams as Record<string, { streams: Record<string, any>[] }>))
      for (const st of s.streams) {
        st.binlog_source.keyspace = 'customer2';
        st.time_updated.seconds = String(Number(st.time_updated.seconds) + 3600);
        st.transaction_timestamp.seconds = String(Number(st.transaction_timestamp.seconds) + 3600);
      }
    const r = await check([fixture('v17-getworkflows.json'), tmp.write('later.json', JSON.stringify(b))]);
    assert.equal(r.code, 1, r.stdout); // unverified: the topology checks could not run on these files
    assert.deepEqual(
      r.report!.findings.filter((f) => f.check === 'replication-lag'),
      [],
    );
  });

  test('a transaction lag is never taken above the file’s max_v_replication_transaction_lag', async () => {
    const data = JSON.parse(readFileSync(fixture('v22-getworkflows-show-all.json'), 'utf8'));
    // vtctld saw a heartbeat 20 s ago on the stopped stream (the file shows no heartbeat time).
    data.workflows[0].max_v_replication_transaction_lag = '20';
    const r = await check([tmp.write('hb.json', JSON.stringify(data))]);
    const lag = r.report!.findings.find((f) => f.check === 'replication-lag')!;
    // The transaction rule now says 20 s; what remains is the v17–v20 rule (time since the row was updated).
    assert.deepEqual([lag.details?.reason, lag.details?.transactionLagSeconds], ['timeUpdatedLag', 20]);
  });
});
