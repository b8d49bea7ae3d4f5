/**
 * stream-coverage: a workflow's own streams, per target shard, against the set Vitess would have created
 * (`src/model/expected-streams.ts`), plus the key range each stream's filter routes rows by.
 */
import { defineCheck, type CheckFinding, type Reasons } from '../src/engine/check.js';
import {
  buildExpectedStreams,
  diffExpectedStreams,
  literalKeyRange,
  ruleKeyRange,
  type ExpectedStreams,
  type TargetDiff,
  type UncoveredRange,
  type UnexpectedSourceState,
} from '../src/model/expected-streams.js';
import type { ClusterModel, Shard, Stream, Workflow } from '../src/model/types.js';
import { keyRangeEqual, keyRangeString, type KeyRange } from '../src/vitess/keyrange.js';

const MAX_LISTED = 5;

/** `a, b, c and 4 more`. */
function list(names: readonly string[], prefix = ''): string {
  const shown = names.slice(0, MAX_LISTED).map((n) => `${prefix}${n}`);
  const rest = names.length - shown.length;
  return rest > 0 ? `${shown.join(', ')} and ${rest} more` : shown.join(', ');
}

const wfName = (wf: Workflow) => `${wf.type} ${wf.keyspace}.${wf.name}`;

const missingStreams = (wf: Workflow, e: ExpectedStreams, d: TargetDiff) =>
  `target shard ${wf.keyspace}/${d.target.shard} of ${wfName(wf)} has no stream from source shard${d.missing.length > 1 ? 's' : ''} ${list(d.missing, `${e.sourceKeyspace}/`)}, so rows there that belong to ${d.target.shard} are never copied`;

const noStreamsOnTarget = (wf: Workflow, d: TargetDiff) =>
  `serving target shard ${wf.keyspace}/${d.target.shard} has no stream of ${wfName(wf)}, so rows of key range ${keyRangeString(d.target.keyRange)} are never copied`;

const duplicateStreams = (
  wf: Workflow,
  e: ExpectedStreams,
  d: TargetDiff,
  source: string,
  streams: readonly Stream[],
) =>
  `target shard ${wf.keyspace}/${d.target.shard} of ${wfName(wf)} has ${streams.length} streams (ids ${streams.map((s) => s.id).join(', ')}) reading ${e.sourceKeyspace}/${source}, so its rows are applied more than once`;

const UNEXPECTED_WHY: Record<UnexpectedSourceState, (target: string) => string> = {
  notIntersecting: (t) => `whose key range does not intersect ${t}, so the stream copies nothing`,
  outsidePartialSet: () => `which is not one of the shards this partial MoveTables migrates`,
  notServing: () => `which is not primary-serving (a stream left from an older topology)`,
  notInTopo: () => `which has no shard record`,
};

const unexpectedSource = (
  wf: Workflow,
  e: ExpectedStreams,
  d: TargetDiff,
  source: string,
  state: UnexpectedSourceState,
  streams: readonly Stream[],
) =>
  `stream${streams.length > 1 ? 's' : ''} ${streams.map((s) => s.id).join(', ')} on target shard ${wf.keyspace}/${d.target.shard} of ${wfName(wf)} reads source shard ${e.sourceKeyspace}/${source}, ${UNEXPECTED_WHY[state](d.target.shard)}`;

const keyRangeMismatch = (wf: Workflow, s: Stream, table: string, literal: string, expected: string) =>
  `stream ${s.id} on target shard ${wf.keyspace}/${s.shard} of ${wfName(wf)} filters ${table === '/.*' ? 'rule /.*' : `table ${table}`} on key range '${literal}' but the shard's key range is ${expected}, so rows are copied to the wrong shard`;

const keyRangeFilterMissing = (wf: Workflow, s: Stream, table: string) =>
  `stream ${s.id} on target shard ${wf.keyspace}/${s.shard} of ${wfName(wf)} copies ${table === '/.*' ? 'rule /.*' : `table ${table}`} from ${s.sourceKeyspace}/${s.sourceShard} without a key-range filter, so rows of other shards land on ${s.shard}`;

const rangeNotCovered = (wf: Workflow, u: UncoveredRange) =>
  `key range ${keyRangeString(u.keyRange)} of source shard ${wf.keyspace}/${u.sourceShard} is copied by no target shard of ${wfName(wf)}` +
  (u.candidates.length > 0
    ? ` (${list(u.candidates, `${wf.keyspace}/`)} ${u.candidates.length > 1 ? 'have' : 'has'} no stream)`
    : '');

/** Where a finding about a target shard points. */
function at(
  wf: Workflow,
  shard: string,
  model: ClusterModel,
  streamId?: number,
): Pick<CheckFinding, 'keyspace' | 'shard' | 'workflow' | 'streamId' | 'tablet'> {
  const rec = model.shard(wf.keyspace, shard);
  const tablet = rec?.sidecar?.ok ? rec.sidecar.value.tablet : (rec?.primaryAlias ?? undefined);
  return {
    keyspace: wf.keyspace,
    shard,
    workflow: wf.name,
    ...(streamId !== undefined ? { streamId } : {}),
    ...(tablet ? { tablet } : {}),
  };
}

function coverageFindings(model: ClusterModel, wf: Workflow, e: ExpectedStreams): CheckFinding<R>[] {
  const out: CheckFinding<R>[] = [];
  for (const d of diffExpectedStreams(model, wf, e)) {
    // A stream whose source does not parse may be the one that looks missing (missing-source reports it).
    const unknown = d.unparsable.length > 0;
    if (d.streams.length === 0) {
      // Only a shard whose primary was read is proven to have no streams.
      if (!unknown && d.target.mustHaveStreams && model.shard(wf.keyspace, d.target.shard)?.sidecar?.ok) {
        out.push({
          reason: 'targetShardWithoutStreams',
          message: noStreamsOnTarget(wf, d),
          ...at(wf, d.target.shard, model),
          details: {
            targetShard: d.target.shard,
            keyRange: keyRangeString(d.target.keyRange),
            sourceKeyspace: e.sourceKeyspace,
            expectedSources: d.target.required,
          },
        });
      }
      continue;
    }
    if (d.missing.length > 0 && !unknown) {
      // A stream still reading a retired source shard that holds a resharding journal moves itself to the new
      // shards when it reaches the journal event: the gap is then pending, not permanent.
      const journaled = d.unexpected
        .filter((u) => u.state === 'notServing')
        .map((u) => u.sourceShard)
        .filter((name) => {
          const j = model.shard(e.sourceKeyspace, name)?.sidecar;
          return j?.ok === true && j.value.journals.ok && j.value.journals.value.length > 0;
        });
      out.push({
        reason: journaled.length > 0 ? 'missingStreamPendingJournal' : 'missingStream',
        message:
          missingStreams(wf, e, d) +
          (journaled.length > 0
            ? ` until the stream on ${list(journaled, `${e.sourceKeyspace}/`)} follows its resharding journal`
            : ''),
        ...at(wf, d.target.shard, model),
        details: {
          targetShard: d.target.shard,
          sourceKeyspace: e.sourceKeyspace,
          missingSources: d.missing,
          readSources: [...new Set(d.streams.map((s) => s.sourceShard))],
          sourceRule: e.sourceRule,
          vindexes: e.vindexes,
          ...(journaled.length > 0 ? { pendingJournalFrom: journaled } : {}),
        },
      });
    }
    for (const dup of d.duplicates) {
      out.push({
        reason: 'duplicateStream',
        message: duplicateStreams(wf, e, d, dup.sourceShard, dup.streams),
        ...at(wf, d.target.shard, model, dup.streams[dup.streams.length - 1]!.id),
        details: {
          targetShard: d.target.shard,
          sourceKeyspace: e.sourceKeyspace,
          sourceShard: dup.sourceShard,
          streamIds: dup.streams.map((s) => s.id),
        },
      });
    }
    for (const u of d.unexpected) {
      out.push({
        reason: 'unexpectedSource',
        message: unexpectedSource(wf, e, d, u.sourceShard, u.state, u.streams),
        ...at(wf, d.target.shard, model, u.streams[0]!.id),
        details: {
          targetShard: d.target.shard,
          sourceKeyspace: e.sourceKeyspace,
          sourceShard: u.sourceShard,
          sourceState: u.state,
          streamIds: u.streams.map((s) => s.id),
        },
      });
    }
  }
  for (const u of e.uncovered) {
    const only = u.candidates.length === 1 ? u.candidates[0]! : undefined;
    out.push({
      reason: 'rangeNotCovered',
      message: rangeNotCovered(wf, u),
      ...(only ? at(wf, only, model) : { keyspace: wf.keyspace, workflow: wf.name }),
      details: {
        keyRange: keyRangeString(u.keyRange),
        sourceShard: u.sourceShard,
        candidateTargets: u.candidates,
      },
    });
  }
  return out;
}

interface RuleProblem {
  readonly table: string;
  readonly literal: string | null;
}

/**
 * Per stream: the key range its rules route rows by must be the target shard's. Reshard's `/.*` rule carries the
 * range itself; MoveTables/Materialize/lookup selects carry `in_keyrange(...)`, which `generateBinlogSources` adds
 * for every non-reference table of a sharded target unless the target has one source shard of equal range.
 */
function keyRangeFindings(model: ClusterModel, wf: Workflow): CheckFinding<R>[] {
  const out: CheckFinding<R>[] = [];
  const tgt = model.keyspace(wf.keyspace);
  const vschema = tgt?.vschema.ok ? tgt.vschema.value : null;
  const cache = new Map<string, KeyRange | null | undefined>();
  const perShard = new Map<string, Stream[]>();
  for (const s of wf.streams) {
    if (s.source === null) continue;
    let l = perShard.get(s.shard);
    if (!l) perShard.set(s.shard, (l = []));
    l.push(s);
  }
  for (const [shardName, streams] of perShard) {
    const shard: Shard | undefined = model.shard(wf.keyspace, shardName);
    if (!shard) continue;
    const expected = keyRangeString(shard.keyRange);
    // `streamKeyRangesEqual`: a single source shard with the target's own range needs no in_keyrange.
    const only = streams.length === 1 ? streams[0]! : undefined;
    const onlySource = only ? model.shard(only.sourceKeyspace, only.sourceShard) : undefined;
    const equalSingle = onlySource
      ? keyRangeEqual(onlySource.keyRange, shard.keyRange)
      : only !== undefined && only.sourceShard === shardName;
    for (const s of streams) {
      const mismatched: RuleProblem[] = [];
      const unfiltered: RuleProblem[] = [];
      for (const rule of s.source!.filter?.rules ?? []) {
        if (rule.filter === 'exclude') continue;
        if (wf.type !== 'Reshard' && rule.match.startsWith('/')) continue;
        if (wf.type === 'Reshard' && rule.match !== '/.*') continue;
        const kr = ruleKeyRange(rule.filter);
        // Whether generateBinlogSources put an in_keyrange in front of this rule's select (undefined: unknown).
        const table = vschema?.tables.get(rule.match);
        const vitessAdds = vschema
          ? vschema.sharded &&
            table !== undefined &&
            table.type !== 'reference' &&
            !equalSingle &&
            rule.filter.trim() !== ''
          : undefined;
        if (kr.kind === 'keyRange' || kr.kind === 'inKeyrange') {
          // A Materialize filter is the user's: its own in_keyrange is only Vitess's when Vitess added one in front.
          if (wf.type === 'Materialize' && vitessAdds !== true) continue;
          if (kr.literal === expected || kr.literal === shardName) continue; // the usual case, no parsing needed
          const parsed = literalKeyRange(kr.literal, cache);
          if (parsed === undefined || !keyRangeEqual(parsed, shard.keyRange))
            mismatched.push({ table: rule.match, literal: kr.literal });
          continue;
        }
        if (kr.kind === 'inKeyrangeUnreadable') continue;
        if (wf.type === 'Reshard') {
          unfiltered.push({ table: rule.match, literal: null });
          continue;
        }
        // No key-range restriction: wrong only where Vitess would have added one. An empty filter (whole table) is
        // what Materialize writes for an empty source expression; MoveTables and lookups never write one.
        const wouldAdd =
          vitessAdds === true ||
          (rule.filter.trim() === '' &&
            wf.type !== 'Materialize' &&
            vschema?.sharded === true &&
            table !== undefined &&
            table.type !== 'reference' &&
            !equalSingle);
        if (wouldAdd) unfiltered.push({ table: rule.match, literal: null });
      }
      const first = mismatched[0];
      if (first) {
        out.push({
          reason: 'keyRangeMismatch',
          message: keyRangeMismatch(wf, s, first.table, first.literal ?? '', expected),
          ...at(wf, shardName, model, s.id),
          details: {
            targetShard: shardName,
            expectedKeyRange: expected,
            rules: mismatched.map((m) => ({ table: m.table, keyRange: m.literal })),
          },
        });
      }
      const firstUnfiltered = unfiltered[0];
      if (firstUnfiltered) {
        out.push({
          reason: 'keyRangeFilterMissing',
          message: keyRangeFilterMissing(wf, s, firstUnfiltered.table),
          ...at(wf, shardName, model, s.id),
          details: {
            targetShard: shardName,
            expectedKeyRange: expected,
            tables: unfiltered.map((u) => u.table),
          },
        });
      }
    }
  }
  return out;
}

const reasons = {
  targetShardWithoutStreams: {
    severity: 'error',
    step: 'catch-up',
    heuristic: true,
    rationale:
      'A target shard that must receive rows has no stream at all: after the switch those rows are missing there.',
  },
  missingStream: {
    severity: 'error',
    step: 'catch-up',
    heuristic: true,
    rationale:
      'A target shard lacks the stream from a source shard it must read, so rows of that key range never arrive.',
  },
  missingStreamPendingJournal: {
    severity: 'warning',
    step: 'catch-up',
    heuristic: true,
    rationale:
      'The missing stream should appear when the stream on a retired source shard follows its resharding journal.',
  },
  duplicateStream: {
    severity: 'error',
    step: 'catch-up',
    heuristic: true,
    rationale:
      'Two streams read the same source shard into one target shard, so rows are applied twice and may conflict.',
  },
  unexpectedSource: {
    severity: 'warning',
    step: 'catch-up',
    heuristic: true,
    rationale:
      'A stream reads a source shard the target shard does not need: harmless for data but a sign of a stale workflow.',
  },
  rangeNotCovered: {
    severity: 'error',
    step: 'catch-up',
    heuristic: true,
    rationale: 'Part of the source key range goes to no target shard, so those rows are lost at the switch.',
  },
  keyRangeMismatch: {
    severity: 'error',
    step: 'catch-up',
    heuristic: true,
    rationale:
      'A filter rule selects a key range other than its target shard, so the shard receives rows that are not its own.',
  },
  keyRangeFilterMissing: {
    severity: 'error',
    step: 'catch-up',
    heuristic: true,
    rationale: 'A rule without a key-range filter copies every row of a sharded table into one target shard.',
  },
} satisfies Reasons;

type R = keyof typeof reasons;

export default defineCheck({
  id: 'stream-coverage',
  needs: ['topology', 'vschema'],
  title: 'Every target shard reads exactly the source shards it must',
  // Vitess never checks any of this: each reason is a data-flow hole that SwitchTraffic turns into lost or extra rows.
  reasons,
  description: [
    'Vitess never checks, at cutover, that a workflow still has the streams it was created with. A target shard that',
    'lacks a stream from a source shard it must read never receives those rows: after SwitchTraffic they are gone.',
    'This check recomputes, from the current shard key ranges and vschemas, the streams Vitess creates',
    '(`vitessio/vitess:go/vt/vtctl/workflow/materializer.go` `filterSourceShards`/`primaryVindexesDiffer`/',
    '`generateBinlogSources`; `resharder.go` `createStreams`) and compares them with the streams that exist.',
    '',
    '- MoveTables: each target shard must read every serving source shard whose key range intersects its own; every',
    '  serving source shard when the primary vindexes of the moved tables differ (intersection alone then loses rows).',
    '  Reading the other source shards is tolerated (Vitess before v11 did so; the `in_keyrange` filter drops their',
    '  rows). Every serving target shard must have streams. A partial (shard-by-shard) MoveTables uses the',
    '  same-named shards.',
    '- Reshard: each target shard reads the intersecting serving source shards, and the target ranges must cover the',
    '  source ranges with no gap. Reference-table streams of other workflows copied onto the targets are checked by',
    '  `stream-set-mismatch`, not here.',
    '- Materialize and CreateLookupIndex: each target shard reads every serving source shard.',
    '',
    'Errors: `missingStream` (rows never copied; a warning while a stream on a retired source shard still has a resharding',
    'journal to follow, which moves it to the new shards), `targetShardWithoutStreams`, `rangeNotCovered`, `duplicateStream`',
    '(two streams apply the same rows), `keyRangeMismatch` (the `in_keyrange(...)` literal or the Reshard `/.*` rule',
    "filter is not the target shard's range: rows land on the wrong shard) and `keyRangeFilterMissing`. Warning:",
    '`unexpectedSource`, a stream from a source shard the target must not read, which copies nothing or reads a stale',
    'shard (the data loss that usually goes with it is reported as `missingStream`; a source shard without a record',
    'is also reported by `missing-source`). Frozen workflows (writes already switched) are not judged.',
  ].join('\n'),
  remediation: [
    'A workflow with missing, duplicate or misrouted streams cannot be repaired in place safely. Cancel it with',
    '`vtctldclient MoveTables --target-keyspace <keyspace> --workflow <workflow> cancel` (or `Reshard ... cancel`),',
    'make sure every source and target shard is serving as intended (`vtctldclient FindAllShardsInKeyspace <keyspace>`),',
    'and create the workflow again so that Vitess generates the streams from the current topology.',
    'A stream flagged as unexpected can be inspected with `vtctldclient Workflow --keyspace <keyspace> show --workflow <workflow>`',
    'and removed with `vtctldclient ExecuteFetchAsDBA <tablet> "delete from _vt.vreplication where id = <id>"` once you are sure it is stale.',
  ].join('\n'),
  run(model) {
    const out: CheckFinding<R>[] = [];
    for (const wf of model.workflows) {
      if (wf.frozen || wf.type === 'OnlineDDL') continue;
      const expected = buildExpectedStreams(model, wf);
      if (expected.ok) out.push(...coverageFindings(model, wf, expected.value));
      out.push(...keyRangeFindings(model, wf));
    }
    return out;
  },
});
