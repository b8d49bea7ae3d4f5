/** The subset match of the table tests (check-tester.ts) and the end-to-end expectations (test/e2e/expect.ts). */
import assert from 'node:assert/strict';

/**
 * Asserts that `actual` matches `expected` at `path`: a RegExp matches a string, a function is a predicate, an object
 * matches the listed fields only (recursively), anything else is deep-equal.
 */
export function matchValue(actual: unknown, expected: unknown, path: string): void {
  if (expected instanceof RegExp) {
    assert.ok(
      typeof actual === 'string' && expected.test(actual),
      `${path}: ${JSON.stringify(actual)} does not match ${expected}`,
    );
  } else if (typeof expected === 'function') {
    assert.ok(
      (expected as (v: unknown) => boolean)(actual),
      `${path}: ${JSON.stringify(actual)} fails ${expected.toString()}`,
    );
  } else if (expected !== null && typeof expected === 'object' && !Array.isArray(expected)) {
    assert.ok(
      actual !== null && typeof actual === 'object',
      `${path}: expected an object, got ${JSON.stringify(actual)}`,
    );
    for (const [k, v] of Object.entries(expected))
      matchValue((actual as Record<string, unknown>)[k], v, `${path}.${k}`);
  } else {
    assert.deepEqual(actual, expected, path);
  }
}
