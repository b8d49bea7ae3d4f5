/**
 * The input registry of `check` (src/cli/inputs): every input file is registered, exactly one input (the live
 * cluster) is the default, every other input's flag is on `check`, and two inputs' flags at once are refused.
 */
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { buildProgram } from '../../src/cli.js';
import { INPUTS } from '../../src/cli/inputs/index.js';
import { repoRoot } from '../helpers/paths.js';
import { runCli } from './helpers.js';

describe('check inputs registry', () => {
  test('every file in src/cli/inputs is registered once, by its file name', () => {
    const files = readdirSync(join(repoRoot, 'src', 'cli', 'inputs'))
      .filter((f) => f.endsWith('.ts') && f !== 'index.ts' && f !== 'types.ts')
      .map((f) => f.replace(/\.ts$/, ''))
      .sort();
    assert.deepEqual(INPUTS.map((i) => i.name).sort(), files);
  });

  test('one default input (the live cluster); every other input has its flag on check', () => {
    assert.deepEqual(
      INPUTS.filter((i) => i.option === undefined).map((i) => i.name),
      ['live'],
    );
    const check = buildProgram().commands.find((c) => c.name() === 'check')!;
    const longs = check.options.map((o) => o.long);
    for (const input of INPUTS) if (input.option) assert.ok(longs.includes(input.option().long), input.name);
  });

  test('two inputs at once: exit 2, one line naming both flags', async () => {
    const r = await runCli(['check', '--workflows-json', 'a.json', '--snapshot', 'b.json']);
    assert.deepEqual(
      [r.code, r.stdout, r.stderr],
      [2, '', 'vtpreflight: --workflows-json cannot be combined with --snapshot: it checks a file offline\n'],
    );
  });
});
