/**
 * What Vitess derives from a workflow's streams when it builds its traffic switcher, mirrored for the checks that
 * predict its errors (`table-list-mismatch`, `shard-set-mismatch`, `multiple-source-keyspaces`).
 *
 * Upstream: `vitessio/vitess:go/vt/vtctl/workflow/server.go` `buildTrafficSwitcher` (source keyspace, table list,
 * migration type), `traffic_switcher.go` `isPartialMoveTables` and `utils.go` `getSourceAndTargetKeyRanges`.
 *
 * Vitess walks the targets and each target's streams as Go maps, so "the first stream" it meets is random. Here the
 * order is the model's (target shards in key-range order, then stream id); where the choice matters for a message
 * the checks say so.
 */
import { keyRangeEqual, parseKeyRange, type KeyRange } from '../vitess/keyrange.js';
import type { ClusterModel, Stream, Workflow } from './types.js';

/** `binlogdatapb.MigrationType`. */
export type MigrationType = 'TABLES' | 'SHARDS';

/** Go's `%v` of a string slice: `[a b c]` (`[]` when empty). */
export function goStringSlice(values: readonly string[]): string {
  return `[${values.join(' ')}]`;
}

/** The streams Vitess can read: those whose `source` parsed (an unparsable row fails the read before any check). */
export function parsedStreams(wf: Workflow): Stream[] {
  return wf.streams.filter((s) => s.source !== null);
}

/**
 * A stream's table list as `buildTrafficSwitcher` builds it: the sorted rule `match` values of its filter
 * (a stream without a filter has none).
 */
export function streamTableList(s: Stream): readonly string[] {
  return s.source?.filter ? s.tables : [];
}

const listKey = (l: readonly string[]) => JSON.stringify(l);

/**
 * The table list the workflow's streams agree on: the most common non-empty list (ties: the one met first), or
 * null when every stream lists no table. Vitess compares against the first non-empty list it meets; taking the
 * majority points the findings at the odd streams rather than at whichever stream happens to come first.
 */
export function referenceTableList(streams: readonly Stream[]): readonly string[] | null {
  const counts = new Map<string, { list: readonly string[]; n: number; first: number }>();
  streams.forEach((s, i) => {
    const l = streamTableList(s);
    if (l.length === 0) return;
    const k = listKey(l);
    const c = counts.get(k);
    if (c) c.n++;
    else counts.set(k, { list: l, n: 1, first: i });
  });
  let best: { list: readonly string[]; n: number; first: number } | null = null;
  for (const c of counts.values()) if (!best || c.n > best.n || (c.n === best.n && c.first < best.first)) best = c;
  return best?.list ?? null;
}

/** True when two table lists are equal (Go's `reflect.DeepEqual` on sorted slices, nil = empty). */
export function sameTableList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((t, i) => t === b[i]);
}

/**
 * `buildTrafficSwitcher`'s migration type: TABLES when the source keyspace differs from the target or the source is
 * an external cluster; otherwise SHARDS, unless a source shard name is also a target shard name (then TABLES).
 * Uses the first parsed stream's source keyspace and external cluster, as Vitess does; null without parsed streams.
 */
export function migrationType(wf: Workflow): MigrationType | null {
  const streams = parsedStreams(wf);
  const first = streams[0];
  if (!first) return null;
  if (first.sourceKeyspace !== wf.keyspace || first.source!.externalCluster !== '') return 'TABLES';
  const targets = new Set(wf.targetShards);
  return streams.some((s) => targets.has(s.sourceShard)) ? 'TABLES' : 'SHARDS';
}

/** `key.ParseShardingSpec(shard)[0]` for a shard name; null when it is not a valid spec (Vitess then fails). */
function shardSpecRange(name: string): KeyRange | undefined {
  try {
    const kr = parseKeyRange(name);
    if (kr === null && name !== '0') return undefined; // ParseShardingSpec only accepts "0" without a dash
    return kr ?? { start: '', end: '' };
  } catch {
    return undefined;
  }
}

/**
 * `isPartialMoveTables`: a TABLES migration whose source shard names and target shard names (each sorted as
 * strings, the range running from the first's start to the last's end) span the same, incomplete key range with
 * the same number of shards. This, not the workflow sub type, decides whether `ts.validate` skips `CompareShards`.
 * Returns null when a shard name is not a key-range spec (Vitess fails building the switcher).
 */
export function isPartialMigration(wf: Workflow): boolean | null {
  if (migrationType(wf) !== 'TABLES') return false;
  const sources = [...new Set(parsedStreams(wf).map((s) => s.sourceShard))].sort();
  const targets = [...wf.targetShards].sort();
  if (sources.length === 0 || targets.length === 0) return null;
  const span = (names: string[]): KeyRange | null => {
    const first = shardSpecRange(names[0]!);
    const last = shardSpecRange(names[names.length - 1]!);
    if (first === undefined || last === undefined) return null;
    return { start: first.start, end: last.end };
  };
  const skr = span(sources);
  const tkr = span(targets);
  if (skr === null || tkr === null) return null;
  if (keyRangeEqual(skr, null) || keyRangeEqual(tkr, null) || sources.length !== targets.length) return false;
  return keyRangeEqual(skr, tkr);
}

/**
 * True when every shard record of the keyspace was read and its primary's sidecar answered: only then is "this
 * shard has no streams of the workflow" a fact rather than a gap in what was read.
 */
export function allShardsRead(model: ClusterModel, keyspace: string): boolean {
  const ks = model.keyspace(keyspace);
  if (!ks?.shards.ok) return false;
  for (const s of ks.shards.value.values()) if (!s.sidecar?.ok) return false;
  return true;
}
