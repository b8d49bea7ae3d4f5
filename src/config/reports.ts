/**
 * Which reports a `check` writes where: `--format` and `--output` are repeatable and pair up by position (the
 * first `--output` receives the first `--format`, and so on). A format without an output goes to stdout (one at
 * most); an output without a format takes its format from its file extension (`.json`, `.xml`, `.md`, `.html`,
 * `.txt`), else text. With no `--format` and no `--output`, one text report goes to stdout, wherever stdout goes:
 * `| less` or `| tee log` must not switch the format (JSON only when asked, docs/report-contract.md). An output whose
 * extension names another format than the one it would receive is a usage
 * error, so `--format text --format json --output r.json` cannot silently write text into `r.json`.
 */
import { UsageError } from '../errors.js';
import { FORMATS, formatOfExtension, isReportFormat, type ReportFormat } from '../report/index.js';

/** One report to write: a format, and a file (`null` = stdout). */
export interface ReportPlan {
  readonly format: ReportFormat;
  readonly output: string | null;
}

/** The format a file name's extension names, if any. */
export function formatOfPath(path: string): ReportFormat | undefined {
  const m = /\.([A-Za-z]+)$/.exec(path);
  return m ? formatOfExtension(m[1]!) : undefined;
}

const ordinal = (i: number): string => `${i + 1}${i === 0 ? 'st' : i === 1 ? 'nd' : i === 2 ? 'rd' : 'th'}`;

/** Pairs formats and outputs (see the module comment); throws UsageError for a bad plan. */
export function planReports(formats: readonly string[], outputs: readonly string[]): ReportPlan[] {
  for (const f of formats)
    if (!isReportFormat(f)) throw new UsageError(`invalid --format "${f}": use one of ${FORMATS.join(', ')}`);
  if (formats.length === 0 && outputs.length === 0) return [{ format: 'text', output: null }];
  const plans: ReportPlan[] = [];
  const n = Math.max(formats.length, outputs.length);
  for (let i = 0; i < n; i++) {
    const raw = outputs[i];
    const output = raw === undefined || raw === '-' ? null : raw;
    const byExt = output === null ? undefined : formatOfPath(output);
    const given = formats[i] as ReportFormat | undefined;
    if (given !== undefined && byExt !== undefined && byExt !== given) {
      throw new UsageError(
        `--output ${output} would receive the ${given} report (the ${ordinal(i)} --format); give each --output right after its --format, or rename the file`,
      );
    }
    plans.push({ format: given ?? byExt ?? 'text', output });
  }
  const toStdout = plans.filter((p) => p.output === null);
  if (toStdout.length > 1) {
    throw new UsageError(
      `${toStdout.map((p) => p.format).join(' and ')} would both go to stdout: give all but one of them an --output FILE`,
    );
  }
  const seen = new Set<string>();
  for (const p of plans) {
    if (p.output === null) continue;
    if (seen.has(p.output)) throw new UsageError(`--output ${p.output} is given twice: each report needs its own file`);
    seen.add(p.output);
  }
  return plans;
}
