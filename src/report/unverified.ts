/** The one line every format prints for a workflow whose verdict rests on something not read or not checked. */
import type { WorkflowVerdict } from '../engine/report.js';

/** How many parts are named before `… and N more`. */
const SHOWN = 3;

/**
 * `copy_state of customer/-80 could not be read (timeout); replication-lag: not run: excluded with --skip`, from the
 * verdict's `unverifiedBy` as the engine built it; null when nothing is unverified.
 */
export function unverifiedText(w: WorkflowVerdict): string | null {
  const items = w.unverifiedBy ?? [];
  if (items.length === 0) return null;
  const named = items
    .slice(0, SHOWN)
    .map((u) => (u.part !== undefined ? `${u.part} could not be read (${u.why})` : `${u.check}: ${u.why}`));
  const more = items.length > SHOWN ? ` … and ${items.length - SHOWN} more` : '';
  return `${named.join('; ')}${more}`;
}
