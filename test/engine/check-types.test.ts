/**
 * Compile-time guarantees of `defineCheck` (src/engine/check.ts): a check's reason ids come from its `reasons` keys
 * only, so a finding or a not-judged gap naming an undeclared reason does not compile, even when built by a helper
 * typed with a plain `string` reason. Each `@ts-expect-error` below fails the build (`npm run build`) if the typo it
 * marks ever compiles again; the tests then check that the runner still refuses such a finding at run time.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { defineCheck, type CheckFinding, type Reasons } from '../../src/engine/check.js';
import { withDefaults } from '../../src/engine/options.js';
import { runModelChecks } from '../../src/engine/run.js';
import { cluster } from '../helpers/cluster.js';
import { runMeta } from '../helpers/run-meta.js';

const meta = runMeta();
const model = () =>
  cluster()
    .keyspace('customer', { shards: ['-80', '80-'] })
    .reshard('r', { keyspace: 'customer', from: ['-80'], to: ['-80'] })
    .model();

const reasons = {
  declared: { severity: 'error', step: 'catch-up', heuristic: true, rationale: 'test' },
} satisfies Reasons;
type R = keyof typeof reasons;

/** A helper typed with a plain string reason: before R came from `reasons` only, it widened R to `string`. */
const untyped = (reason: string): CheckFinding => ({ reason, message: 'm', keyspace: 'customer' });
/** The same helper typed with the check's reason ids. */
const typed = (reason: R): CheckFinding<R> => ({ reason, message: 'm', keyspace: 'customer' });

const inlineTypo = defineCheck({
  id: 'inline-typo',
  title: 't',
  reasons,
  description: 'd',
  remediation: 'r.',
  run: () => [
    {
      // @ts-expect-error `declraed` is not a declared reason of this check.
      reason: 'declraed',
      message: 'm',
      keyspace: 'customer',
    },
  ],
});

const helperTypo = defineCheck({
  id: 'helper-typo',
  title: 't',
  reasons,
  description: 'd',
  remediation: 'r.',
  // @ts-expect-error a helper's `string` reason does not widen the check's reasons to any string.
  run: () => [untyped('declraed')],
});

const notJudgedTypo = defineCheck({
  id: 'not-judged-typo',
  title: 't',
  reasons,
  description: 'd',
  remediation: 'r.',
  run: () => [typed('declared')],
  // @ts-expect-error `declraed` is not a declared reason of this check.
  notJudged: () => [
    {
      reason: 'declraed',
      part: 'p',
      why: 'w',
      keyspace: 'customer',
    },
  ],
});

test('a finding typed with the reason ids of its check compiles and is stamped', () => {
  const ok = defineCheck({
    id: 'ok',
    title: 't',
    reasons,
    description: 'd',
    remediation: 'r.',
    run: () => [typed('declared')],
  });
  const r = runModelChecks(model(), [ok], withDefaults(), meta);
  assert.deepEqual(
    r.findings.map((f) => [f.check, f.reason]),
    [['ok', 'declared']],
  );
});

test('a finding naming an undeclared reason is still an error at run time', () => {
  const r = runModelChecks(model(), [inlineTypo, helperTypo, notJudgedTypo], withDefaults(), meta);
  assert.deepEqual(
    r.checks.map((c) => [c.id, c.status]),
    [
      ['helper-typo', 'error'],
      ['inline-typo', 'error'],
      ['not-judged-typo', 'error'],
    ],
  );
  assert.match(r.checks[0]!.error ?? '', /undeclared reason "declraed"/);
});
