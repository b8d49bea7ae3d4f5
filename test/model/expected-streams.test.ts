import { prng } from '../../src/sim/prng.js';
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import streamCoverage from '../../checks/stream-coverage.js';
import { withDefaults } from '../../src/engine/options.js';
import {
  KeyRangeIndex,
  buildExpectedStreams,
  expectedTriples,
  primaryVindexesDiffer,
  ruleKeyRange,
  uncoveredParts,
} from '../../src/model/expected-streams.js';
import type { VSchema } from '../../src/model/types.js';
import { keyRangeString, keyRangesIntersect, parseKeyRange, type KeyRange } from '../../src/vitess/keyrange.js';
import { cluster } from '../helpers/cluster.js';

/** `n` shard names splitting the 16-bit keyspace-id prefix evenly: `-0040`, `0040-0080`, …, `ffc0-`. */
function shardNames(n: number): string[] {
  const bound = (i: number) => (i === 0 || i === n ? '' : ((i * 65536) / n).toString(16).padStart(4, '0'));
  return Array.from({ length: n }, (_, i) => `${bound(i)}-${bound(i + 1)}`);
}

const kr = (name: string): KeyRange | null => parseKeyRange(name);

describe('KeyRangeIndex', () => {
  it('finds exactly the ranges keyRangesIntersect finds, overlapping and complete ranges included', () => {
    const rand = prng(7);
    const hex = () =>
      Math.floor(rand() * 256)
        .toString(16)
        .padStart(2, '0') + (rand() < 0.3 ? '00' : '');
    const randomRange = (): KeyRange | null => {
      const r = rand();
      if (r < 0.05) return null;
      if (r < 0.1) return { start: '', end: '' };
      let a = hex();
      let b = hex();
      if (a > b) [a, b] = [b, a];
      return { start: rand() < 0.15 ? '' : a, end: rand() < 0.15 ? '' : b };
    };
    for (let round = 0; round < 50; round++) {
      const items = Array.from({ length: 40 }, (_, i) => ({ i, kr: randomRange() }));
      const index = new KeyRangeIndex(items, (x) => x.kr);
      for (let q = 0; q < 40; q++) {
        const query = randomRange();
        const want = items.filter((x) => keyRangesIntersect(x.kr, query)).map((x) => x.i);
        assert.deepEqual(
          index.intersecting(query).map((x) => x.i),
          want,
          `query ${keyRangeString(query)}`,
        );
      }
    }
  });
});

describe('uncoveredParts', () => {
  const parts = (whole: string, covering: string[]) => uncoveredParts(kr(whole), covering.map(kr)).map(keyRangeString);
  it('returns nothing when the targets tile the source', () => {
    assert.deepEqual(parts('0', ['-80', '80-']), []);
    assert.deepEqual(parts('-80', ['-40', '40-80']), []);
    assert.deepEqual(parts('40-80', ['-']), []);
  });
  it('returns the gaps, bounded by the source range', () => {
    assert.deepEqual(parts('0', ['-40', '80-c0']), ['40-80', 'c0-']);
    assert.deepEqual(parts('-80', ['-20', '60-c0']), ['20-60']);
    assert.deepEqual(parts('40-80', []), ['40-80']);
  });
  it('compares bounds normalized (-8000 ends where 80- starts)', () => {
    assert.deepEqual(parts('0', ['-8000', '80-']), []);
  });
});

describe('ruleKeyRange', () => {
  it('reads key-range filters and in_keyrange literals', () => {
    assert.deepEqual(ruleKeyRange('-80'), { kind: 'keyRange', literal: '-80' });
    assert.deepEqual(ruleKeyRange('-'), { kind: 'keyRange', literal: '-' });
    assert.deepEqual(ruleKeyRange("select * from t where in_keyrange(id, 'ks.hash', '40-80')"), {
      kind: 'inKeyrange',
      literal: '40-80',
    });
    assert.deepEqual(ruleKeyRange("select * from t where in_keyrange(a, b, 'ks.multi', '80-') and x = 'y,z'"), {
      kind: 'inKeyrange',
      literal: '80-',
    });
    assert.deepEqual(ruleKeyRange("select * from t where IN_KEYRANGE('-80')"), { kind: 'inKeyrange', literal: '-80' });
    assert.deepEqual(ruleKeyRange('select * from t where in_keyrange(id, "ks.hash", "c0-")'), {
      kind: 'inKeyrange',
      literal: 'c0-',
    });
    assert.deepEqual(ruleKeyRange('select * from t where in_keyrange(id, fn(x), @v)'), {
      kind: 'inKeyrangeUnreadable',
    });
    assert.deepEqual(ruleKeyRange('select * from t'), { kind: 'none' });
    assert.deepEqual(ruleKeyRange(''), { kind: 'none' });
    assert.deepEqual(ruleKeyRange('exclude'), { kind: 'none' });
  });
});

describe('primaryVindexesDiffer', () => {
  const vs = (
    sharded: boolean,
    tables: Record<string, { vindex: string; columns: string[] } | null>,
    vindexes: Record<string, string>,
  ): VSchema => ({
    sharded,
    vindexes: new Map(Object.entries(vindexes).map(([name, type]) => [name, { name, type, params: {}, owner: '' }])),
    tables: new Map(
      Object.entries(tables).map(([name, t]) => [
        name,
        {
          name,
          type: '',
          source: '',
          autoIncrement: null,
          columnVindexes: t ? [{ name: t.vindex, columns: t.columns }] : [],
        },
      ]),
    ),
  });
  it('follows materializer.go', () => {
    const hashId = vs(true, { t: { vindex: 'hash', columns: ['id'] } }, { hash: 'hash' });
    assert.equal(primaryVindexesDiffer(['t'], vs(false, { t: null }, {}), hashId), false, 'one side unsharded');
    assert.equal(primaryVindexesDiffer(['t'], hashId, hashId), false, 'same vindex');
    assert.equal(
      primaryVindexesDiffer(['t'], hashId, vs(true, { t: { vindex: 'h2', columns: ['ID'] } }, { h2: 'HASH' })),
      false,
      'names and case differ only',
    );
    assert.equal(
      primaryVindexesDiffer(['t'], hashId, vs(true, { t: { vindex: 'x', columns: ['id'] } }, { x: 'xxhash' })),
      true,
      'type differs',
    );
    assert.equal(
      primaryVindexesDiffer(['t'], hashId, vs(true, { t: { vindex: 'hash', columns: ['cid'] } }, { hash: 'hash' })),
      true,
      'column differs',
    );
    assert.equal(
      primaryVindexesDiffer(['t'], hashId, vs(true, { t: null }, { hash: 'hash' })),
      true,
      'target lacks vindexes',
    );
    assert.equal(primaryVindexesDiffer(['t'], vs(true, {}, {}), vs(true, {}, {})), true, 'neither side has vindexes');
    assert.equal(
      primaryVindexesDiffer(
        ['t'],
        vs(true, { t: { vindex: 'a', columns: ['id'] } }, {}),
        vs(true, { t: { vindex: 'b', columns: ['id'] } }, {}),
      ),
      false,
      'both definitions missing',
    );
  });
});

describe('buildExpectedStreams', () => {
  it('lists the required triples of a sharded MoveTables with equal vindexes', () => {
    const model = cluster()
      .keyspace('src', {
        shards: ['-80', '80-'],
        tables: { t: { columnVindexes: [{ name: 'hash', columns: ['id'] }] } },
      })
      .keyspace('dst', {
        shards: ['-40', '40-80', '80-'],
        tables: { t: { columnVindexes: [{ name: 'hash', columns: ['id'] }] } },
      })
      .moveTables('wf', { from: 'src', to: 'dst', tables: ['t'] })
      .model();
    const e = buildExpectedStreams(model, model.workflows[0]!);
    assert.ok(e.ok);
    assert.equal(e.value.vindexes, 'equal');
    assert.deepEqual(expectedTriples(e.value), [
      { targetShard: '-40', sourceKeyspace: 'src', sourceShard: '-80' },
      { targetShard: '40-80', sourceKeyspace: 'src', sourceShard: '-80' },
      { targetShard: '80-', sourceKeyspace: 'src', sourceShard: '80-' },
    ]);
  });

  it('is not computable for a workflow reading two source keyspaces', () => {
    const model = cluster()
      .keyspace('a', { shards: ['0'] })
      .keyspace('b', { shards: ['0'] })
      .keyspace('c', { shards: ['0'] })
      .stream('c', '0', 1, {
        workflow: 'wf',
        type: 'MoveTables',
        sourceKeyspace: 'a',
        sourceShard: '0',
        rules: [{ match: 't', filter: 'select * from t' }],
      })
      .stream('c', '0', 2, {
        workflow: 'wf',
        type: 'MoveTables',
        sourceKeyspace: 'b',
        sourceShard: '0',
        rules: [{ match: 't', filter: 'select * from t' }],
      })
      .model();
    const e = buildExpectedStreams(model, model.workflows[0]!);
    assert.equal(e.ok, false);
    assert.equal(!e.ok && e.reason, 'multipleSourceKeyspaces');
  });
});

describe('scale', () => {
  it('1,024 target shards × 512 source shards: MoveTables and Reshard are judged in well under a second', () => {
    const targets = shardNames(1024);
    const sources = shardNames(512);
    const b = cluster()
      .keyspace('src', { shards: sources, tables: { t: { columnVindexes: [{ name: 'hash', columns: ['id'] }] } } })
      .keyspace('dst', { shards: targets, tables: { t: { columnVindexes: [{ name: 'hash', columns: ['id'] }] } } })
      .moveTables('big', { from: 'src', to: 'dst', tables: ['t'] });
    b.keyspace('rs', { shards: [...sources, ...targets], notServing: targets }).reshard('split', {
      keyspace: 'rs',
      from: sources,
      to: targets,
    });
    b.removeStream('dst', targets[5]!, 1);
    const model = b.model();
    const t0 = performance.now();
    const findings = streamCoverage.run(model, withDefaults());
    const ms = performance.now() - t0;
    assert.deepEqual(
      findings.map((f) => [f.workflow, f.shard, f.reason]),
      [['big', targets[5], 'targetShardWithoutStreams']],
    );
    assert.ok(ms < 2000, `stream-coverage took ${Math.round(ms)} ms`);
    if (process.env.VTPREFLIGHT_SHOW_TIMING) process.stderr.write(`stream-coverage: ${Math.round(ms)} ms\n`);
  });
});
