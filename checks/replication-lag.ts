/**
 * replication-lag: the lag SwitchTraffic measures, by both rules Vitess has used.
 *
 * Newest (`vitessio/vitess:go/vt/vtctl/workflow/workflows.go` `getVReplicationTrxLag`, PR #17616, backported to
 * 19–21 patch releases): per stream `now − t` where `t = transaction_timestamp`, replaced by `time_updated` when
 * it is 0 or older than `time_updated`; a stream whose stored state is Copying counts as infinite (reported by
 * copy-incomplete instead); the workflow's lag is the maximum over ALL its streams, Stopped ones included.
 * v17–v20 (`server.go` `canSwitch`): per stream `now − time_updated`. Both are compared with `>` against
 * `--max-replication-lag-allowed` (default 30s) and refused with `replication lag %ds is higher than allowed lag %ds`.
 */
import { defineCheck } from '../src/engine/check.js';
import { timeUpdatedLagSeconds, transactionLagSeconds } from '../src/model/lag.js';
import type { Stream, Workflow } from '../src/model/types.js';

interface StreamLag {
  readonly shard: string;
  readonly streamId: number;
  readonly tablet: string;
  readonly state: string;
  readonly transactionLagSeconds: number;
  readonly timeUpdatedLagSeconds: number;
}

/** Workflow types whose cutover is SwitchTraffic (Migrate refuses SwitchTraffic; the others have none). */
const SWITCHED: readonly string[] = ['MoveTables', 'Reshard'];

/** Stopped after copy on purpose: the stream's source says stop_after_copy and the copy is done. */
const stoppedAsDesigned = (s: Stream) =>
  s.state === 'Stopped' && s.source?.stopAfterCopy === true && s.message.includes('Stopped after copy');

function lags(wf: Workflow, nowSeconds: number, switched: boolean): StreamLag[] {
  const out: StreamLag[] = [];
  for (const s of wf.streams) {
    if (!switched && stoppedAsDesigned(s)) continue;
    const trx = transactionLagSeconds(s, nowSeconds);
    if (trx === null) continue;
    out.push({
      shard: s.shard,
      streamId: s.id,
      tablet: s.tablet,
      state: s.state,
      transactionLagSeconds: trx,
      timeUpdatedLagSeconds: timeUpdatedLagSeconds(s, nowSeconds),
    });
  }
  // Worst first; ties in shard/stream order (the workflow's streams are already sorted that way).
  return out.sort(
    (a, b) =>
      Math.max(b.transactionLagSeconds, b.timeUpdatedLagSeconds) -
      Math.max(a.transactionLagSeconds, a.timeUpdatedLagSeconds),
  );
}

const WORST_SHOWN = 3;

function lagging(
  wf: Workflow,
  lag: number,
  max: number,
  over: readonly StreamLag[],
  rule: 'transaction' | 'timeUpdated',
): string {
  const worst = over
    .slice(0, WORST_SHOWN)
    .map(
      (l) =>
        `${l.shard} stream ${l.streamId} ${rule === 'transaction' ? l.transactionLagSeconds : l.timeUpdatedLagSeconds}s${l.state === 'Running' ? '' : ` (${l.state})`}`,
    )
    .join(', ');
  const more = over.length > WORST_SHOWN ? ` and ${over.length - WORST_SHOWN} more` : '';
  const what = rule === 'transaction' ? 'transaction lag' : 'lag since last update (v17–v20 rule)';
  return `workflow ${wf.name} in ${wf.keyspace} has ${what} ${lag}s, above the allowed ${max}s; worst: ${worst}${more}`;
}

export default defineCheck({
  id: 'replication-lag',
  title: 'Replication lag is within --max-lag',
  reasons: {
    transactionLag: {
      severity: 'error',
      step: 'can-switch-lag',
      vitess: {
        template: 'replication lag %ds is higher than allowed lag %ds',
        file: 'go/vt/vtctl/workflow/server.go',
        line: 103,
        versions: { from: 17 },
      },
    },
    timeUpdatedLag: {
      severity: 'error',
      step: 'can-switch-lag',
      vitess: {
        template: 'replication lag %ds is higher than allowed lag %ds',
        file: 'go/vt/vtctl/workflow/server.go',
        line: 103,
        versions: { from: 17, to: 20 },
      },
    },
    transactionLagNotSwitched: {
      severity: 'warning',
      step: 'can-switch-lag',
      heuristic: true,
      rationale:
        'Materialize and lookup backfills are never switched, so their lag only means the target data is stale.',
    },
    timeUpdatedLagNotSwitched: {
      severity: 'warning',
      step: 'can-switch-lag',
      heuristic: true,
      rationale:
        'Materialize and lookup backfills are never switched, so their lag only means the target data is stale.',
    },
  },
  needs: ['streamDetails'],
  description:
    'SwitchTraffic refuses when the workflow lags more than `--max-replication-lag-allowed` (default 30s): ' +
    '`cannot switch traffic for workflow … at this time: replication lag %ds is higher than allowed lag %ds` ' +
    '(`vitessio/vitess:go/vt/vtctl/workflow/server.go` `canSwitch`). Newest Vitess measures the time since the last ' +
    'replicated transaction or heartbeat (`workflows.go` `getVReplicationTrxLag`), maximised over all streams ' +
    'including Stopped ones, so a workflow with any stopped stream is refused once it has been stopped for longer ' +
    "than the limit; v17–v20 measured each stream's time since its row was last updated. vtpreflight evaluates " +
    "both rules against the readout's capture time and reports the worst shards first. Only MoveTables and " +
    'Reshard are switched with SwitchTraffic: for other workflows (Materialize, lookup backfills) the same lag is ' +
    'a warning about freshness, and a backfill stream stopped after copy as designed does not count.',
  remediation:
    'Find why the streams fall behind: stopped streams (`vtctldclient Workflow --keyspace <keyspace> start --workflow ' +
    '<workflow>`), throttling (`time_throttled`/`component_throttled` in `_vt.vreplication`), a slow or overloaded ' +
    'target primary, or a source tablet that is far behind. Wait until the lag is under the limit, or raise it ' +
    'knowingly with `--max-replication-lag-allowed` on SwitchTraffic and `--max-lag` here, then run vtpreflight again.',
  run(model, options) {
    const now = Math.floor(model.readAt / 1000);
    const max = options.maxLagSeconds;
    const findings = [];
    for (const wf of model.workflows) {
      // Vitess skips canSwitch entirely once writes are switched (frozen-workflow reports that state).
      if (wf.frozen) continue;
      // Only MoveTables and Reshard go through SwitchTraffic's lag refusal. Other workflows (Materialize, lookup
      // backfills) are never switched: their lag is a freshness warning, and a backfill stream that stopped
      // after copy as designed is not lagging at all (stop-after-copy-state judges it).
      const switched = SWITCHED.includes(wf.type);
      const all = lags(wf, now, switched);
      if (all.length === 0) continue;
      const trxMax = Math.max(...all.map((l) => l.transactionLagSeconds));
      const updMax = Math.max(...all.map((l) => l.timeUpdatedLagSeconds));
      const rule: 'transaction' | 'timeUpdated' | null =
        trxMax > max ? 'transaction' : updMax > max ? 'timeUpdated' : null;
      if (rule === null) continue;
      const lag = rule === 'transaction' ? trxMax : updMax;
      const over = all.filter(
        (l) => (rule === 'transaction' ? l.transactionLagSeconds : l.timeUpdatedLagSeconds) > max,
      );
      const worst = over[0]!;
      const reason = switched
        ? rule === 'transaction'
          ? ('transactionLag' as const)
          : ('timeUpdatedLag' as const)
        : rule === 'transaction'
          ? ('transactionLagNotSwitched' as const)
          : ('timeUpdatedLagNotSwitched' as const);
      findings.push({
        reason,
        message: lagging(wf, lag, max, over, rule),
        // Only a SwitchTraffic workflow is refused by Vitess; for the others the lag is a freshness warning.
        ...(switched ? { vitessError: `replication lag ${lag}s is higher than allowed lag ${max}s` } : {}),
        keyspace: wf.keyspace,
        shard: worst.shard,
        workflow: wf.name,
        streamId: worst.streamId,
        tablet: worst.tablet,
        details: {
          rule,
          lagSeconds: lag,
          transactionLagSeconds: trxMax,
          timeUpdatedLagSeconds: updMax,
          maxLagSeconds: max,
          streamsOverLimit: over.length,
          worst: over.slice(0, 20),
          // Only a SwitchTraffic workflow is refused by Vitess; for the others the lag is a freshness warning.
          switchable: switched,
        },
      });
    }
    return findings;
  },
});
