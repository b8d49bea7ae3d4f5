/** Meta-test of the check registry: every check registered, documented, tested, and its generated docs current. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { CHECKS } from '../../checks/index.js';
import { committedTable, generatedTables } from '../../scripts/gen-readme.js';
import { repoRoot } from '../helpers/paths.js';

const FIRST_CATALOG_IDS = [
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

test('every check id of the original catalog (docs/design.md) has a module', () => {
  for (const id of FIRST_CATALOG_IDS)
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

test('the catalog in docs/checks.md and the fidelity table in docs/fidelity.md are generated from the checks', () => {
  const tables = generatedTables(repoRoot);
  assert.deepEqual(
    tables.map((t) => t.file),
    ['docs/checks.md', 'docs/fidelity.md'],
  );
  for (const t of tables) {
    const committed = committedTable(repoRoot, t);
    assert.ok(
      committed !== undefined,
      `${t.file} lacks the <!-- ${t.marker}:begin --> / <!-- ${t.marker}:end --> markers`,
    );
    assert.equal(committed, t.render(), `${t.file} drifted: run \`npm run build && node dist/scripts/gen-readme.js\``);
  }
});
