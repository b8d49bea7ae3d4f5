/**
 * The reporters by format name (`--format`). Each renders the same report object (docs/report-contract.md)
 * and is pure: the CLI decides colour, width and verbosity and writes the string to stdout or `--output`.
 */
import type { Report } from '../engine/report.js';
import { reporter as html } from './html.js';
import { reporter as json } from './json.js';
import { reporter as junit } from './junit.js';
import { reporter as markdown } from './markdown.js';
import { reporter as text } from './text.js';
import type { RenderOptions, Renderer, Reporter } from './types.js';

export type { RenderOptions, Renderer, Reporter, StreamRenderer } from './types.js';

/** The registry: every reporter, in the order help text lists the formats. Each declares its name and extensions. */
export const REPORTERS = [text, json, junit, markdown, html] as const;

/** A format name `--format` accepts. */
export type ReportFormat = (typeof REPORTERS)[number]['format'];

/** The format names `--format` accepts, in the order help text lists them. */
export const FORMATS: readonly ReportFormat[] = Object.freeze(REPORTERS.map((r) => r.format));

/** The renderer of each format. */
export const RENDERERS: Readonly<Record<ReportFormat, Renderer>> = Object.freeze(
  Object.fromEntries(REPORTERS.map((r) => [r.format, r.render])) as Record<ReportFormat, Renderer>,
);

const BY_EXTENSION: ReadonlyMap<string, ReportFormat> = new Map(
  REPORTERS.flatMap((r: Reporter<ReportFormat>) => r.extensions.map((e) => [e, r.format] as const)),
);

/** The format a file extension (without the dot, any case) selects for `--output`, if any. */
export function formatOfExtension(extension: string): ReportFormat | undefined {
  return BY_EXTENSION.get(extension.toLowerCase());
}

/** The usual file extension of a format (the first it declares). */
export function extensionOf(format: ReportFormat): string {
  return REPORTERS.find((r) => r.format === format)!.extensions[0]!;
}

/** True when `name` is a format name `--format` accepts (for validating flags before any I/O). */
export function isReportFormat(name: string): name is ReportFormat {
  return (FORMATS as readonly string[]).includes(name);
}

/** Renders `report` in `format`; the result ends with a newline. */
export function renderReport(format: ReportFormat, report: Report, opts: RenderOptions): string {
  return RENDERERS[format](report, opts);
}

/** A report being written: `write(emit)` hands its text, in chunks, to `emit` (one chunk for most formats). */
export type ReportWriter = (emit: (chunk: string) => void) => void;

/**
 * Renders `report` in `format` lazily, in chunks: the JSON reporter streams (its report can be tens of MB); the others
 * render their string and hand it over whole. Each call of the returned function renders again.
 */
export function reportWriter(format: ReportFormat, report: Report, opts: RenderOptions): ReportWriter {
  const r: Reporter = REPORTERS.find((x) => x.format === format)!;
  const stream = r.stream;
  if (stream !== undefined) return (emit) => stream(report, opts, emit);
  return (emit) => emit(r.render(report, opts));
}
