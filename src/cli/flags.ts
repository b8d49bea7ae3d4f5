/**
 * Flags: the commander options of `check`, `snapshot` and `config print`, generated from the settings table
 * (`src/config/settings.ts` {@link SETTINGS}: flag, argument, help text, scope), and the way back from a parsed
 * command to {@link Settings}. No commander defaults: defaults live in the table, so `config print` can say where
 * each value came from.
 */
import { type Command, Option } from 'commander';
import { CHECKS, findCheck } from '../../checks/index.js';
import { resolveSettings, SETTINGS, type Setting, type Settings } from '../config/settings.js';
import type { CliIo } from './io.js';
import { didYouMean } from './suggest.js';

const CHECK_IDS = CHECKS.map((c) => c.id);

/** Flags outside the settings table. */
export interface RunFlags {
  config?: string;
  quiet?: boolean;
  debug?: boolean;
  verbose?: boolean;
}

const collectList = (value: string, previous: string[] = []) => [...previous, value];
const commaList = (value: string, previous: string[] = []) => [
  ...previous,
  ...value
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== ''),
];

/** Adds the table's flags of one scope to `cmd`, in table order. */
function addSettingOptions(cmd: Command, scope: 'common' | 'check'): Command {
  for (const d of SETTINGS) {
    if (d.scope !== scope || d.flag === undefined) continue;
    const o = new Option(d.kind === 'bool' ? d.flag : `${d.flag} ${d.arg ?? '<value>'}`, d.help ?? '');
    if (d.repeat === 'repeat') o.argParser(collectList);
    else if (d.repeat === 'commas') o.argParser(commaList);
    cmd.addOption(o);
  }
  return cmd;
}

/** The flags shared by `check`, `snapshot` and `config print`. */
export function addCommonOptions(cmd: Command): Command {
  cmd.option(
    '--config <file>',
    'YAML or JSON config file (env VTPREFLIGHT_CONFIG); flags beat environment beat config',
  );
  addSettingOptions(cmd, 'common');
  return cmd
    .addOption(new Option('--grpc_auth_static_client_creds <file>').hideHelp())
    .option('--quiet', 'no progress output')
    .option('--debug', 'stack traces on internal errors');
}

/** The flags of `check` (and `config print`) beyond the common ones. */
export function addCheckOptions(cmd: Command): Command {
  addSettingOptions(cmd, 'check');
  return cmd
    .option('--severity <id=level>', 'change a check severity (repeatable)', collectList)
    .option('--verbose', "text: each check's fix; text and markdown: every shard and tablet, and the evidence");
}

/** The flags given on the command line, by flag name (`--concurrency`), from a parsed command. */
export function givenFlags(cmd: Command): Record<string, unknown> {
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
export function settingsOf(cmd: Command, io: CliIo): Settings {
  const flags = givenFlags(cmd);
  const fromFlag = typeof flags['--config'] === 'string' ? (flags['--config'] as string) : undefined;
  const fromEnv = io.env.VTPREFLIGHT_CONFIG;
  let configPath: Setting<string> | null = null;
  if (fromFlag !== undefined) configPath = { value: fromFlag, source: { kind: 'flag', name: '--config' } };
  else if (fromEnv) configPath = { value: fromEnv, source: { kind: 'env', name: 'VTPREFLIGHT_CONFIG' } };
  return resolveSettings(
    {
      flags,
      env: io.env,
      isCheckId: (id) => findCheck(id) !== undefined,
      unknownCheckHint: (id) => didYouMean(id, CHECK_IDS, 'run "vtpreflight checks" for the list'),
    },
    configPath,
  );
}
