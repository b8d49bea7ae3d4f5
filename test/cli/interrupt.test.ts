/**
 * Ctrl-C during the read, on a terminal: the progress display hid the cursor, and the interrupted run must show it
 * again before it dies of the signal (exit 130). Run under a pseudo-terminal (util-linux `script`) against a
 * simulated cluster slow enough that the read is still going when the signal arrives; the signal is sent once the
 * progress display is on the terminal, never after a fixed delay.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { runDemo } from '../../src/cli/commands/demo.js';
import { shQuote } from '../helpers/pty.js';
import { cliPath } from '../helpers/paths.js';
import { tempDir } from './helpers.js';

const HIDE = '\u001b[?25l';
const SHOW = '\u001b[?25h';

test('SIGINT while reading, under a pseudo-terminal: the cursor is shown again, exit 130', async () => {
  let release = () => {};
  const until = new Promise<void>((r) => (release = r));
  let addressed = (_: string) => {};
  const address = new Promise<string>((r) => (addressed = r));
  // Two seconds per round trip: the read takes many, so it is still going when the signal arrives.
  const demo = runDemo({
    scenario: 'movetables',
    shards: 2,
    rtt: 2000,
    serve: { until: () => until },
    io: {
      stdout: (s) => addressed(s.trim()),
      stderr: () => {},
      env: {},
      stdoutIsTTY: false,
      stderrIsTTY: false,
    },
  });
  const tmp = tempDir();
  try {
    const vtctld = await address;
    const pidFile = tmp.path('pid');
    // `exec`: the pid written is the CLI's own.
    const inner = `stty cols 100 rows 50; echo $$ > ${shQuote(pidFile)}; exec ${shQuote(process.execPath)} ${shQuote(cliPath)} check --vtctld ${vtctld} --mysql-user vtpreflight-demo`;
    const child = spawn('script', ['-qefc', inner, '/dev/null'], {
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: tmp.dir, TERM: 'xterm-256color' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let tty = '';
    let signalled = false;
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    child.stdout.on('data', (d: Buffer) => {
      tty += d.toString('latin1');
      if (!signalled && tty.includes(HIDE) && tty.includes('Reading')) {
        signalled = true;
        process.kill(Number(readFileSync(pidFile, 'utf8').trim()), 'SIGINT');
      }
    });
    const code = await exited;
    assert.ok(signalled, `the progress display never hid the cursor:\n${JSON.stringify(tty.slice(-400))}`);
    assert.equal(code, 130, JSON.stringify(tty.slice(-400)));
    assert.ok(
      tty.lastIndexOf(SHOW) > tty.lastIndexOf(HIDE),
      `the cursor is left hidden:\n${JSON.stringify(tty.slice(-200))}`,
    );
  } finally {
    release();
    await demo;
    tmp.cleanup();
  }
});
