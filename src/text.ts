/**
 * Text helpers shared by every layer above the Vitess primitives. One copy of each: a second one is a bug waiting
 * for the two to drift.
 */

/**
 * Code-unit string order (what `Array.prototype.sort()` uses), as a comparator. Unlike `localeCompare` its result
 * does not depend on the process locale (ICU): `['b-c', 'b_c']` sorts the same on every machine, so the same model
 * gives byte-identical reports everywhere.
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

/**
 * Text that came from outside (a file, a server, the command line), made safe to print on one terminal line: control
 * characters (escape sequences, newlines, NUL, C1) become `\uXXXX`, and it is cut to `max` characters.
 */
export function printable(text: string, max = 120): string {
  const safe = text.replace(
    /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
  return safe.length > max ? `${safe.slice(0, max - 1)}…` : safe;
}

/** Removes a UTF-8 byte-order mark (U+FEFF) at the start of decoded text, which JSON.parse refuses. */
export const stripBom = (text: string): string => (text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
