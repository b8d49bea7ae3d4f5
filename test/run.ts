/**
 * The test entry (`npm test`): starts the shared MariaDB pool once, runs every compiled test file under
 * dist/test with Node's test runner, then stops the pool (also on Ctrl-C, SIGTERM and failures).
 *
 * Test processes find the pool in `VTPREFLIGHT_TEST_MARIADB` (JSON, see test/harness/mariadb.ts
 * `MariaDbPoolInfo`; test/harness/env.ts reads it and documents how tests share the servers). When that
 * variable is already set, that pool is used and none is started. `VTPREFLIGHT_TEST_MARIADB_COUNT` sets the
 * pool size (default 6). Arguments are passed to `node --test` as the files or directories to run.
 */
import { spawn } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { killPoolSync, poolInfo, startMariaDbPool, stopPool, type MariaDbPool } from './harness/mariadb.js';
import { POOL_ENV } from './harness/env.js';

const here = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);

/**
 * The `*.test.js` files under the given files and directories. Node 20's `--test DIR` would also run every
 * other .js file below a `test` directory (this runner and the harness included), so files are listed here.
 */
function testFiles(paths: readonly string[]): string[] {
  const out: string[] = [];
  const walk = (p: string): void => {
    if (statSync(p).isDirectory()) {
      for (const name of readdirSync(p).sort()) walk(join(p, name));
    } else if (p.endsWith('.test.js')) {
      out.push(p);
    }
  };
  for (const p of paths) {
    if (statSync(p).isDirectory()) walk(p);
    else out.push(p); // a file named explicitly runs whatever its name
  }
  return out;
}

async function main(): Promise<number> {
  let pool: MariaDbPool | null = null;
  const env = { ...process.env };
  if (!env[POOL_ENV]) {
    const count = Number(env.VTPREFLIGHT_TEST_MARIADB_COUNT ?? 6);
    try {
      pool = await startMariaDbPool(Number.isInteger(count) && count > 0 ? count : 6);
    } catch (err) {
      process.stderr.write(`test harness: cannot start MariaDB: ${err instanceof Error ? err.message : String(err)}\n`);
      return 1;
    }
    process.stderr.write(
      `test harness: ${pool.instances.length} MariaDB servers (${pool.serverVersion}) ready in ${pool.startupMs} ms\n`,
    );
    env[POOL_ENV] = JSON.stringify(poolInfo(pool));
  }
  const started = pool;
  const onExit = () => {
    if (started) killPoolSync(started);
  };
  process.once('exit', onExit);

  const files = testFiles(args.length > 0 ? args : [here]);
  if (files.length === 0) {
    process.stderr.write('test harness: no *.test.js files found\n');
    if (started) await stopPool(started);
    return 1;
  }
  // VTPREFLIGHT_TEST_NAME_PATTERN runs only the matching tests (node's --test-name-pattern, which NODE_OPTIONS
  // refuses).
  const pattern = env.VTPREFLIGHT_TEST_NAME_PATTERN ? [`--test-name-pattern=${env.VTPREFLIGHT_TEST_NAME_PATTERN}`] : [];
  const child = spawn(process.execPath, ['--test', '--test-reporter=spec', ...pattern, ...files], {
    stdio: 'inherit',
    env,
  });
  let signalled: NodeJS.Signals | null = null;
  const forward = (sig: NodeJS.Signals) => {
    signalled = sig;
    child.kill(sig);
  };
  process.on('SIGINT', forward);
  process.on('SIGTERM', forward);
  const status = await new Promise<number>((resolve) => {
    child.once('exit', (code, sig) => resolve(code ?? (sig ? 1 : 0)));
    child.once('error', () => resolve(1));
  });
  process.removeListener('SIGINT', forward);
  process.removeListener('SIGTERM', forward);

  if (started) {
    await stopPool(started);
    process.removeListener('exit', onExit);
  }
  return signalled ? 130 : status;
}

// Loaded by a test runner (not as `npm test`'s entry): do nothing rather than recurse.
if (process.env.NODE_TEST_CONTEXT === undefined) process.exitCode = await main();
