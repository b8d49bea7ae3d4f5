/**
 * House conventions that a linter does not check, enforced over every TypeScript file of the repository. Each
 * failure names the file and line to edit.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { findSplitStrings, literalsOf } from '../scripts/join-strings.js';
import { repoRoot } from './helpers/paths.js';

/** Every `.ts` file under the project's source folders, as repository-relative paths. */
export function repoSources(): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const name of readdirSync(join(repoRoot, dir)).sort()) {
      const rel = `${dir}/${name}`;
      if (statSync(join(repoRoot, rel)).isDirectory()) walk(rel);
      else if (rel.endsWith('.ts') && !rel.endsWith('.d.ts')) out.push(rel);
    }
  };
  for (const dir of ['src', 'checks', 'test', 'bench', 'scripts']) walk(dir);
  return out;
}

/** `file:line` of every line matching `re`, comments included (a comment that shows the call is fine to reword). */
function linesMatching(re: RegExp, skip: (line: string) => boolean = () => false): string[] {
  const out: string[] = [];
  for (const file of repoSources()) {
    if (file === 'test/conventions.test.ts') continue;
    readFileSync(join(repoRoot, file), 'utf8')
      .split('\n')
      .forEach((line, i) => {
        if (re.test(line) && !skip(line)) out.push(`${file}:${i + 1}`);
      });
  }
  return out;
}

test('no localeCompare: string order is code-unit order (byCodeUnit in src/text.ts), shard order compareShardNames', () => {
  // localeCompare follows the process locale (ICU), so the same model could give reports in different orders.
  const found = linesMatching(/\.localeCompare\(/);
  assert.deepEqual(
    found,
    [],
    `edit these lines to use byCodeUnit (src/text.ts) or compareShardNames (src/vitess/keyrange.ts):\n${found.join('\n')}`,
  );
});

/** Longest line, in columns (the formatter's width, biome.json), string and template literals aside. */
const MAX_COLUMNS = 120;

/**
 * A line's length with the contents of its string and template literals left out: a sentence vtpreflight prints
 * stays one literal however long (so it can be found with grep), and everything else fits the formatter's width.
 */
function codeColumns(text: string, literals: ReturnType<typeof literalsOf>, line: string, lineStart: number): number {
  let cut = 0;
  for (const l of literals) {
    const from = Math.max(l.start + 1, lineStart);
    const to = Math.min(l.end - 1, lineStart + line.length);
    if (to > from) cut += [...text.slice(from, to)].length;
  }
  return [...line].length - cut;
}

test(`lines are at most ${MAX_COLUMNS} columns, string and template literals aside`, () => {
  const problems: string[] = [];
  for (const file of repoSources()) {
    const text = readFileSync(join(repoRoot, file), 'utf8');
    let at = 0;
    const long: number[] = [];
    const literals = literalsOf(text);
    text.split('\n').forEach((line, i) => {
      if ([...line].length > MAX_COLUMNS && codeColumns(text, literals, line, at) > MAX_COLUMNS) long.push(i + 1);
      at += line.length + 1;
    });
    if (long.length > 0)
      problems.push(`${file}: code longer than ${MAX_COLUMNS} columns on lines ${long.join(', ')}: break the code`);
  }
  assert.deepEqual(problems, [], `\n${problems.join('\n')}\n`);
});

test('a text is one literal: no string split across lines with + to fit the width', () => {
  const found: string[] = [];
  for (const file of repoSources())
    for (const s of findSplitStrings(readFileSync(join(repoRoot, file), 'utf8'))) found.push(`${file}:${s.line}`);
  assert.deepEqual(
    found,
    [],
    `join these literals (\`npm run build && node dist/scripts/join-strings.js\`, then \`npm run format\`):\n${found.join('\n')}`,
  );
});

test('read failures are judged by their typed kind and part, never by matching the text of what or reason', () => {
  // `ReadFailure.kind` (from the driver's codes, src/sources/read-kind.ts) and `ReadFailure.part` (where in the
  // readout it failed, src/model/build.ts) say what a regex over `what`/`reason` would guess from wording.
  const judging = (file: string) => /^(checks|src\/engine|src\/model|src\/report)\//.test(file);
  const re = /\.(test|exec)\([^)]*\.(what|reason)\b|\.(what|reason)\.(match|startsWith)\(/;
  const found = linesMatching(re).filter((at) => judging(at));
  assert.deepEqual(
    found,
    [],
    `edit these lines to use ReadFailure.kind / part (src/model/types.ts), or ReadError.kind:\n${found.join('\n')}`,
  );
});
