/**
 * Folding: identical findings on many shards become one entry that lists the shards, so that a problem on
 * 256 shards reads as one line, not 256. Shared by the human reporters (`text`, `markdown`); the machine
 * reporters (`json`, `junit`) keep every finding.
 *
 * The folding rule works on the typed data, not the prose: two findings fold together when they have the same
 * severity, check, `reason`, workflow, keyspace and `predicts`, carry the same set of location fields (shard,
 * tablet, stream id), and have the same `details` once each finding's own location is taken out of them (a
 * string equal to its shard, tablet or `keyspace/shard`; `details.vitessError`, which is the reason's template
 * filled in with those values). So findings differ only in where they are, never in what they found (a
 * different lag, position, state or table list keeps them apart). As a guard for a value a check writes into
 * its message but not into `details`, findings whose messages still differ once their own shard, tablet alias
 * and `stream <id>` are replaced by placeholders stay apart too: a folded entry never shows one finding's value
 * for another. Groups keep the order of their first finding, and the engine's finding order is
 * kept inside each group.
 */
import type { Finding, Severity } from '../engine/check.js';
import { compareShardNames } from '../vitess/keyrange.js';
import { plural } from '../text.js';

/** Findings that differ only by location, shown as one entry. */
export interface FindingGroup {
  readonly check: string;
  readonly severity: Severity;
  readonly workflow: string | undefined;
  readonly keyspace: string | undefined;
  /**
   * The first finding's message, with each location value that varies inside the group replaced by what the
   * group holds: `customer/-80, 80-` (up to {@link MAX_NAMED_IN_MESSAGE} shards named) or `customer/(12 shards)`,
   * `2 tablets` or the aliases, `streams 1, 2` or `12 streams`; exactly the finding's message when nothing varies.
   * Never a template placeholder: the where-line under it lists the shards.
   */
  readonly message: string;
  /** The folded findings, in report order (at least one). */
  readonly findings: readonly Finding[];
  /** Distinct shards, in key-range order. */
  readonly shards: readonly string[];
  /** Distinct tablet aliases, sorted. */
  readonly tablets: readonly string[];
  /** Distinct stream ids, ascending. */
  readonly streamIds: readonly number[];
}

/** One part of a location description: a label and the items it lists (possibly none). */
export interface WherePart {
  readonly label: string;
  readonly items: readonly string[];
}

// A location value counts as mentioned in a message only as a whole token: `80-` is not inside `80-c0`.
const isTokenChar = (ch: string | undefined) => ch !== undefined && /[A-Za-z0-9_-]/.test(ch);

/** Replaces each whole-token occurrence of `value` in `text` with `token` (plain scanning: this runs per finding). */
function replaceToken(text: string, value: string, token: string): string {
  if (value === '') return text;
  let out = '';
  let from = 0;
  for (let at = text.indexOf(value); at !== -1; at = text.indexOf(value, at + 1)) {
    if (at < from || isTokenChar(text[at - 1]) || isTokenChar(text[at + value.length])) continue;
    out += text.slice(from, at) + token;
    from = at + value.length;
  }
  return from === 0 ? text : out + text.slice(from);
}

function streamPattern(id: number): RegExp {
  return new RegExp(`(?<![A-Za-z0-9_])(stream) ${id}(?![0-9])`, 'gi');
}

// Shard names `0` and `-` (unsharded) are too short to replace safely inside prose; an unsharded keyspace has
// one shard, so its findings never differ by shard anyway.
const replaceableShard = (shard: string) => shard.length >= 2;

/** True when `message` names `value` as a whole token. */
export function mentions(message: string, value: string): boolean {
  return value !== '' && replaceToken(message, value, '\u0000') !== message;
}

/** True when `message` names stream `id` as Vitess and our checks write it: `stream <id>`. */
export function mentionsStream(message: string, id: number): boolean {
  return streamPattern(id).test(message);
}

interface Vary {
  readonly shard: boolean;
  readonly tablet: boolean;
  readonly stream: boolean;
}

function template(f: Finding, vary: Vary): string {
  let text = f.message;
  // Tablet aliases first: they are the longest values and may contain a shard-like suffix.
  if (vary.tablet && f.tablet !== undefined && f.tablet.length >= 2) text = replaceToken(text, f.tablet, '{tablet}');
  if (vary.shard && f.shard !== undefined && replaceableShard(f.shard)) text = replaceToken(text, f.shard, '{shard}');
  // Only `stream <id>` is a stream id: a bare number in a message is a value (a lag, a count).
  if (vary.stream && f.streamId !== undefined && /stream /i.test(text))
    text = text.replace(streamPattern(f.streamId), '$1 {id}');
  return text;
}

const ALL: Vary = { shard: true, tablet: true, stream: true };

/** How many shards, tablets or stream ids a folded message names before it gives their count instead. */
export const MAX_NAMED_IN_MESSAGE = 3;

/** A template's placeholders replaced by the values (or the count) of the group: what a reader sees. */
function spelledOut(
  text: string,
  shards: readonly string[],
  tablets: readonly string[],
  ids: readonly number[],
): string {
  const named = (values: readonly string[], noun: string) =>
    values.length <= MAX_NAMED_IN_MESSAGE ? values.join(', ') : `(${plural(values.length, noun)})`;
  return text
    .replaceAll('{tablet}', named(tablets, 'tablet'))
    .replaceAll('{shard}', named(shards, 'shard'))
    .replace(/(\bstream)s? \{id\}/gi, (_m, word: string) =>
      ids.length <= MAX_NAMED_IN_MESSAGE ? `${word}s ${ids.join(', ')}` : plural(ids.length, word),
    );
}

/** A finding's `details` with its own location taken out (see the module comment), as comparable JSON. */
function detailsApartFromLocation(f: Finding): string {
  const own = new Map<string, string>();
  if (f.tablet !== undefined) own.set(f.tablet, '{tablet}');
  if (f.shard !== undefined) {
    own.set(f.shard, '{shard}');
    if (f.keyspace !== undefined) own.set(`${f.keyspace}/${f.shard}`, '{keyspace}/{shard}');
  }
  const strip = (value: unknown): unknown => {
    if (typeof value === 'string') return own.get(value) ?? value;
    if (Array.isArray(value)) return value.map(strip);
    if (value !== null && typeof value === 'object') {
      const out: Record<string, unknown> = {};
      for (const k of Object.keys(value).sort(byString)) out[k] = strip((value as Record<string, unknown>)[k]);
      return out;
    }
    return value;
  };
  const { vitessError: _filledIn, ...evidence } = f.details;
  return JSON.stringify(strip(evidence));
}

/** The folding key of a finding (see the module comment for the rule). */
export function foldKey(f: Finding): string {
  return JSON.stringify([
    f.severity,
    f.check,
    f.reason,
    f.workflow ?? null,
    f.keyspace ?? null,
    f.predicts ?? null,
    f.shard !== undefined,
    f.tablet !== undefined,
    f.streamId !== undefined,
    detailsApartFromLocation(f),
    template(f, ALL),
  ]);
}

const distinct = <T>(values: readonly (T | undefined)[]): T[] => [
  ...new Set(values.filter((v): v is T => v !== undefined)),
];
const byString = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Folds findings into groups (see the module comment for the rule), in order of each group's first finding. */
export function foldFindings(findings: readonly Finding[]): FindingGroup[] {
  const groups = new Map<string, Finding[]>();
  for (const f of findings) {
    const key = foldKey(f);
    const list = groups.get(key);
    if (list) list.push(f);
    else groups.set(key, [f]);
  }
  return [...groups.values()].map((list) => {
    const first = list[0]!;
    const shards = distinct(list.map((f) => f.shard)).sort(compareShardNames);
    const tablets = distinct(list.map((f) => f.tablet)).sort(byString);
    const streamIds = distinct(list.map((f) => f.streamId)).sort((a, b) => a - b);
    const vary = { shard: shards.length > 1, tablet: tablets.length > 1, stream: streamIds.length > 1 };
    return {
      check: first.check,
      severity: first.severity,
      workflow: first.workflow,
      keyspace: first.keyspace,
      message: spelledOut(template(first, vary), shards, tablets, streamIds),
      findings: list,
      shards,
      tablets,
      streamIds,
    };
  });
}

interface Bounds {
  readonly start: string;
  readonly end: string;
}

// Key-range bounds of a shard name in lower-case hex with trailing zero bytes dropped (`80` = `8000`, as
// Vitess compares keyspace ids); null for a name that is not a key range (`0`, a custom name).
function bounds(name: string): Bounds | null {
  const m = /^([0-9a-fA-F]*)-([0-9a-fA-F]*)$/.exec(name);
  if (!m) return null;
  const norm = (hex: string) => hex.toLowerCase().replace(/(00)+$/, '');
  return { start: norm(m[1]!), end: norm(m[2]!) };
}

/**
 * The items of a compact shard list. Shards are put in key-range order; each maximal chain of three or more
 * adjacent shards (one's end is the next one's start) is written `first … last`, with its length in
 * parentheses when the list has other items; so 256 adjacent shards read `-01 … ff-`, and the set stays
 * exact. With `all`, every shard is listed by name.
 */
export function compactShardList(shards: readonly string[], all = false): string[] {
  const sorted = [...new Set(shards)].sort(compareShardNames);
  if (all) return sorted;
  const byStart = new Map<string, number[]>();
  sorted.forEach((name, i) => {
    const b = bounds(name);
    if (b) {
      const list = byStart.get(b.start) ?? [];
      list.push(i);
      byStart.set(b.start, list);
    }
  });
  const used = new Set<number>();
  const chains: number[][] = [];
  sorted.forEach((name, i) => {
    if (used.has(i)) return;
    used.add(i);
    const chain = [i];
    let end = bounds(name)?.end;
    // Follow the shard that starts where this one ends; among several, the narrowest (first in order).
    while (end !== undefined && end !== '') {
      const next = (byStart.get(end) ?? []).find((j) => !used.has(j));
      if (next === undefined) break;
      used.add(next);
      chain.push(next);
      end = bounds(sorted[next]!)?.end;
    }
    chains.push(chain);
  });
  const items: string[] = [];
  for (const chain of chains) {
    if (chain.length >= 3) items.push(`${sorted[chain[0]!]} … ${sorted[chain[chain.length - 1]!]}`);
    else for (const i of chain) items.push(sorted[i]!);
  }
  if (items.length > 1) {
    let k = 0;
    for (const chain of chains) {
      if (chain.length >= 3) items[k] = `${items[k]} (${chain.length})`;
      k += chain.length >= 3 ? 1 : chain.length;
    }
  }
  return items;
}

/** How many tablets a folded entry lists by alias before it gives only their count (unless `all`). */
export const MAX_LISTED_TABLETS = 3;
/** How many stream ids a folded entry lists before it gives only their count (unless `all`). */
export const MAX_LISTED_STREAMS = 16;

/**
 * Describes where a group's findings are: the shards (compact, see {@link compactShardList}), streams and
 * tablets, and a count when identical findings repeat. With `onlyUnmentioned`, a single value already named
 * in the message is left out (the text view); otherwise every location is given (a table column).
 */
export function whereParts(group: FindingGroup, opts: { all: boolean; onlyUnmentioned: boolean }): WherePart[] {
  const parts: WherePart[] = [];
  const { message, keyspace } = group;
  const skip = (value: string) => opts.onlyUnmentioned && mentions(message, value);
  if (group.shards.length > 1) {
    parts.push({
      label: `${plural(group.shards.length, 'shard')}${keyspace !== undefined ? ` of ${keyspace}` : ''}:`,
      items: compactShardList(group.shards, opts.all),
    });
  } else if (group.shards.length === 1) {
    const shard = group.shards[0]!;
    if (!skip(shard) || (keyspace !== undefined && !skip(keyspace)))
      parts.push({ label: 'shard', items: [keyspace !== undefined ? `${keyspace}/${shard}` : shard] });
  } else if (keyspace !== undefined && !skip(keyspace)) {
    parts.push({ label: 'keyspace', items: [keyspace] });
  }
  if (group.streamIds.length > 1) {
    const listed = opts.all || group.streamIds.length <= MAX_LISTED_STREAMS;
    parts.push({
      label: `${plural(group.streamIds.length, 'stream')}${listed ? ':' : ''}`,
      items: listed ? group.streamIds.map(String) : [],
    });
  } else if (group.streamIds.length === 1) {
    const id = group.streamIds[0]!;
    if (!(opts.onlyUnmentioned && mentionsStream(message, id))) parts.push({ label: 'stream', items: [String(id)] });
  }
  if (group.tablets.length > 1) {
    const listed = opts.all || group.tablets.length <= MAX_LISTED_TABLETS;
    parts.push({
      label: `${plural(group.tablets.length, 'tablet')}${listed ? ':' : ''}`,
      items: listed ? group.tablets : [],
    });
  } else if (group.tablets.length === 1) {
    const tablet = group.tablets[0]!;
    if (!skip(tablet)) parts.push({ label: 'tablet', items: [tablet] });
  }
  const locations = new Set(group.findings.map((f) => JSON.stringify([f.shard, f.tablet, f.streamId])));
  if (group.findings.length > locations.size)
    parts.push({ label: `${plural(group.findings.length, 'identical finding')}`, items: [] });
  return parts;
}

/**
 * What Vitess would print for these findings, with their values (`details.vitessError`), never the raw template:
 * the one text when all agree, else the first and how many differ (`… (and 2 more like it)`); the template with its
 * verbs shown as `…` (`predicts`) only when no finding carries the text; null for heuristic findings.
 */
export function vitessSays(findings: readonly Finding[]): string | null {
  const texts = [
    ...new Set(findings.flatMap((f) => (f.details.vitessError !== undefined ? [f.details.vitessError] : []))),
  ];
  if (texts.length === 0) return findings[0]?.predicts ?? null;
  return texts.length === 1 ? texts[0]! : `${texts[0]!} (and ${texts.length - 1} more like it)`;
}
