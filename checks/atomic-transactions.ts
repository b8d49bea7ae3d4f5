/**
 * Atomic (2PC) transactions recorded on a Reshard's source primaries when its writes switch.
 *
 * Upstream `vitessio/vitess`: the write switch of a Reshard stops the source shards' query service
 * (`traffic_switcher.go` `changeShardsAccess` → `UpdateDisableQueryService` and a tablet refresh). Since PR #16844
 * (v21), the refresh of a tablet whose query service stops first refuses new `Prepare` calls and waits for its
 * prepared pool to drain (`tmState.prepareForDisableQueryService` → `WaitForPreparedTwoPCTransactions`), bounded by the
 * switch's context: transactions prepared on the source as a participant (`<sidecar>.redo_state`) hold the switch up
 * until they resolve. Transactions the source primary coordinates (`<sidecar>.dt_state`, the metadata manager's only
 * durable record) are not in that pool: the drain returns at once and the query service stops under them, which
 * orphans their participants' redo logs for good (#20002, open; PR #20060, which would wait on `dt_state`, closed).
 * Vitess raises no error for either: both reasons are warnings.
 *
 * Read: `SELECT dtid, state, time_created FROM <sidecar>.dt_state` and `redo_state` on every source primary (schema
 * go/vt/sidecardb/schema/twopc/*.sql). A server without the tables (older Vitess) has no 2PC records; a refused read
 * is a read failure (`unreachable`), not judged here. Only records at least {@link TWO_PC_MIN_AGE_SECONDS} old at the
 * read are reported: younger ones are the normal traffic of a busy 2PC cluster, resolved in milliseconds.
 */
import { defineCheck, type CheckFinding, type Reasons } from '../src/engine/check.js';
import { migrationType } from '../src/model/traffic-switch.js';
import type { ClusterModel, TwoPcRow, Workflow } from '../src/model/types.js';

const dtids = (rows: readonly TwoPcRow[]) => rows.slice(0, 3).map((r) => r.dtid);

/**
 * How old a record must be, at the read, to be reported. An atomic transaction commits in milliseconds, so a busy 2PC
 * cluster always shows a few young records that are gone before the switch; one that has lived this long is slow or
 * stuck (Vitess's own resolver waits `--twopc-abandon-age`, 15 minutes by default: tabletenv/config.go:1146
 * @v0.24.4, before it calls one abandoned).
 */
export const TWO_PC_MIN_AGE_SECONDS = 10;

/** The records created at least {@link TWO_PC_MIN_AGE_SECONDS} before `readAt` (ms); an unreadable time counts. */
function lingering(rows: readonly TwoPcRow[], readAt: number): TwoPcRow[] {
  const cutoff = BigInt(Math.floor(readAt)) * 1_000_000n - BigInt(TWO_PC_MIN_AGE_SECONDS) * 1_000_000_000n;
  return rows.filter((r) => !/^\d+$/.test(r.time_created) || BigInt(r.time_created) <= cutoff);
}

function workflowFindings(model: ClusterModel, wf: Workflow): CheckFinding<Reason>[] {
  if (migrationType(wf) !== 'SHARDS') return [];
  const sourceKs = wf.sourceKeyspaces[0];
  if (sourceKs === undefined) return [];
  const out: CheckFinding<Reason>[] = [];
  for (const name of wf.sourceShards) {
    const shard = model.shard(sourceKs, name);
    const sc = shard?.sidecar;
    if (shard === undefined || sc === undefined || !sc.ok) continue;
    const twoPc = sc.value.twoPc;
    if (twoPc === undefined || !twoPc.ok) continue; // not read (older readout), or a read failure: unreachable
    const loc = {
      keyspace: shard.keyspace,
      shard: shard.name,
      workflow: wf.name,
      ...(shard.primaryAlias ? { tablet: shard.primaryAlias } : {}),
    };
    const where = `${shard.keyspace}/${shard.name}`;
    const dt = lingering(twoPc.value.dtState ?? [], model.readAt);
    if (dt.length > 0)
      out.push({
        reason: 'coordinatedTransactions',
        message: `source primary ${where} coordinates ${dt.length} atomic transaction(s) unresolved for ${TWO_PC_MIN_AGE_SECONDS}s or more in dt_state (${dtids(dt).join(', ')}): the write switch of ${wf.keyspace}.${wf.name} stops its query service without waiting for them, orphaning their participants (#20002)`,
        ...loc,
        details: { count: dt.length, dtids: dtids(dt), states: [...new Set(dt.map((r) => r.state))].sort() },
      });
    const redo = lingering(twoPc.value.redoState ?? [], model.readAt);
    if (redo.length > 0)
      out.push({
        reason: 'preparedTransactions',
        message: `source primary ${where} holds ${redo.length} atomic transaction(s) prepared ${TWO_PC_MIN_AGE_SECONDS}s or more ago in redo_state (${dtids(redo).join(', ')}): the write switch of ${wf.keyspace}.${wf.name} waits for them to resolve before the source stops serving`,
        ...loc,
        details: { count: redo.length, dtids: dtids(redo), states: [...new Set(redo.map((r) => r.state))].sort() },
      });
  }
  return out;
}

const reasons = {
  coordinatedTransactions: {
    reads: ['twoPc'],
    severity: 'warning',
    step: 'stop-streams',
    actions: ['switch'],
    heuristic: true,
    rationale:
      'The write switch drains only the prepared pool of a source primary, so the atomic transactions it still coordinates in dt_state lose their coordinator and their participants keep redo logs no one resolves (#20002).',
  },
  preparedTransactions: {
    reads: ['twoPc'],
    severity: 'warning',
    step: 'stop-streams',
    actions: ['switch'],
    heuristic: true,
    rationale:
      'A source primary waits for its prepared atomic transactions to resolve before it stops serving (PR #16844), so the write switch stalls on them and fails at its timeout if they do not resolve.',
  },
} satisfies Reasons;

type Reason = keyof typeof reasons;

export default defineCheck({
  id: 'atomic-transactions',
  title: "No atomic (2PC) transaction is in flight on a Reshard's source primaries",
  reasons,
  description:
    "A Reshard's write switch stops the query service of its source shards. Atomic (2PC, `--transaction_mode=TWOPC`) transactions prepared there (`<sidecar>.redo_state`) hold the switch until they resolve (PR #16844); transactions a source primary coordinates (`<sidecar>.dt_state`) are not waited for, and stopping the source under them orphans their participants' redo logs (#20002). Both are warnings: Vitess raises no error. Only records at least 10 seconds old at the read count (younger ones are the normal traffic of a busy 2PC cluster). Read from every source primary of a Reshard; a server without the 2PC tables has no such records.",
  remediation:
    'Let the transactions resolve before the switch: `vtctldclient DistributedTransaction unresolved-list --keyspace <keyspace>` lists them; `vtctldclient DistributedTransaction conclude` rolls back one that failed and removes its record. Pause the application writes that use atomic transactions for the switch. Then run vtpreflight again.',
  needs: ['topology'],
  run(model) {
    return model.workflows.flatMap((wf) => workflowFindings(model, wf));
  },
});
