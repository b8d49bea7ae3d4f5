/**
 * A ReverseTraffic that moves writes back is a forward SwitchTraffic of `<workflow>_reverse`: after the prelude on the
 * forward workflow and canSwitch of the reverse one (the `reverse-*` steps), `WorkflowSwitchTraffic` with
 * `direction=DirectionBackward` runs `switchReads` and `switchWrites` on the reverse workflow's traffic switcher
 * (`vitessio/vitess` `go/vt/vtctl/workflow/server.go:2565-2631 @v0.22.x`: unless only reads are switched back, the
 * switcher is rebuilt from `getWorkflowState(ctx, ts.sourceKeyspace, ts.reverseWorkflow)` with the direction set to
 * forward, then `switchReads` runs when REPLICA or RDONLY is requested and `switchWrites` when PRIMARY is).
 * So what those steps refuse for `<workflow>_reverse` (its CompareShards over both keyspaces, the filtered user's
 * permissions on the original target primaries, the stream migrator on the original target shards of a Reshard, LOCK
 * TABLES there, …) is what that ReverseTraffic refuses.
 *
 * The runner runs every check a second time on a model whose selected workflows are those reverse workflows, as
 * SwitchTraffic of them, and keeps the findings of these steps that concern them; the verdict of the forward workflow
 * counts them after its own steps.
 */
import { isReverseOfJudgedWorkflow } from '../model/reverse-workflow.js';
import { switchState } from '../model/switch-state.js';
import type { ClusterModel, Workflow } from '../model/types.js';
import { type VitessStep, stepsFor, WRITE_STEPS } from './steps.js';

/** The SwitchTraffic steps a write ReverseTraffic runs on the reverse workflow after its canSwitch. */
const AFTER_CAN_SWITCH: readonly VitessStep[] = ['switch-reads', 'validate', ...WRITE_STEPS];

/** The steps of the reverse workflow's SwitchTraffic that a write ReverseTraffic runs, for the tablet types asked. */
export function reverseSwitchSteps(tabletTypes: readonly string[] | null): readonly VitessStep[] {
  const run = stepsFor('switch', tabletTypes);
  return AFTER_CAN_SWITCH.filter((s) => run.includes(s));
}

/** A key of a workflow by keyspace and name. */
export const workflowKey = (wf: { readonly keyspace: string; readonly name: string }): string =>
  `${wf.keyspace}\u0000${wf.name}`;

/**
 * Per judged forward workflow (by {@link workflowKey}), the `<workflow>_reverse` workflow a ReverseTraffic of it
 * switches: the forward writes are switched (else the reverse is reads-only, or its switchWrites is skipped) and the
 * reverse workflow exists in one of its source keyspaces (else `reverse-traffic` reports `noReverseWorkflow`).
 */
export function reverseSwitched(model: ClusterModel): ReadonlyMap<string, Workflow> {
  const out = new Map<string, Workflow>();
  for (const wf of model.workflows) {
    if (wf.type !== 'MoveTables' && wf.type !== 'Reshard') continue;
    if (wf.name.endsWith('_reverse') || isReverseOfJudgedWorkflow(model, wf)) continue;
    if (switchState(model, wf).writesSwitched !== true) continue;
    const rev = model.allWorkflows.find(
      (w) => w.name === `${wf.name}_reverse` && wf.sourceKeyspaces.includes(w.keyspace) && w.streams.length > 0,
    );
    if (rev !== undefined) out.set(workflowKey(wf), rev);
  }
  return out;
}

/** The model the checks judge the reverse workflows in: they are the selection, as if named with `--workflow`. */
export function reverseModel(model: ClusterModel, revs: readonly Workflow[]): ClusterModel {
  return {
    ...model,
    workflows: revs,
    selection: {
      keyspaces: [...new Set(revs.map((w) => w.keyspace))],
      workflows: [...new Set(revs.map((w) => w.name))],
    },
  };
}
