/**
 * Regenerates the generated tables of the documentation from the check modules: the check catalog in
 * docs/checks.md and the fidelity table in docs/fidelity.md, each between its `<!-- name:begin -->` and
 * `<!-- name:end -->` markers. The prose around the markers is written by hand. `test/checks/registry.test.ts`
 * fails when a committed table differs from what this renders.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CHECKS } from '../checks/index.js';
import { renderCatalogMarkdown, renderFidelityMarkdown } from '../src/catalog.js';
import { copiedUpstream } from './upstream-fixtures.js';
import { reproducedReasons } from '../test/real-vitess/states.js';

/** One generated table: the file that holds it (relative to the repository root), its marker name and its text. */
export interface GeneratedTable {
  readonly file: string;
  readonly marker: string;
  readonly render: () => string;
}

/** Every generated table of the documentation, rendered from the registry of `root`. */
export function generatedTables(root: string): readonly GeneratedTable[] {
  return [
    { file: 'docs/checks.md', marker: 'catalog', render: () => renderCatalogMarkdown(CHECKS) },
    {
      file: 'docs/fidelity.md',
      marker: 'fidelity',
      render: () => renderFidelityMarkdown(CHECKS, copiedUpstream(root), reproducedReasons()),
    },
  ];
}

const markers = (marker: string) => new RegExp(`(<!-- ${marker}:begin -->\\n)[\\s\\S]*?(<!-- ${marker}:end -->)`);

/** The committed text between a table's markers, or undefined when the file lacks them. */
export function committedTable(root: string, t: GeneratedTable): string | undefined {
  const m = new RegExp(`<!-- ${t.marker}:begin -->\\n([\\s\\S]*?)<!-- ${t.marker}:end -->`).exec(
    readFileSync(join(root, t.file), 'utf8'),
  );
  return m?.[1];
}

/** Rewrites every generated table of `root` in place; returns the files that changed. */
export function regenerate(root: string): string[] {
  const changed: string[] = [];
  for (const t of generatedTables(root)) {
    const path = join(root, t.file);
    const text = readFileSync(path, 'utf8');
    if (!markers(t.marker).test(text)) throw new Error(`${t.file} lacks the <!-- ${t.marker}:begin/end --> markers`);
    const next = text.replace(markers(t.marker), (_all, begin: string, end: string) => `${begin}${t.render()}${end}`);
    if (next !== text) {
      writeFileSync(path, next);
      changed.push(t.file);
    }
  }
  return changed;
}

const isMain = process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
  const changed = regenerate(root);
  console.log(changed.length === 0 ? 'generated docs already up to date' : `regenerated ${changed.join(', ')}`);
}
