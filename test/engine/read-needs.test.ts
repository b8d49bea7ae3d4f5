/**
 * Which verdicts a failed primary read leaves unverified, read by read and action by action (src/reads/registry.ts,
 * `Reason.reads` in src/engine/check.ts). The expectations are written out here by hand from the checks' reasons, so
 * a declaration that changes what a failure unverifies fails this table. A core read (the stream rows' companions)
 * unverifies every action; a declared read only the actions with an applicable reason that needs it and can do more
 * than warn.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CHECKS } from '../../checks/index.js';
import { DEFAULT_ACTION_REQUEST, withDefaults } from '../../src/engine/options.js';
import { runModelChecks } from '../../src/engine/run.js';
import type { Action } from '../../src/engine/steps.js';
import { buildModel } from '../../src/model/build.js';
import type { Readout, TabletSidecarRead } from '../../src/readout.js';
import { PRIMARY_READS, type PrimaryReadId } from '../../src/reads/registry.js';
import { withReadErrorKinds } from '../../src/sources/read-kind.js';
import { moveTablesScenario } from '../helpers/reshard-scenario.js';

const meta = {
  toolVersion: '0',
  snapshot: null,
  startedAt: '2026-01-01T00:00:00.000Z',
  elapsedMs: 0,
  failOn: 'error' as const,
};

const ACTIONS_JUDGED: readonly Action[] = ['switch', 'reverse', 'complete', 'cancel', 'mirror'];

/** Per read, the actions whose verdict of a MoveTables it leaves unverified when it failed on every primary. */
const EXPECTED: Readonly<Record<Exclude<PrimaryReadId, 'columns' | 'vreplication'>, readonly Action[]>> = {
  // Core: every verdict rests on them.
  copyState: ACTIONS_JUDGED,
  vreplicationLog: ACTIONS_JUDGED,
  reshardingJournal: ACTIONS_JUDGED,
  // gtid-set-too-long's errors (the write switch's catch-up and canSwitch).
  positionColumns: ['switch'],
  // table-list-mismatch's LOCK TABLES error (switch) and complete-workflow's RENAME errors (complete).
  tables: ['switch', 'complete'],
  // Heuristics that can only warn (long-transactions, moved-tables-without-key, atomic-transactions,
  // target-sequences, vdiff-evidence, moved-tables-foreign-keys, time-zone-tables): never.
  transactions: [],
  metadataLocks: [],
  tableKeys: [],
  tableProbes: [],
  twoPc: [],
  sequenceValues: [],
  autoIncrementMax: [],
  vdiffs: [],
  foreignKeys: [],
  timeZoneTables: [],
  // reverse-permissions: SwitchTraffic's ValidateVReplicationPermissions (v21+) on the source primaries.
  filteredUserGrants: ['switch'],
};

const base = () => moveTablesScenario();

/** The readout with `read` failed (a refused statement, kind `privilege`) on every primary. */
function failing(read: PrimaryReadId): Readout {
  const r = JSON.parse(JSON.stringify(base().readout())) as Readout;
  const sidecars = r.sidecars.map((s) => ({
    ...s,
    [read]: {
      ok: false,
      error: { what: `the ${read} read`, where: s.alias, reason: 'refused (ER_TABLEACCESS_DENIED_ERROR 1142)' },
    },
  })) as TabletSidecarRead[];
  return withReadErrorKinds({ ...r, sidecars });
}

/** The actions under which the MoveTables' verdict names the failed read in `unverifiedBy`. */
function unverifiedUnder(readout: Readout, read: PrimaryReadId): Action[] {
  const model = buildModel(readout);
  return ACTIONS_JUDGED.filter((action) => {
    const report = runModelChecks(model, CHECKS, withDefaults({ action: { ...DEFAULT_ACTION_REQUEST, action } }), meta);
    const row = report.workflows.find((w) => w.workflow === 'commerce2customer');
    assert.ok(row, `${read} under ${action}: no verdict row`);
    return row.unverifiedBy.some((u) => (u.part ?? '').startsWith(`the ${read} read`));
  });
}

test('the table covers every read of the registry but the stream rows themselves', () => {
  assert.deepEqual(
    Object.keys(EXPECTED).sort(),
    PRIMARY_READS.map((r) => r.id)
      .filter((id) => id !== 'columns' && id !== 'vreplication')
      .sort(),
  );
});

test('with every read answered, no action is unverified (the baseline of the table)', () => {
  const model = base().model();
  for (const action of ACTIONS_JUDGED) {
    const r = runModelChecks(model, CHECKS, withDefaults({ action: { ...DEFAULT_ACTION_REQUEST, action } }), meta);
    assert.deepEqual(
      r.workflows.flatMap((w) => w.unverifiedBy),
      [],
      action,
    );
  }
});

for (const [read, actions] of Object.entries(EXPECTED) as [PrimaryReadId, readonly Action[]][]) {
  test(`a failed ${read} read unverifies ${actions.length === 0 ? 'no action' : actions.join(', ')}`, () => {
    assert.deepEqual(unverifiedUnder(failing(read), read), actions);
  });
}

test('a heuristic raised to error by the user (--severity) can refuse, so its read unverifies again', () => {
  const model = buildModel(failing('transactions'));
  const r = runModelChecks(model, CHECKS, withDefaults({ severities: { 'long-transactions': 'error' } }), meta);
  const row = r.workflows.find((w) => w.workflow === 'commerce2customer');
  assert.ok(row?.unverifiedBy.some((u) => (u.part ?? '').startsWith('the transactions read')));
});
