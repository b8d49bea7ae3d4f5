/**
 * The `markdown` reporter: GitHub-flavoured Markdown to paste into a PR comment or an incident ticket.
 *
 * Layout: a heading with the overall verdict and a one-line summary; a table of workflow verdicts; the
 * findings, one table per workflow, one row per folded entry (identical findings on many shards become one
 * row listing the shards, see `fold.ts`), rows grouped by check; the checks that errored or were skipped;
 * then the remediation of each failing check (its placeholders filled by the engine), with the read-only commands
 * it names repeated in a `sh` code block that is safe to paste as a whole (commands that change the cluster stay in
 * the prose, with the conditions around them).
 *
 * Text from the cluster is escaped with `markdownInline` (no markup, no HTML, `|` and newlines safe in
 * cells, control characters made visible). Remediation is the check module's own Markdown and is kept as
 * written. `opts.verbose` lists every shard and tablet; colour and width are ignored.
 */
import { judgedCommand, optionsType, notRunChecks } from './action.js';
import { unverifiedText } from './unverified.js';
import { sweepHeadline } from './sweep-headline.js';
import { exitLine } from './text.js';
import type { Finding } from '../engine/check.js';
import type { CheckResult, Report, WorkflowVerdict } from '../engine/report.js';
import { markdownInline as md, visibleControls } from './escape.js';
import { foldFindings, whereParts } from './fold.js';
import type { RenderOptions, Reporter } from './types.js';
import { plural } from '../text.js';

const code = (s: string) => `\`${visibleControls(s).replace(/`/g, "'").replace(/\|/g, '\\|')}\``;

/** First words of an inline code span that make it a command worth a code block. */
const COMMANDS = new Set(['vtctldclient', 'vtctlclient', 'vtctl', 'vtpreflight', 'mysql', 'kubectl']);

/** Workflow commands of vtctldclient whose `show`/`list`/`status` actions only read. */
const WORKFLOW_COMMANDS = new Set(['workflow', 'movetables', 'reshard', 'materialize', 'lookupvindex', 'migrate']);
const READ_ACTIONS = new Set(['show', 'list', 'status']);

/**
 * True when a command is safe to paste as a whole: it only reads (`vtctldclient Get…`, a workflow's `show`, `list`
 * or `status`, `vtpreflight` itself) and has no placeholder left (`<cells>`, `...`). A `stop` without its `start`, a
 * `delete`, an update or the `SwitchTraffic` itself changes the cluster: those stay in the prose, where the
 * conditions around them are said.
 */
export function isSafeToPaste(command: string): boolean {
  if (/<[^>]*>|\.\.\.|…/.test(command)) return false;
  const [cli = '', sub = '', ...rest] = command.trim().split(/\s+/);
  if (cli === 'vtpreflight') return true;
  if (cli !== 'vtctldclient') return false;
  if (/^Get[A-Z]/.test(sub)) return true;
  return WORKFLOW_COMMANDS.has(sub.toLowerCase()) && rest.some((w) => READ_ACTIONS.has(w.toLowerCase()));
}

/**
 * The commands a remediation names that are safe to paste (see {@link isSafeToPaste}): its inline code spans whose
 * first word is a known CLI, in order, without repeats. Empty when the remediation already has a fenced code block
 * (then it is complete as written).
 */
export function remediationCommands(remediation: string): string[] {
  if (/^\s*(```|~~~)/m.test(remediation)) return [];
  const found: string[] = [];
  for (const m of remediation.matchAll(/`([^`\n]+)`/g)) {
    const span = m[1]!.trim();
    if (COMMANDS.has(span.split(/\s+/)[0] ?? '') && isSafeToPaste(span) && !found.includes(span)) found.push(span);
  }
  return found;
}

function headline(report: Report): string[] {
  const { error, warning, info, exitCode } = report.summary;
  const wfs = report.workflows;
  const blocked = wfs.filter((w) => w.verdict === 'blocked').length;
  const atRisk = wfs.filter((w) => w.verdict === 'at-risk').length;
  const unverified = wfs.filter((w) => w.verdict === 'unverified').length;
  const sweep = report.command === 'sweep';
  const swept = sweep ? sweepHeadline(report) : null;
  const verdict = swept
    ? swept.word.toLowerCase()
    : blocked > 0
      ? 'blocked'
      : unverified > 0
        ? 'unverified'
        : atRisk > 0
          ? 'at risk'
          : exitCode === 0 && error === 0
            ? 'ready'
            : 'failing';
  const command =
    report.options?.action !== undefined
      ? judgedCommand({ action: report.options.action.action, type: optionsType(report.options.action) })
      : null;
  const verb = command === null ? 'switch traffic' : `run ${command}`;
  const of = (k: number) => `${k} of ${plural(wfs.length, 'workflow')}`;
  let sentence: string;
  if (swept) sentence = `Sweep of the whole cluster for what earlier workflows left behind: ${md(swept.sentence)}.`;
  else if (wfs.length === 0) sentence = 'No workflow in scope.';
  else if (blocked > 0)
    sentence = `**Blocked**: ${of(blocked)} cannot ${verb} now${unverified > 0 ? `, ${unverified} unverified` : ''}${atRisk > 0 ? `, ${atRisk} at risk` : ''}.`;
  else if (unverified > 0)
    sentence = `**Unverified**: ${of(unverified)} could not be fully read or checked; none is blocked.`;
  else if (atRisk > 0)
    sentence = `**At risk**: ${of(atRisk)} ${atRisk === 1 ? 'has' : 'have'} warnings; none is blocked.`;
  else sentence = `**Ready**: ${wfs.length === 1 ? 'the workflow' : `all ${wfs.length} workflows`} can ${verb}.`;
  const n = (status: CheckResult['status']) => report.checks.filter((r) => r.status === status).length;
  const notRun = [n('error') > 0 ? `${n('error')} errored` : '', n('skipped') > 0 ? `${n('skipped')} skipped` : '']
    .filter(Boolean)
    .join(', ');
  const facts =
    // The exit line names what failed the gate (the same words as the text and HTML reports).
    `${plural(error, 'error')}, ${plural(warning, 'warning')}, ${info} info · ${md(exitLine(report))} · ${plural(report.checks.length, 'check')}${notRun !== '' ? ` (${notRun})` : ''}`;
  const target = [
    report.target.snapshot !== null
      ? `snapshot ${code(report.target.snapshot)}`
      : report.target.vtctld !== null
        ? `vtctld ${code(report.target.vtctld)}`
        : '',
    report.target.keyspaces.length > 0 ? `keyspaces ${report.target.keyspaces.map(code).join(', ')}` : '',
    `started ${md(report.startedAt)}`,
    `${(report.durationMs / 1000).toFixed(1)}s`,
    `vtpreflight ${md(report.tool.version)}`,
  ].filter(Boolean);
  const cut = report.interrupted !== undefined ? [`> **${md(report.interrupted.message)}**`, ''] : [];
  return [`## vtpreflight: ${verdict}`, '', ...cut, `${sentence} ${facts}`, '', `<sub>${target.join(' · ')}</sub>`];
}

function verdictTable(workflows: readonly WorkflowVerdict[]): string[] {
  if (workflows.length === 0) return [];
  const rows = workflows.map((w) => {
    const verdict = w.verdict === 'blocked' ? '**blocked**' : w.verdict;
    const by = w.blockedBy.map(code).join(', ');
    const command = judgedCommand(w);
    const type = command === null ? md(w.type) : `${md(w.type)} · ${md(command)}`;
    const says = w.vitessWouldSay !== null ? md(w.vitessWouldSay) : '';
    return `| ${md(`${w.keyspace}.${w.workflow}`)} | ${type} | ${verdict} | ${by} | ${says} |`;
  });
  const unverified = workflows.flatMap((w) => {
    const text = unverifiedText(w);
    return text === null ? [] : [`- ${md(`${w.keyspace}.${w.workflow}`)} unverified: ${md(text)}`];
  });
  return [
    '',
    '| Workflow | Type | Verdict | Blocked by | Vitess would say |',
    '| --- | --- | --- | --- | --- |',
    ...rows,
    ...(unverified.length > 0 ? ['', ...unverified] : []),
  ];
}

function workflowTitle(name: string | undefined, verdicts: readonly WorkflowVerdict[]): string {
  if (name === undefined) return 'Not tied to a workflow';
  const matches = verdicts.filter((w) => w.workflow === name);
  return matches.length === 1 ? `${md(`${matches[0]!.keyspace}.${name}`)} (${md(matches[0]!.type)})` : md(name);
}

function findingTables(report: Report, verbose: boolean): string[] {
  if (report.findings.length === 0) return [];
  const lines = ['', '### Findings'];
  const names: (string | undefined)[] = [];
  for (const w of report.workflows)
    if (!names.includes(w.workflow) && report.findings.some((f) => f.workflow === w.workflow)) names.push(w.workflow);
  for (const f of report.findings) if (f.workflow !== undefined && !names.includes(f.workflow)) names.push(f.workflow);
  if (report.findings.some((f) => f.workflow === undefined)) names.push(undefined);
  for (const name of names) {
    const mine = report.findings.filter((f) => f.workflow === name);
    lines.push(
      '',
      `#### ${workflowTitle(name, report.workflows)}`,
      '',
      '| Severity | Check | Where | Finding |',
      '| --- | --- | --- | --- |',
    );
    const byCheck = new Map<string, Finding[]>();
    for (const f of mine) {
      const list = byCheck.get(f.check);
      if (list) list.push(f);
      else byCheck.set(f.check, [f]);
    }
    for (const [check, findings] of byCheck) {
      for (const group of foldFindings(findings)) {
        const where = whereParts(group, { all: verbose, onlyUnmentioned: false })
          .map((p) => md(`${p.label}${p.items.length > 0 ? ` ${p.items.join(', ')}` : ''}`))
          .join('<br>');
        lines.push(`| ${group.severity} | ${code(check)} | ${where} | ${md(group.message)} |`);
      }
    }
  }
  return lines;
}

function notRunTable(checks: readonly CheckResult[]): string[] {
  const notRun = notRunChecks(checks);
  if (notRun.length === 0) return [];
  return [
    '',
    '### Checks that did not run',
    '',
    '| Check | Status | Reason |',
    '| --- | --- | --- |',
    ...notRun.map((r) => {
      const why =
        r.status === 'error' && r.error !== undefined
          ? md(r.error)
          : r.status === 'skipped' && r.skipReason !== undefined
            ? md(r.skipReason)
            : '';
      return `| ${code(r.id)} | ${r.status === 'error' ? 'errored' : 'skipped'} | ${why} |`;
    }),
  ];
}

function remediationSection(report: Report): string[] {
  const failing = report.checks.filter(
    (r) => r.status === 'fail' && r.remediation !== undefined && r.remediation.trim() !== '',
  );
  if (failing.length === 0) return [];
  const lines = ['', '### What to do'];
  for (const r of failing) {
    const title = r.title !== undefined && r.title !== r.id ? `: ${md(r.title)}` : '';
    const remediation = r.remediation!;
    lines.push('', `#### ${code(r.id)}${title}`, '', visibleControls(remediation.trim(), '\n'));
    const commands = remediationCommands(remediation);
    if (commands.length > 0)
      lines.push('', 'To look first (read-only):', '', '```sh', ...commands.map((c) => visibleControls(c)), '```');
  }
  return lines;
}

/** Renders the report as GitHub-flavoured Markdown (see the module comment). */
export default function renderMarkdown(report: Report, opts: RenderOptions): string {
  const lines = [
    ...headline(report),
    ...verdictTable(report.workflows),
    ...findingTables(report, opts.verbose === true),
    ...notRunTable(report.checks),
    ...remediationSection(report),
  ];
  return `${lines.join('\n')}\n`;
}

/** `--format markdown`; `--output` files ending in .md, .markdown. */
export const reporter = {
  format: 'markdown',
  extensions: ['md', 'markdown'],
  render: renderMarkdown,
} as const satisfies Reporter;
