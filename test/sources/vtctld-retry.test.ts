/**
 * Retries of the vtctld client, against a real gRPC server: RESOURCE_EXHAUSTED and a topology read's
 * UNAVAILABLE are retried (twice, with backoff) and succeed once vtctld answers again; a tablet call's UNAVAILABLE (a
 * tablet that is down) is not retried; no retry waits past the run's deadline, and a call the deadline left no time for
 * is never sent.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startFakeVtctld, type FakeVtctld, type FakeVtctldCluster } from '../../src/sim/vtctld-server.js';
import { createVtctldClient, RUN_DEADLINE_PASSED, VtctldError } from '../../src/sources/vtctld.js';
import { fakeClusterOf } from '../cli/helpers.js';
import { unshardedToSharded } from '../e2e/scenarios.js';

describe('vtctld client retries', () => {
  let vtctld: FakeVtctld;
  let base: FakeVtctldCluster;
  before(async () => {
    base = fakeClusterOf(unshardedToSharded().readout());
    vtctld = await startFakeVtctld(base);
  });
  after(() => vtctld.stop());

  const callsOf = (rpc: string) => vtctld.calls.filter((c) => c.rpc === rpc).length;
  const failing = (rpc: string, text: string): FakeVtctldCluster => ({ ...base, failRpcs: { [rpc]: text } });

  test('RESOURCE_EXHAUSTED is retried twice, then reported', async () => {
    vtctld.setCluster(failing('GetRoutingRules', 'RESOURCE_EXHAUSTED: too many requests'));
    const client = createVtctldClient({ address: vtctld.address, timeoutMs: 5000 });
    try {
      const before = callsOf('GetRoutingRules');
      await assert.rejects(
        client.getRoutingRules(),
        (e: unknown) => e instanceof VtctldError && e.code === 'RESOURCE_EXHAUSTED',
      );
      assert.equal(callsOf('GetRoutingRules') - before, 3);
    } finally {
      client.close();
    }
  });

  test('a topology read that vtctld turns away once succeeds on the retry', async () => {
    vtctld.setCluster(failing('GetKeyspaces', 'UNAVAILABLE: topo server unavailable'));
    const client = createVtctldClient({ address: vtctld.address, timeoutMs: 5000 });
    try {
      await client.checkReachable();
      const before = callsOf('GetKeyspaces');
      const pending = client.getKeyspaces();
      // vtctld recovers while the client backs off.
      while (callsOf('GetKeyspaces') === before) await new Promise((r) => setTimeout(r, 1));
      vtctld.setCluster(base);
      const keyspaces = await pending;
      assert.deepEqual(
        keyspaces.map((k) => k.name),
        ['commerce', 'customer'],
      );
      assert.equal(callsOf('GetKeyspaces') - before, 2);
    } finally {
      client.close();
    }
  });

  test('a tablet call answered UNAVAILABLE (the tablet is down) is not retried', async () => {
    vtctld.setCluster(failing('GetFullStatus', 'UNAVAILABLE: tablet is down'));
    const client = createVtctldClient({ address: vtctld.address, timeoutMs: 5000 });
    try {
      await client.checkReachable();
      const before = callsOf('GetFullStatus');
      await assert.rejects(client.getFullStatus('zone1-0000000100'), { readErrorKind: 'unavailable' });
      assert.equal(callsOf('GetFullStatus') - before, 1);
    } finally {
      client.close();
    }
  });

  test('no retry waits past the deadline; a call after it is never sent', async () => {
    vtctld.setCluster(failing('GetRoutingRules', 'RESOURCE_EXHAUSTED: too many requests'));
    const client = createVtctldClient({ address: vtctld.address, timeoutMs: 5000, deadlineAt: Date.now() + 150 });
    try {
      const before = callsOf('GetRoutingRules');
      const t0 = Date.now();
      await assert.rejects(client.getRoutingRules());
      assert.ok(Date.now() - t0 < 400, `took ${Date.now() - t0} ms`);
      assert.ok(callsOf('GetRoutingRules') - before <= 2);
      await new Promise((r) => setTimeout(r, 200));
      const sent = callsOf('GetRoutingRules');
      await assert.rejects(
        client.getRoutingRules(),
        (e: unknown) => e instanceof VtctldError && e.timedOut && e.details === RUN_DEADLINE_PASSED,
      );
      assert.equal(callsOf('GetRoutingRules'), sent, 'not sent');
    } finally {
      client.close();
      vtctld.setCluster(base);
    }
  });
});
