/**
 * long-transactions: open transactions and metadata locks on the moved tables of a MoveTables, on its source primaries.
 *
 * When SwitchTraffic switches writes of a MoveTables, it first stops writes (denied tables), then runs `LOCK TABLES
 * <moved tables> READ` twice on every source primary (`vitessio/vitess:go/vt/vtctl/workflow/server.go`
 * `switchWrites`, `lockTablesCycles`; `traffic_switcher.go` `executeLockTablesOnSource`), and only then waits for the
 * streams to catch up. `LOCK TABLES … READ` takes a SHARED_READ_ONLY metadata lock, which waits for every session
 * holding a SHARED_WRITE (or stronger) lock on the table: any transaction that wrote to it and has not committed, an
 * explicit `LOCK TABLES … WRITE`, and queued DDL. While it waits, writes to the moved tables are already refused and
 * the keyspace locks' lease runs: the switch fails with `failed to execute LOCK TABLES (attempt %d of %d) on sources`
 * or a catch-up timeout, or the lock lease expires mid-switch and leaves journals, denied tables and routing rules
 * half-done (#20340; PR #11387 "presumably due to a long-living transaction"; #14276 reproduces it with `lock table
 * corder write`; #9400/PR #9450/#9481 are why LOCK TABLES is there).
 *
 * It reads, in the one batch per primary, `information_schema.INNODB_TRX` ⋈ `PROCESSLIST` (sessions using the
 * tablet's schema; needs the PROCESS privilege) and `performance_schema.metadata_locks` (needs SELECT on
 * performance_schema, performance_schema on and the `wait/lock/metadata/sql/mdl` instrument, MySQL 8.0's default).
 * A refused read is a read failure: the workflow is `unverified`, with the grant that would allow it. A snapshot: the
 * answer changes minute to minute, so run it right before the window (or with `--wait`).
 *
 * Failure modes (`details.reason`):
 * - `movedTableLocked` (warning): a session holds a write metadata lock on a moved table, in a transaction open for
 *   {@link LONG_TRANSACTION_SECONDS} s or more (or by an explicit LOCK TABLES).
 * - `movedTableLockQueued` (warning): a session waits for an exclusive metadata lock on a moved table (DDL queued
 *   behind another session): LOCK TABLES queues behind it.
 * - `longTransaction` (warning): a transaction open that long where the server does not record metadata locks
 *   (performance_schema off, MariaDB's default), so whether it touched the moved tables is unknown; a transaction that
 *   modified no row and holds no InnoDB row lock (`trx_rows_modified` and `trx_tables_locked` 0: a consistent read,
 *   a dump) is left out, as its read metadata locks do not make LOCK TABLES … READ wait.
 */
import { shapeText, statementShape } from '../src/vitess/sql-shape.js';
import { defineCheck, type CheckFinding, type Reasons } from '../src/engine/check.js';
import type { ClusterModel, MetadataLock, OpenTransaction, Shard, Workflow } from '../src/model/types.js';
import { plural } from '../src/text.js';

/** Age from which an open transaction counts as long: an OLTP write transaction lasts milliseconds. */
export const LONG_TRANSACTION_SECONDS = 5;

/** Granted lock types that make `LOCK TABLES … READ` (SHARED_READ_ONLY) wait (MySQL's MDL compatibility matrix). */
const BLOCKS_READ_LOCK = new Set(['SHARED_WRITE', 'SHARED_WRITE_LOW_PRIO', 'SHARED_NO_READ_WRITE', 'EXCLUSIVE']);
/** Pending lock types that `LOCK TABLES … READ` queues behind. */
const QUEUES_READ_LOCK = new Set(['SHARED_NO_READ_WRITE', 'EXCLUSIVE']);

/** A transaction that modified no row and holds no InnoDB row lock: it holds read metadata locks at most. */
const readOnly = (t: OpenTransaction): boolean => t.rowsModified === 0 && t.tablesLocked === 0;

/** A statement in a finding's details: its digest, verb and tables, or a null digest when the session is idle. */
function statementDetails(digest: string | null): { digest: string | null; verb?: string; tables?: string[] } {
  if (digest === null) return { digest: null };
  const shape = statementShape(digest);
  return { digest: shape.digest, verb: shape.verb, tables: [...shape.tables] };
}

/** How a session is described: `session 42 (user app_rw, idle, last statement "UPDATE …")`. */
function sessionText(threadId: number | null, trx: OpenTransaction | undefined, digest: string | null): string {
  const parts: string[] = [];
  if (trx !== undefined) parts.push(`user ${trx.user}`);
  if (trx !== undefined && trx.command === 'Sleep') parts.push('idle');
  const d = trx?.digest ?? digest;
  // The statement's shape only (verb, tables, digest): never its literals or comments, which may hold secrets.
  if (d !== null) {
    const shape = statementShape(d);
    parts.push(`statement ${shapeText(shape)} "${shape.digest}"`);
  }
  const who = threadId === null ? 'a background thread' : `session ${threadId}`;
  return parts.length === 0 ? who : `${who} (${parts.join(', ')})`;
}

function shardFindings(wf: Workflow, shard: Shard, tables: ReadonlySet<string>): CheckFinding<Reason>[] {
  const sc = shard.sidecar;
  if (sc === undefined || !sc.ok) return [];
  const act = sc.value.activity;
  // Not read (older readout) or refused: a refused read is already a read failure that leaves the workflow unverified.
  if (act === undefined || !act.transactions.ok || !act.metadataLocks.ok) return [];
  const trxs = act.transactions.value;
  const byThread = new Map(trxs.map((t) => [t.threadId, t] as const));
  const where = `${shard.keyspace}/${shard.name}`;
  const loc = {
    keyspace: shard.keyspace,
    shard: shard.name,
    ...(shard.primaryAlias ? { tablet: shard.primaryAlias } : {}),
  };
  const label = `${wf.keyspace}.${wf.name}`;
  const lockList = [...tables].sort().join(', ');
  const consequence = `SwitchTraffic's LOCK TABLES ${lockList} READ on this primary waits for it after writes are already stopped, and the switch fails ("failed to execute LOCK TABLES … on sources") or outlives its keyspace lock`;
  const out: CheckFinding<Reason>[] = [];

  if (act.metadataLocks.value.instrumented) {
    const onMoved = act.metadataLocks.value.locks.filter((l) => tables.has(l.table));
    // Holders: a write lock of a transaction open long enough, or an explicit LOCK TABLES (no age to compare).
    const holders = new Map<number | null, MetadataLock[]>();
    for (const l of onMoved) {
      if (l.status !== 'GRANTED' || !BLOCKS_READ_LOCK.has(l.lockType)) continue;
      const trx = l.threadId === null ? undefined : byThread.get(l.threadId);
      const long = trx !== undefined && trx.ageSeconds >= LONG_TRANSACTION_SECONDS;
      if (!long && l.duration !== 'EXPLICIT') continue;
      const list = holders.get(l.threadId) ?? [];
      list.push(l);
      holders.set(l.threadId, list);
    }
    if (holders.size > 0) {
      const age = (id: number | null) => (id === null ? -1 : (byThread.get(id)?.ageSeconds ?? -1));
      const [oldestId, locks] = [...holders].sort((a, b) => age(b[0]) - age(a[0]) || (a[0] ?? 0) - (b[0] ?? 0))[0]!;
      const trx = oldestId === null ? undefined : byThread.get(oldestId);
      const lockTables = [...new Set(locks.map((l) => l.table))].sort();
      const types = [...new Set(locks.map((l) => l.lockType))].sort();
      const held =
        trx !== undefined
          ? `in a transaction open for ${trx.ageSeconds} s`
          : 'by an explicit LOCK TABLES, outside any transaction';
      const others = holders.size > 1 ? ` (and ${plural(holders.size - 1, 'other session', 'other sessions')})` : '';
      out.push({
        ...loc,
        reason: 'movedTableLocked',
        message: `${sessionText(oldestId, trx, locks[0]?.digest ?? null)} holds a ${types.join('/')} metadata lock on ${lockTables.join(', ')} on the primary of ${where}${others} ${held}: ${consequence}`,
        details: {
          workflow: label,
          threadId: oldestId,
          user: trx?.user ?? null,
          ageSeconds: trx?.ageSeconds ?? null,
          ...statementDetails(trx?.digest ?? locks[0]?.digest ?? null),
          tables: lockTables,
          lockTypes: types,
          sessions: holders.size,
        },
      });
    }
    const queued = onMoved.filter((l) => l.status === 'PENDING' && QUEUES_READ_LOCK.has(l.lockType));
    if (queued.length > 0) {
      const q = queued[0]!;
      const trx = q.threadId === null ? undefined : byThread.get(q.threadId);
      out.push({
        ...loc,
        reason: 'movedTableLockQueued',
        message: `${sessionText(q.threadId, trx, q.digest)} waits for a ${q.lockType} metadata lock on ${q.table} on the primary of ${where}, behind another session: ${consequence}`,
        details: {
          workflow: label,
          threadId: q.threadId,
          table: q.table,
          lockType: q.lockType,
          ...statementDetails(q.digest),
          sessions: new Set(queued.map((l) => l.threadId)).size,
        },
      });
    }
    return out;
  }

  // Metadata locks not recorded: every long transaction on the schema that may have written may hold the moved
  // tables. One that modified no row and holds no InnoDB row lock only read (a consistent snapshot: a dump, a
  // REPEATABLE READ report): its SHARED_READ locks are compatible with LOCK TABLES … READ.
  const long = trxs.filter((t) => t.ageSeconds >= LONG_TRANSACTION_SECONDS && !readOnly(t));
  if (long.length > 0) {
    const t = [...long].sort((a, b) => b.ageSeconds - a.ageSeconds || a.threadId - b.threadId)[0]!;
    const others = long.length > 1 ? ` (and ${plural(long.length - 1, 'other', 'others')})` : '';
    out.push({
      ...loc,
      reason: 'longTransaction',
      message: `${sessionText(t.threadId, t, null)} has a transaction open for ${t.ageSeconds} s on the primary of ${where}${others}, which does not record metadata locks (performance_schema), so whether it holds ${lockList} is unknown: if it does, ${consequence}`,
      details: {
        workflow: label,
        threadId: t.threadId,
        user: t.user,
        ageSeconds: t.ageSeconds,
        ...statementDetails(t.digest),
        rowsModified: t.rowsModified,
        sessions: long.length,
      },
    });
  }
  return out;
}

function workflowFindings(model: ClusterModel, wf: Workflow): CheckFinding<Reason>[] {
  const sourceKs = wf.sourceKeyspaces[0];
  // LOCK TABLES runs for table migrations only (MigrationType_TABLES): MoveTables, not Reshard.
  if (wf.type !== 'MoveTables' || sourceKs === undefined || sourceKs === wf.keyspace) return [];
  const tables = new Set(wf.streams.flatMap((s) => s.tables));
  if (tables.size === 0) return [];
  return wf.sourceShards.flatMap((name) => {
    const shard = model.shard(sourceKs, name);
    return shard === undefined ? [] : shardFindings(wf, shard, tables);
  });
}

const reasons = {
  movedTableLocked: {
    reads: ['metadataLocks'],
    severity: 'warning',
    step: 'lock-tables',
    heuristic: true,
    rationale:
      'LOCK TABLES … READ on the source primaries waits for every uncommitted writer of the moved tables, after writes are stopped and while the keyspace locks run out (#20340, PR #11387).',
  },
  movedTableLockQueued: {
    reads: ['metadataLocks'],
    severity: 'warning',
    step: 'lock-tables',
    heuristic: true,
    rationale:
      'A queued exclusive metadata lock (DDL waiting) makes every later LOCK TABLES … READ on the table queue behind it, so the switch waits as long as the DDL does.',
  },
  longTransaction: {
    reads: ['transactions'],
    severity: 'warning',
    step: 'lock-tables',
    heuristic: true,
    rationale:
      'Without performance_schema metadata locks a long transaction on the schema that wrote or locked rows may hold write locks on the moved tables, which is exactly what makes LOCK TABLES wait.',
  },
} satisfies Reasons;

type Reason = keyof typeof reasons;

export default defineCheck({
  id: 'long-transactions',
  title: 'No long transaction or metadata lock holds the moved tables on a source primary',
  reasons,
  description:
    'A MoveTables write switch runs `LOCK TABLES <moved tables> READ` twice on every source primary after stopping writes (`vitessio/vitess:go/vt/vtctl/workflow/server.go` `switchWrites`, `traffic_switcher.go` `executeLockTablesOnSource`); the lock waits for every session that holds a write metadata lock on those tables. A long or forgotten transaction makes the switch fail with `failed to execute LOCK TABLES (attempt %d of %d) on sources` or a catch-up timeout, or outlive its keyspace lock and leave a half-switched workflow (#20340, PR #11387, #14276). The check reads `information_schema.INNODB_TRX` with `PROCESSLIST` (PROCESS privilege) and `performance_schema.metadata_locks` on the source primaries; a refused read leaves the workflow `unverified`. It is a snapshot: run it right before the switch.',
  remediation:
    'Find the session in `SHOW PROCESSLIST` on the source primary and let its transaction finish, or end it (`KILL <id>`) if the application left it open; wait for queued DDL to finish. Then run vtpreflight again, right before SwitchTraffic. Grant PROCESS and SELECT on performance_schema to the MySQL user for full coverage.',
  needs: ['topology'],
  run(model) {
    return model.workflows.flatMap((wf) => workflowFindings(model, wf));
  },
});
