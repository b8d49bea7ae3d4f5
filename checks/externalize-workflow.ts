/**
 * `check --action externalize` on a workflow that is not a lookup vindex backfill. `vtctldclient LookupVindex
 * externalize` (`vitessio/vitess:go/vt/vtctl/workflow/server.go` `LookupVindexExternalize`, lookup_vindex.go) takes
 * the vindex name, which is the name of the CreateLookupIndex workflow that backfills it; it then expects that
 * workflow's streams and the vindex in the vschema. A MoveTables, Reshard or Materialize is never externalized: the
 * other externalize checks (stop-after-copy-state, externalize-options-invalid) only judge lookup backfills, so
 * without this a non-lookup workflow would look ready to externalize.
 */
import { defineCheck } from '../src/engine/check.js';

export default defineCheck({
  id: 'externalize-workflow',
  title: 'LookupVindex externalize is asked of a lookup vindex backfill',
  reasons: {
    notLookupBackfill: {
      severity: 'error',
      step: 'externalize',
      actions: ['externalize'],
      heuristic: true,
      rationale:
        'Only a CreateLookupIndex workflow backfills a lookup vindex that LookupVindex externalize can take over; any other workflow has no vindex of its name to externalize.',
    },
  },
  description:
    'With `--action externalize`, every selected workflow is judged by `LookupVindex externalize`. A workflow that is not a lookup vindex backfill (`CreateLookupIndex`, made by `LookupVindex create`) has nothing to externalize; the other externalize checks judge only backfills, so this check says so instead of a silent ready.',
  remediation:
    'Select the lookup vindex backfill with `--workflow <vindex name>` (its workflow has the name of the vindex), or judge this workflow with the action it is meant for (`--action switch`, `complete`, `cancel`). Then run vtpreflight again.',
  run(model, options) {
    // Under the default (`switch`) a non-lookup workflow is judged by SwitchTraffic, and only lookup backfills by
    // Externalize: this check speaks only when Externalize was asked for every workflow.
    if (options.action.action !== 'externalize') return [];
    return model.workflows
      .filter((wf) => wf.type !== 'CreateLookupIndex')
      .map((wf) => ({
        reason: 'notLookupBackfill' as const,
        message: `${wf.keyspace}.${wf.name} is a ${wf.type} workflow, not a lookup vindex backfill to externalize`,
        keyspace: wf.keyspace,
        workflow: wf.name,
      }));
  },
});
