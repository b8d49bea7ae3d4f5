/**
 * SwitchTraffic refuses workflows it does not switch: a Migrate workflow (an import from an external cluster).
 *
 * Upstream: `vitessio/vitess:go/vt/vtctl/workflow/server.go` `WorkflowSwitchTraffic`, right after `getWorkflowState`:
 * `if startState.WorkflowType == TypeMigrate { … "invalid action for Migrate workflow: SwitchTraffic" }`
 * (`vitessio/vitess` main at b3666b2d, server.go line 2758; `fmt.Errorf` before v20, `vterrors` INVALID_ARGUMENT since,
 * same text). The workflow type comes from the streams' `workflow_type` (3 = Migrate).
 */
import { defineCheck } from '../src/engine/check.js';

export default defineCheck({
  id: 'switch-traffic-unsupported',
  title: 'The workflow is one SwitchTraffic switches',
  reasons: {
    migrateWorkflow: {
      // ReverseTraffic is the same RPC (WorkflowSwitchTraffic) and refuses with the same text.
      actions: ['switch', 'reverse'],
      severity: 'error',
      step: 'workflow-state',
      vitess: {
        template: 'invalid action for Migrate workflow: SwitchTraffic',
        file: 'go/vt/vtctl/workflow/server.go',
        line: 2758,
        versions: { from: 17 },
      },
    },
  },
  description:
    'A Migrate workflow (created by `vtctldclient Migrate create` to import from an external cluster) is finished with `Migrate complete`, not switched: `SwitchTraffic` refuses it with `invalid action for Migrate workflow: SwitchTraffic` (`server.go` `WorkflowSwitchTraffic`).',
  remediation:
    'Use `vtctldclient Migrate --workflow <workflow> --target-keyspace <keyspace> complete` once the data is in place, or `cancel` to abandon the import.',
  run(model) {
    return model.workflows
      .filter((wf) => wf.type === 'Migrate')
      .map((wf) => ({
        reason: 'migrateWorkflow' as const,
        message: `workflow ${wf.keyspace}.${wf.name} is a Migrate workflow, which SwitchTraffic refuses`,
        keyspace: wf.keyspace,
        workflow: wf.name,
        vitessArgs: [],
      }));
  },
});
