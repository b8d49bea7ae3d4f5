/** The folding rule shared by the human reporters, and compact shard lists. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { compactShardList, foldFindings, foldKey, mentions, whereParts } from '../../src/report/fold.js';
import { compareShardNames } from '../../src/vitess/keyrange.js';
import { finding, shardNames } from './helpers.js';

const onShard = (shard: string, over = {}) =>
  finding({ shard, message: `stream 1 of wf on customer/${shard} shows as Error`, ...over });

describe('foldFindings', () => {
  it('folds findings that differ only by shard, with the shard replaced in the message', () => {
    const groups = foldFindings(['-40', '40-80', '80-c0', 'c0-'].map((s) => onShard(s)));
    assert.equal(groups.length, 1);
    assert.equal(groups[0]!.message, 'stream 1 of wf on customer/(4 shards) shows as Error');
    assert.deepEqual(groups[0]!.shards, ['-40', '40-80', '80-c0', 'c0-']);
    assert.equal(groups[0]!.findings.length, 4);
  });

  it('keeps the message exact when only one finding is in a group', () => {
    const groups = foldFindings([onShard('-80')]);
    assert.equal(groups[0]!.message, 'stream 1 of wf on customer/-80 shows as Error');
  });

  it('folds over varying tablets and stream ids, and substitutes only what varies', () => {
    const fs = [
      finding({
        shard: '-80',
        streamId: 3,
        tablet: 'zone1-0000000100',
        message: 'stream 3 on zone1-0000000100 is stopped',
      }),
      finding({
        shard: '80-',
        streamId: 4,
        tablet: 'zone1-0000000200',
        message: 'stream 4 on zone1-0000000200 is stopped',
      }),
    ];
    const [g] = foldFindings(fs);
    assert.equal(g!.message, 'streams 3, 4 on zone1-0000000100, zone1-0000000200 is stopped');
    assert.deepEqual(g!.streamIds, [3, 4]);
    assert.deepEqual(g!.tablets, ['zone1-0000000100', 'zone1-0000000200']);
  });

  it('does not fold findings whose messages differ beyond location (values are evidence)', () => {
    const groups = foldFindings([
      finding({ shard: '-80', message: 'stream 1 on customer/-80 lags 40s' }),
      finding({ shard: '80-', message: 'stream 1 on customer/80- lags 95s' }),
    ]);
    assert.equal(groups.length, 2);
  });

  it('does not fold across check, severity, workflow, keyspace or reason', () => {
    const base = onShard('-80');
    const others = [
      onShard('80-', { check: 'copy-incomplete' }),
      onShard('80-', { severity: 'warning' as const }),
      onShard('80-', { workflow: 'other' }),
      onShard('80-', { keyspace: 'commerce', message: 'stream 1 of wf on customer/80- shows as Error' }),
      onShard('80-', { reason: 'otherMode' }),
    ];
    for (const other of others) assert.notEqual(foldKey(base), foldKey(other), JSON.stringify(other));
  });

  it('groups by the typed data: details that differ beyond location keep findings apart', () => {
    // Same reason, same message template: a different value in `details` is a different finding.
    const groups = foldFindings([
      onShard('-80', { reason: 'r', details: { reason: 'r', lagSeconds: 40 } }),
      onShard('80-', { reason: 'r', details: { reason: 'r', lagSeconds: 95 } }),
      onShard('c0-', { reason: 'r', details: { reason: 'r', lagSeconds: 40 } }),
    ]);
    assert.deepEqual(
      groups.map((g) => g.shards),
      [['-80', 'c0-'], ['80-']],
    );
  });

  it("folds details that differ only by the finding's own location (and the filled-in Vitess error)", () => {
    const at = (shard: string, tablet: string) =>
      finding({
        shard,
        tablet,
        reason: 'r',
        message: `stream 1 of wf on customer/${shard} shows as Error`,
        details: {
          reason: 'r',
          vitessError: `shard ${shard} is not serving`,
          where: { tablet, target: `customer/${shard}`, shards: [shard] },
          state: 'Error',
        },
      });
    const groups = foldFindings([at('-80', 'zone1-0000000100'), at('80-', 'zone1-0000000200')]);
    assert.equal(groups.length, 1);
    assert.deepEqual(groups[0]!.shards, ['-80', '80-']);
    const other = at('c0-', 'zone1-0000000300');
    const differentState = { ...other, details: { ...other.details, state: 'Stopped' } };
    assert.notEqual(foldKey(at('-80', 'zone1-0000000100')), foldKey(differentState));
  });

  it('keeps apart findings whose messages differ beyond location even when details agree (a guard)', () => {
    const groups = foldFindings([
      finding({ shard: '-80', reason: 'r', details: { reason: 'r' }, message: 'stream 1 on customer/-80 lags 40s' }),
      finding({ shard: '80-', reason: 'r', details: { reason: 'r' }, message: 'stream 1 on customer/80- lags 95s' }),
    ]);
    assert.equal(groups.length, 2);
  });

  it('replaces a shard only as a whole token: 80- is not inside 80-c0', () => {
    assert.equal(mentions('reads customer/80-c0', '80-'), false);
    assert.equal(mentions('reads customer/80-, not c0-', '80-'), true);
    const groups = foldFindings([
      finding({ shard: '80-', message: 'target 80- reads 80-c0' }),
      finding({ shard: 'c0-', message: 'target c0- reads 80-c0' }),
    ]);
    assert.equal(groups.length, 1);
    assert.equal(groups[0]!.message, 'target 80-, c0- reads 80-c0');
  });

  it('does not replace a stream id that is not written as "stream <id>"', () => {
    const groups = foldFindings([
      finding({ shard: '-80', streamId: 1, message: 'stream 1 is 1 transaction behind' }),
      finding({ shard: '80-', streamId: 2, message: 'stream 2 is 1 transaction behind' }),
    ]);
    assert.equal(groups.length, 1);
    assert.equal(groups[0]!.message, 'streams 1, 2 is 1 transaction behind');
  });

  it('keeps the report order: groups by first finding, findings in order inside', () => {
    const fs = [onShard('-80'), finding({ shard: '-80', message: 'other' }), onShard('80-')];
    const groups = foldFindings(fs);
    assert.deepEqual(
      groups.map((g) => g.findings),
      [[fs[0], fs[2]], [fs[1]]],
    );
  });
});

describe('compactShardList', () => {
  it('writes a chain of adjacent shards as first … last', () => {
    assert.deepEqual(compactShardList(shardNames(256)), ['-01 … ff-']);
    assert.deepEqual(compactShardList(shardNames(16).slice(0, 8)), ['-10 … 70-80']);
  });

  it('lists short chains and lone shards by name, with chain lengths when mixed', () => {
    assert.deepEqual(compactShardList(['80-c0', '-80', 'c0-']), ['-80 … c0-']);
    assert.deepEqual(compactShardList(['-40', '40-80']), ['-40', '40-80']);
    const s = shardNames(16);
    assert.deepEqual(compactShardList([s[0]!, s[1]!, s[2]!, s[5]!, s[9]!, s[10]!, s[11]!, s[12]!]), [
      '-10 … 20-30 (3)',
      '50-60',
      '90-a0 … c0-d0 (4)',
    ]);
  });

  it('keeps overlapping shards (Reshard source and target) apart', () => {
    assert.deepEqual(compactShardList(['-80', '80-', '-40', '40-80', '80-c0', 'c0-']), ['-40 … c0- (4)', '-80', '80-']);
  });

  it('lists every shard with all', () => {
    assert.deepEqual(compactShardList(shardNames(4), true), ['-40', '40-80', '80-c0', 'c0-']);
  });

  it('orders by key range as Vitess does, trailing zero bytes ignored, a non-range name as the full range', () => {
    const names = ['c0-', '80-c0', '-80', '0', '-40', '8000-c0'];
    assert.deepEqual([...names].sort(compareShardNames), ['-40', '-80', '0', '80-c0', '8000-c0', 'c0-']);
    assert.deepEqual(compactShardList(['-80', '8000-c0', 'c0-']), ['-80 … c0-']);
  });
});

describe('whereParts', () => {
  it('names what a single message does not already say', () => {
    const [g] = foldFindings([
      finding({ shard: '-80', tablet: 'zone1-0000000100', message: 'stream 1 on customer/-80 is stopped' }),
    ]);
    assert.deepEqual(whereParts(g!, { all: false, onlyUnmentioned: true }), [
      { label: 'tablet', items: ['zone1-0000000100'] },
    ]);
    assert.deepEqual(
      whereParts(g!, { all: false, onlyUnmentioned: false }).map((p) => p.label),
      ['shard', 'stream', 'tablet'],
    );
  });

  it('counts tablets beyond three unless all', () => {
    const fs = shardNames(8).map((shard, i) =>
      finding({ shard, tablet: `zone1-${i}`, message: `stream 1 on customer/${shard}` }),
    );
    const [g] = foldFindings(fs);
    assert.deepEqual(whereParts(g!, { all: false, onlyUnmentioned: true }), [
      { label: '8 shards of customer:', items: ['-20 … e0-'] },
      { label: '8 tablets', items: [] },
    ]);
    assert.equal(whereParts(g!, { all: true, onlyUnmentioned: true })[1]!.items.length, 8);
  });

  it('says when identical findings repeat', () => {
    const [g] = foldFindings([onShard('-80'), onShard('-80')]);
    assert.deepEqual(whereParts(g!, { all: false, onlyUnmentioned: true }), [
      { label: '2 identical findings', items: [] },
    ]);
  });
});
