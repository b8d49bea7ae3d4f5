/**
 * The check scaffold (`npm run new-check -- <id>`, scripts/new-check.ts): its text edits, and the proof that a check
 * it writes passes the meta-tests as generated. The proof runs on a copy of the repository (the working tree's
 * sources, node_modules linked): scaffold, compile, regenerate docs/checks.md, lint the new files, then run the
 * new check's table test, the registry and reason meta-tests, the layer rule and the conventions test.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { camelOf, scaffold, withRegistryLine, withScenario } from '../../scripts/new-check.js';
import { repoRoot } from '../helpers/paths.js';

const INDEX = `import type { Check } from '../src/engine/check.js';
import alpha from './alpha.js';
import gammaRay from './gamma-ray.js';

export const CHECKS: readonly Check[] = Object.freeze([
  alpha,
  gammaRay,
]);
`;

describe('new-check text edits', () => {
  it('names the import in camelCase and puts the registry line in sorted position', () => {
    assert.equal(camelOf('beta-check'), 'betaCheck');
    assert.equal(
      withRegistryLine(INDEX, 'beta-check'),
      INDEX.replace('import gammaRay', "import betaCheck from './beta-check.js';\nimport gammaRay").replace(
        '  gammaRay,',
        '  betaCheck,\n  gammaRay,',
      ),
    );
    const last = withRegistryLine(INDEX, 'zeta');
    assert.match(last, /import gammaRay from '\.\/gamma-ray\.js';\nimport zeta from '\.\/zeta\.js';\n/);
    assert.match(last, / {2}gammaRay,\n {2}zeta,\n\]\);/);
  });

  it('puts the end-to-end scenario in PER_CHECK in id order', () => {
    const scenarios = `export const PER_CHECK: readonly Scenario[] = [
  {
    check: 'alpha',
    name: 'a',
  },
  {
    // a comment line
    check: 'gamma-ray',
    name: 'g',
  },
];
`;
    const out = withScenario(scenarios, 'beta-check');
    assert.ok(out.indexOf("check: 'alpha'") < out.indexOf("check: 'beta-check'"));
    assert.ok(out.indexOf("check: 'beta-check'") < out.indexOf('// a comment line'));
    assert.ok(
      withScenario(scenarios, 'zeta')
        .trimEnd()
        .endsWith(
          "check: 'zeta',\n    name: 'a stream stopped by hand (scaffold example: replace it with a representative invalid case)',\n    build: () => moveTables().patchStream('customer', '-80', 1, { state: 'Stopped', message: '' }),\n    expect: (r) =>\n      assertFindings(r, 'zeta', [\n        { severity: 'info', keyspace: 'customer', shard: '-80', streamId: 1, details: { reason: 'stoppedByHand' } },\n      ]),\n  },\n];",
        ),
    );
  });

  it('refuses an id that is not kebab-case or that exists, writing nothing', () => {
    assert.throws(() => scaffold(repoRoot, 'Bad_Id'), /^Error: invalid check id "Bad_Id": use kebab-case/);
    assert.throws(() => scaffold(repoRoot, 'stream-error'), /^Error: check stream-error exists/);
  });
});

describe('a scaffolded check on a copy of the repository', () => {
  it('compiles, lints and passes its own table and every meta-test', { timeout: 300_000 }, () => {
    const dir = mkdtempSync(join(tmpdir(), 'vtpreflight-new-check-'));
    try {
      for (const p of ['src', 'checks', 'test', 'scripts', 'bench', 'protos', 'docs'])
        cpSync(join(repoRoot, p), join(dir, p), { recursive: true });
      for (const f of ['README.md', 'package.json', 'tsconfig.json', 'biome.json', '.gitignore'])
        cpSync(join(repoRoot, f), join(dir, f));
      symlinkSync(join(repoRoot, 'node_modules'), join(dir, 'node_modules'), 'dir');
      const id = 'example-scaffolded';
      const written = scaffold(dir, id);
      assert.deepEqual(written, [
        `checks/${id}.ts`,
        `test/checks/${id}.test.ts`,
        'checks/index.ts',
        'test/e2e/scenarios.ts',
      ]);
      // A child `node --test` inside this test run would report to this runner instead of its stdout.
      const { NODE_TEST_CONTEXT: _parent, ...env } = process.env;
      const run = (cmd: string, args: string[]) =>
        execFileSync(cmd, args, { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env });
      run(join(dir, 'node_modules', '.bin', 'tsc'), ['-p', 'tsconfig.json']);
      run(process.execPath, ['dist/scripts/gen-readme.js']);
      assert.match(readFileSync(join(dir, 'docs', 'checks.md'), 'utf8'), new RegExp(`\\b${id}\\b`));
      run(join(dir, 'node_modules', '.bin', 'biome'), [
        'check',
        `checks/${id}.ts`,
        `test/checks/${id}.test.ts`,
        'checks/index.ts',
        'test/e2e/scenarios.ts',
      ]);
      const tap = (args: string[]): string => {
        try {
          return run(process.execPath, ['--test', '--test-reporter=tap', ...args]);
        } catch (e) {
          return assert.fail(`tests failed in the copy:\n${(e as { stdout?: string }).stdout ?? String(e)}`);
        }
      };
      const out = tap([
        `dist/test/checks/${id}.test.js`,
        'dist/test/checks/registry.test.js',
        'dist/test/layers.test.js',
        'dist/test/conventions.test.js',
      ]);
      assert.match(out, /^# fail 0$/m, out);
      assert.match(out, /ok \d+ - invalid: a stream stopped by hand/, out);
      // The per-reason meta-test, for the new check's reasons (`<id> › <reason>`).
      if (existsSync(join(dir, 'dist/test/checks/reasons.test.js'))) {
        const reasons = tap([`--test-name-pattern=${id}`, 'dist/test/checks/reasons.test.js']);
        assert.match(reasons, new RegExp(`^ +ok \\d+ - ${id} › stoppedByHand`, 'm'), reasons);
      }
      // test/e2e/checks.test.ts needs a live cluster; its first assertion (a scenario per check) is checked here.
      const e2e = run(process.execPath, [
        '--input-type=module',
        '-e',
        "const { CHECKS } = await import('./dist/checks/index.js');const { PER_CHECK } = await import('./dist/test/e2e/scenarios.js');console.log(JSON.stringify(PER_CHECK.map((s) => s.check)) === JSON.stringify(CHECKS.map((c) => c.id)));",
      ]);
      assert.equal(e2e.trim(), 'true');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
