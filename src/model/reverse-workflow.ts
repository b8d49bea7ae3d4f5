/**
 * A `<workflow>_reverse` workflow is what SwitchTraffic leaves in the source keyspace for its forward workflow
 * (`vitessio/vitess:go/vt/vtctl/workflow/utils.go` `ReverseWorkflowName`). The action checks judge the forward
 * workflow (ReverseTraffic loads the reverse one itself); the reverse one is judged on its own only when it was
 * named with `--workflow`.
 */
import type { ClusterModel, Workflow } from './types.js';

/** True for `<name>_reverse` whose forward workflow `<name>` exists in its source keyspace, unless it was selected. */
export function isReverseOfJudgedWorkflow(model: ClusterModel, wf: Workflow): boolean {
  if (!wf.name.endsWith('_reverse') || model.selection.workflows.includes(wf.name)) return false;
  const forward = wf.name.slice(0, -'_reverse'.length);
  return model.allWorkflows.some((w) => w.name === forward && wf.sourceKeyspaces.includes(w.keyspace));
}
