/**
 * House conventions that a linter does not check, enforced over every TypeScript file of the repository. Each
 * failure names the file and line to edit.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from './helpers/paths.js';

const HERE = 'test/conventions.test.ts';

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

test(
  'no localeCompare: string order is code-unit order (byCodeUnit in src/text.ts), shard order ' + 'compareShardNames',
  () => {
    // localeCompare follows the process locale (ICU), so the same model could give reports in different orders.
    const found = linesMatching(/\.localeCompare\(/);
    assert.deepEqual(
      found,
      [],
      `edit these lines to use byCodeUnit (src/text.ts) or compareShardNames ` +
        `(src/vitess/keyrange.ts):\n${found.join('\n')}`,
    );
  },
);

/** Longest line, in columns (the formatter's width, biome.json). */
const MAX_COLUMNS = 120;

/**
 * Lines the formatter cannot break (long string literals inside template literals, HTML and CSS of the html report,
 * regular expressions) that are still longer than {@link MAX_COLUMNS}, per file: a ratchet. A file not listed has
 * none; a listed file may not gain any. When you shorten them, lower the number here (the test says so).
 */
const LONG_LINES_LEFT: Readonly<Record<string, number>> = {};

test(`lines are at most ${MAX_COLUMNS} columns (files listed in LONG_LINES_LEFT at most their count)`, () => {
  const problems: string[] = [];
  for (const file of repoSources()) {
    const long = readFileSync(join(repoRoot, file), 'utf8')
      .split('\n')
      .flatMap((line, i) => ([...line].length > MAX_COLUMNS ? [i + 1] : []));
    const allowed = LONG_LINES_LEFT[file] ?? 0;
    if (long.length > allowed)
      problems.push(
        `${file}: ${long.length} line(s) longer than ${MAX_COLUMNS} columns (allowed ${allowed}): ` +
          `break lines ${long.join(', ')} (split long strings with +)`,
      );
    else if (long.length < allowed)
      problems.push(`${file}: ${long.length} long line(s) now: lower its LONG_LINES_LEFT entry in ${HERE} to it`);
  }
  for (const file of Object.keys(LONG_LINES_LEFT))
    if (!repoSources().includes(file)) problems.push(`${file} no longer exists: remove it from LONG_LINES_LEFT`);
  assert.deepEqual(problems, [], `\n${problems.join('\n')}\n`);
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
