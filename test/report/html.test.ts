/** The `html` reporter's pure parts: cell states, escaping, the embedded JSON, self-containment. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { StreamSummary } from '../../src/engine/report.js';
import renderHtml, { cellState, htmlAttr, htmlText, scriptJson } from '../../src/report/html.js';
import { toContractJson } from '../../src/report/json.js';
import { deepFreeze, finding, loadReport, makeReport } from './helpers.js';

const stream = (over: Partial<StreamSummary> = {}): StreamSummary => ({
  keyspace: 'customer',
  workflow: 'wf',
  shard: '-80',
  streamId: 1,
  tablet: 'zone1-0000000100',
  sourceKeyspace: 'commerce',
  sourceShard: '0',
  state: 'Running',
  position: 'MySQL56/x:1-5',
  lagSeconds: 1,
  message: '',
  copyTablesLeft: 0,
  ...over,
});

describe('html reporter', () => {
  it('colours a cell by its worst stream: Error, Copying, Stopped, lag over --max-lag, Running; none and unknown', () => {
    assert.equal(cellState([stream(), stream({ state: 'Error' })], 30), 'error');
    assert.equal(cellState([stream(), stream({ state: 'Copying', lagSeconds: null })], 30), 'copying');
    assert.equal(cellState([stream({ copyTablesLeft: 1 })], 30), 'copying');
    assert.equal(cellState([stream({ state: 'Stopped' })], 30), 'stopped');
    assert.equal(cellState([stream({ lagSeconds: 31 })], 30), 'lagging');
    assert.equal(cellState([stream({ lagSeconds: 30 })], 30), 'running');
    assert.equal(cellState([], 30), 'nostream');
    assert.equal(cellState(undefined, 30), 'unknown');
  });

  it('escapes cluster text for content, attributes and the embedded script', () => {
    assert.equal(htmlText('<b>&\u001b[31m'), '&lt;b&gt;&amp;\\x1b[31m');
    assert.equal(htmlAttr(`"a'\n`), '&quot;a&#39;&#10;');
    const json = scriptJson({ m: '</script><!-- \u2028 &' });
    assert.doesNotMatch(json, /<|>|&|\u2028/);
    assert.deepEqual(JSON.parse(json), { m: '</script><!-- \u2028 &' });
  });

  it('embeds exactly the JSON contract, and nothing is loaded from elsewhere', () => {
    const report = deepFreeze(loadReport('sample'));
    const html = renderHtml(report, { color: false });
    const m = /<script type="application\/json" id="vtpreflight-report">(.*?)<\/script>/s.exec(html);
    assert.ok(m);
    assert.deepEqual(JSON.parse(m[1]!), JSON.parse(JSON.stringify(toContractJson(report))));
    assert.doesNotMatch(html, /\b(src|href)=|@import|url\(|https?:\/\//);
    assert.match(html, /Content-Security-Policy" content="default-src 'none'/);
    // Verdict first: the banner is the first element of the body.
    assert.match(html, /<body>\n<header id="verdict" class="verdict v-blocked"/);
  });

  it('cells: one per target shard per workflow, with the finding count of that shard and workflow', () => {
    const report = makeReport([
      finding({ shard: '-80' }),
      finding({ shard: '-80', check: 'copy-incomplete', severity: 'warning' }),
      finding({ shard: '80-', workflow: 'other' }),
    ]);
    const html = renderHtml(
      {
        ...report,
        workflows: [{ ...report.workflows[0]!, targetShards: ['-80', '80-'] }],
        streams: [stream({ workflow: 'wf' })],
      },
      { color: false },
    );
    const cells = [
      ...html.matchAll(/<button type="button" class="cell ([^"]+)" data-shard="([^"]+)" data-findings="(\d+)"/g),
    ].map((c) => [c[2], c[1], c[3]]);
    assert.deepEqual(cells, [
      ['-80', 'c-running f-error', '2'],
      ['80-', 'c-nostream', '0'],
    ]);
  });
});
