/**
 * README.md is a newcomer's page: short, with the reference material in docs/ and a link to each page there.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from './helpers/paths.js';

const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');

test('README.md stays under 250 lines and holds no generated table', () => {
  const lines = readme.split('\n').length;
  assert.ok(lines < 250, `README.md has ${lines} lines: move reference material to a page of docs/`);
  assert.doesNotMatch(readme, /<!-- (catalog|fidelity):begin -->/, 'generated tables live in docs/');
});

test('README.md links every page of docs/ and the decision records', () => {
  const pages = readdirSync(join(repoRoot, 'docs')).filter((f) => f.endsWith('.md'));
  assert.ok(pages.length > 0);
  for (const page of pages) assert.ok(readme.includes(`](docs/${page})`), `README.md does not link docs/${page}`);
  assert.ok(readme.includes('](docs/decisions/)'), 'README.md does not link docs/decisions/');
  assert.ok(readme.includes('](CHANGELOG.md)'), 'README.md does not link CHANGELOG.md');
});

test('the two set-up commands README promises exist', () => {
  const scripts = (
    JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { scripts: Record<string, string> }
  ).scripts;
  for (const s of ['demo', 'test']) {
    assert.ok(readme.includes(`npm run ${s}`) || readme.includes(`npm ${s}`), `README.md names npm ${s}`);
    assert.ok(scripts[s], `package.json has the ${s} script`);
  }
});
