/** The `json` reporter renders exactly the contract of docs/report-contract.md (version 1): keys, order, formatting. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import renderJson, { toContractJson } from '../../src/report/json.js';
import { CONTRACT_KEYS } from '../../src/engine/report.js';
import { repoRoot } from '../helpers/paths.js';
import { finding, loadReport, makeReport } from './helpers.js';

const opts = { color: false };
const contractDoc = readFileSync(join(repoRoot, 'docs', 'report-contract.md'), 'utf8');

/** Key order of each object in the contract, as docs/report-contract.md lists it (optional keys included). */
const ORDER = {
  top: ['version', 'tool', 'target', 'startedAt', 'durationMs', 'checks', 'findings', 'workflows', 'summary'],
  /** Additive (after `summary`): the run's settings and per-stream facts (see src/report/json.ts). */
  additive: ['options', 'streams', 'copyProgress', 'vitess', 'command', 'interrupted'],
  stream: [
    'keyspace',
    'workflow',
    'shard',
    'streamId',
    'tablet',
    'sourceKeyspace',
    'sourceShard',
    'state',
    'position',
    'lagSeconds',
    'message',
    'copyTablesLeft',
  ],
  options: ['failOn', 'maxLagSeconds', 'maxLag', 'only', 'skip', 'severities', 'action'],
  tool: ['name', 'version'],
  target: ['vtctld', 'snapshot', 'keyspaces', 'workflows'],
  check: [
    'id',
    'status',
    'findings',
    'durationMs',
    'skipReason',
    'notApplicable',
    'notJudged',
    'error',
    'title',
    'severity',
    'remediation',
  ],
  finding: [
    'check',
    'severity',
    'message',
    'keyspace',
    'shard',
    'workflow',
    'streamId',
    'tablet',
    'predicts',
    'reason',
    'step',
    'details',
  ],
  workflow: [
    'keyspace',
    'workflow',
    'type',
    'action',
    'verdict',
    'blockedBy',
    'unverifiedBy',
    'vitessWouldSay',
    'targetShards',
    'evidence',
  ],
  summary: ['error', 'warning', 'info', 'exitCode'],
};

/** Asserts that `obj`'s keys are a subsequence of `order` (present keys in contract order, nothing else). */
function assertKeyOrder(obj: object, order: readonly string[], what: string): void {
  const keys = Object.keys(obj);
  const expected = order.filter((k) => keys.includes(k));
  assert.deepEqual(keys, expected, `${what} keys out of contract order or not in the contract`);
}

type Json = Record<string, unknown> & { [k: string]: any };

function assertContract(out: Json): void {
  assertKeyOrder(out, [...ORDER.top, ...ORDER.additive], 'report');
  assert.deepEqual(
    Object.keys(out).filter((k) => !ORDER.additive.includes(k)),
    ORDER.top,
    'every top-level key is required',
  );
  if (out.options !== undefined) assertKeyOrder(out.options, ORDER.options, 'options');
  for (const s of (out.streams ?? []) as Json[]) assert.deepEqual(Object.keys(s), ORDER.stream);
  assert.deepEqual(Object.keys(out.tool), ORDER.tool);
  assert.deepEqual(Object.keys(out.target), ORDER.target);
  assert.deepEqual(Object.keys(out.summary), ORDER.summary);
  for (const c of out.checks as Json[]) assertKeyOrder(c, ORDER.check, `check ${c.id}`);
  for (const f of out.findings as Json[]) assertKeyOrder(f, ORDER.finding, `finding of ${f.check}`);
  for (const w of out.workflows as Json[])
    assert.deepEqual(
      Object.keys(w),
      ORDER.workflow.filter((k) => (k !== 'targetShards' && k !== 'evidence') || k in w),
    );
}

describe('json reporter', () => {
  it('renders the sample in the contract key order, 2-space indent, trailing newline', () => {
    const text = renderJson(loadReport('sample'), opts);
    assert.ok(text.endsWith('}\n') && !text.endsWith('\n\n'));
    assert.ok(text.startsWith('{\n  "version": 1,\n  "tool": {\n    "name": "vtpreflight",'));
    const out = JSON.parse(text) as Json;
    assertContract(out);
    assert.equal(out.findings.length, 18);
    assert.deepEqual(out.summary, { error: 17, warning: 1, info: 0, exitCode: 1 });
  });

  it('keeps check.error only for status error, and carries title, severity and the filled remediation', () => {
    const out = JSON.parse(renderJson(loadReport('sample'), opts)) as Json;
    const drift = (out.checks as Json[]).find((c) => c.id === 'position-drift')!;
    assert.equal(drift.status, 'error');
    assert.match(drift.error, /cannot compare positions/);
    for (const c of out.checks as Json[]) {
      assert.ok('title' in c && 'severity' in c && 'remediation' in c, c.id);
      if (c.status !== 'error') assert.equal('error' in c, false, c.id);
    }
  });

  it('is the report object: every field of it, nothing else (only the key order is the contract one)', () => {
    const report = loadReport('sample');
    assert.deepEqual(JSON.parse(renderJson(report, opts)), JSON.parse(JSON.stringify(report)));
  });

  it("the test's key lists are the engine's CONTRACT_KEYS", () => {
    assert.deepEqual([...CONTRACT_KEYS.report], [...ORDER.top, ...ORDER.additive]);
    for (const k of ['tool', 'target', 'check', 'finding', 'workflow', 'summary', 'options', 'stream'] as const)
      assert.deepEqual([...CONTRACT_KEYS[k]], ORDER[k], k);
  });

  it('writes keys in contract order whatever order the engine built them in', () => {
    const f = finding({ details: { reason: 'x' }, tablet: 'zone1-0000000100', predicts: 'workflow has errors' });
    const shuffled = Object.fromEntries(Object.entries(f).reverse()) as unknown as typeof f;
    const base = makeReport([shuffled]);
    const report = {
      ...base,
      summary: { exitCode: 1 as const, info: 0, warning: 0, error: 1 },
      target: { workflows: [], keyspaces: ['customer'], snapshot: null, vtctld: 'x:1' },
    };
    const out = JSON.parse(renderJson(report, opts)) as Json;
    assertContract(out);
    assert.deepEqual(
      Object.keys(out.findings[0]),
      ORDER.finding.filter((k) => k in f),
    );
  });

  it('omits absent optional finding fields and writes null for absent vitessWouldSay and target', () => {
    const report = makeReport([
      {
        check: 'unreachable',
        severity: 'error',
        message: 'vtctld GetKeyspaces failed',
        reason: 'vtctldReadFailed',
        step: 'build-targets',
        details: { reason: 'vtctldReadFailed' },
      },
    ]);
    const out = JSON.parse(renderJson(report, opts)) as Json;
    assert.deepEqual(out.findings[0], {
      check: 'unreachable',
      severity: 'error',
      message: 'vtctld GetKeyspaces failed',
      reason: 'vtctldReadFailed',
      step: 'build-targets',
      details: { reason: 'vtctldReadFailed' },
    });
    assert.equal(out.workflows[0].vitessWouldSay, null);
    assert.equal(out.target.snapshot, null);
  });

  it('round-trips: parsing the output gives the contract object', () => {
    const report = loadReport('sample');
    assert.deepEqual(JSON.parse(renderJson(report, opts)), toContractJson(report));
  });

  it('writes a bigint in details as a decimal string instead of throwing', () => {
    const report = makeReport([finding({ details: { reason: 'messageError', transactions: 2n ** 70n } })]);
    const out = JSON.parse(renderJson(report, opts)) as Json;
    assert.equal(out.findings[0].details.transactions, '1180591620717411303424');
  });

  it('keeps control characters as JSON escapes (valid JSON, nothing raw)', () => {
    const report = makeReport([finding({ message: 'bad\u0000\u001b[31m\nline' })]);
    const text = renderJson(report, opts);
    assert.equal(/[\u0000-\u0009\u000b-\u001f]/.test(text), false);
    assert.equal((JSON.parse(text) as Json).findings[0].message, 'bad\u0000\u001b[31m\nline');
  });

  it('matches the key order of the example in docs/report-contract.md', () => {
    const m = /## The core, by example[\s\S]*?```json\n([\s\S]*?)```/.exec(contractDoc);
    assert.ok(m, 'docs/report-contract.md has a JSON contract example');
    const example = JSON.parse(m[1]!) as Json;
    assert.deepEqual(Object.keys(example), ORDER.top);
    assert.deepEqual(Object.keys(example.tool), ORDER.tool);
    assert.deepEqual(Object.keys(example.target), ORDER.target);
    assert.deepEqual(
      Object.keys(example.checks[0]),
      ORDER.check.filter(
        (k) => !['skipReason', 'notApplicable', 'notJudged', 'error', 'title', 'severity', 'remediation'].includes(k),
      ),
    );
    // Additive keys (`reason`, `step`, `targetShards`, `evidence`) may sit between the example's keys.
    assertKeyOrder(example.findings[0], ORDER.finding, 'contract example finding');
    assert.deepEqual(
      ORDER.finding.filter((k) => !['reason', 'step'].includes(k)),
      Object.keys(example.findings[0]),
    );
    assertKeyOrder(example.workflows[0], ORDER.workflow, 'contract example workflow');
    assert.deepEqual(
      ORDER.workflow.filter((k) => k !== 'targetShards' && k !== 'evidence'),
      Object.keys(example.workflows[0]),
    );
    assert.deepEqual(Object.keys(example.summary), ORDER.summary);
  });

  it('documents every key the JSON reporter writes in docs/report-contract.md', () => {
    for (const [object, keys] of Object.entries(CONTRACT_KEYS))
      for (const key of keys)
        assert.ok(contractDoc.includes(`\`${key}\``), `docs/report-contract.md does not document ${object}.${key}`);
  });
});
