/**
 * The `junit` reporter, read back the way CI reads it: parsed by a real XML parser (@xmldom/xmldom, with every
 * parser warning and error made fatal) and asserted structurally, not by string comparison only.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { DOMParser, type Document, type Element } from '@xmldom/xmldom';
import renderJunit, { junitTimestamp } from '../../src/report/junit.js';
import { finding, loadReport, makeReport, shardNames } from './helpers.js';
import type { Report } from '../../src/engine/report.js';

const opts = { color: false };

function parse(xml: string): Document {
  const parser = new DOMParser({
    onError: (level, message) => {
      throw new Error(`XML ${level}: ${message}`);
    },
  });
  return parser.parseFromString(xml, 'text/xml');
}

const children = (el: Element, name: string): Element[] =>
  Array.from(el.childNodes).filter((n): n is Element => n.nodeType === 1 && (n as Element).tagName === name);
const attr = (el: Element, name: string) => el.getAttribute(name);

/**
 * XML 1.0 `Char` (https://www.w3.org/TR/xml/#charsets): the parser accepts some characters the standard
 * forbids, so the raw text is checked too, including character references.
 */
function assertXml10Chars(xml: string): void {
  assert.equal(
    /[^\t\n\r\u0020-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]/u.test(xml),
    false,
    'a character outside XML 1.0 Char',
  );
  for (const m of xml.matchAll(/&#(x[0-9a-fA-F]+|[0-9]+);/g)) {
    const code = m[1]!.startsWith('x') ? parseInt(m[1]!.slice(1), 16) : parseInt(m[1]!, 10);
    assert.ok(
      code === 9 ||
        code === 10 ||
        code === 13 ||
        (code >= 0x20 && code <= 0xd7ff) ||
        (code >= 0xe000 && code <= 0xfffd) ||
        code >= 0x10000,
      `&#${m[1]}; is not an XML 1.0 Char`,
    );
  }
}

describe('junit reporter', () => {
  it('parses as XML 1.0 with the Jenkins/GitLab shape: testsuites > testsuite > properties, testcase', () => {
    const report = loadReport('sample');
    const xml = renderJunit(report, opts);
    assertXml10Chars(xml);
    const doc = parse(xml);
    const root = doc.documentElement!;
    assert.equal(root.tagName, 'testsuites');
    const suites = children(root, 'testsuite');
    assert.equal(suites.length, 1);
    const suite = suites[0]!;
    assert.equal(attr(suite, 'name'), 'vtpreflight');
    for (const el of [root, suite]) {
      assert.equal(attr(el, 'tests'), '18');
      // replication-lag's finding is a warning, below the sample's --fail-on error: no failure.
      assert.equal(attr(el, 'failures'), '3');
      assert.equal(attr(el, 'errors'), '1');
      assert.equal(attr(el, 'skipped'), '1');
      assert.equal(attr(el, 'time'), '1.834');
    }
    assert.equal(attr(suite, 'timestamp'), '2026-11-30T16:00:00');
    // Children of a testsuite in schema order: properties first, then test cases.
    const kids = Array.from(suite.childNodes).filter((n): n is Element => n.nodeType === 1);
    assert.equal(kids[0]!.tagName, 'properties');
    assert.ok(kids.slice(1).every((k) => k.tagName === 'testcase'));
    const props = new Map(children(kids[0]!, 'property').map((p) => [attr(p, 'name'), attr(p, 'value')]));
    assert.equal(props.get('verdict.customer.cust2cust'), 'blocked');
    assert.equal(props.get('summary.exitCode'), '1');
  });

  it('has one testcase per check (classname = id, name = title) and one failure per finding failing the gate', () => {
    const report = loadReport('sample');
    const suite = children(parse(renderJunit(report, opts)).documentElement!, 'testsuite')[0]!;
    const cases = children(suite, 'testcase');
    assert.deepEqual(
      cases.map((c) => attr(c, 'classname')),
      report.checks.map((c) => c.id),
    );
    assert.deepEqual(
      cases.map((c) => attr(c, 'name')),
      report.checks.map((c) => c.title ?? c.id),
    );
    for (const [i, c] of cases.entries()) {
      const result = report.checks[i]!;
      const failures = children(c, 'failure');
      const all = report.findings.filter((f) => f.check === result.id);
      const mine = all.filter((f) => f.severity === 'error');
      assert.equal(failures.length, mine.length, result.id);
      failures.forEach((el, k) => {
        assert.equal(attr(el, 'type'), mine[k]!.severity);
        assert.equal(attr(el, 'message'), mine[k]!.message);
        const body = el.textContent ?? '';
        assert.ok(body.startsWith(mine[k]!.message));
        if (mine[k]!.shard !== undefined) assert.match(body, new RegExp(`^shard: ${mine[k]!.shard}$`, 'm'));
        if (mine[k]!.workflow !== undefined) assert.match(body, new RegExp(`^workflow: ${mine[k]!.workflow}$`, 'm'));
        if (mine[k]!.tablet !== undefined) assert.match(body, new RegExp(`^tablet: ${mine[k]!.tablet}$`, 'm'));
      });
      assert.equal(children(c, 'error').length, result.status === 'error' ? 1 : 0, result.id);
      assert.equal(children(c, 'skipped').length, result.status === 'skipped' ? 1 : 0, result.id);
      assert.equal(children(c, 'system-out').length, all.length > 0 ? 1 : 0, result.id);
    }
    const total = cases.reduce((n, c) => n + children(c, 'failure').length, 0);
    assert.equal(total, report.findings.filter((f) => f.severity === 'error').length);
    const drift = cases.find((c) => attr(c, 'classname') === 'position-drift')!;
    assert.match(attr(children(drift, 'error')[0]!, 'message') ?? '', /^cannot compare positions of stream 3/);
  });

  it('a warnings-only run the gate lets through has no failure; with --fail-on warning the warnings fail', () => {
    const warning = finding({ severity: 'warning', message: 'lag 40s is near --max-lag', shard: '-80' });
    const base = makeReport([warning]);
    // Only the gate matters to the reporter: a partial options object stands for the rest.
    const passing = { ...base, options: { failOn: 'error' } as Report['options'] };
    const suite = children(parse(renderJunit(passing, opts)).documentElement!, 'testsuite')[0]!;
    assert.equal(attr(suite, 'failures'), '0');
    const cases = children(suite, 'testcase');
    assert.equal(
      cases.reduce((n, c) => n + children(c, 'failure').length, 0),
      0,
    );
    // The warning is still in the report: in its test case's output.
    const out = cases.flatMap((c) => children(c, 'system-out')).map((el) => el.textContent ?? '');
    assert.ok(
      out.some((t) => t.includes('warning (below --fail-on error): lag 40s is near --max-lag')),
      out.join('|'),
    );
    const gated = { ...base, options: { failOn: 'warning' } as Report['options'] };
    const strict = children(parse(renderJunit(gated, opts)).documentElement!, 'testsuite')[0]!;
    assert.equal(attr(strict, 'failures'), '1');
  });

  it('a healthy run is all passing test cases', () => {
    const suite = children(parse(renderJunit(loadReport('healthy'), opts)).documentElement!, 'testsuite')[0]!;
    assert.equal(attr(suite, 'failures'), '0');
    assert.equal(attr(suite, 'errors'), '0');
    for (const c of children(suite, 'testcase')) assert.equal(c.childNodes.length, 0);
  });

  it('escapes markup and makes control characters, lone surrogates and non-characters valid', () => {
    const nasty =
      'a <b> & "c" \'d\' ]]> \u0000\u0001\u0008\u000b\u000c\u001b[31mred\u007f\u0085 \ud800 lone \udc00 \ufffe\uffff tab\there\r\nnext 😀';
    const report = makeReport([
      finding({ message: nasty, shard: '-80', tablet: 'zone1-<100>', details: { reason: nasty } }),
      finding({ message: 'plain', shard: '80-' }),
    ]);
    const checks = [
      ...report.checks,
      { id: 'unreachable', status: 'error' as const, findings: 0, durationMs: 1, error: `boom ${nasty}` },
    ];
    const xml = renderJunit({ ...report, checks }, opts);
    assertXml10Chars(xml);
    const suite = children(parse(xml).documentElement!, 'testsuite')[0]!;
    const [failure] = children(children(suite, 'testcase')[0]!, 'failure');
    const message = attr(failure!, 'message')!;
    assert.ok(
      message.startsWith(
        'a <b> & "c" \'d\' ]]> \\x00\\x01\\x08\\x0b\\x0c\\x1b[31mred\\x7f\\x85 \\ud800 lone \\udc00 \\ufffe\\uffff tab\\there\\r\\nnext 😀',
      ),
      message,
    );
    assert.match(failure!.textContent ?? '', /^tablet: zone1-<100>$/m);
    const error = children(children(suite, 'testcase')[1]!, 'error')[0]!;
    assert.ok((attr(error, 'message') ?? '').startsWith('boom a <b> &'));
  });

  it('stays one failure per finding at 256 shards (no folding for machines)', () => {
    const findings = shardNames(256).map((shard) =>
      finding({ shard, message: `stream 1 of wf on customer/${shard} shows as Error` }),
    );
    const suite = children(parse(renderJunit(makeReport(findings), opts)).documentElement!, 'testsuite')[0]!;
    assert.equal(children(children(suite, 'testcase')[0]!, 'failure').length, 256);
    assert.equal(attr(suite, 'failures'), '1');
  });

  it('writes the timestamp as UTC without zone or fraction', () => {
    assert.equal(junitTimestamp('2026-11-30T17:00:00.123+01:00'), '2026-11-30T16:00:00');
    assert.equal(junitTimestamp('not a date'), 'not a date');
  });
});

describe('junit summary.exit', () => {
  it('names the unverified workflow that failed the gate, not the info finding, under --fail-on error', () => {
    const base = makeReport([finding({ check: 'unreachable', severity: 'info' })]);
    const xml = renderJunit(
      {
        ...base,
        options: { failOn: 'error' } as unknown as NonNullable<typeof base.options>,
        workflows: [{ ...base.workflows[0]!, verdict: 'unverified' as const }],
        summary: { ...base.summary, exitCode: 1 },
      } as typeof base,
      { color: false },
    );
    assert.match(
      xml,
      /<property name="summary.exit" value="exit 1: 1 workflow unverified: part of what the cutover depends on /,
    );
    assert.doesNotMatch(xml, /--fail-on info/);
  });
});
