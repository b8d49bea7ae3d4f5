/**
 * The scenario generator of the simulated cluster: a deterministic function of a seed and a clock reading that
 * returns a plain {@link SimCluster} — topology records, `GetFullStatus` answers and, per primary, the rows of its
 * sidecar tables in the shapes of `src/readout.ts` — for the demo, scale tests and benchmarks.
 *
 * Everything follows what Vitess itself writes (VITESS.md §1–§4, §7, §10): shard names from `key.GenerateShardRanges`,
 * one Reshard stream per intersecting (target, source) pair (`resharder.go` `createStreams`), Materialize streams from
 * every source shard to every serving target shard with `in_keyrange` filters (`materializer.go`), reference-table
 * streams copied onto Reshard targets, lookup backfills stopped with `Stopped after copy.`, BinlogSource prototext as Go
 * prints it, positions as `MySQL56/<uuid>:1-<n>` GTID sets whose source primaries have executed more than the streams
 * applied and purged less, and timestamps a second or two before `now`.
 *
 * Faults ({@link FaultKind}) are injected on top of a healthy Reshard: each changes the few rows or records a real
 * incident changes, and names the checks that must report it and where ({@link InjectedFault}). Same seed, same `now`,
 * same options → the same cluster, byte for byte (`JSON.stringify`); nothing here reads the clock or does I/O.
 */
import { prng } from './prng.js';
import type {
  CopyStateRow,
  FullStatusRecord,
  KeyspaceRecord,
  ReshardingJournalRow,
  RoutingRuleRecord,
  ShardRecord,
  ShardRoutingRuleRecord,
  TabletControlRecord,
  TabletRecord,
  VReplicationLogRow,
  VReplicationRow,
  VSchemaRecord,
  VSchemaTableRecord,
  VtctldStreamRecord,
  VtctldWorkflowRecord,
} from '../readout.js';
import { KNOWN_VREPLICATION_COLUMNS } from '../sources/sidecar.js';
import { workflowSubTypeNumber, workflowTypeName, workflowTypeNumber } from '../vitess/enums.js';
import type { WorkflowType } from '../model/types.js';

// ---------------------------------------------------------------------------------------------------------------
// Public shapes.

/** What one simulated primary's sidecar database holds: the rows its MySQL-protocol tablet serves. */
export interface SimSidecar {
  readonly alias: string;
  readonly keyspace: string;
  readonly shard: string;
  /** The keyspace's sidecar database (`_vt`). */
  readonly sidecarDb: string;
  /** The tablet's MySQL schema (`vt_<keyspace>`): every row's `db_name`. */
  readonly dbName: string;
  /** Columns of `<sidecarDb>.vreplication` on this server, in table order. */
  readonly columns: readonly string[];
  /** Sorted by id. */
  readonly vreplication: readonly VReplicationRow[];
  readonly copyState: readonly CopyStateRow[];
  /** Sorted by id (oldest first). */
  readonly vreplicationLog: readonly VReplicationLogRow[];
  readonly reshardingJournal: readonly ReshardingJournalRow[];
}

/** A fault the generator injected, with the checks that must report it and where. */
export interface InjectedFault {
  readonly kind: FaultKind;
  /** One sentence, for the demo's legend and test names. */
  readonly description: string;
  readonly keyspace: string;
  readonly shard: string;
  readonly workflow?: string;
  readonly streamId?: number;
  readonly tablet?: string;
  /**
   * Checks that report this fault, at `keyspace`/`shard` (and `workflow` when set), in order of preference: the first
   * is the one whose whole purpose it is; later ones also see it (e.g. a message containing "error" is `stream-error`).
   */
  readonly checks: readonly string[];
}

/**
 * A simulated cluster: everything `startSimCluster` serves. Assignable to `FakeVtctldCluster` once the tablets'
 * `mysqlPort` values are filled in (the generator leaves them 0; the server binds the ports).
 */
export interface SimCluster {
  readonly scenario: string;
  readonly seed: number;
  /** ISO-8601: the clock reading every timestamp is relative to. */
  readonly now: string;
  readonly keyspaces: readonly KeyspaceRecord[];
  /** Sorted by keyspace, then key range. */
  readonly shards: readonly ShardRecord[];
  /** Sorted by alias. */
  readonly tablets: readonly TabletRecord[];
  readonly vschemas: Readonly<Record<string, VSchemaRecord>>;
  readonly routingRules: readonly RoutingRuleRecord[];
  readonly shardRoutingRules: readonly ShardRoutingRuleRecord[];
  /** By tablet alias; `{ error }` makes GetFullStatus fail with that status text. */
  readonly fullStatus: Readonly<Record<string, FullStatusRecord | { readonly error: string }>>;
  /** Vitess's own view (`GetWorkflows`) by target keyspace, computed from the sidecar rows as vtctld would. */
  readonly workflows: Readonly<Record<string, readonly VtctldWorkflowRecord[]>>;
  /** By primary alias: every primary with a MySQL-protocol tablet (unreachable ones included). */
  readonly sidecars: Readonly<Record<string, SimSidecar>>;
  /** Primary aliases whose MySQL port refuses connections. */
  readonly unreachable: readonly string[];
  readonly faults: readonly InjectedFault[];
  readonly stats: {
    readonly keyspaces: number;
    readonly shards: number;
    readonly tablets: number;
    readonly primaries: number;
    readonly streams: number;
  };
}

/** The kinds of fault the generator can inject (each a catalog check's condition, as a real incident leaves it). */
export type FaultKind =
  | 'stream-set-mismatch'
  | 'lagging-stream'
  | 'vstreamer-not-open'
  | 'copy-in-progress'
  | 'stream-error'
  | 'missing-source'
  | 'frozen-workflow'
  | 'binlogs-purged'
  | 'unreachable-primary';

/** Every fault kind, in the order they are injected. */
export const FAULT_KINDS: readonly FaultKind[] = [
  'stream-set-mismatch',
  'lagging-stream',
  'vstreamer-not-open',
  'copy-in-progress',
  'stream-error',
  'missing-source',
  'frozen-workflow',
  'binlogs-purged',
  'unreachable-primary',
];

/** The cluster shapes a scenario starts from. */
export type ScenarioBase = 'reshard' | 'movetables' | 'materialize' | 'lookup';

/** A named scenario (`vtpreflight demo --scenario NAME`). */
export interface ScenarioDefinition {
  readonly name: string;
  readonly description: string;
  readonly base: ScenarioBase;
  /** Shard count of the main keyspace when `--shards` is not given. */
  readonly defaultShards: number;
  readonly faults: readonly FaultKind[];
}

/** Options of {@link generateScenario}. */
export interface ScenarioOptions {
  /** Default 1. */
  readonly seed?: number;
  /** The clock reading timestamps are relative to, in ms since the epoch (default 2026-01-01T00:00:00Z). */
  readonly now?: number;
  /**
   * Shard count of the main keyspace: the Reshard's source shards (targets are twice as many), the MoveTables
   * target, each side of the Materialize (N × N streams), the lookup backfill's owner keyspace. Default: the
   * scenario's.
   */
  readonly shards?: number;
}

/** The scenario `vtpreflight demo` runs when none is named. */
export const DEFAULT_SCENARIO = 'reshard-faults';

/** Smallest `--shards`: a Reshard needs a keyspace with more than one shard to stay interesting. */
export const MIN_SHARDS = 2;
/** Largest `--shards` (a Reshard to 8,192 shards; Materialize stops at 512 × 512). */
export const MAX_SHARDS = 4096;

const FAULT_DESCRIPTIONS: Readonly<Record<FaultKind, string>> = {
  'stream-set-mismatch': "another workflow's stream is missing on one of the Reshard's source shards",
  'lagging-stream': 'one Reshard stream has applied nothing for 7 minutes',
  'vstreamer-not-open': 'a source replica whose VStreamer is not open: the streams reading it retry with an RPC error',
  'copy-in-progress': 'one Reshard stream is still copying a table',
  'stream-error': 'one Reshard stream stopped in state Error on a duplicate key',
  'missing-source': 'one Reshard stream has a source with no filter, tables or key range',
  'frozen-workflow': 'a MoveTables into the keyspace already switched writes (FROZEN streams, routing rules moved)',
  'binlogs-purged': "one Reshard stream is behind what its source's binary logs still hold",
  'unreachable-primary': "one target primary's MySQL refuses connections and its tablet does not answer",
};

/** Every named scenario, the default first. */
export const SCENARIOS: readonly ScenarioDefinition[] = [
  {
    name: DEFAULT_SCENARIO,
    description:
      'Reshard of a 16-shard keyspace to 32 shards with three realistic faults: a stream-set mismatch on a source shard, a lagging stream, a source replica whose VStreamer is not open',
    base: 'reshard',
    defaultShards: 16,
    faults: ['stream-set-mismatch', 'lagging-stream', 'vstreamer-not-open'],
  },
  {
    name: 'reshard',
    description: 'a healthy Reshard N → 2N, with Materialize and reference-table workflows writing into the keyspace',
    base: 'reshard',
    defaultShards: 16,
    faults: [],
  },
  {
    name: 'movetables',
    description: 'a healthy MoveTables from an unsharded keyspace into N shards',
    base: 'movetables',
    defaultShards: 8,
    faults: [],
  },
  {
    name: 'materialize',
    description: 'a healthy Materialize from N shards into N shards (N × N streams)',
    base: 'materialize',
    defaultShards: 8,
    faults: [],
  },
  {
    name: 'lookup',
    description: 'an owned lookup vindex backfill, stopped after copy and ready to externalize',
    base: 'lookup',
    defaultShards: 8,
    faults: [],
  },
  {
    name: 'all-faults',
    description: 'the Reshard with every fault the simulator knows',
    base: 'reshard',
    defaultShards: 16,
    faults: FAULT_KINDS,
  },
  ...FAULT_KINDS.map((kind) => ({
    name: kind,
    description: `the Reshard with one fault: ${FAULT_DESCRIPTIONS[kind]}`,
    base: 'reshard' as const,
    defaultShards: 16,
    faults: [kind],
  })),
];

/** Looks a scenario up by name. */
export function findScenario(name: string): ScenarioDefinition | undefined {
  return SCENARIOS.find((s) => s.name === name);
}

/** Generates a named scenario; throws an Error naming the known ones when `name` is unknown or `shards` is out of range. */
export function generateScenario(name: string, opts: ScenarioOptions = {}): SimCluster {
  const def = findScenario(name);
  if (def === undefined)
    throw new Error(`unknown scenario "${name}": known scenarios are ${SCENARIOS.map((s) => s.name).join(', ')}`);
  return generateCluster({
    name: def.name,
    base: def.base,
    faults: def.faults,
    shards: opts.shards ?? def.defaultShards,
    seed: opts.seed ?? 1,
    now: opts.now ?? DEFAULT_NOW,
  });
}

const DEFAULT_NOW = Date.parse('2026-01-01T00:00:00.000Z');

// ---------------------------------------------------------------------------------------------------------------
// Deterministic randomness.

interface Random {
  /** Integer in [lo, hi]. */
  int(lo: number, hi: number): number;
  uuid(): string;
  /** k distinct indices of [0, n) (with repeats only when k > n), in draw order. */
  pick(n: number, k: number): number[];
}

function random(seed: number): Random {
  const next = prng(seed);
  const int = (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1));
  return {
    int,
    uuid() {
      let hex = '';
      for (let i = 0; i < 4; i++)
        hex += Math.floor(next() * 0x100000000)
          .toString(16)
          .padStart(8, '0');
      return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
    },
    pick(n, k) {
      const order = Array.from({ length: n }, (_, i) => i);
      for (let i = n - 1; i > 0; i--) {
        const j = int(0, i);
        [order[i], order[j]] = [order[j]!, order[i]!];
      }
      return Array.from({ length: k }, (_, i) => order[i % n]!);
    },
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Shards and key ranges.

/**
 * Shard names for `n` equal shards, as `vitessio/vitess:go/vt/key/key.go` `GenerateShardRanges` makes them: two hex
 * digits per bound up to 256 shards, four beyond, the lossy integer ends spread evenly. Also returns each shard's
 * bounds on a 0…65536 scale, for intersecting keyspaces of different shard counts without parsing.
 */
export function generateShardRanges(n: number): { names: string[]; bounds: number[] } {
  if (!Number.isInteger(n) || n < 1 || n > 65536) throw new Error(`cannot generate ${n} shard ranges: use 1 to 65536`);
  const [digits, max] = n <= 256 ? [2, 256] : [4, 65536];
  const scale = 65536 / max;
  const hex = (v: number) => v.toString(16).padStart(digits, '0');
  const names: string[] = [];
  const bounds: number[] = [0];
  const size = max / n;
  let start = 0;
  for (let i = 1; i <= n; i++) {
    const end = Math.floor(i * size);
    names.push(`${start === 0 ? '' : hex(start)}-${end === max ? '' : hex(end)}`);
    bounds.push(end * scale);
    start = end;
  }
  return { names, bounds };
}

const keyRangeOf = (name: string): { start: string; end: string } | null => {
  if (name === '0' || name === '-') return null;
  const [start = '', end = ''] = name.split('-');
  return { start, end };
};

/** For each target range, the source ranges it intersects (both sorted, bounds on the same scale): a linear sweep. */
function intersecting(targetBounds: readonly number[], sourceBounds: readonly number[]): number[][] {
  const out: number[][] = [];
  let j = 0;
  for (let i = 0; i + 1 < targetBounds.length; i++) {
    const lo = targetBounds[i]!;
    const hi = targetBounds[i + 1]!;
    while (j + 1 < sourceBounds.length && sourceBounds[j + 1]! <= lo) j++;
    const hits: number[] = [];
    for (let k = j; k + 1 < sourceBounds.length && sourceBounds[k]! < hi; k++) hits.push(k);
    out.push(hits);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// GTID state of a shard's primary.

interface GtidState {
  /** Server uuids of the shard's history, sorted, with their executed counts; `current` is the primary's own. */
  readonly sets: readonly { readonly uuid: string; readonly count: number }[];
  readonly current: string;
  /** Transactions of `current` still in the binary logs (the rest are purged). */
  readonly retained: number;
}

/** `uuid:1-n,uuid:1-m` (MySQL's and Vitess's order: by uuid). */
function gtidText(sets: readonly { readonly uuid: string; readonly count: number }[]): string {
  return sets
    .filter((s) => s.count > 0)
    .map((s) => `${s.uuid}:1-${s.count}`)
    .join(',');
}

/** The set `behind` transactions short of the executed one (never below what was purged unless asked). */
function positionBehind(g: GtidState, behind: number): string {
  return gtidText(
    g.sets.map((s) => (s.uuid === g.current ? { uuid: s.uuid, count: Math.max(1, s.count - behind) } : s)),
  );
}

const executedText = (g: GtidState) => gtidText(g.sets);

function purgedText(g: GtidState): string {
  return gtidText(
    g.sets.map((s) => (s.uuid === g.current ? { uuid: s.uuid, count: Math.max(0, s.count - g.retained) } : s)),
  );
}

// ---------------------------------------------------------------------------------------------------------------
// Building blocks.

const q = (v: string) => `"${v.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;

/** A BinlogSource as Go's prototext prints it (what Vitess stores in `source`). */
function sourceText(
  keyspace: string,
  shard: string,
  rules: readonly { match: string; filter: string }[],
  stopAfterCopy = false,
): string {
  let out = `keyspace:${q(keyspace)} shard:${q(shard)}`;
  if (rules.length > 0)
    out += ` filter:{${rules.map((r) => `rules:{match:${q(r.match)}${r.filter ? ` filter:${q(r.filter)}` : ''}}`).join(' ')}}`;
  if (stopAfterCopy) out += ' stop_after_copy:true';
  return out;
}

const MAX_INT64 = '9223372036854775807';

const datetimes = new Map<number, string>();

/** `YYYY-MM-DD hh:mm:ss` in UTC, as the server prints a DATETIME (memoized: log rows share a few instants). */
function datetime(seconds: number): string {
  let text = datetimes.get(seconds);
  if (text === undefined) {
    text = new Date(seconds * 1000).toISOString().slice(0, 19).replace('T', ' ');
    if (datetimes.size > 10_000) datetimes.clear();
    datetimes.set(seconds, text);
  }
  return text;
}

interface ShardBuild {
  readonly keyspace: string;
  readonly name: string;
  readonly serving: boolean;
  readonly primary: string;
  readonly tablets: string[];
  readonly gtid: GtidState;
  tabletControls: TabletControlRecord[];
  rows: VReplicationRow[];
  copyState: CopyStateRow[];
  logs: VReplicationLogRow[];
  journals: ReshardingJournalRow[];
  nextId: number;
}

interface StreamSpec {
  readonly workflow: string;
  readonly type: WorkflowType;
  readonly sourceKeyspace: string;
  readonly sourceShard: string;
  readonly rules: readonly { match: string; filter: string }[];
  readonly stopAfterCopy?: boolean;
  /** Seconds since the workflow was created (log timestamps). */
  readonly ageSeconds: number;
}

/** The mutable cluster under construction; {@link finish} freezes it into a SimCluster. */
class Builder {
  readonly rnd: Random;
  readonly nowSeconds: number;
  readonly keyspaces: KeyspaceRecord[] = [];
  readonly vschemas: Record<string, VSchemaRecord> = {};
  readonly shards = new Map<string, ShardBuild>();
  readonly tablets: TabletRecord[] = [];
  readonly fullStatus: Record<string, FullStatusRecord | { readonly error: string }> = {};
  routingRules: RoutingRuleRecord[] = [];
  readonly unreachable: string[] = [];
  readonly faults: InjectedFault[] = [];
  private nextUid = 100;

  constructor(
    readonly name: string,
    readonly seed: number,
    readonly nowMs: number,
  ) {
    this.rnd = random(seed);
    this.nowSeconds = Math.floor(nowMs / 1000);
  }

  keyspace(
    name: string,
    tables: Record<string, VSchemaTableRecord>,
    sharded: boolean,
    vindexes?: VSchemaRecord['vindexes'],
  ): void {
    this.keyspaces.push({
      name,
      keyspaceType: 'NORMAL',
      baseKeyspace: '',
      durabilityPolicy: 'semi_sync',
      sidecarDbName: '_vt',
    });
    this.vschemas[name] = {
      sharded,
      vindexes: vindexes ?? (sharded ? { hash: { type: 'hash', params: {}, owner: '' } } : {}),
      tables,
      requireExplicitRouting: false,
    };
  }

  /** Adds shards with a primary and a replica each; returns them in key-range order. */
  addShards(keyspace: string, names: readonly string[], serving: boolean): ShardBuild[] {
    return names.map((name) => {
      const uid = this.nextUid;
      this.nextUid += 10;
      const primary = `zone1-${String(uid).padStart(10, '0')}`;
      const current = this.rnd.uuid();
      const sets = [{ uuid: current, count: this.rnd.int(2_000_000, 90_000_000) }];
      // A third of the shards were reparented once: the old primary's transactions stay in the set.
      if (this.rnd.int(0, 2) === 0) sets.push({ uuid: this.rnd.uuid(), count: this.rnd.int(10_000, 900_000) });
      sets.sort((a, b) => (a.uuid < b.uuid ? -1 : 1));
      const gtid: GtidState = { sets, current, retained: this.rnd.int(200_000, 900_000) };
      const shard: ShardBuild = {
        keyspace,
        name,
        serving,
        primary,
        tablets: [],
        gtid,
        tabletControls: [],
        rows: [],
        copyState: [],
        logs: [],
        journals: [],
        nextId: 1,
      };
      for (const [i, type] of (['PRIMARY', 'REPLICA'] as const).entries()) {
        const alias = `zone1-${String(uid + i).padStart(10, '0')}`;
        shard.tablets.push(alias);
        this.tablets.push({
          alias,
          cell: 'zone1',
          uid: uid + i,
          hostname: `${keyspace}-${name === '-' ? 'x' : name.replace(/^-/, '0-').replace(/-$/, '-ff')}-${type.toLowerCase()}.vt.local`,
          keyspace,
          shard: name,
          type,
          dbNameOverride: '',
          mysqlHostname: '127.0.0.1',
          mysqlPort: 0,
          portMap: { vt: 15000, grpc: 16000 },
        });
        const self = type === 'PRIMARY' ? current : this.rnd.uuid();
        const behind = type === 'PRIMARY' ? 0 : this.rnd.int(0, 3);
        this.fullStatus[alias] = {
          serverUuid: self,
          primaryPosition: type === 'PRIMARY' ? `MySQL56/${executedText(gtid)}` : '',
          replicationPosition: type === 'PRIMARY' ? '' : `MySQL56/${positionBehind(gtid, behind)}`,
          gtidPurged: purgedText(gtid),
          version: '8.0.40',
          readOnly: type !== 'PRIMARY',
          superReadOnly: type !== 'PRIMARY',
          gtidMode: 'ON',
          binlogFormat: 'ROW',
          binlogRowImage: 'FULL',
          logBinEnabled: true,
          logReplicaUpdates: true,
          tabletType: type,
        };
      }
      this.shards.set(`${keyspace}/${name}`, shard);
      return shard;
    });
  }

  shard(keyspace: string, name: string): ShardBuild {
    const s = this.shards.get(`${keyspace}/${name}`);
    if (s === undefined) throw new Error(`simulator bug: no shard ${keyspace}/${name}`);
    return s;
  }

  /** Adds a healthy, caught-up stream on `target`'s primary; returns its row. */
  stream(target: ShardBuild, spec: StreamSpec): VReplicationRow {
    const source = this.shard(spec.sourceKeyspace, spec.sourceShard);
    const id = target.nextId++;
    const now = this.nowSeconds;
    const updated = now - this.rnd.int(0, 2);
    const row: VReplicationRow = {
      id,
      workflow: spec.workflow,
      source: sourceText(spec.sourceKeyspace, spec.sourceShard, spec.rules, spec.stopAfterCopy),
      pos: `MySQL56/${positionBehind(source.gtid, this.rnd.int(0, 40))}`,
      stop_pos: null,
      max_tps: MAX_INT64,
      max_replication_lag: MAX_INT64,
      cell: '',
      tablet_types: '',
      time_updated: updated,
      transaction_timestamp: updated - this.rnd.int(0, 1),
      state: 'Running',
      message: '',
      db_name: `vt_${target.keyspace}`,
      rows_copied: this.rnd.int(10_000, 5_000_000),
      tags: '',
      time_heartbeat: updated,
      workflow_type: workflowTypeNumber(spec.type),
      time_throttled: 0,
      component_throttled: '',
      workflow_sub_type: workflowSubTypeNumber('None'),
      defer_secondary_keys: 0,
      options: '{}',
    };
    target.rows.push(row);
    const created = now - spec.ageSeconds;
    const copied = created + Math.floor(spec.ageSeconds / 3);
    const tables = spec.rules.map((r) => r.match).join(',');
    this.log(
      target,
      id,
      'Stream Created',
      'Init',
      `{"components":{"source":"${spec.sourceKeyspace}/${spec.sourceShard}"},"tables":"${tables}"}`,
      created,
    );
    this.log(target, id, 'Started Copy Phase', 'Copying', 'Started copy phase', created + 1);
    this.log(
      target,
      id,
      'Ended Copy Phase',
      'Running',
      `Copy phase completed at gtid ${positionBehind(source.gtid, 50_000)}`,
      copied,
    );
    this.log(target, id, 'State Changed', 'Running', '', copied);
    return row;
  }

  log(target: ShardBuild, vreplId: number, type: string, state: string, message: string, at: number): void {
    target.logs.push({
      id: target.logs.length + 1,
      vrepl_id: vreplId,
      type,
      state,
      message,
      created_at: datetime(at),
      updated_at: datetime(at),
      count: 1,
    });
  }

  /** Replaces a stream row (faults edit rows in place, keeping ids). */
  patch(target: ShardBuild, id: number, patch: Partial<VReplicationRow>): VReplicationRow {
    const i = target.rows.findIndex((r) => r.id === id);
    if (i < 0) throw new Error(`simulator bug: no stream ${id} on ${target.keyspace}/${target.name}`);
    const row = { ...target.rows[i]!, ...patch };
    target.rows[i] = row;
    return row;
  }

  fault(kind: FaultKind, at: Omit<InjectedFault, 'kind' | 'description'>): void {
    this.faults.push({ kind, description: FAULT_DESCRIPTIONS[kind], ...at });
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Bases.

const HOUR = 3600;
const DAY = 24 * HOUR;

const sharded = (column: string, vindex = 'hash'): VSchemaTableRecord => ({
  type: '',
  columnVindexes: [{ name: vindex, columns: [column] }],
  source: '',
  pinned: '',
});
const unshardedTable: VSchemaTableRecord = { type: '', columnVindexes: [], source: '', pinned: '' };
const referenceTable = (source = ''): VSchemaTableRecord => ({
  type: 'reference',
  columnVindexes: [],
  source,
  pinned: '',
});

/** Materialize rule into a sharded keyspace: the select with `in_keyrange` in front, as `generateBinlogSources` writes it. */
function inKeyrange(
  select: string,
  column: string,
  keyspace: string,
  vindex: string,
  shard: string,
  suffix = '',
): string {
  return `${select} where in_keyrange(${column}, '${keyspace}.${vindex}', '${shard}')${suffix}`;
}

const COMMERCE_TABLES: Record<string, VSchemaTableRecord> = {
  product: unshardedTable,
  customer: unshardedTable,
  corder: unshardedTable,
};

/** Reshard `customer` N → 2N, with two Materializes and a reference-table stream writing into it from `commerce`. */
function buildReshard(b: Builder, n: number, faults: readonly FaultKind[]): { workflow: string } {
  b.keyspace('commerce', COMMERCE_TABLES, false);
  b.keyspace(
    'customer',
    {
      customer: sharded('customer_id'),
      corder: sharded('customer_id'),
      customer_orders: sharded('customer_id'),
      customer_sales: sharded('customer_id'),
      product: referenceTable('commerce.product'),
    },
    true,
  );
  const [commerce] = b.addShards('commerce', ['0'], true);
  const src = generateShardRanges(n);
  const dst = generateShardRanges(2 * n);
  const sources = b.addShards('customer', src.names, true);
  const targets = b.addShards('customer', dst.names, false);
  const wf = 'cust2cust';

  // Older workflows on the (serving) source shards: every one reads commerce/0.
  for (const s of sources) {
    b.stream(s, {
      workflow: 'product_ref',
      type: 'Materialize',
      sourceKeyspace: 'commerce',
      sourceShard: commerce!.name,
      rules: [{ match: 'product', filter: 'select * from product' }],
      ageSeconds: 90 * DAY,
    });
    b.stream(s, {
      workflow: 'customer_orders',
      type: 'Materialize',
      sourceKeyspace: 'commerce',
      sourceShard: commerce!.name,
      rules: [
        {
          match: 'customer_orders',
          filter: inKeyrange(
            'select order_id, customer_id, sku, price from corder',
            'customer_id',
            'customer',
            'hash',
            s.name,
          ),
        },
      ],
      ageSeconds: 30 * DAY,
    });
    b.stream(s, {
      workflow: 'customer_sales',
      type: 'Materialize',
      sourceKeyspace: 'commerce',
      sourceShard: commerce!.name,
      rules: [
        {
          match: 'customer_sales',
          filter: inKeyrange(
            'select customer_id, sum(price) as total_price, count(*) as order_count from corder',
            'customer_id',
            'customer',
            'hash',
            s.name,
            ' group by customer_id',
          ),
        },
      ],
      ageSeconds: 14 * DAY,
    });
  }
  // The Reshard: one stream per intersecting (target, source) pair, plus the reference-table stream copied onto
  // every target (resharder.go copies streams whose tables are all reference tables).
  const parents = intersecting(dst.bounds, src.bounds);
  targets.forEach((t, i) => {
    for (const j of parents[i]!) {
      b.stream(t, {
        workflow: wf,
        type: 'Reshard',
        sourceKeyspace: 'customer',
        sourceShard: sources[j]!.name,
        rules: [{ match: '/.*', filter: t.name }],
        ageSeconds: 2 * DAY,
      });
    }
    b.stream(t, {
      workflow: 'product_ref',
      type: 'Materialize',
      sourceKeyspace: 'commerce',
      sourceShard: commerce!.name,
      rules: [{ match: 'product', filter: 'select * from product' }],
      ageSeconds: 2 * DAY,
    });
  });
  injectReshardFaults(b, faults, wf, commerce!, sources, targets, parents);
  return { workflow: wf };
}

/** The Reshard stream of `target` reading `sources[j]`. */
function reshardRow(t: ShardBuild, wf: string): VReplicationRow {
  const row = t.rows.find((r) => r.workflow === wf);
  if (row === undefined) throw new Error(`simulator bug: no ${wf} stream on ${t.keyspace}/${t.name}`);
  return row;
}

function injectReshardFaults(
  b: Builder,
  faults: readonly FaultKind[],
  wf: string,
  commerce: ShardBuild,
  sources: readonly ShardBuild[],
  targets: readonly ShardBuild[],
  parents: readonly number[][],
): void {
  if (faults.length === 0) return;
  const now = b.nowSeconds;
  // Distinct source shards for the faults (their first child target carries target-side faults), so that in
  // `all-faults` each fault stays on its own shards.
  const picks = b.rnd.pick(sources.length, faults.length);
  const childOf = (j: number): ShardBuild => targets[parents.findIndex((p) => p.includes(j))]!;
  faults.forEach((kind, k) => {
    const j = picks[k]!;
    const source = sources[j]!;
    const target = childOf(j);
    const row = reshardRow(target, wf);
    const at = {
      keyspace: target.keyspace,
      shard: target.name,
      workflow: wf,
      streamId: row.id,
      tablet: target.primary,
    };
    switch (kind) {
      case 'stream-set-mismatch': {
        // Someone deleted one Materialize stream on this source shard only (a botched manual cleanup).
        const gone = source.rows.find((r) => r.workflow === 'customer_sales')!;
        source.rows = source.rows.filter((r) => r !== gone);
        source.logs = source.logs.filter((l) => l.vrepl_id !== gone.id);
        b.fault(kind, {
          keyspace: source.keyspace,
          shard: source.name,
          workflow: wf,
          tablet: source.primary,
          checks: ['stream-set-mismatch'],
        });
        break;
      }
      case 'lagging-stream': {
        // The vplayer is stuck (e.g. blocked on a lock on the target): no transaction, no heartbeat for 7 minutes.
        const stuck = now - 7 * 60;
        b.patch(target, row.id, {
          time_updated: stuck,
          transaction_timestamp: stuck,
          time_heartbeat: stuck,
          pos: `MySQL56/${positionBehind(source.gtid, 3_200)}`,
        });
        b.fault(kind, { ...at, checks: ['replication-lag'] });
        break;
      }
      case 'vstreamer-not-open': {
        // The source replica's tabletserver is NotConnected; every stream whose tablet picker chose it keeps
        // retrying, and vreplicator.Replicate writes the RPC error into the row each time (VITESS.md §10.1).
        const replica = source.tablets[1]!;
        for (const t of targets) {
          for (const r of t.rows) {
            if (r.workflow !== wf || !r.source.includes(`shard:${q(source.name)}`)) continue;
            b.patch(t, r.id, {
              message: 'vttablet: rpc error: code = Unknown desc = VStreamer is not open',
              time_updated: now - 2,
              transaction_timestamp: now - 24,
              time_heartbeat: now - 24,
            });
            b.log(
              t,
              r.id,
              'Message',
              'Running',
              'vttablet: rpc error: code = Unknown desc = VStreamer is not open',
              now - 24,
            );
          }
        }
        b.fault(kind, { ...at, tablet: replica, checks: ['source-not-serving', 'stream-error'] });
        break;
      }
      case 'copy-in-progress': {
        b.patch(target, row.id, {
          state: 'Copying',
          pos: `MySQL56/${positionBehind(source.gtid, 25_000)}`,
          rows_copied: 1_234_567,
        });
        target.copyState.push({ id: target.copyState.length + 1, vrepl_id: row.id, table_name: 'corder' });
        target.copyState.push({ id: target.copyState.length + 1, vrepl_id: row.id, table_name: 'customer' });
        b.fault(kind, { ...at, checks: ['copy-incomplete'] });
        break;
      }
      case 'stream-error': {
        const message =
          "Duplicate entry '48213' for key 'corder.PRIMARY' (errno 1062) (sqlstate 23000) during query: insert into corder(order_id,customer_id,sku,price) values (48213,77120,'SKU-1002',30)";
        b.patch(target, row.id, { state: 'Error', message, time_updated: now - 40, transaction_timestamp: now - 41 });
        b.log(target, row.id, 'State Changed', 'Error', message, now - 40);
        b.fault(kind, { ...at, checks: ['stream-error'] });
        break;
      }
      case 'missing-source': {
        // A hand-edited row whose BinlogSource lost its filter: the controller refuses it with `missing source`.
        b.patch(target, row.id, { source: sourceText('customer', source.name, []) });
        b.fault(kind, { ...at, checks: ['missing-source'] });
        break;
      }
      case 'frozen-workflow': {
        // A MoveTables commerce → customer whose writes were already switched: forward streams FROZEN and
        // Stopped, tables denied on the source primary, routing rules pointing at the target.
        for (const s of sources) {
          const r = b.stream(s, {
            workflow: 'commerce2customer',
            type: 'MoveTables',
            sourceKeyspace: 'commerce',
            sourceShard: commerce.name,
            rules: [
              {
                match: 'corder',
                filter: inKeyrange('select * from corder', 'customer_id', 'customer', 'hash', s.name),
              },
              {
                match: 'customer',
                filter: inKeyrange('select * from customer', 'customer_id', 'customer', 'hash', s.name),
              },
            ],
            ageSeconds: 6 * DAY,
          });
          b.patch(s, r.id, {
            state: 'Stopped',
            message: 'FROZEN',
            time_updated: now - 3 * HOUR,
            transaction_timestamp: now - 3 * HOUR,
          });
        }
        commerce.tabletControls = [
          { tabletType: 'PRIMARY', cells: [], deniedTables: ['corder', 'customer'], frozen: false },
        ];
        b.routingRules = ['corder', 'customer'].flatMap((t) =>
          ['', '@replica', '@rdonly'].flatMap((suffix) => [
            { fromTable: `${t}${suffix}`, toTables: [`customer.${t}`] },
            { fromTable: `commerce.${t}${suffix}`, toTables: [`customer.${t}`] },
          ]),
        );
        b.fault(kind, {
          keyspace: 'customer',
          shard: sources[0]!.name,
          workflow: 'commerce2customer',
          tablet: sources[0]!.primary,
          checks: ['frozen-workflow'],
        });
        break;
      }
      case 'binlogs-purged': {
        // Stopped for maintenance two days ago and restarted: every tablet of the source has purged what it needs.
        const purged = source.gtid.retained + 40_000;
        b.patch(target, row.id, {
          pos: `MySQL56/${positionBehind(source.gtid, purged)}`,
          transaction_timestamp: now - 2 * DAY,
          time_updated: now - 1,
        });
        b.fault(kind, { ...at, checks: ['binlogs-purged'] });
        break;
      }
      case 'unreachable-primary': {
        const { streamId: _none, ...primary } = at;
        b.unreachable.push(target.primary);
        b.fullStatus[target.primary] = {
          error: `UNAVAILABLE: rpc error: code = Unavailable desc = connection error: desc = "transport: Error while dialing: dial tcp 10.12.${j % 256}.17:16000: connect: connection refused"`,
        };
        b.fault(kind, { ...primary, checks: ['unreachable'] });
        break;
      }
    }
  });
}

/** MoveTables from unsharded `commerce` into `customer` (N shards), copied and running; reads not switched yet. */
function buildMoveTables(b: Builder, n: number): void {
  b.keyspace('commerce', COMMERCE_TABLES, false);
  b.keyspace('customer', { customer: sharded('customer_id'), corder: sharded('customer_id') }, true);
  const [commerce] = b.addShards('commerce', ['0'], true);
  const targets = b.addShards('customer', generateShardRanges(n).names, true);
  for (const t of targets) {
    b.stream(t, {
      workflow: 'commerce2customer',
      type: 'MoveTables',
      sourceKeyspace: 'commerce',
      sourceShard: commerce!.name,
      rules: [
        { match: 'corder', filter: inKeyrange('select * from corder', 'customer_id', 'customer', 'hash', t.name) },
        { match: 'customer', filter: inKeyrange('select * from customer', 'customer_id', 'customer', 'hash', t.name) },
      ],
      ageSeconds: 3 * DAY,
    });
  }
  // MoveTables create routes every moved table to the source until reads are switched.
  b.routingRules = ['corder', 'customer'].flatMap((t) =>
    ['', '@replica', '@rdonly'].flatMap((suffix) => [
      { fromTable: `${t}${suffix}`, toTables: [`commerce.${t}`] },
      { fromTable: `customer.${t}${suffix}`, toTables: [`commerce.${t}`] },
    ]),
  );
}

/** Materialize `sales` (N shards, by customer) into `reporting` (N shards, by region): every pair has a stream. */
function buildMaterialize(b: Builder, n: number): void {
  b.keyspace('sales', { orders: sharded('customer_id') }, true);
  b.keyspace('reporting', { orders_by_region: sharded('region_id', 'region_hash') }, true, {
    region_hash: { type: 'xxhash', params: {}, owner: '' },
  });
  const names = generateShardRanges(n).names;
  const sources = b.addShards('sales', names, true);
  const targets = b.addShards('reporting', names, true);
  for (const t of targets) {
    for (const s of sources) {
      b.stream(t, {
        workflow: 'orders_by_region',
        type: 'Materialize',
        sourceKeyspace: 'sales',
        sourceShard: s.name,
        rules: [
          {
            match: 'orders_by_region',
            filter: inKeyrange(
              'select region_id, order_id, customer_id, amount from orders',
              'region_id',
              'reporting',
              'region_hash',
              t.name,
            ),
          },
        ],
        ageSeconds: 20 * DAY,
      });
    }
  }
}

/** An owned lookup vindex backfill on `customer` (N shards) into `lookup` (min(N, 8) shards), stopped after copy. */
function buildLookup(b: Builder, n: number): void {
  b.keyspace('customer', { corder: sharded('customer_id') }, true, {
    hash: { type: 'hash', params: {}, owner: '' },
    corder_sku_lookup: {
      type: 'consistent_lookup_unique',
      params: { table: 'lookup.corder_sku_lookup', from: 'sku', to: 'keyspace_id', write_only: 'true' },
      owner: 'corder',
    },
  });
  b.keyspace('lookup', { corder_sku_lookup: sharded('sku', 'unicode_loose_xxhash') }, true, {
    unicode_loose_xxhash: { type: 'unicode_loose_xxhash', params: {}, owner: '' },
  });
  const sources = b.addShards('customer', generateShardRanges(n).names, true);
  const targets = b.addShards('lookup', generateShardRanges(Math.min(n, 8)).names, true);
  const now = b.nowSeconds;
  for (const t of targets) {
    for (const s of sources) {
      const row = b.stream(t, {
        workflow: 'corder_sku_lookup_vdx',
        type: 'CreateLookupIndex',
        sourceKeyspace: 'customer',
        sourceShard: s.name,
        rules: [
          {
            match: 'corder_sku_lookup',
            filter: inKeyrange(
              'select sku as sku, keyspace_id() as keyspace_id from corder',
              'sku',
              'lookup',
              'unicode_loose_xxhash',
              t.name,
              ' group by sku, keyspace_id',
            ),
          },
        ],
        stopAfterCopy: true,
        ageSeconds: 6 * HOUR,
      });
      b.patch(t, row.id, {
        state: 'Stopped',
        message: 'Stopped after copy.',
        time_updated: now - 2 * HOUR,
        transaction_timestamp: now - 2 * HOUR,
        time_heartbeat: now - 2 * HOUR,
      });
      b.log(t, row.id, 'State Changed', 'Stopped', 'Stopped after copy.', now - 2 * HOUR);
    }
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Assembly.

/** The low-level generator behind {@link generateScenario}. */
export function generateCluster(o: {
  name: string;
  base: ScenarioBase;
  faults: readonly FaultKind[];
  shards: number;
  seed: number;
  now: number;
}): SimCluster {
  if (!Number.isInteger(o.shards) || o.shards < MIN_SHARDS || o.shards > MAX_SHARDS) {
    throw new Error(`invalid shard count ${String(o.shards)}: use an integer from ${MIN_SHARDS} to ${MAX_SHARDS}`);
  }
  if (o.base === 'materialize' && o.shards > 512)
    throw new Error(`invalid shard count ${o.shards} for a Materialize: N × N streams, use at most 512`);
  if (o.faults.length > 0 && o.base !== 'reshard')
    throw new Error(`faults are injected into the reshard scenarios only, not ${o.base}`);
  const b = new Builder(o.name, o.seed >>> 0, o.now);
  switch (o.base) {
    case 'reshard':
      buildReshard(b, o.shards, o.faults);
      break;
    case 'movetables':
      buildMoveTables(b, o.shards);
      break;
    case 'materialize':
      buildMaterialize(b, o.shards);
      break;
    case 'lookup':
      buildLookup(b, o.shards);
      break;
  }
  return finish(b);
}

function finish(b: Builder): SimCluster {
  const shards: ShardRecord[] = [];
  const sidecars: Record<string, SimSidecar> = {};
  let streams = 0;
  const unreachable = new Set(b.unreachable);
  for (const s of b.shards.values()) {
    shards.push({
      keyspace: s.keyspace,
      name: s.name,
      keyRange: keyRangeOf(s.name),
      primaryAlias: s.primary,
      isPrimaryServing: s.serving,
      tabletControls: s.tabletControls,
    });
    const rows = [...s.rows].sort((x, y) => x.id - y.id);
    streams += rows.length;
    sidecars[s.primary] = {
      alias: s.primary,
      keyspace: s.keyspace,
      shard: s.name,
      sidecarDb: '_vt',
      dbName: `vt_${s.keyspace}`,
      columns: KNOWN_VREPLICATION_COLUMNS,
      vreplication: rows,
      copyState: s.copyState,
      vreplicationLog: s.logs,
      reshardingJournal: s.journals,
    };
  }
  const workflows: Record<string, VtctldWorkflowRecord[]> = {};
  for (const ks of b.keyspaces) workflows[ks.name] = vtctldView(b, ks.name, unreachable);
  return {
    scenario: b.name,
    seed: b.seed,
    now: new Date(b.nowMs).toISOString(),
    keyspaces: b.keyspaces,
    shards,
    tablets: [...b.tablets].sort((x, y) => (x.alias < y.alias ? -1 : x.alias > y.alias ? 1 : 0)),
    vschemas: b.vschemas,
    routingRules: b.routingRules,
    shardRoutingRules: [],
    fullStatus: b.fullStatus,
    workflows,
    sidecars,
    unreachable: [...unreachable].sort(),
    faults: b.faults,
    stats: {
      keyspaces: b.keyspaces.length,
      shards: shards.length,
      tablets: b.tablets.length,
      primaries: shards.length,
      streams,
    },
  };
}

/**
 * What vtctld's `GetWorkflows` shows for a target keyspace, from the same rows: displayed states (`getStreamState`),
 * positions without the flavor prefix, copy-state tables. Primaries that do not answer are left out.
 */
function vtctldView(b: Builder, keyspace: string, unreachable: ReadonlySet<string>): VtctldWorkflowRecord[] {
  const byName = new Map<
    string,
    {
      streams: VtctldStreamRecord[];
      type: number;
      sourceKeyspace: string;
      sourceShards: Set<string>;
      targetShards: Set<string>;
      maxLag: number;
    }
  >();
  for (const s of b.shards.values()) {
    if (s.keyspace !== keyspace || unreachable.has(s.primary)) continue;
    const copying = new Map<number, string[]>();
    for (const c of s.copyState) copying.set(c.vrepl_id, [...(copying.get(c.vrepl_id) ?? []), c.table_name]);
    for (const r of s.rows) {
      const m = /^keyspace:"([^"]*)" shard:"([^"]*)"/.exec(r.source);
      const sourceKeyspace = m?.[1] ?? '';
      const sourceShard = m?.[2] ?? '';
      const tables = copying.get(r.id) ?? [];
      const message = r.message ?? '';
      const state = message.toLowerCase().includes('error')
        ? 'Error'
        : r.state === 'Running' && tables.length > 0
          ? 'Copying'
          : r.state;
      const name = r.workflow ?? '';
      let w = byName.get(name);
      if (w === undefined)
        byName.set(
          name,
          (w = {
            streams: [],
            type: r.workflow_type ?? 0,
            sourceKeyspace,
            sourceShards: new Set(),
            targetShards: new Set(),
            maxLag: 0,
          }),
        );
      w.sourceShards.add(sourceShard);
      w.targetShards.add(s.name);
      w.maxLag = Math.max(w.maxLag, b.nowSeconds - r.time_updated);
      w.streams.push({
        id: r.id,
        shard: s.name,
        tablet: s.primary,
        sourceKeyspace,
        sourceShard,
        position: r.pos.replace(/^MySQL56\//, ''),
        stopPosition: r.stop_pos ?? '',
        state,
        message,
        timeUpdated: r.time_updated,
        transactionTimestamp: r.transaction_timestamp,
        copyStateTables: tables,
      });
    }
  }
  return [...byName.entries()]
    .sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0))
    .map(([name, w]) => ({
      name,
      sourceKeyspace: w.sourceKeyspace,
      sourceShards: [...w.sourceShards],
      targetKeyspace: keyspace,
      targetShards: [...w.targetShards],
      workflowType: workflowTypeName(w.type) ?? 'Materialize',
      workflowSubType: 'None',
      maxVReplicationLag: w.maxLag,
      maxVReplicationTransactionLag: w.maxLag,
      streams: w.streams,
    }));
}
