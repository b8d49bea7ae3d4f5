/**
 * Shard ordering for display and determinism: by key range start (unbounded first), then end
 * (unbounded last), then name. Names that are not key ranges (`0`) sort as the full range.
 */
function bounds(name: string): [string, string] {
  const i = name.indexOf('-');
  if (i < 0) return ['', ''];
  return [name.slice(0, i).toLowerCase(), name.slice(i + 1).toLowerCase()];
}

export function compareShardNames(a: string, b: string): number {
  if (a === b) return 0;
  const [as, ae] = bounds(a);
  const [bs, be] = bounds(b);
  if (as !== bs) return as < bs ? -1 : 1;
  if (ae !== be) {
    if (ae === '') return 1;
    if (be === '') return -1;
    return ae < be ? -1 : 1;
  }
  return a < b ? -1 : 1;
}
