/**
 * The stream set Vitess would have created for a workflow, per target shard, computed from the current topology
 * (shard key ranges, serving flags) and vschemas; and the difference to the streams that actually exist.
 *
 * Pure, shared by the `stream-coverage` check, the simulator and the HTML matrix. It mirrors:
 * - MoveTables / Materialize / CreateLookupIndex: `vitessio/vitess:go/vt/vtctl/workflow/materializer.go`
 *   (`buildMaterializer`: serving source and target shards, `--source-shards` restricting both to the same names
 *   for a partial MoveTables; `filterSourceShards`: intersecting source shards for MoveTables unless
 *   `primaryVindexesDiffer`, else every source shard; `generateBinlogSources`).
 * - Reshard: `vitessio/vitess:go/vt/vtctl/workflow/resharder.go` `createStreams` (one stream per intersecting
 *   (target, source) pair; the reference-table streams of *other* workflows that Reshard copies onto the targets
 *   belong to those workflows and are the stream migrator's business, not part of this set).
 *
 * History: before vitessio/vitess#8090 every MoveTables target shard read every source shard, and
 * v17-era code filtered by intersection even when the primary vindexes differed. So when the vindexes are equal
 * the intersecting source shards are required and the other serving source shards are tolerated (their rows never
 * pass the target's `in_keyrange`); when they differ every serving source shard is required.
 *
 * Scale: each shard's key range is parsed once (the model already holds it); intersections are found with a
 * sorted index and a binary search, never by testing every (target, source) pair.
 */
import { compareKeyspaceIds, isKeyRangeName, keyRangeEqual, parseKeyRange, type KeyRange } from '../vitess/keyrange.js';
import type { ClusterModel, Shard, Stream, VSchema, Workflow, WorkflowType } from './types.js';

/** How the source and target primary vindexes of the moved tables compare (`primaryVindexesDiffer`). */
export type VindexComparison = 'equal' | 'differ' | 'unknown' | 'notApplicable';

/** Which source shards each target shard must read. */
export type SourceRule =
  /** MoveTables with equal primary vindexes (or one side unsharded), Reshard: the intersecting source shards. */
  | 'intersecting'
  /** MoveTables with different primary vindexes, Materialize, CreateLookupIndex: every candidate source shard. */
  | 'all';

/** The expectation for one target shard. */
export interface TargetExpectation {
  /** Target shard name. */
  readonly shard: string;
  /** The shard record's key range (null = full range). */
  readonly keyRange: KeyRange | null;
  readonly serving: boolean;
  /** True when Vitess would have created streams on this shard, so having none is a hole. */
  readonly mustHaveStreams: boolean;
  /** Source shards (of `ExpectedStreams.sourceKeyspace`) a stream must exist from, in key-range order. */
  readonly required: readonly string[];
  /** True when any other candidate source shard may also feed this target without harm (older Vitess did so). */
  readonly othersTolerated: boolean;
}

/** A part of a Reshard source shard's key range that no target shard with streams covers. */
export interface UncoveredRange {
  readonly keyRange: KeyRange;
  /** The source shard the range belongs to. */
  readonly sourceShard: string;
  /** Non-serving shards (read, without streams of the workflow) lying in the range: the likely missing targets. */
  readonly candidates: readonly string[];
}

/** The expected stream set of one workflow. */
export interface ExpectedStreams {
  /** Target keyspace and workflow name. */
  readonly keyspace: string;
  readonly workflow: string;
  readonly type: WorkflowType;
  /** Partial (shard-by-shard) MoveTables: sub type `Partial`. */
  readonly partial: boolean;
  readonly sourceKeyspace: string;
  readonly sourceRule: SourceRule;
  readonly vindexes: VindexComparison;
  /**
   * The candidate source shards (serving; for a partial MoveTables those named like its target shards), key-range
   * order.
   */
  readonly candidateSources: readonly string[];
  /** One entry per target shard that has streams or must have them, in key-range order. */
  readonly targets: readonly TargetExpectation[];
  /** Reshard only: source ranges no target shard with streams covers. */
  readonly uncovered: readonly UncoveredRange[];
}

/** Why the expected set could not be computed. */
export type NotComputableReason =
  | 'unsupportedType'
  | 'noParsedSources'
  | 'multipleSourceKeyspaces'
  | 'externalSource'
  | 'sourceKeyspaceNotFound'
  | 'sourceShardsNotRead'
  | 'targetShardsNotRead';

export type ExpectedStreamsResult =
  | { readonly ok: true; readonly value: ExpectedStreams }
  | { readonly ok: false; readonly reason: NotComputableReason; readonly detail: string };

/** One expected stream: the (target shard, source keyspace, source shard) triple Vitess creates. */
export interface ExpectedTriple {
  readonly targetShard: string;
  readonly sourceKeyspace: string;
  readonly sourceShard: string;
}

/** Why a source shard a target reads is not one it should read. */
export type UnexpectedSourceState =
  /** Serving, but its range does not intersect the target's (Reshard): the stream copies nothing. */
  | 'notIntersecting'
  /** Partial MoveTables: serving, but not one of the shards the workflow migrates. */
  | 'outsidePartialSet'
  /** The shard record exists but is not primary-serving (a stale stream from an older topology). */
  | 'notServing'
  /** No shard record of that name in the source keyspace. */
  | 'notInTopo';

/** Expected versus actual streams on one target shard. */
export interface TargetDiff {
  readonly target: TargetExpectation;
  /** The workflow's streams on this shard with a parsed source, by stream id. */
  readonly streams: readonly Stream[];
  /** The workflow's streams on this shard whose source does not parse (they may be the "missing" ones). */
  readonly unparsable: readonly Stream[];
  /** Required source shards no stream reads. */
  readonly missing: readonly string[];
  /** Source shards read by more than one stream. */
  readonly duplicates: readonly { readonly sourceShard: string; readonly streams: readonly Stream[] }[];
  /** Source shards read although they should not be. */
  readonly unexpected: readonly {
    readonly sourceShard: string;
    readonly state: UnexpectedSourceState;
    readonly streams: readonly Stream[];
  }[];
}

/** The key-range restriction a rule filter carries. */
export type RuleKeyRange =
  /** The filter itself is a key range (`-80`, Reshard's `/.*` rule). */
  | { readonly kind: 'keyRange'; readonly literal: string }
  /** A select with `in_keyrange(…, '<range>')` (3+ args) or `in_keyrange('<range>')` (1 arg): its last argument. */
  | { readonly kind: 'inKeyrange'; readonly literal: string }
  /** `in_keyrange` whose last argument is not a string literal. */
  | { readonly kind: 'inKeyrangeUnreadable' }
  /** No key-range restriction. */
  | { readonly kind: 'none' };

// ---------------------------------------------------------------------------------------------------------------
// Key-range bounds, compared as Vitess compares them (normalized; '' = unbounded).

const isUnbounded = (bound: string): boolean => compareKeyspaceIds(bound, '') === 0;
/** start < end, where an unbounded end is the maximum. */
const startBeforeEnd = (start: string, end: string): boolean => isUnbounded(end) || compareKeyspaceIds(start, end) < 0;
/** Order of two end bounds, unbounded last. */
function compareEnds(a: string, b: string): number {
  const am = isUnbounded(a);
  const bm = isUnbounded(b);
  if (am || bm) return am === bm ? 0 : am ? 1 : -1;
  return compareKeyspaceIds(a, b);
}
const isComplete = (kr: KeyRange | null): boolean => keyRangeEqual(kr, null);

/**
 * Items indexed by key range for intersection queries: complete ranges apart, the others sorted by start with a
 * running maximum of their ends, so a query is a binary search plus a short backward walk.
 */
export class KeyRangeIndex<T> {
  private readonly complete: { readonly item: T; readonly order: number }[] = [];
  private readonly sorted: {
    readonly item: T;
    readonly order: number;
    readonly start: string;
    readonly end: string;
  }[] = [];
  private readonly maxEnd: string[] = [];

  constructor(items: readonly T[], rangeOf: (item: T) => KeyRange | null) {
    items.forEach((item, order) => {
      const kr = rangeOf(item);
      if (kr === null || isComplete(kr)) this.complete.push({ item, order });
      else this.sorted.push({ item, order, start: kr.start, end: kr.end });
    });
    this.sorted.sort((a, b) => compareKeyspaceIds(a.start, b.start) || compareEnds(a.end, b.end) || a.order - b.order);
    let max: string | null = null;
    for (const s of this.sorted) {
      if (max === null || compareEnds(s.end, max) > 0) max = s.end;
      this.maxEnd.push(max);
    }
  }

  /** The items whose range intersects `kr` (Vitess's `KeyRangeIntersect`), in their original order. */
  intersecting(kr: KeyRange | null): T[] {
    if (kr === null || isComplete(kr)) {
      return [...this.complete, ...this.sorted].sort((a, b) => a.order - b.order).map((x) => x.item);
    }
    // First sorted item whose start is at or past the query's end: nothing from there on intersects.
    let lo = 0;
    let hi = this.sorted.length;
    if (!isUnbounded(kr.end)) {
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (compareKeyspaceIds(this.sorted[mid]!.start, kr.end) >= 0) hi = mid;
        else lo = mid + 1;
      }
    }
    const found: { item: T; order: number }[] = [...this.complete];
    for (let j = hi - 1; j >= 0 && startBeforeEnd(kr.start, this.maxEnd[j]!); j--) {
      const s = this.sorted[j]!;
      if (startBeforeEnd(kr.start, s.end)) found.push(s);
    }
    return found.sort((a, b) => a.order - b.order).map((x) => x.item);
  }
}

/**
 * The parts of `kr` that none of `covering` covers. `covering` need not be sorted or disjoint.
 * Bounds are kept as written in the shard records, so `keyRangeString` prints what Vitess would print.
 */
export function uncoveredParts(kr: KeyRange | null, covering: readonly (KeyRange | null)[]): KeyRange[] {
  if (covering.some(isComplete)) return [];
  const whole = kr ?? { start: '', end: '' };
  const sorted = covering
    .filter((c): c is KeyRange => c !== null)
    .filter((c) => startBeforeEnd(c.start, whole.end) && startBeforeEnd(whole.start, c.end))
    .sort((a, b) => compareKeyspaceIds(a.start, b.start) || compareEnds(a.end, b.end));
  const out: KeyRange[] = [];
  let cursor = whole.start;
  let done = false;
  for (const c of sorted) {
    if (compareKeyspaceIds(c.start, cursor) > 0) {
      const gapEnd = !isUnbounded(whole.end) && compareKeyspaceIds(c.start, whole.end) > 0 ? whole.end : c.start;
      out.push({ start: cursor, end: gapEnd });
    }
    if (isUnbounded(c.end)) {
      done = true;
      break;
    }
    if (compareKeyspaceIds(c.end, cursor) > 0) cursor = c.end;
  }
  if (!done && startBeforeEnd(cursor, whole.end)) out.push({ start: cursor, end: whole.end });
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// Vindexes.

/**
 * Mirrors `primaryVindexesDiffer` (`materializer.go`, newest): false when exactly one keyspace is sharded; true as
 * soon as a moved table lacks column vindexes on either side, has primary vindex columns differing in number or
 * (case-insensitively) in name, has a vindex definition on one side only, or vindex types differing
 * (case-insensitively); tables whose vindex definitions are missing on both sides are skipped.
 */
export function primaryVindexesDiffer(tables: readonly string[], source: VSchema, target: VSchema): boolean {
  if (source.sharded !== target.sharded) return false;
  for (const table of tables) {
    const s = source.tables.get(table)?.columnVindexes ?? [];
    const t = target.tables.get(table)?.columnVindexes ?? [];
    const sp = s[0];
    const tp = t[0];
    if (sp === undefined || tp === undefined) return true;
    if (sp.columns.length !== tp.columns.length) return true;
    for (let i = 0; i < sp.columns.length; i++) {
      if (sp.columns[i]!.toLowerCase() !== tp.columns[i]!.toLowerCase()) return true;
    }
    const sv = source.vindexes.get(sp.name);
    const tv = target.vindexes.get(tp.name);
    if (!sv && !tv) continue;
    if (!sv || !tv) return true;
    if (sv.type.toLowerCase() !== tv.type.toLowerCase()) return true;
  }
  return false;
}

/** The tables a workflow's streams replicate (rule `match` values, wildcards excluded), sorted. */
export function workflowTables(wf: Workflow): string[] {
  const set = new Set<string>();
  for (const s of wf.streams) for (const t of s.tables) if (!t.startsWith('/')) set.add(t);
  return [...set].sort();
}

/** Per workflow (the model is frozen), the sorted set of its tables: built once, so per-rule lookups stay O(1). */
const tableSets = new WeakMap<Workflow, ReadonlySet<string>>();

/**
 * {@link workflowTables} as a set, built once per workflow: checks that judge every routing rule against every
 * workflow ask `has` here instead of scanning the table list, so their cost stays linear in the rules.
 */
export function workflowTableSet(wf: Workflow): ReadonlySet<string> {
  let set = tableSets.get(wf);
  if (set === undefined) {
    set = new Set(workflowTables(wf));
    tableSets.set(wf, set);
  }
  return set;
}

// ---------------------------------------------------------------------------------------------------------------
// The expected set.

const notComputable = (reason: NotComputableReason, detail: string): ExpectedStreamsResult => ({
  ok: false,
  reason,
  detail,
});

/**
 * The streams Vitess would have created for `wf` given the current topology and vschemas.
 * Not computable (with the reason) for OnlineDDL, for workflows reading several source keyspaces, from an external
 * cluster, or when the source keyspace's shard records were not read.
 */
export function buildExpectedStreams(model: ClusterModel, wf: Workflow): ExpectedStreamsResult {
  if (wf.type === 'OnlineDDL') return notComputable('unsupportedType', 'Online DDL streams are not a data migration');
  const parsed = wf.streams.filter((s) => s.source !== null);
  if (parsed.length === 0) return notComputable('noParsedSources', 'no stream has a parsable source');
  if (wf.sourceKeyspaces.length !== 1) {
    return notComputable('multipleSourceKeyspaces', `the streams read ${wf.sourceKeyspaces.length} source keyspaces`);
  }
  const external = parsed.find((s) => s.source!.externalCluster !== '');
  if (external)
    return notComputable('externalSource', `the source is the external cluster ${external.source!.externalCluster}`);
  const sourceKeyspace = wf.sourceKeyspaces[0]!;
  const srcKs = model.keyspace(sourceKeyspace);
  if (!srcKs) return notComputable('sourceKeyspaceNotFound', `keyspace ${sourceKeyspace} is not in the topology`);
  if (!srcKs.shards.ok)
    return notComputable('sourceShardsNotRead', `the shards of keyspace ${sourceKeyspace} were not read`);
  const tgtKs = model.keyspace(wf.keyspace);
  if (!tgtKs?.shards.ok)
    return notComputable('targetShardsNotRead', `the shards of keyspace ${wf.keyspace} were not read`);
  const sourceShards = [...srcKs.shards.value.values()];
  const targetShardRecords = tgtKs.shards.value;
  const withStreams = new Set(wf.targetShards);

  const base = { keyspace: wf.keyspace, workflow: wf.name, type: wf.type, sourceKeyspace };
  const targetOf = (
    shard: Shard,
    mustHaveStreams: boolean,
    required: readonly string[],
    othersTolerated: boolean,
  ): TargetExpectation => ({
    shard: shard.name,
    keyRange: shard.keyRange,
    serving: shard.isPrimaryServing,
    mustHaveStreams,
    required,
    othersTolerated,
  });
  // Target shards with streams, in key-range order (the shard map is in key-range order).
  const streamTargets = [...targetShardRecords.values()].filter((s) => withStreams.has(s.name));

  if (wf.type === 'Reshard') {
    const candidates = sourceShards.filter((s) => s.isPrimaryServing && !withStreams.has(s.name));
    const index = new KeyRangeIndex(candidates, (s) => s.keyRange);
    const targets = streamTargets.map((t) =>
      targetOf(
        t,
        true,
        index.intersecting(t.keyRange).map((s) => s.name),
        false,
      ),
    );
    return {
      ok: true,
      value: {
        ...base,
        partial: false,
        sourceRule: 'intersecting',
        vindexes: 'notApplicable',
        candidateSources: candidates.map((s) => s.name),
        targets,
        uncovered: reshardUncovered(wf, sourceShards, streamTargets, candidates),
      },
    };
  }

  const servingSources = sourceShards.filter((s) => s.isPrimaryServing);
  if (wf.type === 'Materialize' || wf.type === 'CreateLookupIndex') {
    const all = servingSources.map((s) => s.name);
    return {
      ok: true,
      value: {
        ...base,
        partial: false,
        sourceRule: 'all',
        vindexes: 'notApplicable',
        candidateSources: all,
        targets: streamTargets.map((t) => targetOf(t, false, all, false)),
        uncovered: [],
      },
    };
  }

  // MoveTables (and a Migrate whose source keyspace is in this cluster).
  const partial = wf.subType === 'Partial';
  const candidates = partial ? servingSources.filter((s) => withStreams.has(s.name)) : servingSources;
  let vindexes: VindexComparison = 'unknown';
  if (srcKs.vschema.ok && tgtKs.vschema.ok) {
    vindexes = primaryVindexesDiffer(workflowTables(wf), srcKs.vschema.value, tgtKs.vschema.value) ? 'differ' : 'equal';
  }
  const all = candidates.map((s) => s.name);
  const index = new KeyRangeIndex(candidates, (s) => s.keyRange);
  // A multi-tenant MoveTables created with --shards streams only into those target shards (`materializer.go`
  // `buildMaterializer`: `ms.WorkflowOptions.Shards` replaces the serving target shards).
  const tenantShards = wf.streams.find((x) => x.options?.tenantId && x.options.shards.length > 0)?.options?.shards;
  const targetShards = partial
    ? streamTargets
    : [...targetShardRecords.values()].filter((s) => s.isPrimaryServing || withStreams.has(s.name));
  const targets = targetShards.map((t) => {
    const must = !partial && t.isPrimaryServing && (tenantShards === undefined || tenantShards.includes(t.name));
    return vindexes === 'differ'
      ? targetOf(t, must, all, false)
      : targetOf(
          t,
          must,
          index.intersecting(t.keyRange).map((s) => s.name),
          true,
        );
  });
  return {
    ok: true,
    value: {
      ...base,
      partial,
      sourceRule: vindexes === 'differ' ? 'all' : 'intersecting',
      vindexes,
      candidateSources: all,
      targets,
      uncovered: [],
    },
  };
}

/**
 * Reshard: the parts of each source shard in play (serving, and intersecting a target with streams or read by a
 * stream) that no target shard with streams covers. A part is left out when a non-serving shard intersecting it
 * could not be read (it might hold the missing streams).
 */
function reshardUncovered(
  wf: Workflow,
  shards: readonly Shard[],
  streamTargets: readonly Shard[],
  candidates: readonly Shard[],
): UncoveredRange[] {
  const readSources = new Set(wf.streams.map((s) => s.sourceShard));
  const targetIndex = new KeyRangeIndex(streamTargets, (s) => s.keyRange);
  const targetNames = new Set(streamTargets.map((s) => s.name));
  const others = shards.filter((s) => !s.isPrimaryServing && !targetNames.has(s.name));
  const otherIndex = new KeyRangeIndex(others, (s) => s.keyRange);
  const out: UncoveredRange[] = [];
  for (const source of candidates) {
    const covering = targetIndex.intersecting(source.keyRange);
    if (covering.length === 0 && !readSources.has(source.name)) continue; // not part of this Reshard
    for (const part of uncoveredParts(
      source.keyRange,
      covering.map((t) => t.keyRange),
    )) {
      const lying = otherIndex.intersecting(part);
      if (lying.some((s) => !s.sidecar?.ok)) continue; // cannot prove that part has no streams
      out.push({ keyRange: part, sourceShard: source.name, candidates: lying.map((s) => s.name) });
    }
  }
  return out;
}

/** The required (target shard, source keyspace, source shard) triples, in key-range order of targets. */
export function expectedTriples(e: ExpectedStreams): ExpectedTriple[] {
  return e.targets.flatMap((t) =>
    t.required.map((sourceShard) => ({ targetShard: t.shard, sourceKeyspace: e.sourceKeyspace, sourceShard })),
  );
}

/** Expected versus actual, per target shard of the expectation (key-range order). */
export function diffExpectedStreams(model: ClusterModel, wf: Workflow, e: ExpectedStreams): TargetDiff[] {
  const byTarget = new Map<string, Stream[]>();
  const unparsableByTarget = new Map<string, Stream[]>();
  for (const s of wf.streams) {
    if (s.source !== null && s.sourceKeyspace !== e.sourceKeyspace) continue;
    const map = s.source === null ? unparsableByTarget : byTarget;
    let list = map.get(s.shard);
    if (!list) map.set(s.shard, (list = []));
    list.push(s);
  }
  const candidates = new Set(e.candidateSources);
  return e.targets.map((target) => {
    const streams = byTarget.get(target.shard) ?? [];
    const bySource = new Map<string, Stream[]>();
    for (const s of streams) {
      let list = bySource.get(s.sourceShard);
      if (!list) bySource.set(s.sourceShard, (list = []));
      list.push(s);
    }
    const required = new Set(target.required);
    const missing = target.required.filter((s) => !bySource.has(s));
    const duplicates: TargetDiff['duplicates'][number][] = [];
    const unexpected: TargetDiff['unexpected'][number][] = [];
    for (const [sourceShard, list] of bySource) {
      if (list.length > 1) duplicates.push({ sourceShard, streams: list });
      if (required.has(sourceShard) || (target.othersTolerated && candidates.has(sourceShard))) continue;
      const rec = model.shard(e.sourceKeyspace, sourceShard);
      const state: UnexpectedSourceState = !rec
        ? 'notInTopo'
        : !rec.isPrimaryServing
          ? 'notServing'
          : e.partial
            ? 'outsidePartialSet'
            : 'notIntersecting';
      unexpected.push({ sourceShard, state, streams: list });
    }
    return { target, streams, unparsable: unparsableByTarget.get(target.shard) ?? [], missing, duplicates, unexpected };
  });
}

// ---------------------------------------------------------------------------------------------------------------
// Key-range literals in rule filters.

/**
 * The key-range restriction of a rule filter: the filter itself when it is a key-range spec (`key.IsValidKeyRange`,
 * as the vstreamer decides), else the last argument of the first `in_keyrange(...)` in a select (the one
 * `generateBinlogSources` puts in front of any user condition).
 */
export function ruleKeyRange(filter: string): RuleKeyRange {
  // Thousands of streams carry the same few filters (a 256 × 256 Materialize: 65,536 streams, every rule of each
  // scanned here); the answer depends on the text alone. Bounded: the memo starts over when full.
  let kr = ruleKeyRanges.get(filter);
  if (kr === undefined) {
    if (ruleKeyRanges.size >= RULE_MEMO_ENTRIES) ruleKeyRanges.clear();
    ruleKeyRanges.set(filter, (kr = parseRuleKeyRange(filter)));
  }
  return kr;
}

const RULE_MEMO_ENTRIES = 4096;
const ruleKeyRanges = new Map<string, RuleKeyRange>();

function parseRuleKeyRange(filter: string): RuleKeyRange {
  const f = filter.trim();
  if (isKeyRangeName(f)) return { kind: 'keyRange', literal: f };
  const m = /\bin_keyrange\s*\(/i.exec(f);
  if (!m) return { kind: 'none' };
  const args: string[] = [];
  let cur = '';
  let quote: string | null = null;
  let depth = 0;
  for (let i = m.index + m[0].length; i < f.length; i++) {
    const ch = f[i]!;
    if (quote) {
      cur += ch;
      if (ch === '\\' && i + 1 < f.length) cur += f[++i]!;
      else if (ch === quote) {
        if (f[i + 1] === quote) cur += f[++i]!;
        else quote = null;
      }
      continue;
    }
    if (ch === "'" || ch === '"' || ch === '`') {
      quote = ch;
      cur += ch;
    } else if (ch === '(') {
      depth++;
      cur += ch;
    } else if (ch === ')') {
      if (depth === 0) {
        args.push(cur.trim());
        const last = args[args.length - 1] ?? '';
        const lit = /^(['"])(.*)\1$/s.exec(last);
        if (!lit) return { kind: 'inKeyrangeUnreadable' };
        const q = lit[1]!;
        const body = lit[2]!
          .replace(/\\(.)/g, '$1')
          .split(q + q)
          .join(q);
        return { kind: 'inKeyrange', literal: body };
      }
      depth--;
      cur += ch;
    } else if (ch === ',' && depth === 0) {
      args.push(cur.trim());
      cur = '';
    } else {
      cur += ch;
    }
  }
  return { kind: 'inKeyrangeUnreadable' };
}

/** The key range a literal names, `undefined` when it is not a valid spec. Parsed once per distinct literal. */
export function literalKeyRange(
  literal: string,
  cache?: Map<string, KeyRange | null | undefined>,
): KeyRange | null | undefined {
  if (cache?.has(literal)) return cache.get(literal);
  let kr: KeyRange | null | undefined;
  try {
    kr = isKeyRangeName(literal) ? parseKeyRange(literal) : undefined;
  } catch {
    kr = undefined;
  }
  cache?.set(literal, kr);
  return kr;
}
