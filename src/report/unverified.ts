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
  // Checks left out for the same reason (`not run: not named in --only`, a part an offline file lacks) are one entry.
  const entries: string[] = [];
  const byWhy = new Map<string, string[]>();
  for (const u of items) {
    if (u.part !== undefined) {
      entries.push(`${u.part} could not be read (${u.why})`);
      continue;
    }
    let ids = byWhy.get(u.why);
    if (ids === undefined) {
      byWhy.set(u.why, (ids = []));
      entries.push(u.why);
    }
    ids.push(u.check ?? '');
  }
  const named = entries.map((e) => {
    const ids = byWhy.get(e);
    if (ids === undefined) return e;
    return ids.length <= SHOWN ? `${ids.join(', ')}: ${e}` : `${ids.length} checks: ${e}`;
  });
  const shown = named.slice(0, SHOWN);
  const more = named.length > SHOWN ? ` … and ${named.length - SHOWN} more` : '';
  return `${shown.join('; ')}${more}`;
}
