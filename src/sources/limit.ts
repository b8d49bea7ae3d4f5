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
  /**
   * Records that `host` refused a connection for its connection limit, with what the refused read answered: no new
   * connection to it is tried before the next step of `backoffMs` (one wait for the whole host, not one per read),
   * and after the last step none at all ({@link HostGate.refusedFor}).
   */
  refused(host: string, answer: unknown, backoffMs: readonly number[]): void;
  /** Records that `host` accepted a connection: its refusals are forgotten. */
  accepted(host: string): void;
  /** Milliseconds before a connection to `host` may be tried (0 when it may be now). */
  waitMs(host: string): number;
  /** The answer of `host`'s last refusal when it refused once for every backoff step: try no more; else null. */
  refusedFor(host: string): unknown;
  /** The answer of `host`'s last refusal since it last accepted, or null. */
  lastRefusal(host: string): unknown;
}

/** Creates a {@link HostGate}. */
export function createHostGate(): HostGate {
  interface HostState {
    limit: number;
    active: number;
    queue: (() => void)[];
    refusals: number;
    notBefore: number;
    exhausted: boolean;
    last: unknown;
  }
  const hosts = new Map<string, HostState>();
  const stateOf = (host: string): HostState => {
    let s = hosts.get(host);
    if (s === undefined) {
      s = {
        limit: Number.POSITIVE_INFINITY,
        active: 0,
        queue: [],
        refusals: 0,
        notBefore: 0,
        exhausted: false,
        last: null,
      };
      hosts.set(host, s);
    }
    return s;
  };
  const pump = (s: HostState) => {
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
    refused(host, answer, backoffMs) {
      const s = stateOf(host);
      s.last = answer;
      // Reads that were already connecting when the host filled up count once: the wait is already on.
      if (Date.now() < s.notBefore) return;
      const wait = backoffMs[s.refusals];
      s.refusals += 1;
      if (wait === undefined) {
        s.exhausted = true;
        return;
      }
      s.notBefore = Date.now() + wait + Math.floor(Math.random() * wait);
    },
    accepted(host) {
      const s = stateOf(host);
      s.refusals = 0;
      s.notBefore = 0;
      s.exhausted = false;
      s.last = null;
    },
    lastRefusal: (host) => stateOf(host).last,
    waitMs: (host) => Math.max(0, stateOf(host).notBefore - Date.now()),
    refusedFor: (host) => (stateOf(host).exhausted ? stateOf(host).last : null),
  };
}
