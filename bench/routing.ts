/**
 * Routing-rule benchmark: the checks alone (no I/O) against a MoveTables of 4,000 and 16,000 tables from an unsharded
 * keyspace into two shards, with the 6 routing rules per table MoveTables create writes (`t`, `target.t` and
 * `source.t`, each also `@replica` and `@rdonly`, all routed to the source). Prints, per size, the median time of
 * every check together and of the slowest checks, and the ratio between the sizes: linear checks take about 4×
 * at 4× the tables.
 *
 * Run it with `node dist/bench/routing.js [--json]`, or through `runRoutingBench` from the bench entry.
 */
import { pathToFileURL } from 'node:url';
import { performance } from 'node:perf_hooks';
import { CHECKS } from '../checks/index.js';
import { withDefaults } from '../src/engine/options.js';
import { runModelChecks } from '../src/engine/run.js';
import { cluster, type ClusterBuilder } from '../test/helpers/cluster.js';

/** The moved-table counts measured. */
export const ROUTING_SIZES: readonly number[] = [4_000, 16_000];
const RUNS = 3;

/** A MoveTables of `n` tables `t0…` from `commerce` (unsharded) into `customer` (-80, 80-), reads not switched. */
export function moveTablesAt(n: number): ClusterBuilder {
  const tables = Array.from({ length: n }, (_, i) => `t${i}`);
  const sharded = Object.fromEntries(tables.map((t) => [t, { columnVindexes: [{ name: 'hash', columns: ['id'] }] }]));
  return cluster()
    .keyspace('commerce', { shards: ['0'], tables: Object.fromEntries(tables.map((t) => [t, {}])) })
    .keyspace('customer', {
      shards: ['-80', '80-'],
      tables: sharded,
      vindexes: { hash: { type: 'hash', params: {}, owner: '' } },
    })
    .moveTables('commerce2customer', { from: 'commerce', to: 'customer', tables })
    .routing(
      tables.flatMap((t) =>
        ['', '@replica', '@rdonly'].flatMap((suffix) =>
          ['', 'customer.', 'commerce.'].map((prefix) => ({
            fromTable: `${prefix}${t}${suffix}`,
            toTables: [`commerce.${t}`],
          })),
        ),
      ),
    );
}

/** One line of `--json` output. */
export interface RoutingResult {
  readonly tables: number;
  readonly rules: number;
  /** Median ms of every check together. */
  readonly checksMs: number;
  /** Median ms of the five slowest checks. */
  readonly slowest: Readonly<Record<string, number>>;
}

const median = (xs: readonly number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;

/** Runs the benchmark; prints a table (or JSON lines) and returns the results. */
export async function runRoutingBench(o: { json: boolean; sizes?: readonly number[] }): Promise<RoutingResult[]> {
  const out: RoutingResult[] = [];
  for (const n of o.sizes ?? ROUTING_SIZES) {
    const model = moveTablesAt(n).model();
    const totals: number[] = [];
    const perCheck = new Map<string, number[]>();
    for (let i = 0; i < RUNS; i++) {
      const t0 = performance.now();
      const report = runModelChecks(model, CHECKS, withDefaults(), {
        toolVersion: 'bench',
        snapshot: null,
        startedAt: new Date(0).toISOString(),
        elapsedMs: 0,
        failOn: 'error',
      });
      totals.push(performance.now() - t0);
      for (const c of report.checks) perCheck.set(c.id, [...(perCheck.get(c.id) ?? []), c.durationMs]);
    }
    const slowest = [...perCheck.entries()]
      .map(([id, ms]) => [id, median(ms)] as const)
      .sort((a, b) => b[1] - a[1])
      .slice(0, 5);
    const result: RoutingResult = {
      tables: n,
      rules: model.routingRules.ok ? model.routingRules.value.size : 0,
      checksMs: Math.round(median(totals)),
      slowest: Object.fromEntries(slowest),
    };
    out.push(result);
    if (o.json) console.log(JSON.stringify({ bench: 'routing', ...result }));
    else
      console.log(
        `routing rules: ${String(n).padStart(6)} tables, ${String(result.rules).padStart(6)} rules: checks ${String(result.checksMs).padStart(6)} ms (slowest: ${slowest.map(([id, ms]) => `${id} ${ms}`).join(', ')})`,
      );
  }
  if (!o.json && out.length > 1) {
    const [a, b] = [out[0]!, out[out.length - 1]!];
    const factor = (b.checksMs / Math.max(a.checksMs, 1)).toFixed(1);
    console.log(
      `routing rules: ×${(b.tables / a.tables).toFixed(1)} tables → ×${factor} check time (linear: about the same factor)`,
    );
  }
  return out;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await runRoutingBench({ json: process.argv.includes('--json') });
}
