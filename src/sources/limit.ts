/**
 * A tiny FIFO concurrency limiter for the collector (`--concurrency`, STYLE.md §7).
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
      queue.push(() => {
        let result: Promise<T>;
        try {
          result = Promise.resolve(fn());
        } catch (e) {
          result = Promise.reject(e);
        }
        result.then(resolve, reject).finally(() => {
          active -= 1;
          next();
        });
      });
      next();
    });
}
