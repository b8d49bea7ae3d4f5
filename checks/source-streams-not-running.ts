/**
 * Reshard only: the other workflows' streams on the Reshard's source shards must all be running and done
 * copying before the stream migrator will move them.
 *
 * Upstream: `vitessio/vitess:go/vt/vtctl/workflow/stream_migrator.go` `readSourceStreams`: first
 * `readTabletStreams(…, "state = 'Stopped' and message != 'FROZEN'")` (non-reference rows only) ⇒
 * `cannot migrate until all streams are running: %s: %d` (source shard name, primary uid); then
 * `select distinct vrepl_id from _vt.copy_state where vrepl_id in (<migrated ids>)` ⇒
 * `cannot migrate while vreplication streams in source shards are still copying: %s`.
 */
import { defineCheck, type CheckFinding, type Reasons } from '../src/engine/check.js';
import { copyTablesLeft } from '../src/model/copy-state.js';
import { transactionLagSeconds } from '../src/model/lag.js';
import type { ClusterModel, Stream } from '../src/model/types.js';
import { reshardMigrations, type MigratorShard, type ReshardMigration } from '../src/model/stream-migrator.js';

const where = (m: ReshardMigration, s: Stream) =>
  `stream ${s.id}${s.workflow ? ` (${s.workflow})` : ''} on source shard ${m.keyspace}/${s.shard} of Reshard ${m.workflow.name}`;

const stopped = (m: ReshardMigration, s: Stream) =>
  `${where(m, s)} is Stopped${s.message ? ` with message "${s.message}"` : ''}, and the stream migrator refuses to run until every stream there is running`;

const copying = (m: ReshardMigration, s: Stream, left: readonly string[]) =>
  `${where(m, s)} is still copying ${left.length} table${left.length === 1 ? '' : 's'} (${left.join(', ')}), and the stream migrator refuses to move a copying stream`;

/**
 * Vitess's `state in ('Stopped') and message != 'FROZEN'` (`rpc_vreplication.go` `ReadVReplicationWorkflows` with
 * `ExcludeFrozen`): a binary (case-sensitive) comparison on a varbinary column, which is NULL — not true — for a
 * NULL message. Rows inserted Stopped (`--auto-start=false`, `insert_generator.go`) have a NULL message until they
 * first run, so Vitess does not see them as stopped.
 */
const isStoppedNotFrozen = (s: Stream) => s.state === 'Stopped' && s.rawMessage !== null && s.rawMessage !== 'FROZEN';

/**
 * The wait `stopStreams` gives an intra-keyspace materialization: SwitchTraffic's --timeout, 30s when not given
 * (WorkflowSwitchTraffic @006b7393: `if !set { timeout = DefaultTimeout }`, passed to switchWrites as `waitTimeout`).
 * vtpreflight does not know the --timeout the user will pass, so it judges against the default.
 */
const DEFAULT_SWITCH_TIMEOUT_SECONDS = 30;

function findingsFor(m: ReshardMigration, shard: MigratorShard, nowSeconds: number): CheckFinding<R>[] {
  const out: CheckFinding<R>[] = [];
  const loc = { keyspace: m.keyspace, shard: shard.name, workflow: m.workflow.name, tablet: shard.tablet };
  const stoppedIds = new Set<number>();
  for (const s of shard.nonReference) {
    if (!isStoppedNotFrozen(s)) continue;
    stoppedIds.add(s.id);
    out.push({
      reason: 'stoppedStream',
      message: stopped(m, s),
      ...loc,
      streamId: s.id,
      vitessArgs: [shard.name, shard.tabletUid],
      details: {
        streamWorkflow: s.workflow,
        state: s.state,
        message: s.message,
      },
    });
  }
  // Without a copy_state read, "no rows" would only mean "not read": say nothing (unreachable reports the read).
  if (shard.copyStateRead) {
    for (const s of shard.migrated) {
      const left = copyTablesLeft(s) ?? [];
      if (left.length === 0) continue;
      out.push({
        reason: 'copyingStream',
        message: copying(m, s, left),
        ...loc,
        streamId: s.id,
        vitessArgs: [shard.name],
        details: {
          streamWorkflow: s.workflow,
          state: s.state,
          tablesLeft: left,
          alsoStopped: stoppedIds.has(s.id),
        },
      });
    }
  }
  // An intra-keyspace Materialize (its source is the keyspace being resharded) is migrated too, and since v20
  // (PR #15536) switchWrites stops the source writes and then waits, within the switch's --timeout, for such streams to
  // catch up before stopping them (server.go @006b7393 `switchWrites`: "we wait for those to catchup in the stopStreams
  // path", `stopCtx := context.WithTimeout(ctx, waitTimeout)`, failure wrapped `failed to stop the workflow streams in
  // the %s keyspace`). A stream shown in Error (its message holds "error": it keeps failing and retrying) does not
  // advance, so the wait runs out. The wait's own text is in a stream_migrator.go the store does not hold: heuristic.
  for (const s of shard.migrated) {
    if (s.workflowType !== 'Materialize' || s.sourceKeyspace !== m.keyspace) continue;
    if (stoppedIds.has(s.id)) continue;
    if (s.displayState !== 'Error') {
      // A running stream that is far behind: once the source writes stop it has its backlog to apply within the same
      // wait. A steady lag means it applies about as fast as the source writes, so the backlog takes about as long as
      // the lag; Vitess's heartbeat rule (workflows.go getVReplicationTrxLag) keeps heartbeats from hiding it.
      const lag = transactionLagSeconds(s, nowSeconds);
      if (s.displayState !== 'Running' || lag === null || lag <= DEFAULT_SWITCH_TIMEOUT_SECONDS) continue;
      out.push({
        reason: 'intraKeyspaceLagging',
        message: `${where(m, s)} is an intra-keyspace workflow ${lag}s behind: after stopping the source writes, SwitchTraffic waits for it to catch up within its --timeout (${DEFAULT_SWITCH_TIMEOUT_SECONDS}s by default), and a backlog that long may not be applied in time, failing the switch ("failed to stop the workflow streams in the ${m.keyspace} keyspace: …", then cancelled)`,
        ...loc,
        streamId: s.id,
        details: { streamWorkflow: s.workflow, lagSeconds: lag, waitSeconds: DEFAULT_SWITCH_TIMEOUT_SECONDS },
      });
      continue;
    }
    out.push({
      reason: 'intraKeyspaceCannotCatchUp',
      message: `${where(m, s)} is an intra-keyspace workflow in Error ("${s.message}"): after stopping the source writes, SwitchTraffic waits for it to catch up before stopping it, and a stream that keeps failing never does, so the switch fails ("failed to stop the workflow streams in the ${m.keyspace} keyspace: …")`,
      ...loc,
      streamId: s.id,
      details: { streamWorkflow: s.workflow, state: s.state, message: s.message },
    });
  }
  return out;
}

const reasons = {
  stoppedStream: {
    severity: 'error',
    step: 'migrate',
    vitess: {
      template: 'cannot migrate until all streams are running: %s: %d',
      file: 'go/vt/vtctl/workflow/stream_migrator.go',
      line: 310,
      versions: { from: 17 },
    },
  },
  intraKeyspaceCannotCatchUp: {
    severity: 'error',
    step: 'stop-streams',
    heuristic: true,
    rationale:
      "A migrated intra-keyspace workflow's stream that keeps failing cannot catch up in the wait SwitchTraffic gives it after stopping the source writes, so stopping the streams fails.",
  },
  intraKeyspaceLagging: {
    severity: 'warning',
    step: 'stop-streams',
    heuristic: true,
    rationale:
      "A migrated intra-keyspace workflow's stream further behind than SwitchTraffic's --timeout (30s by default) has to apply that backlog within the wait that follows the stop of the source writes (server.go switchWrites, stopCtx = waitTimeout), and a steady lag means it applies no faster than the source writes.",
  },
  copyingStream: {
    severity: 'error',
    step: 'migrate',
    vitess: {
      template: 'cannot migrate while vreplication streams in source shards are still copying: %s',
      file: 'go/vt/vtctl/workflow/stream_migrator.go',
      line: 330,
      versions: { from: 17 },
    },
  },
} satisfies Reasons;

type R = keyof typeof reasons;

export default defineCheck({
  id: 'source-streams-not-running',
  aggregated: 'perShard',
  needs: ['topology'],
  title: "Other workflows' streams on a Reshard's source shards are running and done copying",
  reasons,
  description:
    "Before a Reshard switches writes, Vitess's stream migrator reads the *other* workflows' streams on every source shard primary (everything except `<workflow>_reverse`, ignoring streams whose tables are all reference tables). Any of them that is `Stopped` with a message other than `FROZEN` fails SwitchTraffic with `cannot migrate until all streams are running: <shard>: <primary uid>`, because cancelling a migration restarts every stopped stream and Vitess cannot tell a deliberately stopped stream from one it stopped itself. Any of them still copying (rows in `_vt.copy_state`) fails it with `cannot migrate while vreplication streams in source shards are still copying: <shard>`. Both run in dry runs too. An intra-keyspace workflow (its source is the resharded keyspace) whose stream is in Error cannot catch up in the wait SwitchTraffic gives it after stopping the source writes (v20+, `switchWrites` → `stopStreams`); one running further behind than that wait (`--timeout`, 30s by default) is a warning: its backlog may not be applied in time. Upstream: `vitessio/vitess:go/vt/vtctl/workflow/stream_migrator.go` (`readSourceStreams`).",
  remediation:
    'Start the stopped workflow with `vtctldclient Workflow --keyspace <keyspace> start --workflow <other workflow>`, or delete it if it is a leftover with `vtctldclient Workflow --keyspace <keyspace> delete --workflow <other workflow>` (never the Reshard itself). For a copying stream, wait until `vtctldclient Workflow --keyspace <keyspace> show --workflow <other workflow>` reports no copy state. Run vtpreflight again before `vtctldclient Reshard --target-keyspace <keyspace> --workflow <reshard> SwitchTraffic`.',
  run(model: ClusterModel) {
    const nowSeconds = Math.floor(model.readAt / 1000);
    return reshardMigrations(model).flatMap((m) => m.shards.flatMap((shard) => findingsFor(m, shard, nowSeconds)));
  },
});
