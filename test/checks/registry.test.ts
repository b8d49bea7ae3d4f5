/** Meta-test of the check registry (STYLE.md §3). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CHECKS } from '../../checks/index.js';
import { renderCatalogMarkdown, renderFidelityMarkdown } from '../../src/catalog.js';
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
  const files = readdirSync(join(repoRoot, 'checks')).filter((f) => f.endsWith('.ts') && f !== 'index.ts');
  const ids = CHECKS.map((c) => c.id);
  assert.deepEqual([...files.map((f) => f.replace(/\.ts$/, ''))].sort(), [...ids].sort());
  assert.equal(new Set(ids).size, ids.length, 'duplicate check id');
  assert.deepEqual(ids, [...ids].sort(), 'registry not sorted by id');
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
    assert.match(c.id, /^[a-z]+(-[a-z]+)*$/, `${c.id}: id is not kebab-case`);
    assert.ok(c.title.trim() !== '' && c.title !== c.id, `${c.id}: empty title`);
    assert.ok(c.description.trim().length > 40, `${c.id}: description too short`);
    assert.ok(c.remediation.trim().endsWith('.'), `${c.id}: remediation must end with a period`);
    assert.ok(['error', 'warning', 'info'].includes(c.severity), `${c.id}: bad severity`);
    assert.ok(
      existsSync(join(repoRoot, 'test', 'checks', `${c.id}.test.ts`)),
      `${c.id}: no test/checks/${c.id}.test.ts`,
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
    renderFidelityMarkdown(CHECKS, copiedUpstream(repoRoot)),
    'README fidelity table drifted: run `npm run build && node dist/scripts/gen-readme.js`',
  );
});
