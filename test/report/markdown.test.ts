/** The `markdown` reporter: verdict, tables that stay tables, folding, remediation commands in code blocks. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import renderMarkdown, { remediationCommands } from '../../src/report/markdown.js';
import { finding, hasRawControls, loadReport, makeReport, shardNames } from './helpers.js';
import { joinRegExp } from '../helpers/regexp.js';
import type { Report } from '../../src/engine/report.js';

const opts = { color: false };

/** Cells of a GFM table row: split on `|` not preceded by a backslash. */
const cells = (row: string) => row.replace(/^\||\|$/g, '').split(/(?<!\\)\|/);
const tableRows = (md: string, header: string) => {
  const lines = md.split('\n');
  const start = lines.indexOf(header);
  assert.ok(start >= 0, `no table with header ${header}`);
  const rows: string[] = [];
  for (let i = start + 2; i < lines.length && lines[i]!.startsWith('|'); i++) rows.push(lines[i]!);
  return rows;
};
const FINDINGS_HEADER = '| Severity | Check | Where | Finding |';

describe('markdown reporter', () => {
  it('opens with a verdict line and a per-workflow verdict table', () => {
    const md = renderMarkdown(loadReport('sample'), opts);
    const lines = md.split('\n');
    assert.equal(lines[0], '## vtpreflight: blocked');
    assert.match(
      lines[2]!,
      joinRegExp(
        /^\*\*Blocked\*\*: 1 of 2 workflows cannot switch traffic /,
        /now, 1 unverified\. 17 errors, 1 warning, 0 info · exit 1/,
      ),
    );
    const rows = tableRows(md, '| Workflow | Type | Verdict | Blocked by | Vitess would say |');
    assert.equal(rows.length, 2);
    assert.deepEqual(
      cells(rows[1]!).map((c) => c.trim()),
      [
        'customer.cust2cust',
        'Reshard',
        '**blocked**',
        '`source-not-serving`, `stream-error`, `stream-set-mismatch`',
        'cannot switch traffic for workflow cust2cust at this time: workflow has errors',
      ],
    );
  });

  it('has one findings table per workflow, folded, grouped by check', () => {
    const md = renderMarkdown(loadReport('sample'), opts);
    assert.equal(md.split(FINDINGS_HEADER).length - 1, 2);
    const cust = md.slice(md.indexOf('#### customer.cust2cust (Reshard)'));
    const rows = tableRows(cust, FINDINGS_HEADER);
    assert.deepEqual(
      rows.map((r) => cells(r)[1]!.trim()),
      ['`source-not-serving`', '`stream-error`', '`stream-set-mismatch`'],
    );
    assert.match(cells(rows[0]!)[2]!, /8 shards of customer: -10 … 70-80/);
  });

  it('ends with remediation per failing check, its read-only commands repeated in a sh block', () => {
    const md = renderMarkdown(loadReport('sample'), opts);
    const section = md.slice(md.indexOf('### What to do'));
    assert.ok(section.includes('#### `stream-error`: No stream is in error'));
    // The `start` stays in the prose (it changes the cluster); the block holds what is safe to paste as a whole.
    assert.ok(
      section.includes(
        'To look first (read-only):\n\n```sh\nvtctldclient Workflow --keyspace customer show --workflow cust2cust --include-logs\n```',
      ),
    );
    assert.ok(section.includes('then restart the streams with `vtctldclient Workflow --keyspace customer start'));
    assert.equal(section.includes('position-drift'), false, 'errored checks have no remediation section');
  });

  it('a healthy run is a ready verdict and nothing else', () => {
    const md = renderMarkdown(loadReport('healthy'), opts);
    assert.ok(md.startsWith('## vtpreflight: ready\n\n**Ready**: the workflow can switch traffic.'));
    assert.equal(md.includes('### Findings'), false);
  });

  it('keeps a table a table when messages hold pipes, newlines, markup and control characters', () => {
    const nasty =
      'a | b\nc `code` *bold* _it_ [link](http://x) <script>alert(1)</script> &amp; \\ \u0000\u001b[31m ~~s~~';
    const report = makeReport([
      finding({ message: nasty, shard: '-80' }),
      finding({ message: 'x|y', shard: '80-', check: 'copy-incomplete' }),
    ]);
    const md = renderMarkdown(report, opts);
    assert.equal(hasRawControls(md), false);
    const rows = tableRows(md, FINDINGS_HEADER);
    assert.equal(rows.length, 2);
    for (const row of rows) assert.equal(cells(row).length, 4, row);
    const cell = cells(rows[0]!)[3]!;
    assert.equal(
      cell.trim(),
      'a \\| b<br>c \\`code\\` \\*bold\\* \\_it\\_ \\[link\\](http://x) \\<script\\>alert(1)\\</script\\> \\&amp; \\\\ \\\\x00\\\\x1b\\[31m \\~\\~s\\~\\~',
    );
  });

  it('folds 256 shards into one row', () => {
    const shards = shardNames(256);
    const report = makeReport(
      shards.map((shard) => finding({ shard, message: `stream 1 of wf on customer/${shard} shows as Error` })),
    );
    const rows = tableRows(renderMarkdown(report, opts), FINDINGS_HEADER);
    assert.equal(rows.length, 1);
    assert.match(rows[0]!, /256 shards of customer: -01 … ff-/);
    const verbose = tableRows(renderMarkdown(report, { ...opts, verbose: true }), FINDINGS_HEADER);
    for (const shard of shards) assert.ok(verbose[0]!.includes(shard), shard);
  });
});

describe('remediationCommands', () => {
  it('collects read-only commands of a known CLI, once each', () => {
    assert.deepEqual(
      remediationCommands(
        'Run `vtctldclient GetTablets` then `--flag` and `vtctldclient GetTablets` and `mysql -e "SELECT 1"`.',
      ),
      ['vtctldclient GetTablets'],
    );
  });
  it('leaves out what changes the cluster or still has a placeholder', () => {
    const text =
      "`vtctldclient Workflow --keyspace ks stop --workflow wf` then `start`, `vtctldclient Workflow --keyspace ks delete --workflow wf`, `vtctldclient Reshard --target-keyspace ks --workflow wf SwitchTraffic`, `vtctldclient MoveTables --target-keyspace ks --workflow wf cancel`, `vtctldclient Workflow --keyspace ks update --workflow wf --cells <cells>`, `vtctldclient SetShardTabletControl --denied-tables t --remove ks/-80 primary`, `vtctldclient GetTablets --keyspace ks --shard <shard>`, `vtctldclient GetFullStatus zone1-0000000100`, `vtctldclient Workflow --keyspace ks show --workflow 'my wf'`, `vtctldclient Reshard --workflow wf status`, `vtctldclient Workflow --keyspace ks list`, `vtpreflight check --vtctld x:15999`.";
    assert.deepEqual(remediationCommands(text), [
      'vtctldclient GetFullStatus zone1-0000000100',
      "vtctldclient Workflow --keyspace ks show --workflow 'my wf'",
      'vtctldclient Reshard --workflow wf status',
      'vtctldclient Workflow --keyspace ks list',
      'vtpreflight check --vtctld x:15999',
    ]);
  });
  it('leaves a remediation with its own fenced block alone', () => {
    assert.deepEqual(remediationCommands('Run:\n\n```sh\nvtctldclient GetTablets\n```\nor `vtctldclient X`.'), []);
  });
});

describe('markdown headline: what failed the gate', () => {
  it('names the unverified workflow, not the info finding, under --fail-on error', () => {
    const base = makeReport([finding({ check: 'unreachable', severity: 'info' })]);
    const report = {
      ...base,
      options: { failOn: 'error' } as unknown as NonNullable<typeof base.options>,
      workflows: [{ ...base.workflows[0]!, verdict: 'unverified' as const }],
      summary: { ...base.summary, exitCode: 1 },
    };
    const md = renderMarkdown(report as Report, opts);
    assert.match(md, /1 info · exit 1: 1 workflow unverified: part of what the cutover depends on was not read/);
    assert.doesNotMatch(md, /fails the gate \(--fail-on info\)/);
  });
});
