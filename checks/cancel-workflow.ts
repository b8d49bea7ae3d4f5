/**
 * cancel (`check --action cancel`): what `vtctldclient MoveTables|Reshard cancel` (`WorkflowDelete`) refuses.
 * Upstream `vitessio/vitess:go/vt/vtctl/workflow/server.go` @006b7393 `WorkflowDelete`: after the getWorkflowState
 * prelude, a workflow that is not a lookup backfill and whose writes are switched is refused with
 * `ErrWorkflowDeleteWritesSwitched` (server.go:128, `cannot delete workflow because you have already switched write
 * traffic`), since v22. Before v22 any switched traffic, reads included, was refused with `cannot cancel workflow
 * because you have already switched some or all read and write traffic` (`ErrWorkflowPartiallySwitched`,
 * `go/vt/vtctl/workflow/server.go:138` @v0.19.10 returned by `DropTargets` at :2480, `:149` @v0.20.8, `:151`
 * @v0.21.5 returned by `WorkflowDelete` at :2083 when `state.WritesSwitched` or any replica or rdonly cell is
 * switched): measured on real v19.0.0 and v21.5 for a cancel after writes switched and a Reshard cancel after a
 * reads-only switch. A judgement against releases older than v22 quotes that text; one spanning both sides quotes the
 * newest release's and notes the older one.
 * A journal of the workflow on a source primary while writes are not switched means a SwitchTraffic passed its point
 * of no return (source writes stopped, positions journaled) and stopped before routing changed: Vitess does not
 * refuse the cancel, but the next SwitchTraffic would resume from that journal; reported as a warning.
 * Two cancels Vitess performs and that break serving, with no text to quote because nothing refuses them (errors:
 * the default gate fails and the verdict is not `ready`; the message says Vitess will proceed and what breaks):
 * - a Reshard cancel after a reads-only switch, on v22+: WorkflowDelete refuses only `WritesSwitched`
 *   (`vitessio/vitess` `go/vt/vtctl/workflow/server.go:1379 @v0.22.x`), then dropTargets drops the filtered tables on
 *   every target shard (server.go:1993-1994, traffic_switcher.go:1304 `removeTargetTables`, SHARDS) and nothing
 *   touches the SrvKeyspace, whose REPLICA/RDONLY partitions still send reads to those shards. Before v22 any switched
 *   read is refused (`server.go:2082 @v0.21.x`).
 * - a partial (shard-by-shard) MoveTables cancel after a shard switch, every release: getWorkflowState never sets
 *   `WritesSwitched` for a partial migration (server.go:466-481 @v0.22.x), the switch added the shard routing rule
 *   `<source>.<shard>` → target (traffic_switcher.go:781 `changeWriteRoute`), the cancel deletes only the
 *   `<target>.<shard>` keys (traffic_switcher.go:446 `deleteShardRoutingRules`) after dropping the target tables and
 *   the reverse streams: that shard's queries still go to the target keyspace, and the writes it took since the
 *   switch are gone (dropped, or with `--keep-data` kept where nothing routes back from).
 * Not judged: locks, multi-tenant batch deletes.
 */
import { defineCheck, type CheckFinding, type Reasons } from '../src/engine/check.js';
import { findWorkflowJournal } from '../src/model/journal.js';
import { cellReads } from '../src/model/read-state.js';
import { isReverseOfJudgedWorkflow } from '../src/model/reverse-workflow.js';
import { reverseWorkflowName } from '../src/model/stream-migrator.js';
import { switchState } from '../src/model/switch-state.js';
import type { ClusterModel, Workflow } from '../src/model/types.js';
import { pickRule, versionsHold, type VitessVersions } from '../src/vitess/versions.js';

/** Read types with at least one cell switched (or switched by the global rules when cells are not read). */
function readsSwitched(model: ClusterModel, wf: Workflow): string[] {
  // A `_reverse` name: getWorkflowState reports the forward workflow's state (keyspaces flipped, server.go
  // @006b7393), so its reads are the forward workflow's; not judged when that one is gone.
  if (wf.name.endsWith('_reverse')) {
    const forwardName = reverseWorkflowName(wf.name);
    const forward = model.allWorkflows.find((w) => w.name === forwardName && wf.sourceKeyspaces.includes(w.keyspace));
    return forward === undefined ? [] : readsSwitched(model, forward);
  }
  const st = switchState(model, wf);
  const out: string[] = [];
  for (const type of ['REPLICA', 'RDONLY'] as const) {
    const cells = cellReads(model, wf, type);
    const on =
      cells !== null
        ? cells.switched.length > 0
        : (type === 'REPLICA' ? st.replicaReadsSwitched : st.rdonlyReadsSwitched) === true;
    if (on) out.push(type);
  }
  return out;
}

/** `ErrWorkflowPartiallySwitched` of v19–v21 (server.go:151 @v0.21.5), refused on any switched traffic. */
const OLD_TEXT = 'cannot cancel workflow because you have already switched some or all read and write traffic';

function judge(model: ClusterModel, wf: Workflow, vitess: VitessVersions): CheckFinding<R>[] {
  const before22 = versionsHold(vitess, '<22');
  const st = switchState(model, wf);
  const base = { keyspace: wf.keyspace, workflow: wf.name };
  if (st.writesSwitched === true) {
    // Every release refuses; the text is the judged release's (the newest one's when the range spans v21 and v22).
    const rule = pickRule(vitess, [
      { versions: '<22', value: 'trafficSwitchedBeforeV22' as const },
      { versions: '>=22', value: 'writesSwitched' as const },
    ]);
    return [
      {
        reason: rule.value,
        message:
          `writes of ${wf.keyspace}.${wf.name} are already switched (${st.evidence}), so it can no longer be cancelled` +
          (before22 === 'some' ? ` (Vitess before v22 refuses with "${OLD_TEXT}")` : ''),
        ...base,
        vitessArgs: [],
        details: { evidence: st.evidence, ...(rule.note !== null ? { versionNote: rule.note } : {}) },
      },
    ];
  }
  const out: CheckFinding<R>[] = [];
  const reads = before22 === 'none' ? [] : readsSwitched(model, wf);
  if (reads.length > 0)
    out.push(
      before22 === 'all'
        ? {
            reason: 'trafficSwitchedBeforeV22',
            message: `${reads.join(' and ')} reads of ${wf.keyspace}.${wf.name} are switched, and Vitess before v22 refuses to cancel a workflow with any switched traffic`,
            ...base,
            vitessArgs: [],
            details: { readsSwitched: reads },
          }
        : {
            reason: 'trafficSwitchedVersionUnknown',
            message: `${reads.join(' and ')} reads of ${wf.keyspace}.${wf.name} are switched: Vitess before v22 refuses the cancel with "${OLD_TEXT}"`,
            ...base,
            details: { readsSwitched: reads },
          },
    );
  const journal = findWorkflowJournal(model, wf);
  if (journal.foundOn.length > 0)
    out.push({
      reason: 'interruptedSwitch',
      message: `a journal of ${wf.name} (id ${journal.id}) exists on ${journal.foundOn.map((j) => `${j.keyspace}/${j.shard}`).join(', ')} although writes are not switched: a SwitchTraffic passed its point of no return and stopped before changing the routing`,
      ...base,
      details: { journalId: journal.id, foundOn: journal.foundOn.map((j) => ({ ...j })) },
    });
  return out;
}

/**
 * The cancels Vitess performs although they break serving (see the header): a Reshard whose reads (not writes) are
 * served by its target shards, judged when some release judged against is v22 or newer; a partial MoveTables with a
 * shard already switched, on every release.
 */
function proceedsAndBreaks(
  model: ClusterModel,
  wf: Workflow,
  before22: 'all' | 'some' | 'none',
  keepData: boolean,
): CheckFinding<R>[] {
  const st = switchState(model, wf);
  if (st.writesSwitched === true) return [];
  const base = { keyspace: wf.keyspace, workflow: wf.name };
  if (st.migrationType === 'SHARDS' && before22 !== 'all') {
    const served = (['REPLICA', 'RDONLY'] as const).flatMap((type) => {
      const cells = cellReads(model, wf, type);
      return cells !== null && cells.switched.length > 0 ? [{ type, cells: cells.switched }] : [];
    });
    if (served.length === 0) return [];
    const what = served.map((x) => `${x.type} reads in ${x.cells.join(', ')}`).join(' and ');
    const shards = wf.targetShards.join(', ');
    return [
      {
        reason: 'reshardReadsOnDroppedTargets',
        message:
          `${what} of ${wf.keyspace} are served by the target shards ${shards} of ${wf.name}: Vitess v22+ does not refuse this cancel and leaves the serving graph as it is, ` +
          (keepData
            ? 'so those reads keep going to shards that no workflow replicates to any more and go stale'
            : `so it drops the tables on ${shards} while those reads are still routed there, and they fail`),
        ...base,
        details: {
          readsServed: served.map((x) => ({ type: x.type, cells: [...x.cells] })),
          targetShards: [...wf.targetShards],
        },
      },
    ];
  }
  if (st.partial && st.shardsSwitched !== null && st.shardsSwitched.length > 0) {
    const source = wf.sourceKeyspaces[0] ?? '';
    const shards = st.shardsSwitched;
    return [
      {
        reason: 'partialShardsSwitched',
        message:
          `shards ${shards.join(', ')} of ${source} are switched to ${wf.keyspace} by shard routing rules: Vitess does not refuse the cancel of a partial MoveTables and leaves those rules, ` +
          (keepData
            ? `so ${shards.join(', ')} keeps writing to ${wf.keyspace} with the reverse streams gone: the writes taken there no longer reach ${source}`
            : `so it drops ${st.tables.join(', ')} on ${wf.keyspace} while ${shards.join(', ')} still routes there: the writes taken since the shard switch are lost and those queries fail`),
        ...base,
        details: { shardsSwitched: [...shards], sourceKeyspace: source, tables: [...st.tables] },
      },
    ];
  }
  return [];
}

const reasons = {
  writesSwitched: {
    severity: 'error',
    step: 'cancel-state',
    vitess: {
      template: 'cannot delete workflow because you have already switched write traffic',
      file: 'go/vt/vtctl/workflow/server.go',
      line: 128,
      versions: { from: 22 },
    },
  },
  trafficSwitchedBeforeV22: {
    severity: 'error',
    step: 'cancel-state',
    // ErrWorkflowPartiallySwitched: server.go:138 @v0.19.10, :149 @v0.20.8, :151 @v0.21.5; gone in v0.22.4, whose
    // WorkflowDelete refuses switched writes only (ErrWorkflowDeleteWritesSwitched, server.go:127 @v0.22.4).
    vitess: {
      template: OLD_TEXT,
      file: 'go/vt/vtctl/workflow/server.go',
      line: 151,
      release: 'v0.21.5',
      versions: { from: 19, to: 21 },
    },
  },
  trafficSwitchedVersionUnknown: {
    severity: 'warning',
    step: 'cancel-state',
    heuristic: true,
    rationale:
      'Some of the releases judged against are older than v22, which refuses to cancel a workflow with switched reads; v22 and newer allow it.',
  },
  reverseNameDropsServedTables: {
    severity: 'warning',
    step: 'cancel-state',
    heuristic: true,
    rationale:
      "WorkflowDelete on a `_reverse` name reads the forward state (getWorkflowState flips its keyspaces), so once traffic is back on the source it is not refused and dropTargets drops the tables of the reverse workflow's target keyspace: the forward workflow's source, which serves that traffic.",
  },
  reshardReadsOnDroppedTargets: {
    severity: 'error',
    step: 'cancel-state',
    heuristic: true,
    rationale:
      'From v22 WorkflowDelete refuses only switched writes, and a Reshard cancel drops the tables on the target shards without touching the SrvKeyspace, which still serves REPLICA/RDONLY reads from them: Vitess proceeds and those reads break.',
  },
  partialShardsSwitched: {
    severity: 'error',
    step: 'cancel-state',
    heuristic: true,
    rationale:
      'A partial MoveTables never counts as write-switched, so its cancel is not refused after a shard switch; it drops the target tables and the reverse streams but keeps the `<source>.<shard>` routing rule, losing the writes that shard took since the switch.',
  },
  interruptedSwitch: {
    severity: 'warning',
    step: 'cancel-state',
    heuristic: true,
    rationale:
      'A journal without switched routing is a write switch interrupted after its point of no return, which the next SwitchTraffic resumes and a cancel throws away.',
  },
} satisfies Reasons;

type R = keyof typeof reasons;

export default defineCheck({
  id: 'cancel-workflow',
  needs: ['topology'],
  title: 'cancel can still abandon the workflow',
  reasons,
  description:
    'Judged with `--action cancel` (`vtctldclient MoveTables|Reshard cancel`, `server.go` `WorkflowDelete`): once writes are switched the workflow can only be reversed or completed (`cannot delete workflow because you have already switched write traffic`, v22+). Before v22 switched reads were refused too. A journal of the workflow on a source primary while writes are not switched marks a SwitchTraffic interrupted after its point of no return.',
  remediation:
    'After a write switch, use `ReverseTraffic` to send traffic back, then `cancel` the reversed workflow, or `complete` it. With switched reads on a release older than v22, reverse them first with `ReverseTraffic --tablet-types=replica,rdonly`. After an interrupted switch, finish it with `SwitchTraffic` or reverse it before cancelling. Before cancelling a Reshard whose reads are switched, or a partial MoveTables with a switched shard, send that traffic back with `ReverseTraffic` first: Vitess does not refuse these cancels. Then run vtpreflight again.',
  run(model, options) {
    const out: CheckFinding<R>[] = [];
    for (const wf of model.workflows) {
      // WorkflowDelete skips the switch refusal for lookup backfills; Materialize has no switch state to refuse.
      if (wf.type !== 'MoveTables' && wf.type !== 'Reshard') continue;
      if (isReverseOfJudgedWorkflow(model, wf)) continue;
      const before22 = versionsHold(options.vitess, '<22');
      const found = [
        ...judge(model, wf, options.vitess),
        ...proceedsAndBreaks(model, wf, before22, options.action.keepData),
      ];
      out.push(...found);
      // Named with --workflow: cancel of the `_reverse` name is not refused while forward writes are not switched
      // (server.go @006b7393 WorkflowDelete, getWorkflowState), and without --keep-data it drops the served tables.
      const refusedForWrites = found.some(
        (f) => f.reason === 'writesSwitched' || f.reason === 'trafficSwitchedBeforeV22',
      );
      if (!wf.name.endsWith('_reverse') || options.action.keepData || refusedForWrites) continue;
      if (switchState(model, wf).writesSwitched !== false) continue;
      out.push({
        reason: 'reverseNameDropsServedTables',
        message: `cancel of ${wf.keyspace}.${wf.name} (a reverse workflow) is not refused while writes are served by ${wf.keyspace}, and without --keep-data it drops the moved tables there, in the keyspace serving them`,
        keyspace: wf.keyspace,
        workflow: wf.name,
        details: { droppedIn: wf.keyspace, sourceKeyspaces: [...wf.sourceKeyspaces] },
      });
    }
    return out;
  },
});
