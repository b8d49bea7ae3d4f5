/**
 * table-list-mismatch: `buildTrafficSwitcher` requires every stream of a workflow to carry the same sorted list of
 * rule `match` values, and `getWorkflowState` requires a table migration to list at least one table.
 */
import { defineCheck, type CheckFinding, type NotJudged } from '../src/engine/check.js';
import {
  goStringSlice,
  migrationType,
  parsedStreams,
  referenceTableList,
  sameTableList,
  streamTableList,
} from '../src/model/traffic-switch.js';
import { switchState } from '../src/model/switch-state.js';
import type { ClusterModel, Stream, Workflow } from '../src/model/types.js';
import { pickRule } from '../src/vitess/versions.js';

/** Workflow types Vitess builds a traffic switcher for (SwitchTraffic, ReverseTraffic, Complete, Cancel). */
const SWITCHED: ReadonlySet<string> = new Set(['MoveTables', 'Migrate', 'Reshard']);

const mismatch = (wf: Workflow, s: Stream, tables: readonly string[], reference: readonly string[], others: number) =>
  `stream ${s.id} on ${wf.keyspace}/${s.shard} of ${wf.type} ${wf.keyspace}.${wf.name} replicates ${goStringSlice(tables)} while ${others === 1 ? 'the other stream replicates' : `the other ${others} streams replicate`} ${goStringSlice(reference)}`;

const noTables = (wf: Workflow) =>
  `${wf.type} ${wf.keyspace}.${wf.name} replicates no table: ` +
  (wf.streams.length === 1
    ? 'its only stream has no filter rule'
    : `none of its ${wf.streams.length} streams has a filter rule`);

/** `getWorkflowState` names a reverse workflow by its forward name in the forward target keyspace. */
function noTablesError(wf: Workflow, sourceKeyspace: string): string {
  const reverse = wf.name.endsWith('_reverse');
  const keyspace = reverse ? sourceKeyspace : wf.keyspace;
  const name = reverse ? wf.name.slice(0, -'_reverse'.length) : wf.name;
  return `no tables in workflow ${keyspace}.${name}`;
}

/** Its declared reasons. */
type R =
  | 'tableListMismatch'
  | 'tableListMismatchNotSwitched'
  | 'missingFilters'
  | 'tableMissingOnSource'
  | 'noTables'
  | 'nilFilterPanics';

function findings(wf: Workflow, filterTest: boolean): CheckFinding<R>[] {
  if (wf.type === 'OnlineDDL') return [];
  const streams = parsedStreams(wf);
  if (streams.length === 0) return [];
  const switched = SWITCHED.has(wf.type);
  // buildTrafficSwitcher checks each stream's filter before comparing table lists: `bls.Filter == nil ||
  // bls.Filter.Rules == nil` ⇒ `missing filters for %s/%s` (bls keyspace and shard; `vitessio/vitess` `main`
  // b3666b2d and `release-22.0` server.go). An empty repeated field is nil in Go, so no rule at all counts. Older
  // releases compare the (empty) table lists and fail `getWorkflowState` with `no tables in workflow` instead.
  if (switched && filterTest) {
    const unfiltered = streams.filter((s) => (s.source?.filter?.rules.length ?? 0) === 0);
    if (unfiltered.length > 0)
      return unfiltered.map((s) => ({
        reason: 'missingFilters',
        message: `stream ${s.id} on ${wf.keyspace}/${s.shard} of ${wf.type} ${wf.keyspace}.${wf.name} has no filter rule in its source (${s.sourceKeyspace}/${s.sourceShard}), so building the traffic switcher fails`,
        keyspace: wf.keyspace,
        shard: s.shard,
        workflow: wf.name,
        streamId: s.id,
        tablet: s.tablet,
        vitessArgs: [s.sourceKeyspace, s.sourceShard],
      }));
  }
  // Before v22 there is no such test, and the loop reads `bls.Filter.Rules` through a nil `bls.Filter` when a stream's
  // source has no `filter` field at all (`filter:{}` is a Filter without rules, which it reads fine): vtctld panics
  // with a nil pointer dereference, which its panic handler returns as the action's error with a goroutine stack, no
  // stable text (`vitessio/vitess` server.go:2587 @v0.19.10, :2646 @v0.20.8, :2738 @v0.21.5; seen on v19.0.10 by the
  // real-Vitess suite). `no tables in workflow` is reached only when every stream has an empty `filter:{}`.
  if (switched && !filterTest) {
    const nil = streams.filter((s) => s.source !== null && s.source !== undefined && s.source.filter === null);
    if (nil.length > 0)
      return nil.map((s) => ({
        reason: 'nilFilterPanics',
        message: `stream ${s.id} on ${wf.keyspace}/${s.shard} of ${wf.type} ${wf.keyspace}.${wf.name} has no filter in its source (${s.sourceKeyspace}/${s.sourceShard}), so building the traffic switcher panics in vtctld (nil pointer dereference)`,
        keyspace: wf.keyspace,
        shard: s.shard,
        workflow: wf.name,
        streamId: s.id,
        tablet: s.tablet,
      }));
  }
  const reference = referenceTableList(streams);
  if (reference === null) {
    // Every stream lists no table: for a table migration Vitess cannot pick a table to read the routing state from.
    if (!switched || migrationType(wf) !== 'TABLES') return [];
    return [
      {
        reason: 'noTables',
        message: noTables(wf),
        keyspace: wf.keyspace,
        workflow: wf.name,
        vitessError: noTablesError(wf, streams[0]!.sourceKeyspace),
        details: { streams: streams.length },
      },
    ];
  }
  const out: CheckFinding<R>[] = [];
  const odd = streams.filter((s) => !sameTableList(streamTableList(s), reference));
  const agreeing = streams.length - odd.length;
  for (const s of odd) {
    const tables = streamTableList(s);
    const set = new Set(tables);
    const ref = new Set(reference);
    out.push({
      ...(switched
        ? {
            reason: 'tableListMismatch',
            vitessArgs: [reference, tables],
          }
        : { reason: 'tableListMismatchNotSwitched' }),
      message: mismatch(wf, s, tables, reference, agreeing),
      keyspace: wf.keyspace,
      shard: s.shard,
      workflow: wf.name,
      streamId: s.id,
      tablet: s.tablet,
      details: {
        tables,
        expectedTables: reference,
        missingTables: reference.filter((t) => !set.has(t)),
        extraTables: tables.filter((t) => !ref.has(t)),
      },
    });
  }
  return out;
}

/**
 * The write switch of a MoveTables locks the moved tables on every source primary before the catch-up wait:
 * `executeLockTablesOnSource` (`vitessio/vitess:go/vt/vtctl/workflow/traffic_switcher.go`) builds
 * `LOCK TABLES <t> READ, …` from `ts.Tables()` (the streams' rule `match` values) and runs it with ExecuteFetchAsDba
 * on the primary of each source shard (`ts.ForAllSources`), and `switchWrites` (server.go) fails with
 * `failed to execute LOCK TABLES (attempt 1 of 2) on sources: …` when one is missing there (MySQL error 1146). Only
 * for MigrationType TABLES, and not when writes are already switched (then `switchWrites` has nothing to do). The
 * tables come from `information_schema.TABLES` of the source primary's schema, read in its one batch; a list that was
 * not read is not judged here (`unreachable` reports the failed read, the workflow is unverified). An empty list read
 * over MySQL is such a failure too (src/model/schema-visibility.ts: the user may lack SELECT on the schema); read
 * through vtctld's DBA user it is the truth, and every moved table is missing. Names compare case-insensitively
 * (`lower_case_table_names=1` lowers what the server lists).
 */
function missingOnSource(model: ClusterModel, wf: Workflow): CheckFinding<R>[] {
  if (wf.type !== 'MoveTables' || migrationType(wf) !== 'TABLES') return [];
  if (switchState(model, wf).writesSwitched === true) return [];
  const moved = (referenceTableList(parsedStreams(wf)) ?? []).filter((t) => !t.startsWith('/'));
  if (moved.length === 0) return [];
  const out: CheckFinding<R>[] = [];
  for (const ks of wf.sourceKeyspaces) {
    for (const sh of wf.sourceShards) {
      const sidecar = model.shard(ks, sh)?.sidecar;
      if (sidecar === undefined || !sidecar.ok) continue;
      const listed = sidecar.value.tables;
      if (listed === undefined || !listed.ok) continue;
      const have = new Set(listed.value.map((t) => t.toLowerCase()));
      const missing = moved.filter((t) => !have.has(t.toLowerCase()));
      if (missing.length === 0) continue;
      out.push({
        reason: 'tableMissingOnSource',
        message: `${wf.type} ${wf.keyspace}.${wf.name} moves ${goStringSlice(missing)}, which ${sidecar.value.dbName} on source primary ${sidecar.value.tablet} (${ks}/${sh}) does not have: the write switch's LOCK TABLES on the source primaries fails there ("failed to execute LOCK TABLES (attempt 1 of 2) on sources: …", after the source writes were stopped, then cancelled)`,
        keyspace: wf.keyspace,
        workflow: wf.name,
        tablet: sidecar.value.tablet,
        details: { sourceKeyspace: ks, sourceShard: sh, missingTables: missing, dbName: sidecar.value.dbName },
      });
    }
  }
  return out;
}

/**
 * The source primaries of a MoveTables whose table list this readout does not carry at all (`tables` absent: taken
 * by a vtpreflight from before that read): the LOCK TABLES of the write switch was not judged there, so the
 * workflow is unverified (a read that failed is a model failure instead, reported by `unreachable`).
 */
function sourceListsNotCarried(model: ClusterModel, wf: Workflow): NotJudged<'tableMissingOnSource'>[] {
  if (wf.type !== 'MoveTables' || migrationType(wf) !== 'TABLES') return [];
  if (switchState(model, wf).writesSwitched === true) return [];
  const moved = (referenceTableList(parsedStreams(wf)) ?? []).filter((t) => !t.startsWith('/'));
  if (moved.length === 0) return [];
  return wf.sourceKeyspaces.flatMap((ks) =>
    wf.sourceShards.flatMap((sh) => {
      const sidecar = model.shard(ks, sh)?.sidecar;
      if (sidecar === undefined || !sidecar.ok || sidecar.value.tables !== undefined) return [];
      return [
        {
          reason: 'tableMissingOnSource' as const,
          keyspace: wf.keyspace,
          workflow: wf.name,
          part: `information_schema.TABLES of ${sidecar.value.dbName} of ${ks}/${sh} (${sidecar.value.tablet})`,
          why: `not in this readout (taken before vtpreflight read it): whether the LOCK TABLES of the write switch finds ${goStringSlice(moved)} there was not judged`,
        },
      ];
    }),
  );
}

export default defineCheck({
  id: 'table-list-mismatch',
  title: 'All streams of a workflow replicate the same tables',
  reasons: {
    tableListMismatch: {
      severity: 'error',
      step: 'build-switcher',
      vitess: {
        template: 'table lists are mismatched across streams: %v vs %v',
        file: 'go/vt/vtctl/workflow/server.go',
        line: 2328,
        versions: { from: 17 },
      },
    },
    tableListMismatchNotSwitched: {
      severity: 'warning',
      step: 'build-switcher',
      heuristic: true,
      rationale:
        'Materialize and lookup backfills are never switched, but a stream missing a table leaves that table uncopied on its target shard.',
    },
    missingFilters: {
      severity: 'error',
      step: 'build-switcher',
      vitess: {
        template: 'missing filters for %s/%s',
        file: 'go/vt/vtctl/workflow/server.go',
        line: 2313,
        versions: { from: 22 },
      },
    },
    nilFilterPanics: {
      severity: 'error',
      step: 'build-switcher',
      heuristic: true,
      rationale:
        'Before v22 buildTrafficSwitcher reads the rules of a stream source without a filter through a nil pointer (server.go:2587 @v0.19.10): vtctld panics, and the action fails with a goroutine stack instead of a message.',
    },
    tableMissingOnSource: {
      reads: [{ read: 'tables', on: 'source-shard' }],
      severity: 'error',
      step: 'lock-tables',
      heuristic: true,
      rationale:
        'SwitchTraffic locks every moved table on every source primary (LOCK TABLES … READ): a table missing there fails the write switch with the MySQL error wrapped as "failed to execute LOCK TABLES … on sources".',
    },
    noTables: {
      severity: 'error',
      step: 'workflow-state',
      vitess: {
        template: 'no tables in workflow %s.%s',
        file: 'go/vt/vtctl/workflow/server.go',
        line: 458,
        versions: { from: 17, to: 21 },
      },
    },
  },
  needs: ['streamDetails'],
  description: [
    'Every SwitchTraffic, ReverseTraffic, Complete or Cancel starts by building a traffic switcher',
    '(`vitessio/vitess:go/vt/vtctl/workflow/server.go` `buildTrafficSwitcher`). It collects the sorted rule `match`',
    'values of each stream and fails with `table lists are mismatched across streams: %v vs %v` as soon as two streams',
    'differ — for MoveTables and for Reshard alike (a Reshard stream lists its reference-table exclusions and `/.*`).',
    'A stream missing a table also means that table is not copied to that target shard.',
    '',
    'Vitess meets the streams in Go map order, so which two lists it prints first varies between runs; the finding',
    'names the streams that differ from the list most streams agree on. A stream without filter rules fails first with',
    '`missing filters for %s/%s` (v22+). Before v22, a stream whose source has no `filter` at all makes vtctld panic',
    '(a nil pointer dereference, returned as a goroutine stack), and `getWorkflowState` fails with',
    '`no tables in workflow %s.%s` when every stream of a table migration has an empty `filter:{}`. Materialize and',
    'CreateLookupIndex workflows are',
    'never switched, so there a differing stream is a warning (a table missing on some shard), not a predicted error.',
    '',
    'The write switch of a MoveTables then runs `LOCK TABLES <t> READ, …` for the moved tables on every source primary',
    "(`traffic_switcher.go` `executeLockTablesOnSource`): a moved table that the source primary's schema no longer",
    'has (`information_schema.TABLES`, read in the same batch as the sidecar) fails it after source writes were',
    'stopped: `failed to execute LOCK TABLES (attempt 1 of 2) on sources: …`. A source schema that lists no table',
    'over MySQL is not judged but leaves the workflow unverified: `information_schema` hides the tables of a schema',
    'the user has no privilege on (grant SELECT on `vt_<keyspace>`, or read with `--via vtctld`).',
  ].join('\n'),
  remediation: [
    'Show the streams with `vtctldclient Workflow --keyspace <keyspace> show --workflow <workflow>` and compare their',
    'filter rules. Streams created by one command always agree, so a differing stream was edited or left from an older',
    'workflow of the same name: cancel the workflow (`vtctldclient MoveTables --target-keyspace <keyspace> --workflow',
    '<workflow> cancel`, or `Reshard ... cancel`) and create it again.',
  ].join('\n'),
  run(model, options) {
    const filterTest = pickRule(options.vitess, [
      { versions: '<22', value: false },
      { versions: '>=22', value: true },
    ]).value;
    return model.workflows.flatMap((wf) => [...findings(wf, filterTest), ...missingOnSource(model, wf)]);
  },
  notJudged(model) {
    return model.workflows.flatMap((wf) => sourceListsNotCarried(model, wf));
  },
});
