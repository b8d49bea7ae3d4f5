/** The `text` reporter: layout, folding at 256 shards, colour, terminal safety, exit-code wording. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import renderText, { exitLine, wrapWords } from '../../src/report/text.js';
import type { Report } from '../../src/engine/report.js';
import { deepFreeze, finding, hasRawControls, loadReport, makeReport, shardNames } from './helpers.js';
import { joinRegExp } from '../helpers/regexp.js';

const plain = { color: false, width: 100 };
const linesOf = (s: string) => s.replace(/\n$/, '').split('\n');

describe('text reporter', () => {
  it('opens with the workflow verdicts, quoting Vitess', () => {
    const lines = linesOf(renderText(loadReport('sample'), plain));
    assert.match(lines[0]!, /^unverified +customer\.commerce2customer \(MoveTables\)$/);
    assert.match(lines[1]!.trim(), /^warnings from: replication-lag$/);
    assert.match(lines[2]!.trim(), /^unverified: position-drift: the check failed: /);
    const b = lines.findIndex((l) => l.startsWith('blocked'));
    assert.match(lines[b]!, /^blocked +customer\.cust2cust \(Reshard\)$/);
    // Wrapped at the width at a word boundary, the continuation indented under the quote.
    assert.equal(
      `${lines[b + 1]!.trim()} ${lines[b + 2]!.trim()}`,
      'Vitess would say: "cannot switch traffic for workflow cust2cust at this time: workflow has errors"',
    );
  });

  it('groups findings by severity, then workflow, then check, and shows each remediation once', () => {
    const out = renderText(loadReport('sample'), plain);
    const at = (s: string) => out.indexOf(s);
    assert.ok(at('Errors (17)') < at('Warnings (1)'));
    assert.ok(
      at('Errors (17)') < at('\n  customer.cust2cust (Reshard)\n') &&
        at('\n  customer.cust2cust (Reshard)\n') < at('Warnings (1)'),
    );
    assert.ok(
      at('    source-not-serving') < at('    stream-error') && at('    stream-error') < at('    stream-set-mismatch'),
    );
    // One entry per finding by default (message and where, wrapped), the fix only under --verbose, once per check.
    assert.equal(out.includes('fix: '), false);
    assert.match(out, /^--verbose: what to do about each check/m);
    const verbose = renderText(loadReport('sample'), { ...plain, verbose: true });
    assert.equal(verbose.split('fix: Find the source tablet').length, 2);
    // A folded message names what it folds, never a template placeholder; it wraps at a word boundary.
    assert.match(
      out,
      joinRegExp(
        /^ {6}stream 1 of cust2cust on customer\/\(8 shards\) cannot stream from customer\/-80: tablet\n/m,
        / {8}zone1-0000000100 answers "VStreamer is not open" · 8 shards of customer: -10 … 70-80$/,
      ),
    );
    assert.doesNotMatch(out, /\{shard\}|\{tablet\}|\{id\}/);
    assert.match(verbose, /^ {8}8 shards of customer: -10, 10-20, 20-30/m);
  });

  it('shows a multi-line Vitess text on its own lines, never as a \\n escape', () => {
    const base = loadReport('sample');
    const said =
      'cannot switch traffic for workflow cust2cust at this time: could not refresh all of the tablets involved in the operation:\nzone1-0000000100: timeout\nzone1-0000000101: timeout';
    const report = { ...base, workflows: base.workflows.map((w) => ({ ...w, vitessWouldSay: said })) };
    const out = renderText(report, plain);
    assert.equal(out.includes('\\n'), false);
    assert.match(out, /involved in the operation:\n {11}zone1-0000000100: timeout\n {11}zone1-0000000101: timeout"\n/);
  });

  it('lists the checks that errored or were skipped, and ends with counts and the exit code meaning', () => {
    const lines = linesOf(renderText(loadReport('sample'), plain));
    assert.ok(lines.includes('Checks that did not run (2)'));
    assert.ok(lines.some((l) => /^ {2}position-drift +errored: cannot compare positions/.test(l)));
    // A check left out with --skip is named on the one --skip line, not on a line of its own.
    assert.ok(lines.includes('  excluded with --skip: binlogs-purged'));
    const run = lines.findIndex((l) => l.startsWith('18 checks: '));
    assert.match(
      lines.slice(run, -1).join(' ').replace(/ +/g, ' '),
      joinRegExp(
        /^18 checks: 12 passed, 4 failed, 1 errored, 1 skipped · customer on /,
        /vtctld\.prod\.example:15999 · 2026-11-30T16:00:00\.000Z · 1\.8s$/,
      ),
    );
    assert.equal(
      lines.at(-1),
      'exit 1: 17 errors block the cutover (also 1 warning); 1 check errored, so the result is incomplete',
    );
  });

  it('prints a short ready verdict for a healthy run', () => {
    const lines = linesOf(renderText(loadReport('healthy'), plain));
    assert.ok(lines.length <= 4, lines.join('\n'));
    assert.match(lines[0]!, /^ready +customer\.cust2cust \(Reshard\)$/);
    assert.equal(lines.at(-1), 'exit 0: ready, nothing blocks the cutover');
  });

  it('folds one problem on 256 shards into a handful of lines that account for every shard', () => {
    const shards = shardNames(256);
    const findings = shards.map((shard, i) =>
      finding({
        shard,
        tablet: `zone1-${String(1000 + i).padStart(10, '0')}`,
        message: `stream 1 of wf on customer/${shard} shows as Error: VStreamer is not open`,
      }),
    );
    const report = makeReport(findings);
    const out = renderText(report, plain);
    const lines = linesOf(out);
    assert.ok(lines.length <= 14, `${lines.length} lines:\n${out}`);
    assert.ok(
      lines.includes(
        '      stream 1 of wf on customer/(256 shards) shows as Error: VStreamer is not open · 256 shards of',
      ),
      out,
    );
    assert.ok(lines.includes('        customer: -01 … ff- · 256 tablets'), out);
    // verbose names every shard and tablet, still wrapped into few lines
    const verbose = renderText(report, { ...plain, verbose: true });
    for (const shard of shards)
      assert.ok(new RegExp(`(^|[ ,])${shard.replace(/-/g, '\\-')}(,|$| )`, 'm').test(verbose), shard);
    for (const f of findings) assert.ok(verbose.includes(f.tablet!), f.tablet);
    assert.ok(linesOf(verbose).length <= 100, `${linesOf(verbose).length} verbose lines`);
    assert.ok(
      linesOf(verbose).every((l) => l.length <= 100),
      'wrapped at width',
    );
  });

  it('names every shard of a non-contiguous set within a few wrapped lines', () => {
    const shards = shardNames(256).filter((_, i) => i % 2 === 0);
    const report = makeReport(
      shards.map((shard) => finding({ shard, message: `stream 1 of wf on customer/${shard} shows as Error` })),
    );
    const out = renderText(report, { color: false, width: 120 });
    for (const shard of shards) assert.ok(out.includes(` ${shard},`) || out.includes(` ${shard}\n`), shard);
    assert.ok(linesOf(out).length <= 25, `${linesOf(out).length} lines`);
  });

  it('writes no ANSI escape with colour off, even when a message carries one', () => {
    const report = makeReport([finding({ message: 'evil \u001b[2J\u001b]0;title\u0007 msg\nsecond line\u009b31m' })]);
    const out = renderText(report, plain);
    assert.equal(hasRawControls(out), false);
    assert.ok(out.includes('evil \\x1b[2J\\x1b]0;title\\x07 msg\\nsecond line\\x9b31m'));
    assert.equal(hasRawControls(renderText(loadReport('sample'), plain)), false);
  });

  it('colours with colour on, and only with SGR codes', () => {
    const out = renderText(loadReport('sample'), { color: true, width: 100 });
    assert.ok(out.includes('\u001b[31m'));
    for (const m of out.matchAll(/\u001b(.)/g)) assert.equal(m[1], '[');
    assert.ok([...out.matchAll(/\u001b\[([0-9;]*)([A-Za-z])/g)].every((m) => m[2] === 'm'));
    assert.equal(out.replace(/\u001b\[[0-9;]*m/g, ''), renderText(loadReport('sample'), plain));
  });

  it('is pure: same output twice, input untouched', () => {
    const report = deepFreeze(loadReport('sample'));
    assert.equal(renderText(report, plain), renderText(report, plain));
  });
});

describe('exitLine', () => {
  const base = makeReport([]);
  const withSummary = (summary: Report['summary'], over: Partial<Report> = {}) => ({ ...base, summary, ...over });
  it('explains each exit code', () => {
    assert.equal(
      exitLine(withSummary({ error: 1, warning: 0, info: 0, exitCode: 1 })),
      'exit 1: 1 error blocks the cutover',
    );
    assert.equal(
      exitLine(withSummary({ error: 3, warning: 2, info: 1, exitCode: 1 })),
      'exit 1: 3 errors block the cutover (also 2 warnings, 1 info finding)',
    );
    assert.equal(
      exitLine(withSummary({ error: 0, warning: 2, info: 0, exitCode: 1 })),
      'exit 1: 2 warnings fail the gate (--fail-on warning)',
    );
    assert.equal(
      exitLine(withSummary({ error: 0, warning: 1, info: 0, exitCode: 0 })),
      'exit 0: nothing blocks the cutover; 1 warning to review',
    );
    assert.equal(
      exitLine(withSummary({ error: 2, warning: 0, info: 0, exitCode: 0 })),
      'exit 0: no finding at or above --fail-on, but 2 errors would block the cutover',
    );
    assert.equal(
      exitLine(withSummary({ error: 0, warning: 0, info: 0, exitCode: 0 })),
      'exit 0: ready, nothing blocks the cutover',
    );
    assert.equal(
      exitLine(withSummary({ error: 0, warning: 0, info: 0, exitCode: 2 })),
      'exit 2: vtpreflight could not do its job',
    );
  });
  it('names what failed the gate in force, not a severity the gate does not include', () => {
    const options = (failOn: 'error' | 'warning' | 'info') =>
      ({
        failOn,
        maxLagSeconds: 30,
        maxLag: '30s',
        only: [],
        skip: [],
        severities: {},
      }) as unknown as Report['options'];
    const unverifiedWf = { ...base.workflows[0]!, verdict: 'unverified' as const };
    // An unverified workflow with one info finding under the default --fail-on error: the unverified part failed.
    assert.equal(
      exitLine(
        withSummary(
          { error: 0, warning: 0, info: 1, exitCode: 1 },
          { options: options('error'), workflows: [unverifiedWf] },
        ),
      ),
      'exit 1: 1 workflow unverified: part of what the cutover depends on was not read or not checked (also 1 info finding)',
    );
    assert.equal(
      exitLine(
        withSummary(
          { error: 0, warning: 2, info: 0, exitCode: 1 },
          { options: options('error'), workflows: [unverifiedWf] },
        ),
      ),
      'exit 1: 1 workflow unverified: part of what the cutover depends on was not read or not checked (also 2 warnings)',
    );
    // Warnings under --fail-on info fail the gate named as given.
    assert.equal(
      exitLine(withSummary({ error: 0, warning: 2, info: 1, exitCode: 1 }, { options: options('info') })),
      'exit 1: 2 warnings fail the gate (--fail-on info) (also 1 info finding)',
    );
    assert.equal(
      exitLine(withSummary({ error: 0, warning: 0, info: 1, exitCode: 1 }, { options: options('info') })),
      'exit 1: 1 info finding fails the gate (--fail-on info)',
    );
    // Only a check that errored failed the gate.
    const checks = [{ id: 'position-drift', status: 'error' as const, findings: 0, durationMs: 0, error: 'boom' }];
    assert.equal(
      exitLine(withSummary({ error: 0, warning: 1, info: 0, exitCode: 1 }, { options: options('error'), checks })),
      'exit 1: 1 check errored, so the result is incomplete (also 1 warning)',
    );
  });
  it('says when the result is incomplete because a check errored', () => {
    const checks = [{ id: 'position-drift', status: 'error' as const, findings: 0, durationMs: 0, error: 'boom' }];
    assert.equal(
      exitLine(withSummary({ error: 0, warning: 0, info: 0, exitCode: 0 }, { checks })),
      'exit 0: no findings; 1 check errored, so the result is incomplete',
    );
  });
});

describe('wrapWords', () => {
  it('wraps at the width with a hanging indent, never splitting a word', () => {
    assert.deepEqual(wrapWords(['aaa', 'bbb', 'ccc', 'ddd'], 10, '> ', '  '), ['> aaa bbb', '  ccc ddd']);
    assert.deepEqual(wrapWords(['a-very-long-word'], 5, '', ''), ['a-very-long-word']);
  });
});
