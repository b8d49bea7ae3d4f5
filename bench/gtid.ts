/**
 * GTID set benchmark: two MySQL56 sets of 200 server UUIDs × 1,000 intervals each (the size of a
 * long-lived, often re-parented fleet's `gtid_executed`), parsed, subtracted, united and compared.
 * Prints the median time per operation over several iterations, after a warm-up.
 *
 * Run it with `node dist/bench/gtid.js [--json]`, or through `runGtidBench` from the bench entry.
 */
import { prng } from '../src/sim/prng.js';
import { pathToFileURL } from 'node:url';
import { performance } from 'node:perf_hooks';
import { parseGtidSet, type GtidSet } from '../src/vitess/position.js';

const UUIDS = 200;
const INTERVALS = 1000;
const SHARED_UUIDS = 150;
const WARMUP = 10;
const ITERATIONS = 31;

function uuid(random: () => number): string {
  let hex = '';
  for (let i = 0; i < 32; i++) hex += Math.floor(random() * 16).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** A set in the form MySQL prints (`,\n` between UUID sets, intervals sorted and merged). */
function makeSetText(uuids: readonly string[], random: () => number): string {
  const parts: string[] = [];
  for (const id of uuids) {
    let cursor = 1_000_000 + Math.floor(random() * 50_000_000);
    let text = id;
    for (let i = 0; i < INTERVALS; i++) {
      const start = cursor + 2 + Math.floor(random() * 40);
      const end = start + Math.floor(random() * 300);
      text += start === end ? `:${start}` : `:${start}-${end}`;
      cursor = end;
    }
    parts.push(text);
  }
  return parts.join(',\n');
}

/** Builds the two inputs: 150 UUIDs in common (with different intervals), 50 of each set's own. */
export function makeGtidBenchInputs(): { a: string; b: string } {
  const random = prng(0x5eed);
  const shared = Array.from({ length: SHARED_UUIDS }, () => uuid(random));
  const onlyA = Array.from({ length: UUIDS - SHARED_UUIDS }, () => uuid(random));
  const onlyB = Array.from({ length: UUIDS - SHARED_UUIDS }, () => uuid(random));
  return {
    a: makeSetText([...shared, ...onlyA], prng(1)),
    b: makeSetText([...shared, ...onlyB], prng(2)),
  };
}

interface Result {
  readonly op: string;
  /** Median wall-clock time per run. */
  readonly medianMs: number;
  readonly minMs: number;
  readonly maxMs: number;
  /** Median CPU time per run (all threads of the process): what the work costs when the machine is shared. */
  readonly cpuMedianMs: number;
  readonly iterations: number;
}

/** CPU time of this process (all threads) in ms. */
function cpuMs(): number {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
}

const median = (values: number[]): number => [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)] as number;
const round = (ms: number): number => Math.round(ms * 1000) / 1000;

function measure(op: string, run: () => unknown): Result {
  let sink: unknown;
  for (let i = 0; i < WARMUP; i++) sink = run();
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < ITERATIONS; i++) {
    const startedCpu = cpuMs();
    const started = performance.now();
    sink = run();
    wall.push(performance.now() - started);
    cpu.push(cpuMs() - startedCpu);
  }
  if (sink === Symbol.for('never')) throw new Error('unreachable');
  return {
    op,
    medianMs: round(median(wall)),
    minMs: round(Math.min(...wall)),
    maxMs: round(Math.max(...wall)),
    cpuMedianMs: round(median(cpu)),
    iterations: ITERATIONS,
  };
}

/** Touches every character of `text` the way a parser must; returns something so the loop is not dropped. */
function readEveryCharacter(text: string): number {
  let digits = 0;
  for (let i = 0; i < text.length; i++) {
    const digit = text.charCodeAt(i) - 48;
    if (digit >= 0 && digit <= 9) digits++;
  }
  return digits;
}

/**
 * Runs the GTID benchmark and prints one line per operation: a table by default, one JSON object per
 * line with `json: true` (`{"bench":"gtid","op":"parse A","medianMs":…}`).
 */
export async function runGtidBench(opts: { json: boolean }): Promise<void> {
  const { a, b } = makeGtidBenchInputs();
  const setA = parseGtidSet(a);
  const setB = parseGtidSet(b);
  const both: GtidSet = setA.union(setB);
  const results = [
    // Not a GTID operation: the cost of merely reading every character of A once, the floor for parsing it.
    measure('read A (floor for parse)', () => readEveryCharacter(a)),
    measure('parse A', () => parseGtidSet(a)),
    measure('parse B', () => parseGtidSet(b)),
    measure('subtract A − B', () => setA.subtract(setB)),
    measure('union A ∪ B', () => setA.union(setB)),
    measure('contains (A ∪ B) ⊇ A', () => both.contains(setA)),
    measure('intersect A ∩ B', () => setA.intersect(setB)),
    measure('count A', () => setA.count()),
    measure('toString A', () => setA.toString()),
  ];
  const input = { uuids: UUIDS, intervalsPerUuid: INTERVALS, bytesA: a.length, bytesB: b.length };
  if (opts.json) {
    for (const r of results) console.log(JSON.stringify({ bench: 'gtid', ...r, ...input }));
    return;
  }
  console.log(
    `GTID sets: ${UUIDS} UUIDs × ${INTERVALS} intervals (A ${(a.length / 1e6).toFixed(2)} MB, B ${(b.length / 1e6).toFixed(2)} MB); median of ${ITERATIONS} after ${WARMUP} warm-up runs`,
  );
  const width = Math.max(...results.map((r) => r.op.length));
  const columns = ['median ms', 'min ms', 'max ms', 'CPU median ms'];
  console.log(`${'operation'.padEnd(width)}  ${columns.map((c) => c.padStart(13)).join('  ')}`);
  for (const r of results) {
    const cells = [r.medianMs, r.minMs, r.maxMs, r.cpuMedianMs].map((ms) => ms.toFixed(3).padStart(13));
    console.log(`${r.op.padEnd(width)}  ${cells.join('  ')}`);
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await runGtidBench({ json: process.argv.includes('--json') });
}
