/**
 * How reporters name the action a verdict judges (`check --action`). A verdict of the default action (SwitchTraffic,
 * or Externalize for a lookup backfill) is shown as before; any other is named next to the workflow, so that a
 * report read later says what was judged.
 */
import type { CheckResult, WorkflowVerdict } from '../engine/report.js';
import type { Action } from '../engine/report.js';

/** The vtctldclient command an action stands for. */
export const ACTION_COMMANDS: Readonly<Record<Action, string>> = {
  switch: 'SwitchTraffic',
  reverse: 'ReverseTraffic',
  complete: 'complete',
  cancel: 'cancel',
  externalize: 'LookupVindex externalize',
  mirror: 'MirrorTraffic',
  create: 'MoveTables create',
};

/**
 * The command judged, or null when it is the default for the workflow (SwitchTraffic, or Externalize of a
 * backfill).
 */
export function judgedCommand(w: Pick<WorkflowVerdict, 'action' | 'type'>): string | null {
  const action = w.action ?? 'switch';
  if (action === 'switch') return null;
  if (action === 'externalize' && w.type === 'CreateLookupIndex') return null;
  // `--target-shards` judges Reshard create: the workflow to create is a Reshard.
  if (action === 'create' && w.type === 'Reshard') return 'Reshard create';
  return ACTION_COMMANDS[action];
}

/** The workflow type the run's options name for the exit line: a Reshard for a Reshard create, else none. */
export function optionsType(action: { readonly create?: { readonly reshard?: unknown } | undefined }): string {
  return action.create?.reshard !== undefined ? 'Reshard' : '';
}

/** Checks that did not run for a reason worth listing: skipped as not applicable to the action are left out. */
export function notRunChecks(checks: readonly CheckResult[]): CheckResult[] {
  return checks.filter((r) => (r.status === 'error' || r.status === 'skipped') && r.notApplicable !== true);
}
