import check from '../../checks/vitess-version-mismatch.js';
import { checkTester } from '../helpers/check-tester.js';
import type { ClusterBuilder } from '../helpers/cluster.js';
import { givenVitessVersions } from '../../src/vitess/versions.js';
import { joinRegExp } from '../helpers/regexp.js';
import { moveTablesScenario } from '../helpers/reshard-scenario.js';

/** commerce/0 → customer -80, 80-: MoveTables commerce2customer. */
function moveTables(): ClusterBuilder {
  return moveTablesScenario(['customer']);
}

const build = (gitRev: string, day: string) => ({ gitRev, buildTimestamp: Date.parse(`${day}T00:00:00Z`) / 1000 });

checkTester(check, {
  valid: [
    { name: 'one release everywhere (every sidecar has the v20 options column)', model: moveTables() },
    {
      name: 'every tablet runs the same build',
      reasons: ['mixedVersions'],
      model: (() => {
        const b = moveTables();
        for (const sh of ['-80', '80-']) b.tabletBuild(b.primary('customer', sh), build('a1b2c3', '2025-06-01'));
        return b;
      })(),
    },
    {
      name: 'the given release agrees with the cluster',
      model: moveTables(),
      options: { vitess: givenVitessVersions('22.0', 'flag') },
    },
    {
      name: 'a build that did not answer GetVersion is no evidence',
      reasons: ['mixedVersions'],
      model: (() => {
        const b = moveTables();
        b.tabletBuild(b.primary('customer', '-80'), build('a1b2c3', '2025-06-01'));
        return b.tabletBuild(b.primary('customer', '80-'), { error: 'UNAVAILABLE: dial tcp: connection refused' });
      })(),
    },
  ],
  invalid: [
    {
      name: 'two builds across the primaries (an upgrade half done)',
      model: (() => {
        const b = moveTables();
        b.tabletBuild(b.primary('customer', '-80'), build('a1b2c3', '2025-06-01'));
        return b.tabletBuild(b.primary('customer', '80-'), build('d4e5f6', '2025-12-01'));
      })(),
      findings: [
        {
          message: joinRegExp(
            /^the cluster does not run one Vitess release: tablets run 2 different Vitess builds \(GetVersion\): /,
            /a1b2c3 built 2025-06-01 on 1 tablet, d4e5f6 built 2025-12-01 on 1 tablet; judged against Vitess v20–v24$/,
          ),
          details: { reason: 'mixedVersions', source: 'cluster' },
        },
      ],
    },
    {
      name: 'one primary still has a v19 sidecar schema (no options column)',
      model: moveTables().sidecarColumns('customer', '80-', [
        'id',
        'workflow',
        'source',
        'pos',
        'state',
        'message',
        'db_name',
        'time_updated',
        'transaction_timestamp',
      ]),
      findings: [{ message: /has the options column \(v20\+\) on 2 of 3 primaries but not on zone1-\d+/ }],
    },
    {
      name: '--vitess-version 19 while the sidecars have the v20 options column',
      model: moveTables(),
      options: { vitess: givenVitessVersions('19', 'flag') },
      findings: [
        {
          message: /v19 was given, but the cluster shows v20–v24 \(_vt.vreplication has the options column/,
          details: { source: 'flag', judgedAgainst: 'v19' },
        },
      ],
    },
  ],
});
