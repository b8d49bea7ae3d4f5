/**
 * Known error kinds and their exit codes (STYLE.md §6). Any other error is a bug: one line, "please report", exit 2.
 */

/** A bad flag, config value or check id: exit 2, before any I/O. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** The tool could not collect at all (vtctld unreachable, unreadable snapshot): exit 2. */
export class CollectError extends Error {
  override readonly name = 'CollectError';
}

/** First line of an error message, without stack. */
export function oneLine(e: unknown): string {
  const msg = e instanceof Error ? e.message : String(e);
  return (msg.split('\n')[0] ?? '').trim() || 'unknown error';
}

/**
 * Text that came from a file, made safe to print on one terminal line: control characters (escape sequences,
 * newlines, NUL, C1) become `\uXXXX`, and it is cut to `max` characters.
 */
export function printable(text: string, max = 120): string {
  const safe = text.replace(
    /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
  return safe.length > max ? `${safe.slice(0, max - 1)}…` : safe;
}

/** Removes a UTF-8 byte-order mark (U+FEFF) at the start of decoded text, which JSON.parse refuses. */
export const stripBom = (text: string): string => (text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
