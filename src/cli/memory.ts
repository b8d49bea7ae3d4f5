/**
 * The heap governor: keeps a run's heap near what it holds instead of letting V8's old generation grow several times
 * over before collecting it.
 *
 * Reading a big cluster makes garbage that outlives V8's young generation: each of 3,073 MySQL sessions and 9,219
 * gRPC calls at 1,024 shards lives for a few round trips, so its objects are promoted and stay until a full
 * collection, which V8 starts only once the old generation has grown by a factor of the heap it kept last time. The
 * run's peak memory was that garbage (bench/README.md): 325–340 MB at 1,024 shards, with about 60 MB live.
 *
 * Every {@link CHECK_EVERY_MS} the governor reads the heap's used size and collects fully when it exceeds both
 * {@link FLOOR_BYTES} and {@link GROWTH} times what the last collection kept. A run that never reaches the floor (every
 * cluster of fewer than a few hundred shards) is never collected by it. Each collection stops the run for the time a
 * full mark-compact of the live heap takes (tens of milliseconds at 1,024 shards, a handful of times a run).
 */
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** Below this heap size the governor never collects. */
export const FLOOR_BYTES = 96 * 1024 * 1024;
/** Collect when the heap is this many times what the last collection kept. */
export const GROWTH = 2;
export const CHECK_EVERY_MS = 50;

/** The decision, separate from timers and V8 so that a test can drive it. */
export interface HeapGovernor {
  /** Looks at the heap once; collects when it has grown past the bound. Returns whether it collected. */
  tick(): boolean;
  /** Full collections so far. */
  readonly collections: () => number;
}

export function createHeapGovernor(
  usedBytes: () => number,
  collect: () => void,
  floorBytes = FLOOR_BYTES,
  growth = GROWTH,
): HeapGovernor {
  let kept = 0;
  let count = 0;
  return {
    tick: () => {
      if (usedBytes() <= Math.max(floorBytes, kept * growth)) return false;
      collect();
      count++;
      kept = usedBytes();
      return true;
    },
    collections: () => count,
  };
}

/**
 * V8's full collection as a function: the process's own `gc` when node runs with `--expose-gc`, otherwise obtained
 * from a new context with the flag set for that moment only (as test runners do). Null when this V8 offers neither.
 */
export function fullCollection(): (() => void) | null {
  const own = (globalThis as { gc?: unknown }).gc;
  if (typeof own === 'function') return own as () => void;
  try {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as unknown;
    return typeof gc === 'function' ? (gc as () => void) : null;
  } catch {
    return null;
  } finally {
    setFlagsFromString('--no-expose-gc');
  }
}

/** Starts the governor on this process's heap; returns the function that stops it. */
export function startHeapGovernor(): () => void {
  const gc = fullCollection();
  if (gc === null) return () => {};
  const governor = createHeapGovernor(() => getHeapStatistics().used_heap_size, gc);
  const timer = setInterval(() => governor.tick(), CHECK_EVERY_MS);
  timer.unref();
  return () => clearInterval(timer);
}
