/**
 * Routing rules at scale: the checks that judge every routing rule against the workflows do work linear in the
 * rules, and `--deadline` bounds the checks as well as the reads.
 *
 * Linearity is measured without a clock: every moved table's name is read through a counting view of its stream's
 * table list, and the count at four times the tables must grow about four times (a check that rebuilt a workflow's
 * table list for every rule grows sixteen times). The wall-clock numbers at 4,000 and 16,000 moved tables are the
 * `routing` benchmark's (`npm run bench`, bench/routing.ts).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CHECKS, findCheck } from '../../checks/index.js';
import { withDefaults } from '../../src/engine/options.js';
import { CHECK_DEADLINE_PASSED, runModelChecks } from '../../src/engine/run.js';
import { defineCheck } from '../../src/engine/check.js';
import type { ClusterModel, Workflow } from '../../src/model/types.js';
import { moveTablesAt } from '../../bench/routing.js';
import { runCli, snapshotFile, tempDir } from '../cli/helpers.js';
import { runMeta } from '../helpers/run-meta.js';

/** The model of `moveTablesAt(n)` with every stream's table list replaced by a view that counts index reads. */
function countingModel(n: number): { model: ClusterModel; reads: () => number } {
  const base = moveTablesAt(n).model();
  let reads = 0;
  const counting = (tables: readonly string[]): readonly string[] =>
    new Proxy([...tables], {
      get(target, key, receiver) {
        if (typeof key === 'string' && /^\d+$/.test(key)) reads++;
        return Reflect.get(target, key, receiver);
      },
    });
  const copies = new Map<Workflow, Workflow>();
  const copy = (wf: Workflow): Workflow => {
    let c = copies.get(wf);
    if (c === undefined) {
      c = { ...wf, streams: wf.streams.map((s) => ({ ...s, tables: counting(s.tables) })) };
      copies.set(wf, c);
    }
    return c;
  };
  const model = Object.create(base, {
    allWorkflows: { value: base.allWorkflows.map(copy) },
    workflows: { value: base.workflows.map(copy) },
  }) as ClusterModel;
  return { model, reads: () => reads };
}

for (const id of ['stray-routing-rules', 'leftover-routing-rules']) {
  test(`${id}: the table names it reads grow linearly with the moved tables (×4 tables, under ×5 reads)`, () => {
    const check = findCheck(id)!;
    const counts = [200, 800].map((n) => {
      const { model, reads } = countingModel(n);
      check.run(model, withDefaults({ sweep: true }));
      return reads();
    });
    assert.ok(counts[0]! > 0, `${id} read no table name at 200 tables`);
    assert.ok(
      counts[1]! <= 5 * Math.max(counts[0]!, 1),
      `${id}: ${counts[0]} reads at 200 tables, ${counts[1]} at 800`,
    );
  });
}

const meta = runMeta();

test('the run deadline bounds the checks: a check reached after it is skipped, and the workflow is not ready', () => {
  let clock = 0;
  // Sorts first; its run takes (on the injected clock) past the deadline.
  const slow = defineCheck({
    id: 'aaa-slow',
    title: 't',
    reasons: { never: { severity: 'error', step: 'catch-up', heuristic: true, rationale: 'test' } },
    description: 'd',
    remediation: 'r.',
    run: () => {
      clock += 10_000;
      return [];
    },
  });
  const model = moveTablesAt(4).model();
  const r = runModelChecks(model, [slow, ...CHECKS], withDefaults(), { ...meta, deadlineAt: 5_000, now: () => clock });
  assert.equal(r.checks.find((c) => c.id === 'aaa-slow')?.status, 'pass');
  const after = r.checks.filter((c) => c.id !== 'aaa-slow' && c.notApplicable !== true);
  assert.ok(after.length > 0);
  for (const c of after) {
    assert.equal(c.status, 'skipped', c.id);
    assert.equal(c.skipReason, CHECK_DEADLINE_PASSED, c.id);
  }
  assert.deepEqual(
    r.workflows.map((w) => w.verdict),
    ['unverified'],
  );
  assert.notEqual(r.summary.exitCode, 0);
  // The same model with time to spare is ready: the deadline, not the cluster, made it unverified.
  const inTime = runModelChecks(model, CHECKS, withDefaults(), { ...meta, deadlineAt: 5_000, now: () => 0 });
  assert.deepEqual(
    inTime.workflows.map((w) => w.verdict),
    ['ready'],
  );
});

test('check --deadline: the CLI hands its deadline to the checks (a clock that passes it skips them)', async () => {
  const dir = tempDir();
  try {
    const snap = await snapshotFile(moveTablesAt(4), dir.path('snap.json'));
    let t = 1_000_000;
    // Every look at the clock is a minute later: the deadline of 90 s has passed by the second check.
    const now = () => (t += 60_000);
    const run = await runCli(['check', '--snapshot', snap, '--deadline', '90s', '--format', 'json'], { now });
    const report = JSON.parse(run.stdout) as { checks: { id: string; status: string; skipReason?: string }[] };
    const skipped = report.checks.filter((c) => c.skipReason === CHECK_DEADLINE_PASSED);
    assert.ok(skipped.length > 0, run.stdout.slice(0, 400));
    assert.notEqual(run.code, 0);
    const fine = await runCli(['check', '--snapshot', snap, '--deadline', '90s', '--format', 'json']);
    assert.equal(fine.code, 0, fine.stdout.slice(0, 2000));
  } finally {
    dir.cleanup();
  }
});
