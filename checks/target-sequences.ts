/**
 * target-sequences: the auto_increment sequences of a MoveTables' moved tables, as `--initialize-target-sequences`
 * finds and initializes them at the write switch.
 *
 * When writes are switched for a MoveTables from an unsharded keyspace with `--initialize-target-sequences`, Vitess
 * first collects the sequence of every moved table whose target vschema entry has an `auto_increment`
 * (`vitessio/vitess:go/vt/vtctl/workflow/sequences.go` `getTargetSequenceMetadata`, `findSequenceUsageInKeyspace`):
 * a qualified name (`ks.seq`) is taken as given; an unqualified one is searched for in every unsharded keyspace's
 * vschema as a table of type `sequence`. One that is found nowhere is created in the workflow's global keyspace when
 * it has one (v22+ `--global-keyspace`), else the switch is refused before anything changes:
 * `failed to get the sequence information in the %s keyspace: failed to locate all of the backing sequence tables
 * being used and no global-keyspace was provided to auto create them in: %s` (sequences.go
 * `createMissingSequenceTables`).
 * After writes are stopped and the reverse streams created, `initializeTargetSequences` asks for the only shard of each
 * sequence's keyspace (`GetOnlyShard`): a qualified name pointing at a keyspace that does not exist or has several
 * shards fails there, with writes already stopped (`failed to initialize the sequences used in the %s keyspace: failed
 * to get the primary tablet for keyspace %s: %v`). Field reports: #17831 (initialisation longer than the timeout, not
 * caught by the dry run before PR #17842, v22), #17871, #15295 (empty target shard, v18/v19), #19225, #21165, #13216.
 *
 * Judged with vtpreflight's `--initialize-target-sequences` (the SwitchTraffic flag, `--action switch`): the
 * not-found, keyspace and empty-shard reasons only with it, `sequenceBehind` only without it (with it Vitess raises
 * the sequence itself).
 *
 * Failure modes (`details.reason`):
 * - `sequenceNotFound` (error): an unqualified sequence that no unsharded keyspace's vschema defines, and no global
 *   keyspace: the switch with `--initialize-target-sequences` is refused.
 * - `sequenceKeyspaceNotUnsharded` (error): a qualified sequence in a keyspace that does not exist or has other than
 *   one shard: the switch with `--initialize-target-sequences` fails after writes are stopped.
 *
 * - `sequenceBehind` (warning, heuristic): the sequence's `next_id` (its row `id = 0`, read on the sequence keyspace's
 *   primary) is not above the highest value of the column on the target primaries (`MAX(col)`, the value
 *   `--initialize-target-sequences` itself reads there: sequences.go `sqlGetMaxSequenceVal` line 48 at 07acb8d9, set
 *   with `sqlInitSequenceTable` line 45 only when `next_id` is lower, and skipped when every target table is empty,
 *   `updateSequenceValues`). Without the flag (v18+, PR #13656; before v18 there is none) the sequence hands out ids
 *   that already exist once writes are switched: duplicate keys on insert (#13685's motivation, #15295, #19225).
 *
 * Why the target's MAX and not the source's: it is exactly what Vitess compares at the switch (after the catch-up the
 * target holds the source's rows), the target tables are the ones the target vschema names (no guess of which source
 * keyspace holds them), and `MAX` of an `auto_increment` column reads one index entry (MySQL requires such a column to
 * lead an index). `information_schema.TABLES.AUTO_INCREMENT` is cheaper but not exact: MySQL 8.0 caches it for
 * `information_schema_stats_expiry` (a day by default), and it is NULL for a column without MySQL auto_increment
 * (a sharded target's usual case). A target that lags the source may understate the highest value by the lag.
 *
 * - `sequenceInitEmptyShard` (warning, heuristic): a target shard holds no row of the table (its `MAX` is NULL) and the
 *   cluster may run v18 or v19: there `--initialize-target-sequences` failed converting that NULL to an integer, after
 *   writes were stopped (#15295; fixed by PR #15289, backported to release-18.0 and 19.0 patch releases whose numbers
 *   were not checked, so a v18/v19 cluster is told the patch matters rather than that it fails).
 *
 * Not judged: tables left without `auto_increment`.
 */
import { defineCheck, type CheckFinding, type Reasons } from '../src/engine/check.js';
import type { ClusterModel, Keyspace, Shard, VSchema, Workflow } from '../src/model/types.js';
import { versionsHold } from '../src/vitess/versions.js';

const NOT_FOUND =
  'failed to locate all of the backing sequence tables being used and no global-keyspace was provided to auto create them in: %s';
const NOT_FOUND_V20 = 'failed to locate all of the backing sequence tables being used: %s';
const NOT_FOUND_V19 = 'failed to locate all of the backing sequence tables being used; sequence table metadata: %+v';
const NO_ONLY_SHARD = 'failed to get the primary tablet for keyspace %s: %v';

/** A vschema name without its backticks (`sqlescape.UnescapeID`, for the plain case). */
const unescapeId = (name: string) =>
  name.length >= 2 && name.startsWith('`') && name.endsWith('`') ? name.slice(1, -1).replace(/``/g, '`') : name;

interface Usage {
  readonly table: string;
  readonly column: string;
  /** As written in the vschema. */
  readonly sequence: string;
  /** Keyspace when qualified, else null. */
  readonly keyspace: string | null;
  readonly backing: string;
}

function usages(wf: Workflow, vschema: VSchema): Usage[] {
  const moved = [...new Set(wf.streams.flatMap((s) => s.tables))].sort();
  return moved.flatMap((table) => {
    const ai = vschema.tables.get(table)?.autoIncrement;
    if (!ai || ai.sequence === '') return [];
    const dot = ai.sequence.indexOf('.');
    return [
      dot < 0
        ? { table, column: ai.column, sequence: ai.sequence, keyspace: null, backing: unescapeId(ai.sequence) }
        : {
            table,
            column: ai.column,
            sequence: ai.sequence,
            keyspace: unescapeId(ai.sequence.slice(0, dot)),
            backing: unescapeId(ai.sequence.slice(dot + 1)),
          },
    ];
  });
}

/** Whether keyspace `ks` defines `table` as a sequence: true / false, or null when its vschema was not read. */
function definesSequence(ks: Keyspace, table: string): boolean | null {
  if (!ks.vschema.ok) return null;
  for (const [name, t] of ks.vschema.value.tables) if (unescapeId(name) === table && t.type === 'sequence') return true;
  return false;
}

/** Which release's words the not-found refusal is quoted in. */
type NotFoundText = 'v21+' | 'v20' | 'v19';

function workflowFindings(
  model: ClusterModel,
  wf: Workflow,
  versionNote: string | null,
  notFoundText: NotFoundText,
  emptyShardVersions: 'all' | 'some' | 'none',
  initialize: boolean,
): CheckFinding<Reason>[] {
  const sourceKs = wf.sourceKeyspaces.length === 1 ? model.keyspace(wf.sourceKeyspaces[0]!) : undefined;
  const target = model.keyspace(wf.keyspace);
  // Only a MoveTables from an unsharded keyspace initializes sequences (server.go switchWrites).
  if (wf.type !== 'MoveTables' || !sourceKs?.vschema.ok || sourceKs.vschema.value.sharded) return [];
  if (!target?.vschema.ok) return [];
  const used = usages(wf, target.vschema.value);
  if (used.length === 0) return [];
  const keyspaces = [...model.keyspaces.values()];
  // Without the flag Vitess neither looks the sequences up nor raises them: only a sequence behind its table matters.
  if (!initialize) return behindFindings(model, wf, used, keyspaces);
  const label = `${wf.keyspace}.${wf.name}`;
  const globalKeyspace = wf.streams.map((s) => s.options?.globalKeyspace ?? '').find((g) => g !== '') ?? '';
  const flag = 'SwitchTraffic with --initialize-target-sequences';
  const out: CheckFinding<Reason>[] = [];
  const note = versionNote === null ? {} : { versionNote };

  // Unqualified names: searched in every unsharded keyspace; judged only when every vschema was read.
  const unqualified = used.filter((u) => u.keyspace === null);
  const missing = unqualified.filter((u) => {
    const found = keyspaces.map((k) =>
      k.vschema.ok && k.vschema.value.sharded ? false : definesSequence(k, u.backing),
    );
    return !found.includes(true) && !found.includes(null);
  });
  if (missing.length > 0 && globalKeyspace === '') {
    const all = [...new Set(used.map((u) => u.backing))].sort();
    // The verdict wraps it as switchWrites does (`failed to get the sequence information in the %s keyspace`,
    // server.go:3227 @v0.24.4, :3319 @v0.20.8, :3214 @v0.19.10). v19 prints its metadata map, whose values are Go
    // pointers: there is no text to quote.
    const quoted =
      notFoundText === 'v19'
        ? {}
        : {
            vitessArgs: [all.join(',')],
          };
    const reason: Reason =
      notFoundText === 'v19'
        ? 'sequenceNotFoundV19'
        : notFoundText === 'v20'
          ? 'sequenceNotFoundV20'
          : 'sequenceNotFound';
    for (const u of missing) {
      const sharded = keyspaces
        .filter((k) => k.vschema.ok && k.vschema.value.sharded && definesSequence(k, u.backing) === true)
        .map((k) => k.name);
      const where =
        sharded.length > 0
          ? `which only the sharded keyspace ${sharded.join(', ')} defines (sequences must be unsharded)`
          : 'which no keyspace defines as a sequence table';
      out.push({
        keyspace: wf.keyspace,
        workflow: wf.name,
        reason,
        message: `table ${u.table} of ${label} takes ${u.column} from the sequence ${u.sequence}, ${where}, and the workflow has no global keyspace to create it in: ${flag} is refused before anything changes${notFoundText === 'v19' ? ' (v19 prints its sequence metadata as Go pointers, so there is no text to quote)' : ''}`,
        ...quoted,
        details: { table: u.table, column: u.column, sequence: u.sequence, definedInSharded: sharded, ...note },
      });
    }
  }

  // Qualified names: the keyspace must exist and have exactly one shard when the sequences are initialized.
  for (const u of used) {
    if (u.keyspace === null) continue;
    const ks = model.keyspace(u.keyspace);
    if (ks !== undefined && !ks.shards.ok) continue; // not read: the read failure says so
    const shardCount = ks?.shards.ok ? ks.shards.value.size : 0;
    if (ks !== undefined && shardCount === 1) continue;
    const what = ks === undefined ? 'does not exist' : `has ${shardCount} shards`;
    out.push({
      keyspace: wf.keyspace,
      workflow: wf.name,
      reason: 'sequenceKeyspaceNotUnsharded',
      message: `table ${u.table} of ${label} takes ${u.column} from the sequence ${u.sequence}, whose keyspace ${u.keyspace} ${what}: ${flag} fails when it initializes the sequences, after writes are stopped`,
      vitessArgs: [u.keyspace, '…'],
      details: { table: u.table, column: u.column, sequence: u.sequence, sequenceKeyspace: u.keyspace, ...note },
    });
  }
  if (emptyShardVersions !== 'none') out.push(...emptyShardFindings(model, wf, used, emptyShardVersions));
  return out;
}

/** The shard's read row of one sequence table, or null when not read (or not declared there). */
function sequenceRow(shard: Shard | undefined, backing: string) {
  const sc = shard?.sidecar;
  if (sc === undefined || !sc.ok || sc.value.sequenceValues === undefined || !sc.value.sequenceValues.ok) return null;
  return sc.value.sequenceValues.value.find((r) => r.table_name === backing) ?? null;
}

/**
 * The highest value of `table.column` over the workflow's target shards; null when a target shard was not read, or
 * the table is missing on one (nothing to compare).
 */
function targetMax(model: ClusterModel, wf: Workflow, table: string, column: string): bigint | null {
  if (wf.targetShards.length === 0) return null;
  let max = 0n;
  for (const name of wf.targetShards) {
    const sc = model.shard(wf.keyspace, name)?.sidecar;
    if (sc === undefined || !sc.ok || sc.value.autoIncrementMax === undefined || !sc.value.autoIncrementMax.ok)
      return null;
    const row = sc.value.autoIncrementMax.value.find((r) => r.table_name === table && r.column_name === column);
    if (row === undefined || !row.present) return null;
    if (row.max_value !== null && BigInt(row.max_value) > max) max = BigInt(row.max_value);
  }
  return max;
}

/** `sequenceBehind`: next_id not above the highest value on the target shards. */
function behindFindings(
  model: ClusterModel,
  wf: Workflow,
  used: readonly Usage[],
  keyspaces: readonly Keyspace[],
): CheckFinding<Reason>[] {
  const label = `${wf.keyspace}.${wf.name}`;
  const out: CheckFinding<Reason>[] = [];
  for (const u of used) {
    // The sequence's keyspace: as qualified, else the unsharded keyspace whose vschema declares it.
    const ks =
      u.keyspace !== null
        ? model.keyspace(u.keyspace)
        : keyspaces.find((k) => k.vschema.ok && !k.vschema.value.sharded && definesSequence(k, u.backing) === true);
    if (ks === undefined || !ks.shards.ok || ks.shards.value.size !== 1) continue;
    const seqShard = [...ks.shards.value.values()][0];
    const row = sequenceRow(seqShard, u.backing);
    if (row === null || !row.present) continue;
    const max = targetMax(model, wf, u.table, u.column);
    // Every target table empty: no id can collide (Vitess skipped initializing then, updateSequenceValues, until
    // PR #19226 for #19225).
    if (max === null || max === 0n) continue;
    if (row.next_id !== null && BigInt(row.next_id) > max) continue;
    const seq = `${ks.name}.${u.backing}`;
    const now = row.next_id === null ? 'has no row id = 0 (never initialized)' : `has next_id ${row.next_id}`;
    out.push({
      keyspace: wf.keyspace,
      workflow: wf.name,
      reason: 'sequenceBehind',
      message: `table ${u.table} of ${label} takes ${u.column} from the sequence ${seq}, which ${now}, not above the highest ${u.column} on the target shards (${max}): SwitchTraffic without --initialize-target-sequences leaves new rows drawing ids that already exist (duplicate keys) once writes are switched; with that flag (judge it with vtpreflight's --initialize-target-sequences), Vitess sets next_id to ${max + 1n} after writes stop`,
      details: {
        table: u.table,
        column: u.column,
        sequence: u.sequence,
        sequenceKeyspace: ks.name,
        nextId: row.next_id,
        cache: row.cache,
        targetMax: max.toString(),
      },
    });
  }
  return out;
}

/** `sequenceInitEmptyShard`: target shards holding no row of a table whose sequence the flag initializes. */
function emptyShardFindings(
  model: ClusterModel,
  wf: Workflow,
  used: readonly Usage[],
  versions: 'all' | 'some',
): CheckFinding<Reason>[] {
  const label = `${wf.keyspace}.${wf.name}`;
  const out: CheckFinding<Reason>[] = [];
  for (const u of used) {
    const empty: string[] = [];
    let judged = wf.targetShards.length > 0;
    for (const name of wf.targetShards) {
      const sc = model.shard(wf.keyspace, name)?.sidecar;
      const rows = sc?.ok ? sc.value.autoIncrementMax : undefined;
      const row = rows?.ok ? rows.value.find((r) => r.table_name === u.table && r.column_name === u.column) : undefined;
      if (row === undefined || !row.present) judged = false;
      else if (row.max_value === null) empty.push(name);
    }
    if (!judged || empty.length === 0) continue;
    const which = versions === 'all' ? 'this v18/v19 cluster' : 'a v18/v19 cluster';
    out.push({
      keyspace: wf.keyspace,
      workflow: wf.name,
      reason: 'sequenceInitEmptyShard',
      message: `table ${u.table} of ${label} has no row on target shard${empty.length === 1 ? '' : 's'} ${empty.join(', ')}: on ${which} without the PR #15289 patch, SwitchTraffic with --initialize-target-sequences fails reading its NULL highest value, after writes are stopped (#15295)`,
      details: { table: u.table, column: u.column, sequence: u.sequence, emptyShards: empty },
    });
  }
  return out;
}

const reasons = {
  sequenceNotFound: {
    severity: 'error',
    step: 'sequences',
    vitess: {
      template: NOT_FOUND,
      file: 'go/vt/vtctl/workflow/sequences.go',
      line: 433,
      // The same words in v21 (traffic_switcher.go:1681 @v0.21.5).
      versions: { from: 21 },
    },
  },
  sequenceNotFoundV20: {
    severity: 'error',
    step: 'sequences',
    vitess: {
      template: NOT_FOUND_V20,
      file: 'go/vt/vtctl/workflow/traffic_switcher.go',
      line: 1606,
      release: 'v0.20.8',
      versions: { from: 20, to: 20 },
    },
  },
  sequenceNotFoundV19: {
    severity: 'error',
    step: 'sequences',
    vitess: {
      // The map printed holds Go pointers, so the finding quotes nothing (its message says why).
      template: NOT_FOUND_V19,
      file: 'go/vt/vtctl/workflow/traffic_switcher.go',
      line: 1376,
      release: 'v0.19.10',
      versions: { from: 19, to: 19 },
    },
  },
  sequenceKeyspaceNotUnsharded: {
    severity: 'error',
    step: 'initialize-sequences',
    vitess: {
      template: NO_ONLY_SHARD,
      file: 'go/vt/vtctl/workflow/sequences.go',
      line: 233,
      versions: { from: 22 },
    },
  },
  sequenceInitEmptyShard: {
    reads: ['sequenceValues', 'autoIncrementMax'],
    severity: 'warning',
    step: 'initialize-sequences',
    heuristic: true,
    rationale:
      'v18/v19 read a target shard without rows as NULL and failed converting it to an integer during the initialization (#15295), fixed in patch releases by PR #15289.',
  },
  sequenceBehind: {
    reads: ['sequenceValues', 'autoIncrementMax'],
    severity: 'warning',
    step: 'initialize-sequences',
    heuristic: true,
    rationale:
      "A sequence hands out ids from its next_id; below the table's highest value, inserts after the write switch collide unless --initialize-target-sequences raises it (sequences.go sqlInitSequenceTable, v18+).",
  },
} satisfies Reasons;

type Reason = keyof typeof reasons;

export default defineCheck({
  id: 'target-sequences',
  title: 'Every auto_increment sequence of the moved tables can be found and initialized',
  reasons,
  description:
    "With `--initialize-target-sequences`, the write switch of a MoveTables from an unsharded keyspace locates the sequence of every moved table whose target vschema has an `auto_increment` (`vitessio/vitess:go/vt/vtctl/workflow/sequences.go` `getTargetSequenceMetadata`): an unqualified sequence must be a `sequence` table of an unsharded keyspace, or the workflow must have a global keyspace to create it in, else the switch is refused with `failed to get the sequence information in the %s keyspace: failed to locate all of the backing sequence tables being used …`; a qualified `ks.seq` must name a keyspace with exactly one shard, else the initialization fails after writes are stopped (#17831, #17871, #15295, #19225, #21165). Judged only when vtpreflight is given the same `--initialize-target-sequences`. Without it, a sequence whose `next_id` (row `id = 0` on the sequence keyspace's primary) is not above the column's highest value on the target primaries (`MAX`, what the flag itself reads) makes the write switch hand out ids that already exist (a warning: the flag, v18+, or raising `next_id` by hand prevents it).",
  remediation:
    'Create the sequence table in an unsharded keyspace and declare it there with `"type": "sequence"` (`vtctldclient ApplyVSchema`), or qualify the `auto_increment` sequence with that keyspace, or give the workflow a global keyspace. For a sequence behind its table, pass `--initialize-target-sequences` to SwitchTraffic, or raise `next_id` above the highest value before the switch. Then run vtpreflight again.',
  needs: ['topology', 'vschema'],
  run(model, options) {
    const hold = versionsHold(options.vitess, '>=22');
    const versionNote =
      hold === 'all'
        ? null
        : 'the texts quoted are those of v22+ (global keyspaces); older releases word the refusal differently';
    // #15295 (v18/v19 before the PR #15289 patch): judged only when the cluster may run one of them.
    const emptyShard = versionsHold(options.vitess, '<20');
    const initFlag = versionsHold(options.vitess, '>=18');
    const emptyShardVersions = initFlag === 'none' ? 'none' : emptyShard;
    const initialize = options.action.initializeTargetSequences === true;
    // The refusal's words: v21+ unless the cluster is known to run an older release (traffic_switcher.go:1606
    // @v0.20.8, :1376 @v0.19.10).
    const notFoundText: NotFoundText =
      versionsHold(options.vitess, '>=21') !== 'none'
        ? 'v21+'
        : versionsHold(options.vitess, '>=20') !== 'none'
          ? 'v20'
          : 'v19';
    return model.workflows.flatMap((wf) =>
      workflowFindings(model, wf, versionNote, notFoundText, emptyShardVersions, initialize),
    );
  },
});
