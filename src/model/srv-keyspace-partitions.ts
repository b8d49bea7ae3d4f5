/**
 * `OrderAndCheckPartitions` (`vitessio/vitess` `go/vt/topo/srv_keyspace.go:688-722` @v0.24.4, the same texts in
 * v0.19.10 through v0.23.2), which `ValidateSrvKeyspace` runs on the SrvKeyspace of every cell it validates: for
 * SwitchTraffic's read switch and write switch (checks/srv-keyspace-partitions.ts) and for Reshard create
 * (checks/create-workflow.ts). Each partition's shard references sorted by start, then the first must start at the
 * minimum key (:698), the last end at the maximum key (:702), neighbours must agree on having a key range (:710)
 * and be contiguous (:717); the first error is returned.
 */
import { compareKeyspaceIds, keyRangeContiguous, parseKeyRangeParts } from '../vitess/keyrange.js';
import type { KeyRangeRecord, SrvKeyspacePartitionRecord } from './types.js';

type Ref = SrvKeyspacePartitionRecord['shards'][number];

/** Go's `%v` of a `topodatapb.ShardReference` (prototext; protobuf-go varies its spacing, so this is approximate). */
function protoRef(r: Ref): string {
  const bytes = (hex: string) =>
    hex.length === 0 ? '' : `"${(hex.match(/../g) ?? []).map((b) => `\\x${b}`).join('')}"`;
  if (r.keyRange === null) return `name:"${r.name}"`;
  const parts = [
    r.keyRange.start ? `start:${bytes(r.keyRange.start)}` : '',
    r.keyRange.end ? `end:${bytes(r.keyRange.end)}` : '',
  ].filter((p) => p !== '');
  return `name:"${r.name}" key_range:{${parts.join(' ')}}`;
}

const range = (kr: KeyRangeRecord) => parseKeyRangeParts(kr.start, kr.end);

/** `topoproto.ShardReferenceArray.Less`: a nil or empty start sorts first, else by start bytes. */
function sortRefs(refs: readonly Ref[]): Ref[] {
  const isMin = (r: Ref) => r.keyRange === null || r.keyRange.start === '';
  return [...refs].sort((a, b) => {
    if (isMin(a) && isMin(b)) return 0;
    if (isMin(a)) return -1;
    if (isMin(b)) return 1;
    return compareKeyspaceIds(a.keyRange!.start, b.keyRange!.start);
  });
}

export type Corrupt = {
  reason: 'startNotMinKey' | 'endNotMaxKey' | 'inconsistentKeyRanges' | 'nonContiguous';
  text: string;
};

/** `OrderAndCheckPartitions` for one partition of one cell: the first error, or null. */
export function partitionError(cell: string, p: SrvKeyspacePartitionRecord): Corrupt | null {
  const refs = sortRefs(p.shards);
  const type = p.servedType;
  const first = refs[0];
  const last = refs[refs.length - 1];
  if (first === undefined || last === undefined) return null; // Go indexes [0] unchecked: not judged
  if (first.keyRange !== null && first.keyRange.start !== '')
    return {
      reason: 'startNotMinKey',
      text: `keyspace partition for ${type} in cell ${cell} does not start with min key`,
    };
  if (last.keyRange !== null && last.keyRange.end !== '')
    return { reason: 'endNotMaxKey', text: `keyspace partition for ${type} in cell ${cell} does not end with max key` };
  for (let i = 0; i < refs.length - 1; i++) {
    const cur = refs[i]!;
    const next = refs[i + 1]!;
    if ((cur.keyRange === null) !== (next.keyRange === null))
      return {
        reason: 'inconsistentKeyRanges',
        text: `shards with inconsistent KeyRanges for ${type} in cell ${cell}. shards: ${protoRef(cur)}, ${protoRef(next)}`,
      };
    if (cur.keyRange === null || next.keyRange === null) continue; // custom sharding: every range nil
    if (!keyRangeContiguous(range(cur.keyRange), range(next.keyRange)))
      return {
        reason: 'nonContiguous',
        text: `non-contiguous KeyRange values for ${type} in cell ${cell} at shard ${i} to ${i + 1}: ${cur.keyRange.end} != ${next.keyRange.start}`,
      };
  }
  return null;
}
