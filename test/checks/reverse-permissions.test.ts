/**
 * reverse-permissions: v21–v22 server.go:3090/3702 @006b7393 (validateShardsHaveVReplicationPermissions), decided as
 * rpc_vreplication.go sqlValidateVReplicationPermissions does (test/model/vreplication-permissions.test.ts); v23+
 * server.go:3159/3801 and rpc_vreplication.go:990 @v0.24.4 (the first of SELECT, INSERT, UPDATE, DELETE MySQL denies
 * on the filtered connection).
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
import { moveTablesScenario } from '../helpers/reshard-scenario.js';

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
  const b = moveTablesScenario(['customer']);
  if (g !== undefined) b.filteredUserGrants('commerce', '0', g);
  return b;
};

const v22 = { vitess: givenVitessVersions('22', 'flag') };
const v23 = { vitess: givenVitessVersions('23', 'flag') };
const v24 = { vitess: givenVitessVersions('24.0.4', 'flag') };

checkTester(check, {
  valid: [
    {
      name: 'v23+: the four privileges from different levels (SELECT global, the rest on the sidecar database)',
      model: moveTables(grants({ global: [{ ...none, select: 'Y' }], db: [{ db: '\\_vt', ...all, select: 'N' }] })),
      options: v24,
      reasons: ['filteredUserLacksPermission'],
    },
    {
      name: 'v23+: table-level INSERT, UPDATE, DELETE on vreplication beside a global SELECT',
      model: moveTables(
        grants({
          global: [{ ...none, select: 'Y' }],
          tables: [{ db: '_vt', table: 'vreplication', privs: 'Insert,Update,Delete' }],
        }),
      ),
      options: v23,
      reasons: ['filteredUserLacksPermission'],
    },
    {
      name: 'the filtered user has a mysql.user row with every privilege',
      model: moveTables(grants({ global: [all] })),
      reasons: ['filteredUserNotFound'],
    },
    {
      name: 'a db-level grant on the escaped sidecar name (\\_vt)',
      model: moveTables(grants({ db: [{ db: '\\_vt', ...all }] })),
      options: v22,
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
      name: 'v22: the filtered user has SELECT only on the sidecar database',
      model: moveTables(grants({ db: [{ db: '\\_vt', ...none, select: 'Y' }] })),
      options: v22,
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
      name: 'v22: the four privileges from different levels are refused (its query wants them on one level)',
      model: moveTables(grants({ global: [{ ...none, select: 'Y' }], db: [{ db: '\\_vt', ...all, select: 'N' }] })),
      options: v22,
      findings: [{ details: { reason: 'filteredUserLacksPrivileges' } }],
    },
    {
      name: 'v24: SELECT only on the sidecar database: INSERT is the first statement denied, in the v23+ words',
      model: moveTables(grants({ db: [{ db: '\\_vt', ...none, select: 'Y' }] })),
      options: v24,
      findings: [
        {
          severity: 'error',
          keyspace: 'commerce',
          shard: '0',
          workflow: 'commerce2customer',
          message:
            'the filtered user vt_filtered lacks INSERT on _vt.vreplication on source primary zone1-0000000100 (commerce/0), where the reverse workflow of commerce2customer would run',
          details: {
            reason: 'filteredUserLacksPermission',
            privilege: 'INSERT',
            vitessText:
              'primary tablets are not able to fully manage the reverse vreplication workflow in the commerce keyspace: failed to validate required vreplication metadata permissions: user vt_filtered does not have INSERT permission on _vt.vreplication table on tablet zone1-0000000100: <MySQL error 1142>',
          },
        },
      ],
    },
    {
      name: 'no release given (every supported one): the newest text, and a note',
      model: moveTables(grants()),
      findings: [{ details: { reason: 'filteredUserLacksPermission', privilege: 'SELECT' } }],
    },
    {
      name: 'no mysql.user row for the name read: the tablets may run with another --db_filtered_user',
      model: moveTables(grants({ user: 'vt_filtered', global: [], db: [{ db: '%', ...all }] })),
      findings: [
        {
          severity: 'warning',
          shard: '0',
          message:
            'mysql.user of source primary zone1-0000000100 (commerce/0) has no row for the filtered user vt_filtered: if the tablets run with another --db_filtered_user, pass it with --filtered-user; if not, SwitchTraffic of commerce2customer refuses to create the reverse workflow there',
          details: { reason: 'filteredUserNotFound', user: 'vt_filtered' },
        },
      ],
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
