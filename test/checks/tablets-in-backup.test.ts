/**
 * tablets-in-backup. Field evidence: vitessio/vitess #15630 (backups on 32 shards leave
 * almost
 * no window; one failed refresh fails the switch), #16528 (ReverseTraffic refused because of one tablet), PR #10058
 * (the
 * refresh in dry runs). Upstream: `go/vt/topotools/keyspace.go:44` `RefreshTabletsByShard` (hostname-less tablets
 * skipped
 * at :77), `go/vt/vttablet/tabletmanager/rpc_actions.go` `RefreshState` (takes the action lock), `rpc_backup.go`
 * `Backup` / `RestoreFromBackup` (hold it, type BACKUP / RESTORE).
 */
import check from '../../checks/tablets-in-backup.js';
import { checkTester } from '../helpers/check-tester.js';
import { cluster } from '../helpers/cluster.js';
import { moveTablesScenario } from '../helpers/reshard-scenario.js';

// commerce/0: primary zone1-0000000100, replica …101; customer/-80: …110/…111; customer/80-: …120/…121.
const moveTables = () => moveTablesScenario(['customer']);

checkTester(check, {
  valid: [
    { name: 'every tablet serving', model: moveTables() },
    {
      name: 'a backup on a shard the switch does not refresh',
      reasons: ['backupRunning'],
      model: moveTables()
        .keyspace('other', { shards: ['0'] })
        .patchTablet('zone1-0000000131', { type: 'BACKUP' }),
    },
    {
      name: 'a lookup backfill is externalized, not switched: no refresh',
      reasons: ['backupRunning'],
      model: cluster()
        .keyspace('customer', { shards: ['0'] })
        .keyspace('lookup', { shards: ['0'] })
        .lookup('v_lookup', { from: 'customer', to: 'lookup', table: 'v_lookup', ownerTable: 'corder', owned: true })
        .patchTablet('zone1-0000000111', { type: 'BACKUP' }),
    },
    { name: 'tablet records not read: nothing to judge', model: moveTables().topologyUnreadable('tablets') },
    {
      name: 'a restore, and a tablet without hostname, on a shard the switch does not refresh',
      reasons: ['restoreRunning', 'noHostname'],
      model: moveTables()
        .keyspace('other', { shards: ['0'] })
        .patchTablet('zone1-0000000131', { type: 'RESTORE', hostname: '' }),
    },
  ],
  invalid: [
    {
      name: 'a source replica taking a drained backup (#15630)',
      model: moveTables().patchTablet('zone1-0000000101', { type: 'BACKUP' }),
      findings: [
        {
          keyspace: 'commerce',
          shard: '0',
          tablet: 'zone1-0000000101',
          message:
            'tablet zone1-0000000101 of commerce/0 is taking a backup (type BACKUP) and holds its action lock, so the RefreshState SwitchTraffic sends to every tablet of the source shard waits until the backup ends or the refresh times out: "could not refresh all of the tablets involved in the operation"',
          details: {
            reason: 'backupRunning',
            side: 'source',
            workflows: ['customer.commerce2customer'],
            vitessError:
              'could not refresh all of the tablets involved in the operation:\nfailed to successfully refresh all tablets in the commerce/0 source shard (<nil>):\n  failed to refresh tablet zone1-0000000101: context deadline exceeded',
          },
        },
      ],
    },
    {
      name: 'a target replica restoring, and a tablet without hostname (skipped by the refresh: info)',
      model: moveTables()
        .patchTablet('zone1-0000000121', { type: 'RESTORE' })
        .addTablet('customer', '-80', { cell: 'zone2', uid: 200, type: 'RDONLY' })
        .patchTablet('zone2-0000000200', { hostname: '' }),
      findings: [
        {
          keyspace: 'customer',
          shard: '80-',
          tablet: 'zone1-0000000121',
          details: { reason: 'restoreRunning', side: 'target', tabletType: 'RESTORE' },
        },
        {
          severity: 'info',
          keyspace: 'customer',
          shard: '-80',
          tablet: 'zone2-0000000200',
          message: /has no hostname: SwitchTraffic skips its refresh/,
          details: { reason: 'noHostname', tabletType: 'RDONLY' },
        },
      ],
    },
    {
      name: 'a Reshard: its source shard in backup',
      model: cluster()
        .keyspace('customer', { shards: ['0', '-80', '80-'], notServing: ['-80', '80-'] })
        .reshard('cust2cust', { keyspace: 'customer', from: ['0'], to: ['-80', '80-'] })
        .patchTablet('zone1-0000000101', { type: 'BACKUP' }),
      findings: [{ keyspace: 'customer', shard: '0', details: { reason: 'backupRunning', side: 'source' } }],
    },
  ],
});
