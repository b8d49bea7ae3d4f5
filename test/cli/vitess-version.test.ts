/**
 * `--vitess-version` (config `vitessVersion`, env `VTPREFLIGHT_VITESS_VERSION`): validated before any I/O, and the
 * report says which Vitess releases it judged against and how it knew (JSON `vitess`, one text line).
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { runCli, snapshotFile, tempDir } from './helpers.js';
import { moveTablesScenario } from '../helpers/reshard-scenario.js';

const tmp = tempDir('vtpreflight-vitess-version-');
let snap = '';
let v19 = '';
before(async () => {
  const b = () => moveTablesScenario(['customer']);
  snap = await snapshotFile(b(), tmp.path('snap.json'));
  v19 = await snapshotFile(b().withoutSidecarColumns(['options']), tmp.path('v19.json'));
});
after(() => tmp.cleanup());

const vitessOf = (stdout: string) => (JSON.parse(stdout) as { vitess: Record<string, unknown> }).vitess;

describe('--vitess-version', () => {
  test('without it, the range is inferred from the cluster and the report says how', async () => {
    const run = await runCli(['check', '--snapshot', snap, '--format', 'json']);
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(vitessOf(run.stdout), {
      judgedAgainst: 'v20–v24',
      lowest: '20.0.0',
      highest: '24.x',
      source: 'cluster',
      evidence: ['_vt.vreplication has the options column (multi-tenant MoveTables, v20) on all 3 primaries read'],
      mixed: null,
    });
    const text = await runCli(['check', '--snapshot', snap, '--format', 'text']);
    assert.match(
      text.stdout,
      /^judged against Vitess v20–v24 \(inferred from the cluster: _vt\.vreplication has the options column/m,
    );
  });
  test('a v19 sidecar schema: judged against v19', async () => {
    const run = await runCli(['check', '--snapshot', v19, '--format', 'json']);
    assert.equal(vitessOf(run.stdout).judgedAgainst, 'v19');
  });
  test('the flag wins, and the text line says where it came from', async () => {
    const run = await runCli(['check', '--snapshot', snap, '--vitess-version', '22.0', '--format', 'json']);
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(vitessOf(run.stdout), {
      judgedAgainst: 'v22.0.x',
      lowest: '22.0.0',
      highest: '22.0.x',
      source: 'flag',
      evidence: ['--vitess-version 22.0'],
      mixed: null,
    });
    const text = await runCli(['check', '--snapshot', snap, '--vitess-version', '22.0.3', '--format', 'text']);
    assert.match(text.stdout, /^judged against Vitess v22\.0\.3 \(from --vitess-version\)$/m);
  });
  test('from the environment and from the config file', async () => {
    const env = await runCli(['check', '--snapshot', snap, '--format', 'json'], {
      env: { VTPREFLIGHT_VITESS_VERSION: '21' },
    });
    assert.equal(vitessOf(env.stdout).source, 'env');
    assert.equal(vitessOf(env.stdout).judgedAgainst, 'v21');
    const cfg = tmp.path('vtpreflight.yaml');
    writeFileSync(cfg, 'vitessVersion: "23.0"\n');
    const fromConfig = await runCli(['check', '--snapshot', snap, '--config', cfg, '--format', 'json']);
    assert.equal(vitessOf(fromConfig.stdout).source, 'config');
    assert.equal(vitessOf(fromConfig.stdout).judgedAgainst, 'v23.0.x');
  });
  test('a given release the cluster contradicts is judged as given, with vitess-version-mismatch warning', async () => {
    const run = await runCli(['check', '--snapshot', snap, '--vitess-version', '19', '--format', 'json']);
    const report = JSON.parse(run.stdout) as { findings: { check: string; severity: string; message: string }[] };
    const f = report.findings.filter((x) => x.check === 'vitess-version-mismatch');
    assert.equal(f.length, 1);
    assert.equal(f[0]!.severity, 'warning');
    assert.match(f[0]!.message, /v19 was given, but the cluster shows v20–v24/);
  });
  test('a bad value is a one-line usage error, exit 2, before any I/O', async () => {
    const run = await runCli(['check', '--snapshot', snap, '--vitess-version', 'latest']);
    assert.equal(run.code, 2);
    assert.equal(run.stdout, '');
    assert.match(
      run.stderr,
      /^vtpreflight: invalid --vitess-version "latest": use a Vitess release such as 22, 22\.0 or 22\.0\.3\n$/,
    );
    const old = await runCli(['check', '--snapshot', snap], { env: { VTPREFLIGHT_VITESS_VERSION: '17.0' } });
    assert.equal(old.code, 2);
    assert.match(old.stderr, /invalid VTPREFLIGHT_VITESS_VERSION "17\.0": vtpreflight models Vitess v19 to v24/);
  });
});
