/** The real-Vitess suite's comparison rule (no Vitess needed): what is normalised, and what must agree. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { judge, normalise, refusalText } from './compare.js';

const refused = (stderr: string) => ({ code: 1, stdout: '', stderr });
const proceeded = { code: 0, stdout: 'SwitchTraffic was successful', stderr: '' };

describe('refusalText', () => {
  it('takes the text after desc = from a v19 glog line', () => {
    const out = refused(
      'E1207 03:10:11.123456   4242 main.go:56] rpc error: code = Unknown desc = mismatched shards for keyspace customer: topo shards not in switch command: [0]\n',
    );
    assert.equal(refusalText(out), 'mismatched shards for keyspace customer: topo shards not in switch command: [0]');
  });

  it('keeps the lines of an aggregated error that a v19 glog line goes on with', () => {
    const out = {
      code: 1,
      stdout: '',
      stderr:
        'E1207 03:10:11.123456   4242 main.go:56] rpc error: code = Unknown desc = workflow c2c already exists in keyspace customer on tablet cell:"zone1" uid:200\n' +
        'workflow c2c already exists in keyspace customer on tablet cell:"zone1" uid:300\n',
    };
    assert.equal(
      refusalText(out),
      'workflow c2c already exists in keyspace customer on tablet cell:"zone1" uid:200\nworkflow c2c already exists in keyspace customer on tablet cell:"zone1" uid:300',
    );
  });
  it('a state where Vitess proceeds and breaks serving agrees only with an unquoted block', () => {
    const ok = { code: 0, stdout: 'Successfully cancelled the cust2one workflow in the customer keyspace', stderr: '' };
    assert.equal(judge('blocked', null, ok, true).agree, true);
    assert.equal(judge('ready', null, ok, true).agree, false);
    assert.equal(judge('at-risk', null, ok, true).agree, false);
    assert.equal(judge('blocked', 'some text', ok, true).agree, false);
    assert.equal(judge('blocked', null, ok).agree, false);
  });
  it('takes the text after desc = from a JSON log line', () => {
    const line = JSON.stringify({
      level: 'error',
      msg: 'rpc error: code = Unknown desc = workflow c2c already exists in keyspace customer on tablet zone1-200',
    });
    assert.equal(
      refusalText(refused(`${line}\n`)),
      'workflow c2c already exists in keyspace customer on tablet zone1-200',
    );
  });

  it('falls back to the Error: line of a client-side refusal', () => {
    assert.equal(refusalText(refused('Error: unknown flag: --percent\nUsage: …\n')), 'unknown flag: --percent');
  });
});

describe('normalise', () => {
  it('hides lag seconds, positions, timestamps and stream ids, and sorts a Go list', () => {
    assert.equal(
      normalise('lag 12s > 2s at MariaDB/0-100-57 on stream 3 [80- -80] 2026-12-07 03:10:11'),
      normalise('lag 4s > 2s at MariaDB/0-100-9 on stream 1 [-80 80-] 2026-12-08 01:00:00'),
    );
  });

  it('keeps words and punctuation', () => {
    assert.notEqual(
      normalise('workflow validation failed: mismatched shards for keyspace customer'),
      normalise('mismatched shards for keyspace customer'),
    );
  });
});

describe('judge', () => {
  it('agrees when both refuse with the same text, and counts the template', () => {
    const j = judge(
      'blocked',
      'cannot cancel workflow because you have already switched some or all read and write traffic',
      refused(
        'E1 1:1:1 1 main.go:1] rpc error: code = Unknown desc = cannot cancel workflow because you have already switched some or all read and write traffic',
      ),
    );
    assert.deepEqual([j.agree, j.textReproduced], [true, true]);
  });

  it('disagrees when the refusal texts differ', () => {
    const j = judge(
      'blocked',
      'cannot delete workflow because you have already switched write traffic',
      refused('desc = cannot cancel workflow because you have already switched some or all read and write traffic'),
    );
    assert.equal(j.agree, false);
  });

  it('disagrees when vtpreflight blocks what Vitess does, and when it is ready for what Vitess refuses', () => {
    assert.equal(judge('blocked', 'x', proceeded).agree, false);
    assert.equal(judge('ready', null, refused('desc = no')).agree, false);
  });

  it('counts unverified as a disagreement whichever way Vitess went', () => {
    assert.equal(judge('unverified', null, proceeded).agree, false);
    assert.equal(judge('unverified', null, refused('desc = no')).agree, false);
  });

  it('agrees when ready (or at-risk) and Vitess proceeded, without a template', () => {
    assert.deepEqual(
      [judge('ready', null, proceeded).agree, judge('ready', null, proceeded).textReproduced],
      [true, false],
    );
    assert.equal(judge('at-risk', null, proceeded).agree, true);
  });
});
