/** RegExp helpers for tests. */

/**
 * One RegExp from the sources of several, with the first one's flags, so that a long expected line can be written
 * across lines within 120 columns: `joinRegExp(/^first half /m, /second half$/)`.
 */
export function joinRegExp(...parts: readonly RegExp[]): RegExp {
  return new RegExp(parts.map((p) => p.source).join(''), parts[0]?.flags ?? '');
}
