/**
 * The progress adapter: the one place that draws progress, on stderr. listr2 on a TTY, plain lines otherwise,
 * nothing with `--quiet` or when a machine format goes to stdout. Checks and collectors never see it; they
 * only call `onProgress` with counts.
 */
import { Listr, ListrLogger, ProcessOutput } from 'listr2';
import type { ProgressEvent } from '../sources/collect.js';
import { formatDuration } from '../duration.js';

export type ProgressMode = 'tty' | 'plain' | 'silent';

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
          renderer: 'default',
          rendererOptions: {
            collapseErrors: true,
            logger: new ListrLogger({ processOutput: new ProcessOutput(process.stderr, process.stderr) }),
          },
          exitOnError: true,
          registerSignalListeners: false,
        },
      );
      await list.run();
      return result as Awaited<ReturnType<typeof fn>>;
    },
    note: (line) => write(`${line}\n`),
  };
}
