/**
 * Vitess enum values as stored in `_vt.vreplication` (ints) and shown by vtctld (names).
 * Upstream: `vitessio/vitess:proto/binlogdata.proto` (VReplicationWorkflowType, VReplicationWorkflowSubType).
 */
/** `binlogdata.VReplicationWorkflowType` names. */
export type WorkflowType = 'Materialize' | 'MoveTables' | 'CreateLookupIndex' | 'Migrate' | 'Reshard' | 'OnlineDDL';
/** `binlogdata.VReplicationWorkflowSubType` names. */
export type WorkflowSubType = 'None' | 'Partial' | 'AtomicCopy';

/** `binlogdata.VReplicationWorkflowType` by number. */
export const WORKFLOW_TYPES: readonly WorkflowType[] = [
  'Materialize',
  'MoveTables',
  'CreateLookupIndex',
  'Migrate',
  'Reshard',
  'OnlineDDL',
];

/** `binlogdata.VReplicationWorkflowSubType` by number. */
export const WORKFLOW_SUB_TYPES: readonly WorkflowSubType[] = ['None', 'Partial', 'AtomicCopy'];

/** Name of a stored workflow_type number, or null when unknown. */
export function workflowTypeName(n: number | undefined | null): WorkflowType | null {
  if (n === undefined || n === null || !Number.isInteger(n)) return null;
  return WORKFLOW_TYPES[n] ?? null;
}

/** Name of a stored workflow_sub_type number, or null when unknown. */
export function workflowSubTypeName(n: number | undefined | null): WorkflowSubType | null {
  if (n === undefined || n === null || !Number.isInteger(n)) return null;
  return WORKFLOW_SUB_TYPES[n] ?? null;
}

/** Number of a workflow type name (for writing rows in tests and the simulator). */
export function workflowTypeNumber(name: WorkflowType): number {
  return WORKFLOW_TYPES.indexOf(name);
}

/** Number of a workflow sub type name. */
export function workflowSubTypeNumber(name: WorkflowSubType): number {
  return WORKFLOW_SUB_TYPES.indexOf(name);
}
