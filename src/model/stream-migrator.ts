/**
 * The stream migrator's view of a Reshard: which `_vt.vreplication` rows on each of the Reshard's SOURCE shard
 * primaries Vitess would read, ignore as reference-table streams, refuse, or migrate to the new shards.
 *
 * `stream-set-mismatch`, `source-streams-not-running` and `position-drift` all judge this one computation.
 *
 * Upstream: `vitessio/vitess:go/vt/vtctl/workflow/stream_migrator.go` — `BuildStreamMigrator` (only for
 * `MigrationType_SHARDS`, i.e. Reshard), `readSourceStreams` (one read per source shard primary),
 * `readTabletStreams` (`select id, workflow, source, pos, … from _vt.vreplication where db_name=<db> and
 * workflow != '<wf>_reverse'`, then per row: unnamed ⇒ error, same name as the Reshard ⇒ error, source
 * parsed, `blsIsReference` ⇒ skip or error, pos decoded) and `blsIsReference`/`identifyRuleType`.
 *
 *
 * The rows are those of `readTabletStreams`' SQL (`workflow != '<reshard>_reverse'`, no workflow_type predicate):
 * Online DDL rows (workflow_type 5) are included (a completed Online DDL leaves its row Stopped for the 24 h
 * retention, vitessio/vitess#20838), and a NULL `workflow` is dropped by the `!=` predicate while an empty
 * one is refused.
 */
import type { ClusterModel, Shard, Stream, VSchema, Workflow } from './types.js';
import { compareShardNames } from '../vitess/keyrange.js';

/** Why Vitess refuses one row while reading it (each is a `readTabletStreams` error that aborts the switch). */
export type MigratorProblemReason =
  | 'unnamedStream'
  | 'sameWorkflowName'
  | 'sourceUnparsable'
  | 'tableNotInVSchema'
  | 'mixedReferenceTables'
  | 'positionUnparsable';

/** A row Vitess would refuse while reading the source shard's streams. */
export interface MigratorProblem {
  readonly stream: Stream;
  readonly reason: MigratorProblemReason;
  /** The exact text Vitess returns (newest release), where it can be formatted from what was read; null otherwise. */
  readonly vitessError: string | null;
  /**
   * The text of releases before v20 where it differs: the legacy `readTabletStreams` appended `, stream: %d` to
   * the unnamed and same-name refusals; PR #14424 (v20) moved them to the vtctld server without it.
   */
  readonly vitessErrorBeforeV20?: string;
  /** Our one-line explanation (the parse error, the table name …). */
  readonly detail: string;
}

/** One source shard of a Reshard whose primary's streams were read. */
export interface MigratorShard {
  readonly keyspace: string;
  readonly name: string;
  readonly shard: Shard;
  /** Alias of the primary whose sidecar was read. */
  readonly tablet: string;
  /** The primary's uid (what `cannot migrate until all streams are running: %s: %d` prints). */
  readonly tabletUid: number;
  /**
   * Every row Vitess reads there: all workflows except the reverse one (`<reshard>_reverse`; FROZEN rows included), by
   * id.
   */
  readonly rows: readonly Stream[];
  /**
   * Rows that are not known to be reference-table streams (migrated rows plus refused rows whose kind is unknown or
   * sharded).
   */
  readonly nonReference: readonly Stream[];
  /** Rows Vitess would migrate: named, parsed, not the Reshard's own name, not reference-only. */
  readonly migrated: readonly Stream[];
  /** Rows ignored because every rule is a reference table ("ignoring reference table"). */
  readonly reference: readonly Stream[];
  readonly problems: readonly MigratorProblem[];
  /** Whether `_vt.copy_state` was read on this primary (so "no copy rows" means "not copying"). */
  readonly copyStateRead: boolean;
}

/** The stream migrator's inputs for one selected Reshard. */
export interface ReshardMigration {
  readonly workflow: Workflow;
  /** The resharded keyspace (source = target). */
  readonly keyspace: string;
  readonly reverseWorkflow: string;
  /** Source shards that were read, in key-range order. */
  readonly shards: readonly MigratorShard[];
  /** Source shards named by the Reshard's streams that could not be judged (not in the topology, primary not read). */
  readonly unreadShards: readonly string[];
}

/** Key of the stream-set comparison: (workflow, bls.keyspace, bls.shard). */
export function streamSetKey(s: Stream): string {
  return `${s.workflow}\u0000${s.sourceKeyspace}\u0000${s.sourceShard}`;
}

/** Splits a {@link streamSetKey} back into its parts. */
export function splitStreamSetKey(key: string): { workflow: string; sourceKeyspace: string; sourceShard: string } {
  const [workflow = '', sourceKeyspace = '', sourceShard = ''] = key.split('\u0000');
  return { workflow, sourceKeyspace, sourceShard };
}

/** The key `syncSourceStreams`/`verifyStreamPositions` group positions by: `"<bls.keyspace>:<bls.shard>"`. */
export function upstreamKey(s: Stream): string {
  return `${s.sourceKeyspace}:${s.sourceShard}`;
}

const REVERSE_SUFFIX = '_reverse';

/**
 * Vitess's `ReverseWorkflowName`: `<wf>_reverse`, or the base name for a workflow that is itself a reverse one.
 * Upstream: `vitessio/vitess:go/vt/vtctl/workflow/utils.go` `ReverseWorkflowName`.
 */
export function reverseWorkflowName(workflow: string): string {
  return workflow.endsWith(REVERSE_SUFFIX) ? workflow.slice(0, -REVERSE_SUFFIX.length) : `${workflow}${REVERSE_SUFFIX}`;
}

/** The uid part of a tablet alias (`zone1-0000000100` → 100); cells may contain dashes, the uid never does. */
export function tabletUid(alias: string): number {
  const i = alias.lastIndexOf('-');
  const n = Number.parseInt(alias.slice(i + 1), 10);
  return Number.isFinite(n) ? n : 0;
}

const NEW_INTERNAL_TABLE = /^_vt_[a-zA-Z0-9]{3}_[0-f]{32}_[0-9]{14}_$/;
const OLD_GC_TABLE = /^_vt_(HOLD|PURGE|EVAC|DROP)_[0-f]{32}_[0-9]{14}$/;
const ONLINE_DDL_TABLE = /^_[0-f]{8}_[0-f]{4}_[0-f]{4}_[0-f]{4}_[0-f]{12}_[0-9]{14}_(gho|ghc|del|new|vrepl)$/;
const PT_OSC_TABLE = /^_.*_old$/;

/**
 * Vitess's internal operation table names (Online DDL, table GC), which `identifyRuleType` accepts without a
 * vschema entry. Upstream: `vitessio/vitess:go/vt/schema/name.go` `IsInternalOperationTableName`,
 * `tablegc.go` `IsGCTableName`, `online_ddl.go` `IsOnlineDDLTableName` (Go's `[0-f]` is the ASCII range, as here).
 */
export function isInternalOperationTableName(name: string): boolean {
  return (
    NEW_INTERNAL_TABLE.test(name) || OLD_GC_TABLE.test(name) || ONLINE_DDL_TABLE.test(name) || PT_OSC_TABLE.test(name)
  );
}

type Classified =
  | { readonly kind: 'reference' }
  | { readonly kind: 'sharded' }
  | {
      readonly kind: 'error';
      readonly reason: 'tableNotInVSchema' | 'mixedReferenceTables';
      readonly vitessError: string;
      readonly detail: string;
    };

/**
 * `blsIsReference` + `identifyRuleType`: every rule's `match` must be a table of the resharded keyspace's
 * vschema (or an internal table name); a stream whose rules are all reference tables is ignored; a mix fails.
 * A source without a filter has no rules and so counts as sharded (not reference), as upstream.
 */
export function classifyRules(s: Stream, vschema: VSchema): Classified {
  let kind: 'unknown' | 'reference' | 'sharded' = 'unknown';
  for (const rule of s.source?.filter?.rules ?? []) {
    const table = vschema.tables.get(rule.match);
    if (!table && !isInternalOperationTableName(rule.match)) {
      return {
        kind: 'error',
        reason: 'tableNotInVSchema',
        vitessError: `blsIsReference: table ${rule.match} not found in vschema`,
        detail: `table ${rule.match} is not in the ${s.keyspace} vschema`,
      };
    }
    const ruleKind = table?.type === 'reference' ? 'reference' : 'sharded';
    if (kind !== 'unknown' && kind !== ruleKind) {
      return {
        kind: 'error',
        reason: 'mixedReferenceTables',
        vitessError: `blsIsReference: cannot reshard streams with a mix of reference and sharded tables: ${s.sourceText}`,
        detail: `rule ${rule.match} is ${ruleKind === 'reference' ? 'a reference table' : 'not a reference table'} while earlier rules are not`,
      };
    }
    kind = ruleKind;
  }
  return kind === 'reference' ? { kind: 'reference' } : { kind: 'sharded' };
}

function readShard(reshard: Workflow, keyspace: string, shard: Shard, vschema: VSchema): MigratorShard | null {
  const sidecar = shard.sidecar;
  if (!sidecar?.ok) return null;
  const reverse = reverseWorkflowName(reshard.name);
  // `workflow != '<reverse>'` is false for a NULL workflow: such rows never reach Vitess's stream migrator.
  const rows = [...sidecar.value.streams, ...sidecar.value.onlineDdlStreams]
    .filter((s) => s.rawWorkflow !== null && s.workflow !== reverse)
    .sort((a, b) => a.id - b.id);
  const nonReference: Stream[] = [];
  const migrated: Stream[] = [];
  const reference: Stream[] = [];
  const problems: MigratorProblem[] = [];
  const where = `shard: ${keyspace}:${shard.name}`;
  for (const s of rows) {
    if (s.workflow === '') {
      problems.push({
        stream: s,
        reason: 'unnamedStream',
        vitessError: `VReplication streams must have named workflows for migration: ${where}`,
        vitessErrorBeforeV20: `VReplication streams must have named workflows for migration: ${where}, stream: ${s.id}`,
        detail: 'the row has no workflow name',
      });
      nonReference.push(s);
      continue;
    }
    if (s.workflow === reshard.name) {
      problems.push({
        stream: s,
        reason: 'sameWorkflowName',
        vitessError: `VReplication stream has the same workflow name as the resharding workflow: ${where}`,
        vitessErrorBeforeV20: `VReplication stream has the same workflow name as the resharding workflow: ${where}, stream: ${s.id}`,
        detail: `the row is named ${s.workflow}, like the Reshard`,
      });
      nonReference.push(s);
      continue;
    }
    if (!s.source) {
      problems.push({
        stream: s,
        reason: 'sourceUnparsable',
        vitessError: null,
        detail: s.sourceError ?? 'the source does not parse',
      });
      nonReference.push(s);
      continue;
    }
    const c = classifyRules(s, vschema);
    if (c.kind === 'reference') {
      reference.push(s);
      continue;
    }
    nonReference.push(s);
    if (c.kind === 'error') {
      problems.push({ stream: s, reason: c.reason, vitessError: c.vitessError, detail: c.detail });
      continue;
    }
    if (!s.pos) {
      problems.push({
        stream: s,
        reason: 'positionUnparsable',
        vitessError: null,
        detail: s.posError ?? 'the position does not parse',
      });
      continue;
    }
    migrated.push(s);
  }
  return {
    keyspace,
    name: shard.name,
    shard,
    tablet: sidecar.value.tablet,
    tabletUid: tabletUid(sidecar.value.tablet),
    rows,
    nonReference,
    migrated,
    reference,
    problems,
    copyStateRead: sidecar.value.copyStateRead.ok,
  };
}

/**
 * The stream migrator's inputs for one Reshard, or null when it cannot be judged: the workflow is not a
 * Reshard, its writes are already switched (FROZEN: the forward SwitchTraffic no longer runs the migrator),
 * or the resharded keyspace's vschema or shard list was not read (reference streams cannot be told apart).
 */
export function buildReshardMigration(model: ClusterModel, workflow: Workflow): ReshardMigration | null {
  if (workflow.type !== 'Reshard' || workflow.frozen) return null;
  const keyspace = model.keyspace(workflow.keyspace);
  if (!keyspace || !keyspace.vschema.ok || !keyspace.shards.ok) return null;
  const vschema = keyspace.vschema.value;
  const shards: MigratorShard[] = [];
  const unreadShards: string[] = [];
  for (const name of [...workflow.sourceShards].sort(compareShardNames)) {
    const shard = keyspace.shards.value.get(name);
    const read = shard ? readShard(workflow, keyspace.name, shard, vschema) : null;
    if (read) shards.push(read);
    else unreadShards.push(name);
  }
  return {
    workflow,
    keyspace: keyspace.name,
    reverseWorkflow: reverseWorkflowName(workflow.name),
    shards,
    unreadShards,
  };
}

const cache = new WeakMap<ClusterModel, readonly ReshardMigration[]>();

/**
 * The migrator inputs of every selected Reshard that can be judged, in model order (memoised per model, so
 * the three migrator checks share one computation).
 */
export function reshardMigrations(model: ClusterModel): readonly ReshardMigration[] {
  let result = cache.get(model);
  if (!result) {
    result = model.workflows
      .map((w) => buildReshardMigration(model, w))
      .filter((m): m is ReshardMigration => m !== null);
    cache.set(model, result);
  }
  return result;
}
