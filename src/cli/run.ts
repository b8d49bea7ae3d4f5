/**
 * Runs a commander program and maps what it throws to the exit codes of docs/report-contract.md: a usage or collection
 * error is one line and exit 2; anything else is a bug ("please report", stack only with `--debug`), exit 2 too.
 */
import { Command, CommanderError } from 'commander';
import { CollectError, UsageError } from '../errors.js';
import { oneLine, printable } from '../text.js';
import type { CliIo } from './io.js';
import { VERSION } from '../version.js';

/**
 * An empty `vtpreflight` program that writes through `io`, throws instead of exiting, and wraps its help to the
 * terminal (100 columns off a terminal). Commands added with `addCommand` get the same settings in
 * {@link adoptCommands} (commander copies them only to commands made with `.command()`).
 */
export function newProgram(io: CliIo): Command {
  return new Command('vtpreflight')
    .description('Predict Vitess MoveTables/Reshard cutover failures before SwitchTraffic')
    .version(VERSION)
    .showHelpAfterError(false)
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr })
    .configureHelp({ helpWidth: Math.min(io.stdoutColumns ?? 100, 100), minWidthToWrap: 24 })
    .exitOverride();
}

/** Gives every subcommand (at any depth) the program's output, exit and help settings. */
export function adoptCommands(program: Command): Command {
  const walk = (parent: Command) => {
    for (const c of parent.commands) {
      c.copyInheritedSettings(parent);
      walk(c);
    }
  };
  walk(program);
  return program;
}

/** Parses and runs `argv` (user arguments only) on `program`; resolves to the exit code `exitCode()` reports. */
export async function runProgram(
  program: Command,
  argv: readonly string[],
  io: CliIo,
  exitCode: () => number,
): Promise<number> {
  try {
    await program.parseAsync([...argv], { from: 'user' });
    return exitCode();
  } catch (e) {
    if (e instanceof CommanderError) {
      // Help and version are "errors" in commander's exitOverride mode.
      // Help asked for (`--help`, `help`) is exit 0; help shown because nothing was asked (no command) is a usage
      // error: commander printed it on stderr, and a script must not take it for success.
      if (e.code === 'commander.helpDisplayed' || e.code === 'commander.version') return 0;
      if (e.code === 'commander.help') return e.exitCode === 0 ? 0 : 2;
      return 2; // commander already printed its one-line message
    }
    if (e instanceof UsageError || e instanceof CollectError) {
      // Messages may quote input (file names, keys, values): never a raw control character on the terminal.
      io.stderr(`vtpreflight: ${printable(oneLine(e), 2000)}\n`);
      return 2;
    }
    const debug = argv.includes('--debug');
    io.stderr(
      `vtpreflight: internal error: ${oneLine(e)} (please report this${debug ? '' : '; rerun with --debug for the stack'})\n`,
    );
    if (debug && e instanceof Error && e.stack) io.stderr(`${e.stack}\n`);
    return 2;
  }
}
