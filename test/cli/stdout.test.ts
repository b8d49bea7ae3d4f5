/**
 * stdout carries the report and nothing else (docs/report-contract.md), always: here under a real pseudo-terminal,
 * where stderr is a terminal (so progress is drawn) and stdout is a file or a pipe. Before the fix, listr2 chose its
 * renderer by stdout's terminal and, finding none, wrote every progress line into the report.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { startSimCluster, type RunningSimCluster } from '../../src/sim/cluster.js';
import { generateScenario } from '../../src/sim/scenario.js';
import { cliPath } from '../helpers/paths.js';
import { runInPty, shQuote } from '../helpers/pty.js';
import { tempDir } from './helpers.js';

const node = shQuote(process.execPath);
const cli = shQuote(cliPath);

describe('stdout purity under a terminal', () => {
  const tmp = tempDir('vtpreflight-stdout-');
  let cluster: RunningSimCluster;
  before(async () => {
    cluster = await startSimCluster(generateScenario('reshard', { now: Date.now(), seed: 1, shards: 8 }), {
      rttMs: 1,
    });
  });
  after(async () => {
    await cluster.stop();
    tmp.cleanup();
  });
  const check = (format: string) =>
    `${node} ${cli} check --vtctld ${cluster.vtctld} --mysql-user vtpreflight --format ${format}`;

  test('check --format json > file: the file is the JSON report; the progress was drawn on the terminal', async () => {
    const out = tmp.path('report.json');
    const r = await runInPty(`${check('json')} > ${shQuote(out)}`);
    assert.match(r.tty, /Reading the cluster/);
    const text = readFileSync(out, 'utf8');
    assert.equal(text.slice(0, 1), '{', text.slice(0, 300));
    assert.equal(JSON.parse(text).version, 1);
    assert.doesNotMatch(text, /Reading|\u001b/);
  });

  test('check --format json | cat > file: the same through a pipe', async () => {
    const out = tmp.path('piped.json');
    const r = await runInPty(`${check('json')} | cat > ${shQuote(out)}`);
    assert.match(r.tty, /Reading the cluster/);
    assert.equal(JSON.parse(readFileSync(out, 'utf8')).version, 1);
  });

  test('check --format text > file: the text report, no progress line, no escape sequence', async () => {
    const out = tmp.path('report.txt');
    const r = await runInPty(`${check('text')} > ${shQuote(out)}`);
    assert.match(r.tty, /Reading the cluster/);
    const text = readFileSync(out, 'utf8');
    assert.doesNotMatch(text, /Reading|\u001b|›/);
    assert.match(text.split('\n')[0]!, /cust2cust/);
  });

  test('no --format, stdout a pipe (`| tee log`): the text report, as on the terminal', async () => {
    const out = tmp.path('tee.txt');
    const r = await runInPty(
      `${node} ${cli} check --vtctld ${cluster.vtctld} --mysql-user vtpreflight | cat > ${shQuote(out)}`,
    );
    const text = readFileSync(out, 'utf8');
    assert.match(text.split('\n')[0]!, /cust2cust/, r.tty);
    assert.doesNotMatch(text, /^\{/);
  });

  test('demo --format json > file: the JSON report; the demo’s own lines stay on the terminal', async () => {
    const out = tmp.path('demo.json');
    const r = await runInPty(`${node} ${cli} demo --shards 4 --format json > ${shQuote(out)}`);
    assert.equal(r.code, 0, r.tty);
    assert.match(r.tty, /vtpreflight demo: simulating/);
    assert.equal(JSON.parse(readFileSync(out, 'utf8')).version, 1);
  });
});
