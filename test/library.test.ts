/** The package entry exposes the library contract of docs/design.md, via the package's own "exports" map. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from './helpers/paths.js';
import { cluster } from './helpers/cluster.js';
import { VERSION } from '../src/version.js';

test('the package entry exports the contract functions', async () => {
  const lib = await import('vtpreflight');
  for (const name of [
    'parseBinlogSource',
    'parseGtidSet',
    'parsePosition',
    'parseKeyRange',
    'keyRangesIntersect',
    'keyRangeContains',
    'keyRangeEqual',
    'runChecks',
  ]) {
    assert.equal(typeof (lib as Record<string, unknown>)[name], 'function', `missing export ${name}`);
  }
  const bls = lib.parseBinlogSource(
    'keyspace:"commerce" shard:"0" filter:{rules:{match:"t" filter:"select * from t"}}',
  );
  assert.equal(bls.keyspace, 'commerce');
  assert.deepEqual(lib.parseKeyRange('-80'), { start: '', end: '80' });
  assert.equal(lib.parseKeyRange('0'), null);
  assert.ok(lib.keyRangeEqual(lib.parseKeyRange('-80'), lib.parseKeyRange('-8000')));
  const a = lib.parsePosition('MySQL56/3e11fa47-71ca-11e1-9e33-c80aa9429562:1-5');
  const b = lib.parsePosition('MySQL56/3e11fa47-71ca-11e1-9e33-c80aa9429562:1-3');
  assert.ok(a.atLeast(b) && !b.atLeast(a));
  assert.ok(lib.parsePosition('').isZero());
  assert.equal(lib.parseGtidSet('3e11fa47-71ca-11e1-9e33-c80aa9429562:1-5').count(), 5n);
  assert.throws(
    () => lib.parseGtidSet('nope:1-x'),
    (e: Error) => e instanceof Error && !e.message.includes('\n'),
  );
});

test('runChecks turns a readout into the JSON report object', async () => {
  const lib = await import('vtpreflight');
  const readout = cluster()
    .keyspace('customer', { shards: ['0', '-80', '80-'], notServing: ['-80', '80-'] })
    .reshard('r', { keyspace: 'customer', from: ['0'], to: ['-80', '80-'] })
    .readout();
  const report = lib.runChecks(readout);
  assert.equal(report.version, 1);
  assert.equal(report.tool.name, 'vtpreflight');
  assert.deepEqual(
    report.workflows.map((w) => [w.workflow, w.type]),
    [['r', 'Reshard']],
  );
  assert.equal(report.checks.length, lib.CHECKS.length);
});

test('the version constant matches package.json', () => {
  const pkg = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { version: string };
  assert.equal(VERSION, pkg.version);
});
