/**
 * vtctldclient output with streams (`vtctldclient GetWorkflows --show-all KEYSPACE`, `Workflow show`, `MoveTables|
 * Reshard show` and `status`; which files are accepted is decided in `vtctldclient-json.ts`) → Readout, so that
 * `check --workflows-json` runs the same model builder and checks as a live run. Pure: no I/O, no clock.
 *
 * Input: protojson with proto field names, as vtctldclient prints it today; also accepted,
 * for v17-era and hand-edited output: enum numbers instead of names (incl. the `MASTER`/`BATCH` aliases), int64 as
 * JSON numbers or strings, missing keys and `null` as zero/empty, lowerCamel keys (`shardStreams`), unknown keys
 * ignored. A `status` file (WorkflowStatusResponse) carries neither filters nor timestamps nor the workflow's name:
 * its streams are read with the one `--workflow` given, and the readout lacks `streamDetails`.
 *
 * Time: each file is judged as of the moment vtctld printed it, recovered from its own `max_v_replication_lag`;
 * when several files were printed at different times, each file's timestamps are moved to the newest one, so no lag
 * ever comes from the difference between two files' capture times. A stream's transaction lag is never taken above
 * the workflow's `max_v_replication_transaction_lag`: vtctld computed it with the heartbeat time, which the file
 * does not show (`vitessio/vitess:go/vt/vtctl/workflow/workflows.go`; a copying workflow prints MaxInt64).
 *
 * What the file carries, and how it maps back to sidecar rows:
 * - one `sidecars[]` entry per `shard_streams` key `<target shard>/<primary alias>`, streams merged over workflows;
 * - `binlog_source` (a JSON object here) → prototext with {@link binlogSourceToText};
 * - `position` is printed with `Position.String()`, i.e. WITHOUT flavor. Decision: it is `MariaDB/…` when the text
 *   parses as a MariaDB GTID set (`domain-server-seq[,…]`) and not as a MySQL56 one, `FilePos/…` when it parses as
 *   neither but as a file position (`file:pos`), and `MySQL56/…` otherwise (Vitess's default flavor; a position that
 *   parses as nothing is kept as MySQL56 so that the model reports it unparsable). `stop_position` is raw (kept);
 * - `state` is the DISPLAYED state (`getStreamState`); the stored one is recovered so that the model's
 *   `displayState` gives the same value back: `Copying` with `copy_states` → `Running` (+ those copy_state rows),
 *   `Copying` without → `Copying`; `Error` whose message contains "error" → `Running` (the controller retries; the
 *   message alone makes it Error), else stored `Error`; `Lagging` → `Running`; anything else as shown;
 * - `copy_states` → copy_state rows, `logs` → vreplication_log rows (`log_fetch_error` → a failed log read).
 *
 * What the file does NOT carry, recorded in `readout.lacks` so that checks needing it are skipped with a reason
 * rather than raising `unreachable` false alarms: `topology` (keyspace/shard/routing records: the shard records here
 * are synthesized from the target shards with streams and the source shards the workflow names), `tablets`,
 * `fullStatus`, `vschema`. The resharding journal cannot be read from the file either; it is recorded as empty (the
 * checks that read it need the topology and are skipped).
 */
import type {
  CopyStateRow,
  ReleaseHint,
  TableCopyProgressRecord,
  KeyspaceRecord,
  Readout,
  ShardRecord,
  TabletControlRecord,
  TabletSidecarRead,
  VReplicationLogRow,
  VReplicationRow,
  VtctldStreamRecord,
  VtctldWorkflowRecord,
} from '../readout.js';
import { printable, stripBom } from '../text.js';
import { READOUT_VERSION, readFailed, readOk } from '../readout.js';
import { binlogSourceToText, TABLET_TYPE, type BinlogSource, type Filter, type Rule } from '../vitess/binlog-source.js';
import { WORKFLOW_SUB_TYPES, WORKFLOW_TYPES } from '../vitess/enums.js';
import { parseKeyRange } from '../vitess/keyrange.js';
import { parseGtidSet } from '../vitess/position.js';
import { byCodeUnit } from '../text.js';
import { compareShardNames } from '../vitess/keyrange.js';
import { classifyVtctldclientJson, NotWorkflowsJsonError } from './vtctldclient-json.js';

/** A GetWorkflows JSON file that cannot be used; the message is one line. */
export class WorkflowsJsonError extends Error {}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

/** `a_b_c` → `aBC`-style lowerCamel, as protojson writes without UseProtoNames. */
const camel = (k: string) => k.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

/** A field by proto name, or its lowerCamel JSON name; `null` and absent are `undefined`. */
function field(o: Obj, name: string): unknown {
  const v = name in o ? o[name] : o[camel(name)];
  return v === null ? undefined : v;
}

function fail(path: string, why: string): never {
  throw new WorkflowsJsonError(`${path}: ${why}`);
}

function str(o: Obj, name: string, path: string): string {
  const v = field(o, name);
  if (v === undefined) return '';
  if (typeof v !== 'string') fail(`${path}.${name}`, `expected a string, got ${JSON.stringify(v)}`);
  return v;
}

function bool(o: Obj, name: string, path: string): boolean {
  const v = field(o, name);
  if (v === undefined) return false;
  if (typeof v !== 'boolean') fail(`${path}.${name}`, `expected true or false, got ${JSON.stringify(v)}`);
  return v;
}

/** int64 as a JSON string or number (protojson writes strings, encoding/json numbers); absent = `def`. */
function int<D extends number | undefined | null>(o: Obj, name: string, path: string, def: D): number | D {
  const v = field(o, name);
  if (v === undefined) return def;
  const n = typeof v === 'string' && /^-?\d+$/.test(v.trim()) ? Number(v.trim()) : typeof v === 'number' ? v : NaN;
  if (!Number.isSafeInteger(n)) fail(`${path}.${name}`, `expected an integer, got ${JSON.stringify(v)}`);
  return n;
}

function obj(o: Obj, name: string, path: string): Obj | undefined {
  const v = field(o, name);
  if (v === undefined) return undefined;
  if (!isObj(v)) fail(`${path}.${name}`, `expected an object, got ${JSON.stringify(v).slice(0, 40)}`);
  return v;
}

function arr(o: Obj, name: string, path: string): unknown[] {
  const v = field(o, name);
  if (v === undefined) return [];
  if (!Array.isArray(v)) fail(`${path}.${name}`, `expected an array, got ${JSON.stringify(v).slice(0, 40)}`);
  return v;
}

function strings(o: Obj, name: string, path: string): string[] {
  return arr(o, name, path).map((v, i) =>
    typeof v === 'string' ? v : fail(`${path}.${name}[${i}]`, `expected a string, got ${JSON.stringify(v)}`),
  );
}

/** An enum by name or number; `names[n]` names number n. Unknown numbers are an error. */
function enumValue(o: Obj, name: string, path: string, names: readonly string[], def: string): string {
  const v = field(o, name);
  if (v === undefined) return def;
  if (typeof v === 'number' || (typeof v === 'string' && /^\d+$/.test(v))) {
    const n = Number(v);
    return names[n] ?? fail(`${path}.${name}`, `unknown enum number ${n}`);
  }
  if (typeof v === 'string') return v;
  return fail(`${path}.${name}`, `expected an enum name or number, got ${JSON.stringify(v)}`);
}

/** `topodata.TabletType` canonical name (aliases folded) from a name or number. */
function tabletTypeName(v: unknown, path: string): string {
  if (typeof v === 'number' || (typeof v === 'string' && /^\d+$/.test(v))) {
    const n = Number(v);
    const hit = TABLET_TYPE.values.find(([, num]) => num === n);
    return hit ? hit[0] : fail(path, `unknown tablet type ${n}`);
  }
  if (typeof v !== 'string') return fail(path, `expected a tablet type, got ${JSON.stringify(v)}`);
  const up = v.toUpperCase();
  return up === 'MASTER' ? 'PRIMARY' : up === 'BATCH' ? 'RDONLY' : up;
}

/** Seconds of a `vttime.Time` (`{seconds, nanoseconds}`); absent = 0. */
function seconds(o: Obj, name: string, path: string): number {
  const t = obj(o, name, path);
  return t === undefined ? 0 : int(t, 'seconds', `${path}.${name}`, 0);
}

function base64Hex(v: unknown, path: string): string {
  if (v === undefined || v === null || v === '') return '';
  if (typeof v !== 'string' || !/^[A-Za-z0-9+/_-]*={0,2}$/.test(v))
    fail(path, `expected base64 bytes, got ${JSON.stringify(v)}`);
  return Buffer.from(v, 'base64').toString('hex');
}

function mapOf<T>(o: Obj, name: string, path: string, each: (v: unknown, p: string) => T): Record<string, T> {
  const m = obj(o, name, path) ?? {};
  const out: Record<string, T> = {};
  for (const k of Object.keys(m).sort()) out[k] = each(m[k], `${path}.${name}.${k}`);
  return out;
}

function toRule(v: unknown, path: string): Rule {
  if (!isObj(v)) fail(path, 'expected an object');
  return {
    match: str(v, 'match', path),
    filter: str(v, 'filter', path),
    convertEnumToText: mapOf(v, 'convert_enum_to_text', path, (x, p) =>
      typeof x === 'string' ? x : fail(p, 'expected a string'),
    ),
    convertCharset: mapOf(v, 'convert_charset', path, (x, p) => {
      if (!isObj(x)) fail(p, 'expected an object');
      return { fromCharset: str(x, 'from_charset', p), toCharset: str(x, 'to_charset', p) };
    }),
    sourceUniqueKeyColumns: str(v, 'source_unique_key_columns', path),
    targetUniqueKeyColumns: str(v, 'target_unique_key_columns', path),
    sourceUniqueKeyTargetColumns: str(v, 'source_unique_key_target_columns', path),
    convertIntToEnum: mapOf(v, 'convert_int_to_enum', path, (x, p) =>
      typeof x === 'boolean' ? x : fail(p, 'expected true or false'),
    ),
    forceUniqueKey: str(v, 'force_unique_key', path),
  };
}

/** `binlogdata.BinlogSource` from its protojson object. */
export function binlogSourceFromJson(v: unknown, path = 'binlog_source'): BinlogSource {
  if (!isObj(v)) fail(path, 'expected an object');
  const f = obj(v, 'filter', path);
  const kr = obj(v, 'key_range', path);
  const filter: Filter | null =
    f === undefined
      ? null
      : {
          rules: arr(f, 'rules', `${path}.filter`).map((r, i) => toRule(r, `${path}.filter.rules[${i}]`)),
          fieldEventMode: enumValue(
            f,
            'field_event_mode',
            `${path}.filter`,
            ['ERR_ON_MISMATCH', 'BEST_EFFORT'],
            'ERR_ON_MISMATCH',
          ) as Filter['fieldEventMode'],
          workflowType: String(int(f, 'workflow_type', `${path}.filter`, 0)),
          workflowName: str(f, 'workflow_name', `${path}.filter`),
        };
  const tt = field(v, 'tablet_type');
  return {
    keyspace: str(v, 'keyspace', path),
    shard: str(v, 'shard', path),
    tabletType: tt === undefined ? 'UNKNOWN' : tabletTypeName(tt, `${path}.tablet_type`),
    keyRange:
      kr === undefined
        ? null
        : {
            start: base64Hex(field(kr, 'start'), `${path}.key_range.start`),
            end: base64Hex(field(kr, 'end'), `${path}.key_range.end`),
          },
    tables: strings(v, 'tables', path),
    filter,
    onDdl: enumValue(v, 'on_ddl', path, ['IGNORE', 'STOP', 'EXEC', 'EXEC_IGNORE'], 'IGNORE') as BinlogSource['onDdl'],
    externalMysql: str(v, 'external_mysql', path),
    stopAfterCopy: bool(v, 'stop_after_copy', path),
    externalCluster: str(v, 'external_cluster', path),
    sourceTimeZone: str(v, 'source_time_zone', path),
    targetTimeZone: str(v, 'target_time_zone', path),
    unknownFields: [],
  };
}

/** Re-adds the flavor that `Position.String()` dropped (see the module comment for the rule). */
export function positionWithFlavor(text: string): string {
  if (text === '') return '';
  if (/^(MySQL56|MariaDB|FilePos)\//.test(text)) return text;
  const parses = (flavor: 'MySQL56' | 'MariaDB' | 'FilePos') => {
    try {
      parseGtidSet(text, flavor);
      return true;
    } catch {
      return false;
    }
  };
  if (parses('MySQL56')) return `MySQL56/${text}`;
  if (parses('MariaDB')) return `MariaDB/${text}`;
  if (parses('FilePos')) return `FilePos/${text}`;
  return `MySQL56/${text}`;
}

/** The stored state behind a displayed one (see the module comment). */
export function storedState(displayed: string, message: string, copyTables: number): string {
  switch (displayed) {
    case 'Copying':
      return copyTables > 0 ? 'Running' : 'Copying';
    case 'Error':
      return message.toLowerCase().includes('error') ? 'Running' : 'Error';
    case 'Lagging':
      return 'Running';
    default:
      return displayed;
  }
}

const aliasOf = (a: unknown, path: string): string => {
  if (typeof a === 'string') return a;
  if (!isObj(a)) fail(path, 'expected a tablet alias');
  const cell = str(a, 'cell', path);
  const uid = int(a, 'uid', path, 0);
  return `${cell}-${String(uid).padStart(10, '0')}`;
};

const COLUMNS = [
  'id',
  'workflow',
  'source',
  'pos',
  'stop_pos',
  'cell',
  'tablet_types',
  'time_updated',
  'transaction_timestamp',
  'state',
  'message',
  'db_name',
  'rows_copied',
  'tags',
  'workflow_type',
  'workflow_sub_type',
  'time_throttled',
  'component_throttled',
  'defer_secondary_keys',
] as const;

interface SidecarAcc {
  alias: string;
  keyspace: string;
  shard: string;
  dbName: string;
  rows: VReplicationRow[];
  copy: CopyStateRow[];
  logs: VReplicationLogRow[];
  logError: string | null;
  isPrimaryServing: boolean;
  tabletControls: TabletControlRecord[];
}

/** vtctld's MaxInt64 for a copying workflow's transaction lag (or any int64 beyond a double's range) is null. */
function lagOf(o: Obj, name: string, path: string): number | null {
  const v = field(o, name);
  if (typeof v === 'string' && /^\d{16,}$/.test(v.trim()) && !Number.isSafeInteger(Number(v))) return null;
  return int(o, name, path, null);
}

/**
 * The streams of a `MoveTables|Reshard status` file as GetWorkflows workflow objects (`vitessio/vitess:
 * go/vt/vtctl/workflow/server.go` `WorkflowStatus`): key `<target keyspace>/<shard>`, `source_shard` =
 * `<keyspace>/<shard>`, `status` = the displayed state, `info` = the message when the state is Error. The file does
 * not name its workflow, so `--workflow` must, once. Its type is Reshard when every source keyspace is the target
 * keyspace, MoveTables otherwise (the only two workflow commands with a `status`).
 *
 * `table_copy_state` is present only while some stream still has `_vt.copy_state` rows (`GetCopyProgress` returns
 * nothing once no table is left, `vitessio/vitess` `go/vt/vtctl/workflow/server.go:1848 @v0.24.4`). Up to v23 it
 * lists exactly the tables still being copied; from v24 it lists every table of the workflow with a `phase`
 * (`COMPLETE` for those no stream copies any more, `server.go:1934-1943 @v0.24.4`). The tables not COMPLETE become
 * the copy state of the streams shown Copying; when none is shown Copying (the file shows the stored state, e.g.
 * Running, of a stream still in its copy phase), of every Running stream, since the file does not say which stream
 * holds them and Vitess refuses the switch while any does.
 */
function statusWorkflows(status: Obj, label: string, names: readonly string[]): StatusFile {
  if (names.length !== 1)
    fail(label, 'is MoveTables/Reshard status output, which does not name its workflow: give --workflow NAME once');
  const progress = tableCopyProgress(obj(status, 'table_copy_state', label) ?? {}, `${label}: table_copy_state`);
  const copying = progress.filter((t) => t.phase !== 'COMPLETE').map((t) => t.table);
  const anyCopying = Object.values(obj(status, 'shard_streams', label) ?? {}).some(
    (ss) => isObj(ss) && Array.isArray(ss.streams) && ss.streams.some((st) => isObj(st) && st.status === 'Copying'),
  );
  const holdsCopy = (state: string) => (anyCopying ? state === 'Copying' : state === 'Running');
  const shardStreams = obj(status, 'shard_streams', label) ?? {};
  const out: Obj = {};
  const targetKeyspaces = new Set<string>();
  const sources = new Map<string, Set<string>>();
  for (const key of Object.keys(shardStreams).sort()) {
    const spath = `${label}: shard_streams["${key}"]`;
    const ss = shardStreams[key];
    if (!isObj(ss)) fail(spath, 'expected an object');
    const slash = key.indexOf('/');
    if (slash < 0) fail(spath, 'key is not <keyspace>/<shard>');
    targetKeyspaces.add(key.slice(0, slash));
    const shard = key.slice(slash + 1);
    const streams = arr(ss, 'streams', spath).map((st, i) => {
      const p = `${spath}.streams[${i}]`;
      if (!isObj(st)) fail(p, 'expected an object');
      const from = str(st, 'source_shard', p);
      const cut = from.indexOf('/');
      const [ks, sh] = cut < 0 ? ['', from] : [from.slice(0, cut), from.slice(cut + 1)];
      if (ks !== '') {
        let set = sources.get(ks);
        if (!set) sources.set(ks, (set = new Set()));
        set.add(sh);
      }
      const state = str(st, 'status', p);
      return {
        id: field(st, 'id') ?? 0,
        shard,
        tablet: field(st, 'tablet') ?? null,
        binlog_source: { keyspace: ks, shard: sh },
        position: str(st, 'position', p),
        state,
        message: state === 'Error' ? str(st, 'info', p) : '',
        copy_states: holdsCopy(state) ? copying.map((table) => ({ table })) : [],
      };
    });
    const first = streams[0]?.tablet;
    const alias = first === undefined || first === null ? 'unknown' : aliasOf(first, `${spath}.tablet`);
    out[`${shard}/${alias}`] = { streams };
  }
  if (targetKeyspaces.size !== 1)
    fail(label, `is status output for ${targetKeyspaces.size} target keyspaces; expected one`);
  const target = [...targetKeyspaces][0]!;
  const sourceKeyspaces = [...sources.keys()].sort();
  const reshard = sourceKeyspaces.length === 1 && sourceKeyspaces[0] === target;
  const workflows = [
    {
      name: names[0],
      source: { keyspace: sourceKeyspaces[0] ?? '', shards: [...(sources.get(sourceKeyspaces[0] ?? '') ?? [])].sort() },
      target: { keyspace: target, shards: Object.keys(out).map((k) => k.slice(0, k.indexOf('/'))) },
      workflow_type: reshard ? 'Reshard' : 'MoveTables',
      shard_streams: out,
    },
  ];
  return {
    workflows,
    progress: progress.length > 0 ? { [`${target}/${names[0]}`]: progress } : {},
    hints: progress.some((t) => t.phase !== undefined)
      ? [{ since: 24, evidence: 'gives each table a copy phase (v24)' }]
      : [],
  };
}

/** What one status file yields: its workflow, its tables' copy progress and what it shows of its release. */
interface StatusFile {
  readonly workflows: Obj[];
  readonly progress: Record<string, TableCopyProgressRecord[]>;
  readonly hints: ReleaseHint[];
}

/** vtctldata `TableCopyPhase` by number (`proto/vtctldata.proto:2189-2194 @v0.24.4`). */
const TABLE_COPY_PHASES = ['UNKNOWN', 'NOT_STARTED', 'IN_PROGRESS', 'COMPLETE'] as const;

/** `table_copy_state` (table → rows and bytes copied, v24 `phase`), sorted by table. */
function tableCopyProgress(state: Obj, path: string): TableCopyProgressRecord[] {
  return Object.keys(state)
    .sort(byCodeUnit)
    .map((table) => {
      const t = state[table];
      const p = `${path}["${table}"]`;
      if (!isObj(t)) fail(p, 'expected an object');
      const pct = field(t, 'rows_percentage');
      const rowsPercentage = typeof pct === 'number' && Number.isFinite(pct) ? pct : 0;
      const rawPhase = field(t, 'phase');
      const phase =
        typeof rawPhase === 'number'
          ? TABLE_COPY_PHASES[rawPhase]
          : TABLE_COPY_PHASES.find((name) => name === rawPhase);
      if (rawPhase !== undefined && phase === undefined)
        fail(`${p}.phase`, `expected a TableCopyPhase, got ${JSON.stringify(rawPhase).slice(0, 40)}`);
      return {
        table,
        rowsCopied: int(t, 'rows_copied', p, 0),
        rowsTotal: int(t, 'rows_total', p, 0),
        rowsPercentage,
        ...(phase !== undefined ? { phase } : {}),
      };
    });
}

/**
 * The workflows of one file (see `vtctldclient-json.ts` for what is accepted), whether it was a status file, the copy
 * progress it shows and what it shows of its release.
 */
function workflowsOf(input: WorkflowsJsonInput, names: readonly string[]): StatusFile & { fromStatus: boolean } {
  let c: ReturnType<typeof classifyVtctldclientJson>;
  try {
    c = classifyVtctldclientJson(input.data);
  } catch (e) {
    if (e instanceof NotWorkflowsJsonError) fail(input.label, e.message);
    throw e;
  }
  if (c.kind === 'status') return { ...statusWorkflows(c.status, input.label, names), fromStatus: true };
  // Workflow.options exists from v20 (`proto/vtctldata.proto:238 @v0.20.8`); protojson omits it when empty, so only
  // its presence tells.
  const withOptions = c.workflows.some((wf) => isObj(field(wf, 'options')));
  return {
    workflows: [...c.workflows],
    fromStatus: false,
    progress: {},
    hints: withOptions ? [{ since: 20, evidence: 'gives workflows options (v20)' }] : [],
  };
}

/**
 * When vtctld printed a file, in Unix seconds (0: unknown): `max_v_replication_lag` is the largest `now −
 * time_updated` over a workflow's streams, so vtctld's now is the oldest `time_updated` plus that lag, to the second;
 * without it, the newest `time_updated` (a lower bound: lags are then never overstated).
 */
function printedAt(workflows: readonly Obj[], label: string): number {
  let at = 0;
  let newest = 0;
  for (const [wi, wf] of workflows.entries()) {
    const path = `${label}: workflows[${wi}]`;
    const times: number[] = [];
    const ss = obj(wf, 'shard_streams', path) ?? {};
    for (const v of Object.values(ss)) {
      if (!isObj(v)) continue;
      for (const st of arr(v, 'streams', path)) {
        if (!isObj(st)) continue;
        const t = seconds(st, 'time_updated', path);
        if (t > 0) times.push(t);
      }
    }
    newest = Math.max(newest, ...times);
    const lag = lagOf(wf, 'max_v_replication_lag', path);
    if (times.length > 0 && lag !== null && lag >= 0) at = Math.max(at, Math.min(...times) + lag);
  }
  return at > 0 ? at : newest;
}

/**
 * Warnings about how a file was captured, one line each: `vtctldclient GetWorkflows` without `--show-all` leaves
 * Stopped (and so FROZEN) streams out (`vitessio/vitess:go/vt/vtctl/workflow/workflows.go` `fetchWorkflowsByShard`:
 * `ActiveOnly` excludes the Stopped state), and those are the streams that block a cutover.
 */
export function workflowsJsonWarnings(inputs: readonly WorkflowsJsonInput[]): string[] {
  const out: string[] = [];
  for (const input of inputs) {
    let c: ReturnType<typeof classifyVtctldclientJson>;
    try {
      c = classifyVtctldclientJson(input.data);
    } catch {
      continue;
    }
    if (c.kind !== 'workflows') continue;
    let stopped = false;
    let missing = '';
    for (const wf of c.workflows) {
      const ss = isObj(wf.shard_streams) ? wf.shard_streams : isObj(wf.shardStreams) ? wf.shardStreams : {};
      const shards = new Set(Object.keys(ss).map((k) => k.slice(0, k.indexOf('/'))));
      for (const v of Object.values(ss))
        if (isObj(v) && Array.isArray(v.streams))
          for (const st of v.streams) if (isObj(st) && st.state === 'Stopped') stopped = true;
      const opts = isObj(wf.options) ? wf.options : {};
      const created = Array.isArray(opts.shards) ? opts.shards.filter((s): s is string => typeof s === 'string') : [];
      const lacking = created.filter((s) => !shards.has(s));
      if (missing === '' && lacking.length > 0)
        missing = `workflow ${String(wf.name)} has no stream on ${lacking.join(', ')}, target shards it was created for`;
    }
    if (missing !== '')
      out.push(
        `${input.label}: ${missing}: captured without --show-all? Stopped streams are left out; capture with \`vtctldclient GetWorkflows --show-all KEYSPACE\``,
      );
    else if (!stopped)
      out.push(
        `${input.label}: no stream in it is Stopped; \`vtctldclient GetWorkflows\` leaves Stopped and FROZEN streams out unless --show-all is given: if it was captured that way, capture it again with --show-all`,
      );
  }
  return out;
}

export interface WorkflowsJsonInput {
  /** Names the file in messages and in `endpoint`. */
  readonly label: string;
  /** The parsed JSON. */
  readonly data: unknown;
}

/**
 * Converts one or more parsed GetWorkflows JSON documents into a readout.
 * `capturedAt`: when vtctld printed the file, recovered from each workflow's `max_v_replication_lag` (vtctld's now
 * minus the oldest stream's `time_updated`); failing that, the newest `time_updated` of any stream (a lower bound:
 * lags are then never overstated); `o.now` only when no stream has a time.
 * @throws WorkflowsJsonError (one line, naming the file and the JSON path) when the input is not GetWorkflows JSON.
 */
export function workflowsJsonToReadout(
  inputs: readonly WorkflowsJsonInput[],
  o: { now: string; toolVersion: string; keyspaces?: readonly string[]; workflows?: readonly string[] },
): Readout {
  const sidecars = new Map<string, SidecarAcc>();
  const vtctld: Record<string, VtctldWorkflowRecord[]> = {};
  const sourceShards = new Map<string, Set<string>>();
  const keyspaces = new Set<string>();
  const files = inputs.map((input) => ({ input, ...workflowsOf(input, o.workflows ?? []) }));
  const fileAt = files.map((f) => printedAt(f.workflows, f.input.label));
  const capturedAt = Math.max(0, ...fileAt);
  for (const [fi, { input, workflows }] of files.entries()) {
    // Every timestamp of this file moves by `shift`, so that lags computed at `capturedAt` are this file's own.
    const at = fileAt[fi]!;
    const shift = at > 0 ? capturedAt - at : 0;
    const moved = (t: number) => (t > 0 ? t + shift : t);
    for (const [wi, wf] of workflows.entries()) {
      const wpath = `${input.label}: workflows[${wi}]`;
      const trxLagBound = lagOf(wf, 'max_v_replication_transaction_lag', wpath);
      const name = str(wf, 'name', wpath);
      if (name === '') fail(wpath, 'a workflow without a name');
      const target = obj(wf, 'target', wpath) ?? {};
      const source = obj(wf, 'source', wpath) ?? {};
      const sourceKeyspace = str(source, 'keyspace', `${wpath}.source`);
      const typeName = enumValue(wf, 'workflow_type', wpath, WORKFLOW_TYPES, 'Materialize');
      const subTypeName = enumValue(wf, 'workflow_sub_type', wpath, WORKFLOW_SUB_TYPES, 'None');
      const typeNum = WORKFLOW_TYPES.indexOf(typeName as never);
      const subNum = WORKFLOW_SUB_TYPES.indexOf(subTypeName as never);
      const shardStreams = obj(wf, 'shard_streams', wpath) ?? {};
      const targetKeyspace = str(target, 'keyspace', `${wpath}.target`);
      const streamRecords: VtctldStreamRecord[] = [];
      for (const key of Object.keys(shardStreams).sort()) {
        const spath = `${wpath}.shard_streams["${key}"]`;
        const ss = shardStreams[key];
        if (!isObj(ss)) fail(spath, 'expected an object');
        const slash = key.indexOf('/');
        if (slash < 0) fail(spath, 'key is not <shard>/<tablet alias>');
        const shard = key.slice(0, slash);
        const alias = key.slice(slash + 1);
        const streams = arr(ss, 'streams', spath);
        for (const [i, st] of streams.entries()) {
          if (!isObj(st)) fail(`${spath}.streams[${i}]`, 'expected an object');
        }
        if (targetKeyspace === '')
          fail(`${wpath}.target.keyspace`, 'missing: the target keyspace is needed to place the streams');
        keyspaces.add(targetKeyspace);
        const acc =
          sidecars.get(`${targetKeyspace}/${shard}`) ??
          ({
            alias,
            keyspace: targetKeyspace,
            shard,
            dbName: `vt_${targetKeyspace}`,
            rows: [],
            copy: [],
            logs: [],
            logError: null,
            isPrimaryServing: bool(ss, 'is_primary_serving', spath),
            tabletControls: arr(ss, 'tablet_controls', spath).map((tc, i) => {
              const p = `${spath}.tablet_controls[${i}]`;
              if (!isObj(tc)) fail(p, 'expected an object');
              const tt = field(tc, 'tablet_type');
              return {
                tabletType: tt === undefined ? 'UNKNOWN' : tabletTypeName(tt, `${p}.tablet_type`),
                cells: strings(tc, 'cells', p),
                deniedTables: strings(tc, 'denied_tables', p),
                frozen: bool(tc, 'frozen', p),
              };
            }),
          } satisfies SidecarAcc);
        sidecars.set(`${targetKeyspace}/${shard}`, acc);
        for (const [i, st] of (streams as Obj[]).entries()) {
          const p = `${spath}.streams[${i}]`;
          const id = int(st, 'id', p, 0);
          const bls = binlogSourceFromJson(field(st, 'binlog_source') ?? {}, `${p}.binlog_source`);
          let sourceText: string;
          try {
            sourceText = binlogSourceToText(bls);
          } catch (e) {
            fail(`${p}.binlog_source`, (e as Error).message.split('\n')[0] ?? 'cannot be written as prototext');
          }
          const message = str(st, 'message', p);
          const copyStates = arr(st, 'copy_states', p).map((c, j) => {
            if (!isObj(c)) fail(`${p}.copy_states[${j}]`, 'expected an object');
            return str(c, 'table', `${p}.copy_states[${j}]`);
          });
          const shown = str(st, 'state', p);
          const state = storedState(shown, message, copyStates.length);
          const dbName = str(st, 'db_name', p);
          if (dbName !== '') acc.dbName = dbName;
          const types = arr(st, 'tablet_types', p).map((t, j) => tabletTypeName(t, `${p}.tablet_types[${j}]`));
          const pref = enumValue(st, 'tablet_selection_preference', p, ['ANY', 'INORDER', '', 'UNKNOWN'], 'ANY');
          const throttler = obj(st, 'throttler_status', p);
          const rowsCopied = int(st, 'rows_copied', p, undefined);
          const pos = positionWithFlavor(str(st, 'position', p));
          const stop = str(st, 'stop_position', p);
          const timeUpdated = seconds(st, 'time_updated', p);
          let trxTime = seconds(st, 'transaction_timestamp', p);
          // vtctld's bound (see the module comment): no stream lags more than the workflow's transaction lag.
          const seen = trxTime === 0 || timeUpdated > trxTime ? timeUpdated : trxTime;
          if (trxLagBound !== null && at > 0 && shown !== 'Copying' && at - seen > trxLagBound)
            trxTime = at - trxLagBound;
          const row: VReplicationRow = {
            id,
            workflow: name,
            source: sourceText!,
            pos,
            stop_pos: stop === '' ? null : stop,
            cell: strings(st, 'cells', p).join(','),
            tablet_types: types.length === 0 ? '' : `${pref === 'INORDER' ? 'in_order:' : ''}${types.join(',')}`,
            time_updated: moved(timeUpdated),
            transaction_timestamp: moved(trxTime),
            state,
            message,
            db_name: dbName || acc.dbName,
            ...(rowsCopied !== undefined ? { rows_copied: rowsCopied } : {}),
            tags: strings(st, 'tags', p).join(','),
            workflow_type: typeNum < 0 ? 0 : typeNum,
            workflow_sub_type: subNum < 0 ? 0 : subNum,
            time_throttled: throttler ? moved(seconds(throttler, 'time_throttled', `${p}.throttler_status`)) : 0,
            component_throttled: throttler ? str(throttler, 'component_throttled', `${p}.throttler_status`) : '',
            defer_secondary_keys: bool(wf, 'defer_secondary_keys', wpath) ? 1 : 0,
          };
          acc.rows.push(row);
          for (const t of copyStates) acc.copy.push({ id: acc.copy.length + 1, vrepl_id: id, table_name: t });
          const logError = str(st, 'log_fetch_error', p);
          if (logError !== '') acc.logError = logError;
          for (const [j, l] of arr(st, 'logs', p).entries()) {
            const lp = `${p}.logs[${j}]`;
            if (!isObj(l)) fail(lp, 'expected an object');
            const at = (k: string) => {
              const s = moved(seconds(l, k, lp));
              return s === 0 ? null : new Date(s * 1000).toISOString().replace('T', ' ').slice(0, 19);
            };
            acc.logs.push({
              id: int(l, 'id', lp, 0),
              vrepl_id: int(l, 'stream_id', lp, id),
              type: str(l, 'type', lp),
              state: str(l, 'state', lp),
              message: str(l, 'message', lp),
              created_at: at('created_at'),
              updated_at: at('updated_at'),
              count: int(l, 'count', lp, 1),
            });
          }
          if (bls.keyspace !== '') {
            keyspaces.add(bls.keyspace);
            let set = sourceShards.get(bls.keyspace);
            if (!set) sourceShards.set(bls.keyspace, (set = new Set()));
            if (bls.shard !== '') set.add(bls.shard);
          }
          streamRecords.push({
            id,
            shard,
            tablet: aliasOf(field(st, 'tablet') ?? alias, `${p}.tablet`),
            sourceKeyspace: bls.keyspace,
            sourceShard: bls.shard,
            position: str(st, 'position', p),
            stopPosition: stop,
            state: shown,
            message,
            timeUpdated: moved(timeUpdated) || null,
            transactionTimestamp: moved(trxTime) || null,
            copyStateTables: copyStates,
          });
        }
      }
      if (sourceKeyspace !== '') {
        keyspaces.add(sourceKeyspace);
        let set = sourceShards.get(sourceKeyspace);
        if (!set) sourceShards.set(sourceKeyspace, (set = new Set()));
        for (const s of strings(source, 'shards', `${wpath}.source`)) set.add(s);
      }
      if (targetKeyspace === '') continue;
      (vtctld[targetKeyspace] ??= []).push({
        name,
        sourceKeyspace,
        sourceShards: strings(source, 'shards', `${wpath}.source`),
        targetKeyspace,
        targetShards: strings(target, 'shards', `${wpath}.target`),
        workflowType: typeName,
        workflowSubType: subTypeName,
        maxVReplicationLag: int(wf, 'max_v_replication_lag', wpath, null),
        maxVReplicationTransactionLag: trxLagBound,
        streams: streamRecords,
      });
    }
  }

  // Synthesized topology: a keyspace record per keyspace seen, shard records for target shards with streams and for
  // the source shards named by the workflows (no primary known for those).
  const shardRecs = new Map<string, Map<string, ShardRecord>>();
  const addShard = (ks: string, name: string, rec: Partial<ShardRecord>) => {
    let m = shardRecs.get(ks);
    if (!m) shardRecs.set(ks, (m = new Map()));
    if (m.has(name) && rec.primaryAlias === undefined) return;
    let keyRange: ShardRecord['keyRange'] = null;
    try {
      keyRange = parseKeyRange(name);
    } catch {
      keyRange = null;
    }
    m.set(name, {
      keyspace: ks,
      name,
      keyRange,
      primaryAlias: null,
      isPrimaryServing: true,
      tabletControls: [],
      ...rec,
    });
  };
  for (const [ks, set] of sourceShards) for (const s of set) addShard(ks, s, {});
  for (const acc of sidecars.values())
    addShard(acc.keyspace, acc.shard, {
      primaryAlias: acc.alias,
      isPrimaryServing: acc.isPrimaryServing,
      tabletControls: acc.tabletControls,
    });
  const ksNames = [...keyspaces].sort();
  const keyspaceRecords: KeyspaceRecord[] = ksNames.map((name) => ({
    name,
    keyspaceType: 'NORMAL',
    baseKeyspace: '',
    durabilityPolicy: '',
    sidecarDbName: '',
  }));
  const notInFile = (what: string) =>
    readFailed<never>({
      what,
      where: 'workflows-json',
      reason: 'not in a GetWorkflows JSON file',
      kind: 'not-collected',
    });
  const sidecarReads: TabletSidecarRead[] = [...sidecars.values()]
    .sort((a, b) => byCodeUnit(a.keyspace, b.keyspace) || compareShardNames(a.shard, b.shard))
    .map((acc) => ({
      alias: acc.alias,
      keyspace: acc.keyspace,
      shard: acc.shard,
      endpoint: 'workflows-json',
      sidecarDb: '_vt',
      dbName: acc.dbName,
      columns: readOk([...COLUMNS]),
      vreplication: readOk(acc.rows),
      copyState: readOk(acc.copy),
      vreplicationLog:
        acc.logError === null
          ? readOk(acc.logs)
          : readFailed({ what: 'GetWorkflows logs', where: `${acc.alias} (workflows-json)`, reason: acc.logError }),
      reshardingJournal: readOk([]),
    }));
  return {
    version: READOUT_VERSION,
    tool: { name: 'vtpreflight', version: o.toolVersion },
    capturedAt: capturedAt > 0 ? new Date(capturedAt * 1000).toISOString() : o.now,
    target: { vtctld: null, keyspaces: [...(o.keyspaces ?? [])], workflows: [...(o.workflows ?? [])], via: 'vtctld' },
    topology: {
      keyspaces: readOk(keyspaceRecords),
      shards: Object.fromEntries(ksNames.map((ks) => [ks, readOk([...(shardRecs.get(ks)?.values() ?? [])])])),
      tablets: notInFile('GetTablets'),
      vschemas: Object.fromEntries(ksNames.map((ks) => [ks, notInFile(`GetVSchema ${ks}`)])),
      routingRules: notInFile('GetRoutingRules'),
      shardRoutingRules: notInFile('GetShardRoutingRules'),
    },
    workflows: Object.fromEntries(Object.entries(vtctld).map(([ks, list]) => [ks, readOk(list)])),
    sidecars: sidecarReads,
    fullStatus: {},
    origin: 'workflows-json',
    releaseHints: files.flatMap((f) =>
      f.hints.map((h) => ({ ...h, evidence: `the file ${f.input.label} ${h.evidence}` })),
    ),
    offline: true,
    copyProgress: Object.assign({}, ...files.map((f) => f.progress)),
    lacks: files.some((f) => f.fromStatus)
      ? ['topology', 'tablets', 'fullStatus', 'vschema', 'streamDetails']
      : ['topology', 'tablets', 'fullStatus', 'vschema'],
  };
}

/** Parses the text of one file; bad JSON is a one-line {@link WorkflowsJsonError}. */
export function parseWorkflowsJson(text: string, label: string): WorkflowsJsonInput {
  try {
    return { label, data: JSON.parse(stripBom(text)) as unknown };
  } catch (e) {
    // The parser quotes the text near the error: never print its control characters raw.
    throw new WorkflowsJsonError(
      `${printable(label, 200)}: not JSON: ${printable((e as Error).message.split('\n')[0] ?? '')}`,
    );
  }
}
