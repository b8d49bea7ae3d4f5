/** The format registry: every format renders every fixture purely, and the names match the CLI contract. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { FORMATS, RENDERERS, isReportFormat, renderReport } from '../../src/report/index.js';
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
