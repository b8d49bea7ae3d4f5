/**
 * replication-lag: the lag SwitchTraffic measures, by the rules Vitess has used (`src/model/lag.ts`).
 *
 * `canSwitch` (`vitessio/vitess:go/vt/vtctl/workflow/server.go`) compares the workflow's
 * `MaxVReplicationTransactionLag` (the maximum of `getVReplicationTrxLag` over ALL its streams, Stopped ones
 * included; `workflows.go`) with `--max-replication-lag-allowed` (default 30s) using `>` and refuses with
 * `replication lag %ds is higher than allowed lag %ds`. `getVReplicationTrxLag` keeps `transaction_timestamp` unless
 * the last update was a heartbeat (`time_updated == time_heartbeat`), in every release branch read (v0.19.10,
 * v0.20.8, v0.21.3, v0.21.4, v0.22.1, v0.24.4; the unreadable v20.0.6–v20.0.7 judged by that stricter rule,
 * `src/model/lag.ts`). Before PR #17616's backports (`LAG_RULE_VERSIONS`) `canSwitch` compared each
 * stream's `now − time_updated`; a stream over that limit is reported too (reason `timeUpdatedLag`) when the
 * transaction rule passes and the judged releases include those. A stream stored as Copying counts as infinite in
 * Vitess and is reported by copy-incomplete instead. `canSwitch` is skipped when writes are already switched
 * (`server.go` `WorkflowSwitchTraffic`), and so is this check.
 */
import { defineCheck } from '../src/engine/check.js';
import { LAG_RULE_VERSIONS, lagText, timeUpdatedLagSeconds, transactionLagSeconds } from '../src/model/lag.js';
import { sourceExecuted } from '../src/model/source-position.js';
import { canSwitchScope } from '../src/model/switch-state.js';
import type { ClusterModel, Stream, Workflow } from '../src/model/types.js';
import { pickRule, versionsHold } from '../src/vitess/versions.js';

interface StreamLag {
  readonly shard: string;
  readonly streamId: number;
  readonly tablet: string;
  readonly state: string;
  readonly transactionLagSeconds: number;
  readonly timeUpdatedLagSeconds: number;
}

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

/**
 * Streams stopped by hand (`Workflow stop`: state Stopped, not FROZEN, not stopped after copy as designed) of a
 * workflow whose lag is within the limit. canSwitch lets them through (`server.go:3443-3458` @v0.24.4 refuses only
 * Copying, Error and FROZEN streams and the lag), SwitchTraffic never restarts them, and the write switch's
 * `waitForCatchup` (`traffic_switcher.go` @v0.24.4) asks each stream's target primary to reach the source position
 * taken after source writes stop: the vreplication engine answers a Stopped stream that is short of it with
 * `replication has stopped at %v before reaching position %v, message: %s` (`go/vt/vttablet/tabletmanager/
 * vreplication/engine.go:847` @v0.24.4, `:815` @v0.19.10), and switchWrites cancels the migration. A stream whose
 * position already holds the source's is waited for no longer, so the switch goes on.
 */
function stoppedFindings(model: ClusterModel, wf: Workflow) {
  const out = [];
  for (const s of wf.streams) {
    if (s.state !== 'Stopped' || s.message === 'FROZEN' || stoppedAsDesigned(s)) continue;
    const base = { keyspace: wf.keyspace, shard: s.shard, workflow: wf.name, streamId: s.id, tablet: s.tablet };
    const src = sourceExecuted(model, s);
    const at = s.pos?.gtidSet ?? null;
    const behind = src !== null && at !== null && src.executed.gtidSet !== null && !at.contains(src.executed.gtidSet);
    if (behind) {
      out.push({
        reason: 'stoppedBehindSource' as const,
        message: `stream ${s.id} of ${wf.name} on ${wf.keyspace}/${s.shard} is Stopped (not FROZEN, not stopped after copy) and short of its source ${s.sourceKeyspace}/${s.sourceShard}: SwitchTraffic does not restart it, so the write switch stops source writes, waits for it to catch up, fails and rolls back`,
        ...base,
        vitessArgs: [at.toString(), src.executed.gtidSet!.toString(), s.message],
        details: { state: s.state, streamMessage: s.message, sourcePrimary: src.tablet.alias },
      });
    }
    // The reads SwitchTraffic switches are served by a target that no longer follows (every switch).
    out.push({
      reason: 'streamStopped' as const,
      message:
        `stream ${s.id} of ${wf.name} on ${wf.keyspace}/${s.shard} is Stopped (not FROZEN, not stopped after copy): SwitchTraffic does not restart it, so the reads it switches are served by a target that no longer follows its source, and the write switch fails at the catch-up ("replication has stopped at … before reaching position …") once ${s.sourceKeyspace}/${s.sourceShard} has a write it lacks` +
        (src === null ? " (the source primary's position was not read)" : ''),
      ...base,
      details: { state: s.state, streamMessage: s.message, sourcePositionRead: src !== null },
    });
  }
  return out;
}

function lagging(
  wf: Workflow,
  lag: number,
  max: number,
  over: readonly StreamLag[],
  rule: 'transaction' | 'timeUpdated',
  given: string | undefined,
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
  // `--max-lag 500ms` allows 0s: Vitess compares whole seconds, and the message says so rather than hide the 500ms.
  const allowed = given !== undefined ? `${max}s (--max-lag ${given} in whole seconds, as Vitess compares)` : `${max}s`;
  return `workflow ${wf.name} in ${wf.keyspace} has ${what} ${lagText(lag)}s, above the allowed ${allowed}; worst: ${worst}${more}`;
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
        versions: { from: 17, to: 21 },
      },
    },
    transactionLagMaskedByCopy: {
      severity: 'error',
      step: 'can-switch-lag',
      heuristic: true,
      rationale:
        'Another stream stored as Copying makes the workflow lag math.MaxInt64, which amd64 converts to MinInt64: Vitess then refuses on the copy (copy-incomplete), and this lag must still be under the limit afterwards.',
    },
    transactionLagNotSwitched: {
      severity: 'warning',
      step: 'can-switch-lag',
      heuristic: true,
      rationale:
        'Materialize and lookup backfills are never switched, so their lag only means the target data is stale.',
    },
    stoppedBehindSource: {
      severity: 'error',
      step: 'catch-up',
      vitess: {
        template: 'replication has stopped at %v before reaching position %v, message: %s',
        file: 'go/vt/vttablet/tabletmanager/vreplication/engine.go',
        line: 847,
        release: 'v0.24.4',
        versions: { from: 19 },
      },
    },
    streamStopped: {
      severity: 'warning',
      step: 'switch-reads',
      heuristic: true,
      rationale:
        'A stream stopped by hand passes canSwitch within the lag limit, and SwitchTraffic neither restarts it nor refuses the reads, so the switched reads go stale and the write switch fails once the source moves on.',
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
    "SwitchTraffic refuses when the workflow lags more than `--max-replication-lag-allowed` (default 30s): `cannot switch traffic for workflow … at this time: replication lag %ds is higher than allowed lag %ds` (`vitessio/vitess:go/vt/vtctl/workflow/server.go` `canSwitch`). Newest Vitess measures the time since the last replicated transaction or heartbeat (`workflows.go` `getVReplicationTrxLag`), maximised over all streams including Stopped ones, so a workflow with any stopped stream is refused once it has been stopped for longer than the limit; v17–v20 measured each stream's time since its row was last updated. vtpreflight evaluates both rules against the readout's capture time and reports the worst shards first. Only MoveTables and Reshard are switched with SwitchTraffic: for other workflows (Materialize, lookup backfills) the same lag is a warning about freshness, and a backfill stream stopped after copy as designed does not count.",
  remediation:
    'Find why the streams fall behind: stopped streams (`vtctldclient Workflow --keyspace <keyspace> start --workflow <workflow>`), throttling (`time_throttled`/`component_throttled` in `_vt.vreplication`), a slow or overloaded target primary, or a source tablet that is far behind. Wait until the lag is under the limit, or raise it knowingly with `--max-replication-lag-allowed` on SwitchTraffic and `--max-lag` here, then run vtpreflight again.',
  run(model, options) {
    const now = Math.floor(model.readAt / 1000);
    const max = options.maxLagSeconds;
    // getVReplicationTrxLag, as every release that has it computes it (src/model/lag.ts); the note says when the
    // judged range reaches releases from before it.
    const picked = pickRule(options.vitess, [{ versions: LAG_RULE_VERSIONS.transaction, value: 'heartbeat' as const }]);
    // Releases before PR #17616's backports refuse on each stream's time since its last update instead.
    const perStream = versionsHold(options.vitess, LAG_RULE_VERSIONS.perStreamTimeUpdated) !== 'none';
    const findings = [];
    for (const wf of model.workflows) {
      // Vitess skips canSwitch entirely once writes are switched (frozen-workflow reports that state). A FROZEN
      // workflow whose writes are not switched is not skipped: canSwitch tests the lag before the FROZEN message
      // (`server.go` `canSwitch`), so a stale FROZEN stream is refused for its lag first.
      const scope = canSwitchScope(model, wf);
      if (scope.skipped === 'writesSwitched') continue;
      // Only MoveTables and Reshard go through SwitchTraffic's lag refusal. Other workflows (Materialize, lookup
      // backfills) are never switched: their lag is a freshness warning, and a backfill stream that stopped
      // after copy as designed is not lagging at all (stop-after-copy-state judges it).
      const switched = scope.runs;
      const all = lags(wf, now, switched);
      if (all.length === 0) continue;
      const trxMax = Math.max(...all.map((l) => l.transactionLagSeconds));
      const updMax = Math.max(...all.map((l) => l.timeUpdatedLagSeconds));
      const rule: 'transaction' | 'timeUpdated' | null =
        trxMax > max ? 'transaction' : perStream && updMax > max ? 'timeUpdated' : null;
      // Within the limit, a stream stopped by hand passes canSwitch: what SwitchTraffic does with it then.
      if (rule === null) {
        if (switched) findings.push(...stoppedFindings(model, wf));
        continue;
      }
      const lag = rule === 'transaction' ? trxMax : updMax;
      const over = all.filter(
        (l) => (rule === 'transaction' ? l.transactionLagSeconds : l.timeUpdatedLagSeconds) > max,
      );
      const worst = over[0]!;
      // A stream stored as Copying makes getVReplicationTrxLag return math.MaxInt64, whose float64 converts back to
      // MinInt64 on amd64: the workflow-wide lag test then passes and canSwitch refuses on the copy instead
      // (arm64 prints `replication lag 9223372036854775807s …`). The amd64 outcome is predicted.
      const maskedByCopy = rule === 'transaction' && wf.streams.some((x) => x.state === 'Copying');
      const reason = !switched
        ? rule === 'transaction'
          ? ('transactionLagNotSwitched' as const)
          : ('timeUpdatedLagNotSwitched' as const)
        : maskedByCopy
          ? ('transactionLagMaskedByCopy' as const)
          : rule === 'transaction'
            ? ('transactionLag' as const)
            : ('timeUpdatedLag' as const);
      findings.push({
        reason,
        message: lagging(wf, lag, max, over, rule, options.maxLagGiven),
        // Only a SwitchTraffic workflow is refused by Vitess; for the others the lag is a freshness warning.
        ...(switched && !maskedByCopy ? { vitessArgs: [lagText(lag), max] } : {}),
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
          lagRule: rule === 'transaction' ? picked.value : 'perStreamTimeUpdated',
          versions: rule === 'transaction' ? picked.versions : LAG_RULE_VERSIONS.perStreamTimeUpdated,
          ...(rule === 'transaction' && picked.note ? { versionNote: picked.note } : {}),
          ...(maskedByCopy ? { maskedByStoredCopying: true } : {}),
        },
      });
    }
    return findings;
  },
});
