/**
 * `npm run bench`: every benchmark, one after the other — the GTID set operations (`gtid.ts`), the checks against
 * 4,000 and 16,000 routed tables (`routing.ts`), then the scale
 * benchmark (`scale.ts`: the real `check` against simulated 64-, 256- and 1,024-shard Reshards and a 256 × 256
 * Materialize by default, against the minimal client and the replay lower bound). `--json` prints one JSON object
 * per line (per operation for GTID, per configuration for scale) and nothing else on stdout, for machines tracking
 * regressions. Scale flags (`--runs`, `--rtt`, `--concurrency`, `--only`, `--profile`) pass through; `--only`
 * skips the GTID and routing benchmarks. The big-primary case (`big-primary.ts`: the tablet reader's statements
 * against one real MariaDB primary of 20,000 tables and 300,000 log rows, several minutes) is opt-in: `--big-primary`
 * runs it after the others, `--only big-primary` alone.
 */
import { pathToFileURL } from 'node:url';
import { runBigPrimaryBench } from './big-primary.js';
import { runGtidBench } from './gtid.js';
import { runRoutingBench } from './routing.js';
import { runScaleBench, scaleOptionsFromArgv } from './scale.js';

/** Runs the benchmarks with this process's arguments. */
export async function runBenchmarks(argv: readonly string[]): Promise<void> {
  const json = argv.includes('--json');
  const only = argv[argv.indexOf('--only') + 1];
  if (argv.includes('--only') && only === 'big-primary') {
    await runBigPrimaryBench({ json });
    return;
  }
  const scale = scaleOptionsFromArgv(argv);
  if (scale.configs === undefined) {
    await runGtidBench({ json: scale.json });
    if (!scale.json) console.log('');
    await runRoutingBench({ json: scale.json });
    if (!scale.json) console.log('');
  }
  await runScaleBench(scale);
  if (argv.includes('--big-primary')) {
    if (!scale.json) console.log('');
    await runBigPrimaryBench({ json });
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await runBenchmarks(process.argv.slice(2));
}
