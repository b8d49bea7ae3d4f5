/** The real-Vitess state table's declarations, as the fidelity table reads them (no Vitess needed). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CHECKS } from '../../checks/index.js';
import { reproducedReasons, STATES } from './states.js';

test('each declared reason exists, and holds on the releases its state runs on', () => {
  const r = reproducedReasons();
  assert.deepEqual(r.get('cancel-workflow › writesSwitched'), [22, 23, 24]);
  assert.deepEqual(r.get('cancel-workflow › trafficSwitchedBeforeV22'), [19, 20, 21]);
  assert.deepEqual(r.get('mirror-traffic › typesSwitched'), [21, 22, 23, 24], 'no MirrorTraffic before v21');
  for (const key of r.keys()) {
    const [check, reason] = key.split(' › ');
    const c = CHECKS.find((x) => x.id === check);
    assert.ok(c && reason !== undefined && reason in c.reasons, `${key} is no declared reason of a check`);
  }
});

test('state ids are unique', () => {
  assert.equal(new Set(STATES.map((s) => s.id)).size, STATES.length);
});
