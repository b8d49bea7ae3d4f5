/**
 * `npm run bench -- --only big-primary` (or `npm run bench -- --big-primary`, after the default benchmarks; not run
 * by default, it takes minutes): one big primary on a real MariaDB server (started privately, loopback only): a
 * keyspace schema of 20,000 tables (each with a primary key and a unique key) and a `vreplication_log` of 300,000
 * rows over 2 streams. The tablet reader (src/sources/sidecar.ts) reads it statement by statement, and for each
 * statement the bench prints its time, the rows it returned and the rows the server read for it (the session's
 * `Handler_read_*` counters), then the previous `vreplication_log` statement (a cutoff compared with every log row)
 * for comparison. Nothing here runs in `npm test`.
 */
import { pathToFileURL } from 'node:url';
import mysql from 'mysql2/promise';
import {
  formatSql,
  listSidecarStatements,
  readSidecarWith,
  type SqlExecutor,
  type SqlResult,
} from '../src/sources/sidecar.js';
import { poolInstances, sidecarDdl, startMariaDbPool, stopPool } from '../test/harness/mariadb.js';

/** Options of {@link runBigPrimaryBench}. */
export interface BigPrimaryOptions {
  readonly tables?: number;
  readonly logRows?: number;
  readonly json?: boolean;
}

/** One statement as measured. */
interface Measured {
  readonly statement: string;
  readonly ms: number;
  readonly rowsReturned: number;
  readonly rowsRead: number;
}

const HANDLER_READS = "SHOW SESSION STATUS WHERE Variable_name LIKE 'Handler_read%'";

/** What a statement is, in a few words: its first table. */
function label(sql: string): string {
  const from = /FROM ((?:information_schema|performance_schema|mysql|`[^`]+`)\.`[^`]+`)/.exec(sql)?.[1];
  if (sql.includes('CONVERT_TZ')) return 'CONVERT_TZ probe';
  if (sql.includes('`metadata_locks`')) return 'performance_schema.metadata_locks';
  if (sql.includes('@@global.performance_schema')) return 'performance_schema probe';
  if (sql.includes(') AS n JOIN ')) return `${from ?? ''} (newest rows per stream)`.trim();
  return (from ?? sql.slice(0, 60)).replace(/`/g, '');
}

/** The previous log statement: each log row compared with its stream's cutoff (for comparison only). */
const previousLogStatement = (db: string): string =>
  `SELECT l.id, l.vrepl_id, l.type, l.state, l.message, l.created_at, l.updated_at, l.count FROM ${db}.vreplication_log AS l WHERE l.vrepl_id IN (SELECT id FROM ${db}.vreplication WHERE db_name = 'vt_big') AND l.id >= COALESCE((SELECT c.id FROM ${db}.vreplication_log AS c WHERE c.vrepl_id = l.vrepl_id ORDER BY c.id DESC LIMIT 19, 1), 0) ORDER BY l.vrepl_id, l.id`;

/** Runs the big-primary case and prints one line per statement (or one JSON object per statement with `json`). */
export async function runBigPrimaryBench(o: BigPrimaryOptions = {}): Promise<Measured[]> {
  const tables = o.tables ?? 20_000;
  const logRows = o.logRows ?? 300_000;
  const pool = await startMariaDbPool(1);
  try {
    const [inst] = poolInstances(pool);
    if (inst === undefined) throw new Error('no server');
    const c = await mysql.createConnection({
      host: inst.host,
      port: inst.port,
      user: inst.root.user,
      password: inst.root.password,
      multipleStatements: true,
      supportBigNumbers: true,
      bigNumberStrings: true,
      dateStrings: true,
      rowsAsArray: true,
    });
    try {
      const t0 = performance.now();
      for (const s of sidecarDdl('_vt')) await c.query(s);
      await c.query('CREATE DATABASE vt_big');
      for (let i = 0; i < tables; i += 500) {
        const batch: string[] = [];
        for (let k = i; k < Math.min(tables, i + 500); k += 1)
          batch.push(
            `CREATE TABLE vt_big.t${k} (id bigint NOT NULL, code varchar(20) NOT NULL, note varchar(20) NULL, PRIMARY KEY (id), UNIQUE KEY code (code)) ENGINE=MyISAM`,
          );
        await c.query(batch.join('; '));
      }
      await c.query(
        "INSERT INTO _vt.vreplication (workflow, source, pos, max_tps, max_replication_lag, time_updated, transaction_timestamp, state, db_name) VALUES ('w', 'keyspace:\"src\" shard:\"0\"', '', 0, 0, 0, 0, 'Running', 'vt_big'), ('w', 'keyspace:\"src\" shard:\"0\"', '', 0, 0, 0, 0, 'Running', 'vt_big')",
      );
      await c.query('SET SESSION max_recursive_iterations = 10000000');
      for (let i = 0; i < logRows; i += 50_000)
        await c.query(
          `INSERT INTO _vt.vreplication_log (vrepl_id, type, state, message) WITH RECURSIVE s(n) AS (SELECT ${i} UNION ALL SELECT n + 1 FROM s WHERE n < ${Math.min(logRows, i + 50_000) - 1}) SELECT 1 + (n % 2), 'State Changed', 'Running', CONCAT('message ', n) FROM s`,
        );
      if (!o.json)
        console.log(
          `big primary: ${tables} tables, ${logRows} vreplication_log rows over 2 streams (set up in ${Math.round(performance.now() - t0)} ms)`,
        );

      const measure = async (sql: string): Promise<Measured & { result: SqlResult }> => {
        const reads = async () =>
          ((await c.query(HANDLER_READS))[0] as [string, string][]).reduce((n, [, v]) => n + Number(v), 0);
        const before = await reads();
        const s0 = performance.now();
        const [rows, fields] = (await c.query(sql)) as unknown as [unknown[][], { name: string }[]];
        const ms = performance.now() - s0;
        const rowsRead = (await reads()) - before;
        return {
          statement: label(sql),
          ms: Math.round(ms * 10) / 10,
          rowsReturned: rows.length,
          rowsRead,
          result: { columns: fields.map((f) => f.name), rows: rows as SqlResult['rows'] },
        };
      };
      const out: Measured[] = [];
      const exec: SqlExecutor = {
        query: async (sql, params) => {
          const m = await measure(formatSql(sql, params));
          out.push({ statement: m.statement, ms: m.ms, rowsReturned: m.rowsReturned, rowsRead: m.rowsRead });
          return m.result;
        },
        close: async () => undefined,
        // The server is MariaDB, as a direct connection's handshake tells the reader (src/sources/mysql.ts).
        flavor: 'mariadb',
      };
      const r0 = performance.now();
      const read = await readSidecarWith(exec, {
        alias: 'zone1-0000000100',
        keyspace: 'big',
        shard: '0',
        endpoint: `${inst.host}:${inst.port}`,
        sidecarDb: '_vt',
        dbName: 'vt_big',
      });
      const total = Math.round(performance.now() - r0);
      const prev = await measure(previousLogStatement('_vt'));
      // What MySQL and `--via vtctld` send for the foreign keys, which MariaDB answers by opening every table.
      const compared = [prev];
      for (const sql of listSidecarStatements('_vt').filter((x) => /KEY_COLUMN_USAGE|REFERENTIAL_CONSTRAINTS/.test(x)))
        compared.push(await measure(formatSql(sql, ['vt_big'])));
      const rows = [
        ...out,
        ...compared.map((m, i) => ({
          ...m,
          statement: `${m.statement} — ${i === 0 ? 'previous statement' : 'the MySQL statement'}, for comparison`,
        })),
      ];
      if (o.json) for (const m of rows) console.log(JSON.stringify({ bench: 'big-primary', ...m, result: undefined }));
      else {
        for (const m of rows)
          console.log(
            `  ${m.statement.padEnd(62)} ${String(m.ms).padStart(9)} ms  ${String(m.rowsReturned).padStart(7)} returned ${String(m.rowsRead).padStart(9)} read`,
          );
        const keys = read.tableKeys?.ok ? `${read.tableKeys.value.length} tables with keys` : 'keys not read';
        const log = read.vreplicationLog.ok ? `${read.vreplicationLog.value.length} log rows` : 'log not read';
        console.log(`  whole read: ${total} ms (${keys}, ${log})`);
      }
      return rows;
    } finally {
      await c.end();
    }
  } finally {
    await stopPool(pool);
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await runBigPrimaryBench({ json: process.argv.includes('--json') });
}
