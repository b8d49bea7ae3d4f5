/**
 * The `html` reporter: one self-contained page for the on-call engineer (no network, no CDN: CSS and script are
 * inline, nothing is fetched), to open in a browser or attach to an incident.
 *
 * Layout, verdict first:
 * 1. The verdict banner (blocked / at risk / ready, the exit line of the text report) and what was checked.
 * 2. The workflow verdicts, with what Vitess would say.
 * 3. The stream matrix: one row per workflow, one cell per target shard (`workflows[].targetShards`). A cell's
 *    colour is the state of its streams (Error, Copying, Stopped, Running over or under `--max-lag`; dashed when
 *    the shard has no stream), its badge the number of findings on that shard for that workflow, coloured by
 *    the worst severity. Hover shows a one-line summary; a click opens the detail panel with every stream of the
 *    cell (source, position, lag, state, message) and its findings. Above 64 shards a row switches to compact
 *    16px cells without labels, so 1,024 shards stay a block of 16 lines rather than a page of scrolling.
 * 4. The findings, folded like the text report (identical findings on many shards are one entry that expands to
 *    the list), with filters by severity and by check.
 * 5. The checks that ran, errored or were skipped.
 *
 * Purity: the page is a function of the report object only. It shows nothing the JSON report does
 * not carry: the contract JSON (`toContractJson`) is embedded in the page (`#vtpreflight-report`) and the detail
 * panel reads from it. Reports without `streams` (older versions, hand-made fixtures) get a matrix of target
 * shards from the findings alone, and say so.
 *
 * Escaping: all cluster text goes through {@link htmlText}/{@link htmlAttr} (controls made visible, `& < > " '`
 * escaped); the embedded JSON escapes `<`, `>`, `&`, U+2028 and U+2029 so no message can close the script.
 */
import { judgedCommand } from './action.js';
import { tableProgressText } from './copy-progress.js';
import { unverifiedText } from './unverified.js';
import { sweepHeadline } from './sweep-headline.js';
import type { Finding } from '../engine/check.js';
import { SEVERITY_RANK, type Severity } from '../engine/severity.js';
import type { Report, StreamSummary, WorkflowVerdict } from '../engine/report.js';
import { DEFAULT_MAX_LAG_SECONDS } from '../engine/options.js';
import { escapeC1InJson, visibleControls } from './escape.js';
import { compareShardNames } from '../vitess/keyrange.js';
import { vitessSays, foldFindings, whereParts } from './fold.js';
import { toContractJson } from './json.js';
import { exitLine } from './text.js';
import type { RenderOptions, Reporter } from './types.js';
import { bigintAsString, plural } from '../text.js';

/** Rows of the matrix with more target shards than this are drawn compact (small cells, no labels). */
export const COMPACT_ABOVE = 64;

/** Escapes text content for HTML: controls made visible (newline kept), then `& < >`. */
export function htmlText(text: string): string {
  return visibleControls(text, '\n').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Escapes a double-quoted attribute value. */
export function htmlAttr(text: string): string {
  return htmlText(text).replace(/"/g, '&quot;').replace(/'/g, '&#39;').replace(/\n/g, '&#10;');
}

/** JSON safe inside a `<script>` element. */
export function scriptJson(value: unknown): string {
  return escapeC1InJson(JSON.stringify(value, bigintAsString))
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/** A matrix cell's state class, from its streams: the worst state wins. */
export type CellState = 'error' | 'copying' | 'stopped' | 'lagging' | 'running' | 'nostream' | 'unknown';

/** The cell state of a target shard's streams (`unknown` when the report carries no per-stream data). */
/** `30s`, or `500ms (judged as 0s, whole seconds as Vitess compares)` when the given value is not whole seconds. */
function maxLagText(o: NonNullable<Report['options']>): string {
  const whole = `${o.maxLagSeconds}s`;
  return o.maxLag === undefined || o.maxLag === whole
    ? whole
    : `${htmlText(o.maxLag)} (judged as ${whole}: whole seconds, as Vitess compares)`;
}

export function cellState(streams: readonly StreamSummary[] | undefined, maxLagSeconds: number): CellState {
  if (streams === undefined) return 'unknown';
  if (streams.length === 0) return 'nostream';
  if (streams.some((s) => s.state === 'Error')) return 'error';
  if (streams.some((s) => s.state === 'Copying' || (s.copyTablesLeft ?? 0) > 0)) return 'copying';
  if (streams.some((s) => s.state !== 'Running')) return 'stopped';
  if (streams.some((s) => s.lagSeconds === null || s.lagSeconds > maxLagSeconds)) return 'lagging';
  return 'running';
}

const STATE_LABEL: Readonly<Record<CellState, string>> = {
  error: 'Error',
  copying: 'Copying',
  stopped: 'Stopped / other',
  lagging: 'Running, lag over --max-lag',
  running: 'Running',
  nostream: 'no stream',
  unknown: 'no stream data in report',
};

const key3 = (keyspace: string, workflow: string, shard: string) => `${keyspace}\u0000${workflow}\u0000${shard}`;

/** True when a finding belongs to a workflow's cell on `shard`: same keyspace and shard, and its workflow or none. */
export function findingInCell(f: Finding, w: Pick<WorkflowVerdict, 'keyspace' | 'workflow'>, shard: string): boolean {
  return f.keyspace === w.keyspace && f.shard === shard && (f.workflow === undefined || f.workflow === w.workflow);
}

function overall(report: Report): { cls: string; word: string } {
  const wfs = report.workflows;
  if (report.command === 'sweep') {
    const h = sweepHeadline(report);
    return { cls: h.state === 'clean' ? 'ready' : 'at-risk', word: h.word };
  }
  if (wfs.some((w) => w.verdict === 'blocked') || report.summary.error > 0) return { cls: 'blocked', word: 'Blocked' };
  if (wfs.some((w) => w.verdict === 'unverified')) return { cls: 'at-risk', word: 'Unverified' };
  if (wfs.some((w) => w.verdict === 'at-risk') || report.summary.warning > 0)
    return { cls: 'at-risk', word: 'At risk' };
  if (report.summary.exitCode !== 0 || report.checks.some((c) => c.status === 'error'))
    return { cls: 'at-risk', word: 'Incomplete' };
  return { cls: 'ready', word: 'Ready' };
}

function banner(report: Report): string {
  const v = overall(report);
  const t = report.target;
  const facts = [
    t.snapshot !== null
      ? `snapshot <code>${htmlText(t.snapshot)}</code>`
      : t.vtctld !== null
        ? `vtctld <code>${htmlText(t.vtctld)}</code>`
        : '',
    t.keyspaces.length > 0
      ? `keyspaces ${t.keyspaces.map((k) => `<code>${htmlText(k)}</code>`).join(', ')}`
      : 'all keyspaces',
    t.workflows.length > 0 ? `workflows ${t.workflows.map((k) => `<code>${htmlText(k)}</code>`).join(', ')}` : '',
    `started ${htmlText(report.startedAt)}`,
    `${(report.durationMs / 1000).toFixed(1)}s`,
    report.options ? `--fail-on ${htmlText(report.options.failOn)}, --max-lag ${maxLagText(report.options)}` : '',
    `vtpreflight ${htmlText(report.tool.version)}`,
  ].filter(Boolean);
  const s = report.summary;
  const counts = `<span class="sev-error">${plural(s.error, 'error')}</span> · <span class="sev-warning">${plural(s.warning, 'warning')}</span> · <span class="sev-info">${s.info} info</span> · exit ${s.exitCode}`;
  const sweepLine =
    (report.command === 'sweep' ? `\n<p class="sweep">${htmlText(sweepHeadline(report).sentence)}</p>` : '') +
    (report.interrupted !== undefined
      ? `\n<p class="interrupted"><strong>${htmlText(report.interrupted.message)}</strong></p>`
      : '');
  return `<header id="verdict" class="verdict v-${v.cls}" data-verdict="${v.cls}">
<h1><span class="word">${v.word}</span> <span class="exit">${htmlText(exitLine(report))}</span></h1>
<p class="counts">${counts}</p>${sweepLine}
<p class="meta">${facts.join(' · ')}</p>
</header>`;
}

/** Copy progress per table of the workflows still copying (`copyProgress`); nothing when the report has none. */
function copySection(report: Report): string {
  if (report.copyProgress === undefined || report.copyProgress.length === 0) return '';
  const num = (n: number) => n.toLocaleString('en-US');
  const blocks = report.copyProgress.map((p) => {
    const rows = p.tables.map((t) => {
      const pct = t.phase === 'COMPLETE' ? 100 : Math.max(0, Math.min(100, t.percent));
      return `<tr><td><code>${htmlText(t.table)}</code></td><td>${num(t.rowsCopied)}</td><td>${num(t.rowsTotal)}</td><td><progress max="100" value="${pct}"></progress> ${htmlText(`${t.percent}%`)}</td><td>${htmlText(tableProgressText(t).slice(t.table.length + 2))}</td></tr>`;
    });
    return (
      `<h3><code>${htmlText(p.keyspace)}.${htmlText(p.workflow)}</code></h3>\n<table><thead><tr><th>table</th><th>rows copied</th><th>rows (source estimate)</th><th>percent</th><th>state</th></tr></thead>\n` +
      `<tbody>${rows.join('\n')}</tbody></table>`
    );
  });
  return `<section id="copy"><h2>Copy progress <span class="sub">rows copied per table, as vtctld's WorkflowStatus \
reports them</span></h2>\n${blocks.join('\n')}</section>\n`;
}

function workflowTable(report: Report): string {
  if (report.workflows.length === 0)
    return '<section id="workflows"><h2>Workflows</h2><p class="empty">No workflow in scope.</p></section>';
  const rows = report.workflows.map((w) => {
    const command = judgedCommand(w);
    return `<tr class="wf-${w.verdict}"><td><code>${htmlText(w.keyspace)}.${htmlText(w.workflow)}</code></td><td>${htmlText(w.type)}${command !== null ? ` · ${htmlText(command)}` : ''}</td><td><span class="badge b-${w.verdict}">${w.verdict}</span></td><td>${w.blockedBy.map((c) => `<code>${htmlText(c)}</code>`).join(', ')}</td><td>${w.vitessWouldSay === null ? '' : `<q>${htmlText(w.vitessWouldSay)}</q>`}</td><td>${htmlText(unverifiedText(w) ?? '')}</td></tr>`;
  });
  const head = ['workflow', 'type', 'verdict', 'blocked by', 'Vitess would say', 'unverified'];
  return `<section id="workflows"><h2>Workflows</h2>
<table><thead><tr>${head.map((h) => `<th>${h}</th>`).join('')}</tr></thead>
<tbody>${rows.join('\n')}</tbody></table></section>`;
}

function lagText(s: StreamSummary): string {
  return s.lagSeconds === null ? 'copying (unbounded)' : `${s.lagSeconds}s`;
}

function matrix(report: Report): string {
  const maxLag = report.options?.maxLagSeconds ?? DEFAULT_MAX_LAG_SECONDS;
  const byCell = new Map<string, StreamSummary[]>();
  for (const s of report.streams ?? []) {
    const k = key3(s.keyspace, s.workflow, s.shard);
    const list = byCell.get(k);
    if (list) list.push(s);
    else byCell.set(k, [s]);
  }
  const findingsByKsShard = new Map<string, Finding[]>();
  for (const f of report.findings) {
    if (f.keyspace === undefined || f.shard === undefined) continue;
    const k = `${f.keyspace}\u0000${f.shard}`;
    const list = findingsByKsShard.get(k);
    if (list) list.push(f);
    else findingsByKsShard.set(k, [f]);
  }
  const legendCounts = new Map<CellState, number>();
  const rows: string[] = [];
  for (const w of report.workflows) {
    const shards =
      w.targetShards ??
      [
        ...new Set(
          report.findings
            .filter((f) => f.keyspace === w.keyspace && f.workflow === w.workflow && f.shard !== undefined)
            .map((f) => f.shard!),
        ),
      ].sort(compareShardNames);
    const compact = shards.length > COMPACT_ABOVE;
    let offCell = report.findings.filter(
      (f) => f.workflow === w.workflow && (f.keyspace === undefined || f.keyspace === w.keyspace),
    ).length;
    const cells = shards.map((shard) => {
      const streams =
        report.streams === undefined ? undefined : (byCell.get(key3(w.keyspace, w.workflow, shard)) ?? []);
      const state = cellState(streams, maxLag);
      legendCounts.set(state, (legendCounts.get(state) ?? 0) + 1);
      const mine = (findingsByKsShard.get(`${w.keyspace}\u0000${shard}`) ?? []).filter((f) =>
        findingInCell(f, w, shard),
      );
      offCell -= mine.filter((f) => f.workflow !== undefined).length;
      const worst = mine.reduce<Severity | null>(
        (acc, f) => (acc === null || SEVERITY_RANK[f.severity] < SEVERITY_RANK[acc] ? f.severity : acc),
        null,
      );
      const parts = [`${w.keyspace}/${shard}`, STATE_LABEL[state]];
      if (streams && streams.length > 0) {
        parts.push(
          streams
            .map(
              (s) => `stream ${s.streamId} from ${s.sourceKeyspace || '?'}/${s.sourceShard || '?'}, lag ${lagText(s)}`,
            )
            .join('; '),
        );
      }
      parts.push(mine.length === 0 ? 'no findings' : plural(mine.length, 'finding'));
      const badge = mine.length > 0 ? `<span class="n n-${worst}">${mine.length}</span>` : '';
      const label = compact ? '' : `<span class="sh">${htmlText(shard)}</span>`;
      return `<button type="button" class="cell c-${state}${worst ? ` f-${worst}` : ''}" data-shard="${htmlAttr(shard)}" data-findings="${mine.length}" title="${htmlAttr(parts.join(' · '))}">${label}${badge}</button>`;
    });
    const offNote = offCell > 0 ? ` · ${plural(offCell, 'finding')} not on a target shard (see Findings)` : '';
    const sub = `${htmlText(w.type)} · ${plural(shards.length, 'target shard')}${offNote}`;
    rows.push(`<div class="wfrow" data-keyspace="${htmlAttr(w.keyspace)}" data-workflow="${htmlAttr(w.workflow)}">
<h3><code>${htmlText(w.keyspace)}.${htmlText(w.workflow)}</code> \
<span class="badge b-${w.verdict}">${w.verdict}</span> <span class="sub">${sub}</span></h3>
<div class="grid${compact ? ' compact' : ''}">${cells.join('')}</div>
</div>`);
  }
  const order: CellState[] = ['error', 'copying', 'stopped', 'lagging', 'running', 'nostream', 'unknown'];
  const legend = order
    .filter((s) => legendCounts.has(s) || (s !== 'unknown' && report.streams !== undefined))
    .map(
      (s) =>
        `<span class="lg"><span class="cell mini c-${s}"></span>${htmlText(STATE_LABEL[s].replace('--max-lag', `${maxLag}s`))} <span class="cnt">${legendCounts.get(s) ?? 0}</span></span>`,
    )
    .join('');
  const note =
    report.streams === undefined
      ? '<p class="note">This report carries no per-stream data (<code>streams</code>): cells show target shards with findings only.</p>'
      : '';
  const what = 'target shard × workflow; badge = findings on that shard; click a cell for its streams';
  const badges =
    '<span class="lg"><span class="n n-error">n</span> error findings</span><span class="lg"><span class="n n-warning">n</span> warnings only</span>';
  const close = '<button type="button" id="detail-close" aria-label="close">×</button>';
  return `<section id="matrix"><h2>Stream matrix <span class="sub">${what}</span></h2>
<p class="legend">${legend}${badges}</p>${note}
<div id="rows">${rows.length > 0 ? rows.join('\n') : '<p class="empty">No workflow in scope.</p>'}</div>
<aside id="detail" hidden>${close}<div id="detail-body"></div></aside>
</section>`;
}

function findingsSection(report: Report): string {
  const groups = foldFindings(report.findings);
  const counts = { error: 0, warning: 0, info: 0 };
  for (const f of report.findings) counts[f.severity]++;
  const checkCounts = new Map<string, number>();
  for (const f of report.findings) checkCounts.set(f.check, (checkCounts.get(f.check) ?? 0) + 1);
  const sevBoxes = (['error', 'warning', 'info'] as const)
    .map(
      (s) =>
        `<label class="sev-${s}"><input type="checkbox" name="sev" value="${s}" checked> ${s} (${counts[s]})</label>`,
    )
    .join(' ');
  const checkOptions = [...checkCounts]
    .map(([c, n]) => `<option value="${htmlAttr(c)}">${htmlText(c)} (${n})</option>`)
    .join('');
  const items = groups.map((g) => {
    const where = whereParts(g, { all: false, onlyUnmentioned: true })
      .map((p) => (p.items.length > 0 ? `${p.label} ${p.items.map(htmlText).join(', ')}` : htmlText(p.label)))
      .join(' · ');
    const ks = `${htmlText(g.keyspace ?? '')}${g.keyspace ? '.' : ''}`;
    const head = `<span class="badge s-${g.severity}">${g.severity}</span> <code class="check">${htmlText(g.check)}</code>${g.workflow ? ` <code>${ks}${htmlText(g.workflow)}</code>` : ''} <span class="msg">${htmlText(g.message)}</span>${where ? ` <span class="where">${where}</span>` : ''}`;
    const one = g.findings.length === 1;
    const whereOf = (f: Finding) =>
      [
        f.keyspace && f.shard ? `${f.keyspace}/${f.shard}` : f.keyspace,
        f.tablet,
        f.streamId !== undefined ? `stream ${f.streamId}` : undefined,
      ]
        .filter(Boolean)
        .join(' · ');
    const each = g.findings.map((f) => `<li>${htmlText(whereOf(f))}: ${htmlText(f.message)}</li>`);
    const list = one ? '' : `<ol class="each">${each.join('')}</ol>`;
    const says = vitessSays(g.findings);
    const predicts = says !== null ? `<p class="predicts">Vitess would say <q>${htmlText(says)}</q></p>` : '';
    const body = one
      ? `<div class="one">${head}${predicts}</div>`
      : `<details><summary>${head} <span class="cnt">×${g.findings.length}</span></summary>${predicts}${list}</details>`;
    return `<li class="finding s-${g.severity}" data-severity="${g.severity}" data-check="${htmlAttr(g.check)}">${body}</li>`;
  });
  const shown = `${plural(report.findings.length, 'finding')} in ${plural(groups.length, 'entry', 'entries')}`;
  const select = `<select name="check"><option value="">all checks</option>${checkOptions}</select>`;
  return `<section id="findings"><h2>Findings <span class="sub" id="shown">${shown}</span></h2>
<form id="filters" onsubmit="return false">${sevBoxes} <label>check ${select}</label></form>
${items.length > 0 ? `<ol id="finding-list">${items.join('\n')}</ol>` : '<p class="empty">No findings.</p>'}
</section>`;
}

const CHECK_HEAD = ['check', 'title', 'status', 'findings', 'error'];

function checksSection(report: Report): string {
  const rows = report.checks.map((c) => {
    const why =
      c.status === 'error' && c.error !== undefined
        ? htmlText(c.error)
        : c.status === 'skipped' && c.skipReason !== undefined
          ? htmlText(c.skipReason)
          : '';
    return `<tr class="st-${c.status}"><td><code>${htmlText(c.id)}</code></td><td>${htmlText(c.title ?? '')}</td><td><span class="badge st-${c.status}">${c.status}</span></td><td>${c.findings}</td><td>${why}</td></tr>`;
  });
  const failing = report.checks.filter((c) => (c.status === 'fail' || c.status === 'error') && c.remediation);
  const fixes = failing
    .map((c) => `<dt><code>${htmlText(c.id)}</code></dt><dd>${htmlText(c.remediation!)}</dd>`)
    .join('');
  return `<section id="checks"><h2>Checks</h2>
<table><thead><tr>${CHECK_HEAD.map((h) => `<th>${h}</th>`).join('')}</tr></thead>\
<tbody>${rows.join('\n')}</tbody></table>
${fixes ? `<h3>What to do</h3><dl class="fixes">${fixes}</dl>` : ''}</section>`;
}

const CSS = [
  '',
  `:root{--red:#c62828;--amber:#d98e04;--green:#2e7d32;--blue:#1e6fd0;--grey:#7d848c;--ink:#1d2125;--muted:#5b636b;--line:#d6dade;--bg:#fff}`,
  `*{box-sizing:border-box}body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--ink);background:var(--bg);margin:0 auto;max-width:1400px;padding:0 20px 40px}`,
  `code{font:12px/1.3 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}h2{margin:28px 0 8px;font-size:18px}h3{margin:14px 0 6px;font-size:14px}`,
  `.sub{color:var(--muted);font-weight:normal;font-size:12px}.empty,.note{color:var(--muted)}`,
  `.verdict{margin:0 -20px;padding:16px 20px;color:#fff}.verdict h1{margin:0;font-size:22px}.verdict .exit{font-weight:normal;font-size:15px}`,
  `.verdict p{margin:4px 0 0}.verdict .meta{opacity:.9;font-size:12px}.verdict code{color:#fff}.verdict .counts span{color:#fff}`,
  `.v-blocked{background:var(--red)}.v-at-risk{background:var(--amber)}.v-ready{background:var(--green)}`,
  `table{border-collapse:collapse;width:100%}th,td{text-align:left;border-bottom:1px solid var(--line);padding:4px 8px;vertical-align:top}th{font-size:12px;color:var(--muted)}`,
  `.badge{display:inline-block;border-radius:3px;padding:0 6px;font-size:11px;font-weight:600;color:#fff;text-transform:uppercase}`,
  `.b-blocked,.s-error .badge,.badge.s-error,.st-error .badge{background:var(--red)}.b-at-risk,.b-unverified,.badge.s-warning{background:var(--amber)}.b-ready,.st-pass .badge{background:var(--green)}`,
  `.badge.s-info,.st-skipped .badge{background:var(--grey)}.st-fail .badge{background:var(--red)}`,
  `.legend{display:flex;flex-wrap:wrap;gap:12px;font-size:12px;color:var(--muted)}.lg{display:inline-flex;align-items:center;gap:4px}.lg .cnt{color:var(--ink)}`,
  `.grid{display:flex;flex-wrap:wrap;gap:3px}`,
  `.cell{position:relative;width:64px;height:34px;border:0;border-radius:3px;padding:2px 4px;color:#fff;cursor:pointer;text-align:left;font:11px/1.2 ui-monospace,monospace}`,
  `.cell .sh{display:block;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}`,
  `.grid.compact{gap:2px}.grid.compact .cell{width:16px;height:16px;padding:0;border-radius:2px}`,
  `.cell.mini{width:14px;height:14px;cursor:default}`,
  `.c-running{background:var(--green)}.c-lagging{background:var(--amber)}.c-copying{background:var(--blue)}.c-stopped{background:var(--grey)}.c-error{background:var(--red)}`,
  `.c-nostream{background:#fff;border:2px dashed var(--grey);color:var(--ink)}.c-unknown{background:#e8eaed;color:var(--ink)}`,
  `.cell.f-error{box-shadow:0 0 0 2px #5d0000}.cell.f-warning{box-shadow:0 0 0 2px #6b4600}`,
  `.cell:focus-visible,.cell.sel{outline:3px solid var(--ink);outline-offset:1px}`,
  `.n{position:absolute;right:2px;bottom:2px;min-width:14px;padding:0 3px;border-radius:7px;font:10px/14px system-ui,sans-serif;text-align:center;color:#fff;background:var(--grey)}`,
  `.lg .n{position:static}.n-error{background:#5d0000}.n-warning{background:#6b4600}`,
  `.grid.compact .n{right:0;bottom:0;min-width:0;padding:0 2px;border-radius:2px;font-size:9px;line-height:11px}`,
  `#detail{position:sticky;bottom:0;margin-top:12px;background:#fbfbfc;border:1px solid var(--line);border-radius:4px;padding:8px 12px;max-height:50vh;overflow:auto;box-shadow:0 -2px 8px rgba(0,0,0,.08)}`,
  `#detail-close{float:right;border:0;background:none;font-size:18px;cursor:pointer}#detail table{font-size:12px}#detail td{word-break:break-all}`,
  `#filters{margin:6px 0 10px;display:flex;gap:14px;align-items:center;flex-wrap:wrap}`,
  `#finding-list{list-style:none;padding:0;margin:0}.finding{border-left:4px solid var(--grey);padding:4px 8px;margin:4px 0;background:#fafbfc}`,
  `.finding.s-error{border-color:var(--red)}.finding.s-warning{border-color:var(--amber)}`,
  `.finding summary{cursor:pointer}.finding .where{color:var(--muted);font-size:12px}.finding .each{font-size:12px;margin:4px 0 0;max-height:320px;overflow:auto}`,
  `.finding .cnt{color:var(--muted)}.predicts{margin:2px 0 0;color:var(--muted);font-size:12px}.fixes dd{margin:0 0 8px 16px;white-space:pre-wrap}`,
  `.sev-error{color:var(--red)}.sev-warning{color:#9a6500}.sev-info{color:var(--muted)}`,
  `@media print{#filters,#detail{display:none}}`,
  '',
].join('\n');

// The page script: filters and the detail panel. Plain ES2015, no external code; it reads the embedded report.
const SCRIPT = [
  '',
  `(function(){`,
  `var R=JSON.parse(document.getElementById('vtpreflight-report').textContent);`,
  `function esc(s){return String(s).replace(/[&<>"']/g,function(c){return{'&':'&amp;','<':'&lt;','>':'&gt;','"':'&quot;',"'":'&#39;'}[c];});}`,
  `var streams={},finds={},K=function(a,b,c){return a+'\\u0000'+b+'\\u0000'+c;};`,
  `(R.streams||[]).forEach(function(s){var k=K(s.keyspace,s.workflow,s.shard);(streams[k]=streams[k]||[]).push(s);});`,
  `R.findings.forEach(function(f){if(f.keyspace===undefined||f.shard===undefined)return;var k=f.keyspace+'\\u0000'+f.shard;(finds[k]=finds[k]||[]).push(f);});`,
  `var detail=document.getElementById('detail'),body=document.getElementById('detail-body'),sel=null;`,
  `function show(cell){`,
  `  var row=cell.closest('.wfrow'),ks=row.getAttribute('data-keyspace'),wf=row.getAttribute('data-workflow'),sh=cell.getAttribute('data-shard');`,
  `  if(sel)sel.classList.remove('sel');sel=cell;cell.classList.add('sel');`,
  `  var ss=streams[K(ks,wf,sh)]||[],fs=(finds[ks+'\\u0000'+sh]||[]).filter(function(f){return f.workflow===undefined||f.workflow===wf;});`,
  `  var h='<h3><code>'+esc(ks+'.'+wf)+'</code> on shard <code>'+esc(sh)+'</code></h3>';`,
  `  if(!R.streams)h+='<p class="note">No per-stream data in this report.</p>';`,
  `  else if(ss.length===0)h+='<p>No stream of this workflow on this shard.</p>';`,
  `  else{h+='<table class="streams"><thead><tr><th>stream</th><th>tablet</th><th>source</th><th>state</th><th>lag</th><th>position</th><th>message</th></tr></thead><tbody>';`,
  `    ss.forEach(function(s){h+='<tr data-stream="'+s.streamId+'"><td>'+s.streamId+'</td><td><code>'+esc(s.tablet)+'</code></td><td><code>'+esc((s.sourceKeyspace||'?')+'/'+(s.sourceShard||'?'))+'</code></td><td>'+esc(s.state)+(s.copyTablesLeft>0?' ('+s.copyTablesLeft+' tables left)':'')+'</td><td>'+(s.lagSeconds===null?'copying':esc(s.lagSeconds+'s'))+'</td><td><code>'+esc(s.position)+'</code></td><td>'+esc(s.message)+'</td></tr>';});`,
  `    h+='</tbody></table>';}`,
  `  h+=fs.length?'<ul class="cellfindings">'+fs.map(function(f){return '<li class="sev-'+f.severity+'"><b>'+esc(f.severity)+'</b> <code>'+esc(f.check)+'</code> '+esc(f.message)+'</li>';}).join('')+'</ul>':'<p>No findings on this shard for this workflow.</p>';`,
  `  body.innerHTML=h;detail.hidden=false;`,
  `}`,
  `document.getElementById('rows').addEventListener('click',function(e){var c=e.target.closest('.cell');if(c)show(c);});`,
  `document.getElementById('detail-close').addEventListener('click',function(){detail.hidden=true;if(sel)sel.classList.remove('sel');sel=null;});`,
  `var form=document.getElementById('filters'),list=document.getElementById('finding-list'),shown=document.getElementById('shown');`,
  `function filter(){`,
  `  if(!list)return;var sev={};Array.prototype.forEach.call(form.querySelectorAll('input[name=sev]'),function(i){sev[i.value]=i.checked;});`,
  `  var check=form.querySelector('select[name=check]').value,n=0;`,
  `  Array.prototype.forEach.call(list.children,function(li){var ok=sev[li.getAttribute('data-severity')]&&(!check||li.getAttribute('data-check')===check);li.hidden=!ok;if(ok)n++;});`,
  `  shown.textContent=n+' of '+list.children.length+' entries shown';`,
  `}`,
  `form.addEventListener('change',filter);`,
  `})();`,
  '',
].join('\n');

/** Nothing is fetched: inline style and script only, images as data: URLs. */
const CSP = "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:";

/** Renders the report as one self-contained HTML page. `opts` is accepted for the common signature and ignored. */
export default function renderHtml(report: Report, _opts: RenderOptions): string {
  const v = overall(report);
  const scope = report.target.keyspaces.length > 0 ? report.target.keyspaces.join(', ') : 'all keyspaces';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="${CSP}">
<title>vtpreflight: ${htmlText(v.word)} · ${htmlText(scope)}</title>
<style>${CSS}</style>
</head>
<body>
${banner(report)}
${workflowTable(report)}
${copySection(report)}${matrix(report)}
${findingsSection(report)}
${checksSection(report)}
<script type="application/json" id="vtpreflight-report">${scriptJson(toContractJson(report))}</script>
<script>${SCRIPT}</script>
</body>
</html>
`;
}

/** `--format html`; `--output` files ending in .html, .htm. */
export const reporter = { format: 'html', extensions: ['html', 'htm'], render: renderHtml } as const satisfies Reporter;
