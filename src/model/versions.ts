/**
 * Which Vitess releases the cluster may run, inferred from what it shows (pure; the engine calls it when no
 * `--vitess-version` was given, and to cross-check one that was).
 *
 * vtctld has no RPC that returns a release number: `GetVersion` returns the tablet's build facts (git revision and
 * build time, `vitessio/vitess:go/vt/vtctl/grpcvtctldserver/server.go` `getVersionFromTabletDebugVars`). So the
 * range is narrowed by facts that exist only from a given release on:
 * - a `_vt.vreplication` column that a release added (the tablets' sidecar schema is upgraded by the tablets at
 *   start-up and never loses a column, so present = that release ran on this MySQL, absent = it never did);
 * - an optional vtctld RPC answering UNIMPLEMENTED (vtctld is older than the RPC) or answering (it is not);
 * - a build time: a binary built before the release-N branch was cut is at most vN (main was vN-SNAPSHOT then).
 *
 * SwitchTraffic, the stream migrator and Externalize run in vtctld (`go/vt/vtctl/workflow`), the sidecar facts speak
 * for the tablets: both narrow the same range, because a supported cluster runs one release everywhere; when they
 * disagree the cluster is mixed, the range is their union, and `mixed` says so.
 */
import {
  DEFAULT_VITESS_VERSIONS,
  formatRange,
  intersectRanges,
  NEWEST_MAJOR,
  SUPPORTED_SPAN,
  type Release,
  type VitessVersions,
} from '../vitess/versions.js';
import type { ClusterModel } from './types.js';

const since = (major: number): Release => ({ major, minor: 0, patch: 0 });
const upTo = (major: number): Release => ({ major, minor: 999, patch: 999 });

/** `_vt.vreplication` columns that only exist from a release on. */
export const SIDECAR_COLUMN_SINCE: readonly {
  readonly column: string;
  readonly major: number;
  readonly why: string;
}[] = [
  {
    column: 'options',
    major: 20,
    // Multi-tenant MoveTables (vitessio/vitess#15403, PR vitessio/vitess#15746, listed in
    // changelog/20.0/20.0.0/summary.md by PR 16259) stores `WorkflowOptions` (tenant id, shards) in this JSON column;
    // v19's go/vt/sidecardb/schema/vreplication/vreplication.sql ends at `defer_secondary_keys`.
    why: 'multi-tenant MoveTables, v20',
  },
];

/** Optional vtctld RPCs and the release that added them. */
export const RPC_SINCE: readonly { readonly rpc: string; readonly major: number; readonly why: string }[] = [
  // Keyspace routing rules came with multi-tenant MoveTables (vitessio/vitess#15403, v20).
  { rpc: 'GetKeyspaceRoutingRules', major: 20, why: 'keyspace routing rules, v20' },
  // Traffic mirroring (PR 15945, v21): mirror rules and their RPCs.
  { rpc: 'GetMirrorRules', major: 21, why: 'mirror rules, v21' },
];

/**
 * Dates (unix seconds) no later than the cut of each `release-N` branch: before it, `main` was vN-SNAPSHOT, so a
 * binary built earlier is at most vN. Chosen early on purpose (weeks before each GA: v19.0.0 2024-03, v20.0.0
 * 2024-06, v21.0.0 2024-10, v22.0.0 2025-04, v23.0.0 2025-11): an early date only loosens the bound.
 */
export const BRANCH_CUT_NOT_AFTER: readonly { readonly major: number; readonly at: number }[] = [
  { major: 19, at: Date.UTC(2024, 0, 15) / 1000 },
  { major: 20, at: Date.UTC(2024, 4, 1) / 1000 },
  { major: 21, at: Date.UTC(2024, 8, 1) / 1000 },
  { major: 22, at: Date.UTC(2025, 2, 1) / 1000 },
  { major: 23, at: Date.UTC(2025, 8, 1) / 1000 },
];

/** The newest major a binary built at `buildTimestamp` (unix seconds) can be. */
export function newestMajorBuiltAt(buildTimestamp: number): number {
  const cut = BRANCH_CUT_NOT_AFTER.find((c) => buildTimestamp < c.at);
  return Math.min(cut?.major ?? NEWEST_MAJOR, NEWEST_MAJOR);
}

const date = (unixSeconds: number) => new Date(unixSeconds * 1000).toISOString().slice(0, 10);
const count = (n: number, total: number) => (n === total ? `all ${total}` : `${n} of ${total}`);

interface Bound {
  readonly lo: Release;
  readonly hi: Release;
  readonly evidence: string;
}

/** A sidecar fact read per primary that exists only from release `major` on (a column, a column type). */
interface PerPrimaryFact {
  /** [primary alias, whether the fact holds there], for the primaries that report it. */
  readonly held: readonly (readonly [string, boolean])[];
  readonly major: number;
  /** Evidence texts: the fact holds, it does not, it holds on some primaries (default `holds`). */
  readonly holds: string;
  readonly fails: string;
  readonly mixedHolds?: string;
}

/**
 * All primaries read hold the fact: v`major`+; none does: older; some do: a mixed cluster, named. Nothing read:
 * neither.
 */
function perPrimaryFact(f: PerPrimaryFact): { readonly bound?: Bound; readonly mixed?: string } {
  const n = f.held.length;
  if (n === 0) return {};
  const having = f.held.filter(([, h]) => h).length;
  if (having === n)
    return {
      bound: { lo: since(f.major), hi: SUPPORTED_SPAN.hi, evidence: `${f.holds} on ${count(n, n)} primaries read` },
    };
  if (having === 0)
    return {
      bound: { lo: SUPPORTED_SPAN.lo, hi: upTo(f.major - 1), evidence: `${f.fails} on ${count(n, n)} primaries read` },
    };
  const lacking = f.held.filter(([, h]) => !h).map(([a]) => a);
  return {
    mixed: `${f.mixedHolds ?? f.holds} on ${count(having, n)} primaries but not on ${lacking.slice(0, 3).join(', ')}${lacking.length > 3 ? ' …' : ''}`,
  };
}

const lower = (text: string): string => text.toLowerCase();

/** Infers the releases the cluster may run from `model.versionEvidence`; DEFAULT when nothing narrows it. */
export function inferVitessVersions(model: Pick<ClusterModel, 'versionEvidence'>): VitessVersions {
  const ev = model.versionEvidence;
  const bounds: Bound[] = [];
  const mixed: string[] = [];

  const judge = (fact: PerPrimaryFact) => {
    const r = perPrimaryFact(fact);
    if (r.bound !== undefined) bounds.push(r.bound);
    if (r.mixed !== undefined) mixed.push(r.mixed);
  };
  // v22 widened `_vt.vdiff_log.id` from int to bigint (go/vt/sidecardb/schema/vdiff/vdiff_log.sql:19 @v0.21.5 and
  // @v0.22.4); tablets upgrade their sidecar at start-up and never narrow it back.
  judge({
    held: [...(ev.vdiffLogIdTypes ?? new Map<string, string>()).entries()].map(([a, t]) => [a, t === 'bigint']),
    major: 22,
    holds: '_vt.vdiff_log.id is bigint (v22+)',
    fails: '_vt.vdiff_log.id is int (before v22)',
  });
  // Each primary's column names lower-cased once (per fact, 3,073 primaries' columns were 86 MB of new strings).
  const primaries = [...ev.sidecarColumns.entries()].map(([a, cols]) => [a, new Set(cols.map(lower))] as const);
  for (const fact of SIDECAR_COLUMN_SINCE) {
    judge({
      held: primaries.map(([a, cols]) => [a, cols.has(fact.column)]),
      major: fact.major,
      holds: `_vt.vreplication has the ${fact.column} column (${fact.why})`,
      fails: `_vt.vreplication lacks the ${fact.column} column (${fact.why})`,
      mixedHolds: `_vt.vreplication has the ${fact.column} column (v${fact.major}+)`,
    });
  }

  for (const hint of ev.hints ?? []) {
    if (hint.since <= SUPPORTED_SPAN.lo.major) continue;
    bounds.push({ lo: since(Math.min(hint.since, NEWEST_MAJOR)), hi: SUPPORTED_SPAN.hi, evidence: hint.evidence });
  }

  for (const fact of RPC_SINCE) {
    const answered = ev.rpcs.get(fact.rpc);
    if (answered === true)
      bounds.push({
        lo: since(fact.major),
        hi: SUPPORTED_SPAN.hi,
        evidence: `vtctld answers ${fact.rpc} (${fact.why})`,
      });
    else if (answered === false)
      bounds.push({
        lo: SUPPORTED_SPAN.lo,
        hi: upTo(fact.major - 1),
        evidence: `vtctld answers ${fact.rpc} with UNIMPLEMENTED (${fact.why})`,
      });
  }

  const builds = [...ev.builds.entries()].filter(([, b]) => b.buildTimestamp > 0 || b.gitRev !== '');
  if (builds.length > 0) {
    const newest = Math.max(...builds.map(([, b]) => b.buildTimestamp));
    if (newest > 0) {
      const major = newestMajorBuiltAt(newest);
      if (major < NEWEST_MAJOR)
        bounds.push({
          lo: SUPPORTED_SPAN.lo,
          hi: upTo(major),
          evidence: `the newest tablet build (GetVersion) dates from ${date(newest)}, before the release-${major}.0 branch (main was v${major}-SNAPSHOT)`,
        });
    }
    const revs = new Map<string, string[]>();
    for (const [alias, b] of builds) {
      const id = `${b.gitRev || 'unknown revision'}${b.buildTimestamp > 0 ? ` built ${date(b.buildTimestamp)}` : ''}`;
      const same = revs.get(id);
      if (same === undefined) revs.set(id, [alias]);
      else same.push(alias); // a copy per tablet was quadratic: 87 MB allocated for 6,146 tablets of one build
    }
    if (revs.size > 1) {
      mixed.push(
        `tablets run ${revs.size} different Vitess builds (GetVersion): ${[...revs.entries()]
          .map(([id, aliases]) => `${id} on ${aliases.length} tablet${aliases.length === 1 ? '' : 's'}`)
          .join(', ')}`,
      );
    }
  }

  if (bounds.length === 0)
    return {
      ...DEFAULT_VITESS_VERSIONS,
      ...(ev.offline === true ? { evidence: ['the file does not show the Vitess release that printed it'] } : {}),
      mixed: mixed.length > 0 ? mixed.join('; ') : null,
    };
  let range: { lo: Release; hi: Release } | null = SUPPORTED_SPAN;
  for (const b of bounds) range = range === null ? null : intersectRanges(range, b);
  if (range === null) {
    // The facts contradict each other (e.g. a v20 column on tablets and a v19 vtctld): a mixed cluster. Judge over
    // the whole span, newest rules on conflict, and say which facts disagree.
    mixed.push(`the facts disagree: ${bounds.map((b) => `${b.evidence} (${formatRange(b.lo, b.hi)})`).join('; ')}`);
    return { ...DEFAULT_VITESS_VERSIONS, evidence: bounds.map((b) => b.evidence), mixed: mixed.join('; ') };
  }
  return {
    lo: range.lo,
    hi: range.hi,
    source: 'cluster',
    evidence: bounds.map((b) => b.evidence),
    mixed: mixed.length > 0 ? mixed.join('; ') : null,
  };
}

/**
 * The versions to judge against: the given ones (from `--vitess-version`, config or env) when set, cross-checked
 * against the cluster (a contradiction is recorded in `mixed`), else the inferred ones.
 */
export function resolveVitessVersions(
  model: Pick<ClusterModel, 'versionEvidence'>,
  given: VitessVersions,
): VitessVersions {
  const inferred = inferVitessVersions(model);
  if (given.source === 'default' || given.source === 'cluster') return inferred;
  const notes: string[] = [];
  if (inferred.source === 'cluster' && intersectRanges(given, inferred) === null)
    notes.push(
      `${formatRange(given.lo, given.hi)} was given, but the cluster shows ${formatRange(inferred.lo, inferred.hi)} (${inferred.evidence.join('; ')})`,
    );
  if (inferred.mixed !== null) notes.push(inferred.mixed);
  return { ...given, mixed: notes.length > 0 ? notes.join('; ') : null };
}
