/**
 * The progress adapter: the one place that draws progress, on stderr. listr2 on a TTY, plain lines otherwise,
 * nothing with `--quiet` or when a machine format goes to stdout. Checks and collectors never see it; they
 * only call `onProgress` with counts.
 */
import { writeSync } from 'node:fs';
import { DefaultRenderer, Listr, ListrLogger, ProcessOutput } from 'listr2';
import type { ProgressEvent } from '../sources/collect.js';
import { formatDuration } from '../duration.js';

export type ProgressMode = 'tty' | 'plain' | 'silent';

/**
 * listr2's default renderer, drawing on stderr whatever stdout is. listr2 chooses its renderer by
 * `process.stdout.isTTY` (listr2 `isRendererSupported`) and otherwise falls back to its line renderer writing to
 * stdout, which put 2,230 progress lines in front of a redirected JSON report. Progress is drawn here only when
 * stderr is a terminal, so the renderer is declared usable without a stdout terminal.
 */
class StderrRenderer extends DefaultRenderer {
  static override nonTTY = true;
}

const SHOW_CURSOR = '\u001b[?25h';

/**
 * While listr2 draws, the cursor is hidden; Ctrl-C would leave the user's terminal without one. Show it again, then
 * let the signal do what it would have done (the default action: exit 130). The escape is written to the file
 * descriptor at once: a `process.stderr.write` queued behind the renderer's output is lost when the signal ends the
 * process.
 */
function showCursorOnInterrupt(): () => void {
  const onSignal = (signal: NodeJS.Signals) => {
    try {
      writeSync(process.stderr.fd, SHOW_CURSOR);
    } catch {
      // stderr closed: no terminal to restore.
    }
    process.kill(process.pid, signal);
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  return () => {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  };
}

const PHASE_TITLE: Record<ProgressEvent['phase'], string> = {
  topology: 'Reading topology from vtctld',
  shards: 'Reading shard records and vschemas',
  sidecars: 'Reading _vt.vreplication on primaries',
  status: 'Reading tablet status (GetFullStatus)',
};

export interface Progress {
  /** Runs `fn` as one step titled `title`; `fn` receives the progress callback for its counts. */
  step<T>(title: string, fn: (onProgress: (e: ProgressEvent) => void) => Promise<T>): Promise<T>;
  /** A free-form status line (e.g. the wait loop's open findings). */
  note(line: string): void;
}

/** Creates the adapter for a mode. `write` is stderr in the CLI. */
export function createProgress(
  mode: ProgressMode,
  write: (s: string) => void = (s) => process.stderr.write(s),
): Progress {
  if (mode === 'silent') {
    return { step: (_t, fn) => fn(() => {}), note: () => {} };
  }
  if (mode === 'plain') {
    return {
      async step(title, fn) {
        const t0 = performance.now();
        const seen = new Set<string>();
        const result = await fn((e) => {
          if (e.done === e.total && !seen.has(e.phase)) {
            seen.add(e.phase);
            write(`vtpreflight: ${PHASE_TITLE[e.phase]}: ${e.total} done\n`);
          }
        });
        write(`vtpreflight: ${title} took ${formatDuration(performance.now() - t0)}\n`);
        return result;
      },
      note: (line) => write(`vtpreflight: ${line}\n`),
    };
  }
  return {
    async step(title, fn) {
      let result: Awaited<ReturnType<typeof fn>> | undefined;
      const list = new Listr(
        [
          {
            title,
            task: async (_ctx, task) => {
              const t0 = performance.now();
              result = await fn((e) => {
                task.output = `${PHASE_TITLE[e.phase]}: ${e.done}/${e.total}`;
              });
              task.title = `${title} (${formatDuration(performance.now() - t0)})`;
            },
            rendererOptions: { persistentOutput: false },
          },
        ],
        {
          renderer: StderrRenderer,
          fallbackRenderer: 'silent',
          rendererOptions: {
            collapseErrors: true,
            logger: new ListrLogger({ processOutput: new ProcessOutput(process.stderr, process.stderr) }),
          },
          exitOnError: true,
          registerSignalListeners: false,
        },
      );
      const release = showCursorOnInterrupt();
      try {
        await list.run();
      } finally {
        release();
      }
      return result as Awaited<ReturnType<typeof fn>>;
    },
    note: (line) => write(`${line}\n`),
  };
}
