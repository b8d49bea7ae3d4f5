/**
 * Every list read of a primary asks one row more than it keeps: a list that was cut fails its read (kind
 * `not-collected`), never silently drops rows (a base table without its keys, a session without its transaction).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  KNOWN_VREPLICATION_COLUMNS,
  readSidecarWith,
  SESSION_ROW_LIMIT,
  type SqlExecutor,
  type SqlResult,
  TABLE_ROW_LIMIT,
  UNIQUE_KEY_ROW_LIMIT,
} from '../../src/sources/sidecar.js';

const TARGET = { alias: 'a', keyspace: 'k', shard: '0', endpoint: 'e', sidecarDb: '_vt', dbName: 'vt_ks' };

/** An executor answering empty results, except `rows` for statements matching `match`. */
function executor(match: RegExp, columns: readonly string[], rows: readonly (string | number | null)[][]): SqlExecutor {
  const answer = (sql: string): SqlResult => {
    if (match.test(sql)) return { columns: [...columns], rows: rows.map((r) => [...r]) };
    if (sql.includes('SELECT * FROM')) return { columns: [...KNOWN_VREPLICATION_COLUMNS], rows: [] };
    if (sql.includes('@@global.performance_schema')) return { columns: ['enabled', 'mdl'], rows: [[1, 1]] };
    if (sql.includes('CONVERT_TZ')) return { columns: ['converted'], rows: [['2006-01-02 15:04:05']] };
    return { columns: [], rows: [] };
  };
  return {
    query: async (sql) => answer(sql),
    batch: async (statements) => ({ results: statements.map((st) => answer(st.sql)) }),
    close: async () => undefined,
  };
}

const names = (n: number) => Array.from({ length: n }, (_, i) => [`t${String(i).padStart(6, '0')}`]);

test('base tables: the limit is kept; one more fails the keys read, naming the cut', async () => {
  const full = await readSidecarWith(executor(/TABLE_TYPE/, ['table_name'], names(TABLE_ROW_LIMIT)), TARGET);
  assert.ok(full.tableKeys?.ok);
  assert.equal(full.tableKeys.value.length, TABLE_ROW_LIMIT);
  const cut = await readSidecarWith(executor(/TABLE_TYPE/, ['table_name'], names(TABLE_ROW_LIMIT + 1)), TARGET);
  assert.ok(cut.tableKeys !== undefined && !cut.tableKeys.ok);
  assert.equal(cut.tableKeys.error.kind, 'not-collected');
  assert.match(cut.tableKeys.error.reason, new RegExp(`^more than ${TABLE_ROW_LIMIT} base tables`));
});

test('unique-key columns: one more than the limit fails the keys read (no table silently without a key)', async () => {
  const rows = Array.from({ length: UNIQUE_KEY_ROW_LIMIT + 1 }, (_, i) => [`t${i}`, 'PRIMARY', 'NO']);
  const cut = await readSidecarWith(executor(/`STATISTICS`/, ['table_name', 'index_name', 'nullable'], rows), TARGET);
  assert.ok(cut.tableKeys !== undefined && !cut.tableKeys.ok);
  assert.match(cut.tableKeys.error.reason, /unique-key columns: the list is cut/);
});

test('sessions of the schema: one more than the limit fails the open-transactions read', async () => {
  const rows = Array.from({ length: SESSION_ROW_LIMIT + 1 }, (_, i) => [i + 1, 'app', 'vt_ks', 'Sleep', '', null]);
  const cut = await readSidecarWith(
    executor(/`PROCESSLIST`/, ['id', 'user', 'db', 'command', 'state', 'info'], rows),
    TARGET,
  );
  assert.ok(cut.transactions !== undefined && !cut.transactions.ok);
  assert.match(cut.transactions.error.reason, /more than \d+ sessions/);
  const kept = await readSidecarWith(
    executor(/`PROCESSLIST`/, ['id', 'user', 'db', 'command', 'state', 'info'], rows.slice(0, SESSION_ROW_LIMIT)),
    TARGET,
  );
  assert.ok(kept.transactions?.ok);
});
