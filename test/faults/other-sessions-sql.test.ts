/**
 * Other sessions' SQL: findings and `snapshot --redact` show a statement's shape (digest, verb, tables), never its
 * literals or comments. The reader digests what it reads (`statementDigest`), and a snapshot from an older reader
 * that still carries a comment is reduced to the shape when checked and when redacted.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { statementDigest } from '../../src/sources/sidecar.js';
import { redactReadout } from '../../src/sources/redact.js';
import { shapeText, statementShape } from '../../src/vitess/sql-shape.js';
import { runCli, snapshotFile, tempDir } from '../cli/helpers.js';
import { cluster } from '../helpers/cluster.js';

const TOKEN = 'tok_9f8e7d6c';
const EMAIL = 'alice@example.com';
const HOSTILE = `/* api_token=${TOKEN} */ UPDATE \`customer\` SET note = 'it''s ${EMAIL}', n = 0x1F, x = 42 WHERE id = 7 -- password=${TOKEN}\n AND y = "dq ${EMAIL}" # trailing ${TOKEN}`;

test('statementShape: literals and comments gone; verb and tables named', () => {
  const s = statementShape(HOSTILE);
  assert.equal(s.digest, 'UPDATE `customer` SET note = ?, n = ?, x = ? WHERE id = ? AND y = ?');
  assert.equal(s.verb, 'UPDATE');
  assert.deepEqual(s.tables, ['customer']);
  assert.equal(shapeText(s), 'UPDATE on customer');
  assert.equal(statementDigest(HOSTILE), s.digest, 'the reader keeps only the shape');
  const join = statementShape('/*+ hint */ select a from db1.t1 join `t 2` on x = 1 where b in (select c from t3)');
  assert.deepEqual([join.verb, join.tables], ['SELECT', ['db1.t1', 't 2', 't3']]);
  assert.equal(join.digest, 'select a from db1.t1 join `t 2` on x = ? where b in (select c from t3)');
  // Quotes inside a comment, and comment markers inside a string, do not confuse it.
  assert.equal(statementShape("select '/* x */', 1 /* it's */").digest, 'select ?, ?');
  // Idempotent: a digest's shape is itself.
  assert.equal(statementShape(s.digest).digest, s.digest);
});

const moveTables = () =>
  cluster()
    .keyspace('commerce', { shards: ['0'], tables: { customer: {} } })
    .keyspace('customer', {
      shards: ['-80', '80-'],
      tables: { customer: { columnVindexes: [{ name: 'hash', columns: ['customer_id'] }] } },
    })
    .moveTables('commerce2customer', { from: 'commerce', to: 'customer', tables: ['customer'] })
    .activity('commerce', '0', {
      // As an older reader wrote it: the digest still carried the comment.
      transactions: [
        {
          thread_id: 1000,
          user: 'app_rw',
          trx_seconds: 40,
          digest: `/* api_token=${TOKEN} */ UPDATE \`customer\` SET x = ?`,
        },
      ],
      metadataLocks: {
        instrumented: true,
        locks: [
          {
            thread_id: 1000,
            table_name: 'customer',
            lock_type: 'SHARED_WRITE',
            lock_duration: 'TRANSACTION',
            lock_status: 'GRANTED',
            digest: `/* api_token=${TOKEN} */ UPDATE \`customer\` SET x = ?`,
          },
        ],
      },
    });

test('a long transaction names the shape in every format; snapshot --redact keeps only the shape', async () => {
  const dir = tempDir('vtpreflight-sql-');
  try {
    const snap = await snapshotFile(moveTables(), dir.path('s.json'));
    for (const format of ['json', 'text', 'markdown', 'html', 'junit']) {
      const run = await runCli(['check', '--snapshot', snap, '--format', format, '--verbose']);
      assert.ok(!run.stdout.includes(TOKEN), `${format} carries the comment`);
      assert.match(run.stdout, /UPDATE on customer/, format);
    }
    const json = JSON.parse((await runCli(['check', '--snapshot', snap, '--format', 'json'])).stdout) as {
      findings: { check: string; details?: Record<string, unknown> }[];
    };
    const f = json.findings.find((x) => x.check === 'long-transactions');
    assert.deepEqual(
      [f?.details?.verb, f?.details?.tables, f?.details?.digest],
      ['UPDATE', ['customer'], 'UPDATE `customer` SET x = ?'],
    );
    const redacted = JSON.stringify(redactReadout(moveTables().readout()));
    assert.ok(!redacted.includes(TOKEN), 'snapshot --redact carries the comment');
    assert.ok(redacted.includes('UPDATE `customer` SET x = ?'));
  } finally {
    dir.cleanup();
  }
});
