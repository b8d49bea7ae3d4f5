/** The format registry: every format renders every fixture purely, and the names match the CLI contract. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  extensionOf,
  FORMATS,
  formatOfExtension,
  isReportFormat,
  RENDERERS,
  REPORTERS,
  renderReport,
} from '../../src/report/index.js';
import { repoRoot } from '../helpers/paths.js';
import { deepFreeze, loadReport, makeReport } from './helpers.js';

describe('report formats', () => {
  it('lists the formats of the CLI contract', () => {
    assert.deepEqual([...FORMATS], ['text', 'json', 'junit', 'markdown', 'html']);
    assert.deepEqual(Object.keys(RENDERERS).sort(), [...FORMATS].sort());
    assert.ok(isReportFormat('junit'));
    assert.ok(isReportFormat('html'));
    assert.equal(isReportFormat('pdf'), false);
    assert.equal(isReportFormat('toString'), false);
  });

  it('each reporter declares its extensions; --output picks the format by them, and golden files use the first', () => {
    assert.deepEqual(
      FORMATS.map((f) => [f, extensionOf(f)]),
      [
        ['text', 'txt'],
        ['json', 'json'],
        ['junit', 'xml'],
        ['markdown', 'md'],
        ['html', 'html'],
      ],
    );
    assert.equal(formatOfExtension('HTM'), 'html');
    assert.equal(formatOfExtension('markdown'), 'markdown');
    assert.equal(formatOfExtension('pdf'), undefined);
    const all = REPORTERS.flatMap((r) => r.extensions);
    assert.equal(new Set(all).size, all.length, `an extension is claimed twice: ${all.join(', ')}`);
    for (const r of REPORTERS)
      for (const fixture of ['sample', 'healthy']) {
        const golden = join(repoRoot, 'test', 'fixtures', 'reports', `${fixture}.golden.${r.extensions[0]}`);
        assert.ok(existsSync(golden), `no ${golden}: run UPDATE_GOLDEN=1 npm test and review the new file`);
      }
  });

  it('every module of src/report that declares a reporter is in the registry', () => {
    const dir = join(repoRoot, 'src', 'report');
    for (const file of readdirSync(dir).filter((f) => f.endsWith('.ts'))) {
      if (!/^export const reporter\b/m.test(readFileSync(join(dir, file), 'utf8'))) continue;
      const format = file.replace(/\.ts$/, '');
      assert.ok(
        REPORTERS.some((r) => r.format === format),
        `src/report/${file} declares a reporter that is not registered: add it to REPORTERS in src/report/index.ts`,
      );
    }
  });

  it('every reporter is pure and deterministic, and ends with one newline', () => {
    for (const name of ['sample', 'healthy']) {
      const report = deepFreeze(loadReport(name));
      for (const format of FORMATS) {
        for (const opts of [{ color: false }, { color: true, width: 60, verbose: true }]) {
          const a = renderReport(format, report, opts);
          assert.equal(a, renderReport(format, report, opts), `${format} ${name}`);
          assert.ok(a.endsWith('\n') && !a.endsWith('\n\n'), `${format} ${name}`);
        }
      }
    }
  });

  it('only text colours', () => {
    const report = loadReport('sample');
    for (const format of FORMATS) {
      const coloured = renderReport(format, report, { color: true });
      assert.equal(coloured.includes('\u001b['), format === 'text', format);
    }
  });

  it('renders a report with no workflows and no checks', () => {
    const report = deepFreeze(makeReport([], { workflows: [], checks: [] }));
    for (const format of FORMATS) assert.ok(renderReport(format, report, { color: false }).length > 0, format);
  });
});
