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
  /** The terminal's width when stdout is one (the text report wraps to it; 100 columns otherwise). */
  stdoutColumns?: number;
  /** The `--wait` loop's pause (default: a timer); tests pass their own to change the cluster between runs. */
  sleep?: (ms: number) => Promise<void>;
  /** Wall clock for `--wait` (default `Date.now`). */
  now?: () => number;
  /**
   * Resolves once everything written to stdout is flushed, with the first error writing it (null when none): the
   * program ends with one line and exit 2 on a write error (a full disk), and quietly on EPIPE (`| head`).
   */
  finishStdout?: () => Promise<NodeJS.ErrnoException | null>;
  /**
   * Calls `handler` on the first SIGINT or SIGTERM until the returned function is called (default: the process's
   * signals). `--wait` uses it to write the last complete run's report before exiting 130 or 143.
   */
  onStopSignal?: (handler: (signal: 'SIGINT' | 'SIGTERM') => void) => () => void;
}

/** {@link CliIo.onStopSignal} on the real process. */
export function processStopSignal(handler: (signal: 'SIGINT' | 'SIGTERM') => void): () => void {
  const onInt = () => handler('SIGINT');
  const onTerm = () => handler('SIGTERM');
  // `on`, not `once`: the progress adapter re-raises the signal it saw (to restore the cursor), and that second
  // delivery must find a listener too until the report is written.
  process.on('SIGINT', onInt);
  process.on('SIGTERM', onTerm);
  return () => {
    process.off('SIGINT', onInt);
    process.off('SIGTERM', onTerm);
  };
}

/** The exit code of a program ended by a signal: 128 + its number (SIGINT 130, SIGTERM 143). */
export const SIGNAL_EXIT = { SIGINT: 130, SIGTERM: 143 } as const;

/**
 * The real process: stdout, stderr, the environment and their terminals. A failed write to stdout (ENOSPC on a full
 * disk, EPIPE when the reader went away) is caught, never thrown as an unhandled 'error' event; later writes are
 * dropped and {@link CliIo.finishStdout} reports it.
 */
export const defaultIo = (): CliIo => {
  let failure: NodeJS.ErrnoException | null = null;
  const out = process.stdout;
  out.on('error', (e: NodeJS.ErrnoException) => {
    failure ??= e;
  });
  return {
    stdout: (s) => {
      if (failure !== null) return;
      try {
        out.write(s, (e) => {
          if (e) failure ??= e as NodeJS.ErrnoException;
        });
      } catch (e) {
        failure ??= e as NodeJS.ErrnoException;
      }
    },
    stderr: (s) => process.stderr.write(s),
    env: process.env,
    stdoutIsTTY: out.isTTY === true,
    stderrIsTTY: process.stderr.isTTY === true,
    ...(out.isTTY === true && out.columns > 0 ? { stdoutColumns: out.columns } : {}),
    finishStdout: () =>
      new Promise((resolve) => {
        if (failure !== null || out.destroyed) return resolve(failure);
        out.write('', () => resolve(failure));
      }),
  };
};
