/**
 * A GetWorkflows answer over the client's receive limit: Vitess's own view of a keyspace was not
 * read, so the workflows of that keyspace are unverified and the run fails the gate (exit 1), never a pass.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CHECKS } from '../../checks/index.js';
import { withDefaults } from '../../src/engine/options.js';
import { runModelChecks } from '../../src/engine/run.js';
import { buildModel } from '../../src/model/build.js';
import type { Readout } from '../../src/readout.js';
import { unshardedToSharded } from '../e2e/scenarios.js';

const meta = {
  toolVersion: '0',
  snapshot: null,
  startedAt: '2026-01-01T00:00:00.000Z',
  elapsedMs: 0,
  failOn: 'error' as const,
};

test('GetWorkflows over the receive limit: unverified, exit 1', () => {
  const healthy = unshardedToSharded().readout();
  const clean = runModelChecks(buildModel(healthy), CHECKS, withDefaults(), meta);
  assert.equal(clean.summary.exitCode, 0, 'the same cluster read in full passes');
  const tooBig: Readout = {
    ...healthy,
    workflows: {
      customer: {
        ok: false,
        error: {
          what: 'GetWorkflows customer (shards -80…80-)',
          where: 'vtctld 127.0.0.1:15999',
          reason: 'RESOURCE_EXHAUSTED: Received message larger than max (70000000 vs. 67108864)',
        },
      },
    },
  };
  const r = runModelChecks(buildModel(tooBig), CHECKS, withDefaults(), meta);
  assert.equal(r.summary.exitCode, 1);
  for (const w of r.workflows) assert.notEqual(w.verdict, 'ready', `${w.keyspace}.${w.workflow}`);
  assert.ok(
    r.workflows.some((w) => w.unverifiedBy.some((u) => /GetWorkflows/.test(u.part ?? ''))),
    JSON.stringify(r.workflows.map((w) => w.unverifiedBy)),
  );
});
