/**
 * A sweep's headline says what was not read, the same way in every format: with a primary unread, no format may
 * say the cluster is clean (the exit code is 1), and text, Markdown and HTML carry one sentence naming the shard.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { runCli, snapshotFile, tempDir } from '../cli/helpers.js';
import { cluster } from '../helpers/cluster.js';

const base = () =>
  cluster()
    .keyspace('commerce', { shards: ['0'], tables: { customer: {} } })
    .keyspace('customer', { shards: ['-80', '80-'] });

const HUMAN = ['text', 'markdown', 'html'] as const;

describe('sweep headline', () => {
  let dir: ReturnType<typeof tempDir>;
  before(() => {
    dir = tempDir('vtpreflight-sweep-');
  });
  after(() => dir.cleanup());

  const sweep = async (snap: string, format: string) => runCli(['sweep', '--snapshot', snap, '--format', format]);

  test('a primary unread: every format says so, none says clean, the same sentence in each', async () => {
    const snap = await snapshotFile(base().unreadable('customer', '-80'), dir.path('unread.json'));
    const sentence = 'no leftovers found in what was read; not read: customer/-80, so leftovers there may be missed';
    for (const format of HUMAN) {
      const run = await sweep(snap, format);
      assert.equal(run.code, 1, run.stderr);
      assert.ok(!/no leftovers of earlier workflows found|leftovers found(?! in what)/i.test(run.stdout), run.stdout);
      assert.ok(run.stdout.includes(sentence), `${format}: ${run.stdout.slice(0, 1500)}`);
    }
  });

  test('a leftover found and a primary unread: the count, and what may be missed', async () => {
    const snap = await snapshotFile(
      base()
        .routing([{ fromTable: 'commerce.customer', toTables: ['customer.customer'] }])
        .unreadable('customer', '80-'),
      dir.path('both.json'),
    );
    for (const format of HUMAN) {
      const run = await sweep(snap, format);
      assert.match(
        run.stdout,
        /leftovers? of earlier workflows found; not read: customer\/80-, so leftovers there may/,
      );
    }
  });

  test('everything read and nothing left: clean in every format', async () => {
    const snap = await snapshotFile(base(), dir.path('clean.json'));
    for (const format of HUMAN) {
      const run = await sweep(snap, format);
      assert.equal(run.code, 0, run.stderr);
      assert.ok(
        run.stdout.includes('no leftovers of earlier workflows found'),
        `${format}: ${run.stdout.slice(0, 800)}`,
      );
    }
  });
});
