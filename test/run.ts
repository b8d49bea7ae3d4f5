/**
 * The test entry (`npm test`): runs every compiled test file under dist/test with Node's test runner.
 * Services the tests need (MariaDB instances) are started by the harness inside the test files that need them.
 */
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const targets = args.length > 0 ? args : [here];
const result = spawnSync(process.execPath, ['--test', '--test-reporter=spec', ...targets], { stdio: 'inherit' });
process.exitCode = result.status ?? 1;
