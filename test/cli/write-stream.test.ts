/**
 * Output files written from a chunked writer (the JSON report streams) stay atomic: the chunks go to the
 * temporary file, which is renamed into place only when the writer finished; a writer that throws leaves no target and
 * no temporary file, and its error is its own (not a "cannot write" usage error).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeFilesAtomically } from '../../src/cli/write.js';
import { UsageError } from '../../src/errors.js';

function withDir(f: (dir: string) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'vtp-write-stream-'));
  return f(dir).finally(() => rmSync(dir, { recursive: true, force: true }));
}

describe('writeFilesAtomically with a chunked writer', () => {
  it('writes every chunk, in order, multi-byte characters included', () =>
    withDir(async (dir) => {
      const path = join(dir, 'r.json');
      const chunks = ['{\n', '  "a": "é中😀"', ',\n  "b": [', ']\n}\n'];
      await writeFilesAtomically([{ path, text: (emit) => chunks.forEach(emit) }]);
      assert.equal(readFileSync(path, 'utf8'), chunks.join(''));
      assert.deepEqual(readdirSync(dir), ['r.json']);
    }));

  it('a writer that throws midway leaves the old file, no temporary file, and throws its own error', () =>
    withDir(async (dir) => {
      const path = join(dir, 'r.json');
      writeFileSync(path, 'old\n');
      const other = join(dir, 'other.txt');
      await assert.rejects(
        writeFilesAtomically([
          { path: other, text: 'fine\n' },
          {
            path,
            text: (emit) => {
              emit('{"half": ');
              throw new TypeError('Do not know how to serialize a BigInt');
            },
          },
        ]),
        (e) => e instanceof TypeError && !(e instanceof UsageError),
      );
      assert.equal(readFileSync(path, 'utf8'), 'old\n');
      assert.equal(existsSync(other), false);
      assert.deepEqual(readdirSync(dir), ['r.json']);
    }));
});
