/**
 * cancel (`check --action cancel`): what `vtctldclient MoveTables|Reshard cancel` (`WorkflowDelete`) refuses.
 * Upstream `vitessio/vitess:go/vt/vtctl/workflow/server.go` @006b7393 `WorkflowDelete`: after the getWorkflowState
 * prelude, a workflow that is not a lookup backfill and whose writes are switched is refused with
 * `ErrWorkflowDeleteWritesSwitched` (server.go:128, `cannot delete workflow because you have already switched write
 * traffic`), since v22 (#17128). Before v22 any switched traffic, reads included, was refused with `cannot cancel
 * workflow because you have already switched some or all read and write traffic` (`ErrWorkflowPartiallySwitched`,
 * same file in those releases; not kept as a fixture here, which holds one commit per file, so the reason is
 * declared heuristic with the text in its message).
 * A journal of the workflow on a source primary while writes are not switched means a SwitchTraffic passed its point
 * of no return (source writes stopped, positions journaled) and stopped before routing changed: Vitess does not
 * refuse the cancel, but the next SwitchTraffic would resume from that journal; reported as a warning.
 * Not judged: the Reshard cancel after a reads-only switch (code analysis not proven by an
 * upstream test case), locks, multi-tenant batch deletes.
 */
import { defineCheck, type CheckFinding } from '../src/engine/check.js';
import { findWorkflowJournal } from '../src/model/journal.js';
import { cellReads } from '../src/model/read-state.js';
import { isReverseOfJudgedWorkflow } from '../src/model/reverse-workflow.js';
import { reverseWorkflowName } from '../src/model/stream-migrator.js';
import { switchState } from '../src/model/switch-state.js';
import type { ClusterModel, Workflow } from '../src/model/types.js';
import { versionsHold } from '../src/vitess/versions.js';

type R =
  | 'writesSwitched'
  | 'trafficSwitchedBeforeV22'
  | 'trafficSwitchedVersionUnknown'
  | 'interruptedSwitch'
  | 'reverseNameDropsServedTables';

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

const OLD_TEXT = 'cannot cancel workflow because you have already switched some or all read and write traffic';

function judge(model: ClusterModel, wf: Workflow, before22: 'all' | 'some' | 'none'): CheckFinding<R>[] {
  const st = switchState(model, wf);
  const base = { keyspace: wf.keyspace, workflow: wf.name };
  if (st.writesSwitched === true) {
    return [
      {
        reason: 'writesSwitched',
        message: `writes of ${wf.keyspace}.${wf.name} are already switched (${st.evidence}), so it can no longer be cancelled`,
        ...base,
        vitessError: 'cannot delete workflow because you have already switched write traffic',
        details: { evidence: st.evidence },
      },
    ];
  }
  const out: CheckFinding<R>[] = [];
  const reads = before22 === 'none' ? [] : readsSwitched(model, wf);
  if (reads.length > 0)
    out.push({
      reason: before22 === 'all' ? 'trafficSwitchedBeforeV22' : 'trafficSwitchedVersionUnknown',
      message: `${reads.join(' and ')} reads of ${wf.keyspace}.${wf.name} are switched: Vitess before v22 refuses the cancel with "${OLD_TEXT}"`,
      ...base,
      details: { readsSwitched: reads },
    });
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

export default defineCheck({
  id: 'cancel-workflow',
  needs: ['topology'],
  title: 'cancel can still abandon the workflow',
  reasons: {
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
      heuristic: true,
      rationale:
        'Before v22 WorkflowDelete refused any workflow with switched reads (ErrWorkflowPartiallySwitched, #17128 relaxed it to writes only), and every judged release is older.',
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
    interruptedSwitch: {
      severity: 'warning',
      step: 'cancel-state',
      heuristic: true,
      rationale:
        'A journal without switched routing is a write switch interrupted after its point of no return, which the next SwitchTraffic resumes and a cancel throws away.',
    },
  },
  description:
    'Judged with `--action cancel` (`vtctldclient MoveTables|Reshard cancel`, `server.go` `WorkflowDelete`): once writes are switched the workflow can only be reversed or completed (`cannot delete workflow because you have already switched write traffic`, v22+). Before v22 switched reads were refused too. A journal of the workflow on a source primary while writes are not switched marks a SwitchTraffic interrupted after its point of no return.',
  remediation:
    'After a write switch, use `ReverseTraffic` to send traffic back, then `cancel` the reversed workflow, or `complete` it. With switched reads on a release older than v22, reverse them first with `ReverseTraffic --tablet-types=replica,rdonly`. After an interrupted switch, finish it with `SwitchTraffic` or reverse it before cancelling. Then run vtpreflight again.',
  run(model, options) {
    const before22 = versionsHold(options.vitess, '<22');
    const out: CheckFinding<R>[] = [];
    for (const wf of model.workflows) {
      // WorkflowDelete skips the switch refusal for lookup backfills; Materialize has no switch state to refuse.
      if (wf.type !== 'MoveTables' && wf.type !== 'Reshard') continue;
      if (isReverseOfJudgedWorkflow(model, wf)) continue;
      const found = judge(model, wf, before22);
      out.push(...found);
      // Named with --workflow: cancel of the `_reverse` name is not refused while forward writes are not switched
      // (server.go @006b7393 WorkflowDelete, getWorkflowState), and without --keep-data it drops the served tables.
      if (!wf.name.endsWith('_reverse') || options.action.keepData || found.some((f) => f.reason === 'writesSwitched'))
        continue;
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
