/**
 * The text report at a real terminal (a pseudo-terminal of 80 and 120 columns): every line fits the width, so the
 * terminal never breaks a word; the report follows the width it is given (wider lines at 120); folded findings never
 * show template text. `--help` fits too. Off a terminal the width is fixed (100).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startSimCluster, type RunningSimCluster } from '../../src/sim/cluster.js';
import { generateScenario } from '../../src/sim/scenario.js';
import { cliPath } from '../helpers/paths.js';
import { runInPty, shQuote } from '../helpers/pty.js';
import { runCli } from './helpers.js';

const visible = (s: string) => s.replace(/\u001b\[[0-9;?]*[A-Za-z]/g, '').replace(/\r/g, '');
const widest = (text: string) => Math.max(...text.split('\n').map((l) => [...visible(l)].length));

describe('text report width', () => {
  let cluster: RunningSimCluster;
  before(async () => {
    // The default demo scenario: long messages (positions, Vitess errors) folded over many shards.
    cluster = await startSimCluster(generateScenario('reshard-faults', { now: Date.now(), seed: 1, shards: 16 }), {
      rttMs: 1,
    });
  });
  after(() => cluster.stop());

  const command = `${shQuote(process.execPath)} ${shQuote(cliPath)} check --vtctld `;
  const run = (columns: number) =>
    runInPty(`${command}${cluster.vtctld} --mysql-user vtpreflight 2>/dev/null`, { columns, env: { NO_COLOR: '1' } });

  for (const columns of [80, 120]) {
    test(`at ${columns} columns every line fits, no template text`, async () => {
      const r = await run(columns);
      assert.equal(r.code, 1, r.tty);
      assert.match(r.tty, /^blocked /);
      assert.ok(widest(r.tty) <= columns, `widest line ${widest(r.tty)} > ${columns}:\n${r.tty}`);
      assert.doesNotMatch(r.tty, /\{shard\}|\{tablet\}|\{id\}/);
      if (columns === 120) assert.ok(widest(r.tty) > 100, 'the report uses the terminal’s width');
    });
  }

  test('off a terminal: the fixed width, 100 columns', async () => {
    const r = await runCli(['check', '--vtctld', cluster.vtctld, '--mysql-user', 'vtpreflight', '--quiet']);
    assert.equal(r.code, 1);
    assert.ok(widest(r.stdout) <= 100, `widest ${widest(r.stdout)}`);
  });

  test('check --help fits 100 columns off a terminal and 80 on an 80-column terminal', async () => {
    const r = await runCli(['check', '--help']);
    assert.equal(r.code, 0);
    assert.ok(widest(r.stdout) <= 100, r.stdout);
    const tty = await runInPty(`${shQuote(process.execPath)} ${shQuote(cliPath)} check --help`, { columns: 80 });
    assert.ok(widest(tty.tty) <= 80, tty.tty);
  });

  test('an unknown flag of a subcommand: exit 2, its line on the CLI’s stderr', async () => {
    const r = await runCli(['check', '--fail-onn', 'error']);
    assert.deepEqual([r.code, r.stdout], [2, '']);
    assert.match(r.stderr, /^error: unknown option '--fail-onn'\n\(Did you mean --fail-on\?\)\n$/);
  });
});
