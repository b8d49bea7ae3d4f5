/**
 * RuleTester-style table tests for checks (STYLE.md §4): each case builds a model through the real model builder,
 * the model is deep-frozen, the check runs twice (determinism) and must return EXACTLY the listed findings, in
 * order; every listed field must match (`message` may be a RegExp; `details` is matched as a subset).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Check, CheckFinding } from '../../src/engine/check.js';
import { withDefaults, type CheckOptions } from '../../src/engine/options.js';
import type { ClusterModel } from '../../src/model/types.js';
import { resolveVitessVersions } from '../../src/model/versions.js';
import type { ClusterBuilder } from './cluster.js';

export interface ExpectedFinding {
  message?: string | RegExp;
  severity?: CheckFinding['severity'];
  keyspace?: string;
  shard?: string;
  workflow?: string;
  streamId?: number;
  tablet?: string;
  /** Subset match: every listed key must deep-equal (RegExp allowed for strings). */
  details?: Record<string, unknown>;
}

export interface ValidCase {
  name: string;
  model: ClusterBuilder | ClusterModel;
  options?: Partial<CheckOptions>;
}

export interface InvalidCase extends ValidCase {
  findings: ExpectedFinding[];
}

/** The options a check sees in a real run: `vitess` resolved against the model as `runModelChecks` does. */
export function engineOptions(model: ClusterModel, partial: Partial<CheckOptions> = {}): CheckOptions {
  const opts = withDefaults(partial);
  return { ...opts, vitess: resolveVitessVersions(model, opts.vitess) };
}

function toModel(m: ClusterBuilder | ClusterModel): ClusterModel {
  return 'readout' in m && typeof m.readout === 'function' ? m.model() : (m as ClusterModel);
}

function matchValue(actual: unknown, expected: unknown, path: string): void {
  if (expected instanceof RegExp) {
    assert.ok(
      typeof actual === 'string' && expected.test(actual),
      `${path}: ${JSON.stringify(actual)} does not match ${expected}`,
    );
  } else if (expected !== null && typeof expected === 'object' && !Array.isArray(expected)) {
    assert.ok(
      actual !== null && typeof actual === 'object',
      `${path}: expected an object, got ${JSON.stringify(actual)}`,
    );
    for (const [k, v] of Object.entries(expected))
      matchValue((actual as Record<string, unknown>)[k], v, `${path}.${k}`);
  } else {
    assert.deepEqual(actual, expected, `${path}`);
  }
}

/** Runs the table for one check. */
export function checkTester(check: Check, cases: { valid: ValidCase[]; invalid: InvalidCase[] }): void {
  describe(`check ${check.id}`, () => {
    for (const c of cases.valid) {
      it(`valid: ${c.name}`, () => {
        const model = toModel(c.model);
        const findings = check.run(model, engineOptions(model, c.options));
        assert.deepEqual(
          findings.map((f) => f.message),
          [],
          `expected no findings, got:\n${findings.map((f) => `  ${f.message}`).join('\n')}`,
        );
      });
    }
    for (const c of cases.invalid) {
      it(`invalid: ${c.name}`, () => {
        const model = toModel(c.model);
        const opts = engineOptions(model, c.options);
        const first = check.run(model, opts);
        const second = check.run(model, opts);
        assert.deepEqual(second, first, 'the check is not deterministic');
        assert.equal(
          first.length,
          c.findings.length,
          `expected ${c.findings.length} finding(s), got ${first.length}:\n${first.map((f) => `  ${f.shard ?? ''} ${f.streamId ?? ''} ${f.message}`).join('\n')}`,
        );
        c.findings.forEach((exp, i) => {
          const act = first[i]!;
          for (const [k, v] of Object.entries(exp))
            matchValue((act as unknown as Record<string, unknown>)[k], v, `finding[${i}].${k}`);
        });
        for (const f of first) {
          assert.ok(!f.message.endsWith('.'), `message ends with a period: ${f.message}`);
          assert.ok(!f.message.includes('\n'), `message has a newline: ${f.message}`);
        }
      });
    }
  });
}
