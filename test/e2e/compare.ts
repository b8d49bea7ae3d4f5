/**
 * Live versus offline: a live `check --format json` report must equal the report `runChecks` computes from the
 * readout an exact collector would have read (LiveCluster.expectedReadout), i.e. the live path (gRPC, MySQL or
 * ExecuteFetchAsDBA, readout decoding) loses and invents nothing.
 *
 * What is compared: target (vtctld, keyspaces, workflows, snapshot), every check's id/status/finding count/error,
 * every finding (check, severity, message, location, predicts, details), every workflow verdict, the summary,
 * and the additive `options` and `streams` sections. Not compared: `startedAt` and the durations (clock).
 *
 * Two deliberate tolerances:
 * - Capture time. The live readout's `capturedAt` is taken inside collection, just after the report's
 *   `startedAt` (same synchronous turn, well under a second later), and lag is computed in whole seconds from it.
 *   So the expectation is computed for `startedAt` and for `startedAt + 1 s`; the live report must equal one of
 *   them exactly. Everything else is exact because stored times were shifted at insert time (live-cluster.ts).
 * - `unreachable` findings are matched on check, severity, location and `details.reason` only: their messages and
 *   details quote the transport's own error text (a MySQL connect error, a gRPC status), which the builder cannot
 *   know. Scenario tests assert on those messages separately. Likewise a verdict's `unverifiedBy` parts not read
 *   are compared by check only. `long-transactions` findings likewise: they quote a real open transaction's age,
 *   session id and user, which the live server decides.
 */
import assert from 'node:assert/strict';
import { runChecks, type RunChecksOptions } from '../../src/index.js';
import { toContractJson } from '../../src/report/json.js';
import type { ContractFinding, ContractReport } from './cli.js';
import type { LiveCluster } from './live-cluster.js';
import { bigintAsString } from '../../src/text.js';

/** The offline expectation of a live run, as a parsed JSON report. */
export function offlineReport(
  cluster: LiveCluster,
  o: { capturedAt: string; via: 'mysql' | 'vtctld'; options?: RunChecksOptions },
): ContractReport {
  const report = runChecks(cluster.expectedReadout({ capturedAt: o.capturedAt, via: o.via }), o.options ?? {});
  return JSON.parse(JSON.stringify(toContractJson(report), bigintAsString)) as ContractReport;
}

/** Checks whose findings quote what only the live server knows (see the module comment). */
const LOOSE_CHECKS = new Set(['unreachable', 'long-transactions']);

function looseFinding(f: ContractFinding): Record<string, unknown> {
  return {
    check: f.check,
    severity: f.severity,
    keyspace: f.keyspace,
    shard: f.shard,
    workflow: f.workflow,
    streamId: f.streamId,
    tablet: f.tablet,
    reason: f.details?.reason,
  };
}

/** The compared view of a report (see the module comment). */
export function comparable(r: ContractReport & Record<string, unknown>): Record<string, unknown> {
  return {
    target: {
      vtctld: r.target.vtctld,
      snapshot: r.target.snapshot,
      keyspaces: r.target.keyspaces,
      workflows: r.target.workflows,
    },
    checks: r.checks.map((c) => ({
      id: c.id,
      status: c.status,
      findings: c.findings,
      ...(c.error !== undefined ? { error: c.error } : {}),
    })),
    findings: r.findings.map((f) => (LOOSE_CHECKS.has(f.check) ? looseFinding(f) : f)),
    workflows: r.workflows.map((w) => ({
      ...w,
      // Parts not read carry the transport's own labels and error texts: compared by check only, deduplicated.
      unverifiedBy: [
        ...new Set(
          (w.unverifiedBy ?? []).map((u) =>
            JSON.stringify(u.part !== undefined ? { check: u.check, part: 'not read' } : u),
          ),
        ),
      ],
    })),
    summary: r.summary,
    options: r.options,
    streams: r.streams,
  };
}

/** Asserts that a live report equals the offline expectation for its capture second (see the module comment). */
export function assertLiveMatchesOffline(
  live: ContractReport & Record<string, unknown>,
  cluster: LiveCluster,
  o: { via: 'mysql' | 'vtctld'; options?: RunChecksOptions; label?: string },
): void {
  const t = Date.parse(live.startedAt);
  assert.ok(Number.isFinite(t), `live report has no startedAt: ${String(live.startedAt)}`);
  const actual = comparable(live);
  const candidates = [t, t + 1000].map((ms) => new Date(ms).toISOString());
  let first: Record<string, unknown> | null = null;
  for (const capturedAt of candidates) {
    const expected = comparable(
      offlineReport(cluster, { capturedAt, via: o.via, options: o.options }) as ContractReport &
        Record<string, unknown>,
    );
    first ??= expected;
    try {
      assert.deepStrictEqual(actual, expected);
      return;
    } catch {
      // try the next capture second
    }
  }
  assert.deepStrictEqual(
    actual,
    first,
    `${o.label ?? 'live report'} (via ${o.via}) differs from the offline report of the same cluster`,
  );
}
