/**
 * "Did you mean": the closest known name to a mistyped one, as commander does for flags (Damerau-Levenshtein
 * distance, at most 40% of the word's length), or a known name that contains it.
 */

/** Edit distance with transpositions (optimal string alignment). */
function distance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, d[i - 2]![j - 2]! + 1);
      d[i]![j] = v;
    }
  }
  return d[a.length]![b.length]!;
}

/** The known name closest to `word`, or undefined when none is close. */
export function closestName(word: string, names: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const name of names) {
    const dist = distance(word, name);
    if (dist < bestDistance) [best, bestDistance] = [name, dist];
  }
  if (best !== undefined && bestDistance <= Math.max(1, Math.floor(word.length * 0.4))) return best;
  return word.length >= 4 ? names.find((n) => n.includes(word)) : undefined;
}

/** `: did you mean "x"?` or the fallback hint. */
export function didYouMean(word: string, names: readonly string[], otherwise: string): string {
  const near = closestName(word, names);
  return near !== undefined ? `did you mean "${near}"? (${otherwise})` : otherwise;
}
