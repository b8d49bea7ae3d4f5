/**
 * RuleTester-style table tests for checks: each case builds a model through the real model builder,
 * the model is deep-frozen, the check runs twice (determinism) and must return EXACTLY the listed findings, in
 * order; every listed field must match (`message` may be a RegExp; `details` is matched as a subset).
 *
 * Findings are compared as the runner stamps them (severity, `predicts`, `step`, `details.reason`,
 * `details.vitessError` from the finding's declared reason), and every finding must name a declared reason whose
 * Vitess template its `vitessError` fills in. Each declared reason needs an invalid case that produces it and a
 * valid case that names it in `reasons` (a near miss: the condition almost met, or its data not read); a last
 * test of the table fails otherwise.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { reasonOf, type Check, type Finding, type Severity } from '../../src/engine/check.js';
import { withDefaults, type CheckOptions } from '../../src/engine/options.js';
import { stamp } from '../../src/engine/run.js';
import { buildVerdicts } from '../../src/engine/verdict.js';
import type { ClusterModel } from '../../src/model/types.js';
import { resolveVitessVersions } from '../../src/model/versions.js';
import type { ClusterBuilder } from './cluster.js';
import { matchValue } from './match.js';

export interface ExpectedFinding {
  /** The declared reason (also accepted as `details.reason`). */
  reason?: string;
  message?: string | RegExp;
  severity?: Severity;
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
  /** The reasons this case is a near miss of (the condition almost met, or its data not read). */
  reasons?: string[];
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

/**
 * A Go format string as a RegExp matching any text it can print (`%s`, `%d`, `%v`, `%q` match anything), also when a
 * tablet RPC raised it: the tablet manager prefixes `TabletManager.<RPC> on <tablet alias>: ` (rpc_server.go:73
 * @v0.21.5 `HandleRPCPanic`).
 */
export function templatePattern(template: string): RegExp {
  const parts = template.split(/%[sdvqw]/);
  const rpc = String.raw`(TabletManager\.\w+ on [\w-]+: )?`;
  return new RegExp(`^${rpc}${parts.map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('[\\s\\S]*')}$`);
}

/** Runs the check and stamps its findings as the runner does; asserts each fills its reason's template. */
function runStamped(check: Check, model: ClusterModel, options: CheckOptions): Finding[] {
  return check.run(model, options).map((f) => {
    const out = stamp(check, f);
    if (out.details.vitessError !== undefined)
      assert.match(
        out.details.vitessError,
        templatePattern(reasonOf(check, f.reason).vitess!.template),
        `vitessError of reason ${f.reason} does not fill its template`,
      );
    return out;
  });
}

/** Reasons produced by invalid cases and named by valid ones, per check id, over every table of a test file. */
const coverage = new Map<string, { produced: Set<string>; nearMisses: Set<string>; names: Set<string> }>();

/**
 * Runs the table for one check. A file with several tables for one check passes `{ more: true }` to every call but
 * the last; the coverage tests run with the last one, over all of them.
 */
export function checkTester(
  check: Check,
  cases: { valid: ValidCase[]; invalid: InvalidCase[] },
  opts: { more?: boolean } = {},
): void {
  let cov = coverage.get(check.id);
  if (!cov) coverage.set(check.id, (cov = { produced: new Set(), nearMisses: new Set(), names: new Set() }));
  const { produced, nearMisses, names } = cov;
  describe(`check ${check.id}`, () => {
    for (const c of [...cases.valid, ...cases.invalid]) {
      assert.ok(!names.has(c.name), `duplicate case name in the ${check.id} table: ${c.name}`);
      names.add(c.name);
    }
    for (const c of cases.valid) {
      for (const r of c.reasons ?? []) nearMisses.add(r);
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
        const first = runStamped(check, model, opts);
        for (const f of first) produced.add(f.reason);
        const second = runStamped(check, model, opts);
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
        // An error must reach a verdict: one that is in no row's evidence leaves every row `ready` above it (the
        // run still exits 1). Only the sweep reports what no workflow touches (it has no verdicts).
        if (!opts.sweep) {
          const judge = {
            action: opts.action.action,
            applies: () => true,
            // The engine's roles this check plays (CheckSpec.role), as the runner gives them.
            roles: {
              ...(check.role === 'read-failures' ? { readFailures: check.id } : {}),
              ...(check.role === 'workflow-not-found' ? { workflowNotFound: check.id } : {}),
            },
            ...(opts.action.create !== undefined ? { create: opts.action.create } : {}),
          };
          const { rows } = buildVerdicts(model, first, undefined, judge);
          for (const f of first.filter((x) => x.severity === 'error'))
            assert.ok(
              rows.some((r) => (r.evidence ?? []).some((e) => e.check === f.check && e.reason === f.reason)),
              `error ${f.reason} (keyspace ${f.keyspace ?? '-'}, shard ${f.shard ?? '-'}, workflow ${f.workflow ?? '-'}) concerns no verdict: every row would say ready above it`,
            );
        }
        for (const f of first) {
          assert.ok(!f.message.endsWith('.'), `message ends with a period: ${f.message}`);
          assert.ok(!f.message.includes('\n'), `message has a newline: ${f.message}`);
        }
      });
    }
    if (opts.more) return;
    it('covers every declared reason with an invalid case', () => {
      const declared = Object.keys(check.reasons);
      const noInvalid = declared.filter((r) => !produced.has(r));
      assert.deepEqual(
        noInvalid,
        [],
        `add an invalid case to test/checks/${check.id}.test.ts that produces a finding of reason ${noInvalid.join(', ')}`,
      );
      const unknown = [...produced].filter((r) => !declared.includes(r));
      assert.deepEqual(unknown, [], `the ${check.id} table names reasons the check does not declare`);
    });
    it('covers every declared reason with a valid near miss', () => {
      const declared = Object.keys(check.reasons);
      const noValid = declared.filter((r) => !nearMisses.has(r));
      assert.deepEqual(
        noValid,
        [],
        `add a valid case to test/checks/${check.id}.test.ts with \`reasons: [${noValid.map((r) => `'${r}'`).join(', ')}]\`: the near miss of that reason`,
      );
      const unknown = [...nearMisses].filter((r) => !declared.includes(r));
      assert.deepEqual(unknown, [], `the ${check.id} table names reasons the check does not declare`);
    });
  });
}
