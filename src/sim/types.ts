/**
 * The simulated cluster's shapes: what the scenario generator (`./scenario.ts`) returns and the simulated servers
 * (`./cluster.ts`, `./tablets.ts`, `./vtctld-server.ts`) serve, and the names of scenarios and faults.
 */
import type {
  CopyStateRow,
  ReshardingJournalRow,
  VReplicationLogRow,
  VReplicationRow,
  VtctldWorkflowRecord,
} from '../readout.js';
import type { FakeVtctldCluster } from './vtctld-server.js';

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
  /** Tables of the tablet's schema (`information_schema.TABLES`); absent: none listed (not judged). */
  readonly tables?: readonly string[];
  /** Tables of `tables` holding a row (MoveTables create's emptiness probe); absent: none. */
  readonly nonEmptyTables?: readonly string[];
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
export interface SimCluster
  extends Pick<FakeVtctldCluster, 'keyspaces' | 'vschemas' | 'routingRules' | 'shardRoutingRules' | 'fullStatus'> {
  readonly scenario: string;
  readonly seed: number;
  /** ISO-8601: the clock reading every timestamp is relative to. */
  readonly now: string;
  /** Sorted by keyspace, then key range. */
  readonly shards: FakeVtctldCluster['shards'];
  /** Sorted by alias. */
  readonly tablets: FakeVtctldCluster['tablets'];
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
