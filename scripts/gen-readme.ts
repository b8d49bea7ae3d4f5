/** Regenerates the check catalog and the fidelity table in README.md from the check modules (between their markers). */
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CHECKS } from '../checks/index.js';
import { renderCatalogMarkdown, renderFidelityMarkdown } from '../src/catalog.js';
import { copiedUpstream } from './upstream-fixtures.js';
import { reproducedReasons } from '../test/real-vitess/states.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const path = join(root, 'README.md');
const readme = readFileSync(path, 'utf8');
const next = readme
  .replace(/(<!-- catalog:begin -->\n)[\s\S]*?(<!-- catalog:end -->)/, `$1${renderCatalogMarkdown(CHECKS)}$2`)
  .replace(
    /(<!-- fidelity:begin -->\n)[\s\S]*?(<!-- fidelity:end -->)/,
    `$1${renderFidelityMarkdown(CHECKS, copiedUpstream(root), reproducedReasons())}$2`,
  );
if (next === readme) console.log('README catalog already up to date');
else {
  writeFileSync(path, next);
  console.log('README catalog regenerated');
}
