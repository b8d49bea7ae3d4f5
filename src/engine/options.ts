/** Check options and their defaults: defaults live here and nowhere else. */
import { DEFAULT_VITESS_VERSIONS, type VitessVersions } from '../vitess/versions.js';
import type { Severity } from './severity.js';
import type { Action } from './steps.js';

/** A tablet type as `--tablet-types` names it (vtctldclient: primary, replica, rdonly). */
export type TabletTypeName = 'primary' | 'replica' | 'rdonly';

/** The action judged and its options, as vtctldclient spells them (`check --action`). */
export interface ActionRequest {
  readonly action: Action;
  /**
   * `--tablet-types` of SwitchTraffic / ReverseTraffic / MirrorTraffic, lower case and deduplicated; null = the
   * command's default (vtctldclient: primary, replica, rdonly for all three).
   */
  readonly tabletTypes: readonly TabletTypeName[] | null;
  /** `complete --keep-data` (and `cancel --keep-data`). */
  readonly keepData: boolean;
  /** `complete --rename-tables`. */
  readonly renameTables: boolean;
  /**
   * SwitchTraffic `--initialize-target-sequences` (v18+): a MoveTables from an unsharded keyspace locates and raises
   * the target's sequences at the write switch. Absent in requests built before the option existed (then false).
   */
  readonly initializeTargetSequences?: boolean;
  /**
   * `--cells` of SwitchTraffic (switch only): the cells whose reads switch, and the cells whose SrvKeyspace
   * `switchShardReads` validates; absent = every cell of the topology.
   */
  readonly cells?: readonly string[];
  /** `create`: the workflow to create (`--workflow`) and its `--target-keyspace`; absent for the other actions. */
  readonly create?: CreateRequest;
}

/** The parameters of `MoveTables create` the create checks judge, as vtctldclient spells them. */
export interface CreateRequest {
  readonly workflow: string;
  readonly targetKeyspace: string;
  /** `--source-keyspace`; absent in requests built before the setting existed (then the tables are not judged). */
  readonly sourceKeyspace?: string;
  /**
   * The tables to move: `--tables` as given (deduplicated, in order), or `'all'` for `--all-tables` (every table of
   * the source keyspace's first serving shard's primary, as `getTablesInKeyspace` lists them) minus `excludeTables`.
   * Absent: not given (then the table rules are not judged).
   */
  readonly tables?: readonly string[] | 'all';
  /** `--exclude-tables` (only with `--all-tables`). */
  readonly excludeTables?: readonly string[];
  /**
   * `--source-shards` and `--target-shards`: `Reshard create` within `targetKeyspace` instead of MoveTables create
   * (then there is no source keyspace and no table list).
   */
  readonly reshard?: { readonly sourceShards: readonly string[]; readonly targetShards: readonly string[] };
  /** `--cells`: the cells the streams' tablet picker may read source tablets from (absent: the target's own cell). */
  readonly cells?: readonly string[];
}

export const DEFAULT_ACTION_REQUEST: ActionRequest = Object.freeze({
  action: 'switch',
  tabletTypes: null,
  keepData: false,
  renameTables: false,
});

/** The tablet types a switch-like action requests: `--tablet-types`, else vtctldclient's default (all three). */
export function requestedTabletTypes(r: ActionRequest): readonly TabletTypeName[] {
  return r.tabletTypes ?? ['primary', 'replica', 'rdonly'];
}

export interface CheckOptions {
  /**
   * `--max-lag` in whole seconds, as Vitess judges SwitchTraffic's `--max-replication-lag-allowed` (default 30s):
   * `int64(maxReplicationLagAllowed.Seconds())` truncates, so `500ms` allows 0s and any lag of a second blocks
   * (`vitessio/vitess:go/vt/vtctl/workflow/server.go` `WorkflowSwitchTraffic` → `canSwitch`).
   */
  readonly maxLagSeconds: number;
  /** `--max-lag` as given (`500ms`, `1.5s`) when it is not a whole number of seconds; shown beside the judged value. */
  readonly maxLagGiven?: string;
  /** Severity overrides by check id (`--severity ID=LEVEL`). */
  readonly severities: Readonly<Record<string, Severity>>;
  /** `--only` check ids (empty = all). */
  readonly only: readonly string[];
  /** `--skip` check ids. */
  readonly skip: readonly string[];
  /**
   * The Vitess releases the cluster may run, and how that was known. Always set by the time a check runs: from
   * `--vitess-version` when given, else inferred from the cluster by the engine (`runModelChecks`), else the whole
   * supported span. Ask it which rule applies with `pickRule(options.vitess, [...])` or
   * `versionsHold(options.vitess, '>=23')` from `src/vitess/versions.ts` (see its header), never by comparing numbers.
   */
  readonly vitess: VitessVersions;
  /** `--action` and its options (default: SwitchTraffic with vtctldclient's defaults). */
  readonly action: ActionRequest;
  /**
   * True for `vtpreflight sweep`: the leftovers checks judge every keyspace of the cluster; false (`check`): only the
   * keyspaces of the selected workflows.
   */
  readonly sweep: boolean;
}

export const DEFAULT_MAX_LAG_SECONDS = 30;
export const DEFAULT_CONCURRENCY = 32;
export const DEFAULT_TIMEOUT_MS = 10_000;
/**
 * `--deadline`: the whole read of a cluster. Two minutes is far above a healthy read (1,024 shards take seconds,
 * bench/README.md) and bounds a run against stalled servers to what a person waits for.
 */
export const DEFAULT_DEADLINE_MS = 120_000;

export const DEFAULT_CHECK_OPTIONS: CheckOptions = Object.freeze({
  maxLagSeconds: DEFAULT_MAX_LAG_SECONDS,
  severities: Object.freeze({}),
  only: Object.freeze([]) as readonly string[],
  skip: Object.freeze([]) as readonly string[],
  vitess: DEFAULT_VITESS_VERSIONS,
  action: DEFAULT_ACTION_REQUEST,
  sweep: false,
});

export function withDefaults(partial: Partial<CheckOptions> = {}): CheckOptions {
  return { ...DEFAULT_CHECK_OPTIONS, ...partial };
}
