/**
 * gtid-set-too-long: GTID sets longer than the sidecar columns that must hold them.
 *
 * A stream stores its position as text (`MySQL56/<gtid set>`) in `_vt.vreplication.pos`, `varbinary(10000)` in the
 * sidecar schema (`vitessio/vitess:go/vt/sidecardb/schema/vreplication/vreplication.sql`) until PR #19119 (2026,
 * `longblob`). The write switch inserts the reverse streams on the source primaries with the target primaries'
 * positions (`traffic_switcher.go` `createReverseVReplication`, after writes are stopped) and writes the resharding
 * journal, whose `val` holds the source position and one target position per target shard it feeds
 * (`createJournals`), on every source primary at the point of no return. A GTID set grows with every server UUID
 * that ever wrote (reparents, replaced pods: "reparented a lot due to binpacking kubernetes pods", #18185): MySQL
 * refuses the write with `Data too long for column 'pos' at row 1 (errno 1406)` (#19122, v19.0.7; #18185), or the
 * journal does not fit (PR #18608: "GTID sets can quickly go over 64K causing SwitchWrites to fail"); before that,
 * #8612 (v11) broke streams whose `gtid_executed` exceeded 10,000 bytes.
 *
 * Sizes are read from `information_schema.COLUMNS` on each primary (the column types differ by the cluster's
 * history); the GTID sets are the primaries' executed positions from GetFullStatus. Streams stored compressed
 * (`--vreplication_store_compressed_gtid`, MySQL `COMPRESS()`) are shorter than their text: then `pos` is not judged.
 *
 * Failure modes (`details.reason`):
 * - `reversePosTooLong` (error): a target primary's position is longer than `pos` on a source primary: the reverse
 *   stream insert fails after writes are stopped.
 * - `forwardPosTooLong` (error): a source primary's position is longer than `pos` on a target primary: the forward
 *   streams cannot record their progress.
 * - `journalTooLong` (error): the journal the switch writes on a source primary is longer than its `val` column.
 * - `posNearLimit` (warning): a position uses 80 % or more of a `pos` column: a few more reparents and it does not fit.
 * - `columnSizeUnknown` (warning): a position exceeds the upstream default size, but the column's real size was not
 * read.
 */
import { defineCheck, type CheckFinding, type Reasons } from '../src/engine/check.js';
import type { ClusterModel, PositionColumn, Shard, Workflow } from '../src/model/types.js';

/** Upstream `vreplication.pos` / `stop_pos`: `varbinary(10000)` (vreplication.sql, before PR #19119). */
export const DEFAULT_POS_BYTES = 10000;
/** Share of a column a position may use before it is reported as close to the limit. */
const NEAR_LIMIT = 0.8;

/** Position text as Vitess stores it (`MySQL56/…`); null when the primary's status was not read. */
function storedPosition(shard: Shard): string | null {
  const primary = shard.tablets.find((t) => t.alias === shard.primaryAlias);
  const fs = primary?.fullStatus;
  if (fs === undefined || !fs.ok || fs.value.primaryPosition === '') return null;
  const p = fs.value.primaryPosition;
  return /^[A-Za-z0-9]+\//.test(p) ? p : `MySQL56/${p}`;
}

/** The byte size of `table.column` on the shard's primary: a number, null (no limit given), or undefined (not read). */
function columnBytes(shard: Shard, table: string, column: string): number | null | undefined {
  const sc = shard.sidecar;
  if (sc === undefined || !sc.ok) return undefined;
  const cols = sc.value.positionColumns;
  if (cols === undefined || !cols.ok) return undefined;
  const c: PositionColumn | undefined = cols.value.find((x) => x.table === table && x.column === column);
  return c === undefined ? undefined : c.maxLength;
}

const bytes = (s: string) => Buffer.byteLength(s, 'utf8');

/**
 * The journal's prototext size on one source primary (`createJournals`): tables, local position, shard GTIDs,
 * participants.
 */
function journalBytes(
  wf: Workflow,
  sourcePosition: string,
  targets: readonly { shard: string; position: string }[],
  tables: readonly string[],
): number {
  const fixed = 64; // id, migration_type, field names and separators
  const t = tables.reduce((n, x) => n + bytes(x) + 10, 0);
  const g = targets.reduce((n, x) => n + bytes(x.position) + bytes(wf.keyspace) + bytes(x.shard) + 40, 0);
  const p = wf.sourceShards.length * (bytes(wf.sourceKeyspaces[0] ?? '') + 32);
  return fixed + t + bytes(sourcePosition) + g + p;
}

function workflowFindings(model: ClusterModel, wf: Workflow): CheckFinding<Reason>[] {
  const sourceKs = wf.sourceKeyspaces[0];
  if (sourceKs === undefined || wf.sourceKeyspaces.length !== 1) return [];
  const sources = wf.sourceShards.flatMap((n) => {
    const sh = model.shard(sourceKs, n);
    return sh === undefined ? [] : [sh];
  });
  const targets = wf.targetShards.flatMap((n) => {
    const sh = model.shard(wf.keyspace, n);
    return sh === undefined ? [] : [sh];
  });
  const compressed = wf.streams.some((s) => s.posCompressed);
  const tables = [...new Set(wf.streams.flatMap((s) => s.tables))];
  const out: CheckFinding<Reason>[] = [];
  const label = `${wf.keyspace}.${wf.name}`;

  // Each primary's position and pos column size, computed once: the loops below visit every (source, target) pair.
  const positionOf = new Map<Shard, string | null>();
  const storedOf = (shard: Shard): string | null => {
    let p = positionOf.get(shard);
    if (p === undefined) positionOf.set(shard, (p = storedPosition(shard)));
    return p;
  };
  const posSizeOf = new Map<Shard, number | null | undefined>();
  const posSize = (holder: Shard): number | null | undefined => {
    if (posSizeOf.has(holder)) return posSizeOf.get(holder);
    const size = columnBytes(holder, 'vreplication', 'pos');
    posSizeOf.set(holder, size);
    return size;
  };

  /** One position (of `len` bytes) against one primary's pos column. */
  const judgePos = (writer: Shard, holder: Shard, len: number, direction: 'reverse' | 'forward') => {
    const size = posSize(holder);
    // Nothing to report (the common case): leave before building any text.
    if (size === null || (size === undefined ? len <= DEFAULT_POS_BYTES : len < size * NEAR_LIMIT)) return;
    const where = `${holder.keyspace}/${holder.name}`;
    const base = {
      keyspace: holder.keyspace,
      shard: holder.name,
      ...(holder.primaryAlias ? { tablet: holder.primaryAlias } : {}),
      workflow: wf.name,
    };
    const evidence = {
      workflow: label,
      positionOf: `${writer.keyspace}/${writer.name}`,
      positionBytes: len,
      column: 'vreplication.pos',
    };
    const what =
      direction === 'reverse'
        ? `the reverse stream SwitchTraffic inserts on ${where} after stopping writes`
        : `the streams of ${label} on ${where}`;
    if (size === undefined) {
      if (len > DEFAULT_POS_BYTES)
        out.push({
          ...base,
          reason: 'columnSizeUnknown',
          message: `the position of ${writer.keyspace}/${writer.name} is ${len} bytes, more than the ${DEFAULT_POS_BYTES} of the upstream vreplication.pos, and the size of that column on ${where} was not read: ${what} may fail with "Data too long for column 'pos'"`,
          details: { ...evidence, assumedColumnBytes: DEFAULT_POS_BYTES },
        });
      return;
    }
    if (size === null) return;
    if (len > size) {
      out.push({
        ...base,
        reason: direction === 'reverse' ? 'reversePosTooLong' : 'forwardPosTooLong',
        message: `the position of ${writer.keyspace}/${writer.name} is ${len} bytes but vreplication.pos on ${where} holds ${size}: ${what} fails with "Data too long for column 'pos' at row 1 (errno 1406)"`,
        details: { ...evidence, columnBytes: size, mysqlError: "Data too long for column 'pos' at row 1 (errno 1406)" },
      });
    } else if (len >= size * NEAR_LIMIT) {
      out.push({
        ...base,
        reason: 'posNearLimit',
        message: `the position of ${writer.keyspace}/${writer.name} is ${len} bytes, ${Math.round((100 * len) / size)} % of the ${size} vreplication.pos holds on ${where}: every new server UUID (a reparent, a replaced pod) brings ${what} closer to "Data too long for column 'pos'"`,
        details: { ...evidence, columnBytes: size },
      });
    }
  };

  /**
   * The shortest position that any of `holders` could report (a lower bound): a writer whose position is shorter is
   * judged against none of them, which keeps the healthy case linear in shards instead of sources × targets.
   */
  const shortestReported = (holders: readonly Shard[]): number => {
    let min = Number.POSITIVE_INFINITY;
    for (const h of holders) {
      const size = posSize(h);
      if (size === null || Number.isNaN(size)) continue;
      min = Math.min(min, size === undefined ? DEFAULT_POS_BYTES + 1 : Math.min(size, size * NEAR_LIMIT));
    }
    return min;
  };
  if (!compressed) {
    const reverseFrom = shortestReported(sources);
    for (const t of targets) {
      const pos = storedOf(t);
      if (pos === null) continue;
      const len = bytes(pos);
      if (len < reverseFrom) continue;
      for (const s of sources) judgePos(t, s, len, 'reverse');
    }
    const forwardFrom = shortestReported(targets);
    for (const s of sources) {
      const pos = storedOf(s);
      if (pos === null) continue;
      const len = bytes(pos);
      if (len < forwardFrom) continue;
      for (const t of targets) judgePos(s, t, len, 'forward');
    }
  }

  // The journal on each source primary: its position and the positions of the target shards it feeds.
  // Per source shard, the indexes (in `targets` order) of the target shards with a stream reading it.
  const targetIndexes = new Map<string, number[]>();
  targets.forEach((t, i) => {
    const list = targetIndexes.get(t.name);
    if (list === undefined) targetIndexes.set(t.name, [i]);
    else list.push(i);
  });
  const readersOf = new Map<string, Set<number>>();
  for (const st of wf.streams) {
    let set = readersOf.get(st.sourceShard);
    if (set === undefined) readersOf.set(st.sourceShard, (set = new Set()));
    for (const i of targetIndexes.get(st.shard) ?? []) set.add(i);
  }
  for (const s of sources) {
    const pos = storedOf(s);
    const size = columnBytes(s, 'resharding_journal', 'val');
    if (pos === null || size === undefined || size === null) continue;
    const fed = [...(readersOf.get(s.name) ?? [])]
      .sort((a, b) => a - b)
      .flatMap((i) => {
        const t = targets[i] as Shard;
        const p = storedOf(t);
        return p !== null ? [{ shard: t.name, position: p }] : [];
      });
    const len = journalBytes(wf, pos, fed, tables);
    if (len <= size) continue;
    out.push({
      keyspace: s.keyspace,
      shard: s.name,
      ...(s.primaryAlias ? { tablet: s.primaryAlias } : {}),
      workflow: wf.name,
      reason: 'journalTooLong',
      message: `the resharding journal SwitchTraffic writes on ${s.keyspace}/${s.name} at the point of no return holds about ${len} bytes (its position and those of ${fed.length} target shard(s)) but resharding_journal.val holds ${size}: the write switch fails there`,
      details: { workflow: label, journalBytes: len, columnBytes: size, targetShards: fed.map((f) => f.shard) },
    });
  }
  return out;
}

const reasons = {
  // MySQL's own error inside Vitess's write switch (no Vitess literal): heuristic, with the exact MySQL text in
  // details.
  reversePosTooLong: {
    reads: ['positionColumns'],
    severity: 'error',
    step: 'catch-up',
    heuristic: true,
    rationale:
      "The reverse streams are inserted on the source primaries with the targets' positions after writes are stopped; a position longer than `vreplication.pos` makes MySQL refuse the insert (errno 1406).",
  },
  forwardPosTooLong: {
    reads: ['positionColumns'],
    severity: 'error',
    step: 'can-switch-streams',
    heuristic: true,
    rationale:
      'A source position longer than `vreplication.pos` on a target cannot be recorded, so the streams cannot save their progress (errno 1406, #19122, #18185).',
  },
  journalTooLong: {
    reads: ['positionColumns'],
    severity: 'error',
    step: 'catch-up',
    heuristic: true,
    rationale:
      'The resharding journal holds the source position and every fed target position; when it exceeds `resharding_journal.val` the write switch fails at its point of no return (PR #18608).',
  },
  posNearLimit: {
    reads: ['positionColumns'],
    severity: 'warning',
    step: 'catch-up',
    heuristic: true,
    rationale:
      'A GTID set grows with every server UUID; one close to the column size stops fitting after a few reparents.',
  },
  columnSizeUnknown: {
    reads: ['positionColumns'],
    severity: 'warning',
    step: 'catch-up',
    heuristic: true,
    rationale:
      "The position exceeds upstream's `varbinary(10000)`, and the column's real size on that primary was not read.",
  },
} satisfies Reasons;

type Reason = keyof typeof reasons;

export default defineCheck({
  id: 'gtid-set-too-long',
  needs: ['topology', 'fullStatus'],
  title: 'GTID sets fit the sidecar columns that store them',
  reasons,
  description:
    "Streams store their position as text in `_vt.vreplication.pos` (`varbinary(10000)` in `vitessio/vitess:go/vt/sidecardb/schema/vreplication/vreplication.sql` until PR #19119), the write switch inserts the reverse streams on the source primaries with the targets' positions and writes the resharding journal there (`traffic_switcher.go` `createReverseVReplication`, `createJournals`). GTID sets grow with every server UUID (reparents, replaced pods), and MySQL refuses a longer value with `Data too long for column 'pos' at row 1 (errno 1406)` (vitessio/vitess #19122, #18185, #8612; the journal: PR #18608). This check compares the primaries' executed GTID sets (GetFullStatus) with the column sizes each primary reports in `information_schema.COLUMNS`, read in the same batch as the sidecar tables.",
  remediation:
    'Widen the columns before the switch, on every primary of both keyspaces (`ALTER TABLE _vt.vreplication MODIFY pos LONGBLOB NOT NULL, MODIFY stop_pos LONGBLOB`, `ALTER TABLE _vt.resharding_journal MODIFY val LONGBLOB`, as PRs #19119 and #18608 do), or upgrade to a Vitess whose sidecar schema has them. Shortening the GTID set itself (removing old server UUIDs) needs a coordinated `RESET MASTER`/`gtid_purged` change on every replica; see the MySQL manual before trying it.',
  run(model) {
    return model.workflows
      .filter((wf) => (wf.type === 'MoveTables' || wf.type === 'Reshard') && !wf.name.endsWith('_reverse'))
      .flatMap((wf) => workflowFindings(model, wf));
  },
});
