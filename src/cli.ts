#!/usr/bin/env node
/**
 * The vtpreflight command line (DESIGN.md "CLI contract"). Thin: it declares commands, validates every flag
 * before any I/O (usage errors exit 2), then wires collect → runChecks → render → write → exit code.
 */
import { readFileSync, realpathSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { Command, CommanderError, Option } from 'commander';
import { CHECKS, findCheck } from '../checks/index.js';
import { formatDuration, parseDuration } from './duration.js';
import type { Severity } from './engine/check.js';
import { DEFAULT_CONCURRENCY, DEFAULT_MAX_LAG_SECONDS, DEFAULT_TIMEOUT_MS, withDefaults } from './engine/options.js';
import { createProgress, type ProgressMode } from './engine/progress.js';
import type { Report } from './engine/report.js';
import { runModelChecks, type FailOn } from './engine/run.js';
import { CollectError, UsageError, oneLine } from './errors.js';
import { buildModel } from './model/build.js';
import type { Readout } from './readout.js';
import { FORMATS, renderReport, type ReportFormat } from './report/index.js';
import { renderCheckHelp, renderCheckList } from './catalog.js';
import { collect, type CollectOptions } from './sources/collect.js';
import { readSnapshot, writeSnapshot } from './sources/snapshot.js';
import { VERSION } from './version.js';

/** Where the CLI writes; injectable so tests can run the program in-process. */
export interface CliIo {
  stdout: (s: string) => void;
  stderr: (s: string) => void;
  env: NodeJS.ProcessEnv;
  stdoutIsTTY: boolean;
  stderrIsTTY: boolean;
}

const defaultIo = (): CliIo => ({
  stdout: (s) => process.stdout.write(s),
  stderr: (s) => process.stderr.write(s),
  env: process.env,
  stdoutIsTTY: process.stdout.isTTY === true,
  stderrIsTTY: process.stderr.isTTY === true,
});

const collectList = (value: string, previous: string[] = []) => [...previous, value];
const commaList = (value: string, previous: string[] = []) => [
  ...previous,
  ...value
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== ''),
];

interface CommonFlags {
  vtctld?: string;
  keyspace?: string[];
  workflow?: string[];
  concurrency: string;
  timeout: string;
  via: string;
  mysqlUser?: string;
  mysqlPassword?: string;
  vtctldTlsCa?: string;
  vtctldTlsCert?: string;
  vtctldTlsKey?: string;
  vtctldTlsServerName?: string;
  quiet?: boolean;
  debug?: boolean;
}

interface CheckFlags extends CommonFlags {
  snapshot?: string;
  format?: string;
  output?: string;
  only?: string[];
  skip?: string[];
  maxLag: string;
  failOn: string;
  severity?: string[];
}

function addCommonOptions(cmd: Command): Command {
  return cmd
    .option('--vtctld <host:port>', 'vtctld gRPC address')
    .option('--keyspace <keyspace>', 'target keyspace to check (repeatable; default: all)', collectList)
    .option('--workflow <workflow>', 'workflow to check (repeatable; default: all)', collectList)
    .option('--concurrency <n>', 'parallel reads at most', String(DEFAULT_CONCURRENCY))
    .option('--timeout <duration>', 'deadline of each call', `${DEFAULT_TIMEOUT_MS / 1000}s`)
    .addOption(new Option('--via <transport>', 'how to read the sidecar tables').choices(['mysql', 'vtctld']).default('mysql'))
    .option('--mysql-user <user>', 'MySQL user for the primaries (env VTPREFLIGHT_MYSQL_USER)')
    .option('--mysql-password <password>', 'MySQL password (env VTPREFLIGHT_MYSQL_PASSWORD; prefer the env var)')
    .option('--vtctld-tls-ca <file>', 'CA bundle to verify vtctld')
    .option('--vtctld-tls-cert <file>', 'client certificate for mTLS')
    .option('--vtctld-tls-key <file>', 'client key for mTLS')
    .option('--vtctld-tls-server-name <name>', 'server name to verify in vtctld certificate')
    .option('--quiet', 'no progress output')
    .option('--debug', 'stack traces on internal errors');
}

function positiveInt(text: string, flag: string): number {
  if (!/^\d+$/.test(text) || Number(text) < 1) throw new UsageError(`invalid ${flag} "${text}": use a positive integer`);
  return Number(text);
}

function duration(text: string, flag: string): number {
  try {
    return parseDuration(text, flag);
  } catch (e) {
    throw new UsageError(oneLine(e));
  }
}

function checkIds(ids: readonly string[], flag: string): string[] {
  for (const id of ids) {
    if (!findCheck(id)) throw new UsageError(`unknown check id "${id}" in ${flag}: run "vtpreflight checks" for the list`);
  }
  return [...ids];
}

function readFileFlag(path: string | undefined, flag: string): Buffer | undefined {
  if (path === undefined) return undefined;
  try {
    return readFileSync(path);
  } catch (e) {
    throw new UsageError(`cannot read ${flag} ${path}: ${oneLine(e)}`);
  }
}

/** Validates the flags shared by `check` and `snapshot` into collection options (no I/O but reading TLS files). */
function collectOptions(f: CommonFlags, io: CliIo): CollectOptions {
  if (!f.vtctld) throw new UsageError('missing --vtctld HOST:PORT (or use --snapshot FILE)');
  if (!/^[^\s:]+:\d{1,5}$|^\[[0-9a-fA-F:]+\]:\d{1,5}$/.test(f.vtctld)) {
    throw new UsageError(`invalid --vtctld "${f.vtctld}": use HOST:PORT, e.g. vtctld:15999`);
  }
  const ca = readFileFlag(f.vtctldTlsCa, '--vtctld-tls-ca');
  const cert = readFileFlag(f.vtctldTlsCert, '--vtctld-tls-cert');
  const key = readFileFlag(f.vtctldTlsKey, '--vtctld-tls-key');
  if ((cert === undefined) !== (key === undefined)) throw new UsageError('--vtctld-tls-cert and --vtctld-tls-key must be given together');
  const tlsWanted = ca !== undefined || cert !== undefined || f.vtctldTlsServerName !== undefined;
  const timeoutMs = duration(f.timeout, '--timeout');
  return {
    vtctld: {
      address: f.vtctld,
      timeoutMs,
      ...(tlsWanted ? { tls: { ca, cert, key, serverName: f.vtctldTlsServerName } } : {}),
    },
    keyspaces: f.keyspace ?? [],
    workflows: f.workflow ?? [],
    concurrency: positiveInt(f.concurrency, '--concurrency'),
    timeoutMs,
    via: f.via === 'vtctld' ? 'vtctld' : 'mysql',
    mysql: {
      user: f.mysqlUser ?? io.env.VTPREFLIGHT_MYSQL_USER ?? 'root',
      password: f.mysqlPassword ?? io.env.VTPREFLIGHT_MYSQL_PASSWORD ?? '',
    },
  };
}

function progressMode(f: CommonFlags, io: CliIo, machineOnStdout: boolean): ProgressMode {
  if (f.quiet) return 'silent';
  if (machineOnStdout && !io.stderrIsTTY) return 'silent';
  return io.stderrIsTTY ? 'tty' : 'plain';
}

async function writeOut(io: CliIo, output: string | undefined, text: string): Promise<void> {
  if (output === undefined || output === '-') {
    io.stdout(text);
    return;
  }
  try {
    await writeFile(output, text, 'utf8');
  } catch (e) {
    throw new UsageError(`cannot write --output ${output}: ${oneLine(e)}`);
  }
}

async function runCheck(f: CheckFlags, io: CliIo): Promise<number> {
  // Validate everything before any I/O.
  const format = (f.format ?? (io.stdoutIsTTY ? 'text' : 'json')) as ReportFormat;
  if (!FORMATS.includes(format)) throw new UsageError(`invalid --format "${f.format}": use one of ${FORMATS.join(', ')}`);
  const only = checkIds(f.only ?? [], '--only');
  const skip = checkIds(f.skip ?? [], '--skip');
  const maxLagMs = duration(f.maxLag, '--max-lag');
  if (!['error', 'warning', 'info', 'never'].includes(f.failOn)) throw new UsageError(`invalid --fail-on "${f.failOn}": use error, warning or never`);
  const severities: Record<string, Severity> = {};
  for (const s of f.severity ?? []) {
    const m = /^([a-z0-9-]+)=(error|warning|info)$/.exec(s);
    if (!m) throw new UsageError(`invalid --severity "${s}": use ID=error|warning|info`);
    checkIds([m[1]!], '--severity');
    severities[m[1]!] = m[2] as Severity;
  }
  const options = withDefaults({ maxLagSeconds: Math.floor(maxLagMs / 1000), only, skip, severities });
  const machine = format !== 'text' && (f.output === undefined || f.output === '-');
  const progress = createProgress(progressMode(f, io, machine), io.stderr);
  const started = new Date();
  const t0 = performance.now();

  let readout: Readout;
  let snapshot: string | null = null;
  if (f.snapshot !== undefined) {
    snapshot = f.snapshot;
    readout = await readSnapshot(f.snapshot);
    // Narrow an offline check with --keyspace/--workflow like a live one.
    if ((f.keyspace?.length ?? 0) > 0 || (f.workflow?.length ?? 0) > 0) {
      readout = {
        ...readout,
        target: {
          ...readout.target,
          keyspaces: f.keyspace?.length ? f.keyspace : readout.target.keyspaces,
          workflows: f.workflow?.length ? f.workflow : readout.target.workflows,
        },
      };
    }
  } else {
    const copts = collectOptions(f, io);
    readout = await progress.step('Reading the cluster', (onProgress) => collect({ ...copts, onProgress }));
  }
  const model = buildModel(readout);
  const report: Report = runModelChecks(model, CHECKS, options, {
    toolVersion: VERSION,
    snapshot,
    startedAt: snapshot !== null ? readout.capturedAt : started.toISOString(),
    elapsedMs: performance.now() - t0,
    failOn: f.failOn as FailOn,
  });
  const text = renderReport(format, report, { color: format === 'text' && io.stdoutIsTTY && f.output === undefined && !io.env.NO_COLOR });
  await writeOut(io, f.output, text);
  return report.summary.exitCode;
}

async function runSnapshot(f: CommonFlags & { output?: string }, io: CliIo): Promise<number> {
  if (!f.output) throw new UsageError('missing --output FILE for snapshot');
  const copts = collectOptions(f, io);
  const progress = createProgress(progressMode(f, io, false), io.stderr);
  const t0 = performance.now();
  const readout = await progress.step('Reading the cluster', (onProgress) => collect({ ...copts, onProgress }));
  try {
    await writeSnapshot(f.output, readout);
  } catch (e) {
    throw new UsageError(`cannot write snapshot ${f.output}: ${oneLine(e)}`);
  }
  const failures = buildModel(readout).failures.length;
  if (!f.quiet) {
    io.stderr(
      `vtpreflight: wrote ${f.output} (${readout.sidecars.length} primaries, ${failures} failed reads) in ${formatDuration(performance.now() - t0)}\n`,
    );
  }
  return 0;
}

/** Builds the commander program without running it (the compose test parses service commands with it). */
export function buildProgram(io: CliIo = defaultIo(), setExit: (code: number) => void = () => {}): Command {
  const program = new Command('vtpreflight')
    .description('Predict Vitess MoveTables/Reshard cutover failures before SwitchTraffic')
    .version(VERSION)
    .showHelpAfterError(false)
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr })
    .exitOverride();

  addCommonOptions(
    program
      .command('check')
      .description('read the cluster (or a snapshot) and report what would make the cutover fail')
      .option('--snapshot <file>', 'check a snapshot file offline instead of a live cluster')
      .option('--format <format>', `report format: ${FORMATS.join('|')} (default: text on a terminal, json otherwise)`)
      .option('--output <file>', 'write the report to FILE instead of stdout')
      .option('--only <ids>', 'run only these checks (comma-separated, repeatable)', commaList)
      .option('--skip <ids>', 'skip these checks (comma-separated, repeatable)', commaList)
      .option('--max-lag <duration>', 'largest acceptable replication lag', `${DEFAULT_MAX_LAG_SECONDS}s`)
      .option('--fail-on <level>', 'exit 1 on findings at or above: error|warning|never', 'error')
      .option('--severity <id=level>', 'change a check severity (repeatable)', collectList),
  ).action(async (f: CheckFlags) => setExit(await runCheck(f, io)));

  addCommonOptions(
    program.command('snapshot').description('read the cluster and write the readout to a file').option('--output <file>', 'snapshot file to write'),
  ).action(async (f: CommonFlags & { output?: string }) => setExit(await runSnapshot(f, io)));

  program
    .command('checks [id]')
    .description('list the checks, or explain one')
    .action((id: string | undefined) => {
      if (id === undefined) {
        io.stdout(renderCheckList(CHECKS));
      } else {
        const check = findCheck(id);
        if (!check) throw new UsageError(`unknown check id "${id}": run "vtpreflight checks" for the list`);
        io.stdout(renderCheckHelp(check));
      }
      setExit(0);
    });
  return program;
}

/** Runs the CLI with `argv` (user arguments only) and resolves to the exit code. */
export async function main(argv: readonly string[], io: CliIo = defaultIo()): Promise<number> {
  let code = 0;
  const program = buildProgram(io, (c) => (code = c));
  try {
    await program.parseAsync([...argv], { from: 'user' });
    return code;
  } catch (e) {
    if (e instanceof CommanderError) {
      // Help and version are "errors" in commander's exitOverride mode.
      if (e.code === 'commander.helpDisplayed' || e.code === 'commander.version' || e.code === 'commander.help') return 0;
      return 2; // commander already printed its one-line message
    }
    if (e instanceof UsageError || e instanceof CollectError) {
      io.stderr(`vtpreflight: ${oneLine(e)}\n`);
      return 2;
    }
    const debug = argv.includes('--debug');
    io.stderr(`vtpreflight: internal error: ${oneLine(e)} (please report this${debug ? '' : '; rerun with --debug for the stack'})\n`);
    if (debug && e instanceof Error && e.stack) io.stderr(`${e.stack}\n`);
    return 2;
  }
}

function isEntryPoint(): boolean {
  try {
    return process.argv[1] !== undefined && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url);
  } catch {
    return false;
  }
}

if (isEntryPoint()) {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (e) => {
      process.stderr.write(`vtpreflight: internal error: ${oneLine(e)}\n`);
      process.exitCode = 2;
    },
  );
}
