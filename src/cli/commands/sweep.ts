/**
 * `vtpreflight sweep`: the leftovers of earlier workflows that break later operations, over the whole cluster (issue
 * 17). The same inputs, flags and formats as `check` where they apply; no workflow or action is selected
 * (`--keyspace`, `--workflow`, `--action` and its options are refused as flags, and ignored from the environment or
 * a config file: the engine judges no action in a sweep), `--workflows-json`
 * is refused (it carries no topology), and only the `leftovers` group and `unreachable` run. Exit codes follow the
 * rule for findings (`--fail-on`, default `error`), and any part of the cluster not read is exit 1
 * (docs/usage.md "Sweep for leftovers").
 */
import { Command } from 'commander';
import { CHECKS } from '../../../checks/index.js';
import type { Setting, Settings } from '../../config/settings.js';
import type { Check } from '../../engine/check.js';
import { sweepChecks } from '../../engine/run.js';
import { CollectError, UsageError } from '../../errors.js';
import type { Readout } from '../../readout.js';
import { printable } from '../../text.js';
import { settingsOf, type RunFlags } from '../flags.js';
import type { CliIo } from '../io.js';
import { addAllCheckOptions, runCheck } from './check.js';

/** The checks a sweep runs (src/engine/run.ts `sweepChecks`). */
export const SWEEP_CHECKS: readonly Check[] = sweepChecks(CHECKS);

const NONE: Setting<unknown> = { value: [], source: { kind: 'default' } };

/** Settings that select workflows or an action: refused as flags, ignored from the environment or a config file. */
const SELECTION = [
  'keyspaces',
  'workflows',
  'action',
  'tabletTypes',
  'keepData',
  'renameTables',
  'initializeTargetSequences',
  'targetKeyspace',
  'sourceKeyspace',
  'tables',
  'allTables',
  'excludeTables',
  'sourceShards',
  'targetShards',
] as const;

function sweepSettings(cmd: Command, io: CliIo): Settings {
  const s = settingsOf(cmd, io);
  for (const key of SELECTION) {
    const v = s.values.get(key);
    if (v?.source.kind === 'flag')
      throw new UsageError(
        `sweep reads the whole cluster and judges no action: ${v.source.name} does not apply (use check for that)`,
      );
  }
  if ((cmd.opts() as Record<string, unknown>).workflowsJson !== undefined)
    throw new UsageError('sweep needs the topology, which --workflows-json does not carry: use --vtctld or --snapshot');
  const values = new Map(s.values);
  values.set('keyspaces', NONE);
  values.set('workflows', NONE);
  return { ...s, values };
}

/**
 * A snapshot taken with `--keyspace` read only those keyspaces' primaries: a sweep of it would pass over the others
 * in silence, so it is refused (exit 2). A live read always covers every keyspace (the sweep drops the selection).
 */
function acceptReadout(readout: Readout, snapshot: string | null): void {
  if (readout.target.keyspaces.length === 0) return;
  throw new CollectError(
    `${snapshot !== null ? `snapshot ${printable(snapshot, 200)}` : 'the readout'} covers only keyspace(s) ${printable(readout.target.keyspaces.join(', '), 200)}: a sweep needs the whole cluster (vtpreflight snapshot without --keyspace)`,
  );
}

/** The flags of `check` that sweep refuses (the {@link SELECTION} settings, `--workflows-json`): not in its help. */
export const SWEEP_REFUSED_FLAGS: readonly string[] = [
  '--keyspace',
  '--workflow',
  '--action',
  '--tablet-types',
  '--keep-data',
  '--rename-tables',
  '--target-keyspace',
  '--source-keyspace',
  '--tables',
  '--all-tables',
  '--exclude-tables',
  '--source-shards',
  '--target-shards',
  '--cells',
  '--workflows-json',
];

/** The `sweep` command; `setExit` receives its exit code. */
export function sweepCommand(io: CliIo, setExit: (code: number) => void): Command {
  const cmd = addAllCheckOptions(
    new Command('sweep').description(
      'read the whole cluster (or a snapshot) and report what earlier workflows left behind that breaks later ones',
    ),
  );
  // Still parsed (so that sweep can say why it refuses them), only left out of `sweep --help`.
  for (const o of cmd.options) if (o.long !== undefined && SWEEP_REFUSED_FLAGS.includes(o.long)) o.hideHelp();
  return cmd.action(async (f: RunFlags, cmd: Command) =>
    setExit(await runCheck(f, cmd, io, { settings: sweepSettings, checks: SWEEP_CHECKS, accept: acceptReadout })),
  );
}
