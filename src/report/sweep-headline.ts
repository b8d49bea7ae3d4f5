/**
 * The headline of a `vtpreflight sweep` report, one wording for every format (text, Markdown, HTML, JUnit): how many
 * leftovers were found, and what was not read or not checked, so that a sweep with a primary unread never reads as
 * clean. Leftovers are the findings of the leftovers checks; what was not read is named by the `unreachable` findings,
 * what was not checked by the checks that errored or were skipped for lack of input.
 */
import type { Report } from '../engine/report.js';
import { plural } from '../text.js';

export interface SweepHeadline {
  /** `leftovers`: at least one found; `incomplete`: none found, but part of the cluster was not read or checked. */
  readonly state: 'leftovers' | 'incomplete' | 'clean';
  /** `Leftovers found` / `Incomplete` / `No leftovers`. */
  readonly word: string;
  /** One sentence without a final period, e.g. `no leftovers found in what was read; not read: customer/-80 …`. */
  readonly sentence: string;
}

const SHOWN = 5;

/** `a, b, c` or `a, b, c, d, e and 3 more`. */
function list(items: readonly string[]): string {
  return items.length <= SHOWN
    ? items.join(', ')
    : `${items.slice(0, SHOWN).join(', ')} and ${items.length - SHOWN} more`;
}

/** What a sweep found and what it could not see, in the words every format prints. */
export function sweepHeadline(report: Report): SweepHeadline {
  const leftovers = report.findings.filter((f) => f.check !== 'unreachable').length;
  const unread: string[] = [];
  for (const f of report.findings) {
    if (f.check !== 'unreachable') continue;
    const part =
      f.keyspace !== undefined && f.shard !== undefined
        ? `${f.keyspace}/${f.shard}`
        : (f.tablet ?? f.keyspace ?? 'part of the topology');
    if (!unread.includes(part)) unread.push(part);
  }
  const notRun = report.checks
    .filter((c) => c.status === 'error' || (c.status === 'skipped' && c.skipReason !== undefined && !c.notApplicable))
    .map((c) => c.id);
  const gaps = [
    unread.length > 0 ? `not read: ${list(unread)}` : '',
    notRun.length > 0 ? `not checked: ${list(notRun)}` : '',
  ].filter(Boolean);
  // An exit code the findings do not explain (a read kept out of the findings) is still a gap.
  if (gaps.length === 0 && report.summary.exitCode !== 0 && report.summary.error + report.summary.warning === 0)
    gaps.push('part of the cluster was not read or not checked');
  const missed = gaps.length > 0 ? `; ${gaps.join('; ')}, so leftovers there may be missed` : '';
  if (leftovers > 0)
    return {
      state: 'leftovers',
      word: 'Leftovers found',
      sentence: `${plural(leftovers, 'leftover')} of earlier workflows found${missed}`,
    };
  if (gaps.length > 0)
    return { state: 'incomplete', word: 'Incomplete', sentence: `no leftovers found in what was read${missed}` };
  return { state: 'clean', word: 'No leftovers', sentence: 'no leftovers of earlier workflows found' };
}
