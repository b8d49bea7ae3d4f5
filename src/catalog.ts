/**
 * The check catalog rendered from the registry: `vtpreflight checks [id]` and the README section between the
 * `<!-- catalog:begin -->` / `<!-- catalog:end -->` markers (a test fails when the committed README drifts).
 */
import type { Check, Reason } from './engine/check.js';

/** `vtpreflight checks`: one line per check. */
export function renderCheckList(checks: readonly Check[]): string {
  const w = Math.max(...checks.map((c) => c.id.length));
  const sw = Math.max(...checks.map((c) => c.severity.length));
  return `${checks.map((c) => `${c.id.padEnd(w)}  ${c.severity.padEnd(sw)}  ${c.title}`).join('\n')}\n`;
}

/** `vtpreflight checks <id>`: everything about one check. */
export function renderCheckHelp(c: Check): string {
  const lines = [`${c.id}: ${c.title}`, `severity: ${c.severity}`];
  if (c.group === 'leftovers')
    lines.push('group: leftovers (run by vtpreflight sweep over every keyspace, and by check)');
  if (c.predicts) lines.push(`predicts: ${c.predicts}`);
  lines.push('', c.description.trim(), '', 'Remediation:', c.remediation.trim(), '');
  return lines.join('\n');
}

const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ');

/** The README catalog table (markdown), generated. */
export function renderCatalogMarkdown(checks: readonly Check[]): string {
  const rows = checks.map(
    (c) => `| \`${c.id}\` | ${c.severity} | ${cell(c.title)} | ${c.predicts ? `\`${cell(c.predicts)}\`` : ''} |`,
  );
  const head = ['| id | severity | finds | predicts (Vitess error) |', '| --- | --- | --- | --- |'];
  return `${[...head, ...rows].join('\n')}\n`;
}

/**
 * The README fidelity table (markdown), generated: per declared reason, the Vitess text it predicts with the
 * upstream file and line it is copied from (or, for a heuristic, its rationale), the Vitess step, and the table test
 * that covers it. `copied(file, line)` says whether that upstream line is kept as a fixture in test/checks/upstream/.
 */
export function renderFidelityMarkdown(
  checks: readonly Check[],
  copied: (file: string, line: number, release?: string) => boolean,
  /** `check › reason` → the releases on which a real-Vitess state reproduces it (test/real-vitess/states.ts). */
  realVitess: ReadonlyMap<string, readonly number[]> = new Map(),
): string {
  const rows: string[] = [];
  for (const c of checks) {
    for (const [id, r] of Object.entries(c.reasons) as [string, Reason][]) {
      const vitess = r.vitess;
      const text = vitess ? `\`${cell(vitess.template)}\`` : `heuristic: ${cell(r.rationale ?? '')}`;
      const upstream = vitess
        ? `\`${vitess.file}:${vitess.line}${vitess.release !== undefined ? ` @${vitess.release}` : ''}\`${copied(vitess.file, vitess.line, vitess.release) ? '' : ' (not copied yet)'}`
        : '';
      rows.push(
        `| \`${c.id}\` › \`${id}\` | ${r.severity} | ${r.step} | ${text} | ${upstream} | \`test/checks/${c.id}.test.ts\` | ${realCell(realVitess.get(`${c.id} › ${id}`))} |`,
      );
    }
  }
  return `${[
    '| reason | severity | Vitess step | Vitess text | upstream file:line | test | real Vitess |',
    '| --- | --- | --- | --- | --- | --- | --- |',
    ...rows,
  ].join('\n')}\n`;
}

/** `yes (v19–v24)` for a reason reproduced on real Vitess on those releases, blank when no state reproduces it. */
function realCell(releases: readonly number[] | undefined): string {
  if (releases === undefined || releases.length === 0) return '';
  const lo = releases[0];
  const hi = releases[releases.length - 1];
  const contiguous = hi !== undefined && lo !== undefined && hi - lo + 1 === releases.length;
  return `yes (${contiguous && lo !== hi ? `v${lo}–v${hi}` : releases.map((r) => `v${r}`).join(', ')})`;
}
