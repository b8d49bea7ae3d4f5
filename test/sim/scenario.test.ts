/**
 * The scenario generator: deterministic from its seed, shard names as Vitess generates them, the streams Vitess
 * creates for each workflow type, and faults that change only what a real incident changes.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { buildExpectedStreams, diffExpectedStreams } from '../../src/model/expected-streams.js';
import { buildModel } from '../../src/model/build.js';
import type { Readout } from '../../src/readout.js';
import { DEFAULT_SCENARIO, findScenario, generateScenario, SCENARIOS } from '../../src/sim/scenario.js';
import { generateShardRanges } from '../../src/sim/shards.js';
import { FAULT_KINDS, type SimCluster } from '../../src/sim/types.js';
import { parseBinlogSource } from '../../src/vitess/binlog-source.js';
import { parseKeyRange, keyRangesIntersect } from '../../src/vitess/keyrange.js';
import { parsePosition } from '../../src/vitess/position.js';

const NOW = Date.parse('2026-03-01T12:00:00.000Z');

/** The readout a perfect collector would produce from `sim` (offline: no sockets), for model-level assertions. */
function offlineReadout(sim: SimCluster): Readout {
  const ok = <T>(value: T) => ({ ok: true as const, value });
  const shardsByKs: Record<string, ReturnType<typeof ok<SimCluster['shards']>>> = {};
  for (const k of sim.keyspaces) shardsByKs[k.name] = ok(sim.shards.filter((s) => s.keyspace === k.name));
  return {
    version: 1,
    tool: { name: 'vtpreflight', version: 'test' },
    capturedAt: sim.now,
    target: { vtctld: null, keyspaces: [], workflows: [], via: 'mysql' },
    topology: {
      keyspaces: ok(sim.keyspaces),
      shards: shardsByKs,
      tablets: ok(sim.tablets),
      vschemas: Object.fromEntries(Object.entries(sim.vschemas).map(([k, v]) => [k, ok(v)])),
      routingRules: ok(sim.routingRules),
      shardRoutingRules: ok(sim.shardRoutingRules),
    },
    workflows: {},
    sidecars: Object.values(sim.sidecars).map((s) => ({
      alias: s.alias,
      keyspace: s.keyspace,
      shard: s.shard,
      endpoint: 'offline',
      sidecarDb: s.sidecarDb,
      dbName: s.dbName,
      columns: ok(s.columns),
      vreplication: ok(s.vreplication),
      copyState: ok(s.copyState),
      vreplicationLog: ok(s.vreplicationLog),
      reshardingJournal: ok(s.reshardingJournal),
    })),
    fullStatus: Object.fromEntries(
      Object.entries(sim.fullStatus).map(([alias, fs]) => [
        alias,
        'error' in fs
          ? { ok: false as const, error: { what: 'GetFullStatus', where: 'offline', reason: fs.error } }
          : ok(fs),
      ]),
    ),
  };
}

describe('determinism', () => {
  test('the same seed and clock give the same cluster, byte for byte', () => {
    for (const s of SCENARIOS) {
      const a = JSON.stringify(generateScenario(s.name, { seed: 7, now: NOW, shards: 8 }));
      const b = JSON.stringify(generateScenario(s.name, { seed: 7, now: NOW, shards: 8 }));
      assert.equal(a, b, s.name);
    }
  });

  test('another seed gives another cluster of the same shape', () => {
    const a = generateScenario(DEFAULT_SCENARIO, { seed: 1, now: NOW });
    const b = generateScenario(DEFAULT_SCENARIO, { seed: 2, now: NOW });
    assert.notEqual(JSON.stringify(a), JSON.stringify(b));
    assert.deepEqual(a.stats, b.stats);
    assert.deepEqual(
      a.shards.map((s) => s.name),
      b.shards.map((s) => s.name),
    );
  });

  test('timestamps follow the given clock', () => {
    const sim = generateScenario('reshard', { now: NOW, shards: 4 });
    assert.equal(sim.now, new Date(NOW).toISOString());
    for (const sc of Object.values(sim.sidecars)) {
      for (const r of sc.vreplication) {
        assert.ok(r.time_updated <= NOW / 1000 && r.time_updated >= NOW / 1000 - 3, `time_updated ${r.time_updated}`);
        assert.ok(r.transaction_timestamp <= r.time_updated);
      }
    }
  });
});

describe('shard ranges', () => {
  test('as vitessio/vitess go/vt/key GenerateShardRanges names them', () => {
    assert.deepEqual(generateShardRanges(2).names, ['-80', '80-']);
    assert.deepEqual(generateShardRanges(3).names, ['-55', '55-aa', 'aa-']);
    assert.deepEqual(generateShardRanges(4).names, ['-40', '40-80', '80-c0', 'c0-']);
    assert.deepEqual(generateShardRanges(512).names.slice(0, 3), ['-0080', '0080-0100', '0100-0180']);
    assert.equal(generateShardRanges(1024).names.at(-1), 'ffc0-');
  });

  test('contiguous and complete for every count from 2 to 1,024', () => {
    for (const n of [2, 5, 7, 16, 100, 255, 256, 257, 1000, 1024]) {
      const names = generateShardRanges(n).names;
      assert.equal(names.length, n);
      assert.equal(new Set(names).size, n);
      for (let i = 1; i < n; i++)
        assert.equal(names[i - 1]!.split('-')[1], names[i]!.split('-')[0], `${n}: ${names[i - 1]} then ${names[i]}`);
      assert.ok(names[0]!.startsWith('-') && names[n - 1]!.endsWith('-'));
    }
  });
});

describe('workflows', () => {
  test('Reshard N → 2N: one stream per intersecting pair, plus the copied reference stream on every target', () => {
    for (const n of [2, 3, 16, 160]) {
      const sim = generateScenario('reshard', { now: NOW, shards: n });
      const targets = sim.shards.filter((s) => s.keyspace === 'customer' && !s.isPrimaryServing);
      const sources = sim.shards.filter((s) => s.keyspace === 'customer' && s.isPrimaryServing);
      assert.equal(targets.length, 2 * n);
      assert.equal(sources.length, n);
      for (const t of targets) {
        const rows = sim.sidecars[t.primaryAlias!]!.vreplication;
        const reshard = rows.filter((r) => r.workflow === 'cust2cust');
        const read = reshard.map((r) => parseBinlogSource(r.source).shard).sort();
        const expected = sources
          .filter((s) => keyRangesIntersect(parseKeyRange(s.name), parseKeyRange(t.name)))
          .map((s) => s.name)
          .sort();
        assert.deepEqual(read, expected, `target ${t.name}`);
        assert.deepEqual(rows.filter((r) => r.workflow === 'product_ref').length, 1);
      }
    }
  });

  test('every stream reads an existing shard, at a position its source primary executed and has not purged', () => {
    for (const s of SCENARIOS.filter((x) => x.faults.length === 0)) {
      const sim = generateScenario(s.name, { now: NOW, shards: 8 });
      const primaryOf = new Map(sim.shards.map((sh) => [`${sh.keyspace}/${sh.name}`, sh.primaryAlias!]));
      for (const sc of Object.values(sim.sidecars)) {
        for (const r of sc.vreplication) {
          const bls = parseBinlogSource(r.source);
          const primary = primaryOf.get(`${bls.keyspace}/${bls.shard}`);
          assert.ok(primary, `${s.name}: stream ${r.id} on ${sc.shard} reads ${bls.keyspace}/${bls.shard}`);
          const fs = sim.fullStatus[primary]!;
          assert.ok(!('error' in fs));
          const pos = parsePosition(r.pos);
          assert.ok(parsePosition(fs.primaryPosition).atLeast(pos), `${s.name}: ${r.pos} beyond ${fs.primaryPosition}`);
          assert.ok(
            pos.gtidSet!.contains(parsePosition(`MySQL56/${fs.gtidPurged}`).gtidSet!),
            `${s.name}: purged ${fs.gtidPurged} not in ${r.pos}`,
          );
        }
      }
    }
  });

  test('healthy scenarios have exactly the streams Vitess would create (expected-streams finds no difference)', () => {
    for (const s of SCENARIOS.filter((x) => x.faults.length === 0)) {
      const model = buildModel(offlineReadout(generateScenario(s.name, { now: NOW, shards: 8 })));
      assert.ok(model.workflows.length > 0, s.name);
      for (const wf of model.workflows) {
        const e = buildExpectedStreams(model, wf);
        assert.ok(e.ok, `${s.name} ${wf.name}: ${e.ok ? '' : e.detail}`);
        for (const d of diffExpectedStreams(model, wf, e.value)) {
          assert.deepEqual(
            [d.missing, d.duplicates, d.unexpected],
            [[], [], []],
            `${s.name} ${wf.name} ${d.target.shard}`,
          );
        }
      }
    }
  });

  test('Materialize N × N has N² streams', () => {
    assert.equal(generateScenario('materialize', { now: NOW, shards: 8 }).stats.streams, 64);
    assert.equal(generateScenario('materialize', { now: NOW, shards: 24 }).stats.streams, 576);
  });

  test('bad shard counts and names are refused with the known names', () => {
    assert.throws(() => generateScenario('reshard', { shards: 1 }), /invalid shard count 1/);
    assert.throws(() => generateScenario('reshard', { shards: 4097 }), /invalid shard count/);
    assert.throws(
      () => generateScenario('nope'),
      /unknown scenario "nope": known scenarios are reshard-faults, reshard/,
    );
  });
});

describe('faults', () => {
  test('every fault kind has a scenario of its own, and all-faults has them all on distinct shards', () => {
    for (const kind of FAULT_KINDS) assert.deepEqual(findScenario(kind)?.faults, [kind]);
    const all = generateScenario('all-faults', { now: NOW, shards: 16 });
    assert.deepEqual(
      all.faults.map((f) => f.kind),
      FAULT_KINDS,
    );
    const targetShards = all.faults
      .filter((f) => f.kind !== 'frozen-workflow' && f.kind !== 'stream-set-mismatch')
      .map((f) => f.shard);
    assert.equal(new Set(targetShards).size, targetShards.length);
  });

  test('the default scenario is a 16-shard Reshard with the three faults of the issue', () => {
    const sim = generateScenario(DEFAULT_SCENARIO, { now: NOW });
    assert.equal(sim.shards.filter((s) => s.keyspace === 'customer' && s.isPrimaryServing).length, 16);
    assert.deepEqual(
      sim.faults.map((f) => f.kind),
      ['stream-set-mismatch', 'lagging-stream', 'vstreamer-not-open'],
    );
  });

  test('a fault changes only the rows it names', () => {
    const healthy = generateScenario('reshard', { now: NOW, seed: 3, shards: 8 });
    const faulty = generateScenario('lagging-stream', { now: NOW, seed: 3, shards: 8 });
    const [fault] = faulty.faults;
    const changed: string[] = [];
    for (const [alias, sc] of Object.entries(faulty.sidecars)) {
      const before = healthy.sidecars[alias]!;
      sc.vreplication.forEach((r, i) => {
        if (JSON.stringify(r) !== JSON.stringify(before.vreplication[i])) changed.push(`${sc.shard}#${r.id}`);
      });
    }
    assert.deepEqual(changed, [`${fault!.shard}#${fault!.streamId}`]);
  });

  test('vstreamer-not-open writes the message the way vttablet does into every stream reading that source', () => {
    const sim = generateScenario('vstreamer-not-open', { now: NOW, shards: 8 });
    const rows = Object.values(sim.sidecars).flatMap((s) =>
      s.vreplication.filter((r) => r.message !== '' && r.message !== null),
    );
    assert.equal(rows.length, 2);
    for (const r of rows) assert.equal(r.message, 'vttablet: rpc error: code = Unknown desc = VStreamer is not open');
  });
});
