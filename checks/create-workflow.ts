/**
 * create (`check --action create`): what `vtctldclient MoveTables create` refuses before it creates anything on the
 * target shards. Upstream `vitessio/vitess:go/vt/vtctl/workflow/utils.go` @00bd50b6 `validateNewWorkflow`, the first
 * thing the materializer's `createWorkflowStreams` (materializer.go) runs: over every shard record of the target
 * keyspace (`FindAllShardsInKeyspace`, serving or not), a record without a primary is `shard has no primary: %v`
 * (utils.go:105, `si.ShardName()`: the shard name alone); on every other shard, the primary's `_vt.vreplication`
 * rows (`ReadVReplicationWorkflows`, every workflow, frozen ones included) must not hold the workflow name, else
 * `workflow %s already exists in keyspace %s on tablet %s` (utils.go:128, the primary's alias). The errors of all
 * shards are aggregated (`vterrors.Aggregate`).
 * A target primary whose sidecar could not be read leaves the name unverified (a located read failure).
 * A target keyspace that does not exist (GetKeyspaces read, the name not in it) fails before all of that, at the
 * first topo read of the keyspace (`targetKeyspaceMissing`, {@link missingKeyspaceFindings}); one that could not be
 * read (GetKeyspaces failed) is a read failure the model records: unverified, never blocked.
 *
 * Before that, MoveTablesCreate lists the source tables on the first serving source shard's primary (utils.go
 * @00bd50b6 `getTablesInKeyspace`: `shard does not have a primary: %v`, :72) and refuses a requested name that is not
 * among them (`validateSourceTablesExist`: `table(s) not found in source keyspace %s: %s`, :1048).
 * Then (materializer.go @011aa691, the r22 line numbers) `buildMaterializer`: a sharded target keyspace's vschema must
 * have every table to move, else `table %s not found in vschema for keyspace %s` (:489, the first missing table in the
 * request's order; an unsharded target gets the tables added by MoveTablesCreate before this). Then `deploySchema` runs
 * `validateEmptyTables` (v22+): `select 1 from <table> limit 1` (:61) for every table on every serving target primary,
 * ignoring "doesn't exist"; any row fails with `non-empty tables found in target keyspace(%s): %s` (:625), wrapped
 * `failed to validate that all target tables are empty` (:297). vtpreflight sends the same probe (tagged, in the
 * primary's one batch) when `--tables` names the tables; with `--all-tables` the tables are the base tables of the
 * source keyspace's first serving shard's primary (`getTablesInKeyspace`, utils.go) minus `--exclude-tables`, and an
 * existing target table is reported as not probed.
 * With `--source-shards` and `--target-shards` the action is Reshard create instead ({@link reshardFindings}).
 * Not judged yet: SrvVSchema per cell, the `convert_tz` probe, a partial MoveTables
 * (`--source-shards` alone), Reshard's reference streams and schema copy.
 */
import { defineCheck, type CheckFinding, type NotJudged } from '../src/engine/check.js';
import type { CreateRequest, TabletTypeName } from '../src/engine/options.js';
import { canonicalTabletType, parseTabletTypesColumn } from '../src/model/tablet-picker.js';
import type { ClusterModel, Shard } from '../src/model/types.js';
import { byCodeUnit, printable } from '../src/text.js';
import { type Corrupt, partitionError } from '../src/model/srv-keyspace-partitions.js';
import {
  type KeyRange,
  keyRangeAdd,
  keyRangeEqual,
  keyRangeString,
  keyRangesIntersect,
} from '../src/vitess/keyrange.js';
import { pickRule, versionsHold } from '../src/vitess/versions.js';

const UTILS = 'go/vt/vtctl/workflow/utils.go';
/** The topo's NoNode error (errors.go:55 @v0.23.2; the same words at :54 @v0.24.4), which GetVSchema returns as is. */
const TOPO_NO_NODE = {
  template: "node doesn't exist: %s",
  file: 'go/vt/topo/errors.go',
  line: 55,
  release: 'v0.23.2',
  versions: { from: 19 },
} as const;
const SRV = 'go/vt/topo/srv_keyspace.go';
const SPLIT = 'go/vt/topotools/split.go';

/** A corrupt partition found by Reshard create's `ValidateSrvKeyspace` (src/model/srv-keyspace-partitions.ts). */
type ReshardCorrupt =
  | 'reshardSrvKeyspaceStartNotMinKey'
  | 'reshardSrvKeyspaceEndNotMaxKey'
  | 'reshardSrvKeyspaceInconsistentKeyRanges'
  | 'reshardSrvKeyspaceNonContiguous';
const CORRUPT_REASON: Readonly<Record<Corrupt['reason'], ReshardCorrupt>> = {
  startNotMinKey: 'reshardSrvKeyspaceStartNotMinKey',
  endNotMaxKey: 'reshardSrvKeyspaceEndNotMaxKey',
  inconsistentKeyRanges: 'reshardSrvKeyspaceInconsistentKeyRanges',
  nonContiguous: 'reshardSrvKeyspaceNonContiguous',
};

/** ReshardCreate returns `OrderAndCheckPartitions`' text as is (server.go:1548-1552 @v0.24.4). */
const corruptAtCreate = (template: string, line: number) =>
  ({
    severity: 'error',
    step: 'reshard-srv-keyspace',
    vitess: { template, file: SRV, line, release: 'v0.24.4', versions: { from: 19 } },
  }) as const;

/** `ValidateForReshard` (split.go @v0.24.4), wrapped by buildResharder (resharder.go:125 @v0.24.4). */
const keyRangeReason = (literal: string, line: number) =>
  ({
    severity: 'error',
    step: 'reshard-shards',
    vitess: {
      template: `ValidateForReshard: ${literal}`,
      file: 'go/vt/vtctl/workflow/resharder.go',
      line: 125,
      release: 'v0.24.4',
      wraps: { literal, file: SPLIT, line },
      versions: { from: 19 },
    },
  }) as const;
const MATERIALIZER = 'go/vt/vtctl/workflow/materializer.go';
const RESHARDER = 'go/vt/vtctl/workflow/resharder.go';

/**
 * A tablet alias as Go's `%v` prints the `topodatapb.TabletAlias` proto (v19 and v20 texts): `cell:"zone1" uid:900`.
 */
function protoAlias(alias: string): string {
  const m = /^(.*)-([0-9]+)$/.exec(alias);
  return m === null ? alias : `cell:"${m[1]}" uid:${Number(m[2])}`;
}

type R =
  | 'workflowExistsV19'
  | 'workflowExistsV20'
  | 'frozenWorkflowOnTarget'
  | 'shardNoPrimary'
  | 'workflowExists'
  | 'targetKeyspaceMissing'
  | 'targetVSchemaMissing'
  | 'tableNotInVSchema'
  | 'tablesNotListed'
  | 'targetTableNotEmpty'
  | 'targetTableNotEmptyBefore22'
  | 'emptinessNotProbed'
  | 'sourceShardNoPrimary'
  | 'sourceTableMissing'
  | 'sourceTablesNotVisible'
  | 'reshardShardUnknown'
  | 'reshardSourceNotServing'
  | 'reshardTargetNoPrimary'
  | 'reshardTargetServing'
  | 'reshardTargetStreams'
  | 'reshardTargetHasTables'
  | 'reshardSrvKeyspaceMissing'
  | ReshardCorrupt
  | 'reshardSameKeyRange'
  | 'reshardKeyRangesDiffer'
  | 'reshardShardsNotContiguous'
  | 'cellNotInTopology'
  | 'noSourceTabletInCells';

/** The first serving shard of the source keyspace (key-range order, as `GetServingShards` lists them), if read. */
function firstSourceShard(model: ClusterModel, create: CreateRequest) {
  const source = create.sourceKeyspace === undefined ? undefined : model.keyspaces.get(create.sourceKeyspace);
  if (source === undefined || !source.shards.ok) return undefined;
  return [...source.shards.value.values()].find((s) => s.isPrimaryServing);
}

/**
 * The tables MoveTables create would move: `--tables`, or with `--all-tables` the base tables of the source keyspace's
 * first serving shard (key-range order) as its primary lists them, minus `--exclude-tables`. A string says why the
 * list is not known (a read failure of the source is also recorded by the model, which leaves the verdict unverified).
 */
function tablesToMove(model: ClusterModel, create: CreateRequest): readonly string[] | string {
  if (create.tables === undefined) return 'no --tables or --all-tables given';
  if (create.tables !== 'all') return create.tables;
  const source = create.sourceKeyspace === undefined ? undefined : model.keyspaces.get(create.sourceKeyspace);
  if (source === undefined) return `the source keyspace ${create.sourceKeyspace ?? '(none)'} was not read`;
  if (!source.shards.ok) return `the shards of ${source.name} were not read`;
  const first = firstSourceShard(model, create);
  if (first === undefined) return `${source.name} has no serving shard`;
  const sc = first.sidecar;
  if (sc === undefined || !sc.ok) return `the primary of ${source.name}/${first.name} was not read`;
  const keys = sc.value.tableKeys;
  if (keys === undefined) return `this readout does not list the base tables of ${source.name}/${first.name}`;
  if (!keys.ok) return `the base tables of ${source.name}/${first.name} were not read`;
  const exclude = new Set(create.excludeTables ?? []);
  return keys.value.map((t) => t.table).filter((t) => !exclude.has(t));
}

/**
 * What MoveTables create's validations read that this readout does not carry at all (a readout from before
 * vtpreflight read it): the serving target primaries' table lists, without which validateEmptyTables
 * (materializer.go) was not judged, and under `--all-tables` the source's base tables, without which the tables to
 * move are unknown; and target tables that exist but were not probed for rows (`--all-tables`). The
 * `emptinessNotProbed` and `tablesNotListed` warnings say the same; this makes the verdict `unverified` (never
 * `at-risk`): Vitess acts on both at create.
 */
function createNotJudged(model: ClusterModel, create: CreateRequest): NotJudged<R>[] {
  if (create.reshard !== undefined || create.tables === undefined) return [];
  const ks = model.keyspaces.get(create.targetKeyspace);
  if (ks === undefined || !ks.shards.ok) return [];
  const base = { keyspace: create.targetKeyspace, workflow: create.workflow };
  const out: NotJudged<R>[] = [];
  const first = firstSourceShard(model, create);
  const fsc = first?.sidecar;
  if (create.tables === 'all' && fsc?.ok && fsc.value.tableKeys === undefined)
    out.push({
      reason: 'tableNotInVSchema',
      ...base,
      part: `information_schema.TABLES (base tables) of ${fsc.value.dbName} of ${first!.keyspace}/${first!.name} (${fsc.value.tablet})`,
      why: 'not in this readout (taken before vtpreflight read it): the tables --all-tables moves are unknown',
    });
  const moved = tablesToMove(model, create);
  for (const shard of ks.shards.value.values()) {
    const sc = shard.sidecar;
    if (!shard.isPrimaryServing || sc === undefined || !sc.ok || sc.value.tableProbes !== undefined) continue;
    const listed = sc.value.tables;
    // Tables to move that exist there but were not probed (`--all-tables`: the reader probes only what --tables
    // names): whether they hold rows is not known either.
    const unprobed = listed?.ok && typeof moved !== 'string' ? moved.filter((t) => listed.value.includes(t)) : [];
    if (unprobed.length > 0)
      out.push({
        reason: 'targetTableNotEmpty',
        ...base,
        part: `select 1 from ${unprobed.join(', ')} of ${sc.value.dbName} of ${shard.keyspace}/${shard.name} (${sc.value.tablet})`,
        why: "not probed (name the tables with --tables): whether they hold rows (create's validateEmptyTables) is unknown",
      });
    if (listed !== undefined) continue;
    out.push({
      reason: 'targetTableNotEmpty',
      ...base,
      part: `information_schema.TABLES of ${sc.value.dbName} of ${shard.keyspace}/${shard.name} (${sc.value.tablet})`,
      why: "not in this readout (taken before vtpreflight read it): whether the tables to move already hold rows there (create's validateEmptyTables) was not judged",
    });
  }
  return out;
}

/**
 * A target keyspace vtctld's GetKeyspaces does not list, which does not exist: the first topo read of the create
 * fails with the topo's NoNode error. MoveTables create reads the target's vschema first (`GetVSchema`, server.go
 * :1127-1130 @v0.24.4, :1081-1084 @v0.23.2, :901-904 @v0.22.4, :1364-1367 @v0.21.5, :1310-1313 @v0.20.8,
 * :1376-1379 @v0.19.10); Reshard create validates the keyspace's SrvKeyspace in the first cell (`ValidateSrvKeyspace`,
 * server.go:1548-1552 and srv_keyspace.go:726-742 @v0.24.4: GetSrvKeyspace's NoNode is returned as is), or with no
 * cell to validate fails at buildResharder's GetShard (resharder.go:91-94 @v0.24.4).
 */
function missingKeyspaceFindings(model: ClusterModel, create: CreateRequest): CheckFinding<R>[] {
  const base = { keyspace: create.targetKeyspace, workflow: create.workflow };
  const reshard = create.reshard;
  if (reshard === undefined)
    return [
      {
        reason: 'targetKeyspaceMissing',
        message: `target keyspace ${create.targetKeyspace} does not exist (vtctld's GetKeyspaces does not list it), so MoveTables create fails reading its vschema`,
        ...base,
        details: { node: `keyspaces/${create.targetKeyspace}/VSchema` },
      },
    ];
  // The cells are a read of their own: when it failed, the model records it (unverified).
  if (!model.serving.cells.ok) return [];
  const known = model.serving.cells.value;
  const cells = (create.cells !== undefined ? known.filter((c) => create.cells!.includes(c)) : [...known]).sort(
    byCodeUnit,
  );
  const cell = cells[0];
  // --cells naming no cell of the topology fails ExpandCells first, in words of its own: not judged (as below).
  if (cell === undefined && create.cells !== undefined) return [];
  if (cell !== undefined)
    return [
      {
        reason: 'reshardSrvKeyspaceMissing',
        message: `target keyspace ${create.targetKeyspace} does not exist (vtctld's GetKeyspaces does not list it), so cell ${cell} has no SrvKeyspace for it, and Reshard create validates the SrvKeyspace in ${create.cells !== undefined ? 'its --cells' : 'every cell'} first`,
        ...base,
        details: { cell, keyspaceExists: false },
      },
    ];
  const first = reshard.sourceShards[0] ?? reshard.targetShards[0] ?? '';
  return [
    {
      reason: 'reshardShardUnknown',
      message: `target keyspace ${create.targetKeyspace} does not exist (vtctld's GetKeyspaces does not list it): Reshard create fails reading shard ${first} (GetShard(${first}) failed)`,
      ...base,
      shard: first,
      details: { keyspaceExists: false },
    },
  ];
}

export default defineCheck({
  id: 'create-workflow',
  // validateNewWorkflow (utils.go): one error per target shard, aggregated.
  aggregated: 'perStream',
  needs: ['topology'],
  title: 'MoveTables or Reshard create can create the workflow',
  reasons: {
    targetKeyspaceMissing: {
      severity: 'error',
      step: 'create-target-vschema',
      // moveTablesCreate's GetVSchema of the target (server.go:1127-1130 @v0.24.4) returns the topo's NoNode error as
      // is; `no vschema found for target keyspace %s` (:1132) follows only a nil vschema without an error, which
      // GetVSchema (topo/vschema.go:89-110 @v0.24.4) never returns. The same text at errors.go:55 from v0.19.10 to
      // v0.23.2; v0.24.4 concatenates the same words (:54). The path is under the topo's root, which vtctld does not
      // tell, so no text is filled in.
      vitess: TOPO_NO_NODE,
    },
    targetVSchemaMissing: {
      severity: 'error',
      step: 'create-target-vschema',
      // The same GetVSchema (server.go:1127-1130 @v0.24.4, :1376-1379 @v0.19.10) of a keyspace that exists without a
      // vschema node (`vtctldclient CreateKeyspace --allow-empty-vschema`, server.go:973-977 @v0.24.4 skips
      // EnsureVSchema): the topo's NoNode error, as for a keyspace that does not exist.
      vitess: TOPO_NO_NODE,
    },
    shardNoPrimary: {
      severity: 'error',
      step: 'create-validate',
      vitess: { template: 'shard has no primary: %v', file: UTILS, line: 105, versions: { from: 17 } },
    },
    workflowExists: {
      severity: 'error',
      step: 'create-validate',
      // v21+: the alias as a string (topoproto.TabletAliasString, utils.go:125-126 @v0.21.5, :129-130 @v0.24.4).
      vitess: {
        template: 'workflow %s already exists in keyspace %s on tablet %s',
        file: UTILS,
        line: 128,
        versions: { from: 21 },
      },
    },
    workflowExistsV20: {
      severity: 'error',
      step: 'create-validate',
      // v20: `%v` of the alias proto, `cell:"zone1" uid:900` (Go's protobuf text, whose spacing is not guaranteed).
      vitess: {
        template: 'workflow %s already exists in keyspace %s on tablet %v',
        file: UTILS,
        line: 124,
        release: 'v0.20.8',
        versions: { from: 20, to: 20 },
      },
    },
    workflowExistsV19: {
      severity: 'error',
      step: 'create-validate',
      // v19: a `select 1 … where workflow=…` per target primary, its message wrapped (measured on real v19.0.0:
      // `validateWorkflowName.VReplicationExec: workflow m2m already exists in keyspace merchant on tablet
      // cell:"zone1" uid:900`).
      vitess: {
        template: 'validateWorkflowName.VReplicationExec: workflow %s already exists in keyspace %s on tablet %v',
        file: UTILS,
        line: 126,
        release: 'v0.19.10',
        wraps: { literal: 'workflow %s already exists in keyspace %s on tablet %v', file: UTILS, line: 113 },
        versions: { from: 19, to: 19 },
      },
    },
    frozenWorkflowOnTarget: {
      severity: 'error',
      step: 'create-validate',
      // v19 only: the second validation of validateWorkflowName; gone in v0.20.8, which reads the workflows instead.
      vitess: {
        template:
          'validateWorkflowName.VReplicationExec: found previous frozen workflow on tablet %v, please review and delete it first before creating a new workflow',
        file: UTILS,
        line: 126,
        release: 'v0.19.10',
        wraps: {
          literal:
            'found previous frozen workflow on tablet %v, please review and delete it first before creating a new workflow',
          file: UTILS,
          line: 116,
        },
        versions: { from: 19, to: 19 },
      },
    },
    tableNotInVSchema: {
      severity: 'error',
      step: 'create-vschema',
      vitess: {
        template: 'table %s not found in vschema for keyspace %s',
        file: MATERIALIZER,
        line: 489,
        versions: { from: 17 },
      },
    },
    tablesNotListed: {
      reads: ['tables', 'tableKeys'],
      severity: 'warning',
      step: 'create-vschema',
      heuristic: true,
      rationale:
        "With --all-tables the tables to move are the source keyspace's, and when they could not be listed neither the target vschema nor the target tables can be judged for them.",
    },
    sourceShardNoPrimary: {
      severity: 'error',
      step: 'create-source-tables',
      vitess: { template: 'shard does not have a primary: %v', file: UTILS, line: 72, versions: { from: 17 } },
    },
    sourceTableMissing: {
      reads: ['tables', 'tableKeys'],
      severity: 'error',
      step: 'create-source-tables',
      vitess: {
        template: 'table(s) not found in source keyspace %s: %s',
        file: UTILS,
        line: 1048,
        versions: { from: 17 },
      },
    },
    reshardShardUnknown: {
      severity: 'error',
      step: 'reshard-shards',
      heuristic: true,
      rationale:
        "A --source-shards or --target-shards name without a shard record fails buildResharder at GetShard with the topology server's own not-found error, whose text depends on the topo implementation.",
    },
    reshardSourceNotServing: {
      severity: 'error',
      step: 'reshard-shards',
      vitess: {
        template: 'source shard %v is not in serving state',
        file: RESHARDER,
        line: 99,
        versions: { from: 17 },
      },
    },
    reshardTargetNoPrimary: {
      severity: 'error',
      step: 'reshard-shards',
      vitess: { template: 'target shard %v has no primary tablet', file: RESHARDER, line: 114, versions: { from: 17 } },
    },
    reshardTargetServing: {
      severity: 'error',
      step: 'reshard-shards',
      vitess: { template: 'target shard %v is in serving state', file: RESHARDER, line: 117, versions: { from: 17 } },
    },
    reshardTargetStreams: {
      severity: 'error',
      step: 'reshard-targets',
      vitess: {
        template: 'some streams already exist in the target shards, please clean them up and retry the command',
        file: RESHARDER,
        line: 156,
        versions: { from: 17 },
      },
    },
    sourceTablesNotVisible: {
      reads: ['tables', 'tableKeys'],
      severity: 'warning',
      step: 'create-source-tables',
      heuristic: true,
      rationale:
        'information_schema.TABLES lists only the tables the MySQL user has a privilege on, so a source schema that lists no table is either a grant vtpreflight lacks or a keyspace without the tables: MoveTables create refuses the latter, and neither can be told apart here (src/model/schema-visibility.ts).',
    },
    cellNotInTopology: {
      severity: 'warning',
      step: 'create-streams',
      heuristic: true,
      rationale:
        'vtctldclient only trims the --cells names (common/utils.go ParseCells) and vtctld stores them in the streams unchecked, so a name that is no cell of the topology (nor a cells alias) gives the tablet picker no tablet.',
    },
    noSourceTabletInCells: {
      severity: 'warning',
      step: 'create-streams',
      heuristic: true,
      rationale:
        "Each stream's tablet picker reads only source tablets of its tablet types in its cells plus the target primary's own cell, so with none on a source shard the create succeeds and the copy never starts.",
    },
    reshardSrvKeyspaceMissing: {
      severity: 'error',
      step: 'reshard-srv-keyspace',
      // The topo's NoNode text; the SrvKeyspace's path under the cell's topo root is not known to us (vtctld's
      // GetSrvKeyspaces answers a nil entry), so no text is filled in.
      vitess: { template: "node doesn't exist: %s", file: 'go/vt/topo/errors.go', line: 49, versions: { from: 19 } },
    },
    reshardSrvKeyspaceStartNotMinKey: corruptAtCreate(
      'keyspace partition for %v in cell %v does not start with min key',
      698,
    ),
    reshardSrvKeyspaceEndNotMaxKey: corruptAtCreate(
      'keyspace partition for %v in cell %v does not end with max key',
      702,
    ),
    reshardSrvKeyspaceInconsistentKeyRanges: corruptAtCreate(
      'shards with inconsistent KeyRanges for %v in cell %v. shards: %v, %v',
      710,
    ),
    reshardSrvKeyspaceNonContiguous: corruptAtCreate(
      'non-contiguous KeyRange values for %v in cell %v at shard %v to %v: %v != %v',
      717,
    ),
    reshardSameKeyRange: keyRangeReason('same keyrange is present in source and target: %v', 34),
    reshardKeyRangesDiffer: keyRangeReason("source and target keyranges don't match: %v vs %v", 47),
    reshardShardsNotContiguous: keyRangeReason("shards don't form a contiguous keyrange", 72),
    reshardTargetHasTables: {
      reads: ['tables', 'tableKeys'],
      severity: 'warning',
      step: 'reshard-copy-schema',
      heuristic: true,
      rationale:
        'Reshard create copies the source schema to target shards that already hold tables (a cancelled --keep-data Reshard leaves them): CopySchemaShard fails mid-way on a table that differs, and the copy fails on duplicate keys where one holds rows, since Reshard has no validateEmptyTables.',
    },
    targetTableNotEmpty: {
      reads: ['tableProbes'],
      severity: 'error',
      step: 'create-empty-tables',
      vitess: {
        template: 'non-empty tables found in target keyspace(%s): %s',
        file: MATERIALIZER,
        line: 625,
        versions: { from: 22 },
      },
    },
    targetTableNotEmptyBefore22: {
      reads: ['tableProbes'],
      severity: 'warning',
      step: 'create-empty-tables',
      heuristic: true,
      rationale:
        'Before v22 MoveTables create does not check that the target tables are empty: the workflow is created and its copy fails later on duplicate keys, or mixes old rows into the moved data (vitessio/vitess#16817).',
    },
    emptinessNotProbed: {
      reads: ['tableProbes'],
      severity: 'warning',
      step: 'create-empty-tables',
      heuristic: true,
      rationale:
        'A table to move already exists on a serving target primary but this run did not probe it for rows (a snapshot taken without the probe, or --all-tables), so MoveTables create may still refuse it as non-empty.',
    },
  },
  description:
    "Judged with `--action create --workflow <name> --target-keyspace <keyspace>` (`vtctldclient MoveTables create`): a target keyspace that does not exist, or exists without a vschema (created with `--allow-empty-vschema`), fails first, reading its vschema, with the topo's `node doesn't exist: %s` (a keyspace vtpreflight could not list, or a vschema it could not read for another reason, leaves the verdict unverified instead). Before anything is created, `validateNewWorkflow` (`utils.go`) reads every shard record of the target keyspace, serving or not. A record without a primary fails with `shard has no primary: %v`; a target primary that already holds a stream with the workflow name (a half-created, cancelled-with-errors or switched but never completed workflow) fails with `workflow %s already exists in keyspace %s on tablet %s`. Then, for the tables to move (`--tables`, or `--all-tables` with `--source-keyspace` and `--exclude-tables`), a sharded target keyspace whose vschema lacks one fails with `table %s not found in vschema for keyspace %s`, and from v22 a table that already holds a row on a serving target primary (vtpreflight runs Vitess's own `select 1 from <table> limit 1` there) fails with `failed to validate that all target tables are empty: non-empty tables found in target keyspace(%s): %s`. With `--source-shards` and `--target-shards` it judges Reshard create: first the keyspace's SrvKeyspace in every cell (or `--cells`), which must exist and be whole (`ValidateSrvKeyspace`), then each source shard serving, each target shard with a primary and not serving, the key ranges of both sides covering the same range without a shared range (`ValidateForReshard: source and target keyranges don't match: %v vs %v`), and no stream already on a target primary (`some streams already exist in the target shards, please clean them up and retry the command`).",
  remediation:
    "Give every shard of the target keyspace a primary (`vtctldclient PlannedReparentShard <keyspace>/<shard>`), or delete a leftover shard record. For a name already taken, pick another `--workflow`, or finish the old workflow (`vtctldclient MoveTables --workflow <name> --target-keyspace <keyspace> complete` or `cancel`, see `vtpreflight sweep`). Give a target keyspace without a vschema one (`vtctldclient ApplyVSchema --vschema '{}' <keyspace>` for an unsharded one). Add each table to move to the sharded target's vschema with its primary vindex (`vtctldclient ApplyVSchema`). Empty or drop a target table that already holds rows (it is not part of this move yet), or leave it out of `--tables`. For Reshard create, rebuild a missing or corrupt SrvKeyspace (`vtctldclient RebuildKeyspaceGraph --cells <cell> <keyspace>`), name source and target shards that cover the same key range, and finish or cancel the workflow that left streams on the target shards (`vtpreflight sweep` lists them). Then run vtpreflight again.",
  notJudged(model, options) {
    const create = options.action.create;
    return create === undefined ? [] : createNotJudged(model, create);
  },
  run(model, options) {
    const create = options.action.create;
    if (create === undefined) return [];
    const ks = model.keyspaces.get(create.targetKeyspace);
    // GetKeyspaces failed: the model records the read failure, which leaves the verdict unverified (never blocked).
    if (ks === undefined) return model.keyspacesRead.ok ? missingKeyspaceFindings(model, create) : [];
    // MoveTables create reads the target's vschema before anything else of it: a keyspace without a vschema node (made
    // with --allow-empty-vschema) fails there as one that does not exist does. Any other failed read of it is a read
    // failure the model records (unverified).
    if (create.reshard === undefined && !ks.vschema.ok && ks.vschema.error.kind === 'not-found') {
      // The create's words are those of vtctld's own GetVSchema answer: the node it named (under the topo's root).
      const node = ks.vschema.error.node;
      return [
        {
          reason: 'targetVSchemaMissing',
          message: `target keyspace ${create.targetKeyspace} has no vschema (vtctld's GetVSchema: ${printable(ks.vschema.error.reason)}), so MoveTables create fails reading it`,
          keyspace: create.targetKeyspace,
          workflow: create.workflow,
          ...(node !== undefined ? { vitessArgs: [node] } : {}),
          details: { node: node ?? `keyspaces/${create.targetKeyspace}/VSchema` },
        },
      ];
    }
    // Shard records not read: a located read failure, which leaves the verdict unverified.
    if (!ks.shards.ok) return [];
    // ReshardCreate runs no validateNewWorkflow ("TODO: validate workflow does not exist", server.go ReshardCreate).
    if (create.reshard !== undefined)
      return [
        ...reshardSrvKeyspaceFindings(model, create),
        ...reshardFindings(ks.shards.value, create, create.reshard),
        ...streamSourceFindings(model, create, options.action.tabletTypes),
      ];
    const out: CheckFinding<R>[] = [];
    const base = { keyspace: create.targetKeyspace, workflow: create.workflow };
    for (const shard of ks.shards.value.values()) {
      if (shard.primaryAlias === null) {
        out.push({
          reason: 'shardNoPrimary',
          message: `shard ${create.targetKeyspace}/${shard.name} has no primary, and MoveTables create reads every shard record of the target keyspace`,
          ...base,
          shard: shard.name,
          vitessArgs: [shard.name],
        });
        continue;
      }
      const sidecar = shard.sidecar;
      if (sidecar === undefined || !sidecar.ok) continue;
      const tablet = sidecar.value.tablet;
      const streams = sidecar.value.streams.filter((s) => s.workflow === create.workflow);
      if (streams.length === 0) {
        // v19 also refuses any frozen (not partial) workflow on a target primary (utils.go:116-117 @v0.19.10).
        const frozen = sidecar.value.streams.filter((s) => s.message === 'FROZEN' && s.workflowSubType !== 'Partial');
        if (frozen.length === 0 || versionsHold(options.vitess, '<20') !== 'all') continue;
        out.push({
          reason: 'frozenWorkflowOnTarget',
          message: `the primary ${tablet} of ${create.targetKeyspace}/${shard.name} has a FROZEN workflow (${[...new Set(frozen.map((s) => s.workflow))].join(', ')}), which Vitess v19 refuses to create beside`,
          ...base,
          shard: shard.name,
          tablet,
          vitessArgs: [protoAlias(tablet)],
          details: { frozenWorkflows: [...new Set(frozen.map((s) => s.workflow))], streamIds: frozen.map((s) => s.id) },
        });
        continue;
      }
      // Each release's words: v19 wraps a message that prints the alias as a proto (utils.go:113, :126 @v0.19.10), v20
      // prints the proto unwrapped (utils.go:124 @v0.20.8), v21+ the alias string (utils.go:125-126 @v0.21.5).
      const rule = pickRule(options.vitess, [
        { versions: '<20', value: 'workflowExistsV19' as const },
        { versions: '20', value: 'workflowExistsV20' as const },
        { versions: '>=21', value: 'workflowExists' as const },
      ]);
      out.push({
        reason: rule.value,
        message: `the primary ${tablet} of ${create.targetKeyspace}/${shard.name} already has ${streams.length} stream(s) of workflow ${create.workflow} (id ${streams.map((s) => s.id).join(', ')})`,
        ...base,
        shard: shard.name,
        tablet,
        vitessArgs: [
          create.workflow,
          create.targetKeyspace,
          rule.value === 'workflowExists' ? tablet : protoAlias(tablet),
        ],
        details: { streamIds: streams.map((s) => s.id), ...(rule.note !== null ? { versionNote: rule.note } : {}) },
      });
    }
    out.push(...sourceFindings(model, create), ...tableFindings(model, options.vitess, create));
    out.push(...streamSourceFindings(model, create, options.action.tabletTypes));
    return out;
  },
});

/**
 * `--cells` and `--tablet-types` of create: not validated by vtctldclient (ParseCells trims) nor vtctld, they go into
 * every stream, whose tablet picker on each target primary looks for a source tablet of those types in those cells
 * plus the primary's own cell (vttablet's default types `in_order:REPLICA,PRIMARY` when none are given; the cell of
 * the target primary alone when no cells are). Judged only when one of the two is given; cells aliases are not read.
 */
function streamSourceFindings(
  model: ClusterModel,
  create: CreateRequest,
  requested: readonly TabletTypeName[] | null,
): CheckFinding<R>[] {
  const cells = create.cells ?? [];
  if (cells.length === 0 && requested === null) return [];
  const out: CheckFinding<R>[] = [];
  const base = { keyspace: create.targetKeyspace, workflow: create.workflow };
  if (cells.length > 0 && model.serving.cells.ok) {
    const known = [...model.serving.cells.value];
    const unknown = cells.filter((c) => !known.includes(c));
    if (unknown.length > 0)
      out.push({
        reason: 'cellNotInTopology',
        message: `--cells names ${unknown.join(', ')}, which is no cell of the topology (${known.join(', ')}): the streams' tablet picker finds no source tablet there unless it is a cells alias`,
        ...base,
        details: { cells: unknown, topologyCells: known },
      });
  }
  if (!model.tabletsRead.ok) return out;
  const types = parseTabletTypesColumn(requested === null ? '' : requested.join(',')).types;
  const target = model.keyspaces.get(create.targetKeyspace);
  const sourceName = create.reshard !== undefined ? create.targetKeyspace : create.sourceKeyspace;
  const source = sourceName === undefined ? undefined : model.keyspaces.get(sourceName);
  if (!target?.shards.ok || !source?.shards.ok) return out;
  const pick = (ks: ReadonlyMap<string, Shard>, names: readonly string[] | undefined) =>
    names === undefined
      ? [...ks.values()].filter((s) => s.isPrimaryServing)
      : names.flatMap((n) => (ks.has(n) ? [ks.get(n)!] : []));
  const targets = pick(target.shards.value, create.reshard?.targetShards);
  const sources = pick(source.shards.value, create.reshard?.sourceShards);
  for (const src of sources) {
    const missing: { shard: string; cells: string[] }[] = [];
    for (const t of targets) {
      if (!keyRangesIntersect(t.keyRange, src.keyRange)) continue;
      const primary = t.primaryAlias ? model.tablet(t.primaryAlias) : undefined;
      if (primary === undefined) continue;
      const inCells = new Set([...cells, primary.cell]);
      if (src.tablets.some((x) => inCells.has(x.cell) && types.includes(canonicalTabletType(x.type)))) continue;
      missing.push({ shard: t.name, cells: [...inCells].sort(byCodeUnit) });
    }
    if (missing.length === 0) continue;
    out.push({
      reason: 'noSourceTabletInCells',
      message: `${source.name}/${src.name} has no ${types.join('/')} tablet in ${missing[0]!.cells.join(', ')} for the streams of ${create.targetKeyspace}/${missing.map((m) => m.shard).join(', ')} to copy from: the create succeeds and the copy never starts`,
      ...base,
      details: {
        sourceKeyspace: source.name,
        sourceShard: src.name,
        tabletTypes: [...types],
        targets: missing.map((m) => ({ ...m })),
      },
    });
  }
  return out;
}

/**
 * Reshard create (`--target-shards`): `buildResharder` (resharder.go @2291bf54) reads each source shard in the
 * request's order (not serving: :99), then each target shard (no primary: :114, serving: :117), and returns the
 * first failure; then `validateTargets` asks every target primary whether its `_vt.vreplication` holds any row of its
 * database (`HasVReplicationWorkflows`: every workflow, frozen and Online DDL rows included) and refuses with :156.
 * Between the two, `ValidateForReshard` ({@link validateForReshard}); before all of it ReshardCreate's
 * `ValidateSrvKeyspace` ({@link reshardSrvKeyspaceFindings}). Not judged: readRefStreams, copySchema.
 */
function reshardFindings(
  shards: ReadonlyMap<string, Shard>,
  create: CreateRequest,
  reshard: NonNullable<CreateRequest['reshard']>,
): CheckFinding<R>[] {
  const base = { keyspace: create.targetKeyspace, workflow: create.workflow };
  const named = [
    ...reshard.sourceShards.map((name) => ({ name, role: 'source' as const })),
    ...reshard.targetShards.map((name) => ({ name, role: 'target' as const })),
  ];
  for (const { name, role } of named) {
    const shard = shards.get(name);
    const at = `${create.targetKeyspace}/${name}`;
    if (shard === undefined)
      return [
        {
          reason: 'reshardShardUnknown',
          message: `${role} shard ${at} has no shard record: Reshard create fails reading it (GetShard(${name}) failed)`,
          ...base,
          shard: name,
        },
      ];
    if (role === 'source' && !shard.isPrimaryServing)
      return [
        {
          reason: 'reshardSourceNotServing',
          message: `source shard ${at} is not primary-serving`,
          ...base,
          shard: name,
          vitessArgs: [name],
        },
      ];
    if (role === 'target' && shard.primaryAlias === null)
      return [
        {
          reason: 'reshardTargetNoPrimary',
          message: `target shard ${at} has no primary`,
          ...base,
          shard: name,
          vitessArgs: [name],
        },
      ];
    if (role === 'target' && shard.isPrimaryServing)
      return [
        {
          reason: 'reshardTargetServing',
          message: `target shard ${at} is already primary-serving`,
          ...base,
          shard: name,
          vitessArgs: [name],
        },
      ];
  }
  const keyRanges = validateForReshard(
    reshard.sourceShards.map((n) => shards.get(n)!),
    reshard.targetShards.map((n) => shards.get(n)!),
  );
  if (keyRanges !== null)
    return [
      {
        reason: keyRanges.reason,
        message: `the key ranges of source shards ${reshard.sourceShards.join(', ')} and target shards ${reshard.targetShards.join(', ')} of ${create.targetKeyspace} do not make a reshard: ${keyRanges.text}`,
        ...base,
        vitessError: `ValidateForReshard: ${keyRanges.text}`,
      },
    ];
  // validateTargets: one error per target primary with any row, aggregated.
  const out: CheckFinding<R>[] = [];
  // copySchema, mid-way: tables already in a target primary's schema (only what the user can see is listed).
  for (const name of reshard.targetShards) {
    const sc = shards.get(name)?.sidecar;
    if (sc === undefined || !sc.ok || sc.value.tables === undefined || !sc.value.tables.ok) continue;
    const tables = sc.value.tables.value;
    if (tables.length === 0) continue;
    out.push({
      reason: 'reshardTargetHasTables',
      message: `the primary ${sc.value.tablet} of target shard ${create.targetKeyspace}/${name} already holds ${tables.length} table(s) in ${sc.value.dbName} (${tables.slice(0, 5).join(', ')}${tables.length > 5 ? ', …' : ''}): copySchema fails on one that differs from the source, and the copy on rows already there`,
      ...base,
      shard: name,
      tablet: sc.value.tablet,
      details: { tables: [...tables] },
    });
  }
  for (const name of reshard.targetShards) {
    const sc = shards.get(name)?.sidecar;
    // Not read: a located read failure (unverified).
    if (sc === undefined || !sc.ok) continue;
    const rows = [...sc.value.streams, ...sc.value.onlineDdlStreams];
    if (rows.length === 0) continue;
    const workflows = [...new Set(rows.map((r) => r.workflow))].sort(byCodeUnit);
    out.push({
      reason: 'reshardTargetStreams',
      message: `the primary ${sc.value.tablet} of target shard ${create.targetKeyspace}/${name} already has ${rows.length} stream(s) (workflows ${workflows.join(', ')})`,
      ...base,
      shard: name,
      tablet: sc.value.tablet,
      vitessArgs: [],
      details: { streamIds: rows.map((r) => r.id), workflows },
    });
  }
  return out;
}

/**
 * Before anything: the source tables are listed on the first serving source shard's primary (`getTablesInKeyspace`,
 * utils.go:72 when it has no primary), and every table of `--tables` (or of `--exclude-tables`) must be among them
 * (`validateSourceTablesExist`, utils.go:1048, missing names joined with `,` in the request's order). Judged against
 * the primary's `information_schema.TABLES` names: a view named there passes here though GetSchema lists base tables
 * only, so this never refuses a name Vitess accepts.
 */
function sourceFindings(model: ClusterModel, create: CreateRequest): CheckFinding<R>[] {
  if (create.tables === undefined || create.sourceKeyspace === undefined) return [];
  const first = firstSourceShard(model, create);
  if (first === undefined) return [];
  const base = { keyspace: create.targetKeyspace, workflow: create.workflow };
  if (first.primaryAlias === null)
    return [
      {
        reason: 'sourceShardNoPrimary',
        message: `the first serving shard ${create.sourceKeyspace}/${first.name} of the source keyspace has no primary, and MoveTables create lists the tables to move there`,
        ...base,
        vitessArgs: [first.name],
        details: { sourceKeyspace: create.sourceKeyspace, sourceShard: first.name },
      },
    ];
  const sc = first.sidecar;
  if (sc === undefined || !sc.ok || sc.value.tables === undefined || !sc.value.tables.ok) return [];
  const named = create.tables === 'all' ? (create.excludeTables ?? []) : create.tables;
  // An empty list over MySQL is what a user without SELECT on the schema reads (schema-visibility.ts): not judged.
  if (sc.value.tables.value.length === 0 && named.length > 0)
    return [
      {
        reason: 'sourceTablesNotVisible',
        message: `the source primary ${sc.value.tablet} (${create.sourceKeyspace}/${first.name}) lists no table in ${sc.value.dbName}: grant the MySQL user SELECT on ${sc.value.dbName} (or read with --via vtctld), or the tables are not there and MoveTables create refuses them`,
        ...base,
        details: { sourceShard: first.name, tables: [...named] },
      },
    ];
  const present = new Set(sc.value.tables.value);
  const missing = named.filter((t) => !present.has(t));
  if (missing.length === 0) return [];
  return [
    {
      reason: 'sourceTableMissing',
      message: `${missing.join(', ')} ${missing.length === 1 ? 'is' : 'are'} not a table of ${create.sourceKeyspace} on ${sc.value.tablet} (${create.sourceKeyspace}/${first.name}, where MoveTables create lists the source tables)`,
      ...base,
      vitessArgs: [create.sourceKeyspace, missing.join(',')],
      details: { tables: missing, sourceShard: first.name },
    },
  ];
}

/** Rules 3 and 4: the target vschema has the tables (sharded target), and no serving target primary holds a row. */
function tableFindings(
  model: ClusterModel,
  vitess: Parameters<typeof versionsHold>[0],
  create: CreateRequest,
): CheckFinding<R>[] {
  const ks = model.keyspaces.get(create.targetKeyspace);
  if (ks === undefined || !ks.shards.ok) return [];
  const base = { keyspace: create.targetKeyspace, workflow: create.workflow };
  const tables = tablesToMove(model, create);
  if (typeof tables === 'string') {
    // No --tables / --all-tables, or a source shard without primary (sourceShardNoPrimary says it): nothing to add.
    if (create.tables === undefined || firstSourceShard(model, create)?.primaryAlias === null) return [];
    return [
      {
        reason: 'tablesNotListed',
        message: `the tables --all-tables would move are not known: ${tables}`,
        ...base,
        details: { sourceKeyspace: create.sourceKeyspace },
      },
    ];
  }
  const out: CheckFinding<R>[] = [];
  // buildMaterializer (materializer.go:485-491): every table, in the request's order; the first missing one is named.
  if (ks.vschema.ok && ks.vschema.value.sharded) {
    const missing = tables.filter((t) => !ks.vschema.ok || !ks.vschema.value.tables.has(t));
    if (missing.length > 0)
      out.push({
        reason: 'tableNotInVSchema',
        message: `the sharded target keyspace ${create.targetKeyspace} has no vschema entry for ${missing.join(', ')}: MoveTables create needs each moved table there, with its primary vindex`,
        ...base,
        vitessArgs: [missing[0] as string, create.targetKeyspace],
        details: { tables: missing },
      });
  }
  // validateEmptyTables (materializer.go:573-627): every serving target shard's primary, every table.
  const nonEmpty = new Map<string, string[]>();
  const unprobed = new Map<string, string[]>();
  for (const shard of ks.shards.value.values()) {
    if (!shard.isPrimaryServing || shard.sidecar === undefined || !shard.sidecar.ok) continue;
    const sc = shard.sidecar.value;
    // A failed probe is a located read failure (the verdict is unverified); nothing to say here.
    if (sc.tableProbes !== undefined && !sc.tableProbes.ok) continue;
    const probed = new Map((sc.tableProbes?.ok ? sc.tableProbes.value : []).map((p) => [p.table, p.nonEmpty]));
    const present = sc.tables?.ok ? new Set(sc.tables.value) : null;
    for (const t of tables) {
      const answer = probed.get(t);
      if (answer === true) nonEmpty.set(t, [...(nonEmpty.get(t) ?? []), shard.name]);
      else if (answer === undefined && (present === null || present.has(t)))
        unprobed.set(t, [...(unprobed.get(t) ?? []), shard.name]);
    }
  }
  if (nonEmpty.size > 0) {
    const names = tables.filter((t) => nonEmpty.has(t));
    const where = names.map((t) => `${t} (${nonEmpty.get(t)!.join(', ')})`).join(', ');
    const before22 = versionsHold(vitess, '<22') === 'all';
    out.push({
      reason: before22 ? 'targetTableNotEmptyBefore22' : 'targetTableNotEmpty',
      message: before22
        ? `target tables already hold rows: ${where}; before v22 MoveTables create does not refuse them, and the copy then fails on duplicate keys or keeps the old rows`
        : `target tables already hold rows on serving primaries of ${create.targetKeyspace}: ${where}`,
      ...base,
      ...(before22
        ? {}
        : {
            // Vitess lists the tables in Go map order; they are given here in the request's order.
            vitessArgs: [create.targetKeyspace, names.join(', ')],
          }),
      details: { tables: names, shards: Object.fromEntries(names.map((t) => [t, nonEmpty.get(t)!])) },
    });
  }
  if (unprobed.size > 0) {
    const names = tables.filter((t) => unprobed.has(t));
    out.push({
      reason: 'emptinessNotProbed',
      message: `target tables already exist but were not probed for rows: ${names.map((t) => `${t} (${unprobed.get(t)!.join(', ')})`).join(', ')}; name them with --tables`,
      ...base,
      details: { tables: names },
    });
  }
  return out;
}

/**
 * `topotools.ValidateForReshard` (split.go:30-50 @v0.24.4, the same in v0.19.10 and v0.22.1): no source shard has a
 * target shard's exact key range (source-major order), then each side's ranges combine into one (`combineKeyRanges`,
 * :52-75: the first shard's range grown by adjacent ones until none is left, else "shards don't form a contiguous
 * keyrange"), and the two combined ranges are equal. Null when it passes.
 */
function validateForReshard(
  sources: readonly Shard[],
  targets: readonly Shard[],
): { reason: 'reshardSameKeyRange' | 'reshardKeyRangesDiffer' | 'reshardShardsNotContiguous'; text: string } | null {
  for (const s of sources)
    for (const t of targets)
      if (keyRangeEqual(s.keyRange, t.keyRange))
        return {
          reason: 'reshardSameKeyRange',
          text: `same keyrange is present in source and target: ${keyRangeString(s.keyRange)}`,
        };
  const combine = (shards: readonly Shard[]): KeyRange | null | 'gap' => {
    let result = shards[0]!.keyRange;
    let left = shards.slice(1).map((x) => x.keyRange);
    while (left.length > 0) {
      const before = left.length;
      left = left.filter((kr) => {
        const grown = keyRangeAdd(result, kr);
        if (grown === null) return true;
        result = grown;
        return false;
      });
      if (left.length === before) return 'gap';
    }
    return result;
  };
  const source = combine(sources);
  const target = source === 'gap' ? 'gap' : combine(targets);
  if (source === 'gap' || target === 'gap')
    return { reason: 'reshardShardsNotContiguous', text: "shards don't form a contiguous keyrange" };
  if (!keyRangeEqual(source, target))
    return {
      reason: 'reshardKeyRangesDiffer',
      text: `source and target keyranges don't match: ${keyRangeString(source)} vs ${keyRangeString(target)}`,
    };
  return null;
}

/**
 * ReshardCreate's first step (server.go:1548-1552 @v0.24.4, the same at v0.19.10 and v0.22.1):
 * `ValidateSrvKeyspace(keyspace, --cells)`, every cell of the topology without `--cells` (`ExpandCells`, in sorted
 * order), returned as is: a cell without the keyspace's SrvKeyspace fails with the topo's NoNode text, a corrupt
 * partition with `OrderAndCheckPartitions`' text. The first error stops it. Not judged when the SrvKeyspaces were
 * not read (a read failure the model records) or `--cells` names no known cell.
 */
function reshardSrvKeyspaceFindings(model: ClusterModel, create: CreateRequest): CheckFinding<R>[] {
  const byCell = model.serving.srvKeyspaces.get(create.targetKeyspace);
  if (byCell === undefined || !byCell.ok || !model.serving.cells.ok) return [];
  const known = model.serving.cells.value;
  const cells = create.cells !== undefined ? [...new Set(create.cells)].filter((c) => known.includes(c)) : [...known];
  const base = { keyspace: create.targetKeyspace, workflow: create.workflow };
  for (const cell of cells.sort(byCodeUnit)) {
    const srv = byCell.value[cell];
    // vtctld's GetSrvKeyspaces answers a cell without the record with a nil entry; a built one has partitions.
    if (srv === undefined || srv.partitions.length === 0)
      return [
        {
          reason: 'reshardSrvKeyspaceMissing',
          message: `cell ${cell} has no SrvKeyspace for ${create.targetKeyspace}, and Reshard create validates the SrvKeyspace in ${create.cells !== undefined ? 'its --cells' : 'every cell'} first`,
          ...base,
          details: { cell },
        },
      ];
    for (const p of srv.partitions) {
      const e = partitionError(cell, p);
      if (e === null) continue;
      return [
        {
          reason: CORRUPT_REASON[e.reason],
          message: `the ${p.servedType} partition of ${create.targetKeyspace}'s SrvKeyspace in cell ${cell} is corrupt (shards ${p.shards.map((x) => x.name).join(', ')}), and Reshard create validates it first`,
          ...base,
          vitessError: e.text,
          details: { cell, servedType: p.servedType, shards: p.shards.map((x) => x.name) },
        },
      ];
    }
  }
  return [];
}
