/**
 * The repository stands on its own: its sources and documents point only at files in the repository or at upstream
 * code (`vitessio/vitess` with a file, and a commit or release). No path outside the repository, no code of a
 * working document that is not in it, no section sign into such a document, no number of this project's issues.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { repoRoot } from './helpers/paths.js';

/** The folders and top-level files a clone holds (build output, dependencies and git's own files excluded). */
const ROOTS = [
  'src',
  'checks',
  'test',
  'scripts',
  'bench',
  'docs',
  'protos',
  'examples',
  'compose',
  '.ci',
  'README.md',
  'CONTRIBUTING.md',
  'CHANGELOG.md',
  'Dockerfile',
  'docker-compose.yml',
  '.env.example',
  'package.json',
  'biome.json',
  'tsconfig.json',
];

/** Binary and opaque files: nothing to read in them. */
const OPAQUE = /\.(bin|pem|key|crt|der|p12|png|jpg|gz)$/;

/** Every text file of the repository, as repository-relative paths. */
function repoTextFiles(): string[] {
  const out: string[] = [];
  const walk = (rel: string): void => {
    const abs = join(repoRoot, rel);
    if (!existsSync(abs)) return;
    if (statSync(abs).isDirectory()) for (const name of readdirSync(abs).sort()) walk(`${rel}/${name}`);
    else if (!OPAQUE.test(rel)) out.push(rel);
  };
  for (const r of ROOTS) walk(r);
  return out;
}

/** The working documents the project was built from, which are not in the repository. */
const OUTSIDE_DOCUMENTS = new RegExp(
  `\\b(${[
    'FIELD-FAILURES',
    'FIDELITY-AUDIT(-\\d+)?',
    'WORKFLOW-ACTIONS',
    'VTCTLD-WIRE',
    'REAL-VITESS',
    'REVIEW-DESIGN',
    'DESIGN\\.md',
    'STYLE\\.md',
    'VITESS\\.md',
  ].join('|')})\\b`,
);

interface Rule {
  readonly name: string;
  /** The offending text on the line, or null. */
  readonly find: (line: string, file: string) => string | null;
}

const match = (re: RegExp) => (line: string) => re.exec(line)?.[0] ?? null;

/** Markdown files of the repository by base name, for mentions without a folder (`README.md`). */
const knownBaseNames = (files: readonly string[]) =>
  new Set(files.filter((f) => f.endsWith('.md')).map((f) => basename(f)));

export const RULES: readonly Rule[] = [
  { name: 'a code of a working document outside the repository', find: match(/\bFF-\d+\b/) },
  { name: 'a path outside the repository', find: match(/\.\.\/shared\b|\/work\/[\w-]+|\bshared\/[A-Z]/) },
  { name: 'a working document that is not in the repository', find: match(OUTSIDE_DOCUMENTS) },
  { name: 'a section sign into a document (cite the file in the repository instead)', find: match(/§/) },
  {
    name: "a number of this project's issues (upstream ones are vitessio/vitess#N)",
    find: (line) => (/vitessio\/|vitess-operator/.test(line) ? null : match(/\bissues?[ -]#?\d+\b/i)(line)),
  },
];

/** `docs/…​.md` mentions that name no file of the repository. */
function missingDocs(line: string, file: string): string | null {
  for (const m of line.matchAll(/\bdocs\/[\w./-]*\.md\b/g)) {
    const p = m[0];
    if (!existsSync(join(repoRoot, p)) && !existsSync(join(repoRoot, dirname(file), p))) return p;
  }
  return null;
}

test('sources and documents point only at the repository and at upstream', () => {
  const files = repoTextFiles();
  assert.ok(files.includes('README.md') && files.some((f) => f.startsWith('src/')), 'the walk found the repository');
  const names = knownBaseNames(files);
  const found: string[] = [];
  for (const file of files) {
    if (file === 'test/self-contained.test.ts') continue;
    readFileSync(join(repoRoot, file), 'utf8')
      .split('\n')
      .forEach((line, i) => {
        for (const r of RULES) {
          const hit = r.find(line, file);
          if (hit !== null) found.push(`${file}:${i + 1}: ${r.name}: ${hit}`);
        }
        const doc = missingDocs(line, file);
        if (doc !== null) found.push(`${file}:${i + 1}: a document that does not exist: ${doc}`);
        for (const m of line.matchAll(/\b[A-Z][A-Z0-9_-]*\.md\b/g))
          if (!names.has(m[0])) found.push(`${file}:${i + 1}: a document that is not in the repository: ${m[0]}`);
      });
  }
  assert.deepEqual(found, [], `\n${found.join('\n')}\n`);
});

test('each rule finds what it forbids, and lets upstream citations through', () => {
  const hits = (line: string) => RULES.filter((r) => r.find(line, 'src/x.ts') !== null).map((r) => r.name);
  assert.equal(hits('// the sequence reads (FF-18)').length, 1);
  assert.equal(hits('// see ../shared/VTCTLD-WIRE.md').length, 2);
  assert.equal(hits('// as FIELD-FAILURES.md says').length, 1);
  assert.equal(hits('// the contract of DESIGN.md').length, 1);
  assert.equal(hits('// WORKFLOW-ACTIONS §17').length, 2);
  assert.equal(hits('// fixed in issue 13').length, 1);
  assert.equal(hits('// copied from /work/main/docs').length, 1);
  assert.deepEqual(hits('// vitessio/vitess#20838: a finished Online DDL keeps its row (issue 20838 upstream)'), []);
  assert.deepEqual(hits('// `vitessio/vitess` go/vt/vtctl/workflow/server.go:3151 @v0.22.4'), []);
  assert.deepEqual(hits('// the contract of docs/report-contract.md'), []);
  assert.equal(missingDocs('see docs/no-such-page.md', 'src/x.ts'), 'docs/no-such-page.md');
  assert.equal(missingDocs('see docs/report-contract.md', 'src/x.ts'), null);
});
