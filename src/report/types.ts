/**
 * The reporter contract: a reporter is a pure function from the report object to a string.
 * It reads no clock, no environment and no TTY: everything it may vary on is in {@link RenderOptions}.
 */
import type { Report } from '../engine/report.js';

/** What the caller (the CLI) decides for a reporter, so that the reporter itself stays pure. */
export interface RenderOptions {
  /** Emit ANSI colour codes. Only the `text` reporter colours; the others ignore it. */
  readonly color: boolean;
  /** Column width for wrapping long lists and remediation text (`text` only); default 100, minimum 40. */
  readonly width?: number;
  /** Show every shard and tablet of a folded finding, and the evidence (`details`) of single findings. */
  readonly verbose?: boolean;
}

/** A reporter: renders the whole report as one string, ending with a newline. */
export type Renderer = (report: Report, opts: RenderOptions) => string;

/**
 * A reporter as the registry (`./index.ts`) lists it: its `--format` name, the file extensions that select it for
 * `--output` (lower-case, without the dot; the first is the one its golden files use) and its renderer. Each
 * reporter module declares its own, so a new format is one module, one registry line and its golden files.
 */
export interface Reporter<F extends string = string> {
  readonly format: F;
  readonly extensions: readonly string[];
  readonly render: Renderer;
  /**
   * Optional: the same bytes as `render`, handed to `emit` in chunks rather than built as one string (the JSON report
   * of a large cluster is tens of MB). The CLI uses it when present; the other reporters only render.
   */
  readonly stream?: StreamRenderer;
}

/** Writes the report, in chunks, to `emit`; the concatenation of the chunks is what the {@link Renderer} returns. */
export type StreamRenderer = (report: Report, opts: RenderOptions, emit: (chunk: string) => void) => void;
