/**
 * leftover-frozen-workflows: workflows whose writes were switched (FROZEN streams) and that were never completed.
 *
 * SwitchTraffic (writes) marks the forward streams `FROZEN`; Complete removes them with the reverse workflow, the
 * routing rules and the source tables. Left FROZEN, the workflow blocks a re-create with the same name (`workflow %s
 * already exists in keyspace %s on tablet %s`), `Workflow start` (`cannot start a workflow when it is frozen`) and
 * VDiff, keeps its `_reverse` and routing rules, and a later Reshard of the target keyspace carries its rows through
 * the stream migrator. A LookupVindex externalized without `--delete` stays FROZEN the same way.
 *
 * The age is measured from the newest `time_updated` of the FROZEN streams (the freeze stops their updates).
 *
 * Failure modes (`details.reason`):
 * - `switchedNotCompleted` (warning): FROZEN for more than a day.
 * - `switchedRecently` (info): FROZEN for less than a day: Complete is the next step.
 */
import { defineCheck, type CheckFinding, type Reasons } from '../src/engine/check.js';
import { ageSeconds, formatAge, LEFTOVER_AGE_SECONDS, leftoverKeyspaces } from '../src/model/leftovers.js';
import type { Workflow } from '../src/model/types.js';

/** The documented command that finishes a workflow of this type. */
function completeCommand(wf: Workflow): string {
  switch (wf.type) {
    case 'MoveTables':
      return `vtctldclient MoveTables --target-keyspace ${wf.keyspace} --workflow ${wf.name} complete`;
    case 'Reshard':
      return `vtctldclient Reshard --target-keyspace ${wf.keyspace} --workflow ${wf.name} complete`;
    case 'CreateLookupIndex':
      return `vtctldclient LookupVindex --name ${wf.name} --table-keyspace ${wf.keyspace} complete`;
    default:
      return `vtctldclient Workflow --keyspace ${wf.keyspace} delete --workflow ${wf.name}`;
  }
}

const reasons = {
  switchedNotCompleted: {
    severity: 'warning',
    step: 'workflow-state',
    heuristic: true,
    rationale:
      'A workflow FROZEN for more than a day was switched and never completed: it blocks a re-create with its name, Workflow start and VDiff, and keeps its reverse workflow and routing rules.',
  },
  switchedRecently: {
    severity: 'info',
    step: 'workflow-state',
    heuristic: true,
    rationale: 'Writes were switched less than a day ago: Complete is the next step, reported so it is not forgotten.',
  },
} satisfies Reasons;

type R = keyof typeof reasons;

export default defineCheck({
  id: 'leftover-frozen-workflows',
  group: 'leftovers',
  needs: ['topology'],
  title: 'No workflow stays switched (FROZEN) without being completed',
  reasons,
  description:
    'SwitchTraffic (writes) marks the forward streams `FROZEN`; Complete removes them with the reverse workflow, the routing rules and the source tables. Left FROZEN, the workflow blocks a re-create with the same name (`workflow %s already exists in keyspace %s on tablet %s`), `Workflow start` (`cannot start a workflow when it is frozen`) and VDiff, and a later Reshard of the target keyspace carries its rows through the stream migrator. This check reports every workflow with FROZEN streams: a warning after a day (measured from the newest `time_updated` of those streams), else information.',
  remediation:
    'Once the switch is confirmed, finish the workflow with `vtctldclient MoveTables --target-keyspace <keyspace> --workflow <workflow> complete` (Reshard: `vtctldclient Reshard … complete`; lookup vindexes: `vtctldclient LookupVindex --name <name> --table-keyspace <keyspace> complete`), or roll it back with `… reversetraffic`.',
  run(model, options) {
    const scope = new Set(leftoverKeyspaces(model, options).map((k) => k.name));
    const out: CheckFinding<R>[] = [];
    for (const wf of model.allWorkflows) {
      if (!scope.has(wf.keyspace) || wf.name.endsWith('_reverse') || wf.type === 'OnlineDDL') continue;
      const frozen = wf.streams.filter((s) => s.message === 'FROZEN');
      if (frozen.length === 0) continue;
      const newest = Math.max(...frozen.map((s) => s.timeUpdated));
      const age = ageSeconds(model, newest);
      const details = {
        frozenStreams: frozen.map((s) => `${s.shard}:${s.id}`),
        frozenForSeconds: age,
        // server.go (main): what the blocked actions answer, with this workflow's values.
        vitessText: [
          `workflow ${wf.name} already exists in keyspace ${wf.keyspace} on tablet ${frozen[0]!.tablet}`,
          'cannot start a workflow when it is frozen',
        ],
        breaks: `a re-create of the same workflow name, Workflow start, VDiff, and a later Reshard of ${wf.keyspace} (its rows go through the stream migrator)`,
        clean: completeCommand(wf),
      };
      const reason = age >= LEFTOVER_AGE_SECONDS ? ('switchedNotCompleted' as const) : ('switchedRecently' as const);
      out.push({
        reason,
        keyspace: wf.keyspace,
        workflow: wf.name,
        message:
          reason === 'switchedNotCompleted'
            ? `${wf.type} ${wf.keyspace}.${wf.name} switched its writes ${formatAge(age)} ago (FROZEN) and was never completed: it blocks a re-create of ${wf.name}, Workflow start and VDiff, and keeps its reverse workflow and routing rules`
            : `${wf.type} ${wf.keyspace}.${wf.name} switched its writes ${formatAge(age)} ago (FROZEN): complete it once the switch is confirmed`,
        details,
      });
    }
    return out;
  },
});
