/**
 * The CLI's only view of the process: where it writes and what it knows about its terminal. Injected, so tests run
 * the whole program in-process with captured output.
 */

/** Where the CLI writes; injectable so tests can run the program in-process. */
export interface CliIo {
  stdout: (s: string) => void;
  stderr: (s: string) => void;
  env: NodeJS.ProcessEnv;
  stdoutIsTTY: boolean;
  stderrIsTTY: boolean;
  /** The `--wait` loop's pause (default: a timer); tests pass their own to change the cluster between runs. */
  sleep?: (ms: number) => Promise<void>;
  /** Wall clock for `--wait` (default `Date.now`). */
  now?: () => number;
}

/** The real process: stdout, stderr, the environment and their terminals. */
export const defaultIo = (): CliIo => ({
  stdout: (s) => process.stdout.write(s),
  stderr: (s) => process.stderr.write(s),
  env: process.env,
  stdoutIsTTY: process.stdout.isTTY === true,
  stderrIsTTY: process.stderr.isTTY === true,
});
