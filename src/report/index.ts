/**
 * The reporters by format name (`--format`). Each renders the same report object (DESIGN.md JSON contract)
 * and is pure: the CLI decides colour, width and verbosity and writes the string to stdout or `--output`.
 */
import type { Report } from '../engine/report.js';
import renderHtml from './html.js';
import renderJson from './json.js';
import renderJunit from './junit.js';
import renderMarkdown from './markdown.js';
import renderText from './text.js';
import type { RenderOptions, Renderer } from './types.js';

export type { RenderOptions, Renderer } from './types.js';

/** The format names `--format` accepts, in the order help text lists them. */
export const FORMATS = ['text', 'json', 'junit', 'markdown', 'html'] as const;

/** A format name `--format` accepts. */
export type ReportFormat = (typeof FORMATS)[number];

/** The renderer of each format. */
export const RENDERERS: Readonly<Record<ReportFormat, Renderer>> = Object.freeze({
  text: renderText,
  json: renderJson,
  junit: renderJunit,
  markdown: renderMarkdown,
  html: renderHtml,
});

/** True when `name` is a format name `--format` accepts (for validating flags before any I/O). */
export function isReportFormat(name: string): name is ReportFormat {
  return (FORMATS as readonly string[]).includes(name);
}

/** Renders `report` in `format`; the result ends with a newline. */
export function renderReport(format: ReportFormat, report: Report, opts: RenderOptions): string {
  return RENDERERS[format](report, opts);
}
