/**
 * Runs a shell command under a pseudo-terminal (util-linux `script -qefc`), so the program sees a real terminal on
 * stdin, stdout and stderr unless the command redirects them. Used to test what lands on stdout when stderr is a
 * terminal and stdout a file or a pipe, and how the text report fits a terminal's width (`stty cols N`).
 */
import { execFile } from 'node:child_process';

/** What a run under the pseudo-terminal produced. */
export interface PtyRun {
  /** The command's exit code (`script -e` passes it through). */
  readonly code: number;
  /** Everything written to the terminal (stderr, and stdout when not redirected), with `\r\n` line ends. */
  readonly tty: string;
}

/** Single-quotes `s` for /bin/sh. */
export const shQuote = (s: string): string => `'${s.replaceAll("'", "'\\''")}'`;

/**
 * Runs `command` (a /bin/sh command line) on a pseudo-terminal of `columns` columns, with a minimal environment
 * (PATH, HOME, TERM plus `env`), killed after `timeoutMs`.
 */
export function runInPty(
  command: string,
  o: { columns?: number; env?: Record<string, string>; timeoutMs?: number } = {},
): Promise<PtyRun> {
  const cols = o.columns ?? 100;
  return new Promise((resolve, reject) => {
    execFile(
      'script',
      ['-qefc', `stty cols ${cols} rows 50; ${command}`, '/dev/null'],
      {
        env: {
          PATH: process.env.PATH ?? '/usr/bin:/bin',
          HOME: process.env.HOME ?? '/tmp',
          TERM: 'xterm-256color',
          ...o.env,
        },
        timeout: o.timeoutMs ?? 60_000,
        maxBuffer: 64 << 20,
      },
      (err, stdout) => {
        if (err && typeof (err as { code?: unknown }).code !== 'number') return reject(err);
        resolve({ code: err ? Number((err as { code: number }).code) : 0, tty: stdout });
      },
    );
  });
}
