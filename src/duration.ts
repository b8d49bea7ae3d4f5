/**
 * Durations as the CLI accepts them: `500ms`, `30s`, `2m`, `1h`, or combinations like `1m30s` (Go's
 * time.ParseDuration style, which Vitess operators type every day). A bare number is rejected: units are required.
 */
const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** Parses a duration into milliseconds; throws an Error with a one-line message on bad input. */
export function parseDuration(text: string, what = 'duration'): number {
  const t = text.trim();
  const re = /(\d+(?:\.\d+)?)(ms|s|m|h)/gy;
  let total = 0;
  let matched = 0;
  let m: RegExpExecArray | null;
  while ((m = re.exec(t)) !== null) {
    total += Number(m[1]) * UNIT_MS[m[2]!]!;
    matched = re.lastIndex;
  }
  if (t === '' || matched !== t.length) {
    throw new Error(`invalid ${what} "${text}": use a number with a unit, e.g. 30s, 500ms, 2m, 1m30s`);
  }
  return Math.round(total);
}

/** Formats milliseconds compactly (`1.5s`, `250ms`, `2m5s`). */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)}ms`;
  if (ms < 60_000) return `${+(ms / 1000).toFixed(1)}s`;
  const m = Math.floor(ms / 60_000);
  const s = Math.round((ms % 60_000) / 1000);
  return s === 0 ? `${m}m` : `${m}m${s}s`;
}
