/**
 * Running the CLI from end-to-end tests: in-process through `main(argv, io)` (fast, used for most runs) or as
 * the built binary in a child process (exit codes, stderr and the bin entry point as a user sees them).
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { main } from '../../src/cli.js';
import { cliPath } from '../helpers/paths.js';
import type { Finding } from '../../src/engine/check.js';
import type { Report } from '../../src/engine/report.js';

/** What one CLI run produced. */
export interface CliResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs the CLI in this process with captured output; `env` replaces the environment the CLI sees. */
export async function runCli(argv: readonly string[], env: Record<string, string> = {}): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const code = await main(argv, {
    stdout: (s) => void (stdout += s),
    stderr: (s) => void (stderr += s),
    env: { ...env },
    stdoutIsTTY: false,
    stderrIsTTY: false,
  });
  return { code, stdout, stderr };
}

/**
 * Runs `node <script> ...argv` (default: the built dist/src/cli.js) in a child process. `env` is added to a
 * minimal environment (PATH and HOME only, so no VTPREFLIGHT_* of the developer leaks in).
 */
export function spawnCli(
  argv: readonly string[],
  o: { env?: Record<string, string>; script?: string; timeoutMs?: number } = {},
): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const env: Record<string, string> = {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: process.env.HOME ?? '/tmp',
      ...o.env,
    };
    execFile(
      process.execPath,
      [o.script ?? cliPath, ...argv],
      { env, timeout: o.timeoutMs ?? 60_000, maxBuffer: 64 << 20 },
      (err, stdout, stderr) => {
        if (err && typeof (err as { code?: unknown }).code !== 'number') return reject(err);
        resolve({ code: err ? Number((err as { code: number }).code) : 0, stdout, stderr });
      },
    );
  });
}

/** The JSON report a `check --format json` run printed; fails the test with the run's stderr when there is none. */
export function parseReport(r: CliResult): Record<string, unknown> & ContractReport {
  assert.ok(
    r.stdout.trim().startsWith('{'),
    `expected a JSON report on stdout (exit ${r.code}); stderr:\n${r.stderr}\nstdout:\n${r.stdout.slice(0, 2000)}`,
  );
  return JSON.parse(r.stdout) as Record<string, unknown> & ContractReport;
}

/** The JSON report contract (docs/report-contract.md), as the engine types it. */
export type ContractReport = Report;
export type ContractFinding = Finding;
