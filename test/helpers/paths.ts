/** Paths for tests, resolved from the compiled location (dist/test/helpers → repo root). */
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
export const cliPath = join(repoRoot, 'dist', 'src', 'cli.js');
