/**
 * The vtpreflight command line (docs/usage.md): the commands, each in `commands/`, on one commander
 * program. Thin: every flag, environment variable and config value is resolved before any I/O (`src/config`;
 * usage errors exit 2), then collect → runChecks (→ again, with `--wait`) → render each report → write → exit code.
 */
import { startHeapGovernor } from './memory.js';
import type { Command } from 'commander';
import { CHECKS, findCheck } from '../../checks/index.js';
import { renderCheckHelp, renderCheckList } from '../catalog.js';
import { renderConfig } from '../config/print.js';
import { UsageError } from '../errors.js';
import { addAllCheckOptions, checkCommand } from './commands/check.js';
import type { DemoFlags } from './commands/demo.js';
import { grantsCommand } from './commands/grants.js';
import { snapshotCommand } from './commands/snapshot.js';
import { sweepCommand } from './commands/sweep.js';
import { type RunFlags, settingsOf } from './flags.js';
import { type CliIo, defaultIo } from './io.js';
import { adoptCommands, newProgram, runProgram } from './run.js';
import { didYouMean } from './suggest.js';
import { describeWriteError } from './write.js';
import { redactSecrets } from '../secrets.js';

/** Builds the commander program without running it (the compose test parses service commands with it). */
export function buildProgram(io: CliIo = defaultIo(), setExit: (code: number) => void = () => {}): Command {
  const program = newProgram(io);
  program.addCommand(checkCommand(io, setExit));
  program.addCommand(sweepCommand(io, setExit));
  program.addCommand(snapshotCommand(io, setExit));
  program.addCommand(grantsCommand(io, setExit));

  program
    .command('checks [id]')
    .description('list the checks, or explain one')
    .action((id: string | undefined) => {
      if (id === undefined) {
        io.stdout(renderCheckList(CHECKS));
      } else {
        const check = findCheck(id);
        if (!check)
          throw new UsageError(
            `unknown check id "${id}": ${didYouMean(
              id,
              CHECKS.map((c) => c.id),
              'run "vtpreflight checks" for the list',
            )}`,
          );
        io.stdout(renderCheckHelp(check));
      }
      setExit(0);
    });

  const config = program.command('config').description('show the effective configuration');
  addAllCheckOptions(
    config
      .command('print')
      .description('print the effective config (flags > environment > config file > defaults), secrets masked'),
  ).action((_f: RunFlags, cmd: Command) => {
    io.stdout(renderConfig(settingsOf(cmd, io)));
    setExit(0);
  });

  // `demo` lives in commands/demo.ts, loaded on demand so that `check` never loads the simulator.
  program
    .command('demo')
    .description('run `check` against a built-in simulated cluster: no database, Docker or network needed')
    .option('--scenario <name>', 'scenario to simulate (see --list)')
    .option('--shards <n>', 'shard count of the main keyspace')
    .option('--list', 'list the scenarios')
    .option('--rtt <duration>', 'simulated round-trip time per call (default 2ms)')
    .option('--jitter <duration>', 'extra random delay per call, up to this (default 0ms)')
    .option('--format <format>', 'report format (default text)')
    .option('--output <file>', 'write the report to FILE (its extension names the format when --format is not given)')
    .option('--seed <n>', 'scenario seed (default 1)')
    .option('--exit-code', "exit with check's exit code (1 on findings) instead of 0")
    .option('--verbose', "text: each check's fix; text and markdown: every shard and tablet, and the evidence")
    .option('--action <action>', 'the workflow action check judges (default switch; create is not offered)')
    .option('--serve', 'keep the simulated cluster running and print its --vtctld address, until Ctrl-C')
    .action(async (f: DemoFlags) => setExit(await (await import('./commands/demo.js')).runDemoCommand(f, io)));
  program.addHelpText('after', EXIT_CODES_HELP);
  for (const c of program.commands)
    if (['check', 'sweep', 'snapshot'].includes(c.name())) c.addHelpText('after', EXIT_CODES_HELP);
  return adoptCommands(program);
}

/** The exit codes (docs/report-contract.md), as `--help` prints them. */
export const EXIT_CODES_HELP = `
Exit codes:
  0  no finding at or above --fail-on (default error), and no workflow
     unverified but by your own --only/--skip; snapshot: written
  1  otherwise: a finding fails the gate, or a workflow could not be verified
  2  vtpreflight could not do its job (bad flags or config, unreadable input,
     vtctld unreachable or not a vtctld, an output that cannot be written):
     one line on stderr, no report`;

/** Runs the CLI with `argv` (user arguments only) and resolves to the exit code. */
export async function main(argv: readonly string[], given: CliIo = defaultIo()): Promise<number> {
  // The one filter of every error line, warning, note and progress line: no secret reaches stderr
  // (src/secrets.ts). Reports pass through the same filter (src/cli/commands/check.ts).
  const io: CliIo = { ...given, stderr: (s) => given.stderr(redactSecrets(s)) };
  let code = 0;
  const program = buildProgram(io, (c) => (code = c));
  const stopGovernor = startHeapGovernor();
  let result: number;
  try {
    result = await runProgram(program, argv, io, () => code);
  } finally {
    stopGovernor();
  }
  const failure = io.finishStdout ? await io.finishStdout() : null;
  if (failure === null) return result;
  // The reader went away (`| head`): nothing more to say, and no one to say it to on stdout.
  if (failure.code === 'EPIPE') return result;
  io.stderr(`vtpreflight: cannot write the report to stdout: ${describeWriteError(failure)}\n`);
  return 2;
}
