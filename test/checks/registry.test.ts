/** Meta-test of the check registry (STYLE.md §3). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CHECKS } from '../../checks/index.js';
import { renderCatalogMarkdown, renderFidelityMarkdown } from '../../src/catalog.js';
import { reproducedReasons } from '../real-vitess/states.js';
import { copiedUpstream } from '../../scripts/upstream-fixtures.js';
import { repoRoot } from '../helpers/paths.js';

const DESIGN_IDS = [
  'stream-set-mismatch',
  'stream-coverage',
  'shard-set-mismatch',
  'position-drift',
  'stop-after-copy-state',
  'missing-source',
  'source-not-serving',
  'source-streams-not-running',
  'multiple-source-keyspaces',
  'multiple-target-keyspaces',
  'table-list-mismatch',
  'no-streams',
  'stream-error',
  'copy-incomplete',
  'replication-lag',
  'binlogs-purged',
  'frozen-workflow',
  'unreachable',
];

test('every file in checks/ is registered, with its file name as id', () => {
  const files = readdirSync(join(repoRoot, 'checks'))
    .filter((f) => f.endsWith('.ts') && f !== 'index.ts')
    .map((f) => f.replace(/\.ts$/, ''));
  const ids = CHECKS.map((c) => c.id);
  for (const f of files)
    assert.ok(
      ids.includes(f),
      `checks/${f}.ts is not in the registry: add its import and entry to checks/index.ts in sorted position (or create checks with \`npm run new-check -- <id>\`), and its id must be '${f}'`,
    );
  for (const id of ids)
    assert.ok(files.includes(id), `check id '${id}' has no file checks/${id}.ts: rename the file or fix the id`);
  assert.equal(new Set(ids).size, ids.length, 'duplicate check id in checks/index.ts');
  assert.deepEqual(ids, [...ids].sort(), 'checks/index.ts: keep the CHECKS array sorted by id');
});

test('every catalog id of DESIGN.md has a module', () => {
  for (const id of DESIGN_IDS)
    assert.ok(
      CHECKS.some((c) => c.id === id),
      `missing check ${id}`,
    );
});

test('every check is documented and has a table test', () => {
  for (const c of CHECKS) {
    const file = `checks/${c.id}.ts`;
    assert.match(c.id, /^[a-z]+(-[a-z]+)*$/, `${file}: the id is not kebab-case`);
    assert.ok(c.title.trim() !== '' && c.title !== c.id, `${file}: give the check a title`);
    assert.ok(c.description.trim().length > 40, `${file}: the description is too short (why it matters, upstream)`);
    assert.ok(c.remediation.trim().endsWith('.'), `${file}: the remediation must end with a period`);
    assert.ok(['error', 'warning', 'info'].includes(c.severity), `${file}: bad severity`);
    assert.ok(
      existsSync(join(repoRoot, 'test', 'checks', `${c.id}.test.ts`)),
      `${file} has no table test: write test/checks/${c.id}.test.ts (checkTester; see npm run new-check)`,
    );
  }
});

test('the README catalog is generated from the check modules', () => {
  const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');
  const m = /<!-- catalog:begin -->\n([\s\S]*?)<!-- catalog:end -->/.exec(readme);
  assert.ok(m, 'README.md lacks the <!-- catalog:begin --> / <!-- catalog:end --> markers');
  assert.equal(
    m[1],
    renderCatalogMarkdown(CHECKS),
    'README catalog drifted: run `npm run build && node dist/scripts/gen-readme.js`',
  );
});

test('the README fidelity table is generated from the declared reasons and the upstream fixtures', () => {
  const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');
  const m = /<!-- fidelity:begin -->\n([\s\S]*?)<!-- fidelity:end -->/.exec(readme);
  assert.ok(m, 'README.md lacks the <!-- fidelity:begin --> / <!-- fidelity:end --> markers');
  assert.equal(
    m[1],
    renderFidelityMarkdown(CHECKS, copiedUpstream(repoRoot), reproducedReasons()),
    'README fidelity table drifted: run `npm run build && node dist/scripts/gen-readme.js`',
  );
});
