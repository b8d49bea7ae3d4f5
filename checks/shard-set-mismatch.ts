/**
 * shard-set-mismatch: `ts.validate` (run by SwitchTraffic for reads and for writes) compares, for a non-partial
 * TABLES migration, the shards the streams touch with every shard record of both keyspaces, and refuses wild card
 * table names.
 */
import { defineCheck, type CheckFinding, type VitessText, type Reasons } from '../src/engine/check.js';
import { compareShardNames } from '../src/vitess/keyrange.js';
import {
  allShardsRead,
  isPartialMigration,
  migrationType,
  parsedStreams,
  referenceTableList,
} from '../src/model/traffic-switch.js';
import type { ClusterModel, Workflow } from '../src/model/types.js';
import { pluralWord } from '../src/text.js';

/** `CompareShards`'s error when only topo shards are extra (the workflow-extra side cannot arise here, see below). */
/** `CompareShards`: the outer format around the joined list of differences (only topo-extra shards are predicted). */
const COMPARE_SHARDS: VitessText = {
  template: 'mismatched shards for keyspace %s: topo shards not in switch command: %v',
  file: 'go/vt/vtctl/workflow/utils.go',
  line: 521,
  wraps: { literal: 'topo shards not in switch command: %v', file: 'go/vt/vtctl/workflow/utils.go', line: 518 },
  versions: { from: 17 },
};

const sourceExtra = (wf: Workflow, source: string, extra: readonly string[]) =>
  `source keyspace ${source} has ${pluralWord(extra.length, 'shard')} ${extra.join(', ')} that no stream of MoveTables ${wf.keyspace}.${wf.name} reads, so SwitchTraffic refuses the shard sets as mismatched`;

const targetExtra = (wf: Workflow, extra: readonly string[]) =>
  `target keyspace ${wf.keyspace} has ${pluralWord(extra.length, 'shard')} ${extra.join(', ')} with no stream of MoveTables ${wf.keyspace}.${wf.name}, so SwitchTraffic refuses the shard sets as mismatched`;

const wildcard = (wf: Workflow, table: string) =>
  `workflow MoveTables ${wf.keyspace}.${wf.name} replicates the wild card table name ${table}, which SwitchTraffic refuses`;

/** Shard names in Go's `sets.List` order (sorted strings), as `CompareShards` prints them. */
const goSorted = (names: Iterable<string>) => [...names].sort();

function findings(model: ClusterModel, wf: Workflow): CheckFinding<R>[] {
  // SwitchTraffic/ReverseTraffic run ts.validate for MoveTables (Reshard is a SHARDS migration; Migrate is refused).
  if (wf.type !== 'MoveTables') return [];
  // Vitess fails earlier on an unreadable source row, several source keyspaces, or an unread or primary-less target
  // shard (BuildTargets reads every shard of the target keyspace): then this prediction is not Vitess's first word,
  // and a shard without streams could not be told from a shard not read.
  if (parsedStreams(wf).length !== wf.streams.length || wf.sourceKeyspaces.length !== 1) return [];
  if (!allShardsRead(model, wf.keyspace)) return [];
  if (migrationType(wf) !== 'TABLES') return [];
  const partial = isPartialMigration(wf);
  if (partial !== false) return []; // partial: CompareShards is skipped; null: Vitess fails on a shard name first
  // traffic_switcher.go validate: also skipped for a multi-tenant migration (options.tenant_id) created with
  // --shards (options.shards non-empty).
  if (wf.streams.some((s) => s.options?.tenantId && s.options.shards.length > 0)) return [];

  const out: CheckFinding<R>[] = [];
  const loc = { keyspace: wf.keyspace, workflow: wf.name };
  const sourceKeyspace = wf.sourceKeyspaces[0]!;
  const external = wf.streams.some((s) => s.source!.externalCluster !== '');
  const src = model.keyspace(sourceKeyspace);
  if (!external) {
    // A stream naming a keyspace or shard without a record fails GetShard in buildTrafficSwitcher before validate
    // runs (missing-source reports it), so nothing of CompareShards would be printed.
    if (model.keyspacesRead.ok && !src) return [];
    if (src?.shards.ok && wf.streams.some((s) => !src.shards.ok || !src.shards.value.has(s.sourceShard))) return [];
  }
  if (!external && src?.shards.ok) {
    const topo = src.shards.value;
    const streamShards = new Set(wf.streams.map((s) => s.sourceShard));
    const extra = [...topo.keys()].filter((s) => !streamShards.has(s));
    if (extra.length > 0) {
      const sorted = goSorted(extra);
      out.push({
        reason: 'sourceShardsNotInStreams',
        message: sourceExtra(wf, sourceKeyspace, [...extra].sort(compareShardNames)),
        ...loc,
        vitessArgs: [sourceKeyspace, sorted],
        details: {
          sourceKeyspace,
          topoShards: [...topo.keys()],
          streamShards: [...streamShards].sort(compareShardNames),
          extraShards: sorted,
        },
      });
    }
  }
  const tgt = model.keyspace(wf.keyspace)!;
  if (tgt.shards.ok) {
    const withStreams = new Set(wf.targetShards);
    const extra = [...tgt.shards.value.keys()].filter((s) => !withStreams.has(s));
    if (extra.length > 0) {
      const sorted = goSorted(extra);
      out.push({
        reason: 'targetShardsWithoutStreams',
        message: targetExtra(wf, [...extra].sort(compareShardNames)),
        ...loc,
        vitessArgs: [wf.keyspace, sorted],
        details: {
          targetKeyspace: wf.keyspace,
          topoShards: [...tgt.shards.value.keys()],
          streamShards: [...wf.targetShards],
          extraShards: sorted,
        },
      });
    }
  }
  const tables = referenceTableList(wf.streams) ?? [];
  const wild = tables.find((t) => t.startsWith('/'));
  if (wild !== undefined) {
    out.push({
      reason: 'wildcardTable',
      message: wildcard(wf, wild),
      ...loc,
      vitessArgs: [wild],
      details: { table: wild, tables },
    });
  }
  return out;
}

const reasons = {
  sourceShardsNotInStreams: { severity: 'error', step: 'validate', vitess: COMPARE_SHARDS },
  targetShardsWithoutStreams: { severity: 'error', step: 'validate', vitess: COMPARE_SHARDS },
  wildcardTable: {
    severity: 'error',
    step: 'validate',
    vitess: {
      template: 'cannot migrate streams with wild card table names: %v',
      file: 'go/vt/vtctl/workflow/traffic_switcher.go',
      line: 1420,
      versions: { from: 17 },
    },
  },
} satisfies Reasons;

type R = keyof typeof reasons;

export default defineCheck({
  id: 'shard-set-mismatch',
  needs: ['topology'],
  title: 'A MoveTables touches every shard of both keyspaces',
  reasons,
  description: [
    'Before switching reads or writes of a MoveTables, Vitess runs `ts.validate`',
    '(`vitessio/vitess:go/vt/vtctl/workflow/traffic_switcher.go`): unless the migration is partial, `CompareShards`',
    '(`utils.go`) requires the shards the streams read from (every `source` shard) to be exactly the shard records of',
    'the source keyspace, and the shards holding streams to be exactly the shard records of the target keyspace — every',
    'record, serving or not. A leftover shard from an abandoned Reshard, or a target shard that lost its streams, makes',
    'SwitchTraffic fail with `mismatched shards for keyspace %s: switch command shards not in topo: [..]; topo shards not',
    'in switch command: [..]` (the source keyspace is compared first). The same step refuses a table list with a wild',
    'card (`cannot migrate streams with wild card table names: %v`).',
    '',
    '"Partial" is decided as Vitess decides it (`isPartialMoveTables`): source and target shard names spanning the same',
    'incomplete key range with the same number of shards; then nothing is compared. The check needs the sidecar of every',
    'target shard primary: with one missing, Vitess fails earlier (BuildTargets) and this prediction is withheld.',
  ].join('\n'),
  remediation: [
    'List the shard records with `vtctldclient FindAllShardsInKeyspace <keyspace>`.',
    'Delete a leftover shard that serves nothing with `vtctldclient DeleteShards --recursive <keyspace>/<shard>`,',
    'or, when a shard that belongs to the workflow lacks streams, cancel the workflow',
    '(`vtctldclient MoveTables --target-keyspace <keyspace> --workflow <workflow> cancel`) and create it again.',
    'Recreate a workflow that uses a wild card table name with an explicit `--tables` list.',
  ].join('\n'),
  run(model) {
    return model.workflows.flatMap((wf) => findings(model, wf));
  },
});
