/**
 * long-transactions. Field evidence: vitessio/vitess #20340 (LOCK TABLES on the source
 * waiting on an application transaction's metadata lock outlives the keyspace lock's lease), PR #11387 (SwitchWrites
 * timed out "presumably due to a long-living transaction"), #14276 (`lock table corder write; select sleep(600)`),
 * #9400 / PR #9450 / PR #9481 (why SwitchWrites runs LOCK TABLES). Upstream: `go/vt/vtctl/workflow/server.go`
 * `switchWrites` (`lockTablesCycles`), `traffic_switcher.go` `executeLockTablesOnSource`.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import check from '../../checks/long-transactions.js';
import { runChecks } from '../../src/index.js';
import type { MetadataLockRow } from '../../src/readout.js';
import { checkTester } from '../helpers/check-tester.js';
import { cluster } from '../helpers/cluster.js';
import { moveTablesScenario } from '../helpers/reshard-scenario.js';

const SOURCE_PRIMARY = 'zone1-0000000100';

/** commerce/0 (…100) → customer -80, 80-: MoveTables commerce2customer of customer and corder. */
const moveTables = () => moveTablesScenario();

const lock = (o: Partial<MetadataLockRow>): MetadataLockRow => ({
  thread_id: 1000,
  table_name: 'customer',
  lock_type: 'SHARED_WRITE',
  lock_duration: 'TRANSACTION',
  lock_status: 'GRANTED',
  digest: null,
  ...o,
});

const CONSEQUENCE =
  'SwitchTraffic\'s LOCK TABLES corder, customer READ on this primary waits for it after writes are already stopped, and the switch fails ("failed to execute LOCK TABLES … on sources") or outlives its keyspace lock';

const UPDATE = 'UPDATE `customer` SET `name` = ? WHERE `customer_id` = ?';

/** An idle application transaction of `age` seconds that wrote `table`. */
const writer = (age: number, table = 'customer', lockType = 'SHARED_WRITE') =>
  moveTables().activity('commerce', '0', {
    transactions: [{ thread_id: 1000, user: 'app_rw', trx_seconds: age, digest: UPDATE }],
    metadataLocks: { instrumented: true, locks: [lock({ table_name: table, lock_type: lockType })] },
  });

checkTester(check, {
  valid: [
    { name: 'no open transaction on the source primary', model: moveTables().activity('commerce', '0', {}) },
    { name: 'a readout without the read (older snapshot)', model: moveTables() },
    {
      name: 'a writer of a moved table open for 4 s (below 5 s)',
      model: writer(4),
      reasons: ['movedTableLocked'],
    },
    {
      name: 'a 60 s writer of a table that is not moved',
      model: writer(60, 'zip'),
      reasons: ['movedTableLocked'],
    },
    {
      name: 'a 60 s reader of a moved table (SHARED_READ does not block LOCK TABLES … READ)',
      model: writer(60, 'customer', 'SHARED_READ'),
      reasons: ['movedTableLocked'],
    },
    {
      name: 'a granted exclusive lock request is not queued; a pending shared read is not',
      model: moveTables().activity('commerce', '0', {
        metadataLocks: { instrumented: true, locks: [lock({ lock_type: 'SHARED_READ', lock_status: 'PENDING' })] },
      }),
      reasons: ['movedTableLockQueued'],
    },
    {
      name: 'a 4 s transaction where metadata locks are not recorded',
      model: moveTables().activity('commerce', '0', {
        transactions: [{ trx_seconds: 4 }],
        metadataLocks: { instrumented: false, locks: [] },
      }),
      reasons: ['longTransaction'],
    },
    {
      name: 'a 600 s read-only snapshot (no row modified, no row lock: a dump) where metadata locks are not recorded',
      model: moveTables().activity('commerce', '0', {
        transactions: [{ trx_seconds: 600, rows_modified: 0, tables_locked: 0 }],
        metadataLocks: { instrumented: false, locks: [] },
      }),
      reasons: ['longTransaction'],
    },
    {
      name: 'a long transaction on a target primary (LOCK TABLES runs on the sources)',
      model: moveTables().activity('customer', '-80', {
        transactions: [{ trx_seconds: 60 }],
        metadataLocks: { instrumented: false, locks: [] },
      }),
      reasons: ['longTransaction'],
    },
    {
      name: 'open transactions refused (no PROCESS): not judged here, the read failure leaves it unverified',
      model: moveTables().activity('commerce', '0', {
        transactions: { error: 'Access denied; you need (at least one of) the PROCESS privilege(s)' },
      }),
      reasons: ['movedTableLocked', 'longTransaction'],
    },
    {
      name: 'a Reshard takes no LOCK TABLES',
      model: cluster()
        .keyspace('customer', { shards: ['0', '-80', '80-'], notServing: ['-80', '80-'] })
        .reshard('cust2cust', { keyspace: 'customer', from: ['0'], to: ['-80', '80-'] })
        .activity('customer', '0', {
          transactions: [{ trx_seconds: 60 }],
          metadataLocks: { instrumented: false, locks: [] },
        }),
      reasons: ['longTransaction'],
    },
  ],
  invalid: [
    {
      name: 'an idle application transaction that updated customer 37 s ago (#20340)',
      model: writer(37),
      findings: [
        {
          reason: 'movedTableLocked',
          severity: 'warning',
          keyspace: 'commerce',
          shard: '0',
          tablet: SOURCE_PRIMARY,
          message:
            'session 1000 (user app_rw, idle, statement UPDATE on customer "UPDATE `customer` SET `name` = ? WHERE `customer_id` = ?") holds a SHARED_WRITE metadata lock on customer on the primary of commerce/0 in a transaction open for 37 s: SwitchTraffic\'s LOCK TABLES corder, customer READ on this primary waits for it after writes are already stopped, and the switch fails ("failed to execute LOCK TABLES … on sources") or outlives its keyspace lock',
          details: {
            workflow: 'customer.commerce2customer',
            threadId: 1000,
            user: 'app_rw',
            ageSeconds: 37,
            digest: UPDATE,
            tables: ['customer'],
            sessions: 1,
          },
        },
      ],
    },
    {
      name: 'an explicit LOCK TABLES corder WRITE (#14276), and the oldest of two writers is reported',
      model: moveTables().activity('commerce', '0', {
        transactions: [
          { thread_id: 7, user: 'batch', trx_seconds: 120, command: 'Query', digest: 'DELETE FROM `corder`' },
          { thread_id: 8, user: 'app_rw', trx_seconds: 30 },
        ],
        metadataLocks: {
          instrumented: true,
          locks: [
            lock({ thread_id: 8, table_name: 'customer' }),
            lock({ thread_id: 7, table_name: 'corder' }),
            lock({ thread_id: 9, table_name: 'corder', lock_type: 'SHARED_NO_READ_WRITE', lock_duration: 'EXPLICIT' }),
          ],
        },
      }),
      findings: [
        {
          reason: 'movedTableLocked',
          message:
            'session 7 (user batch, statement DELETE on corder "DELETE FROM `corder`") holds a SHARED_WRITE metadata lock on corder on the primary of commerce/0 (and 2 other sessions) in a transaction open for 120 s: ' +
            CONSEQUENCE,
          details: { threadId: 7, user: 'batch', ageSeconds: 120, sessions: 3 },
        },
      ],
    },
    {
      name: 'only an explicit LOCK TABLES … WRITE, outside any transaction',
      model: moveTables().activity('commerce', '0', {
        metadataLocks: {
          instrumented: true,
          locks: [lock({ thread_id: 9, lock_type: 'SHARED_NO_READ_WRITE', lock_duration: 'EXPLICIT' })],
        },
      }),
      findings: [
        {
          reason: 'movedTableLocked',
          message:
            'session 9 holds a SHARED_NO_READ_WRITE metadata lock on customer on the primary of commerce/0 by an explicit LOCK TABLES, outside any transaction: ' +
            CONSEQUENCE,
          details: { threadId: 9, user: null, ageSeconds: null },
        },
      ],
    },
    {
      name: 'an ALTER TABLE queued for an exclusive lock on corder',
      model: moveTables().activity('commerce', '0', {
        metadataLocks: {
          instrumented: true,
          locks: [
            lock({
              thread_id: 12,
              table_name: 'corder',
              lock_type: 'EXCLUSIVE',
              lock_status: 'PENDING',
              digest: 'ALTER TABLE `corder` ADD COLUMN `note` TEXT',
            }),
          ],
        },
      }),
      findings: [
        {
          reason: 'movedTableLockQueued',
          severity: 'warning',
          message:
            'session 12 (statement ALTER on corder "ALTER TABLE `corder` ADD COLUMN `note` TEXT") waits for a EXCLUSIVE metadata lock on corder on the primary of commerce/0, behind another session: ' +
            CONSEQUENCE,
          details: { table: 'corder', lockType: 'EXCLUSIVE', sessions: 1 },
        },
      ],
    },
    {
      name: 'a 12 s transaction on a server without performance_schema (MariaDB default)',
      model: moveTables().activity('commerce', '0', {
        transactions: [
          { thread_id: 31, user: 'app_rw', trx_seconds: 12, digest: UPDATE },
          { thread_id: 32, trx_seconds: 6, rows_modified: 0, tables_locked: 2 },
          { thread_id: 33, trx_seconds: 1 },
          { thread_id: 34, trx_seconds: 900, rows_modified: 0, tables_locked: 0 },
        ],
        metadataLocks: { instrumented: false, locks: [] },
      }),
      findings: [
        {
          reason: 'longTransaction',
          severity: 'warning',
          tablet: SOURCE_PRIMARY,
          message:
            'session 31 (user app_rw, idle, statement UPDATE on customer "UPDATE `customer` SET `name` = ? WHERE `customer_id` = ?") has a transaction open for 12 s on the primary of commerce/0 (and 1 other), which does not record metadata locks (performance_schema), so whether it holds corder, customer is unknown: if it does, SwitchTraffic\'s LOCK TABLES corder, customer READ on this primary waits for it after writes are already stopped, and the switch fails ("failed to execute LOCK TABLES … on sources") or outlives its keyspace lock',
          details: { threadId: 31, ageSeconds: 12, sessions: 2, rowsModified: 1 },
        },
      ],
    },
    {
      name: 'a long transaction from a readout without trx_tables_locked (older snapshot) is judged as before',
      model: moveTables().activity('commerce', '0', {
        transactions: [{ thread_id: 41, trx_seconds: 30, rows_modified: 0, tables_locked: undefined }],
        metadataLocks: { instrumented: false, locks: [] },
      }),
      findings: [{ reason: 'longTransaction', details: { threadId: 41, sessions: 1 } }],
    },
  ],
});

test('a refused open-transactions read is not judged, on one info line naming PROCESS: the verdict stays ready', () => {
  const readout = moveTables()
    .activity('commerce', '0', {
      transactions: {
        error:
          'Access denied; you need (at least one of) the PROCESS privilege(s) for this operation (ER_SPECIFIC_ACCESS_DENIED_ERROR 1227); grant PROCESS to the MySQL user to read open transactions',
      },
    })
    .readout();
  const report = runChecks(readout, {});
  const wf = report.workflows.find((w) => w.workflow === 'commerce2customer');
  // long-transactions can only warn (heuristic): a read only it judges from never leaves a verdict unverified.
  assert.equal(wf?.verdict, 'ready', JSON.stringify(wf?.unverifiedBy));
  assert.deepEqual(wf?.unverifiedBy, []);
  assert.equal(report.summary.exitCode, 0);
  const lines = report.findings.filter((f) => f.check === 'unreachable');
  assert.deepEqual(
    lines.map((f) => [f.reason, f.severity]),
    [['notRead', 'info']],
  );
  assert.match(lines[0]!.message, /INNODB_TRX and PROCESSLIST on 1 primary \(needs PROCESS ON \*\.\*\)/);
});
