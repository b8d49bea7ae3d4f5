#!/usr/bin/env node
/**
 * The vtpreflight command line (DESIGN.md "CLI contract"). Thin: it declares commands, resolves every flag,
 * environment variable and config value before any I/O (`src/config`; usage errors exit 2), then wires
 * collect → runChecks (→ again, with `--wait`) → render each report → write → exit code.
 */
import { readFileSync, realpathSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { Command, CommanderError, Option } from 'commander';
import { CHECKS, findCheck } from '../checks/index.js';
import { renderCheckHelp, renderCheckList } from './catalog.js';
import { renderConfig } from './config/print.js';
import { planReports, type ReportPlan } from './config/reports.js';
import { describeSource, get, resolveSettings, type Setting, type Settings } from './config/settings.js';
import { formatDuration } from './duration.js';
import type { Severity } from './engine/check.js';
import {
  DEFAULT_CONCURRENCY,
  DEFAULT_MAX_LAG_SECONDS,
  DEFAULT_TIMEOUT_MS,
  withDefaults,
  type CheckOptions,
} from './engine/options.js';
import { createProgress, type Progress, type ProgressMode } from './engine/progress.js';
import type { Report } from './engine/report.js';
import { runModelChecks, type FailOn } from './engine/run.js';
import { waitUntilClear } from './engine/wait.js';
import { CollectError, UsageError, oneLine } from './errors.js';
import { buildModel } from './model/build.js';
import type { Readout } from './readout.js';
import { FORMATS, renderReport } from './report/index.js';
import { collect, type CollectOptions } from './sources/collect.js';
import type { MysqlTlsOptions } from './sources/mysql.js';
import { redactReadout } from './sources/redact.js';
import { readSnapshot, writeSnapshot } from './sources/snapshot.js';
import { parseWorkflowsJson, workflowsJsonToReadout, WorkflowsJsonError } from './sources/workflows-json.js';
import type { VtctldTlsOptions } from './sources/vtctld.js';
import { VERSION } from './version.js';
import { givenVitessVersions } from './vitess/versions.js';

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

/** Flags outside the settings table. */
interface RunFlags {
  config?: string;
  quiet?: boolean;
  debug?: boolean;
}

/** The flags shared by `check`, `snapshot` and `config print`; no commander defaults: defaults live in src/config. */
function addCommonOptions(cmd: Command): Command {
  return cmd
    .option('--config <file>', 'YAML or JSON config file (env VTPREFLIGHT_CONFIG); flags beat environment beat config')
    .option('--vtctld <host:port>', 'vtctld gRPC address (env VTPREFLIGHT_VTCTLD)')
    .option('--keyspace <keyspace>', 'target keyspace to check (repeatable; default: all)', collectList)
    .option('--workflow <workflow>', 'workflow to check (repeatable; default: all)', collectList)
    .option('--concurrency <n>', `parallel reads at most (default ${DEFAULT_CONCURRENCY})`)
    .option('--timeout <duration>', `deadline of each call (default ${DEFAULT_TIMEOUT_MS / 1000}s)`)
    .addOption(
      new Option('--via <transport>', 'how to read the sidecar tables: mysql (default) or vtctld (ExecuteFetchAsDBA)'),
    )
    .option('--mysql-user <user>', 'MySQL user for the primaries (env VTPREFLIGHT_MYSQL_USER; default root)')
    .option(
      '--mysql-password <password>',
      'MySQL password (env VTPREFLIGHT_MYSQL_PASSWORD; prefer the env var or the config file)',
    )
    .option('--mysql-tls-ca <file>', 'CA bundle to verify the primaries’ MySQL (enables TLS)')
    .option('--mysql-tls-cert <file>', 'client certificate for MySQL')
    .option('--mysql-tls-key <file>', 'client key for MySQL')
    .option('--mysql-tls-server-name <name>', 'server name to verify in the MySQL certificates')
    .option('--vtctld-tls-ca <file>', 'CA bundle to verify vtctld (enables TLS)')
    .option('--vtctld-tls-cert <file>', 'client certificate for mTLS')
    .option('--vtctld-tls-key <file>', 'client key for mTLS')
    .option('--vtctld-tls-server-name <name>', 'server name to verify in vtctld certificate')
    .option(
      '--grpc-auth-static-client-creds <file>',
      'vtctld static auth credentials, JSON {"Username","Password"} as vtctldclient reads it',
    )
    .addOption(new Option('--grpc_auth_static_client_creds <file>').hideHelp())
    .option('--quiet', 'no progress output')
    .option('--debug', 'stack traces on internal errors');
}

function addCheckOptions(cmd: Command): Command {
  return cmd
    .option('--snapshot <file>', 'check a snapshot file offline instead of a live cluster')
    .option(
      '--workflows-json <file...>',
      'check the output of `vtctldclient GetWorkflows KEYSPACE --include-logs --json` offline (repeatable)',
    )
    .option(
      '--format <format>',
      `report format: ${FORMATS.join('|')} (repeatable; default: text on a terminal, json otherwise)`,
      collectList,
    )
    .option(
      '--output <file>',
      'write the report to FILE (repeatable: the nth --output receives the nth --format)',
      collectList,
    )
    .option('--only <ids>', 'run only these checks (comma-separated, repeatable)', commaList)
    .option('--skip <ids>', 'skip these checks (comma-separated, repeatable)', commaList)
    .option('--max-lag <duration>', `largest acceptable replication lag (default ${DEFAULT_MAX_LAG_SECONDS}s)`)
    .option('--fail-on <level>', 'exit 1 on findings at or above: error (default), warning, info or never')
    .option('--severity <id=level>', 'change a check severity (repeatable)', collectList)
    .option('--wait <duration>', 're-check until nothing at or above --fail-on is open, for at most DURATION')
    .option('--interval <duration>', 'pause between runs with --wait (default 10s)')
    .option(
      '--vitess-version <release>',
      'the Vitess release the cluster runs, e.g. 22.0 (env VTPREFLIGHT_VITESS_VERSION; default: inferred from the cluster)',
    );
}

/** The flags given on the command line, by flag name (`--concurrency`), from a parsed command. */
function givenFlags(cmd: Command): Record<string, unknown> {
  const opts = cmd.opts() as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const o of cmd.options) {
    const v = opts[o.attributeName()];
    if (v !== undefined && o.long) out[o.long] = v;
  }
  // vtctldclient's older spelling of the credentials flag.
  if (out['--grpc-auth-static-client-creds'] === undefined && out['--grpc_auth_static_client_creds'] !== undefined) {
    out['--grpc-auth-static-client-creds'] = out['--grpc_auth_static_client_creds'];
  }
  return out;
}

/** Resolves the settings of a parsed command (flags > env > config > defaults), before any I/O. */
function settingsOf(cmd: Command, io: CliIo): Settings {
  const flags = givenFlags(cmd);
  const fromFlag = typeof flags['--config'] === 'string' ? (flags['--config'] as string) : undefined;
  const fromEnv = io.env.VTPREFLIGHT_CONFIG;
  let configPath: Setting<string> | null = null;
  if (fromFlag !== undefined) configPath = { value: fromFlag, source: { kind: 'flag', name: '--config' } };
  else if (fromEnv) configPath = { value: fromEnv, source: { kind: 'env', name: 'VTPREFLIGHT_CONFIG' } };
  return resolveSettings({ flags, env: io.env, isCheckId: (id) => findCheck(id) !== undefined }, configPath);
}

function readSettingFile(s: Settings, key: string): Buffer | undefined {
  const setting = s.values.get(key);
  if (setting === undefined) return undefined;
  const path = setting.value as string;
  try {
    return readFileSync(path);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code ?? oneLine(e);
    throw new UsageError(`cannot read ${key} ${path} (from ${describeSource(setting.source)}): ${code}`);
  }
}

/** Collection options from the settings (reads TLS files; no network). */
function collectOptions(s: Settings): CollectOptions {
  const address = get<string>(s, 'vtctld.address');
  if (!address)
    throw new UsageError(
      'missing --vtctld HOST:PORT (or VTPREFLIGHT_VTCTLD, vtctld.address in --config, or check --snapshot FILE)',
    );
  const tlsFiles = (prefix: string) => ({
    ca: readSettingFile(s, `${prefix}.tls.ca`),
    cert: readSettingFile(s, `${prefix}.tls.cert`),
    key: readSettingFile(s, `${prefix}.tls.key`),
    serverName: get<string>(s, `${prefix}.tls.serverName`),
  });
  const vt = tlsFiles('vtctld');
  const my = tlsFiles('mysql');
  for (const [name, t] of [
    ['vtctld', vt],
    ['mysql', my],
  ] as const) {
    if ((t.cert === undefined) !== (t.key === undefined))
      throw new UsageError(`--${name}-tls-cert and --${name}-tls-key must be given together`);
  }
  const wantTls = (t: typeof vt) => t.ca !== undefined || t.cert !== undefined || t.serverName !== undefined;
  const vtTls: VtctldTlsOptions = { ca: vt.ca, cert: vt.cert, key: vt.key, serverName: vt.serverName };
  const myTls: MysqlTlsOptions = { ca: my.ca, cert: my.cert, key: my.key, servername: my.serverName };
  const timeoutMs = get<number>(s, 'timeout')!;
  return {
    vtctld: {
      address,
      timeoutMs,
      ...(wantTls(vt) ? { tls: vtTls } : {}),
      ...(s.auth ? { auth: { username: s.auth.username, password: s.auth.password } } : {}),
    },
    keyspaces: get<string[]>(s, 'keyspaces') ?? [],
    workflows: get<string[]>(s, 'workflows') ?? [],
    concurrency: get<number>(s, 'concurrency')!,
    timeoutMs,
    via: get<string>(s, 'via') === 'vtctld' ? 'vtctld' : 'mysql',
    mysql: {
      user: get<string>(s, 'mysql.user')!,
      password: get<string>(s, 'mysql.password') ?? '',
      ...(wantTls(my) ? { ssl: myTls } : {}),
    },
  };
}

function checkOptions(s: Settings): CheckOptions {
  const severities: Record<string, Severity> = {};
  for (const [id, setting] of s.severities) severities[id] = setting.value;
  const version = s.values.get('vitessVersion') as Setting<string> | undefined;
  return withDefaults({
    maxLagSeconds: Math.floor(get<number>(s, 'thresholds.maxLag')! / 1000),
    only: get<string[]>(s, 'only') ?? [],
    skip: get<string[]>(s, 'skip') ?? [],
    severities,
    ...(version !== undefined ? { vitess: givenVitessVersions(version.value, version.source.kind) } : {}),
  });
}

function progressMode(f: RunFlags, io: CliIo, machineOnStdout: boolean): ProgressMode {
  if (f.quiet) return 'silent';
  if (machineOnStdout && !io.stderrIsTTY) return 'silent';
  return io.stderrIsTTY ? 'tty' : 'plain';
}

async function writeOut(io: CliIo, output: string | null, text: string): Promise<void> {
  if (output === null) {
    io.stdout(text);
    return;
  }
  try {
    await writeFile(output, text, 'utf8');
  } catch (e) {
    throw new UsageError(`cannot write --output ${output}: ${oneLine(e)}`);
  }
}

async function readCluster(
  snapshot: string | null,
  s: Settings,
  copts: CollectOptions | null,
  progress: Progress,
  title: string,
): Promise<Readout> {
  if (snapshot === null) return progress.step(title, (onProgress) => collect({ ...copts!, onProgress }));
  let readout = await readSnapshot(snapshot);
  // Narrow an offline check with --keyspace/--workflow like a live one.
  const keyspaces = get<string[]>(s, 'keyspaces') ?? [];
  const workflows = get<string[]>(s, 'workflows') ?? [];
  if (keyspaces.length > 0 || workflows.length > 0) {
    readout = {
      ...readout,
      target: {
        ...readout.target,
        keyspaces: keyspaces.length > 0 ? keyspaces : readout.target.keyspaces,
        workflows: workflows.length > 0 ? workflows : readout.target.workflows,
      },
    };
  }
  return readout;
}

/**
 * The reports to write. `format` and `output` pair up, so they are one unit: when the command line gives either,
 * the config file's `format` and `output` are both ignored.
 */
function reportPlans(s: Settings, io: CliIo): ReportPlan[] {
  const fmt = s.values.get('format');
  const out = s.values.get('output');
  const fromFlags = fmt?.source.kind === 'flag' || out?.source.kind === 'flag';
  const pick = (v: Setting<unknown> | undefined) =>
    v === undefined || (fromFlags && v.source.kind !== 'flag') ? [] : (v.value as string[]);
  return planReports(pick(fmt), pick(out), io.stdoutIsTTY);
}

/** `check --workflows-json FILE...`: the files converted into one readout (`src/sources/workflows-json.ts`). */
async function readWorkflowsJson(files: readonly string[], s: Settings): Promise<Readout> {
  const inputs = await Promise.all(
    files.map(async (file) => {
      let text: string;
      try {
        text = await readFile(file, 'utf8');
      } catch (e) {
        throw new UsageError(
          `cannot read --workflows-json ${file}: ${(e as NodeJS.ErrnoException).code ?? oneLine(e)}`,
        );
      }
      try {
        return parseWorkflowsJson(text, file);
      } catch (e) {
        throw new UsageError(`--workflows-json ${oneLine(e)}`);
      }
    }),
  );
  try {
    return workflowsJsonToReadout(inputs, {
      now: new Date().toISOString(),
      toolVersion: VERSION,
      keyspaces: get<string[]>(s, 'keyspaces') ?? [],
      workflows: get<string[]>(s, 'workflows') ?? [],
    });
  } catch (e) {
    if (e instanceof WorkflowsJsonError) throw new UsageError(`--workflows-json ${oneLine(e)}`);
    throw e;
  }
}

async function runCheck(
  f: RunFlags & { snapshot?: string; workflowsJson?: string[] },
  cmd: Command,
  io: CliIo,
): Promise<number> {
  // Resolve and validate everything before any I/O.
  const s = settingsOf(cmd, io);
  const plans: ReportPlan[] = reportPlans(s, io);
  const options = checkOptions(s);
  const failOn = get<FailOn>(s, 'failOn')!;
  const waitMs = get<number>(s, 'wait');
  const interval = s.values.get('interval')!;
  const snapshot = f.snapshot ?? null;
  const workflowsJson = f.workflowsJson ?? null;
  if (workflowsJson !== null) {
    const clash =
      snapshot !== null
        ? '--snapshot'
        : waitMs !== undefined
          ? '--wait'
          : s.values.get('vtctld.address')?.source.kind === 'flag'
            ? '--vtctld'
            : null;
    if (clash !== null)
      throw new UsageError(`--workflows-json cannot be combined with ${clash}: it checks a file offline`);
  }
  if (waitMs !== undefined && snapshot !== null)
    throw new UsageError('--wait needs a live cluster: a --snapshot never changes');
  if (waitMs === undefined && interval.source.kind === 'flag') throw new UsageError('--interval needs --wait DURATION');
  if ((interval.value as number) < 1) throw new UsageError('--interval must be at least 1ms');
  const copts = snapshot === null && workflowsJson === null ? collectOptions(s) : null;

  const machine = plans.some((p) => p.output === null && p.format !== 'text');
  const progress = createProgress(progressMode(f, io, machine), io.stderr);
  let round = 0;
  const runOnce = async (): Promise<Report> => {
    round++;
    const started = new Date();
    const t0 = performance.now();
    const readout =
      workflowsJson !== null
        ? await readWorkflowsJson(workflowsJson, s)
        : await readCluster(
            snapshot,
            s,
            copts,
            progress,
            waitMs === undefined ? 'Reading the cluster' : `Reading the cluster (run ${round})`,
          );
    const model = buildModel(readout);
    return runModelChecks(model, CHECKS, options, {
      toolVersion: VERSION,
      snapshot,
      startedAt: snapshot !== null ? readout.capturedAt : started.toISOString(),
      elapsedMs: performance.now() - t0,
      failOn,
      ...(readout.lacks !== undefined ? { lacks: readout.lacks } : {}),
      lacksSource: readout.origin === 'workflows-json' ? 'a GetWorkflows JSON file' : 'this readout',
    });
  };

  let report: Report;
  if (waitMs === undefined) {
    report = await runOnce();
  } else {
    // The wait loop's lines go to stderr unless --quiet, even when a machine report goes to stdout.
    const note = f.quiet ? () => {} : (line: string) => io.stderr(`vtpreflight: ${line}\n`);
    report = await waitUntilClear(runOnce, {
      waitMs,
      intervalMs: interval.value as number,
      failOn,
      now: io.now ?? Date.now,
      sleep: io.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms))),
      note,
    });
  }
  for (const plan of plans) {
    const color = plan.format === 'text' && plan.output === null && io.stdoutIsTTY && !io.env.NO_COLOR;
    await writeOut(io, plan.output, renderReport(plan.format, report, { color }));
  }
  return report.summary.exitCode;
}

async function runSnapshot(
  f: RunFlags & { output?: string; redact?: boolean },
  cmd: Command,
  io: CliIo,
): Promise<number> {
  if (!f.output) throw new UsageError('missing --output FILE for snapshot');
  const s = settingsOf(cmd, io);
  const copts = collectOptions(s);
  const progress = createProgress(progressMode(f, io, false), io.stderr);
  const t0 = performance.now();
  const read = await progress.step('Reading the cluster', (onProgress) => collect({ ...copts, onProgress }));
  const readout = f.redact ? redactReadout(read) : read;
  try {
    await writeSnapshot(f.output, readout);
  } catch (e) {
    throw new UsageError(`cannot write snapshot ${f.output}: ${oneLine(e)}`);
  }
  const failures = buildModel(readout).failures.length;
  if (!f.quiet) {
    io.stderr(
      `vtpreflight: wrote ${f.output}${f.redact ? ' redacted' : ''} (${readout.sidecars.length} primaries, ${failures} failed reads) in ${formatDuration(performance.now() - t0)}\n`,
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

  addCheckOptions(
    addCommonOptions(
      program
        .command('check')
        .description('read the cluster (or a snapshot) and report what would make the cutover fail'),
    ),
  ).action(async (f: RunFlags & { snapshot?: string; workflowsJson?: string[] }, cmd: Command) =>
    setExit(await runCheck(f, cmd, io)),
  );

  // `snapshot --output` is the snapshot file, not a report, and `--redact` is about that file: declared here, outside
  // the settings table (no environment variable or config key: redaction is decided per file).
  const snapshot = program.command('snapshot').description('read the cluster and write the readout to a file');
  addCommonOptions(
    snapshot
      .option('--output <file>', 'snapshot file to write')
      .option(
        '--redact',
        'replace host names, user names and secret-looking values, to attach the file to a public bug report',
      ),
  ).action(async (f: RunFlags & { output?: string; redact?: boolean }, cmd: Command) =>
    setExit(await runSnapshot(f, cmd, io)),
  );

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

  const config = program.command('config').description('show the effective configuration');
  addCheckOptions(
    addCommonOptions(
      config
        .command('print')
        .description('print the effective config (flags > environment > config file > defaults), secrets masked'),
    ),
  ).action((_f: RunFlags, cmd: Command) => {
    io.stdout(renderConfig(settingsOf(cmd, io)));
    setExit(0);
  });

  // `demo` lives in src/demo.ts (loaded on demand, so `check` never loads the simulator).
  program
    .command('demo')
    .description('run `check` against a built-in simulated cluster: no database, Docker or network needed')
    .option('--scenario <name>', 'scenario to simulate (see --list)')
    .option('--shards <n>', 'shard count of the main keyspace')
    .option('--list', 'list the scenarios')
    .option('--rtt <duration>', 'simulated round-trip time per call (default 2ms)')
    .option('--jitter <duration>', 'extra random delay per call, up to this (default 0ms)')
    .option('--format <format>', 'report format (default text)')
    .option('--seed <n>', 'scenario seed (default 1)')
    .option('--exit-code', "exit with check's exit code (1 on findings) instead of 0")
    .action(async (f: import('./demo.js').DemoFlags) =>
      setExit(await (await import('./demo.js')).runDemoCommand(f, io)),
    );
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
      if (e.code === 'commander.helpDisplayed' || e.code === 'commander.version' || e.code === 'commander.help')
        return 0;
      return 2; // commander already printed its one-line message
    }
    if (e instanceof UsageError || e instanceof CollectError) {
      io.stderr(`vtpreflight: ${oneLine(e)}\n`);
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
