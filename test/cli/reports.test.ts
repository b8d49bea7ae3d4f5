/**
 * Report formats on the command line: repeatable `--format`/`--output` pairing, defaults by TTY, every format
 * written by one run, and usage errors for plans that cannot be right.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { DOMParser } from '@xmldom/xmldom';
import { planReports } from '../../src/config/reports.js';
import { cluster } from '../helpers/cluster.js';
import { runCli, snapshotFile, tempDir } from './helpers.js';

const tmp = tempDir('vtpreflight-reports-');
let snap = '';
before(async () => {
  const b = cluster()
    .keyspace('customer', { shards: ['-80', '80-', '-40', '40-80'], notServing: ['-40', '40-80'] })
    .reshard('cust2cust', { keyspace: 'customer', from: ['-80'], to: ['-40', '40-80'] });
  b.patchStream('customer', '40-80', 1, { state: 'Error', message: 'boom error' });
  snap = await snapshotFile(b, tmp.path('snap.json'));
});
after(() => tmp.cleanup());

describe('planReports', () => {
  test('pairs by position; a format without an output goes to stdout', () => {
    assert.deepEqual(planReports(['json', 'junit', 'text'], ['r.json', 'r.xml']), [
      { format: 'json', output: 'r.json' },
      { format: 'junit', output: 'r.xml' },
      { format: 'text', output: null },
    ]);
  });
  test('defaults: text wherever stdout goes; an output alone takes its format from the extension, else text', () => {
    assert.deepEqual(planReports([], []), [{ format: 'text', output: null }]);
    assert.deepEqual(planReports([], ['r.html', 'r.md', 'r.xml', 'r.out', 'r.json']), [
      { format: 'html', output: 'r.html' },
      { format: 'markdown', output: 'r.md' },
      { format: 'junit', output: 'r.xml' },
      { format: 'text', output: 'r.out' },
      { format: 'json', output: 'r.json' },
    ]);
    assert.deepEqual(planReports(['text'], ['-']), [{ format: 'text', output: null }]);
  });
  test('refuses plans that cannot be what was meant', () => {
    assert.throws(
      () => planReports(['text', 'json'], ['r.json']),
      /--output r\.json would receive the text report \(the 1st --format\)/,
    );
    assert.throws(() => planReports(['json', 'text'], []), /json and text would both go to stdout/);
    assert.throws(() => planReports(['json', 'junit'], ['r', 'r']), /--output r is given twice/);
    assert.throws(
      () => planReports(['pdf'], []),
      /invalid --format "pdf": use one of text, json, junit, markdown, html/,
    );
  });
});

describe('check writes every report of one run', () => {
  test('json and junit to files, text to stdout, html too; one run, same verdict in each', async () => {
    const [j, x, h, m] = ['r.json', 'r.xml', 'r.html', 'r.md'].map((n) => tmp.path(n));
    const r = await runCli([
      'check',
      '--snapshot',
      snap,
      '--format',
      'json',
      '--output',
      j!,
      '--format',
      'junit',
      '--output',
      x!,
      '--format',
      'html',
      '--output',
      h!,
      '--format',
      'markdown',
      '--output',
      m!,
      '--format',
      'text',
    ]);
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stdout, /exit 1: /);
    assert.doesNotMatch(r.stdout, /\u001b\[/); // not a TTY: no colour
    const report = JSON.parse(readFileSync(j!, 'utf8')) as Record<string, any>;
    assert.equal(report.summary.exitCode, 1);
    assert.ok(report.streams.length > 0);
    const xml = new DOMParser().parseFromString(readFileSync(x!, 'utf8'), 'text/xml');
    assert.equal(xml.getElementsByTagName('testsuite').length, 1);
    const html = readFileSync(h!, 'utf8');
    assert.ok(html.startsWith('<!doctype html>'));
    assert.match(html, /data-workflow="cust2cust"/);
    assert.doesNotMatch(html, /<(link|img|iframe)\b|src="http|href="http/);
    assert.match(readFileSync(m!, 'utf8'), /\*\*Blocked\*\*/);
  });

  test('default format text wherever stdout goes; colour only on a terminal; NO_COLOR turns it off', async () => {
    const tty = await runCli(['check', '--snapshot', snap], { stdoutIsTTY: true });
    assert.match(tty.stdout, /\u001b\[/);
    const noColor = await runCli(['check', '--snapshot', snap], { stdoutIsTTY: true, env: { NO_COLOR: '1' } });
    assert.doesNotMatch(noColor.stdout, /\u001b\[/);
    assert.match(noColor.stdout, /exit 1/);
    const pipe = await runCli(['check', '--snapshot', snap]);
    assert.equal(pipe.stdout, noColor.stdout); // `| less`, `| tee log`: the same text, never JSON
    assert.equal(pipe.stderr, '');
  });

  test('format and output from the config file, unless flags give any', async () => {
    const cfg = tmp.write('fmt.yaml', `format: [markdown]\noutput: [${tmp.path('cfg.md')}]\n`);
    const r = await runCli(['check', '--snapshot', snap, '--config', cfg]);
    assert.equal(r.stdout, '');
    assert.match(readFileSync(tmp.path('cfg.md'), 'utf8'), /^## vtpreflight: blocked/);
    const flags = await runCli(['check', '--snapshot', snap, '--config', cfg, '--format', 'json']);
    assert.equal(JSON.parse(flags.stdout).version, 1);
  });

  test('bad plans and unwritable outputs are exit 2, one line', async () => {
    const bad = await runCli([
      'check',
      '--snapshot',
      snap,
      '--format',
      'text',
      '--format',
      'json',
      '--output',
      tmp.path('x.json'),
    ]);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /^vtpreflight: --output .*x\.json would receive the text report/);
    const dir = await runCli(['check', '--snapshot', snap, '--output', tmp.path('no/such/dir/r.json')]);
    assert.equal(dir.code, 2);
    assert.match(dir.stderr, /^vtpreflight: cannot write --output .*r\.json: ENOENT/);
    assert.equal(dir.stderr.split('\n').filter(Boolean).length, 1);
  });
});
