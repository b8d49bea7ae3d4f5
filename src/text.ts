/**
 * Text helpers shared by every layer above the Vitess primitives. One copy of each: a second one is a bug waiting
 * for the two to drift.
 */

/**
 * Code-unit string order (what `Array.prototype.sort()` uses), as a comparator. Unlike `localeCompare` its result
 * does not depend on the process locale (ICU): `['b-c', 'b_c']` sorts the same on every machine, so the same model
 * gives byte-identical reports everywhere (STYLE.md §2).
 */
export function byCodeUnit(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** `1 shard`, `2 shards`; `many` for irregular plurals (`plural(n, 'entry', 'entries')`). */
export function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}

/** The word alone, for `count` things: `shard` or `shards`. */
export function pluralWord(count: number, one: string, many = `${one}s`): string {
  return count === 1 ? one : many;
}

/**
 * The first line of an error's message (or of any value as text), trimmed, without a stack; at most `maxLength`
 * characters when given; `unknown error` when that leaves nothing.
 */
export function oneLine(e: unknown, maxLength?: number): string {
  const msg = e instanceof Error ? e.message : String(e);
  const line = (msg.split('\n')[0] ?? '').trim();
  return (maxLength === undefined ? line : line.slice(0, maxLength)) || 'unknown error';
}

/** A `JSON.stringify` replacer that writes bigints (64-bit values from the sidecar) as decimal strings. */
export function bigintAsString(_key: string, value: unknown): unknown {
  return typeof value === 'bigint' ? value.toString() : value;
}
