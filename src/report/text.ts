/**
 * The `text` reporter: the terminal view for an operator about to run SwitchTraffic (the CLI's default on a
 * TTY). It answers in the order the operator asks:
 * 1. the verdict of each workflow (`blocked` / `unverified` / `at-risk` / `ready`, with what Vitess itself would print
 *    and what could not be verified);
 * 2. the findings, by severity → workflow → check, with identical findings on many shards folded into one
 *    entry listing the shards (see `fold.ts`), and each check's remediation once, at its first entry;
 * 3. the checks that errored or were skipped;
 * 4. one summary line: check counts, target, and what the exit code means.
 *
 * Everything wraps at word boundaries to `opts.width` (the terminal's width, given by the CLI; 100 off a terminal),
 * so a terminal never breaks a word; a single word longer than the width (a GTID set) keeps a line of its own. Text
 * from the cluster passes through `visibleControls`, so a stream message cannot inject
 * terminal escapes. Colour only when `opts.color` is true.
 */
import { unverifiedText } from './unverified.js';
import { sweepHeadline } from './sweep-headline.js';
import type { Finding } from '../engine/check.js';
import { SEVERITIES, SEVERITY_RANK, type Severity } from '../engine/severity.js';
import type { CheckResult, Report, ReportVitess, WorkflowVerdict } from '../engine/report.js';
import { judgedCommand, optionsType, notRunChecks } from './action.js';
import { copyProgressOf, tableProgressText } from './copy-progress.js';
import { palette, type Palette } from './ansi.js';
import { visibleControls } from './escape.js';
import { foldFindings, vitessSays, whereParts, type FindingGroup } from './fold.js';
import type { RenderOptions, Reporter } from './types.js';
import { bigintAsString, plural } from '../text.js';

const DEFAULT_WIDTH = 100;
const MIN_WIDTH = 40;
const SEVERITY_HEADING: Record<Severity, string> = { error: 'Errors', warning: 'Warnings', info: 'Info' };
const VERDICT_WIDTH = 9; // 'at-risk' and 'blocked' plus two spaces ('unverified' gets one)

const clean = (s: string) => visibleControls(s);

const visibleLength = (s: string) => s.replace(/\u001b\[[0-9;]*m/g, '').length;

/**
 * Wraps unbreakable `words` (joined by single spaces) into lines of at most `width` columns, the first
 * line starting with `first` and the others with `rest`. A word longer than a line gets a line of its own.
 */
export function wrapWords(words: readonly string[], width: number, first: string, rest: string): string[] {
  const lines: string[] = [];
  let line = first;
  let empty = true;
  for (const word of words) {
    if (word === '') continue;
    if (!empty && visibleLength(line) + 1 + visibleLength(word) > width) {
      lines.push(line);
      line = rest + word;
    } else {
      line += (empty ? '' : ' ') + word;
    }
    empty = false;
  }
  lines.push(line);
  return lines;
}

const words = (text: string) => text.split(/ +/);

function workflowLabel(w: WorkflowVerdict): string {
  const command = judgedCommand(w);
  return `${clean(w.keyspace)}.${clean(w.workflow)} (${clean(w.type)})${command !== null ? ` — ${command}` : ''}`;
}

/**
 * `Vitess would say: "…"`, with a multi-line Vitess text (an aggregated error, `could not refresh all of the tablets
 * involved in the operation:` and its list) on as many lines as Vitess prints, each wrapped, never a `\n` escape.
 */
function vitessWouldSayLines(text: string, width: number, pad: string): string[] {
  const rows = text.split('\n');
  return rows.flatMap((row, i) => {
    const open = i === 0 ? 'Vitess would say: "' : '';
    const close = i === rows.length - 1 ? '"' : '';
    return wrapWords(words(`${open}${clean(row)}${close}`), width, i === 0 ? pad : `${pad}  `, `${pad}  `);
  });
}

function verdictLines(report: Report, c: Palette, width: number): string[] {
  if (report.command === 'sweep') {
    const h = sweepHeadline(report);
    const line = `sweep: ${h.sentence}`;
    return [h.state === 'clean' ? c.dim(line) : c.bold(line)];
  }
  if (report.workflows.length === 0) {
    // Silence must never look like health: say whether the absence of workflows is proven or unknown.
    const unread = report.findings.filter((f) => f.check === 'unreachable' && f.severity === 'error').length;
    return [
      unread > 0
        ? c.dim(`no workflows found, but ${unread} part(s) of the cluster could not be read (see unreachable below)`)
        : c.dim('no workflows in scope'),
    ];
  }
  const pad = ' '.repeat(VERDICT_WIDTH);
  const lines: string[] = [];
  for (const w of report.workflows) {
    const paint =
      w.verdict === 'blocked'
        ? (s: string) => c.bold(c.red(s))
        : w.verdict === 'unverified'
          ? (s: string) => c.bold(c.yellow(s))
          : w.verdict === 'at-risk'
            ? c.yellow
            : c.green;
    lines.push(
      `${paint(w.verdict)}${' '.repeat(Math.max(1, VERDICT_WIDTH - w.verdict.length))}${c.bold(workflowLabel(w))}`,
    );
    if (w.vitessWouldSay !== null) lines.push(...vitessWouldSayLines(w.vitessWouldSay, width, pad));
    // Without blockedBy, name the checks that warned about this workflow: the engine's evidence says which.
    const label = w.blockedBy.length > 0 ? 'blocked by:' : 'warnings from:';
    const ids =
      w.blockedBy.length > 0
        ? w.blockedBy
        : [...new Set((w.evidence ?? []).filter((e) => e.severity === 'warning').map((e) => e.check))];
    if (ids.length > 0)
      lines.push(
        ...wrapWords(
          [...words(label), ...ids.map((id, i) => clean(id) + (i < ids.length - 1 ? ',' : ''))],
          width,
          pad,
          `${pad}  `,
        ).map(c.dim),
      );
    const unverified = unverifiedText(w);
    if (unverified !== null)
      lines.push(...wrapWords([...words('unverified:'), ...words(clean(unverified))], width, pad, `${pad}  `));
    const copy = copyProgressOf(report, w.keyspace, w.workflow);
    if (copy !== undefined)
      lines.push(
        ...wrapWords(
          [
            ...words('copy:'),
            ...copy.flatMap((t, i) => words(clean(tableProgressText(t)) + (i < copy.length - 1 ? ';' : ''))),
          ],
          width,
          pad,
          `${pad}  `,
        ),
      );
  }
  return lines;
}

/** The heading of a workflow group: `keyspace.workflow (Type)` when the report has exactly one verdict of that name. */
function workflowHeading(name: string | undefined, verdicts: readonly WorkflowVerdict[]): string {
  if (name === undefined) return 'not tied to a workflow';
  const matches = verdicts.filter((w) => w.workflow === name);
  return matches.length === 1 ? workflowLabel(matches[0]!) : clean(name);
}

/** Workflow names in display order: the verdicts' order, then other names, then findings without a workflow. */
function orderWorkflows(findings: readonly Finding[], verdicts: readonly WorkflowVerdict[]): (string | undefined)[] {
  const present = new Set(findings.map((f) => f.workflow));
  const order: (string | undefined)[] = [];
  for (const w of verdicts) if (present.has(w.workflow) && !order.includes(w.workflow)) order.push(w.workflow);
  for (const f of findings) if (f.workflow !== undefined && !order.includes(f.workflow)) order.push(f.workflow);
  if (present.has(undefined)) order.push(undefined);
  return order;
}

/**
 * One entry per folded finding. By default one line (wrapped at the width): the message, then where it is when the
 * message does not say it (`· tablet zone1-0000000290`), as ESLint's stylish output gives one line per problem.
 * With `verbose`, every shard and tablet of the group on a line of its own, and the evidence (`details`).
 */
function groupLines(group: FindingGroup, c: Palette, width: number, verbose: boolean): string[] {
  const parts = whereParts(group, { all: verbose, onlyUnmentioned: true });
  const atoms: string[] = [];
  parts.forEach((part, p) => {
    const last = p === parts.length - 1;
    atoms.push(...words(clean(part.label)));
    part.items.forEach((item, i) => {
      atoms.push(clean(item) + (i < part.items.length - 1 ? ',' : ''));
    });
    if (!last) atoms[atoms.length - 1] += ' ·';
  });
  if (!verbose) {
    const where = atoms.length > 0 ? [c.dim('·'), ...atoms.map(c.dim)] : [];
    return wrapWords([...words(clean(group.message)), ...where], width, '      ', '        ');
  }
  const lines = wrapWords(words(clean(group.message)), width, '      ', '        ');
  if (atoms.length > 0) lines.push(...wrapWords(atoms, width, '        ', '          ').map(c.dim));
  if (group.findings.length === 1) {
    const f = group.findings[0]!;
    if (f.details !== undefined)
      lines.push(c.dim(`        details: ${clean(JSON.stringify(f.details, bigintAsString))}`));
  }
  return lines;
}

function remediationLines(text: string, width: number): string[] {
  const lines: string[] = [];
  visibleControls(text.trim(), '\n')
    .split('\n')
    .forEach((line, i) => {
      lines.push(...wrapWords(words(line), width, i === 0 ? '      fix: ' : '           ', '           '));
    });
  return lines;
}

function findingSection(report: Report, c: Palette, width: number, verbose: boolean): string[] {
  const lines: string[] = [];
  const checks = new Map(report.checks.map((r) => [r.id, r]));
  const remediated = new Set<string>();
  for (const severity of SEVERITIES) {
    const ofSeverity = report.findings.filter((f) => f.severity === severity);
    if (ofSeverity.length === 0) continue;
    const paint = severity === 'error' ? c.red : severity === 'warning' ? c.yellow : c.cyan;
    lines.push('', c.bold(paint(`${SEVERITY_HEADING[severity]} (${ofSeverity.length})`)));
    for (const workflow of orderWorkflows(ofSeverity, report.workflows)) {
      const ofWorkflow = ofSeverity.filter((f) => f.workflow === workflow);
      lines.push('', `  ${c.bold(workflowHeading(workflow, report.workflows))}`);
      const checkIds = [...new Set(ofWorkflow.map((f) => f.check))];
      for (const id of checkIds) {
        const ofCheck = ofWorkflow.filter((f) => f.check === id);
        const result = checks.get(id);
        const title = result?.title !== undefined && result.title !== id ? ['·', ...words(clean(result.title))] : [];
        const count = ofCheck.length > 1 ? [c.dim(`· ${ofCheck.length} findings`)] : [];
        lines.push(...wrapWords([paint(clean(id)), ...title, ...count], width, '    ', '      '));
        const says = verbose ? vitessSays(ofCheck) : null;
        if (says !== null) lines.push(c.dim(`      Vitess would say: ${clean(says)}`));
        for (const group of foldFindings(ofCheck)) lines.push(...groupLines(group, c, width, verbose));
        // The fix, once per check, under --verbose (the default is one line per finding).
        if (verbose && result?.remediation !== undefined && result.remediation.trim() !== '' && !remediated.has(id)) {
          remediated.add(id);
          lines.push(...remediationLines(result.remediation, width));
        }
      }
    }
  }
  if (lines.length > 0 && !verbose)
    lines.push(
      '',
      ...wrapWords(
        words('--verbose: what to do about each check, and what Vitess would print (or `vtpreflight checks ID`)'),
        width,
        '',
        '  ',
      ).map(c.dim),
    );
  return lines;
}

function notRunLines(report: Report, c: Palette, width: number): string[] {
  const all = notRunChecks(report.checks);
  if (all.length === 0) return [];
  // Skipped without a reason: left out by the user's own --only or --skip. Named in one line, never one per check.
  const skip = new Set(report.options?.skip ?? []);
  const unselected = all.filter((r) => r.status === 'skipped' && r.skipReason === undefined);
  const bySkip = unselected.filter((r) => skip.has(r.id)).map((r) => clean(r.id));
  const byOnly = unselected.length - bySkip.length;
  const notRun = all.filter((r) => !unselected.includes(r));
  const lines = ['', c.bold(`Checks that did not run (${all.length})`)];
  if (byOnly > 0) lines.push(`  ${plural(byOnly, 'check')} not named in --only`);
  if (bySkip.length > 0)
    lines.push(...wrapWords(words(`excluded with --skip: ${bySkip.join(', ')}`), width, '  ', '    '));
  const idWidth = Math.max(0, ...notRun.map((r) => r.id.length)) + 2;
  for (const r of notRun) {
    // `error` is shown only for status error: the JSON contract carries it only then (json.ts).
    const what =
      r.status === 'error'
        ? c.red(`errored${r.error !== undefined ? `: ${clean(r.error)}` : ''}`)
        : `skipped${r.skipReason !== undefined ? `: ${clean(r.skipReason)}` : ''}`;
    const [head = '', ...more] = wrapWords(
      words(what),
      width,
      `  ${clean(r.id).padEnd(idWidth)}`,
      ' '.repeat(idWidth + 4),
    );
    lines.push(head, ...more);
  }
  return lines;
}

function seconds(ms: number): string {
  return ms < 10_000 ? `${(ms / 1000).toFixed(1)}s` : `${Math.round(ms / 1000)}s`;
}

/** The check-count and target line, as parts to be joined with ` · `. */
function runParts(report: Report): string[] {
  const n = (status: CheckResult['status']) => report.checks.filter((r) => r.status === status).length;
  const counts = [
    [n('pass'), 'passed'],
    [n('fail'), 'failed'],
    [n('error'), 'errored'],
    [n('skipped'), 'skipped'],
  ]
    .filter(([k]) => k !== 0)
    .map(([k, what]) => `${k} ${what}`);
  const keyspaces = report.target.keyspaces.map(clean).join(', ');
  // `customer on vtctld:15999` for a live run, `customer from snapshot FILE` for an offline one.
  const from =
    report.target.snapshot !== null
      ? `from snapshot ${clean(report.target.snapshot)}`
      : report.target.vtctld !== null
        ? `on ${clean(report.target.vtctld)}`
        : null;
  const scope = keyspaces !== '' && from !== null ? `${keyspaces} ${from}` : keyspaces !== '' ? keyspaces : from;
  return [
    `${plural(report.checks.length, 'check')}${counts.length > 0 ? `: ${counts.join(', ')}` : ''}`,
    scope,
    clean(report.startedAt),
    seconds(report.durationMs),
  ].filter((s): s is string => s !== null);
}

/** The line naming the Vitess releases the checks judged against and how that was known. */
export function vitessLine(v: ReportVitess): string {
  const from = v.evidence.every((e) => e.startsWith('the file ')) ? 'what the file shows' : 'the cluster';
  const how =
    v.source === 'flag'
      ? 'from --vitess-version'
      : v.source === 'env'
        ? 'from VTPREFLIGHT_VITESS_VERSION'
        : v.source === 'config'
          ? "from the config file's vitessVersion"
          : v.source === 'cluster'
            ? `inferred from ${from}: ${v.evidence.join('; ')}`
            : v.evidence.length > 0
              ? `release unknown: ${v.evidence.join('; ')}; where rules differ, the newest is used`
              : 'no --vitess-version and nothing in the cluster narrowed it; where rules differ, the newest is used';
  return `judged against Vitess ${v.judgedAgainst} (${clean(how)})`;
}

/** The closing line of a sweep (exit 0 or 1): leftovers, not a cutover, are what it judges. */
function sweepExitLine(report: Report, incomplete: string): string {
  const { error, warning, info, exitCode } = report.summary;
  const counts = [plural(error, 'error'), plural(warning, 'warning'), plural(info, 'info finding')]
    .filter((s) => !s.startsWith('0 '))
    .join(', ');
  // Which findings meet --fail-on (the report's options say; absent in hand-made reports: all of them).
  const failOn = report.options?.failOn;
  const gating =
    failOn === undefined
      ? error + warning + info
      : failOn === 'error'
        ? error
        : failOn === 'warning'
          ? error + warning
          : failOn === 'info'
            ? error + warning + info
            : 0;
  if (exitCode === 1)
    return gating === 0
      ? `exit 1: part of the cluster was not read or not checked, so leftovers may be missed${counts === '' ? '' : ` (${counts} to review)`}${incomplete}`
      : `exit 1: ${counts} ${error + warning + info === 1 ? 'fails' : 'fail'} the gate${incomplete}`;
  return counts === '' ? `exit 0: no leftovers found${incomplete}` : `exit 0: ${counts} to review${incomplete}`;
}

/**
 * The closing line: the exit code and what it means, in counts. What failed the gate is told from `--fail-on` as the
 * report's options record it: the findings at or above it, else the unverified workflows, else the checks that
 * errored. A report without options (hand-made) is read as if every finding met the gate.
 */
export function exitLine(report: Report): string {
  const { error, warning, info, exitCode } = report.summary;
  const errored = report.checks.filter((r) => r.status === 'error').length;
  const unverified = report.workflows.filter((w) => w.verdict === 'unverified').length;
  const incomplete = errored > 0 ? `; ${plural(errored, 'check')} errored, so the result is incomplete` : '';
  const others = (list: [number, string][]) => {
    const shown = list.filter(([k]) => k > 0).map(([k, what]) => plural(k, what));
    return shown.length > 0 ? ` (also ${shown.join(', ')})` : '';
  };
  if (exitCode === 2) return `exit 2: vtpreflight could not do its job${incomplete}`;
  if (report.command === 'sweep') return sweepExitLine(report, incomplete);
  // What the run judged: the cutover (SwitchTraffic, the default), or the action named with --action.
  const command =
    report.options?.action !== undefined
      ? judgedCommand({ action: report.options.action.action, type: optionsType(report.options.action) })
      : null;
  const what = command === null ? 'the cutover' : command;
  // The gate in force: a severity meets it when it is at or above --fail-on.
  const failOn = report.options?.failOn;
  const gates = (sev: 'error' | 'warning' | 'info') =>
    failOn === undefined ||
    (failOn !== 'never' && SEVERITY_RANK[sev] <= SEVERITY_RANK[failOn as 'error' | 'warning' | 'info']);
  if (exitCode === 1) {
    if (error > 0 && gates('error'))
      return `exit 1: ${plural(error, 'error')} ${error === 1 ? 'blocks' : 'block'} ${what}${others([
        [warning, 'warning'],
        [info, 'info finding'],
      ])}${incomplete}`;
    if (warning > 0 && gates('warning'))
      return `exit 1: ${plural(warning, 'warning')} ${warning === 1 ? 'fails' : 'fail'} the gate (--fail-on ${failOn ?? 'warning'})${others([[info, 'info finding']])}${incomplete}`;
    if (info > 0 && gates('info'))
      return (
        `exit 1: ${plural(info, 'info finding')} ${info === 1 ? 'fails' : 'fail'} the gate (--fail-on info)` +
        incomplete
      );
    // Nothing at or above --fail-on: what failed is what was not read or not checked.
    if (unverified > 0)
      return `exit 1: ${plural(unverified, 'workflow')} unverified: part of what ${what} depends on was not read or not checked${others(
        [
          [error, 'error'],
          [warning, 'warning'],
          [info, 'info finding'],
        ],
      )}${incomplete}`;
    if (errored > 0)
      return `exit 1: ${plural(errored, 'check')} errored, so the result is incomplete${others([
        [error, 'error'],
        [warning, 'warning'],
        [info, 'info finding'],
      ])}`;
    return `exit 1: the run failed the gate${incomplete}`;
  }
  if (error > 0)
    return `exit 0: no finding at or above --fail-on, but ${plural(error, 'error')} would block ${what}${others([
      [warning, 'warning'],
      [info, 'info finding'],
    ])}${incomplete}`;
  if (warning + info > 0)
    return `exit 0: nothing blocks ${what}; ${[plural(warning, 'warning'), plural(info, 'info finding')].filter((s) => !s.startsWith('0 ')).join(', ')} to review${incomplete}`;
  if (unverified > 0)
    return `exit 0: no findings, but ${plural(unverified, 'workflow')} unverified: checks excluded with --only/--skip did not run${incomplete}`;
  return errored > 0 ? `exit 0: no findings${incomplete}` : `exit 0: ready, nothing blocks ${what}`;
}

/** Renders the report for a terminal (see the module comment for the layout). */
export default function renderText(report: Report, opts: RenderOptions): string {
  const c = palette(opts.color);
  const width = Math.max(MIN_WIDTH, opts.width ?? DEFAULT_WIDTH);
  const verbose = opts.verbose === true;
  const { error, exitCode } = report.summary;
  const exit = exitLine(report);
  const exitPaint = exitCode === 0 ? c.green : error > 0 || exitCode === 2 ? c.red : c.yellow;
  const lines = [
    // An interrupted --wait: the report is the last complete run's, said before anything else.
    ...(report.interrupted !== undefined
      ? wrapWords(words(report.interrupted.message), width, '', '  ').map((l) => c.bold(c.yellow(l)))
      : []),
    ...verdictLines(report, c, width),
    ...findingSection(report, c, width, verbose),
    ...notRunLines(report, c, width),
    '',
    ...(report.vitess !== undefined ? wrapWords(words(vitessLine(report.vitess)), width, '', '  ').map(c.dim) : []),
    ...wrapWords(
      runParts(report).map((part, i, all) => part + (i < all.length - 1 ? ' ·' : '')),
      width,
      '',
      '  ',
    ).map(c.dim),
    ...wrapWords(words(exit), width, '', '  ').map((line) => c.bold(exitPaint(line))),
  ];
  return `${lines.join('\n')}\n`;
}

/** `--format text`; `--output` files ending in .txt. */
export const reporter = { format: 'text', extensions: ['txt'], render: renderText } as const satisfies Reporter;
