/**
 * multiple-target-keyspaces: one workflow name used in more than one target keyspace.
 */
import { defineCheck, type CheckFinding, type Reasons } from '../src/engine/check.js';
import type { ClusterModel, Workflow } from '../src/model/types.js';

const sameName = (wf: Workflow, others: readonly Workflow[]) =>
  `workflow name ${wf.name} of ${wf.type} ${wf.keyspace}.${wf.name} is also used in ${others.length === 1 ? 'keyspace' : 'keyspaces'} ` +
  others
    .map((o) => `${o.keyspace} (${o.type} from ${o.sourceKeyspaces.join(', ') || 'an unreadable source'})`)
    .join(', ');

function findings(model: ClusterModel): CheckFinding<R>[] {
  const byName = new Map<string, Workflow[]>();
  for (const wf of model.allWorkflows) {
    if (wf.name === '') continue; // unnamed rows are not a workflow anyone can address
    let l = byName.get(wf.name);
    if (!l) byName.set(wf.name, (l = []));
    l.push(wf);
  }
  const out: CheckFinding<R>[] = [];
  for (const wf of model.workflows) {
    const others = (byName.get(wf.name) ?? []).filter((o) => o.keyspace !== wf.keyspace);
    if (others.length === 0) continue;
    out.push({
      reason: 'sameNameInOtherKeyspaces',
      message: sameName(wf, others),
      keyspace: wf.keyspace,
      workflow: wf.name,
      details: {
        otherKeyspaces: others.map((o) => o.keyspace),
        others: others.map((o) => ({
          keyspace: o.keyspace,
          type: o.type,
          sourceKeyspaces: o.sourceKeyspaces,
          targetShards: o.targetShards,
        })),
      },
    });
  }
  return out;
}

const reasons = {
  // Vitess does not refuse this (its own error of that name is practically unreachable, see the description).
  sameNameInOtherKeyspaces: {
    severity: 'warning',
    step: 'build-targets',
    heuristic: true,
    rationale:
      'A SwitchTraffic, Complete or Cancel typed with the wrong --target-keyspace acts on the other workflow of the same name.',
  },
} satisfies Reasons;

type R = keyof typeof reasons;

export default defineCheck({
  id: 'multiple-target-keyspaces',
  title: 'A workflow name is used in one target keyspace only',
  reasons,
  description: [
    'Vitess identifies a workflow by target keyspace and name, so the same name in two target keyspaces is allowed: each',
    "`GetWorkflows` call reads one keyspace's primaries, and its `multiple target keyspaces for a single workflow` error",
    '(`vitessio/vitess:go/vt/vtctl/workflow/workflows.go` `scanWorkflow`) only fires when a tablet reports a keyspace other',
    'than the one asked for, which a healthy topology never does. The shared name is still a hazard: a SwitchTraffic,',
    'Complete or Cancel typed with the wrong `--target-keyspace` acts on the other workflow (Complete drops the source',
    'tables). This warning names the other keyspaces so the command can be checked before it runs. Only names of the',
    'selected workflows are reported; the other keyspaces are those whose primaries were read.',
  ].join('\n'),
  remediation: [
    'Always pass the target keyspace explicitly, e.g. `vtctldclient MoveTables --target-keyspace <keyspace> --workflow',
    '<workflow> SwitchTraffic`, and double-check it against this finding. Give future workflows names that are unique',
    'across keyspaces.',
  ].join('\n'),
  run(model) {
    return findings(model);
  },
});
