/**
 * The effective settings of a run, from four layers: flags beat environment beat the config file beat defaults
 * (docs/usage.md). Every value remembers where it came from, so `vtpreflight config print` can say
 * so and every error can point at the flag, the variable or the config line at fault.
 *
 * One table ({@link SETTINGS}) names each setting once: its config key, flag, environment variable, kind and
 * default. Values are parsed and checked here, before any network I/O; a problem is a one-line UsageError
 * (exit 2). Secrets (passwords) are kept in {@link Settings} for the collector but never appear in a message,
 * and `config print` masks them.
 *
 * Decisions:
 * - Lists (`keyspaces`, `only`, `format` …) from a higher layer replace the lower layer's list; they never merge.
 * - vtctld static auth is one unit: username and password come from the highest layer that sets any of them
 *   (a credentials file, or username + password), never a username from one layer and a password from another.
 * - Paths in a config file (TLS files, credentials file) are relative to the config file's directory.
 * - `passwordEnv: NAME` in the config file names the environment variable holding the password, so the file
 *   itself can be committed; it is read only when no flag or environment variable sets the password first.
 */
import { readFileSync } from 'node:fs';
import { dirname, isAbsolute, resolve as resolvePath } from 'node:path';
import { parseDuration } from '../duration.js';
import type { Severity } from '../engine/check.js';
import {
  DEFAULT_CONCURRENCY,
  DEFAULT_DEADLINE_MS,
  DEFAULT_MAX_LAG_SECONDS,
  DEFAULT_TIMEOUT_MS,
} from '../engine/options.js';
import { UsageError } from '../errors.js';
import { printable } from '../text.js';
import { REDACTED, registerSecret } from '../secrets.js';
import { FORMATS } from '../report/index.js';
import { parseVitessVersion } from '../vitess/versions.js';
import { ACTIONS } from '../engine/steps.js';
import { loadConfigFile, type ConfigEntry, type ConfigFile, type Shape } from './load.js';

/** Where a value came from. */
export type Source =
  | { readonly kind: 'flag'; readonly name: string }
  | { readonly kind: 'env'; readonly name: string }
  | { readonly kind: 'config'; readonly file: string; readonly line: number }
  | { readonly kind: 'credentials'; readonly file: string; readonly from: Source }
  | { readonly kind: 'default' };

/** A value and where it came from. */
export interface Setting<T> {
  readonly value: T;
  readonly source: Source;
}

type Kind =
  | 'address'
  | 'string'
  | 'path'
  | 'posint'
  | 'duration'
  | 'enum'
  | 'list'
  | 'checkIds'
  | 'release'
  | 'bool'
  | 'tabletTypes';

/** One row of the settings table. */
export interface SettingDef {
  /** Dotted config key, e.g. `vtctld.tls.ca`. */
  readonly key: string;
  readonly kind: Kind;
  /** `--flag` (absent: not settable by flag). */
  readonly flag?: string;
  /** Environment variable (absent: not settable by environment). */
  readonly env?: string;
  readonly choices?: readonly string[];
  /** Typed default (absent: unset by default). */
  readonly def?: unknown;
  /** Masked by `config print`, never printed. */
  readonly secret?: boolean;
  /** The flag's argument in `--help`, e.g. `<host:port>`. */
  readonly arg?: string;
  /** The flag's `--help` line. */
  readonly help?: string;
  /** Which commands take the flag: `common` (check, snapshot, config print) or `check` (check, config print). */
  readonly scope?: 'common' | 'check';
  /** How a repeated flag accumulates: every occurrence (`repeat`) or every comma-separated item (`commas`). */
  readonly repeat?: 'repeat' | 'commas';
}

/** The settings table: each setting's config key, flag, environment variable and default. */
export const SETTINGS: readonly SettingDef[] = [
  {
    key: 'vtctld.address',
    kind: 'address',
    flag: '--vtctld',
    env: 'VTPREFLIGHT_VTCTLD',
    scope: 'common',
    arg: '<host:port>',
    help: 'vtctld gRPC address (env VTPREFLIGHT_VTCTLD)',
  },
  {
    key: 'vtctld.tls.ca',
    kind: 'path',
    flag: '--vtctld-tls-ca',
    env: 'VTPREFLIGHT_VTCTLD_TLS_CA',
    scope: 'common',
    arg: '<file>',
    help: 'CA bundle to verify vtctld (enables TLS)',
  },
  {
    key: 'vtctld.tls.cert',
    kind: 'path',
    flag: '--vtctld-tls-cert',
    env: 'VTPREFLIGHT_VTCTLD_TLS_CERT',
    scope: 'common',
    arg: '<file>',
    help: 'client certificate for mTLS',
  },
  {
    key: 'vtctld.tls.key',
    kind: 'path',
    flag: '--vtctld-tls-key',
    env: 'VTPREFLIGHT_VTCTLD_TLS_KEY',
    scope: 'common',
    arg: '<file>',
    help: 'client key for mTLS',
  },
  {
    key: 'vtctld.tls.serverName',
    kind: 'string',
    flag: '--vtctld-tls-server-name',
    env: 'VTPREFLIGHT_VTCTLD_TLS_SERVER_NAME',
    scope: 'common',
    arg: '<name>',
    help: 'server name to verify in vtctld certificate',
  },
  {
    key: 'vtctld.auth.credentialsFile',
    kind: 'path',
    flag: '--grpc-auth-static-client-creds',
    env: 'VTPREFLIGHT_GRPC_AUTH_STATIC_CLIENT_CREDS',
    scope: 'common',
    arg: '<file>',
    help: 'vtctld static auth credentials, JSON {"Username","Password"} as vtctldclient reads it',
  },
  { key: 'vtctld.auth.username', kind: 'string', env: 'VTPREFLIGHT_VTCTLD_USERNAME' },
  { key: 'vtctld.auth.password', kind: 'string', env: 'VTPREFLIGHT_VTCTLD_PASSWORD', secret: true },
  { key: 'vtctld.auth.passwordEnv', kind: 'string' },
  {
    key: 'mysql.user',
    kind: 'string',
    flag: '--mysql-user',
    env: 'VTPREFLIGHT_MYSQL_USER',
    def: 'root',
    scope: 'common',
    arg: '<user>',
    help: 'MySQL user for the primaries (env VTPREFLIGHT_MYSQL_USER; default root)',
  },
  {
    key: 'mysql.password',
    kind: 'string',
    flag: '--mysql-password',
    env: 'VTPREFLIGHT_MYSQL_PASSWORD',
    def: '',
    secret: true,
    scope: 'common',
    arg: '<password>',
    help: 'MySQL password (env VTPREFLIGHT_MYSQL_PASSWORD; prefer the env var or the config file)',
  },
  { key: 'mysql.passwordEnv', kind: 'string' },
  {
    key: 'mysql.filteredUser',
    kind: 'string',
    flag: '--filtered-user',
    env: 'VTPREFLIGHT_FILTERED_USER',
    def: 'vt_filtered',
    scope: 'common',
    arg: '<user>',
    help: "the tablets' --db_filtered_user, whose grants on the sidecar are read (default vt_filtered)",
  },
  {
    key: 'mysql.grantsViaVtctld',
    kind: 'bool',
    flag: '--grants-via-vtctld',
    env: 'VTPREFLIGHT_GRANTS_VIA_VTCTLD',
    def: false,
    scope: 'common',
    help: "read the filtered user's grants (mysql.user, mysql.db, mysql.tables_priv) through vtctld's ExecuteFetchAsDBA (the tablet DBA user) instead of the MySQL user, which then needs no grant on the mysql schema (off by default)",
  },
  {
    key: 'mysql.tls.ca',
    kind: 'path',
    flag: '--mysql-tls-ca',
    env: 'VTPREFLIGHT_MYSQL_TLS_CA',
    scope: 'common',
    arg: '<file>',
    help: 'CA bundle to verify the primaries’ MySQL (enables TLS)',
  },
  {
    key: 'mysql.tls.cert',
    kind: 'path',
    flag: '--mysql-tls-cert',
    env: 'VTPREFLIGHT_MYSQL_TLS_CERT',
    scope: 'common',
    arg: '<file>',
    help: 'client certificate for MySQL',
  },
  {
    key: 'mysql.tls.key',
    kind: 'path',
    flag: '--mysql-tls-key',
    env: 'VTPREFLIGHT_MYSQL_TLS_KEY',
    scope: 'common',
    arg: '<file>',
    help: 'client key for MySQL',
  },
  {
    key: 'mysql.tls.serverName',
    kind: 'string',
    flag: '--mysql-tls-server-name',
    env: 'VTPREFLIGHT_MYSQL_TLS_SERVER_NAME',
    scope: 'common',
    arg: '<name>',
    help: 'server name to verify in the MySQL certificates',
  },
  {
    key: 'via',
    kind: 'enum',
    flag: '--via',
    env: 'VTPREFLIGHT_VIA',
    choices: ['mysql', 'vtctld'],
    def: 'mysql',
    scope: 'common',
    arg: '<transport>',
    help: 'how to read the sidecar tables: mysql (default) or vtctld (ExecuteFetchAsDBA)',
  },
  {
    key: 'keyspaces',
    kind: 'list',
    flag: '--keyspace',
    def: [],
    scope: 'common',
    arg: '<keyspace>',
    repeat: 'repeat',
    help: 'target keyspace to check (repeatable; default: all)',
  },
  {
    key: 'workflows',
    kind: 'list',
    flag: '--workflow',
    def: [],
    scope: 'common',
    arg: '<workflow>',
    repeat: 'repeat',
    help: 'workflow to check (repeatable; default: all)',
  },
  {
    key: 'concurrency',
    kind: 'posint',
    flag: '--concurrency',
    env: 'VTPREFLIGHT_CONCURRENCY',
    def: DEFAULT_CONCURRENCY,
    scope: 'common',
    arg: '<n>',
    help: `parallel reads at most (default ${DEFAULT_CONCURRENCY})`,
  },
  {
    key: 'timeout',
    kind: 'duration',
    flag: '--timeout',
    env: 'VTPREFLIGHT_TIMEOUT',
    def: DEFAULT_TIMEOUT_MS,
    scope: 'common',
    arg: '<duration>',
    help: `deadline of each call (default ${DEFAULT_TIMEOUT_MS / 1000}s)`,
  },
  {
    key: 'deadline',
    kind: 'duration',
    flag: '--deadline',
    env: 'VTPREFLIGHT_DEADLINE',
    def: DEFAULT_DEADLINE_MS,
    scope: 'common',
    arg: '<duration>',
    help: `bound of the read of the cluster, and again of the checks after it; what is not read or checked in time is reported as such (default ${DEFAULT_DEADLINE_MS / 60_000}m)`,
  },
  {
    key: 'thresholds.maxLag',
    kind: 'duration',
    flag: '--max-lag',
    env: 'VTPREFLIGHT_MAX_LAG',
    def: DEFAULT_MAX_LAG_SECONDS * 1000,
    scope: 'check',
    arg: '<duration>',
    help: `largest acceptable replication lag (default ${DEFAULT_MAX_LAG_SECONDS}s)`,
  },
  {
    key: 'only',
    kind: 'checkIds',
    flag: '--only',
    def: [],
    scope: 'check',
    arg: '<ids>',
    repeat: 'commas',
    help: 'run only these checks (comma-separated, repeatable)',
  },
  {
    key: 'skip',
    kind: 'checkIds',
    flag: '--skip',
    def: [],
    scope: 'check',
    arg: '<ids>',
    repeat: 'commas',
    help: 'skip these checks (comma-separated, repeatable)',
  },
  {
    key: 'failOn',
    kind: 'enum',
    flag: '--fail-on',
    env: 'VTPREFLIGHT_FAIL_ON',
    choices: ['error', 'warning', 'info', 'never'],
    def: 'error',
    scope: 'check',
    arg: '<level>',
    help: 'exit 1 on findings at or above: error (default), warning, info or never',
  },
  {
    key: 'format',
    kind: 'list',
    flag: '--format',
    def: [],
    scope: 'check',
    arg: '<format>',
    repeat: 'repeat',
    help: `report format: ${FORMATS.join('|')} (repeatable; default text)`,
  },
  {
    key: 'output',
    kind: 'list',
    flag: '--output',
    def: [],
    scope: 'check',
    arg: '<file>',
    repeat: 'repeat',
    help: 'write the report to FILE (repeatable: the nth --output receives the nth --format)',
  },
  {
    key: 'wait',
    kind: 'duration',
    flag: '--wait',
    scope: 'check',
    arg: '<duration>',
    help: 're-check until nothing at or above --fail-on is open, for at most DURATION',
  },
  {
    key: 'interval',
    kind: 'duration',
    flag: '--interval',
    def: 10_000,
    scope: 'check',
    arg: '<duration>',
    help: 'pause between runs with --wait (default 10s)',
  },
  {
    // The Vitess release the cluster runs; unset = inferred from the cluster (src/vitess/versions.ts).
    key: 'vitessVersion',
    kind: 'release',
    flag: '--vitess-version',
    env: 'VTPREFLIGHT_VITESS_VERSION',
    scope: 'check',
    arg: '<release>',
    help: 'the Vitess release the cluster runs, e.g. 22.0 (default: inferred from the cluster)',
  },
  {
    // The workflow action judged (src/engine/steps.ts ACTIONS); its options below are spelled as vtctldclient's.
    key: 'action',
    kind: 'enum',
    flag: '--action',
    env: 'VTPREFLIGHT_ACTION',
    choices: ACTIONS,
    def: 'switch',
    scope: 'check',
    arg: '<action>',
    help: `the workflow action to judge: ${ACTIONS.join(', ')} (default switch: SwitchTraffic)`,
  },
  {
    key: 'tabletTypes',
    kind: 'tabletTypes',
    flag: '--tablet-types',
    env: 'VTPREFLIGHT_TABLET_TYPES',
    scope: 'check',
    arg: '<types>',
    help: 'switch, reverse, mirror: tablet types as vtctldclient takes them, e.g. replica,rdonly (default all three); create: the source tablet types the streams may read from',
  },
  {
    key: 'keepData',
    kind: 'bool',
    flag: '--keep-data',
    env: 'VTPREFLIGHT_KEEP_DATA',
    def: false,
    scope: 'check',
    help: 'complete, cancel: judge the action with --keep-data',
  },
  {
    key: 'renameTables',
    kind: 'bool',
    flag: '--rename-tables',
    env: 'VTPREFLIGHT_RENAME_TABLES',
    def: false,
    scope: 'check',
    help: 'complete: judge MoveTables complete with --rename-tables',
  },
  {
    key: 'initializeTargetSequences',
    kind: 'bool',
    flag: '--initialize-target-sequences',
    env: 'VTPREFLIGHT_INITIALIZE_TARGET_SEQUENCES',
    def: false,
    scope: 'check',
    help: 'switch: judge SwitchTraffic with --initialize-target-sequences (a MoveTables from an unsharded keyspace)',
  },
  {
    key: 'targetKeyspace',
    kind: 'string',
    flag: '--target-keyspace',
    env: 'VTPREFLIGHT_TARGET_KEYSPACE',
    scope: 'check',
    arg: '<keyspace>',
    help: 'create: the keyspace the workflow named by --workflow would be created in',
  },
  {
    key: 'sourceKeyspace',
    kind: 'string',
    flag: '--source-keyspace',
    env: 'VTPREFLIGHT_SOURCE_KEYSPACE',
    scope: 'check',
    arg: '<keyspace>',
    help: 'create: the keyspace MoveTables create would move the tables from',
  },
  {
    key: 'tables',
    kind: 'list',
    flag: '--tables',
    env: 'VTPREFLIGHT_TABLES',
    scope: 'check',
    arg: '<tables>',
    repeat: 'commas',
    help: 'create: the tables to move, as vtctldclient takes them (comma-separated, repeatable)',
  },
  {
    key: 'allTables',
    kind: 'bool',
    flag: '--all-tables',
    env: 'VTPREFLIGHT_ALL_TABLES',
    def: false,
    scope: 'check',
    help: 'create: move every table of --source-keyspace',
  },
  {
    key: 'excludeTables',
    kind: 'list',
    flag: '--exclude-tables',
    env: 'VTPREFLIGHT_EXCLUDE_TABLES',
    scope: 'check',
    arg: '<tables>',
    repeat: 'commas',
    help: 'create: with --all-tables, the tables not to move (comma-separated, repeatable)',
  },
  {
    key: 'sourceShards',
    kind: 'list',
    flag: '--source-shards',
    env: 'VTPREFLIGHT_SOURCE_SHARDS',
    scope: 'check',
    arg: '<shards>',
    repeat: 'commas',
    help: 'create: with --target-shards, judge Reshard create from these shards of --target-keyspace',
  },
  {
    key: 'targetShards',
    kind: 'list',
    flag: '--target-shards',
    env: 'VTPREFLIGHT_TARGET_SHARDS',
    scope: 'check',
    arg: '<shards>',
    repeat: 'commas',
    help: 'create: judge Reshard create (not MoveTables create) into these shards of --target-keyspace',
  },
  {
    key: 'cells',
    kind: 'list',
    flag: '--cells',
    env: 'VTPREFLIGHT_CELLS',
    scope: 'check',
    arg: '<cells>',
    repeat: 'commas',
    help: 'switch: the cells whose reads SwitchTraffic switches (default every cell); create: the cells the streams may read source tablets from; as vtctldclient takes them',
  },
];

/** The config file's shape, derived from {@link SETTINGS} (plus the `severities` map). */
export const CONFIG_SHAPE: Shape = (() => {
  const root: Record<string, unknown> = {};
  for (const d of SETTINGS) {
    if (d.key === 'only') root.severities = 'map';
    const parts = d.key.split('.');
    let at = root;
    for (const p of parts.slice(0, -1)) at = (at[p] ??= {}) as Record<string, unknown>;
    at[parts[parts.length - 1]!] = 'leaf';
  }
  return root as Shape;
})();

/** Static auth credentials for vtctld (Vitess `grpcclient.StaticAuthClientCreds`). */
export interface AuthSetting {
  readonly username: string;
  readonly password: string;
  readonly source: Source;
}

/** The effective settings. */
export interface Settings {
  /** The config file read, if any. */
  readonly configFile: Setting<string> | null;
  /** Every table setting that has a value (explicit or default), by config key. */
  readonly values: ReadonlyMap<string, Setting<unknown>>;
  /** `--severity ID=LEVEL` / `severities:`; each id with its own source. */
  readonly severities: ReadonlyMap<string, Setting<Severity>>;
  /** vtctld static auth, when configured. */
  readonly auth: AuthSetting | null;
}

/** What the CLI passes in: the flags given (by flag name; undefined = not given) and the environment. */
export interface SettingsInput {
  readonly flags: Readonly<Record<string, unknown>>;
  readonly env: NodeJS.ProcessEnv;
  /** True for a known check id (the registry lives outside `src/config`). */
  readonly isCheckId: (id: string) => boolean;
  /** What to say after an unknown check id (a did-you-mean); default: where the list is. */
  readonly unknownCheckHint?: (id: string) => string;
}

/** The settings whose values are secrets (never shown in a message). */
const SECRET_KEYS: ReadonlySet<string> = new Set(SETTINGS.filter((d) => d.secret).map((d) => d.key));

const quote = (v: unknown): string =>
  printable(typeof v === 'string' ? `"${v}"` : (JSON.stringify(v) ?? String(v)), 200);

/** Describes a source for messages: `--concurrency`, `VTPREFLIGHT_TIMEOUT`, `vtpreflight.yaml:12`. */
export function describeSource(s: Source): string {
  switch (s.kind) {
    case 'flag':
    case 'env':
      return s.name;
    case 'config':
      return `${s.file}:${s.line}`;
    case 'credentials':
      return `${s.file} (${describeSource(s.from)})`;
    case 'default':
      return 'default';
  }
}

/** A UsageError for a bad value: `invalid --x "v": hint` or `file:line: invalid key "v": hint`. */
function bad(source: Source, key: string, raw: unknown, hint: string): UsageError {
  // A secret's value is never shown, whatever its type (a number or a list is as secret as a string).
  const shown = SECRET_KEYS.has(key) ? REDACTED : quote(raw);
  if (source.kind === 'config')
    return new UsageError(`${source.file}:${source.line}: invalid ${key} ${shown}: ${hint}`);
  const name = source.kind === 'flag' || source.kind === 'env' ? source.name : key;
  return new UsageError(`invalid ${name} ${shown}: ${hint}`);
}

/** `host:port` or `[v6]:port`; no `user:password@` (credentials go in --grpc-auth-static-client-creds). */
const ADDRESS = /^(?:\[[0-9a-fA-F:.]+\]|[^\s:[\]@]+):\d{1,5}$/;

/** Parses one raw value (a flag string or array, an env string, a config value) into its typed value. */
function parseValue(
  def: SettingDef,
  raw: unknown,
  source: Source,
  entry: ConfigEntry | undefined,
  input: SettingsInput,
): unknown {
  const fromConfig = source.kind === 'config';
  if (def.secret) registerSecret(typeof raw === 'number' ? String(raw) : raw);
  const asString = (hint: string): string => {
    if (typeof raw === 'number' && fromConfig && def.kind !== 'path') return String(raw);
    if (def.secret && raw === '') return raw; // an empty password is a value, not a mistake
    if (typeof raw !== 'string' || raw.trim() === '') throw bad(source, def.key, raw, hint);
    return raw;
  };
  switch (def.kind) {
    case 'address': {
      const s = asString('use HOST:PORT, e.g. vtctld:15999');
      if (s.includes('@')) {
        // The part before `@` is credentials: never echoed, and not a way to pass them.
        throw bad(
          source,
          def.key,
          `${REDACTED}@${s.slice(s.lastIndexOf('@') + 1)}`,
          'use HOST:PORT without credentials, e.g. vtctld:15999 (vtctld credentials go in --grpc-auth-static-client-creds)',
        );
      }
      if (!ADDRESS.test(s)) throw bad(source, def.key, raw, 'use HOST:PORT, e.g. vtctld:15999');
      const port = Number(/(\d+)$/.exec(s)![1]);
      if (port < 1 || port > 65535) throw bad(source, def.key, raw, `port ${port} is not a TCP port (1-65535)`);
      return s;
    }
    case 'string':
      return asString('use a non-empty string');
    case 'path': {
      const s = asString('use a file path');
      return fromConfig && !isAbsolute(s) ? resolvePath(dirname(source.file), s) : s;
    }
    case 'posint': {
      const s = typeof raw === 'number' ? String(raw) : typeof raw === 'string' ? raw.trim() : '';
      if (!/^\d+$/.test(s) || Number(s) < 1) throw bad(source, def.key, raw, 'use a positive integer');
      return Number(s);
    }
    case 'duration': {
      if (typeof raw !== 'string')
        throw bad(source, def.key, raw, 'use a duration with a unit, e.g. 30s, 500ms, 2m, 1m30s');
      let ms: number;
      try {
        ms = parseDuration(raw);
      } catch {
        throw bad(source, def.key, raw, 'use a number with a unit, e.g. 30s, 500ms, 2m, 1m30s');
      }
      // A deadline of nothing is no deadline a call could meet.
      if (ms <= 0 && (def.key === 'timeout' || def.key === 'deadline'))
        throw bad(source, def.key, raw, 'use a duration above zero, e.g. 10s');
      return ms;
    }
    case 'enum': {
      const s = typeof raw === 'string' ? raw : '';
      if (!def.choices!.includes(s))
        throw bad(
          source,
          def.key,
          raw,
          `use ${def.choices!.slice(0, -1).join(', ')} or ${def.choices![def.choices!.length - 1]}`,
        );
      return s;
    }
    case 'release': {
      const text = typeof raw === 'number' && fromConfig ? String(raw) : raw;
      if (typeof text !== 'string') throw bad(source, def.key, raw, 'use a Vitess release such as 22, 22.0 or 22.0.3');
      try {
        parseVitessVersion(text);
      } catch (e) {
        throw bad(source, def.key, raw, (e as Error).message);
      }
      return text.trim();
    }
    case 'bool': {
      if (raw === true || raw === false) return raw;
      const t = typeof raw === 'string' ? raw.trim().toLowerCase() : '';
      if (t === 'true' || t === '1') return true;
      if (t === 'false' || t === '0') return false;
      throw bad(source, def.key, raw, 'use true or false');
    }
    case 'tabletTypes': {
      // vtctldclient parses the list with topoproto.ParseTabletTypes: comma-separated, case-insensitive names.
      const items = Array.isArray(raw) ? raw : typeof raw === 'string' ? raw.split(',') : null;
      if (items === null) throw bad(source, def.key, raw, 'use a comma-separated list of primary, replica, rdonly');
      const out: string[] = [];
      for (const item of items) {
        const t = typeof item === 'string' ? item.trim().toLowerCase() : '';
        if (t !== 'primary' && t !== 'replica' && t !== 'rdonly')
          throw bad(source, def.key, raw, 'use a comma-separated list of primary, replica, rdonly');
        if (!out.includes(t)) out.push(t);
      }
      return out;
    }
    case 'list':
    case 'checkIds': {
      let items: unknown[];
      if (Array.isArray(raw)) items = raw;
      else if (typeof raw === 'string') items = source.kind === 'flag' ? [raw] : raw.split(',');
      else throw bad(source, def.key, raw, 'use a list of names');
      const out: string[] = [];
      items.forEach((item, i) => {
        const where: Source = fromConfig && entry?.itemLines?.[i] ? { ...source, line: entry.itemLines[i]! } : source;
        if (typeof item !== 'string' || item.trim() === '') throw bad(where, def.key, item, 'use a list of names');
        // Flags of kind checkIds arrive comma-split already; config and env may hold `a,b` in one item too.
        for (const part of def.kind === 'checkIds' ? item.split(',') : [item]) {
          const id = part.trim();
          if (id === '') continue;
          if (def.kind === 'checkIds' && !input.isCheckId(id)) {
            const at = where.kind === 'config' ? `${where.file}:${where.line}: ` : '';
            throw new UsageError(
              `${at}unknown check id "${id}" in ${where.kind === 'config' ? def.key : describeSource(where)}: ` +
                hint(input, id),
            );
          }
          out.push(id);
        }
      });
      return out;
    }
  }
}

const LEVELS: readonly Severity[] = ['error', 'warning', 'info'];

const hint = (input: SettingsInput, id: string): string =>
  input.unknownCheckHint?.(id) ?? 'run "vtpreflight checks" for the list';

function resolveSeverities(input: SettingsInput, config: ConfigFile | null): Map<string, Setting<Severity>> {
  const out = new Map<string, Setting<Severity>>();
  if (config) {
    for (const e of config.entries.values()) {
      if (!e.path.startsWith('severities.')) continue;
      const id = e.path.slice('severities.'.length);
      const source: Source = { kind: 'config', file: config.file, line: e.line };
      if (!input.isCheckId(id))
        throw new UsageError(`${config.file}:${e.line}: unknown check id "${id}" in severities: ${hint(input, id)}`);
      if (typeof e.value !== 'string' || !LEVELS.includes(e.value as Severity))
        throw bad(source, `severities.${id}`, e.value, 'use error, warning or info');
      out.set(id, { value: e.value as Severity, source });
    }
  }
  const flags = input.flags['--severity'];
  for (const s of Array.isArray(flags) ? (flags as string[]) : []) {
    const m = /^([a-z0-9-]+)=(error|warning|info)$/.exec(s);
    if (!m) throw new UsageError(`invalid --severity "${s}": use ID=error|warning|info`);
    if (!input.isCheckId(m[1]!))
      throw new UsageError(`unknown check id "${m[1]}" in --severity: ${hint(input, m[1]!)}`);
    out.set(m[1]!, { value: m[2] as Severity, source: { kind: 'flag', name: '--severity' } });
  }
  return out;
}

/** Reads a Vitess static auth credentials file: JSON `{"Username": "…", "Password": "…"}`. Never echoes its content. */
export function readCredentialsFile(path: string, from: Source): AuthSetting {
  const label =
    from.kind === 'config' ? `${from.file}:${from.line}: credentials file ${path}` : `${describeSource(from)} ${path}`;
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code ?? 'unreadable';
    throw new UsageError(`cannot read ${label}: ${code}`);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    // The parser's message may quote the file's content, which holds the password: say only what is wrong.
    throw new UsageError(
      `${label} is not valid JSON: want {"Username": "…", "Password": "…"} as vtctldclient reads it`,
    );
  }
  // Go's encoding/json matches field names case-insensitively, so Vitess accepts "username" as well as "Username".
  const field = (name: string): unknown => {
    if (data === null || typeof data !== 'object' || Array.isArray(data)) return undefined;
    const rec = data as Record<string, unknown>;
    if (name in rec) return rec[name];
    const k = Object.keys(rec).find((key) => key.toLowerCase() === name.toLowerCase());
    return k === undefined ? undefined : rec[k];
  };
  const username = field('Username');
  const password = field('Password');
  registerSecret(password);
  if (typeof username !== 'string' || username === '' || typeof password !== 'string') {
    throw new UsageError(
      `${label} lacks a string Username and Password: want {"Username": "…", "Password": "…"} as vtctldclient reads it`,
    );
  }
  return { username, password, source: { kind: 'credentials', file: path, from } };
}

/** Resolves the settings. `configPath` is `--config` (or VTPREFLIGHT_CONFIG, already chosen by the caller). */
export function resolveSettings(input: SettingsInput, configPath: Setting<string> | null): Settings {
  // Every secret given is known to the output filter before anything can fail and quote it.
  for (const def of SETTINGS) {
    if (!def.secret) continue;
    if (def.flag) registerSecret(input.flags[def.flag]);
    if (def.env) registerSecret(input.env[def.env]);
  }
  const config = configPath ? loadConfigFile(configPath.value, CONFIG_SHAPE) : null;
  for (const key of SECRET_KEYS) registerSecret(config?.entries.get(key)?.value);
  const values = new Map<string, Setting<unknown>>();
  const fromConfig = (key: string): { entry: ConfigEntry; source: Source } | undefined => {
    const entry = config?.entries.get(key);
    return entry && entry.value !== null
      ? { entry, source: { kind: 'config', file: config!.file, line: entry.line } }
      : undefined;
  };

  for (const def of SETTINGS) {
    if (def.key.endsWith('.passwordEnv') || def.key.startsWith('vtctld.auth.')) continue; // resolved below
    const flagRaw = def.flag ? input.flags[def.flag] : undefined;
    const envRaw = def.env ? input.env[def.env] : undefined;
    let setting: Setting<unknown> | undefined;
    if (flagRaw !== undefined && !(Array.isArray(flagRaw) && flagRaw.length === 0)) {
      const source: Source = { kind: 'flag', name: def.flag! };
      setting = { value: parseValue(def, flagRaw, source, undefined, input), source };
    } else if (envRaw !== undefined && envRaw !== '') {
      const source: Source = { kind: 'env', name: def.env! };
      setting = { value: parseValue(def, envRaw, source, undefined, input), source };
    } else if (def.key === 'mysql.password' && config?.entries.has('mysql.passwordEnv')) {
      setting = passwordFromEnv(config, 'mysql', input.env);
    } else {
      const c = fromConfig(def.key);
      if (c) setting = { value: parseValue(def, c.entry.value, c.source, c.entry, input), source: c.source };
      else if (def.def !== undefined) setting = { value: def.def, source: { kind: 'default' } };
    }
    if (setting) values.set(def.key, setting);
  }
  if (config?.entries.has('mysql.password') && config.entries.has('mysql.passwordEnv')) {
    throw new UsageError(
      `${config.file}:${config.entries.get('mysql.passwordEnv')!.line}: give mysql.password or mysql.passwordEnv, not both`,
    );
  }
  return {
    configFile: configPath,
    values,
    severities: resolveSeverities(input, config),
    auth: resolveAuth(input, config),
  };
}

function passwordFromEnv(config: ConfigFile, prefix: string, env: NodeJS.ProcessEnv): Setting<string> {
  const e = config.entries.get(`${prefix}.passwordEnv`)!;
  const name = e.value;
  if (typeof name !== 'string' || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) {
    throw new UsageError(
      `${config.file}:${e.line}: invalid ${prefix}.passwordEnv ${quote(name)}: use the name of an environment variable`,
    );
  }
  const value = env[name];
  registerSecret(value);
  if (value === undefined)
    throw new UsageError(
      `${config.file}:${e.line}: ${prefix}.passwordEnv names ${name}, which is not set in the environment`,
    );
  return { value, source: { kind: 'env', name } };
}

function resolveAuth(input: SettingsInput, config: ConfigFile | null): AuthSetting | null {
  const def = (key: string) => SETTINGS.find((d) => d.key === key)!;
  // Flag layer: only the credentials file.
  const flagFile = input.flags['--grpc-auth-static-client-creds'];
  if (typeof flagFile === 'string') {
    const source: Source = { kind: 'flag', name: '--grpc-auth-static-client-creds' };
    return readCredentialsFile(
      parseValue(def('vtctld.auth.credentialsFile'), flagFile, source, undefined, input) as string,
      source,
    );
  }
  // Environment layer.
  const envFile = input.env.VTPREFLIGHT_GRPC_AUTH_STATIC_CLIENT_CREDS;
  const envUser = input.env.VTPREFLIGHT_VTCTLD_USERNAME;
  const envPass = input.env.VTPREFLIGHT_VTCTLD_PASSWORD;
  if (envFile) {
    if (envUser || envPass)
      throw new UsageError(
        'set VTPREFLIGHT_GRPC_AUTH_STATIC_CLIENT_CREDS or VTPREFLIGHT_VTCTLD_USERNAME/VTPREFLIGHT_VTCTLD_PASSWORD, not both',
      );
    return readCredentialsFile(envFile, { kind: 'env', name: 'VTPREFLIGHT_GRPC_AUTH_STATIC_CLIENT_CREDS' });
  }
  if (envUser || envPass) {
    if (!envUser || envPass === undefined)
      throw new UsageError('vtctld auth needs both VTPREFLIGHT_VTCTLD_USERNAME and VTPREFLIGHT_VTCTLD_PASSWORD');
    return { username: envUser, password: envPass, source: { kind: 'env', name: 'VTPREFLIGHT_VTCTLD_USERNAME' } };
  }
  // Config layer.
  if (!config) return null;
  const at = (k: string) => config.entries.get(`vtctld.auth.${k}`);
  const file = at('credentialsFile');
  const user = at('username');
  const pass = at('password');
  const passEnv = at('passwordEnv');
  const src = (e: ConfigEntry): Source => ({ kind: 'config', file: config.file, line: e.line });
  if (file && file.value !== null) {
    const other = user ?? pass ?? passEnv;
    if (other)
      throw new UsageError(
        `${config.file}:${other.line}: give vtctld.auth.credentialsFile or vtctld.auth.username/password, not both`,
      );
    return readCredentialsFile(
      parseValue(def('vtctld.auth.credentialsFile'), file.value, src(file), file, input) as string,
      src(file),
    );
  }
  if (!user && !pass && !passEnv) return null;
  if (pass && passEnv)
    throw new UsageError(
      `${config.file}:${passEnv.line}: give vtctld.auth.password or vtctld.auth.passwordEnv, not both`,
    );
  if (!user)
    throw new UsageError(`${config.file}:${(pass ?? passEnv)!.line}: vtctld.auth needs a username with its password`);
  const username = parseValue(def('vtctld.auth.username'), user.value, src(user), user, input) as string;
  let password: string;
  if (passEnv) password = passwordFromEnv(config, 'vtctld.auth', input.env).value;
  else if (pass && typeof pass.value === 'string') password = pass.value;
  else
    throw new UsageError(
      `${config.file}:${(pass ?? user).line}: vtctld.auth needs a password (or passwordEnv) with its username`,
    );
  return { username, password, source: src(user) };
}

/** The typed value of a table setting (undefined when unset). */
export function get<T>(s: Settings, key: string): T | undefined {
  return s.values.get(key)?.value as T | undefined;
}
