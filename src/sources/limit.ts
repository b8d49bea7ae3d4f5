/**
 * A tiny FIFO concurrency limiter for the collector (`--concurrency`).
 *
 * Reading 1,024 primaries must not open 1,024 MySQL connections at once; every source call goes through a
 * limiter so at most `n` run at the same time, started in the order they were submitted.
 */

/** Runs `fn` when a slot is free; resolves or rejects with its outcome. */
export type Limiter = <T>(fn: () => Promise<T>) => Promise<T>;

/**
 * Creates a limiter that runs at most `n` functions at a time, first in first out.
 * A function that throws synchronously or rejects frees its slot like one that resolves.
 */
export function createLimiter(n: number): Limiter {
  if (!Number.isInteger(n) || n < 1) throw new Error(`concurrency must be a positive integer, got ${String(n)}`);
  let active = 0;
  // A plain array with a head index: O(1) dequeue without Array#shift's copying on long queues.
  const queue: (() => void)[] = [];
  let head = 0;

  const next = (): void => {
    if (active >= n || head >= queue.length) return;
    const start = queue[head];
    queue[head] = undefined as unknown as () => void;
    head += 1;
    if (head > 1024 && head * 2 > queue.length) {
      queue.splice(0, head);
      head = 0;
    }
    active += 1;
    start?.();
  };

  return <T>(fn: () => Promise<T>): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      queue.push(() =>
        settle(fn, resolve, reject, () => {
          active -= 1;
          next();
        }),
      );
      next();
    });
}

/** Runs `fn` and settles with its outcome (a synchronous throw included), then calls `release`. */
function settle<T>(
  fn: () => Promise<T>,
  resolve: (value: T) => void,
  reject: (reason: unknown) => void,
  release: () => void,
): void {
  let result: Promise<T>;
  try {
    result = Promise.resolve(fn());
  } catch (e) {
    result = Promise.reject(e);
  }
  result.then(resolve, reject).finally(release);
}

/**
 * Per-host concurrency that adapts to what each server accepts: unlimited at first (the global limiter bounds it),
 * lowered when a server refuses a connection for its connection limit (MySQL `ER_CON_COUNT_ERROR` 1040). Each host
 * has its own FIFO queue; a slot is held for a whole read (connection and statements).
 */
export interface HostGate {
  /** Runs `fn` holding one of `host`'s slots. */
  run<T>(host: string, fn: () => Promise<T>): Promise<T>;
  /**
   * Called by a holder whose connection `host` refused: the limit becomes the number of the other holders (what the
   * server accepted), at least 1. Returns the new limit.
   */
  lower(host: string): number;
  /** The current limit of `host` (Infinity until lowered). */
  limitOf(host: string): number;
}

/** Creates a {@link HostGate}. */
export function createHostGate(): HostGate {
  const hosts = new Map<string, { limit: number; active: number; queue: (() => void)[] }>();
  const stateOf = (host: string) => {
    let s = hosts.get(host);
    if (s === undefined) {
      s = { limit: Number.POSITIVE_INFINITY, active: 0, queue: [] };
      hosts.set(host, s);
    }
    return s;
  };
  const pump = (s: { limit: number; active: number; queue: (() => void)[] }) => {
    while (s.active < s.limit && s.queue.length > 0) {
      s.active += 1;
      s.queue.shift()?.();
    }
  };
  return {
    run<T>(host: string, fn: () => Promise<T>): Promise<T> {
      const s = stateOf(host);
      return new Promise<T>((resolve, reject) => {
        s.queue.push(() =>
          settle(fn, resolve, reject, () => {
            s.active -= 1;
            pump(s);
          }),
        );
        pump(s);
      });
    },
    lower(host) {
      const s = stateOf(host);
      s.limit = Math.max(1, Math.min(s.limit, s.active - 1));
      return s.limit;
    },
    limitOf: (host) => stateOf(host).limit,
  };
}
