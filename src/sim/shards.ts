/**
 * Shard math of the simulator: shard names and bounds as Vitess generates them, which ranges of two shardings
 * intersect, and the GTID sets of a shard's primary (executed, purged, and positions some transactions behind).
 */

/**
 * Shard names for `n` equal shards, as `vitessio/vitess:go/vt/key/key.go` `GenerateShardRanges` makes them: two hex
 * digits per bound up to 256 shards, four beyond, the lossy integer ends spread evenly. Also returns each shard's
 * bounds on a 0…65536 scale, for intersecting keyspaces of different shard counts without parsing.
 */
export function generateShardRanges(n: number): { names: string[]; bounds: number[] } {
  if (!Number.isInteger(n) || n < 1 || n > 65536) throw new Error(`cannot generate ${n} shard ranges: use 1 to 65536`);
  const [digits, max] = n <= 256 ? [2, 256] : [4, 65536];
  const scale = 65536 / max;
  const hex = (v: number) => v.toString(16).padStart(digits, '0');
  const names: string[] = [];
  const bounds: number[] = [0];
  const size = max / n;
  let start = 0;
  for (let i = 1; i <= n; i++) {
    const end = Math.floor(i * size);
    names.push(`${start === 0 ? '' : hex(start)}-${end === max ? '' : hex(end)}`);
    bounds.push(end * scale);
    start = end;
  }
  return { names, bounds };
}

export const keyRangeOf = (name: string): { start: string; end: string } | null => {
  if (name === '0' || name === '-') return null;
  const [start = '', end = ''] = name.split('-');
  return { start, end };
};

/** For each target range, the source ranges it intersects (both sorted, bounds on the same scale): a linear sweep. */
export function intersecting(targetBounds: readonly number[], sourceBounds: readonly number[]): number[][] {
  const out: number[][] = [];
  let j = 0;
  for (let i = 0; i + 1 < targetBounds.length; i++) {
    const lo = targetBounds[i]!;
    const hi = targetBounds[i + 1]!;
    while (j + 1 < sourceBounds.length && sourceBounds[j + 1]! <= lo) j++;
    const hits: number[] = [];
    for (let k = j; k + 1 < sourceBounds.length && sourceBounds[k]! < hi; k++) hits.push(k);
    out.push(hits);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// GTID state of a shard's primary.

export interface GtidState {
  /** Server uuids of the shard's history, sorted, with their executed counts; `current` is the primary's own. */
  readonly sets: readonly { readonly uuid: string; readonly count: number }[];
  readonly current: string;
  /** Transactions of `current` still in the binary logs (the rest are purged). */
  readonly retained: number;
}

/** `uuid:1-n,uuid:1-m` (MySQL's and Vitess's order: by uuid). */
function gtidText(sets: readonly { readonly uuid: string; readonly count: number }[]): string {
  return sets
    .filter((s) => s.count > 0)
    .map((s) => `${s.uuid}:1-${s.count}`)
    .join(',');
}

/** The set `behind` transactions short of the executed one (never below what was purged unless asked). */
export function positionBehind(g: GtidState, behind: number): string {
  return gtidText(
    g.sets.map((s) => (s.uuid === g.current ? { uuid: s.uuid, count: Math.max(1, s.count - behind) } : s)),
  );
}

export const executedText = (g: GtidState) => gtidText(g.sets);

export function purgedText(g: GtidState): string {
  return gtidText(
    g.sets.map((s) => (s.uuid === g.current ? { uuid: s.uuid, count: Math.max(0, s.count - g.retained) } : s)),
  );
}
