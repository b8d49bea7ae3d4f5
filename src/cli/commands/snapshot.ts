/** `vtpreflight snapshot`: read the cluster and write the readout to a file, for `check --snapshot` later. */
import { Command } from 'commander';
import { formatDuration } from '../../duration.js';
import { createProgress } from '../progress.js';
import { UsageError } from '../../errors.js';
import { buildModel } from '../../model/build.js';
import { collect } from '../../sources/collect.js';
import { redactReadout } from '../../sources/redact.js';
import { serializeReadout } from '../../sources/snapshot.js';
import { addCommonOptions, type RunFlags, settingsOf } from '../flags.js';
import type { CliIo } from '../io.js';
import { collectOptions } from '../options.js';
import { checkOutputPaths, writeFilesAtomically } from '../write.js';
import { progressMode } from './check.js';

type SnapshotFlags = RunFlags & { output?: string; redact?: boolean };

async function runSnapshot(f: SnapshotFlags, cmd: Command, io: CliIo): Promise<number> {
  if (!f.output) throw new UsageError('missing --output FILE for snapshot');
  const s = settingsOf(cmd, io);
  const copts = collectOptions(s);
  checkOutputPaths([f.output]);
  const progress = createProgress(progressMode(f, io, false), io.stderr);
  const t0 = performance.now();
  const read = await progress.step('Reading the cluster', (onProgress) => collect({ ...copts, onProgress }));
  const readout = f.redact ? redactReadout(read) : read;
  await writeFilesAtomically([{ path: f.output, text: serializeReadout(readout) }]);
  const failures = buildModel(readout).failures.length;
  if (!f.quiet) {
    io.stderr(
      `vtpreflight: wrote ${f.output}${f.redact ? ' redacted' : ''} (${readout.sidecars.length} primaries, ${failures} failed reads) in ${formatDuration(performance.now() - t0)}\n`,
    );
  }
  return 0;
}

/**
 * The `snapshot` command. Its `--output` is the snapshot file, not a report, and `--redact` is about that file:
 * declared here, outside the settings table (no environment variable or config key: redaction is decided per file).
 */
export function snapshotCommand(io: CliIo, setExit: (code: number) => void): Command {
  return addCommonOptions(
    new Command('snapshot')
      .description('read the cluster and write the readout to a file')
      .option('--output <file>', 'snapshot file to write')
      .option(
        '--redact',
        'replace host names, user names and secret-looking values, to attach the file to a public bug report',
      ),
  ).action(async (f: SnapshotFlags, cmd: Command) => setExit(await runSnapshot(f, cmd, io)));
}
