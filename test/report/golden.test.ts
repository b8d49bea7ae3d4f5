/**
 * Golden-file tests: each reporter renders the fixed report fixtures and must match the committed output
 * byte for byte. Regenerate with UPDATE_GOLDEN=1 (see helpers.ts) and review the diff.
 */
import { describe, it } from 'node:test';
import { extensionOf, FORMATS, renderReport } from '../../src/report/index.js';
import { assertGolden, loadReport } from './helpers.js';

describe('golden files', () => {
  for (const fixture of ['sample', 'healthy']) {
    for (const format of FORMATS) {
      it(`${fixture} report as ${format}`, () => {
        const report = loadReport(fixture);
        assertGolden(
          renderReport(format, report, { color: false, width: 100 }),
          `${fixture}.golden.${extensionOf(format)}`,
        );
      });
    }
  }
  it('sample report as verbose text', () => {
    assertGolden(
      renderReport('text', loadReport('sample'), { color: false, width: 100, verbose: true }),
      'sample.verbose.golden.txt',
    );
  });
  it('sample report as verbose markdown', () => {
    assertGolden(
      renderReport('markdown', loadReport('sample'), { color: false, verbose: true }),
      'sample.verbose.golden.md',
    );
  });
  it('sample report as coloured text', () => {
    assertGolden(renderReport('text', loadReport('sample'), { color: true, width: 100 }), 'sample.color.golden.txt');
  });
});
