/**
 * From resolved {@link Settings} to the typed options of each stage: the collector's (reads TLS files, no network),
 * the checks', and the reports to write. Every problem is a UsageError (exit 2) before any network I/O.
 */
import { readFileSync } from 'node:fs';
import { createSecureContext } from 'node:tls';
import { planReports, type ReportPlan } from '../config/reports.js';
import { describeSource, get, type Setting, type Settings } from '../config/settings.js';
import type { Severity } from '../engine/check.js';
import {
  type ActionRequest,
  type CheckOptions,
  type CreateRequest,
  type TabletTypeName,
  withDefaults,
} from '../engine/options.js';
import type { Action } from '../engine/steps.js';
import { UsageError } from '../errors.js';
import { oneLine } from '../text.js';
import type { CollectOptions } from '../sources/collect.js';
import type { MysqlTlsOptions } from '../sources/mysql.js';
import type { VtctldTlsOptions } from '../sources/vtctld.js';
import { givenVitessVersions } from '../vitess/versions.js';

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

/**
 * The keyspaces to read: `--keyspace`, plus the keyspace `--action create` would create the workflow in (so that an
 * unknown one is a usage error, and its shards and primaries are read even when `--keyspace` names others).
 */
function collectedKeyspaces(s: Settings): string[] {
  const given = get<string[]>(s, 'keyspaces') ?? [];
  if (get<string>(s, 'action') !== 'create') return given;
  // The source keyspace too: `--all-tables` lists its tables, and its shards and primaries are read.
  const extra = [get<string>(s, 'targetKeyspace'), get<string>(s, 'sourceKeyspace')].filter(
    (k): k is string => k !== undefined && k !== '',
  );
  const out = [...given];
  if (given.length > 0 || extra.length > 0) for (const k of extra) if (!out.includes(k)) out.push(k);
  return out;
}

/** `--action create --tables …`: the target primaries probe each table for a row (create's emptiness check). */
function probeTables(s: Settings): { probeTables?: { keyspace: string; tables: string[] } } {
  const target = get<string>(s, 'targetKeyspace');
  const tables = get<string[]>(s, 'tables') ?? [];
  if (get<string>(s, 'action') !== 'create' || !target || tables.length === 0) return {};
  return { probeTables: { keyspace: target, tables: [...new Set(tables)] } };
}

/** The first line of an OpenSSL error without its `error:05800074:x509 certificate routines::` code prefix. */
const opensslText = (e: unknown) => oneLine(e).replace(/^error:[0-9A-F]+:[^:]*::/i, '');

/**
 * Loads the TLS material of one side (`vtctld`, `mysql`) into a secure context, as the TLS layer will, so that a CA,
 * certificate or key that is not PEM, or a key that is not the certificate's, is one usage line (exit 2) before any
 * network I/O instead of an internal error at the first call. Nothing of a file's content is shown.
 */
function validateTls(side: string, t: { ca?: Buffer; cert?: Buffer; key?: Buffer }): void {
  if (t.ca !== undefined) {
    try {
      createSecureContext({ ca: t.ca });
    } catch (e) {
      throw new UsageError(`--${side}-tls-ca is not a usable PEM CA certificate: ${opensslText(e)}`);
    }
  }
  if (t.cert === undefined || t.key === undefined) return;
  try {
    createSecureContext({ cert: t.cert });
  } catch (e) {
    throw new UsageError(`--${side}-tls-cert is not a usable PEM certificate: ${opensslText(e)}`);
  }
  try {
    createSecureContext({ cert: t.cert, key: t.key });
  } catch (e) {
    const text = opensslText(e);
    throw new UsageError(
      /key values mismatch/i.test(text)
        ? `--${side}-tls-cert and --${side}-tls-key do not match: the key is not the certificate's private key`
        : `--${side}-tls-key is not a usable PEM private key: ${text}`,
    );
  }
}

/** Collection options from the settings (reads TLS files; no network). */
export function collectOptions(s: Settings): CollectOptions {
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
    validateTls(name, t);
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
    keyspaces: collectedKeyspaces(s),
    ...probeTables(s),
    workflows: get<string[]>(s, 'workflows') ?? [],
    concurrency: get<number>(s, 'concurrency')!,
    timeoutMs,
    deadlineMs: get<number>(s, 'deadline')!,
    via: get<string>(s, 'via') === 'vtctld' ? 'vtctld' : 'mysql',
    mysql: {
      user: get<string>(s, 'mysql.user')!,
      password: get<string>(s, 'mysql.password') ?? '',
      ...(wantTls(my) ? { ssl: myTls } : {}),
    },
    filteredUser: get<string>(s, 'mysql.filteredUser')!,
    ...(get<boolean>(s, 'mysql.grantsViaVtctld') === true ? { grantsViaVtctld: true } : {}),
  };
}

/** The checks' options (thresholds, --only/--skip, severities) from the settings. */
export function checkOptions(s: Settings): CheckOptions {
  const severities: Record<string, Severity> = {};
  for (const [id, setting] of s.severities) severities[id] = setting.value;
  const version = s.values.get('vitessVersion') as Setting<string> | undefined;
  const action = actionRequest(s);
  const maxLagMs = get<number>(s, 'thresholds.maxLag')!;
  return withDefaults({
    action,
    // Whole seconds, truncated as Vitess truncates --max-replication-lag-allowed (int64(d.Seconds())).
    maxLagSeconds: Math.floor(maxLagMs / 1000),
    ...(maxLagMs % 1000 !== 0 ? { maxLagGiven: maxLagMs < 1000 ? `${maxLagMs}ms` : `${maxLagMs / 1000}s` } : {}),
    only: get<string[]>(s, 'only') ?? [],
    skip: get<string[]>(s, 'skip') ?? [],
    severities,
    ...(version !== undefined ? { vitess: givenVitessVersions(version.value, version.source.kind) } : {}),
  });
}

/**
 * The reports to write. `format` and `output` pair up, so they are one unit: when the command line gives either,
 * the config file's `format` and `output` are both ignored.
 */
export function reportPlans(s: Settings): ReportPlan[] {
  const fmt = s.values.get('format');
  const out = s.values.get('output');
  const fromFlags = fmt?.source.kind === 'flag' || out?.source.kind === 'flag';
  const pick = (v: Setting<unknown> | undefined) =>
    v === undefined || (fromFlags && v.source.kind !== 'flag') ? [] : (v.value as string[]);
  return planReports(pick(fmt), pick(out));
}

/** Which actions take which action options (vtctldclient's flags of those commands). */
const ACTION_OPTION_SCOPE: Readonly<Record<string, readonly Action[]>> = {
  tabletTypes: ['switch', 'reverse', 'mirror', 'create'],
  keepData: ['complete', 'cancel'],
  renameTables: ['complete'],
  initializeTargetSequences: ['switch'],
  targetKeyspace: ['create'],
  sourceKeyspace: ['create'],
  tables: ['create'],
  allTables: ['create'],
  excludeTables: ['create'],
  sourceShards: ['create'],
  targetShards: ['create'],
  cells: ['switch', 'create'],
};

/** `--action` and its options; an option given for an action that does not take it is a usage error (exit 2). */
export function actionRequest(s: Settings): ActionRequest {
  const action = (get<string>(s, 'action') ?? 'switch') as Action;
  for (const [key, actions] of Object.entries(ACTION_OPTION_SCOPE)) {
    const v = s.values.get(key);
    if (v === undefined || v.source.kind === 'default' || actions.includes(action)) continue;
    if (v.value === false) continue;
    throw new UsageError(
      `${describeSource(v.source)} applies to --action ${actions.join(', ')}, not --action ${action}`,
    );
  }
  const types = get<TabletTypeName[]>(s, 'tabletTypes');
  return {
    action,
    tabletTypes: types !== undefined && types.length > 0 ? types : null,
    keepData: get<boolean>(s, 'keepData') === true,
    renameTables: get<boolean>(s, 'renameTables') === true,
    ...(get<boolean>(s, 'initializeTargetSequences') === true ? { initializeTargetSequences: true } : {}),
    ...(action === 'switch' ? switchCells(s) : {}),
    ...(action === 'create' ? { create: createRequest(s) } : {}),
  };
}

/** `--cells` as vtctldclient's ParseCells takes them (trimmed, empty names dropped), deduplicated. */
function cellsOf(s: Settings): string[] {
  return [...new Set((get<string[]>(s, 'cells') ?? []).map((c) => c.trim()).filter((c) => c !== ''))];
}

/** SwitchTraffic `--cells`: absent when not given (every cell). */
function switchCells(s: Settings): { cells?: readonly string[] } {
  const cells = cellsOf(s);
  return cells.length > 0 ? { cells } : {};
}

/** `--action create` names one workflow (`--workflow`) and the keyspace it is created in (`--target-keyspace`). */
function createRequest(s: Settings): CreateRequest {
  const workflows = get<string[]>(s, 'workflows') ?? [];
  if (workflows.length !== 1)
    throw new UsageError('--action create needs exactly one --workflow: the name of the workflow to create');
  const targetKeyspace = get<string>(s, 'targetKeyspace');
  if (!targetKeyspace) throw new UsageError('--action create needs --target-keyspace');
  const sourceShards = [...new Set(get<string[]>(s, 'sourceShards') ?? [])];
  const targetShards = [...new Set(get<string[]>(s, 'targetShards') ?? [])];
  // vtctldclient's ParseCells only trims each name (common/utils.go); vtctld does not check them against the topo.
  const cellList = cellsOf(s);
  const cells = cellList.length > 0 ? { cells: cellList } : {};
  if (targetShards.length > 0) {
    // Reshard create (vtctldclient Reshard create requires both shard lists; it takes no table selection).
    if (sourceShards.length === 0) throw new UsageError('--target-shards (Reshard create) needs --source-shards');
    for (const key of ['sourceKeyspace', 'tables', 'allTables', 'excludeTables']) {
      const v = s.values.get(key);
      if (v !== undefined && v.source.kind !== 'default' && v.value !== false)
        throw new UsageError(
          `${describeSource(v.source)} applies to MoveTables create, not Reshard create (--target-shards)`,
        );
    }
    return { workflow: workflows[0]!, targetKeyspace, reshard: { sourceShards, targetShards }, ...cells };
  }
  if (sourceShards.length > 0)
    throw new UsageError('--source-shards without --target-shards: a partial MoveTables create is not judged yet');
  const sourceKeyspace = get<string>(s, 'sourceKeyspace');
  if (!sourceKeyspace) throw new UsageError('--action create needs --source-keyspace');
  // vtctldclient's MoveTables create refuses these before it calls vtctld (movetables/create.go PreRunE).
  const tables = [...new Set(get<string[]>(s, 'tables') ?? [])];
  const all = get<boolean>(s, 'allTables') === true;
  const exclude = [...new Set(get<string[]>(s, 'excludeTables') ?? [])];
  if (tables.length === 0 && !all)
    throw new UsageError(
      '--action create needs --tables or --all-tables (vtctldclient: tables or all-tables are required to specify which tables to move)',
    );
  if (tables.length > 0 && all) throw new UsageError('--tables and --all-tables are mutually exclusive');
  if (exclude.length > 0 && !all) throw new UsageError('--exclude-tables requires --all-tables');
  return {
    workflow: workflows[0]!,
    targetKeyspace,
    sourceKeyspace,
    tables: all ? 'all' : tables,
    ...(exclude.length > 0 ? { excludeTables: exclude } : {}),
    ...cells,
  };
}
