/**
 * The MariaDB pool for a test file: the one `npm test` started (test/run.ts passes it in the
 * `VTPREFLIGHT_TEST_MARIADB` env var), or a private pool when a file runs alone
 * (`node --test dist/test/sources/sidecar.test.js`), stopped when the file's tests end.
 *
 * Usage, at the top level of a test file:
 * ```ts
 * const pool = await testPool();          // { info, instances: MariaDbInstance[], uniqueName, ... }
 * const db = pool.uniqueName('_vt');      // e.g. `_vt_t4821_3_9f2a`
 * ```
 *
 * The env var holds {@link MariaDbPoolInfo} as JSON, e.g.
 * ```json
 * { "version": 1, "serverVersion": "10.11.19-MariaDB-0+deb12u1-log",
 *   "instances": [ { "index": 0, "host": "127.0.0.1", "port": 40123, "serverId": 1, "pid": 4242 }, … ],
 *   "root":   { "user": "vtroot",      "password": "root-…" },
 *   "reader": { "user": "vtpreflight", "password": "reader-…" },
 *   "dir": "/tmp/vtpreflight-mariadb-pool-4200-1a2b3c4d" }
 * ```
 * `root` has every privilege (fixtures only); `reader` has `SELECT ON *.*`, what vtpreflight needs.
 *
 * ## Sharing convention (tests in several processes use the same servers at the same time)
 * - Never touch what you did not create. Create your own sidecar databases with names from
 *   `pool.uniqueName(prefix)`, use your own `db_name` values, your own users (`uniqueName('u')`), and drop
 *   them at the end if you like (the pool is thrown away anyway).
 * - The default sidecar name `_vt` and the `vt_<keyspace>` schemas of a shared server belong to whoever
 *   holds the server's `vtpreflight:_vt` lock: take it with {@link withServerLock} (MariaDB `GET_LOCK`,
 *   so it works across processes) before creating or changing them, and clean them up before releasing it.
 *   Prefer a keyspace `sidecar_db_name` from `uniqueName` where the test allows it.
 * - Never change global server state (variables, the general log, users you did not create). The general log
 *   is always on (`log_output=TABLE`); read your own sessions with `instance.generalLog(yourUser)`.
 * - Never stop or restart a shared server. A test that needs a server to go down starts a private pool
 *   (`startMariaDbPool(1)`) and stops it itself.
 */
import { after } from 'node:test';
import { randomBytes } from 'node:crypto';
import type mysql from 'mysql2/promise';
import {
  type MariaDbInstance,
  killPoolSync,
  poolInfo,
  poolInstances,
  startMariaDbPool,
  stopPool,
  type MariaDbPool,
  type MariaDbPoolInfo,
} from './mariadb.js';

/** The env var holding the pool's {@link MariaDbPoolInfo} as JSON. */
export const POOL_ENV = 'VTPREFLIGHT_TEST_MARIADB';

/** Size of a private pool (a file run alone) unless the test asks for more. */
const PRIVATE_POOL_SIZE = 2;

/** What a test file gets. */
export interface TestPool {
  readonly info: MariaDbPoolInfo;
  readonly instances: readonly MariaDbInstance[];
  /** True when this process started the pool (the file runs alone). */
  readonly private: boolean;
  /** A name no other test (in any process of this run) gets: `<prefix>_t<pid>_<n>_<random>`, at most 64 chars. */
  uniqueName(prefix: string): string;
  /** The instance at `i` modulo the pool size (so a test written for 3 servers still runs on a pool of 2). */
  instance(i: number): MariaDbInstance;
}

let counter = 0;
let cached: Promise<TestPool> | null = null;

function parseInfo(text: string): MariaDbPoolInfo {
  const info = JSON.parse(text) as MariaDbPoolInfo;
  if (info.version !== 1 || !Array.isArray(info.instances) || info.instances.length === 0) {
    throw new Error(`${POOL_ENV} is not a version 1 pool with instances`);
  }
  return info;
}

function wrap(info: MariaDbPoolInfo, isPrivate: boolean): TestPool {
  const instances = poolInstances(info);
  return {
    info,
    instances,
    private: isPrivate,
    uniqueName(prefix: string): string {
      counter += 1;
      return `${prefix}_t${process.pid}_${counter}_${randomBytes(2).toString('hex')}`.slice(0, 64);
    },
    instance(i: number): MariaDbInstance {
      return instances[i % instances.length] as MariaDbInstance;
    },
  };
}

/**
 * The pool for this test file (the same object on every call). Call it at the top level of the file: when
 * it starts a private pool it registers an `after` hook (and an exit handler) that stops it.
 */
export function testPool(opts: { minInstances?: number } = {}): Promise<TestPool> {
  if (cached) return cached;
  const fromEnv = process.env[POOL_ENV];
  if (fromEnv) {
    cached = Promise.resolve(wrap(parseInfo(fromEnv), false));
    return cached;
  }
  cached = (async () => {
    const pool: MariaDbPool = await startMariaDbPool(Math.max(PRIVATE_POOL_SIZE, opts.minInstances ?? 0));
    const onExit = () => killPoolSync(pool);
    process.once('exit', onExit);
    after(async () => {
      process.removeListener('exit', onExit);
      await stopPool(pool);
    });
    return wrap(poolInfo(pool), true);
  })();
  return cached;
}

/**
 * Runs `fn` while holding the named server-wide lock on `instance` (MariaDB `GET_LOCK`, held by a dedicated
 * root connection, so it excludes other test processes too). The default name guards the `_vt` sidecar.
 */
export async function withServerLock<T>(
  instance: MariaDbInstance,
  fn: () => Promise<T>,
  opts: { name?: string; timeoutSeconds?: number } = {},
): Promise<T> {
  const name = opts.name ?? 'vtpreflight:_vt';
  const conn: mysql.Connection = await instance.rootConnection();
  try {
    const [rows] = await conn.query('SELECT GET_LOCK(?, ?) AS got', [name, opts.timeoutSeconds ?? 120]);
    if (Number((rows as { got: unknown }[])[0]?.got) !== 1)
      throw new Error(`could not take lock ${name} on ${instance.endpoint}`);
    try {
      return await fn();
    } finally {
      await conn.query('SELECT RELEASE_LOCK(?)', [name]);
    }
  } finally {
    await conn.end().catch(() => conn.destroy());
  }
}

/** A private server (never shared): its instance and the pool it belongs to (for its pid). */
export interface PrivateServer {
  readonly pool: MariaDbPool;
  readonly instance: MariaDbInstance;
  /** The mariadbd pid, for SIGSTOP/SIGCONT/SIGKILL by tests that own it. */
  readonly pid: number;
  /** Stops it (idempotent); call it from an `after` hook (at process exit it is killed in any case). */
  stop(): Promise<void>;
}

/**
 * Starts a private MariaDB server with extra `mariadbd` arguments (TLS files, a low `--max-connections`), for tests
 * that change what the shared pool must never change or that stop the server. The caller stops it in an `after`
 * hook (an `after` registered from inside a `before` hook would run at once); an exit handler kills it regardless.
 */
export async function privateServer(extraArgs: readonly string[] = []): Promise<PrivateServer> {
  const pool = await startMariaDbPool(1, { extraArgs });
  const onExit = () => killPoolSync(pool);
  process.once('exit', onExit);
  let stopped: Promise<void> | null = null;
  const stop = (): Promise<void> => {
    if (stopped === null) {
      const child = pool.processes[0];
      // A stopped (SIGSTOP) server cannot take SIGTERM; wake it first so it can exit.
      if (child?.pid !== undefined && child.exitCode === null && child.signalCode === null) {
        try {
          process.kill(child.pid, 'SIGCONT');
        } catch {
          // already gone
        }
      }
      stopped = stopPool(pool).finally(() => process.removeListener('exit', onExit));
    }
    return stopped;
  };
  const info = poolInfo(pool);
  const instance = poolInstances(info)[0] as MariaDbInstance;
  return { pool, instance, pid: pool.instances[0]?.pid ?? 0, stop };
}
