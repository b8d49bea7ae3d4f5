/**
 * Vitess release numbers, version specs and "which rule applies" for a cluster whose release is known only as a
 * range.
 *
 * HOW A CHECK ASKS WHICH RULE APPLIES (for every check author):
 * ```ts
 * import { pickRule, versionsHold } from '../src/vitess/versions.js';
 * run(model, options) {
 *   // Several variants of one rule, each with the releases it holds for (specs below); the result says which one
 *   // to judge by, whether that is exact for the whole range, and a note to put in the finding when it is not.
 *   const lag = pickRule(options.vitess, [
 *     { versions: '<19.0.10 || >=20 <20.0.6 || >=21 <21.0.3', value: 'max(transaction_timestamp, time_updated)' },
 *     { versions: '>=19.0.10 <20 || >=20.0.6 <21 || >=21.0.3', value: 'heartbeat rule (PR 17616)' },
 *   ]);
 *   lag.value; lag.exact; lag.note; // note: null when exact, else one sentence naming the range and the choice
 *   // One rule that exists only in some releases: 'all' | 'some' | 'none' over the whole range.
 *   if (versionsHold(options.vitess, '>=23') === 'none') return [];
 * }
 * ```
 * `options.vitess` ({@link VitessVersions}) is always set: from `--vitess-version` (config `vitessVersion`, env
 * `VTPREFLIGHT_VITESS_VERSION`), else inferred from the cluster by the engine, else the whole supported span
 * ({@link SUPPORTED_SPAN}). When the range spans variants that disagree, {@link pickRule} judges by the newest
 * (the one that holds for the range's newest release) and says so in `note`: a check should append the note to
 * its finding's `details.versionNote` (and may mention it in the message) so that the report shows the guess.
 *
 * Version specs (the `versions` of a reason) are a tiny semver-like language: clauses joined by `||`, each a
 * space-separated list of `>=R`, `>R`, `<R`, `<=R` or a bare `R` (that release line), where `R` is `X`, `X.Y` or
 * `X.Y.Z`; a missing part is 0 for `>=`/`<` bounds (`<20` = below 20.0.0), and a bare `20` means the whole 20.x
 * line. `*` is every release. Examples: `>=20`, `>=19.0.10 <20 || >=20.0.6 <21 || >=21.0.3`, `22`, `<23`.
 */

/** A Vitess release `major.minor.patch`. */
export interface Release {
  readonly major: number;
  readonly minor: number;
  readonly patch: number;
}

/** Largest minor or patch number: a range's upper bound `20.x` is `20.999.999`. */
const TOP = 999;

/** The oldest and newest Vitess releases vtpreflight models (v19 to v24, the `main` branch of late 2025). */
export const OLDEST_MAJOR = 19;
export const NEWEST_MAJOR = 24;

/** How the judged-against versions were known. */
export type VersionSource = 'flag' | 'env' | 'config' | 'cluster' | 'default';

/**
 * The Vitess releases the cluster may be running (`lo` to `hi`, both inclusive), and how that was known.
 * Checks read it through {@link pickRule} and {@link versionsHold}, never by comparing numbers themselves.
 */
export interface VitessVersions {
  readonly lo: Release;
  readonly hi: Release;
  readonly source: VersionSource;
  /**
   * One line per fact used, e.g. `--vitess-version 22.0` or `_vt.vreplication has the options column (v20+) on
   * 4 of 4 primaries`. Empty for `default`.
   */
  readonly evidence: readonly string[];
  /**
   * Set when tablets show different Vitess builds (GetVersion) or sidecar schemas of different releases: one line
   * naming them. A mixed cluster is judged over the union range; the `vitess-version-mismatch` check warns.
   */
  readonly mixed: string | null;
}

const key = (r: Release): number => r.major * 1_000_000 + r.minor * 1_000 + r.patch;
const fromKey = (k: number): Release => ({
  major: Math.floor(k / 1_000_000),
  minor: Math.floor(k / 1_000) % 1_000,
  patch: k % 1_000,
});

/** Compares two releases (negative, zero, positive). */
export function compareReleases(a: Release, b: Release): number {
  return key(a) - key(b);
}

/** The whole supported span, v19.0.0 to v24.x: what is judged against when nothing is known. */
export const SUPPORTED_SPAN: { readonly lo: Release; readonly hi: Release } = Object.freeze({
  lo: Object.freeze({ major: OLDEST_MAJOR, minor: 0, patch: 0 }),
  hi: Object.freeze({ major: NEWEST_MAJOR, minor: TOP, patch: TOP }),
});

/** Nothing known: the whole supported span. */
export const DEFAULT_VITESS_VERSIONS: VitessVersions = Object.freeze({
  lo: SUPPORTED_SPAN.lo,
  hi: SUPPORTED_SPAN.hi,
  source: 'default',
  evidence: Object.freeze([]) as readonly string[],
  mixed: null,
});

const RELEASE = /^v?(\d{1,3})(?:\.(\d{1,3}|x))?(?:\.(\d{1,3}|x))?$/i;

/**
 * Parses `--vitess-version`: `22`, `22.0`, `22.0.3` or with a leading `v`; `x` for an unknown part (`22.0.x`).
 * Returns the releases it names (`22.0` = 22.0.0 to 22.0.x) or throws an Error with a one-line hint.
 */
export function parseVitessVersion(text: string): { readonly lo: Release; readonly hi: Release } {
  const m = RELEASE.exec(text.trim());
  if (m === null) throw new Error('use a Vitess release such as 22, 22.0 or 22.0.3');
  const major = Number(m[1]);
  if (major < OLDEST_MAJOR || major > NEWEST_MAJOR)
    throw new Error(`vtpreflight models Vitess v${OLDEST_MAJOR} to v${NEWEST_MAJOR}`);
  const part = (s: string | undefined): number | null =>
    s === undefined || s.toLowerCase() === 'x' ? null : Number(s);
  const minor = part(m[2]);
  const patch = minor === null ? null : part(m[3]);
  return {
    lo: { major, minor: minor ?? 0, patch: patch ?? 0 },
    hi: { major, minor: minor ?? TOP, patch: patch ?? TOP },
  };
}

/**
 * The versions named by `--vitess-version` (or config `vitessVersion`, env `VTPREFLIGHT_VITESS_VERSION`), already
 * validated by the settings layer. `from` is the setting's source kind.
 */
export function givenVitessVersions(text: string, from: 'flag' | 'env' | 'config' | string): VitessVersions {
  const { lo, hi } = parseVitessVersion(text);
  const source: VersionSource = from === 'env' ? 'env' : from === 'config' ? 'config' : 'flag';
  const label =
    source === 'flag' ? '--vitess-version' : source === 'env' ? 'VTPREFLIGHT_VITESS_VERSION' : 'vitessVersion';
  return { lo, hi, source, evidence: [`${label} ${text}`], mixed: null };
}

/** `22.0.3`, `22.0.x`, `22.x`. */
export function formatRelease(r: Release): string {
  if (r.minor === TOP) return `${r.major}.x`;
  if (r.patch === TOP) return `${r.major}.${r.minor}.x`;
  return `${r.major}.${r.minor}.${r.patch}`;
}

/** The range as a reader says it: `v22.0.3`, `v22.0.x`, `v22`, `v19–v24`, `v20.0.6–v21`. */
export function formatRange(lo: Release, hi: Release): string {
  const loText = lo.minor === 0 && lo.patch === 0 ? `v${lo.major}` : `v${formatRelease(lo)}`;
  if (lo.major === hi.major && lo.minor === 0 && lo.patch === 0 && hi.minor === TOP) return `v${lo.major}`;
  if (lo.major === hi.major && lo.minor === hi.minor && lo.patch === 0 && hi.patch === TOP)
    return `v${lo.major}.${lo.minor}.x`;
  if (key(lo) === key(hi)) return `v${formatRelease(lo)}`;
  const hiText = hi.minor === TOP ? `v${hi.major}` : `v${formatRelease(hi)}`;
  return `${loText}–${hiText}`;
}

/** One line for reports: `v22.0.x (from --vitess-version)`, `v20–v24 (inferred from the cluster: …)`. */
export function describeVersions(v: VitessVersions): string {
  const range = formatRange(v.lo, v.hi);
  switch (v.source) {
    case 'flag':
      return `${range} (from --vitess-version)`;
    case 'env':
      return `${range} (from VTPREFLIGHT_VITESS_VERSION)`;
    case 'config':
      return `${range} (from the config file's vitessVersion)`;
    case 'cluster':
      return `${range} (inferred from the cluster: ${v.evidence.join('; ')})`;
    case 'default':
      return `${range} (not known: no --vitess-version and nothing in the cluster narrowed it; rules that differ are judged by the newest)`;
  }
}

// ---------------------------------------------------------------------------------------------------------
// Version specs.

/** Half-open intervals `[from, until)` of release keys. */
type Intervals = readonly (readonly [number, number])[];

const INF = Number.MAX_SAFE_INTEGER;
const cache = new Map<string, Intervals>();

function boundKey(text: string, spec: string): { lo: number; hiExclusive: number } {
  const m = /^v?(\d{1,3})(?:\.(\d{1,3}))?(?:\.(\d{1,3}))?$/.exec(text);
  if (m === null) throw new Error(`invalid version spec "${spec}": "${text}" is not a release`);
  const major = Number(m[1]);
  const minor = m[2] === undefined ? null : Number(m[2]);
  const patch = m[3] === undefined ? null : Number(m[3]);
  const lo = key({ major, minor: minor ?? 0, patch: patch ?? 0 });
  // The first release after everything `text` names: 20 → 21.0.0, 20.1 → 20.2.0, 20.1.3 → 20.1.4.
  const hiExclusive =
    minor === null
      ? key({ major: major + 1, minor: 0, patch: 0 })
      : patch === null
        ? key({ major, minor: minor + 1, patch: 0 })
        : lo + 1;
  return { lo, hiExclusive };
}

/** Parses a version spec into sorted, merged half-open intervals. Throws on a malformed spec (a bug). */
export function parseVersionSpec(spec: string): Intervals {
  const hit = cache.get(spec);
  if (hit !== undefined) return hit;
  const out: [number, number][] = [];
  for (const clause of spec.split('||')) {
    const terms = clause.trim().split(/\s+/).filter(Boolean);
    if (terms.length === 0) throw new Error(`invalid version spec "${spec}": empty clause`);
    let from = 0;
    let until = INF;
    for (const t of terms) {
      if (t === '*') continue;
      const m = /^(>=|<=|>|<)?(.+)$/.exec(t)!;
      const b = boundKey(m[2]!, spec);
      switch (m[1]) {
        case '>=':
          from = Math.max(from, b.lo);
          break;
        case '>':
          from = Math.max(from, b.hiExclusive);
          break;
        case '<':
          until = Math.min(until, b.lo);
          break;
        case '<=':
          until = Math.min(until, b.hiExclusive);
          break;
        default:
          from = Math.max(from, b.lo);
          until = Math.min(until, b.hiExclusive);
      }
    }
    if (from < until) out.push([from, until]);
  }
  out.sort((a, b) => a[0] - b[0]);
  const merged: [number, number][] = [];
  for (const iv of out) {
    const last = merged[merged.length - 1];
    if (last !== undefined && iv[0] <= last[1]) last[1] = Math.max(last[1], iv[1]);
    else merged.push([iv[0], iv[1]]);
  }
  cache.set(spec, merged);
  return merged;
}

/** True when release `r` satisfies `spec`. */
export function releaseSatisfies(r: Release, spec: string): boolean {
  const k = key(r);
  return parseVersionSpec(spec).some(([a, b]) => k >= a && k < b);
}

/**
 * Whether a version spec holds across the cluster's range: `all` (every release in it), `none`, or `some` (the
 * range straddles the spec's boundary, e.g. `v20–v24` against `>=23`).
 */
export function versionsHold(v: Pick<VitessVersions, 'lo' | 'hi'>, spec: string): 'all' | 'some' | 'none' {
  const lo = key(v.lo);
  const hiEx = key(v.hi) + 1;
  const ivs = parseVersionSpec(spec);
  if (ivs.some(([a, b]) => a <= lo && hiEx <= b)) return 'all';
  if (ivs.some(([a, b]) => a < hiEx && lo < b)) return 'some';
  return 'none';
}

/** One variant of a version-dependent rule: the releases it holds for, and what a check uses then. */
export interface RuleVariant<T> {
  readonly versions: string;
  readonly value: T;
}

/** What {@link pickRule} chose. */
export interface PickedRule<T> {
  readonly value: T;
  /** The chosen variant's spec. */
  readonly versions: string;
  /** True when the chosen variant holds for every release of the range (no guess). */
  readonly exact: boolean;
  /**
   * Null when exact; otherwise one sentence for the finding, e.g. `judged by the rule of Vitess >=23 (the newest in
   * v22–v24); on v22 Vitess applies the rule of 22 instead`.
   */
  readonly note: string | null;
}

/**
 * Picks the variant of a rule to judge by. A variant that holds for the whole range is exact. Otherwise the range
 * straddles variants that disagree: the one holding for the newest release of the range wins (the rule:
 * "by the newest when they conflict"), with a note naming the others. When no variant holds anywhere in the range,
 * the last variant (by convention the newest) is used, with a note.
 */
export function pickRule<T>(v: Pick<VitessVersions, 'lo' | 'hi'>, variants: readonly RuleVariant<T>[]): PickedRule<T> {
  if (variants.length === 0) throw new Error('pickRule needs at least one variant');
  const range = formatRange(v.lo, v.hi);
  for (const variant of variants) {
    if (versionsHold(v, variant.versions) === 'all')
      return { value: variant.value, versions: variant.versions, exact: true, note: null };
  }
  const newest = [...variants].reverse().find((x) => releaseSatisfies(v.hi, x.versions)) ?? variants.at(-1)!;
  const others = variants.filter((x) => x !== newest && versionsHold(v, x.versions) !== 'none').map((x) => x.versions);
  const note =
    others.length > 0
      ? `judged by the rule of Vitess ${newest.versions} (the newest in ${range}); Vitess ${others.join(' or ')} applies another rule`
      : `judged by the rule of Vitess ${newest.versions}, which is outside ${range}`;
  return { value: newest.value, versions: newest.versions, exact: false, note };
}

/** The intersection of two ranges, or null when they do not meet. */
export function intersectRanges(
  a: { readonly lo: Release; readonly hi: Release },
  b: { readonly lo: Release; readonly hi: Release },
): { lo: Release; hi: Release } | null {
  const lo = Math.max(key(a.lo), key(b.lo));
  const hi = Math.min(key(a.hi), key(b.hi));
  return lo <= hi ? { lo: fromKey(lo), hi: fromKey(hi) } : null;
}

/** The releases a spec allows within the supported span, as a range (its lowest to its highest), or null. */
export function specRange(spec: string): { lo: Release; hi: Release } | null {
  const ivs = parseVersionSpec(spec);
  const lo = Math.max(ivs[0]?.[0] ?? INF, key(SUPPORTED_SPAN.lo));
  const hi = Math.min((ivs.at(-1)?.[1] ?? 0) - 1, key(SUPPORTED_SPAN.hi));
  return ivs.length > 0 && lo <= hi ? { lo: fromKey(lo), hi: fromKey(hi) } : null;
}
