/**
 * The steps Vitess runs, in its own order, so that a verdict can say which refusal Vitess would print first.
 *
 * SwitchTraffic (`vitessio/vitess:go/vt/vtctl/workflow/server.go` `WorkflowSwitchTraffic`, identical in v22) builds
 * the targets over every target shard record, then the traffic switcher from each stream's BinlogSource, reads the
 * workflow state, runs `canSwitch` (lag, then each stream's FROZEN / Copying / Error, then the tablet refresh),
 * switches reads, and then switches writes: `ts.validate`, the stream migrator, stopping the streams, the catch-up
 * wait (FIDELITY-AUDIT.md §V). Externalize (`lookup_vindex.go`) is a different operation: a lookup backfill's
 * verdict quotes only its steps. Every reason a check declares names one of these steps; the verdict orders
 * findings by it and wraps the quoted error the way Vitess wraps errors of that step.
 */

/** Vitess's steps, first to last. The array order IS the order the verdict uses. */
export const VITESS_STEPS = [
  'build-targets',
  'build-switcher',
  'workflow-state',
  'get-workflow',
  'can-switch-lag',
  'can-switch-streams',
  'can-switch-refresh',
  'switch-reads',
  'validate',
  'sequences',
  'migrate',
  'stop-streams',
  'catch-up',
  'initialize-sequences',
  'externalize',
] as const;

export type VitessStep = (typeof VITESS_STEPS)[number];

interface StepInfo {
  /** What Vitess does at this step, with the upstream function. */
  readonly doc: string;
  /**
   * The Go format Vitess wraps an error of this step in (`%s` for the workflow name when it has two verbs, then the
   * error), or null when the error is printed as is.
   */
  readonly wrap: ((workflow: string, targetKeyspace: string, error: string) => string) | null;
}

/** Per step: what Vitess does there and how it wraps the errors raised there. */
export const STEP_INFO: Readonly<Record<VitessStep, StepInfo>> = {
  'build-targets': {
    doc:
      '`BuildTargets` (utils.go): every shard record of the target keyspace, its primary, its ' +
      '`_vt.vreplication` rows',
    wrap: null,
  },
  'build-switcher': {
    doc: '`buildTrafficSwitcher` (traffic_switcher.go / server.go): each BinlogSource, its source shard and primary',
    wrap: null,
  },
  'workflow-state': { doc: '`getWorkflowState` (server.go): routing rules, SrvVSchema, SrvKeyspace', wrap: null },
  'get-workflow': {
    doc:
      '`canSwitch` → `GetWorkflow` (server.go, workflows.go): every stream decoded; its errors are ' +
      'returned unwrapped',
    wrap: null,
  },
  'can-switch-lag': {
    doc: '`canSwitch` (server.go): the replication lag of the workflow',
    wrap: (wf, _ks, e) => `cannot switch traffic for workflow ${wf} at this time: ${e}`,
  },
  'can-switch-streams': {
    doc: '`canSwitch` (server.go): each stream FROZEN, Copying or Error, in map order',
    wrap: (wf, _ks, e) => `cannot switch traffic for workflow ${wf} at this time: ${e}`,
  },
  'can-switch-refresh': {
    doc: '`canSwitch` (server.go): RefreshState on every tablet of every source and target shard',
    wrap: (wf, _ks, e) => `cannot switch traffic for workflow ${wf} at this time: ${e}`,
  },
  'switch-reads': { doc: '`switchReads` (server.go): journals, routing of the replica and rdonly reads', wrap: null },
  validate: {
    doc: '`switchWrites` → `ts.validate` (traffic_switcher.go): shard sets, table lists',
    // switchReads and switchWrites wrap ts.validate's error with handleError("workflow validation failed", err),
    // which formats `%s: %v` (server.go; FIDELITY-AUDIT §10).
    wrap: (_wf, _ks, e) => `workflow validation failed: ${e}`,
  },
  sequences: {
    doc:
      '`switchWrites` → `getTargetSequenceMetadata` (sequences.go), with `--initialize-target-sequences` on a ' +
      'MoveTables from an unsharded keyspace: every auto_increment sequence of the moved tables located',
    // server.go wraps it with handleError(fmt.Sprintf("failed to get the sequence information in the %s keyspace",
    // ts.TargetKeyspaceName()), err) (FIDELITY-AUDIT §U: server.go:3151 at b3666b2d; the same in wrangler's
    // traffic_switcher.go), which prints `%s: %v`.
    wrap: (_wf, ks, e) => `failed to get the sequence information in the ${ks} keyspace: ${e}`,
  },
  migrate: {
    doc: "`switchWrites` → the stream migrator (stream_migrator.go): other workflows' streams on Reshard sources",
    wrap: (_wf, _ks, e) => `failed to migrate the workflow streams: ${e}`,
  },
  'stop-streams': {
    doc: '`switchWrites` → `stopStreams` / `waitForCatchup` positions (traffic_switcher.go)',
    wrap: (_wf, ks, e) => `failed to stop the workflow streams in the ${ks} keyspace: ${e}`,
  },
  'catch-up': {
    doc: '`switchWrites` → `waitForCatchup` (traffic_switcher.go): the target catches up with the source',
    wrap: (_wf, _ks, e) => `failed to sync up replication between the source and target: ${e}`,
  },
  'initialize-sequences': {
    doc:
      '`switchWrites` → `initializeTargetSequences` (sequences.go), after writes are stopped and the reverse streams ' +
      'created: each backing sequence table moved past the highest value used on the target shards',
    wrap: (_wf, ks, e) => `failed to initialize the sequences used in the ${ks} keyspace: ${e}`,
  },
  externalize: {
    doc: '`LookupVindexExternalize` (lookup_vindex.go): the backfill streams and the vindex owner',
    wrap: null,
  },
};

/** Rank of a step in Vitess's order (lower runs first). */
export function stepRank(step: VitessStep): number {
  return VITESS_STEPS.indexOf(step);
}
