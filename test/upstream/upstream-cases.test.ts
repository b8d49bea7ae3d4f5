/**
 * Upstream's own test tables for the functions vtpreflight mirrors, one citation per case. Where the stored upstream
 * versions hold no table for a function (getVReplicationTrxLag, CompareShards, validateInternalizedState on `main`),
 * the check's own table test cites the function instead.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CHECKS } from '../../checks/index.js';
import { withDefaults } from '../../src/engine/options.js';
import { runModelChecks } from '../../src/engine/run.js';
import { displayState } from '../../src/model/build.js';
import { reshardMigrations } from '../../src/model/stream-migrator.js';
import { cluster, NOW_SECONDS } from '../helpers/cluster.js';

const meta = {
  toolVersion: '0',
  snapshot: null,
  startedAt: '2026-01-01T00:00:00.000Z',
  elapsedMs: 0,
  failOn: 'error' as const,
};

// vitessio/vitess go/vt/vtctl/workflow/workflows_test.go TestGetStreamState (commit 281daab7).
const STREAM_STATE: readonly { name: string; state: string; message: string; copyTables: number; want: string }[] = [
  // case "error state": Message "test error" ⇒ Error (whatever the state).
  { name: 'error state', state: '', message: 'test error', copyTables: 0, want: 'Error' },
  // case "copying state": Running with a copy state ⇒ Copying.
  { name: 'copying state', state: 'Running', message: '', copyTables: 1, want: 'Copying' },
  // case "non-running and error free": Stopped ⇒ Stopped.
  { name: 'non-running and error free', state: 'Stopped', message: '', copyTables: 0, want: 'Stopped' },
  // case "lagging state" builds TimeUpdated as time.Now().Second()-11 (seconds within the minute): the Lagging branch
  // compares time.Now().Second() (0–59) with an epoch time_updated, which a stored row never satisfies, and canSwitch
  // tests only Copying and Error; a Running row stays Running here.
  { name: 'lagging state (stored epoch time_updated)', state: 'Running', message: '', copyTables: 0, want: 'Running' },
];

for (const c of STREAM_STATE) {
  test(`workflows_test.go TestGetStreamState: ${c.name}`, () => {
    assert.equal(displayState(c.state, c.message, c.copyTables), c.want);
  });
}

// vitessio/vitess go/vt/wrangler/workflow_test.go TestCanSwitch: {"In Copy Phase", Copying, 0, 0, copy is still in
// progress}, {"High Lag", Running, 6, 5, replication lag %ds is higher than allowed lag %ds}, {"Acceptable Lag",
// Running, 4, 5, nil}. The lag there is now − time_updated with a matching transaction timestamp.
const moveTables = () =>
  cluster()
    .keyspace('ks1', { shards: ['0'] })
    .keyspace('ks2', { shards: ['-80', '80-'] })
    .moveTables('test', { from: 'ks1', to: 'ks2', tables: ['t1', 't2'], column: 'id' });

const CAN_SWITCH: readonly {
  name: string;
  state: string;
  lag: number;
  allowed: number;
  want: RegExp | null;
}[] = [
  { name: 'In Copy Phase', state: 'Copying', lag: 0, allowed: 0, want: /: copy is still in progress$/ },
  {
    name: 'High Lag',
    state: 'Running',
    lag: 6,
    allowed: 5,
    want: /: replication lag 6s is higher than allowed lag 5s$/,
  },
  { name: 'Acceptable Lag', state: 'Running', lag: 4, allowed: 5, want: null },
];

for (const c of CAN_SWITCH) {
  test(`wrangler/workflow_test.go TestCanSwitch: ${c.name}`, () => {
    const b = moveTables();
    for (const shard of ['-80', '80-'])
      b.patchStream('ks2', shard, 1, {
        state: c.state,
        time_updated: NOW_SECONDS - c.lag,
        transaction_timestamp: NOW_SECONDS - c.lag,
        time_heartbeat: NOW_SECONDS - c.lag,
      });
    const r = runModelChecks(b.model(), CHECKS, withDefaults({ maxLagSeconds: c.allowed }), meta);
    const w = r.workflows[0]!;
    if (c.want === null) assert.equal(w.vitessWouldSay, null, JSON.stringify(r.findings.map((f) => f.message)));
    else assert.match(w.vitessWouldSay ?? '', c.want);
  });
}

// vitessio/vitess go/vt/wrangler/materializer_test.go TestExternalizeVindex, the state cases (the argument-parsing
// cases are the legacy vtctl's): owned + "Stopped after copy" ⇒ ok; unowned + Running ⇒ ok; owned + Running ⇒
// `is not in Stopped after copy state`; unowned + Stopped ⇒ `is not in Running state`.
const lookup = (owned: boolean) =>
  cluster()
    .keyspace('sourceks', {
      shards: ['-80', '80-'],
      vindexes: {
        lkp: {
          type: 'consistent_lookup_unique',
          params: { table: 'targetks.lkp', from: 'c1', to: 'keyspace_id', write_only: 'true' },
          owner: owned ? 't1' : '',
        },
      },
    })
    .keyspace('targetks', { shards: ['0'], tables: { lkp: {} } })
    .lookup('lkp', { from: 'sourceks', to: 'targetks', table: 'lkp', ownerTable: 't1', owned });

const EXTERNALIZE: readonly { name: string; owned: boolean; stopped: boolean; want: RegExp | null }[] = [
  { name: 'sourceks.owned, stopped', owned: true, stopped: true, want: null },
  { name: 'sourceks.unowned, running', owned: false, stopped: false, want: null },
  { name: 'sourceks.owned, running', owned: true, stopped: false, want: /is not in Stopped after copy state/ },
  { name: 'sourceks.unowned, stopped', owned: false, stopped: true, want: /is not in Running state/ },
];

for (const c of EXTERNALIZE) {
  test(`wrangler/materializer_test.go TestExternalizeVindex: ${c.name}`, () => {
    const b = lookup(c.owned);
    for (const id of [1, 2])
      b.patchStream(
        'targetks',
        '0',
        id,
        c.stopped ? { state: 'Stopped', message: 'Stopped after copy' } : { state: 'Running', message: 'msg' },
      );
    const r = runModelChecks(b.model(), CHECKS, withDefaults(), meta);
    const w = r.workflows[0]!;
    if (c.want === null) assert.equal(w.vitessWouldSay, null, JSON.stringify(r.findings.map((f) => f.message)));
    else assert.match(w.vitessWouldSay ?? '', c.want);
  });
}

// vitessio/vitess go/vt/vtctl/workflow/stream_migrator_test.go (commit 15082a08): Reshard customer 0 → -80, 80- with
// the test vschema (t1 sharded by c1, ref a reference table).
const reshardCustomer = () =>
  cluster()
    .keyspace('customer', {
      shards: ['0', '-80', '80-'],
      notServing: ['-80', '80-'],
      vindexes: { xxhash: { type: 'xxhash', params: {}, owner: '' } },
      tables: {
        t1: { columnVindexes: [{ name: 'xxhash', columns: ['c1'] }] },
        t2: { columnVindexes: [{ name: 'xxhash', columns: ['c1'] }] },
        ref: { type: 'reference' },
      },
    })
    .reshard('wf1', { keyspace: 'customer', from: ['0'], to: ['-80', '80-'] });

const MIGRATOR: readonly { name: string; extra: { workflow: string; match: string } | null; migrated: number }[] = [
  // TestBuildStreamMigratorOneMaterialize: wfMat1 (t1, `select * from t1`) on source shard 0 ⇒ one stream migrated.
  { name: 'TestBuildStreamMigratorOneMaterialize', extra: { workflow: 'wfMat1', match: 't1' }, migrated: 1 },
  // TestBuildStreamMigratorNoStreams: no other workflow ⇒ nothing to migrate.
  { name: 'TestBuildStreamMigratorNoStreams', extra: null, migrated: 0 },
  // TestBuildStreamMigratorRefStream: wfRef1 (ref only) ⇒ ignored as a reference stream.
  { name: 'TestBuildStreamMigratorRefStream', extra: { workflow: 'wfRef1', match: 'ref' }, migrated: 0 },
];

for (const c of MIGRATOR) {
  test(`stream_migrator_test.go ${c.name}`, () => {
    const b = reshardCustomer();
    if (c.extra)
      b.stream('customer', '0', 100, {
        workflow: c.extra.workflow,
        type: 'Materialize',
        sourceKeyspace: 'customer',
        sourceShard: '0',
        rules: [{ match: c.extra.match, filter: `select * from ${c.extra.match}` }],
      });
    const m = b.select({ workflows: ['wf1'] }).model();
    const [migration] = reshardMigrations(m);
    assert.ok(migration);
    assert.equal(migration.shards.flatMap((s) => s.migrated).length, c.migrated);
    const r = runModelChecks(m, CHECKS, withDefaults(), meta);
    assert.deepEqual(
      r.findings
        .filter((f) => ['stream-set-mismatch', 'source-streams-not-running', 'position-drift'].includes(f.check))
        .map((f) => f.message),
      [],
    );
  });
}
