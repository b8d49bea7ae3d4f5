/**
 * reverse-permissions: server.go:3090/3702 @006b7393 (validateShardsHaveVReplicationPermissions), decided as
 * rpc_vreplication.go sqlValidateVReplicationPermissions does (test/model/vreplication-permissions.test.ts).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CHECKS } from '../../checks/index.js';
import check from '../../checks/reverse-permissions.js';
import { DEFAULT_ACTION_REQUEST, withDefaults } from '../../src/engine/options.js';
import { runModelChecks } from '../../src/engine/run.js';
import type { FilteredUserGrants } from '../../src/readout.js';
import { givenVitessVersions } from '../../src/vitess/versions.js';
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
    {
      name: 'judged against v20 only: vtctld does not validate the permissions before v21',
      model: moveTables(grants()),
      options: { vitess: givenVitessVersions('20.0', 'flag') },
      reasons: ['filteredUserLacksPrivileges'],
    },
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
              'primary tablets are not able to fully manage the reverse vreplication workflow in the commerce keyspace: user vt_filtered does not have the required set of permissions (select,insert,update,delete) on the _vt.vreplication table on tablet zone1-0000000100',
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

/**
 * Grants not readable (no SELECT on mysql.*): only SwitchTraffic validates them, on the source primaries, so only a
 * switch whose source primary they were not read on is unverified; the verdict names the missing grant.
 */
test('unreadable grants leave only a SwitchTraffic with that source primary unverified', () => {
  const meta = { toolVersion: '0', snapshot: null, startedAt: '2026-01-01T00:00:00.000Z', elapsedMs: 0 };
  const denied = { error: "SELECT command denied to user 'ro'@'%' for table 'user'; grant SELECT on mysql.user, …" };
  const run = (b: ReturnType<typeof moveTables>, action: 'switch' | 'complete' = 'switch') =>
    runModelChecks(b.model(), CHECKS, withDefaults({ action: { ...DEFAULT_ACTION_REQUEST, action } }), {
      ...meta,
      failOn: 'error' as const,
    }).workflows[0]!;
  const onSource = run(moveTables(denied));
  assert.equal(onSource.verdict, 'unverified');
  assert.ok(
    onSource.unverifiedBy.some((u) => /grant SELECT on mysql\.user/.test(u.why)),
    JSON.stringify(onSource.unverifiedBy),
  );
  // Another action does not run the validation.
  assert.equal(run(moveTables(denied), 'complete').unverifiedBy.length, 0);
  // A target primary's grants are not asked for (the reverse workflow runs on the sources).
  const onTarget = run(moveTables(grants({ global: [all] })).filteredUserGrants('customer', '-80', denied));
  assert.deepEqual([onTarget.verdict, onTarget.unverifiedBy], ['ready', []]);
});
