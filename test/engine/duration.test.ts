import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatDuration, parseDuration } from '../../src/duration.js';

test('parses Go-style durations', () => {
  assert.equal(parseDuration('30s'), 30_000);
  assert.equal(parseDuration('500ms'), 500);
  assert.equal(parseDuration('2m'), 120_000);
  assert.equal(parseDuration('1h'), 3_600_000);
  assert.equal(parseDuration('1m30s'), 90_000);
  assert.equal(parseDuration('1.5s'), 1500);
});

test('rejects bad durations with one line', () => {
  for (const bad of ['', '30', 's', '10x', '1m 30s', '-5s', '5s!']) {
    assert.throws(
      () => parseDuration(bad, '--max-lag'),
      (e: Error) => /^invalid --max-lag/.test(e.message) && !e.message.includes('\n'),
    );
  }
});

test('formats durations', () => {
  assert.equal(formatDuration(250), '250ms');
  assert.equal(formatDuration(1500), '1.5s');
  assert.equal(formatDuration(125_000), '2m5s');
});
