/** How reporters show a workflow's copy progress (`report.copyProgress`): one short phrase per table. */
import type { Report, TableCopyProgress } from '../engine/report.js';

const count = (n: number) => n.toLocaleString('en-US');

/** `corder: 1,200 of 4,800 rows (25%)`, `customer: copied`, `product: not started (0 of 300 rows)`. */
export function tableProgressText(t: TableCopyProgress): string {
  if (t.phase === 'COMPLETE') return `${t.table}: copied`;
  const rows = `${count(t.rowsCopied)} of ${count(t.rowsTotal)} rows`;
  if (t.phase === 'NOT_STARTED') return `${t.table}: not started (${rows})`;
  return `${t.table}: ${rows} (${t.percent}%)`;
}

/** The tables of one workflow's copy, or undefined when the report shows none for it. */
export function copyProgressOf(
  report: Report,
  keyspace: string,
  workflow: string,
): readonly TableCopyProgress[] | undefined {
  return report.copyProgress?.find((p) => p.keyspace === keyspace && p.workflow === workflow)?.tables;
}
