/**
 * Least privilege, live (real MariaDB primaries, a real gRPC vtctld): a MySQL user created from `vtpreflight grants`
 * reads a healthy MoveTables and a healthy Reshard as `ready`, exit 0, nothing at warning or above. Without the
 * optional grants (PROCESS, performance_schema) the verdicts are the same, and one info line names what was not read;
 * without the grant tables' columns, SwitchTraffic (judged against v21+) is `unverified` naming only that read, and
 * `cancel`, which reads no grant, stays `ready`; with `--grants-via-vtctld` the grant rows are read through vtctld's
 * ExecuteFetchAsDBA and SwitchTraffic is `ready` again.
 */
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { testPool } from '../harness/env.js';
import type { MariaDbInstance } from '../harness/mariadb.js';
import { parseReport, runCli } from './cli.js';
import { assertHealthy } from './expect.js';
import { type LiveCluster, startLiveCluster } from './live-cluster.js';
import { reshardFromZero, unshardedToSharded } from './scenarios.js';

const pool = await testPool({ minInstances: 6 });
const cleanup: (() => Promise<void>)[] = [];
after(async () => {
  for (const fn of cleanup.reverse()) await fn().catch(() => undefined);
});

/** The GRANT statements `vtpreflight grants` prints for this cluster, split into required and optional. */
async function grantsFor(live: LiveCluster, user: string, action = 'switch') {
  const schemas = [...new Set(live.primaries.map((p) => p.dbName))];
  const sidecars = [...new Set(live.primaries.map((p) => p.sidecarDb))];
  const run = await runCli([
    'grants',
    '--flavor',
    'mariadb',
    '--action',
    action,
    '--schema',
    schemas.join(','),
    '--sidecar-db',
    sidecars.join(','),
    '--user',
    user,
  ]);
  assert.equal(run.code, 0, run.stderr);
  const [required = '', optional = ''] = run.stdout.split('-- Optional:');
  const grants = (text: string) =>
    text
      .split('\n')
      .filter((l) => l.startsWith('GRANT '))
      .map((l) => l.replace(/;$/, ''));
  // Never a column or table that holds a secret.
  assert.doesNotMatch(run.stdout, /authentication_string|global_priv|Password/i);
  return { required: grants(required), optional: grants(optional) };
}

/** Creates `user` on every instance holding a primary of `live`, with exactly `grants`. */
async function createUser(live: LiveCluster, user: string, password: string, grants: readonly string[]) {
  const instances = [...new Set(live.primaries.flatMap((p) => (p.instance ? [p.instance] : [])))];
  for (const inst of instances as MariaDbInstance[]) {
    await inst.exec(`CREATE USER '${user}'@'%' IDENTIFIED BY '${password}'`, ...grants);
    cleanup.push(() => inst.dropUser(user));
  }
}

async function check(live: LiveCluster, user: string, password: string, extra: readonly string[] = []) {
  const run = await runCli([
    'check',
    '--vtctld',
    live.address,
    '--format',
    'json',
    '--mysql-user',
    user,
    '--mysql-password',
    password,
    ...live.selectionArgs(),
    ...extra,
  ]);
  return { code: run.code, report: parseReport(run), stderr: run.stderr };
}

const notReadLines = (r: ReturnType<typeof parseReport>) =>
  r.findings.filter((f) => f.check === 'unreachable' && f.reason === 'notRead');

const SCENARIOS = [
  {
    name: 'healthy MoveTables',
    build: () => {
      const vdiff = [{ id: 1, workflow: 'commerce2customer' }];
      return unshardedToSharded().vdiffs('customer', '-80', vdiff).vdiffs('customer', '80-', vdiff);
    },
  },
  { name: 'healthy Reshard', build: reshardFromZero },
];

SCENARIOS.forEach((s, i) => {
  const name = `${s.name}, read by the user \`vtpreflight grants\` prints: ready, exit 0; without the optional grants the same, one info line; without the grant-table columns SwitchTraffic is unverified by that read alone`;
  test(name, async () => {
    const live = await startLiveCluster(s.build().readout(), pool, { offset: i * 3 });
    cleanup.push(() => live.stop());

    // Every grant printed, required and optional.
    const full = pool.uniqueName('lpf').slice(0, 30);
    const g = await grantsFor(live, full);
    assert.ok(g.required.length >= 3 && g.optional.length >= 2, JSON.stringify(g));
    await createUser(live, full, 'pw-full-1', [...g.required, ...g.optional]);
    const all = await check(live, full, 'pw-full-1');
    assert.deepEqual(
      all.report.workflows.map((w) => w.unverifiedBy),
      all.report.workflows.map(() => []),
    );
    assertHealthy(all.report, { allowInfo: true });
    assert.equal(all.code, 0, all.stderr);
    assert.deepEqual(notReadLines(all.report), []);

    // The required grants alone: the same verdicts, one info line naming what was not read.
    const req = pool.uniqueName('lpr').slice(0, 30);
    const gr = await grantsFor(live, req);
    await createUser(live, req, 'pw-req-1', gr.required);
    const least = await check(live, req, 'pw-req-1');
    assertHealthy(least.report, { allowInfo: true });
    assert.equal(least.code, 0, least.stderr);
    assert.deepEqual(
      least.report.workflows.map((w) => w.verdict),
      all.report.workflows.map((w) => w.verdict),
    );
    const lines = notReadLines(least.report);
    assert.equal(lines.length, 1, JSON.stringify(lines));
    assert.match(lines[0]!.message, /INNODB_TRX and PROCESSLIST on \d+ primar(y|ies) \(needs PROCESS ON \*\.\*\)/);
    assert.match(lines[0]!.message, /performance_schema/);
    assert.doesNotMatch(lines[0]!.message, /mysql\.user/);

    // Without the grant tables' columns: SwitchTraffic (v21+ validates the filtered user) is unverified by that read
    // alone; cancel reads no grant and stays ready.
    const nog = pool.uniqueName('lpg').slice(0, 30);
    const gn = await grantsFor(live, nog);
    await createUser(
      live,
      nog,
      'pw-nog-1',
      gn.required.filter((q) => !/ ON mysql\./.test(q)),
    );
    const sw = await check(live, nog, 'pw-nog-1');
    assert.equal(sw.code, 1, sw.stderr);
    for (const w of sw.report.workflows) {
      assert.equal(w.verdict, 'unverified', JSON.stringify(w));
      assert.ok(w.unverifiedBy.length > 0);
      for (const u of w.unverifiedBy) assert.match(`${u.part ?? ''} ${u.why}`, /mysql\.user/, JSON.stringify(u));
    }
    assert.deepEqual(
      sw.report.findings.filter((f) => f.severity !== 'info').map((f) => [f.check, f.reason]),
      [],
    );
    // The same user with --grants-via-vtctld: the grant rows come from the tablets' DBA user through vtctld, and the
    // MySQL user sends no statement on the mysql schema.
    const viaDba = await check(live, nog, 'pw-nog-1', ['--grants-via-vtctld']);
    assert.equal(viaDba.code, 0, viaDba.stderr);
    assertHealthy(viaDba.report, { allowInfo: true });
    assert.ok(
      live.fetches.some((f) => / FROM mysql\.`user` WHERE `User` = /.test(f.query)),
      'the grant rows were read through ExecuteFetchAsDBA',
    );
    const cancel = await check(live, nog, 'pw-nog-1', ['--action', 'cancel']);
    assert.equal(cancel.code, 0, cancel.stderr);
    assert.ok(cancel.report.workflows.length > 0);
    for (const w of cancel.report.workflows) assert.equal(w.verdict, 'ready', JSON.stringify(w));
  });
});
