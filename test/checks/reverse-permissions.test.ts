/**
 * reverse-permissions: server.go:3090/3702 @006b7393 (validateShardsHaveVReplicationPermissions), decided as
 * rpc_vreplication.go sqlValidateVReplicationPermissions does (test/model/vreplication-permissions.test.ts).
 */
import check from '../../checks/reverse-permissions.js';
import type { FilteredUserGrants } from '../../src/readout.js';
import { checkTester } from '../helpers/check-tester.js';
import { cluster } from '../helpers/cluster.js';

const none = { select: 'N', insert: 'N', update: 'N', delete: 'N' };
const all = { select: 'Y', insert: 'Y', update: 'Y', delete: 'Y' };
const grants = (over: Partial<FilteredUserGrants> = {}): FilteredUserGrants => ({
  user: 'vt_filtered',
  global: [none],
  db: [],
  tables: [],
  ...over,
});

/** commerce/0 → customer -80, 80-: MoveTables commerce2customer; `g` on the source primary commerce/0. */
const moveTables = (g: FilteredUserGrants | { error: string } | undefined) => {
  const b = cluster()
    .keyspace('commerce', { shards: ['0'] })
    .keyspace('customer', { shards: ['-80', '80-'] })
    .moveTables('commerce2customer', { from: 'commerce', to: 'customer', tables: ['customer'] });
  if (g !== undefined) b.filteredUserGrants('commerce', '0', g);
  return b;
};

checkTester(check, {
  valid: [
    {
      name: 'a db-level grant on the escaped sidecar name (\\_vt)',
      model: moveTables(grants({ db: [{ db: '\\_vt', ...all }] })),
      reasons: ['filteredUserLacksPrivileges'],
    },
    {
      name: 'a db-level grant on every database (%)',
      model: moveTables(grants({ db: [{ db: '%', ...all }] })),
      reasons: ['filteredUserLacksPrivileges'],
    },
    {
      name: 'a table-level grant on _vt.vreplication',
      model: moveTables(
        grants({ tables: [{ db: '_vt', table: 'vreplication', privs: 'Select,Insert,Update,Delete' }] }),
      ),
      reasons: ['filteredUserLacksPrivileges'],
    },
    { name: 'global privileges', model: moveTables(grants({ global: [all] })) },
    { name: 'grants not in the readout (older snapshot)', model: moveTables(undefined) },
    { name: 'grants not readable: not judged here', model: moveTables({ error: 'denied' }) },
    {
      name: 'a frozen workflow (writes switched) is not switched again',
      model: moveTables(grants()).patchStream('customer', '-80', 1, { state: 'Stopped', message: 'FROZEN' }),
    },
  ],
  invalid: [
    {
      name: 'the filtered user has SELECT only on the sidecar database',
      model: moveTables(grants({ db: [{ db: '\\_vt', ...none, select: 'Y' }] })),
      findings: [
        {
          keyspace: 'commerce',
          shard: '0',
          workflow: 'commerce2customer',
          details: {
            reason: 'filteredUserLacksPrivileges',
            user: 'vt_filtered',
            vitessError:
              'primary tablets are not able to fully manage the reverse vreplication workflow in the commerce ' +
              'keyspace: user vt_filtered does not have the required set of permissions (select,insert,update,' +
              'delete) on the _vt.vreplication table on tablet zone1-0000000100',
          },
        },
      ],
    },
    {
      name: 'the filtered user does not exist',
      model: moveTables(grants({ global: [], db: [{ db: '%', ...all }] })),
      findings: [{ shard: '0', details: { reason: 'filteredUserLacksPrivileges' } }],
    },
  ],
});
