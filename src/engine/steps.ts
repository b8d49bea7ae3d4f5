/**
 * The steps Vitess runs, in its own order, so that a verdict can say which refusal Vitess would print first.
 *
 * SwitchTraffic (`vitessio/vitess:go/vt/vtctl/workflow/server.go` `WorkflowSwitchTraffic`, identical in v22) builds
 * the targets over every target shard record, then the traffic switcher from each stream's BinlogSource, reads the
 * workflow state, runs `canSwitch` (lag, then each stream's FROZEN / Copying / Error, then the tablet refresh),
 * switches reads, and then switches writes: `ts.validate`, the stream migrator, stopping the streams, the catch-up
 * wait. Externalize (`lookup_vindex.go`) is a different operation: a lookup backfill's
 * verdict quotes only its steps. The other actions (`check --action`) have their own
 * steps after the shared prelude ({@link ACTION_STEPS}). Every reason a check declares names one of these steps; the
 * verdict orders findings by it and wraps the quoted error the way Vitess wraps errors of that step.
 */
import { reverseWorkflowName } from '../model/stream-migrator.js';

/** The getWorkflowState prelude every action on an existing workflow runs first. */
const PRELUDE = ['build-targets', 'build-switcher', 'workflow-state'] as const;

/** The write-switch steps (`switchWrites`), which a SwitchTraffic without PRIMARY in `--tablet-types` never runs. */
export const WRITE_STEPS = [
  'reverse-permissions',
  'reverse-tablets',
  'sequences',
  'migrate',
  'stop-streams',
  'lock-tables',
  'catch-up',
  'initialize-sequences',
] as const;

/** SwitchTraffic, first to last: the prelude, canSwitch, switchReads (with `ts.validate`), switchWrites. */
const SWITCH_STEPS = [
  ...PRELUDE,
  'get-workflow',
  'can-switch-lag',
  'can-switch-streams',
  'can-switch-refresh',
  'switch-reads',
  'validate',
  ...WRITE_STEPS,
] as const;

/** Every step of every action. Each action's own order is {@link ACTION_STEPS}; this order only lists them. */
export const VITESS_STEPS = [
  ...SWITCH_STEPS,
  'externalize',
  'reverse-reads',
  'reverse-load',
  'reverse-can-switch',
  'complete-state',
  'complete-validate',
  'drop-sources',
  'cancel-state',
  'mirror-state',
  'mirror-rules',
  'create-request',
  'create-target-vschema',
  'create-validate',
  'create-vschema',
  'create-empty-tables',
  'create-source-tables',
  'reshard-srv-keyspace',
  'reshard-shards',
  'reshard-targets',
  'reshard-copy-schema',
  'create-streams',
] as const;

export type VitessStep = (typeof VITESS_STEPS)[number];

/**
 * The operations `check --action` judges (`vtctldclient <MoveTables|Reshard> <action>`): `switch` = SwitchTraffic
 * (the default; a lookup backfill is judged by Externalize instead), `reverse` = ReverseTraffic, `complete`, `cancel`,
 * `externalize` = LookupVindex externalize, `mirror` = MirrorTraffic, `create` = MoveTables create of a workflow that
 * does not exist yet.
 */
export const ACTIONS = ['switch', 'reverse', 'complete', 'cancel', 'externalize', 'mirror', 'create'] as const;
export type Action = (typeof ACTIONS)[number];

/**
 * Per action, the steps Vitess runs, first to last: a reason applies to an action when its step is one of these
 * (unless the reason narrows it with `actions`), and the verdict orders findings by this order.
 * - switch: `WorkflowSwitchTraffic` (server.go): prelude, canSwitch, switchReads, switchWrites.
 * - reverse: the same RPC with `direction=DirectionBackward`: prelude on the forward workflow; a reads-only reverse
 *   (writes not switched, no PRIMARY requested) runs `switchReads` backward (`reverse-reads`); otherwise the
 *   `<workflow>_reverse` workflow is loaded (`reverse-load`) and its canSwitch runs (`reverse-can-switch`).
 * - complete: `MoveTablesComplete` (server.go): prelude, the all-traffic-switched refusal, then `dropSources`:
 *   `validateWorkflowHasCompleted` (utils.go) and the source deletion.
 * - cancel: `WorkflowDelete` (server.go): prelude, the writes-switched refusal.
 * - externalize: `LookupVindexExternalize` (lookup_vindex.go); see {@link ACTION_QUOTES} for its prelude.
 * - mirror: `WorkflowMirrorTraffic` (server.go): prelude, the type/state refusals, `ts.validate`, the mirror rules.
 * - create: `MoveTablesCreate` (server.go) first judges the request alone (v24+: the source keyspace is not the
 *   target keyspace), then reads the target keyspace's vschema (`GetVSchema`: a keyspace that does not exist fails
 *   there), then lists the source tables on the first serving source shard's primary and
 *   checks the requested ones exist (utils.go `getTablesInKeyspace`, `validateSourceTablesExist`), then the
 *   materializer's `createWorkflowStreams` (materializer.go), which first
 *   runs `validateNewWorkflow` (utils.go: every target shard record has a primary, the name is free on each), then
 *   `buildMaterializer` (a sharded target's vschema has every moved table), then `deploySchema`'s
 *   `validateEmptyTables` (no moved table holds a row on a serving target primary); no prelude, since the workflow
 *   does not exist yet. With `--target-shards` it is `Reshard create` instead: `ValidateSrvKeyspace` over the cells,
 *   then `buildResharder` (resharder.go: the shards' serving state and primaries, their key ranges, then no stream on
 *   any target primary); no validateNewWorkflow there.
 */
export const ACTION_STEPS: Readonly<Record<Action, readonly VitessStep[]>> = {
  switch: SWITCH_STEPS,
  reverse: [...PRELUDE, 'reverse-reads', 'reverse-load', 'reverse-can-switch'],
  complete: [...PRELUDE, 'complete-state', 'complete-validate', 'drop-sources'],
  cancel: [...PRELUDE, 'cancel-state'],
  externalize: [...PRELUDE, 'externalize'],
  mirror: [...PRELUDE, 'mirror-state', 'validate', 'mirror-rules'],
  create: [
    'create-request',
    'create-target-vschema',
    'create-source-tables',
    'create-validate',
    'create-vschema',
    'create-empty-tables',
    'reshard-srv-keyspace',
    'reshard-shards',
    'reshard-targets',
    'reshard-copy-schema',
    'create-streams',
  ],
};

/**
 * The steps whose texts an action's verdict quotes, where narrower than {@link ACTION_STEPS}. Externalize runs no
 * getWorkflowState prelude: what the prelude's reasons find (no primary, an unreadable primary, no streams) stops it
 * too, since it reads every shard's primary, but in its own words; only its own step's texts are quoted.
 */
export const ACTION_QUOTES: Readonly<Partial<Record<Action, readonly VitessStep[]>>> = {
  externalize: ['externalize'],
};

/** True when the verdict of `action` may quote an error of `step` as what Vitess would say. */
export function actionQuotesStep(action: Action, step: VitessStep): boolean {
  return (ACTION_QUOTES[action] ?? ACTION_STEPS[action]).includes(step);
}

/**
 * The steps of `action` for the tablet types requested (null = vtctldclient's default, all three): SwitchTraffic
 * runs `switchReads` only when REPLICA or RDONLY is requested and `switchWrites` only when PRIMARY is
 * (server.go `WorkflowSwitchTraffic`); `switchReads` runs `ts.validate` itself, so `validate` stays.
 */
export function stepsFor(action: Action, tabletTypes: readonly string[] | null = null): readonly VitessStep[] {
  const all = ACTION_STEPS[action];
  if (action !== 'switch' || tabletTypes === null) return all;
  const reads = tabletTypes.includes('replica') || tabletTypes.includes('rdonly');
  const writes = tabletTypes.includes('primary');
  return all.filter(
    (st) => (writes || !(WRITE_STEPS as readonly VitessStep[]).includes(st)) && (reads || st !== 'switch-reads'),
  );
}

/** True when Vitess runs `step` for `action` (with the tablet types requested, see {@link stepsFor}). */
export function actionRunsStep(
  action: Action,
  step: VitessStep,
  tabletTypes: readonly string[] | null = null,
): boolean {
  return stepsFor(action, tabletTypes).includes(step);
}

interface StepInfo {
  /** What Vitess does at this step, with the upstream function. */
  readonly doc: string;
  /**
   * The Go format Vitess wraps an error of this step in (`%s` for the workflow name when it has two verbs, then the
   * error), or null when the error is printed as is. `action` is the action judged (MirrorTraffic returns
   * `ts.validate`'s error unwrapped).
   */
  readonly wrap: ((workflow: string, targetKeyspace: string, error: string, action: Action) => string) | null;
}

/** Per step: what Vitess does there and how it wraps the errors raised there. */
export const STEP_INFO: Readonly<Record<VitessStep, StepInfo>> = {
  'build-targets': {
    doc: '`BuildTargets` (utils.go): every shard record of the target keyspace, its primary, its `_vt.vreplication` rows',
    wrap: null,
  },
  'build-switcher': {
    doc: '`buildTrafficSwitcher` (traffic_switcher.go / server.go): each BinlogSource, its source shard and primary',
    wrap: null,
  },
  'workflow-state': { doc: '`getWorkflowState` (server.go): routing rules, SrvVSchema, SrvKeyspace', wrap: null },
  'get-workflow': {
    doc: '`canSwitch` → `GetWorkflow` (server.go, workflows.go): every stream decoded; its errors are returned unwrapped',
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
    // which formats `%s: %v` (server.go).
    // MirrorTraffic returns ts.validate's error as is (server.go WorkflowMirrorTraffic).
    wrap: (_wf, _ks, e, action) => (action === 'mirror' ? e : `workflow validation failed: ${e}`),
  },
  'reverse-permissions': {
    doc: '`switchWrites` → `validateShardsHaveVReplicationPermissions` (server.go): the filtered user may manage `vreplication` on every source primary',
    // Its own handleError(fmt.Sprintf("primary tablets are not able to fully manage the reverse vreplication workflow
    // in the %s keyspace", …), err) (server.go:3090 @006b7393): the reason's template carries that prefix.
    wrap: null,
  },
  'reverse-tablets': {
    doc: '`switchWrites` → `areTabletsAvailableToStreamFrom` (utils.go): a reverse-workflow tablet per target shard',
    // Its own handleError(fmt.Sprintf("no tablets were available to stream from in the %s keyspace", …), err), after
    // validate and not inside it (wrangler/traffic_switcher.go and workflow/server.go `switchWrites`): the reason's
    // template carries that prefix.
    wrap: null,
  },
  sequences: {
    doc: '`switchWrites` → `getTargetSequenceMetadata` (sequences.go), with `--initialize-target-sequences` on a MoveTables from an unsharded keyspace: every auto_increment sequence of the moved tables located',
    // server.go wraps it with handleError(fmt.Sprintf("failed to get the sequence information in the %s keyspace",
    // ts.TargetKeyspaceName()), err) (`vitessio/vitess` server.go:3151 at b3666b2d; the same in wrangler's
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
  'lock-tables': {
    doc: '`switchWrites` → `executeLockTablesOnSource` (traffic_switcher.go): LOCK TABLES on every source primary',
    // handleError(fmt.Sprintf("failed to execute LOCK TABLES (attempt %d of %d) on sources", cnt, lockTablesCycles),
    // err) (server.go, `switchWrites`); the first of the two cycles fails.
    wrap: (_wf, _ks, e) => `failed to execute LOCK TABLES (attempt 1 of 2) on sources: ${e}`,
  },
  'catch-up': {
    doc: '`switchWrites` → `waitForCatchup` (traffic_switcher.go): the target catches up with the source',
    // handleError("failed to sync up replication between the source and target", err) (server.go:3315 @v0.24.4)
    // around the error of the VReplicationWaitForPos RPC, which the tablet manager client returns as the gRPC
    // status text: a plain error of the vreplication engine travels as code Unknown (vterrors.ToGRPC).
    wrap: (_wf, _ks, e) =>
      `failed to sync up replication between the source and target: rpc error: code = Unknown desc = ${e}`,
  },
  'initialize-sequences': {
    doc: '`switchWrites` → `initializeTargetSequences` (sequences.go), after writes are stopped and the reverse streams created: each backing sequence table moved past the highest value used on the target shards',
    wrap: (_wf, ks, e) => `failed to initialize the sequences used in the ${ks} keyspace: ${e}`,
  },
  externalize: {
    doc: '`LookupVindexExternalize` (lookup_vindex.go): the backfill streams and the vindex owner',
    wrap: null,
  },
  'reverse-reads': {
    // switchReads returns defaultErrorHandler(…, "invalid request", err): `invalid request: <err>` (server.go).
    doc: '`switchReads` with `DirectionBackward` (server.go): the read types requested must have been switched',
    wrap: (_wf, _ks, e) => `invalid request: ${e}`,
  },
  'reverse-load': {
    doc: '`getWorkflowState` of `<workflow>_reverse` in the source keyspace (server.go `WorkflowSwitchTraffic`)',
    wrap: null,
  },
  'reverse-can-switch': {
    // The reverse workflow's state names it: `cannot switch traffic for workflow <wf>_reverse at this time: …`.
    doc: '`canSwitch` on the reverse workflow (server.go): its lag, then each stream FROZEN, Copying or Error',
    // ReverseTraffic on a `<wf>_reverse` name loads `<wf>` (ReverseWorkflowName), so that one is named.
    wrap: (wf, _ks, e) => `cannot switch traffic for workflow ${reverseWorkflowName(wf)} at this time: ${e}`,
  },
  'complete-state': {
    doc: '`MoveTablesComplete` (server.go): writes and every read type switched in every cell',
    wrap: null,
  },
  'complete-validate': {
    doc: '`dropSources` → `validateWorkflowHasCompleted` (utils.go): frozen streams, routing rules, serving shards',
    wrap: null,
  },
  'drop-sources': {
    doc: '`dropSources` (traffic_switcher.go, server.go): source tables renamed or dropped, Reshard source shards deleted',
    wrap: null,
  },
  'cancel-state': { doc: '`WorkflowDelete` (server.go): refused once writes are switched', wrap: null },
  'mirror-state': {
    doc: '`WorkflowMirrorTraffic` (server.go): the workflow type and the tablet types not switched yet',
    wrap: null,
  },
  'mirror-rules': {
    doc: '`mirrorTableTraffic` (traffic_switcher.go): the existing mirror rules of the source tables',
    wrap: null,
  },
  'create-request': {
    // moveTablesCreate returns it as is (server.go:1091-1093 @v0.24.4).
    doc: '`moveTablesCreate` (server.go), before it reads anything: the request itself (v24+: a MoveTables whose source keyspace is its target keyspace)',
    wrap: null,
  },
  'create-target-vschema': {
    // moveTablesCreate returns the topo's error as is (server.go:1127-1130 @v0.24.4, :1081-1084 @v0.23.2, :901-904
    // @v0.22.4, :1364-1367 @v0.21.5, :1310-1313 @v0.20.8, :1376-1379 @v0.19.10), before it lists the source tables.
    doc: "`moveTablesCreate` (server.go) → `GetVSchema` of the target keyspace (topo vschema.go): the keyspace's vschema node exists, which it does for every keyspace created with CreateKeyspace",
    wrap: null,
  },
  'create-validate': {
    // MoveTablesCreate returns createWorkflowStreams' error as is; validateNewWorkflow aggregates one error per shard.
    doc: '`createWorkflowStreams` → `validateNewWorkflow` (materializer.go, utils.go): every target shard record has a primary and no target primary has a stream of the workflow name',
    wrap: null,
  },
  'create-vschema': {
    // buildMaterializer's error is returned as is (materializer.go @011aa691 createWorkflowStreams).
    doc: "`buildMaterializer` (materializer.go): a sharded target keyspace's vschema has every moved table",
    wrap: null,
  },
  'create-source-tables': {
    // moveTablesCreate returns these unwrapped (utils.go @00bd50b6 getTablesInKeyspace :72, validateSourceTablesExist
    // :1048), before anything is written.
    doc: "`MoveTablesCreate` (server.go): `getTablesInKeyspace` on the first serving source shard's primary, then `validateSourceTablesExist` (utils.go)",
    wrap: null,
  },
  'reshard-srv-keyspace': {
    // ReshardCreate returns ValidateSrvKeyspace's error as is (it logs a wrapped copy): server.go:1548-1552 @v0.24.4.
    doc: '`ReshardCreate` (server.go) → `ValidateSrvKeyspace` (srv_keyspace.go): the SrvKeyspace of the keyspace in every cell (or in `--cells`) exists and its partitions are whole',
    wrap: null,
  },
  'reshard-shards': {
    // ReshardCreate (server.go) returns vterrors.Wrap(err, "buildResharder") (read in a stored server.go; the same
    // wrap in the older wrangler Reshard), around resharder.go's own texts (@2291bf54 :99, :114, :117).
    doc: '`ReshardCreate` → `buildResharder` (resharder.go): each source shard serving, each target shard with a primary and not serving, in the request order (the first failure is returned)',
    wrap: (_wf, _ks, e) => `buildResharder: ${e}`,
  },
  'reshard-targets': {
    // buildResharder: vterrors.Wrap(err, "validateTargets") (resharder.go @2291bf54 :130), under "buildResharder".
    doc: '`buildResharder` → `validateTargets` (resharder.go): no `_vt.vreplication` row on any target primary',
    wrap: (_wf, _ks, e) => `buildResharder: validateTargets: ${e}`,
  },
  'reshard-copy-schema': {
    // ReshardCreate → copySchema (CopySchemaShard per target, resharder.go), then createStreams: mid-way, after checks.
    doc: '`copySchema` (resharder.go → CopySchemaShard): the source schema copied to each target shard',
    wrap: null,
  },
  'create-streams': {
    // Not a refusal: the create succeeds and its streams start; each picks a source tablet (vreplication controller).
    doc: 'after the create: each stream on a target primary picks a source tablet of `--tablet-types` in `--cells` (plus its own cell); with none the copy never starts',
    wrap: null,
  },
  'create-empty-tables': {
    // deploySchema: vterrors.Wrap(err, "failed to validate that all target tables are empty") (materializer.go:297).
    doc: '`deploySchema` → `validateEmptyTables` (materializer.go, v22+): `select 1 from <table> limit 1` finds no row of a moved table on any serving target primary',
    wrap: (_wf, _ks, e) => `failed to validate that all target tables are empty: ${e}`,
  },
};

/** Rank of a step in `action`'s order (lower runs first); steps the action does not run rank last. */
export function stepRank(step: VitessStep, action: Action = 'switch'): number {
  const i = ACTION_STEPS[action].indexOf(step);
  return i < 0 ? ACTION_STEPS[action].length + VITESS_STEPS.indexOf(step) : i;
}
