import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createHeapGovernor, FLOOR_BYTES, fullCollection, GROWTH } from '../../src/cli/memory.js';

const MB = 1024 * 1024;

describe('heap governor', () => {
  test('collects only past the floor and past GROWTH times what the last collection kept', () => {
    let used = 10 * MB;
    const collected: number[] = [];
    // A collection leaves what the run holds: here 60 MB, then 70 MB.
    let live = 60 * MB;
    const g = createHeapGovernor(
      () => used,
      () => {
        collected.push(used);
        used = live;
      },
    );
    assert.equal(g.tick(), false, 'a small heap is left alone');
    used = FLOOR_BYTES;
    assert.equal(g.tick(), false, 'at the floor: not yet');
    used = FLOOR_BYTES + 1;
    assert.equal(g.tick(), true, 'past the floor: collected');
    assert.equal(used, 60 * MB);
    // Next bound: max(floor, 2 × 60 MB) = 120 MB.
    used = 110 * MB;
    assert.equal(g.tick(), false, 'past the floor but below GROWTH × kept');
    used = 60 * MB * GROWTH + 1;
    live = 70 * MB;
    assert.equal(g.tick(), true);
    assert.deepEqual(collected, [FLOOR_BYTES + 1, 120 * MB + 1]);
    assert.equal(g.collections(), 2);
  });

  test('V8 gives a full collection without --expose-gc, and the flag is off again after', () => {
    const gc = fullCollection();
    assert.equal(typeof gc, 'function');
    gc?.();
    // Only the new context saw the flag: this process's global has no gc (the suite runs without --expose-gc).
    if (!process.execArgv.includes('--expose-gc')) assert.equal((globalThis as { gc?: unknown }).gc, undefined);
  });
});
