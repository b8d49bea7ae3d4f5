/**
 * The resharding journal id of a workflow, computed exactly as Vitess computes it, and the journal rows found on
 * its source primaries.
 *
 * When SwitchTraffic passes its point of no return it inserts a `binlogdata.Journal` row with this id into
 * `<sidecar>.resharding_journal` on every source primary; a later SwitchTraffic finds it (`checkJournals`) and
 * resumes from there instead of starting over.
 *
 * Upstream: `vitessio/vitess:go/vt/vtctl/workflow/utils.go` `HashStreams` (the legacy wrangler's `hashStreams` is the
 * same function): the strings `"<target shard>:<stream id>"` of every stream of the workflow on every target shard,
 * sorted (Go `sort.Strings`: byte order), are fed after the target keyspace name into FNV-1 64 (`hash/fnv.New64`,
 * not FNV-1a), and the top bit of the sum is cleared (`& math.MaxInt64`).
 */
import { compareCodePoints } from '../vitess/gtid-common.js';
import type { ClusterModel, Workflow } from './types.js';

/** The FNV-1 64-bit offset basis 0xcbf29ce484222325, in halves. */
const FNV64_OFFSET_HI = 0xcbf29ce4;
const FNV64_OFFSET_LO = 0x84222325;
const MAX_INT64 = (1n << 63n) - 1n;

/** One stream of a workflow as `HashStreams` sees it: its target shard and its id on that shard's primary. */
export interface TargetStream {
  readonly shard: string;
  readonly id: number;
}

/**
 * `HashStreams(targetKeyspace, targets)`: the journal (migration) id, a non-negative int64, as a bigint.
 * Go's `%d` of a stream id (a uint32 map key) is its plain decimal form.
 */
export function hashStreams(targetKeyspace: string, streams: readonly TargetStream[]): bigint {
  const expanded = streams.map((s) => `${s.shard}:${s.id}`).sort(compareCodePoints);
  const encoder = new TextEncoder();
  // The 64-bit state as two unsigned 32-bit halves, in plain numbers: BigInt arithmetic per byte allocated about
  // 70 MB at a 65,536-stream workflow. FNV-1 (multiply first, then xor; FNV-1a does the opposite) with the prime
  // 2^40 + 0x1b3: h * prime = (h << 40) + h * 0x1b3, modulo 2^64.
  let hi = FNV64_OFFSET_HI;
  let lo = FNV64_OFFSET_LO;
  const step = (byte: number) => {
    const low = lo * 0x1b3; // < 2^41: exact
    const carry = Math.floor(low / 0x1_0000_0000);
    hi = (hi * 0x1b3 + carry + lo * 0x100) % 0x1_0000_0000; // < 2^42 before the modulo: exact
    lo = ((low % 0x1_0000_0000) ^ byte) >>> 0;
  };
  for (const part of [targetKeyspace, ...expanded]) {
    // ASCII text is its own UTF-8 (shard names and ids always are): no encoding needed.
    if (/^[\x00-\x7f]*$/.test(part)) for (let i = 0; i < part.length; i++) step(part.charCodeAt(i));
    else for (const byte of encoder.encode(part)) step(byte);
  }
  return ((BigInt(hi) << 32n) | BigInt(lo)) & MAX_INT64;
}

/** The journal id of a workflow (all its streams, on every target shard), as the decimal string the sidecar stores. */
export function workflowJournalId(wf: Workflow): string {
  return hashStreams(
    wf.keyspace,
    wf.streams.map((s) => ({ shard: s.shard, id: s.id })),
  ).toString();
}

/** Where a workflow's journal was looked for and found. */
export interface JournalSearch {
  /** The journal id (decimal). */
  readonly id: string;
  /** Source primaries holding a row with that id: `keyspace/shard` and the primary alias. */
  readonly foundOn: readonly { readonly keyspace: string; readonly shard: string; readonly tablet: string }[];
  /** Source shards whose journal table could not be read (so absence there is unknown). */
  readonly unread: readonly { readonly keyspace: string; readonly shard: string }[];
}

/**
 * Looks for a workflow's journal on the primaries of its source shards (the shards its streams read), where
 * `checkJournals` looks. Streams of external sources are skipped (their source primaries are not in this cluster).
 */
export function findWorkflowJournal(model: ClusterModel, wf: Workflow): JournalSearch {
  const id = workflowJournalId(wf);
  const sources = new Map<string, { keyspace: string; shard: string }>();
  for (const s of wf.streams) {
    if (!s.source || s.source.externalCluster !== '' || s.source.externalMysql !== '') continue;
    sources.set(`${s.sourceKeyspace}/${s.sourceShard}`, { keyspace: s.sourceKeyspace, shard: s.sourceShard });
  }
  const foundOn: { keyspace: string; shard: string; tablet: string }[] = [];
  const unread: { keyspace: string; shard: string }[] = [];
  for (const key of [...sources.keys()].sort()) {
    const src = sources.get(key)!;
    const sidecar = model.shard(src.keyspace, src.shard)?.sidecar;
    if (!sidecar?.ok || !sidecar.value.journals.ok) {
      unread.push(src);
      continue;
    }
    if (sidecar.value.journals.value.some((j) => j.id === id)) foundOn.push({ ...src, tablet: sidecar.value.tablet });
  }
  return { id, foundOn, unread };
}
