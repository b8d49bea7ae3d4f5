/**
 * What a user sees around the report: the exit codes in `--help`, `sweep --help` without the flags sweep refuses, a
 * run whose every report goes to a file ending with where it went and the closing line (not in silence), and the
 * checks left out with `--only` named in one line.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { CHECKS } from '../../checks/index.js';
import { SWEEP_REFUSED_FLAGS } from '../../src/cli/commands/sweep.js';
import { moveTablesScenario } from '../helpers/reshard-scenario.js';
import { runCli, snapshotFile, tempDir } from './helpers.js';

const errored = 'test/fixtures/vtctldclient/v19-workflow-show-error.json';

describe('help', () => {
  test('--help, check --help, sweep --help and snapshot --help end with the exit codes', async () => {
    for (const argv of [['--help'], ['check', '--help'], ['sweep', '--help'], ['snapshot', '--help']]) {
      const r = await runCli(argv);
      assert.equal(r.code, 0, argv.join(' '));
      const text = r.stdout.replace(/\s+/g, ' ');
      assert.match(text, /Exit codes: 0 no finding at or above --fail-on/, argv.join(' '));
      // Off a terminal, help wraps at 100 columns (test/cli/width.test.ts checks an 80-column terminal).
      assert.ok(
        r.stdout.split('\n').every((l) => l.length <= 100),
        'fits 100 columns',
      );
      assert.match(
        text,
        / 1 otherwise: a finding fails the gate, or a workflow could not be verified /,
        argv.join(' '),
      );
      assert.match(text, / 2 vtpreflight could not do its job /, argv.join(' '));
    }
  });

  test('sweep --help lists no flag that sweep refuses; each is still refused by name', async () => {
    const help = (await runCli(['sweep', '--help'])).stdout;
    const check = (await runCli(['check', '--help'])).stdout;
    assert.ok(SWEEP_REFUSED_FLAGS.length > 10);
    for (const flag of SWEEP_REFUSED_FLAGS) {
      const listed = new RegExp(`^ {2}${flag}[ ,<]`, 'm');
      assert.match(check, listed, `check --help lists ${flag}`);
      assert.doesNotMatch(help, listed, `sweep --help lists ${flag}, which sweep refuses`);
    }
    for (const [flag, value] of [
      ['--keyspace', 'customer'],
      ['--action', 'cancel'],
      ['--tables', 'corder'],
    ]) {
      const r = await runCli(['sweep', flag!, value!, '--snapshot', 'none.json']);
      assert.equal(r.code, 2);
      assert.match(r.stderr, new RegExp(`${flag} does not apply`));
    }
  });
});

describe('output', () => {
  test('--output FILE without --format: the report in the file, and where it went with the closing line', async () => {
    const tmp = tempDir();
    try {
      const file = tmp.path('report.txt');
      const r = await runCli(['check', '--workflows-json', errored, '--output', file]);
      assert.equal(r.code, 1, r.stderr);
      assert.equal(r.stdout, '');
      assert.match(readFileSync(file, 'utf8'), /^blocked +customer\.commerce2customer/);
      assert.ok(r.stderr.endsWith(`vtpreflight: wrote ${file} (text); exit 1: 1 error blocks the cutover\n`), r.stderr);
      // With a report on stdout, or --quiet, nothing more is said.
      const json = tmp.path('report.json');
      const both = await runCli([
        'check',
        '--workflows-json',
        errored,
        '--format',
        'json',
        '--output',
        json,
        '--format',
        'text',
      ]);
      assert.equal(both.code, 1, both.stderr);
      assert.doesNotMatch(both.stderr, /wrote/);
      assert.match(both.stdout, /^blocked/);
      const quiet = await runCli(['check', '--workflows-json', errored, '--output', file, '--quiet']);
      assert.equal(quiet.stderr, '');
    } finally {
      tmp.cleanup();
    }
  });

  test('--only: the checks it leaves out are one line in the text report and one entry of the verdict', async () => {
    const r = await runCli(['check', '--workflows-json', errored, '--only', 'stream-error']);
    assert.equal(r.code, 1);
    const lines = r.stdout.split('\n');
    const left = CHECKS.length - 1;
    const at = lines.indexOf(`Checks that did not run (${left})`);
    assert.ok(at > 0, r.stdout);
    assert.equal(lines[at + 1], `  ${left} checks not named in --only`);
    assert.equal(lines[at + 2], '');
    assert.match(r.stdout, new RegExp(`^ +unverified: ${left} checks: not run: not named in --only$`, 'm'));
  });
});

describe('labels', () => {
  test('a Reshard create (--target-shards) is labelled Reshard create, in the verdict and the exit line', async () => {
    const tmp = tempDir();
    try {
      const snap = await snapshotFile(moveTablesScenario().servingGraph(), tmp.path('mt.json'));
      const argv = ['check', '--snapshot', snap, '--action', 'create', '--workflow', 'rs1', '--target-keyspace'];
      const reshard = await runCli([...argv, 'customer', '--source-shards', '-80', '--target-shards', '-40,40-80']);
      assert.match(reshard.stdout, /^\w+ +customer\.rs1 \(Reshard\) — Reshard create$/m);
      assert.match(reshard.stdout, /^exit 1: .* Reshard create$/m);
      assert.doesNotMatch(reshard.stdout, /MoveTables create/);
      const md = await runCli([
        ...argv,
        'customer',
        '--source-shards',
        '-80',
        '--target-shards',
        '-40,40-80',
        '--format',
        'markdown',
      ]);
      assert.doesNotMatch(md.stdout, /MoveTables create/);
      const moveTables = await runCli([...argv, 'customer', '--source-keyspace', 'commerce', '--tables', 'customer']);
      assert.match(moveTables.stdout, /— MoveTables create$/m);
    } finally {
      tmp.cleanup();
    }
  });
});
