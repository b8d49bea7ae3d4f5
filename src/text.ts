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
