import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  DEFAULT_VITESS_VERSIONS,
  describeVersions,
  formatRange,
  givenVitessVersions,
  parseVersionSpec,
  parseVitessVersion,
  pickRule,
  releaseSatisfies,
  versionsHold,
  type Release,
} from '../../src/vitess/versions.js';
import { inferVitessVersions, newestMajorBuiltAt } from '../../src/model/versions.js';
import { cluster } from '../helpers/cluster.js';
import { moveTablesScenario } from '../helpers/reshard-scenario.js';

const r = (text: string): Release => {
  const [major, minor, patch] = text.split('.').map(Number);
  return { major: major!, minor: minor ?? 0, patch: patch ?? 0 };
};
const range = (text: string) => parseVitessVersion(text);

/**
 * The lag rule of `getVReplicationTrxLag` (heartbeat condition) came with vitessio/vitess PR 17616 and was
 * backported: changelog/19.0/19.0.10/changelog.md (#17642), changelog/20.0/20.0.6/changelog.md (#17643),
 * changelog/21.0/21.0.3/changelog.md (#17644); it is in release-22.0 and main.
 */
const LAG_RULE_17616 = '>=19.0.10 <20 || >=20.0.6 <21 || >=21.0.3';

describe('version specs', () => {
  it('bounds, bare release lines and unions', () => {
    assert.ok(releaseSatisfies(r('20.0.0'), '>=20'));
    assert.ok(!releaseSatisfies(r('19.0.12'), '>=20'));
    assert.ok(releaseSatisfies(r('22.0.2'), '22'));
    assert.ok(!releaseSatisfies(r('23.0.0'), '22'));
    assert.ok(releaseSatisfies(r('22.0.5'), '<23'));
    assert.ok(releaseSatisfies(r('24.0.0'), '*'));
    assert.ok(releaseSatisfies(r('20.0.1'), '<=20.0.1'));
    assert.ok(!releaseSatisfies(r('20.0.2'), '<=20.0.1'));
    assert.ok(releaseSatisfies(r('20.0.2'), '>20.0.1'));
  });
  it('the PR 17616 lag rule holds from its backports on, per release line', () => {
    for (const yes of ['19.0.10', '19.0.12', '20.0.6', '20.0.8', '21.0.3', '21.0.6', '22.0.0', '23.0.0', '24.0.0'])
      assert.ok(releaseSatisfies(r(yes), LAG_RULE_17616), yes);
    for (const no of ['19.0.0', '19.0.9', '20.0.0', '20.0.5', '21.0.0', '21.0.2'])
      assert.ok(!releaseSatisfies(r(no), LAG_RULE_17616), no);
  });
  it('adjacent clauses merge', () => {
    assert.deepEqual(parseVersionSpec('>=19 <20 || >=20 <21').length, 1);
  });
  it('a malformed spec throws (a bug in a check, not user input)', () => {
    assert.throws(() => parseVersionSpec('>=twenty'), /invalid version spec/);
  });
});

describe('--vitess-version values', () => {
  it('accepts X, X.Y, X.Y.Z, a leading v and x for unknown parts', () => {
    assert.equal(formatRange(range('22').lo, range('22').hi), 'v22');
    assert.equal(formatRange(range('22.0').lo, range('22.0').hi), 'v22.0.x');
    assert.equal(formatRange(range('v22.0.3').lo, range('v22.0.3').hi), 'v22.0.3');
    assert.equal(formatRange(range('22.0.x').lo, range('22.0.x').hi), 'v22.0.x');
  });
  it('refuses what is not a release, or a release outside v19–v24', () => {
    assert.throws(() => parseVitessVersion('latest'), /use a Vitess release such as 22, 22.0 or 22.0.3/);
    assert.throws(() => parseVitessVersion('18.0'), /models Vitess v19 to v24/);
    assert.throws(() => parseVitessVersion('25'), /models Vitess v19 to v24/);
  });
});

describe('versionsHold and pickRule', () => {
  it('all / some / none over a range', () => {
    assert.equal(versionsHold(range('22.0'), '>=22'), 'all');
    assert.equal(versionsHold(range('22.0'), '>=23'), 'none');
    assert.equal(versionsHold(DEFAULT_VITESS_VERSIONS, '>=23'), 'some');
    assert.equal(versionsHold(range('20.0.6'), LAG_RULE_17616), 'all');
    assert.equal(versionsHold(range('20.0'), LAG_RULE_17616), 'some');
  });
  const externalize = [
    { versions: '<23', value: 'one vindex named like the workflow, exactly one filter rule' },
    { versions: '>=23', value: 'options.lookup_vindexes, mixed ownership refused' },
  ];
  it('a variant holding for the whole range is exact', () => {
    const p = pickRule(range('22.0.2'), externalize);
    assert.equal(p.exact, true);
    assert.equal(p.note, null);
    assert.equal(p.value, externalize[0]!.value);
  });
  it('variants that disagree across the range: the newest wins, with a note', () => {
    const p = pickRule(DEFAULT_VITESS_VERSIONS, externalize);
    assert.equal(p.exact, false);
    assert.equal(p.value, externalize[1]!.value);
    assert.equal(p.note, 'judged by the rule of Vitess >=23 (the newest in v19–v24); Vitess <23 applies another rule');
  });
  it('v20.0.x straddles the lag backport: judged by the newer rule, saying so', () => {
    const p = pickRule(range('20.0'), [
      { versions: `*`.replace('*', '<19.0.10 || >=20 <20.0.6 || >=21 <21.0.3'), value: 'max(trx, updated)' },
      { versions: LAG_RULE_17616, value: 'heartbeat rule' },
    ]);
    assert.equal(p.value, 'heartbeat rule');
    assert.match(p.note!, /the newest in v20\.0\.x/);
  });
});

describe('describeVersions', () => {
  it('names the source', () => {
    assert.equal(describeVersions(givenVitessVersions('22.0', 'flag')), 'v22.0.x (from --vitess-version)');
    assert.equal(describeVersions(givenVitessVersions('21', 'env')), 'v21 (from VTPREFLIGHT_VITESS_VERSION)');
    assert.match(describeVersions(DEFAULT_VITESS_VERSIONS), /^v19–v24 \(not known/);
  });
});

describe('inferring the range from the cluster', () => {
  const mt = () => moveTablesScenario(['customer']);
  it('the options column on every primary: v20 or newer', () => {
    const v = inferVitessVersions(mt().model());
    assert.equal(v.source, 'cluster');
    assert.equal(formatRange(v.lo, v.hi), 'v20–v24');
    assert.deepEqual(v.evidence, [
      '_vt.vreplication has the options column (multi-tenant MoveTables, v20) on all 3 primaries read',
    ]);
    assert.equal(v.mixed, null);
  });
  it('no options column anywhere: v19', () => {
    const v = inferVitessVersions(mt().withoutSidecarColumns(['options']).model());
    assert.equal(formatRange(v.lo, v.hi), 'v19');
  });
  it('the type of _vt.vdiff_log.id tells v21 (int) from v22+ (bigint), as measured on real v21.0.5 and v22.0.4', () => {
    const base = mt().rpc('GetKeyspaceRoutingRules', true).rpc('GetMirrorRules', true).model().versionEvidence;
    const aliases = [...base.sidecarColumns.keys()];
    const withType = (t: (i: number) => string) =>
      inferVitessVersions({ versionEvidence: { ...base, vdiffLogIdTypes: new Map(aliases.map((a, i) => [a, t(i)])) } });
    const v21 = withType(() => 'int');
    assert.equal(formatRange(v21.lo, v21.hi), 'v21');
    assert.ok(v21.evidence.includes('_vt.vdiff_log.id is int (before v22) on all 3 primaries read'));
    const v22 = withType(() => 'bigint');
    assert.equal(formatRange(v22.lo, v22.hi), 'v22–v24');
    assert.equal(v22.mixed, null);
    const mixed = withType((i) => (i === 0 ? 'bigint' : 'int'));
    assert.notEqual(mixed.mixed, null);
  });
  it('GetKeyspaceRoutingRules UNIMPLEMENTED: vtctld older than v20; GetMirrorRules answered: v21+', () => {
    const old = inferVitessVersions(
      mt().withoutSidecarColumns(['options']).rpc('GetKeyspaceRoutingRules', false).model(),
    );
    assert.equal(formatRange(old.lo, old.hi), 'v19');
    assert.ok(
      old.evidence.includes('vtctld answers GetKeyspaceRoutingRules with UNIMPLEMENTED (keyspace routing rules, v20)'),
    );
    const newer = inferVitessVersions(mt().rpc('GetKeyspaceRoutingRules', true).rpc('GetMirrorRules', true).model());
    assert.equal(formatRange(newer.lo, newer.hi), 'v21–v24');
  });
  it('a build made before the release-22.0 branch caps the range at v22 (main was v22-SNAPSHOT)', () => {
    const b = mt();
    b.tabletBuild(b.primary('customer', '-80'), { gitRev: 'a1b2c3', buildTimestamp: Date.UTC(2024, 11, 1) / 1000 });
    const v = inferVitessVersions(b.model());
    assert.equal(formatRange(v.lo, v.hi), 'v20–v22');
    assert.ok(
      v.evidence.includes(
        'the newest tablet build (GetVersion) dates from 2024-12-01, before the release-22.0 branch (main was v22-SNAPSHOT)',
      ),
    );
    assert.equal(newestMajorBuiltAt(Date.UTC(2024, 0, 1) / 1000), 19);
    assert.equal(newestMajorBuiltAt(Date.UTC(2026, 0, 1) / 1000), 24);
  });
  it('facts that contradict: the whole span, and mixed says why', () => {
    const v = inferVitessVersions(mt().rpc('GetKeyspaceRoutingRules', false).model());
    assert.equal(v.source, 'default');
    assert.match(v.mixed!, /the facts disagree/);
  });
  it('nothing read: nothing known', () => {
    const v = inferVitessVersions(
      cluster()
        .keyspace('customer', { shards: ['0'], readSidecars: false })
        .model(),
    );
    assert.deepEqual(v, DEFAULT_VITESS_VERSIONS);
  });
});
