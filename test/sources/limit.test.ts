import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createLimiter } from '../../src/sources/limit.js';

const tick = () => new Promise((r) => setImmediate(r));

test('never runs more than n at once, and starts them in submission order', async () => {
  const limit = createLimiter(3);
  let active = 0;
  let peak = 0;
  const started: number[] = [];
  const gates: (() => void)[] = [];
  const jobs = Array.from({ length: 10 }, (_, i) =>
    limit(async () => {
      started.push(i);
      active += 1;
      peak = Math.max(peak, active);
      await new Promise<void>((r) => gates.push(r));
      active -= 1;
      return i * 2;
    }),
  );
  await tick();
  assert.deepEqual(started, [0, 1, 2]);
  // Finish them out of order: the next waiting job still starts next.
  gates[1]?.();
  await tick();
  assert.deepEqual(started, [0, 1, 2, 3]);
  let released = 0;
  while (released < 10) {
    const open = gates.splice(0);
    released += open.length;
    for (const g of open) g();
    await tick();
  }
  assert.deepEqual(await Promise.all(jobs), [0, 2, 4, 6, 8, 10, 12, 14, 16, 18]);
  assert.equal(peak, 3);
  assert.deepEqual(started, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
});

test('a rejection or a synchronous throw frees the slot and reaches the caller', async () => {
  const limit = createLimiter(1);
  const a = limit(async () => {
    throw new Error('async failure');
  });
  const b = limit(() => {
    throw new Error('sync failure');
  });
  const c = limit(async () => 'ran');
  await assert.rejects(a, /async failure/);
  await assert.rejects(b, /sync failure/);
  assert.equal(await c, 'ran');
});

test('a long queue drains completely', async () => {
  const limit = createLimiter(4);
  const results = await Promise.all(Array.from({ length: 5000 }, (_, i) => limit(async () => i)));
  assert.equal(results.length, 5000);
  assert.equal(results[4999], 4999);
});

test('rejects a bound that is not a positive integer', () => {
  for (const n of [0, -1, 1.5, Number.NaN]) assert.throws(() => createLimiter(n), /positive integer/);
});
