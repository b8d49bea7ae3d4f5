/**
 * Real MariaDB servers for source and end-to-end tests (docs/decisions/0004-mariadb-in-tests.md): K `mariadbd`
 * processes on free loopback ports with throwaway data directories, each holding real users and, on request, the real
 * Vitess sidecar schema.
 *
 * Start-up is cheap: `mariadb-install-db` runs once into a template datadir (small InnoDB files), and each
 * instance starts from a copy of it. Servers are stopped by pid (SIGTERM, then SIGKILL). Every server runs
 * with the general log on (`log_output=TABLE`), so a test can list every statement a client sent
 * ({@link MariaDbInstance.generalLog}).
 *
 * The pool is described by a serializable {@link MariaDbPoolInfo} (passed to test processes in the
 * `VTPREFLIGHT_TEST_MARIADB` env var by test/run.ts); {@link MariaDbInstance} adds fixture helpers on top.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import {
  accessSync,
  constants as fsConstants,
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import mysql from 'mysql2/promise';

/** Credentials of one MariaDB account. */
export interface MariaDbCredentials {
  readonly user: string;
  readonly password: string;
}

/** One running server, as passed between processes. */
export interface MariaDbInstanceInfo {
  readonly index: number;
  readonly host: string;
  readonly port: number;
  readonly serverId: number;
  /** The mariadbd pid (owned by the process that started the pool). */
  readonly pid: number;
}

/** A running pool, serializable (the `VTPREFLIGHT_TEST_MARIADB` JSON). */
export interface MariaDbPoolInfo {
  readonly version: 1;
  /** `SELECT VERSION()` of the servers. */
  readonly serverVersion: string;
  readonly instances: readonly MariaDbInstanceInfo[];
  /** All privileges with grant option, from 127.0.0.1: for fixtures only. */
  readonly root: MariaDbCredentials;
  /** `SELECT` and `PROCESS` on `*.*`: what vtpreflight is documented to need (README, grants). */
  readonly reader: MariaDbCredentials;
  /** The throwaway directory holding every datadir (removed by {@link stopPool}). */
  readonly dir: string;
}

/** A pool started by this process: its info plus the child processes. */
export interface MariaDbPool extends MariaDbPoolInfo {
  readonly processes: readonly ChildProcess[];
  /** Milliseconds from start to all servers ready. */
  readonly startupMs: number;
}

const HOST = '127.0.0.1';
const READY_TIMEOUT_MS = 60_000;
const INSTALL_HINT = 'install MariaDB (apt-get install -y mariadb-server) or run .ci/run';

/** Small InnoDB files keep the template (copied per instance) at ~20 MB; the same values must be used at start. */
const INNODB_FILE_ARGS = ['--innodb-log-file-size=4M', '--innodb-data-file-path=ibdata1:10M:autoextend'];

function findExecutable(names: readonly string[], extraDirs: readonly string[]): string | null {
  const dirs = [...(process.env.PATH ?? '').split(delimiter).filter(Boolean), ...extraDirs];
  for (const name of names) {
    for (const dir of dirs) {
      const p = join(dir, name);
      try {
        accessSync(p, fsConstants.X_OK);
        return p;
      } catch {
        // keep looking
      }
    }
  }
  return null;
}

/** Paths of `mariadbd` and `mariadb-install-db`; throws one line with an install hint when missing. */
export function findMariaDbBinaries(): { mariadbd: string; installDb: string } {
  const sbin = ['/usr/sbin', '/usr/local/sbin', '/usr/libexec', '/usr/local/mysql/bin'];
  const override = process.env.VTPREFLIGHT_MARIADBD;
  if (override) {
    try {
      accessSync(override, fsConstants.X_OK);
    } catch {
      throw new Error(`VTPREFLIGHT_MARIADBD=${override} is not an executable mariadbd: ${INSTALL_HINT}`);
    }
  }
  const mariadbd = override || findExecutable(['mariadbd', 'mysqld'], sbin);
  const installDb = findExecutable(
    ['mariadb-install-db', 'mysql_install_db'],
    ['/usr/bin', '/usr/local/bin', '/usr/local/mysql/scripts'],
  );
  if (!mariadbd) throw new Error(`mariadbd not found on PATH or in /usr/sbin: ${INSTALL_HINT}`);
  if (!installDb) throw new Error(`mariadb-install-db not found on PATH: ${INSTALL_HINT}`);
  return { mariadbd, installDb };
}

/** A free TCP port on the loopback interface (bound and released; start-up retries on a lost race). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, HOST, () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Resolves true when `p` settles within `ms`, false otherwise; never keeps the process alive by itself. */
async function within(p: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((r) => {
    timer = setTimeout(() => r(false), ms);
    timer.unref();
  });
  try {
    return await Promise.race([p.then(() => true), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

const isAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

const OWNER_FILE = 'owner.json';
const POOL_DIR_PREFIX = 'vtpreflight-mariadb-pool-';

/**
 * Removes pools left behind by test runs that died without stopping them: a pool directory whose owner
 * process is gone has its servers killed by pid (only pids whose command line names that directory) and is
 * then deleted.
 */
function reapAbandonedPools(): void {
  let entries: string[];
  try {
    entries = readdirSync(tmpdir()).filter((n) => n.startsWith(POOL_DIR_PREFIX));
  } catch {
    return;
  }
  for (const name of entries) {
    const dir = join(tmpdir(), name);
    let owner: { ownerPid?: number; serverPids?: number[] };
    try {
      owner = JSON.parse(readFileSync(join(dir, OWNER_FILE), 'utf8')) as typeof owner;
    } catch {
      continue; // being created, or not ours
    }
    if (typeof owner.ownerPid !== 'number' || isAlive(owner.ownerPid)) continue;
    for (const pid of owner.serverPids ?? []) {
      try {
        const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
        if (cmd.includes(dir)) process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    rmSync(dir, { recursive: true, force: true });
  }
}

function writeOwner(dir: string, serverPids: readonly number[]): void {
  writeFileSync(join(dir, OWNER_FILE), JSON.stringify({ ownerPid: process.pid, serverPids }));
}

function installTemplate(installDb: string, datadir: string): void {
  // Its bootstrap server empties its tmpdir too (see TMPDIR_NOTE): never the shared temp dir.
  const tmp = `${datadir}-tmp`;
  mkdirSync(tmp, { recursive: true });
  const args = [
    '--no-defaults',
    `--datadir=${datadir}`,
    `--tmpdir=${tmp}`,
    '--auth-root-authentication-method=normal',
    '--skip-test-db',
    '--skip-name-resolve',
    ...INNODB_FILE_ARGS,
  ];
  if (process.getuid?.() === 0) args.push('--user=root');
  const r = spawnSync(installDb, args, { encoding: 'utf8', timeout: 120_000 });
  if (r.status !== 0) {
    const tail = `${r.stderr ?? ''}${r.stdout ?? ''}`.trim().split('\n').slice(-3).join(' | ');
    throw new Error(
      `mariadb-install-db failed (exit ${String(r.status ?? r.signal)}): ${tail || r.error?.message || 'no output'}`,
    );
  }
}

/**
 * The initialized datadir every instance copies. It is cached in the temp dir across runs (keyed by the
 * server binary, its size and mtime, and the install arguments) because `mariadb-install-db` is most of the
 * start-up time; it is never written to after creation (instances copy it), and it is created under a
 * temporary name and renamed into place, so a half-made template is never used.
 */
function ensureTemplate(mariadbd: string, installDb: string, scratch: string): string {
  const st = statSync(mariadbd);
  const key = createHash('sha256')
    .update(JSON.stringify([mariadbd, st.size, st.mtimeMs, installDb, INNODB_FILE_ARGS, process.getuid?.() ?? -1, 1]))
    .digest('hex')
    .slice(0, 16);
  const cached = join(tmpdir(), `vtpreflight-mariadb-template-${key}`);
  if (existsSync(join(cached, 'mysql'))) return cached;
  const fresh = join(scratch, 'template');
  installTemplate(installDb, fresh);
  try {
    renameSync(fresh, cached);
    return cached;
  } catch {
    // Another run won the race (or tmp is on another device): use whichever exists.
    return existsSync(join(cached, 'mysql')) ? cached : fresh;
  }
}

interface Started {
  readonly child: ChildProcess;
  readonly port: number;
  readonly socket: string;
}

async function startServer(
  mariadbd: string,
  base: string,
  index: number,
  template: string,
  extraArgs: readonly string[],
): Promise<Started> {
  const dir = join(base, `i${index}`);
  const datadir = join(dir, 'data');
  const tmp = join(dir, 'tmp');
  mkdirSync(tmp, { recursive: true });
  cpSync(template, datadir, { recursive: true });
  let lastError = '';
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const port = await freePort();
    const socket = join(dir, 'mysqld.sock');
    const errLog = join(dir, `error-${attempt}.log`);
    const args = [
      '--no-defaults',
      `--datadir=${datadir}`,
      // TMPDIR_NOTE: a private tmpdir. mariadbd deletes every `#sql*` file of its tmpdir when it starts; with the
      // shared temp dir, each server starting (any pool of any test process) deleted the on-disk (Aria) internal
      // temporary tables that running servers were using (information_schema.COLUMNS and PROCESSLIST always build
      // one), and those servers crashed freeing them (SIGSEGV in ha_maria::drop_table; 100% reproducible).
      `--tmpdir=${tmp}`,
      `--socket=${socket}`,
      `--port=${port}`,
      `--bind-address=${HOST}`,
      `--pid-file=${join(dir, 'mysqld.pid')}`,
      `--log-error=${errLog}`,
      ...INNODB_FILE_ARGS,
      '--innodb-buffer-pool-size=16M',
      '--innodb-fast-shutdown=2', // throwaway data: stop fast
      '--performance-schema=OFF',
      '--skip-name-resolve',
      // A Vitess primary's replication settings (binlogs, ROW, GTIDs), as the tablet would run it.
      '--log-bin=binlog',
      '--binlog-format=ROW',
      `--server-id=${index + 1}`,
      '--gtid-strict-mode=1',
      // Every statement of every client lands in mysql.general_log (read-only tests read it back).
      '--general-log=1',
      '--log-output=TABLE',
      '--max-connections=500',
      ...extraArgs,
    ];
    if (process.getuid?.() === 0) args.push('--user=root');
    const child = spawn(mariadbd, args, { stdio: 'ignore' });
    let exited: string | null = null;
    child.once('exit', (code, signal) => {
      exited = `exited with ${signal ?? String(code)}`;
    });
    child.once('error', (e) => {
      exited = e.message;
    });
    const deadline = Date.now() + READY_TIMEOUT_MS;
    while (exited === null && Date.now() < deadline) {
      try {
        const c = await mysql.createConnection({
          socketPath: socket,
          user: 'root',
          password: '',
          connectTimeout: 1000,
        });
        await c.end();
        return { child, port, socket };
      } catch {
        await sleep(30);
      }
    }
    const logTail = existsSync(errLog)
      ? readFileSync(errLog, 'utf8')
          .trim()
          .split('\n')
          .filter((l) => /ERROR|Error/.test(l))
          .slice(-2)
          .join(' | ')
      : '';
    if (exited === null) {
      child.kill('SIGKILL');
      throw new Error(`mariadbd #${index} on port ${port} not ready within ${READY_TIMEOUT_MS / 1000}s: ${logTail}`);
    }
    lastError = `mariadbd #${index} on port ${port} ${String(exited)}: ${logTail}`;
    // only a lost port race is worth retrying
    if (!/already in use|bind|another server running on port/i.test(logTail)) break;
  }
  throw new Error(lastError);
}

async function setupAccounts(socket: string, root: MariaDbCredentials, reader: MariaDbCredentials): Promise<string> {
  const c = await mysql.createConnection({ socketPath: socket, user: 'root', password: '' });
  try {
    const setup: [string, string[]][] = [
      ['CREATE USER ?@? IDENTIFIED BY ?', [root.user, '%', root.password]],
      ['GRANT ALL PRIVILEGES ON *.* TO ?@? WITH GRANT OPTION', [root.user, '%']],
      ['CREATE USER ?@? IDENTIFIED BY ?', [reader.user, '%', reader.password]],
      ['GRANT SELECT ON *.* TO ?@?', [reader.user, '%']],
      // PROCESS: the open-transactions read (INNODB_TRX), as README's grants list asks of a production user.
      ['GRANT PROCESS ON *.* TO ?@?', [reader.user, '%']],
      // The tablets' filtered user (Vitess's default --db_filtered_user) with its privileges on the sidecar's
      // vreplication table, as Vitess's init_db.sql grants them (ON *.*): the reverse-permissions check reads them.
      ['CREATE USER ?@?', ['vt_filtered', 'localhost']],
      ['GRANT SELECT, INSERT, UPDATE, DELETE ON *.* TO ?@?', ['vt_filtered', 'localhost']],
    ];
    for (const [sql, params] of setup) {
      await c.query(sql, params);
    }
    const [rows] = await c.query('SELECT VERSION() AS v');
    return String((rows as { v: string }[])[0]?.v ?? '');
  } finally {
    await c.end();
  }
}

/** Options of {@link startMariaDbPool}. */
export interface MariaDbPoolOptions {
  /**
   * More `mariadbd` arguments for every server of the pool, after the defaults (so they win), e.g. TLS files
   * (`--ssl-cert=…`) or `--max-connections=20`. Only for private pools: never for the shared one.
   */
  readonly extraArgs?: readonly string[];
}

/**
 * Starts `k` MariaDB servers in parallel and returns once all accept connections (about 2 s for the
 * template plus well under a second per server on a laptop). Throws one line naming the cause (with an
 * install hint when MariaDB is missing); on failure, servers already started are stopped.
 */
export async function startMariaDbPool(k: number, opts: MariaDbPoolOptions = {}): Promise<MariaDbPool> {
  const t0 = Date.now();
  const { mariadbd, installDb } = findMariaDbBinaries();
  reapAbandonedPools();
  const dir = join(tmpdir(), `${POOL_DIR_PREFIX}${process.pid}-${randomBytes(4).toString('hex')}`);
  mkdirSync(dir, { recursive: true });
  writeOwner(dir, []);
  const started: Started[] = [];
  try {
    const template = ensureTemplate(mariadbd, installDb, dir);
    const results = await Promise.allSettled(
      Array.from({ length: k }, (_, i) =>
        startServer(mariadbd, dir, i, template, opts.extraArgs ?? []).then((s) => {
          started.push(s);
          writeOwner(
            dir,
            started.map((x) => x.child.pid ?? 0),
          );
          return s;
        }),
      ),
    );
    const failure = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failure) throw failure.reason;
    const servers = results.map((r) => (r as PromiseFulfilledResult<Started>).value);

    const secret = () => randomBytes(12).toString('hex');
    const root = { user: 'vtroot', password: `root-${secret()}` };
    const reader = { user: 'vtpreflight', password: `reader-${secret()}` };
    const versions = await Promise.all(servers.map((s) => setupAccounts(s.socket, root, reader)));
    return {
      version: 1,
      serverVersion: versions[0] ?? '',
      instances: servers.map((s, index) => ({
        index,
        host: HOST,
        port: s.port,
        serverId: index + 1,
        pid: s.child.pid ?? 0,
      })),
      root,
      reader,
      dir,
      processes: servers.map((s) => s.child),
      startupMs: Date.now() - t0,
    };
  } catch (err) {
    await stopProcesses(started.map((s) => s.child));
    rmSync(dir, { recursive: true, force: true });
    throw err instanceof Error ? err : new Error(String(err));
  }
}

async function stopProcesses(children: readonly ChildProcess[]): Promise<void> {
  await Promise.all(
    children.map(async (child) => {
      if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
      const exited = new Promise<void>((r) => child.once('exit', () => r()));
      child.kill('SIGTERM');
      if (!(await within(exited, 10_000))) {
        child.kill('SIGKILL');
        await within(exited, 2_000);
      }
    }),
  );
}

/** Stops every server of the pool by pid (SIGTERM, then SIGKILL after 10 s) and removes its directory. */
export async function stopPool(pool: MariaDbPool): Promise<void> {
  await stopProcesses(pool.processes);
  rmSync(pool.dir, { recursive: true, force: true });
}

/** Synchronous last-resort stop (for `process.on('exit')`): SIGKILL by pid, then remove the directory. */
export function killPoolSync(pool: MariaDbPool): void {
  for (const child of pool.processes) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
  rmSync(pool.dir, { recursive: true, force: true });
}

// ---------------------------------------------------------------------------------------------------
// Sidecar DDL

/** Which `vreplication` schema to create. */
export type SidecarSchemaVariant =
  /** The upstream `go/vt/sidecardb/schema/vreplication/*.sql` files (v16+). */
  | 'current'
  /**
   * An old Vitess (~v4–v6, withddl era): `binlogplayer.CreateVReplicationTable` plus the first ALTERs
   * (db_name, source widened to a blob, workflow_idx); no rows_copied, tags, time_heartbeat, workflow_type,
   * time_throttled, component_throttled, workflow_sub_type, defer_secondary_keys; no vreplication_log table.
   */
  | 'old';

/** Options of {@link sidecarDdl}. */
export interface SidecarDdlOptions {
  readonly variant?: SidecarSchemaVariant;
  /**
   * Adds `options json` to `vreplication` (current variant only). Newer Vitess (v20/v21+) has this column but
   * no stored upstream `.sql` shows its DDL, so its exact definition here is an assumption.
   */
  readonly withOptionsColumn?: boolean;
}

const q = (name: string): string => {
  if (name.includes('`') || name.includes('\0') || name === '')
    throw new Error(`bad identifier ${JSON.stringify(name)}`);
  return `\`${name}\``;
};

/**
 * The sidecar DDL for a database named `sidecarDb`, statement by statement.
 *
 * Copied from upstream `vitessio/vitess:go/vt/sidecardb/schema/vreplication/{vreplication,copy_state,
 * vreplication_log,resharding_journal}.sql` (and `twopc/{dt_state,redo_state}.sql`, current variant) with two
 * changes: tables are qualified with the sidecar database
 * (upstream files are unqualified or say `_vt`, and vttablet rewrites the qualifier), and the optional
 * `options json` column, whose upstream DDL is not known, becomes MariaDB's `JSON` (an alias of LONGTEXT with
 * a JSON_VALID check). Everything else runs unchanged on MariaDB 10.11.
 */
export function sidecarDdl(sidecarDb: string, opts: SidecarDdlOptions = {}): string[] {
  const db = q(sidecarDb);
  const variant = opts.variant ?? 'current';
  const out = [`CREATE DATABASE IF NOT EXISTS ${db}`];
  if (variant === 'current') {
    out.push(
      `CREATE TABLE IF NOT EXISTS ${db}.vreplication
(
    \`id\`                    int              NOT NULL AUTO_INCREMENT,
    \`workflow\`              varbinary(1000)           DEFAULT NULL,
    \`source\`                mediumblob       NOT NULL,
    \`pos\`                   varbinary(10000) NOT NULL,
    \`stop_pos\`              varbinary(10000)          DEFAULT NULL,
    \`max_tps\`               bigint           NOT NULL,
    \`max_replication_lag\`   bigint           NOT NULL,
    \`cell\`                  varbinary(1000)           DEFAULT NULL,
    \`tablet_types\`          varbinary(100)            DEFAULT NULL,
    \`time_updated\`          bigint           NOT NULL,
    \`transaction_timestamp\` bigint           NOT NULL,
    \`state\`                 varbinary(100)   NOT NULL,
    \`message\`               varbinary(1000)           DEFAULT NULL,
    \`db_name\`               varbinary(255)   NOT NULL,
    \`rows_copied\`           bigint           NOT NULL DEFAULT '0',
    \`tags\`                  varbinary(1024)  NOT NULL DEFAULT '',
    \`time_heartbeat\`        bigint           NOT NULL DEFAULT '0',
    \`workflow_type\`         int              NOT NULL DEFAULT '0',
    \`time_throttled\`        bigint           NOT NULL DEFAULT '0',
    \`component_throttled\`   varchar(255)     NOT NULL DEFAULT '',
    \`workflow_sub_type\`     int              NOT NULL DEFAULT '0',
    \`defer_secondary_keys\`  tinyint(1)       NOT NULL DEFAULT '0',${opts.withOptionsColumn ? '\n    `options`               json                      DEFAULT NULL,' : ''}
    PRIMARY KEY (\`id\`),
    KEY \`workflow_idx\` (\`workflow\`(64))
) ENGINE = InnoDB`,
    );
  } else {
    // binlogplayer.CreateVReplicationTable (vitessio/vitess:go/vt/binlog/binlogplayer/binlog_player.go, old)
    out.push(`CREATE TABLE IF NOT EXISTS ${db}.vreplication (
  id INT AUTO_INCREMENT,
  workflow VARBINARY(1000),
  source VARBINARY(10000) NOT NULL,
  pos VARBINARY(10000) NOT NULL,
  stop_pos VARBINARY(10000) DEFAULT NULL,
  max_tps BIGINT(20) NOT NULL,
  max_replication_lag BIGINT(20) NOT NULL,
  cell VARBINARY(1000) DEFAULT NULL,
  tablet_types VARBINARY(100) DEFAULT NULL,
  time_updated BIGINT(20) NOT NULL,
  transaction_timestamp BIGINT(20) NOT NULL,
  state VARBINARY(100) NOT NULL,
  message VARBINARY(1000) DEFAULT NULL,
  PRIMARY KEY (id)
) ENGINE=InnoDB`);
    // The first withddl ALTERs of the old vreplication engine (its tests expect "ADD COLUMN db_name",
    // "MODIFY source", "ADD KEY"); the widened type of `source` (BLOB) is recalled, not read upstream.
    out.push(`ALTER TABLE ${db}.vreplication ADD COLUMN db_name VARBINARY(255) NOT NULL`);
    out.push(`ALTER TABLE ${db}.vreplication MODIFY source BLOB NOT NULL`);
    out.push(`ALTER TABLE ${db}.vreplication ADD KEY workflow_idx (workflow(64))`);
  }
  out.push(`CREATE TABLE IF NOT EXISTS ${db}.copy_state
(
    \`id\` bigint unsigned NOT NULL AUTO_INCREMENT,
    \`vrepl_id\`   int            NOT NULL,
    \`table_name\` varbinary(128) NOT NULL,
    \`lastpk\`     varbinary(2000) DEFAULT NULL,
    PRIMARY KEY (\`id\`),
    KEY \`vrepl_id\` (\`vrepl_id\`,\`table_name\`)
) ENGINE = InnoDB CHARSET = utf8mb4`);
  if (variant === 'current') {
    out.push(`CREATE TABLE IF NOT EXISTS ${db}.vreplication_log
(
    \`id\`         bigint         NOT NULL AUTO_INCREMENT,
    \`vrepl_id\`   int            NOT NULL,
    \`type\`       varbinary(256) NOT NULL,
    \`state\`      varbinary(100) NOT NULL,
    \`created_at\` datetime      NULL     DEFAULT CURRENT_TIMESTAMP,
    \`updated_at\` datetime      NULL     DEFAULT CURRENT_TIMESTAMP ON UPDATE CURRENT_TIMESTAMP,
    \`message\`    text           NOT NULL,
    \`count\`      bigint         NOT NULL DEFAULT '1',
    PRIMARY KEY (\`id\`),
    KEY \`vrepl_id_idx\` (\`vrepl_id\`)
) ENGINE = InnoDB CHARSET = utf8mb4`);
  }
  out.push(`CREATE TABLE IF NOT EXISTS ${db}.resharding_journal
(
    \`id\`      bigint NOT NULL,
    \`db_name\` varbinary(255) DEFAULT NULL,
    \`val\`     mediumblob,
    PRIMARY KEY (\`id\`)
) ENGINE = InnoDB CHARSET = utf8mb4`);
  if (variant === 'current') {
    // go/vt/sidecardb/schema/twopc/dt_state.sql and redo_state.sql; the old schema has neither.
    out.push(`CREATE TABLE IF NOT EXISTS ${db}.dt_state
(
  dtid varbinary(512) NOT NULL,
  state bigint NOT NULL,
  time_created bigint NOT NULL,
  primary key(dtid),
  key (time_created)
) ENGINE = InnoDB CHARSET = utf8mb4`);
    out.push(`CREATE TABLE IF NOT EXISTS ${db}.redo_state(
  dtid varbinary(512) NOT NULL,
  state bigint NOT NULL,
  time_created bigint NOT NULL,
  primary key(dtid)
) ENGINE = InnoDB`);
    // VDiff v2's tables (go/vt/sidecardb/schema/vdiff/vdiff.sql, vdiff_table.sql), read for vdiff-evidence;
    // the old variant has none (a sidecar without VDiff v2).
    out.push(`CREATE TABLE IF NOT EXISTS ${db}.vdiff
(
    \`id\`                 bigint(20)   NOT NULL AUTO_INCREMENT,
    \`vdiff_uuid\`         varchar(64)  NOT NULL,
    \`workflow\`           varbinary(1024)       DEFAULT NULL,
    \`keyspace\`           varbinary(256)        DEFAULT NULL,
    \`shard\`              varchar(255) NOT NULL,
    \`db_name\`            varbinary(1024)       DEFAULT NULL,
    \`state\`              varbinary(64)         DEFAULT NULL,
    \`options\`            json                  DEFAULT NULL,
    \`created_at\`         timestamp    NOT NULL DEFAULT CURRENT_TIMESTAMP,
    \`started_at\`         timestamp    NULL     DEFAULT NULL,
    \`liveness_timestamp\` timestamp    NULL     DEFAULT NULL,
    \`completed_at\`       timestamp    NULL     DEFAULT NULL,
    \`last_error\`         varbinary(512)        DEFAULT NULL,
    PRIMARY KEY (\`id\`),
    UNIQUE KEY \`uuid_idx\` (\`vdiff_uuid\`),
    KEY \`state\` (\`state\`),
    KEY \`ks_wf_idx\` (\`keyspace\`(64), \`workflow\`(64))
) ENGINE = InnoDB`);
    out.push(`CREATE TABLE IF NOT EXISTS ${db}.vdiff_table
(
    \`vdiff_id\`      varchar(64)    NOT NULL,
    \`table_name\`    varbinary(128) NOT NULL,
    \`state\`         varbinary(64)           DEFAULT NULL,
    \`lastpk\`        varbinary(2000)         DEFAULT NULL,
    \`table_rows\`    bigint(20)     NOT NULL DEFAULT '0',
    \`rows_compared\` bigint(20)     NOT NULL DEFAULT '0',
    \`mismatch\`      tinyint(1)     NOT NULL DEFAULT '0',
    \`report\`        json                    DEFAULT NULL,
    \`created_at\`    timestamp      NOT NULL DEFAULT CURRENT_TIMESTAMP,
    \`updated_at\`    timestamp      NOT NULL DEFAULT CURRENT_TIMESTAMP ON UPDATE CURRENT_TIMESTAMP,
    PRIMARY KEY (\`vdiff_id\`, \`table_name\`)
) ENGINE = InnoDB CHARSET = utf8mb4`);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------
// Instances with fixture helpers

/** A value for a fixture insert: a plain value, or a SQL expression with its own placeholders. */
export type FixtureValue =
  | string
  | number
  | bigint
  | Buffer
  | null
  | { readonly expr: string; readonly params?: readonly unknown[] };

/** A SQL expression as a fixture value, e.g. `sqlExpr('COMPRESS(?)', ['MySQL56/…'])`. */
export const sqlExpr = (expr: string, params: readonly unknown[] = []): FixtureValue => ({ expr, params });

/** A `vreplication` row to insert; unspecified NOT NULL columns get Vitess-like defaults. */
export interface StreamFixture {
  readonly db_name: string;
  readonly source: FixtureValue;
  readonly workflow?: FixtureValue;
  readonly pos?: FixtureValue;
  readonly stop_pos?: FixtureValue;
  readonly max_tps?: FixtureValue;
  readonly max_replication_lag?: FixtureValue;
  readonly cell?: FixtureValue;
  readonly tablet_types?: FixtureValue;
  readonly time_updated?: FixtureValue;
  readonly transaction_timestamp?: FixtureValue;
  readonly state?: FixtureValue;
  readonly message?: FixtureValue;
  readonly [column: string]: FixtureValue | undefined;
}

/** One general-log entry. */
export interface GeneralLogEntry {
  readonly threadId: number;
  readonly commandType: string;
  readonly argument: string;
  readonly userHost: string;
}

/** One server of a pool, with helpers that act as the fixture root user (one short connection per call). */
export class MariaDbInstance {
  readonly index: number;
  readonly host: string;
  readonly port: number;
  readonly serverId: number;
  readonly root: MariaDbCredentials;
  readonly reader: MariaDbCredentials;

  constructor(info: MariaDbInstanceInfo, pool: Pick<MariaDbPoolInfo, 'root' | 'reader'>) {
    this.index = info.index;
    this.host = info.host;
    this.port = info.port;
    this.serverId = info.serverId;
    this.root = pool.root;
    this.reader = pool.reader;
  }

  /** `host:port`, as a tablet record's mysql_hostname/mysql_port would give it. */
  get endpoint(): string {
    return `${this.host}:${this.port}`;
  }

  /** A new connection as the fixture root user; the caller must `end()` it. */
  rootConnection(): Promise<mysql.Connection> {
    return mysql.createConnection({
      host: this.host,
      port: this.port,
      user: this.root.user,
      password: this.root.password,
      supportBigNumbers: true,
      bigNumberStrings: true,
      dateStrings: true,
      multipleStatements: false,
    });
  }

  /** Runs `fn` with a root connection and always closes it. */
  async withRoot<T>(fn: (c: mysql.Connection) => Promise<T>): Promise<T> {
    const c = await this.rootConnection();
    try {
      return await fn(c);
    } finally {
      await c.end().catch(() => c.destroy());
    }
  }

  /** Runs fixture statements as root, in order, on one connection. */
  async exec(...statements: (string | readonly [string, readonly unknown[]])[]): Promise<void> {
    await this.withRoot(async (c) => {
      for (const s of statements) {
        if (typeof s === 'string') await c.query(s);
        else await c.query(s[0], s[1] as unknown[]);
      }
    });
  }

  /** Runs one query as root and returns its rows as objects. */
  async rows(sql: string, params: readonly unknown[] = []): Promise<Record<string, unknown>[]> {
    return this.withRoot(async (c) => {
      const [rows] = await c.query(sql, params as unknown[]);
      return rows as Record<string, unknown>[];
    });
  }

  /** Creates `sidecarDb` with the sidecar tables ({@link sidecarDdl}). */
  async applySidecarDdl(sidecarDb: string, opts: SidecarDdlOptions = {}): Promise<void> {
    await this.exec(...sidecarDdl(sidecarDb, opts));
  }

  /** Drops a database created by a test. */
  async dropDatabase(name: string): Promise<void> {
    await this.exec(`DROP DATABASE IF EXISTS ${q(name)}`);
  }

  /** Inserts one row into `<sidecarDb>.<table>`; returns the auto-increment id (0 when none). */
  async insertRow(
    sidecarDb: string,
    table: string,
    row: Readonly<Record<string, FixtureValue | undefined>>,
  ): Promise<number> {
    const cols: string[] = [];
    const exprs: string[] = [];
    const params: unknown[] = [];
    for (const [k, v] of Object.entries(row)) {
      if (v === undefined) continue;
      cols.push(q(k));
      if (v !== null && typeof v === 'object' && !Buffer.isBuffer(v)) {
        exprs.push(v.expr);
        params.push(...(v.params ?? []));
      } else {
        exprs.push('?');
        params.push(typeof v === 'bigint' ? v.toString() : v);
      }
    }
    return this.withRoot(async (c) => {
      const [res] = await c.query(
        `INSERT INTO ${q(sidecarDb)}.${q(table)} (${cols.join(', ')}) VALUES (${exprs.join(', ')})`,
        params,
      );
      return Number((res as { insertId?: number }).insertId ?? 0);
    });
  }

  /** Inserts a stream into `<sidecarDb>.vreplication` with Vitess-like defaults; returns its id. */
  insertStream(sidecarDb: string, row: StreamFixture): Promise<number> {
    const now = Math.floor(Date.now() / 1000);
    return this.insertRow(sidecarDb, 'vreplication', {
      workflow: 'wf',
      pos: '',
      max_tps: '9223372036854775807',
      max_replication_lag: '9223372036854775807',
      time_updated: now,
      transaction_timestamp: 0,
      state: 'Running',
      ...row,
    });
  }

  /** Inserts a `copy_state` row; returns its id. */
  insertCopyState(
    sidecarDb: string,
    row: { vrepl_id: number; table_name: string; lastpk?: FixtureValue },
  ): Promise<number> {
    return this.insertRow(sidecarDb, 'copy_state', row);
  }

  /** Inserts a `vreplication_log` row; returns its id. */
  insertLog(
    sidecarDb: string,
    row: {
      vrepl_id: number;
      type: string;
      state: string;
      message: string;
      count?: number;
      created_at?: FixtureValue;
      updated_at?: FixtureValue;
    },
  ): Promise<number> {
    return this.insertRow(sidecarDb, 'vreplication_log', row);
  }

  /** Inserts a `resharding_journal` row (`id` as a decimal string, exact to 64 bits). */
  async insertJournal(sidecarDb: string, row: { id: string; db_name: string; val: string }): Promise<void> {
    await this.insertRow(sidecarDb, 'resharding_journal', {
      id: sqlExpr('CAST(? AS SIGNED)', [row.id]),
      db_name: row.db_name,
      val: row.val,
    });
  }

  /** Creates an account (host `%`) with the given grants, e.g. `['SELECT ON *.*']`; `[]` = no privileges. */
  async createUser(user: string, password: string, grants: readonly string[] = []): Promise<void> {
    await this.exec(
      ['CREATE USER ?@? IDENTIFIED BY ?', [user, '%', password]],
      ...grants.map((g) => [`GRANT ${g} TO ?@?`, [user, '%']] as const),
    );
  }

  /** Drops an account created by a test. */
  async dropUser(user: string): Promise<void> {
    await this.exec(['DROP USER IF EXISTS ?@?', [user, '%']]);
  }

  /**
   * Every general-log entry of the sessions `user` opened (the log is always on, to a table): the `Connect`
   * entry and everything those sessions ran, in log order (the CSV log table keeps insertion order). Use a
   * user no other test uses.
   */
  async generalLog(user: string): Promise<GeneralLogEntry[]> {
    const rows = await this.rows(
      `SELECT thread_id, command_type, CONVERT(argument USING utf8mb4) AS argument, user_host FROM mysql.general_log
        WHERE thread_id IN (SELECT thread_id FROM mysql.general_log WHERE command_type = 'Connect' AND argument LIKE ?)`,
      [`${user.replace(/[\\%_]/g, (m) => `\\${m}`)}@%`],
    );
    return rows.map((r) => ({
      threadId: Number(r.thread_id),
      commandType: String(r.command_type),
      argument: String(r.argument ?? ''),
      userHost: String(r.user_host ?? ''),
    }));
  }
}

/** The instances of a pool, with fixture helpers. */
export const poolInstances = (pool: MariaDbPoolInfo): MariaDbInstance[] =>
  pool.instances.map((i) => new MariaDbInstance(i, pool));

/** The serializable part of a pool (what test/run.ts passes to test processes). */
export const poolInfo = (pool: MariaDbPool): MariaDbPoolInfo => ({
  version: pool.version,
  serverVersion: pool.serverVersion,
  instances: pool.instances,
  root: pool.root,
  reader: pool.reader,
  dir: pool.dir,
});
