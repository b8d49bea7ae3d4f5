/**
 * Secrets out of every line the tool prints: the one filter that error lines, warnings, progress and reports pass
 * through before they are written (src/cli/main.ts wraps stderr with it; src/cli/commands/check.ts maps the report).
 *
 * It replaces, with `<redacted>`:
 * - every secret value the run was given (the MySQL and vtctld passwords from a flag, the environment, the config
 *   file, a `passwordEnv` variable or a credentials file), registered with {@link registerSecret} as soon as it is
 *   read, so that even an error raised later in the same run cannot echo it;
 * - the password of a `user:password@host` address (`scheme://user:password@host` too);
 * - the value of a secret-looking key in free text: `password=…`, `"Password": "…"`, `token: …`, `api_key=…`.
 *
 * JSON parse errors quote the text around the error, which may be a password: {@link jsonErrorText} says what is
 * wrong without the quote.
 */

export const REDACTED = '<redacted>';

/** Values shorter than this are not replaced wherever they appear (a one-letter password would garble every line). */
const MIN_SECRET_LENGTH = 4;

const known = new Set<string>();
let knownPattern: RegExp | null = null;

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Remembers a secret value of this run: from now on it is replaced in every line {@link redactSecrets} filters. */
export function registerSecret(value: unknown): void {
  if (typeof value !== 'string' || value.length < MIN_SECRET_LENGTH || known.has(value)) return;
  known.add(value);
  knownPattern = null;
}

const SECRET_WORD = '(?:password|passwd|pwd|secret|token|api[_-]?key|credentials?)';
/** `password=x`, `password: x`, `"Password":"x"`, `token x`; not MySQL's `(using password: YES)`. */
const SECRET_VALUE = new RegExp(
  `(\\b[A-Za-z_-]*${SECRET_WORD}[A-Za-z_-]*"?\\s*[:=]\\s*"?)(?!(?:YES|NO)\\)|…|<redacted>)([^\\s",;&'})\\]]+)`,
  'gi',
);
/** `user:password@` in an address, with an optional `scheme://`. */
const USERINFO = /((?:[A-Za-z][\w+.-]*:\/\/)?[^\s:@/"'`<>()[\]{}]+):([^\s@/"'`<>]+)@(?=[\w[])/g;

/** A cheap first look: only text with one of these can hold a secret-looking key. */
const SECRET_HINT = new RegExp(SECRET_WORD, 'i');

/** `text` with every secret the filter knows of replaced by `<redacted>`. */
export function redactSecrets(text: string): string {
  if (text.length < 4) return text;
  let knownIn = false;
  for (const k of known) if (text.includes(k)) knownIn = true;
  const at = text.includes('@');
  const hinted = SECRET_HINT.test(text);
  if (!knownIn && !at && !hinted) return text;
  let out = text;
  if (knownIn) {
    if (knownPattern === null) {
      // Longest first, so that a secret containing another is replaced whole.
      const alternatives = [...known].sort((a, b) => b.length - a.length).map(escapeRe);
      knownPattern = new RegExp(alternatives.join('|'), 'g');
    }
    out = out.replace(knownPattern, REDACTED);
  }
  if (at) out = out.replace(USERINFO, `$1:${REDACTED}@`);
  return hinted ? out.replace(SECRET_VALUE, `$1${REDACTED}`) : out;
}

/** Every string inside `value` (objects and arrays, recursively) passed through {@link redactSecrets}. */
export function redactDeep<T>(value: T): T {
  if (typeof value === 'string') return redactSecrets(value) as T;
  if (value === null || typeof value !== 'object') return value;
  // Copied only where something changed: a report without secrets comes back as the same object.
  if (Array.isArray(value)) {
    let out: unknown[] | null = null;
    for (let i = 0; i < value.length; i++) {
      const r = redactDeep(value[i]);
      if (r !== value[i]) (out ??= [...value])[i] = r;
    }
    return (out ?? value) as T;
  }
  const rec = value as Record<string, unknown>;
  let out: Record<string, unknown> | null = null;
  for (const k of Object.keys(rec)) {
    const r = redactDeep(rec[k]);
    if (r !== rec[k]) (out ??= { ...rec })[k] = r;
  }
  return (out ?? value) as T;
}

/**
 * What a `JSON.parse` error says is wrong, without the text it quotes (Node quotes the input around the error, e.g.
 * `Unexpected token 'S', ..."assword": S3cr"... is not valid JSON`) and without the position.
 */
export function jsonErrorText(e: unknown): string {
  const msg = (e instanceof Error ? e.message : String(e)).split('\n')[0] ?? '';
  return msg
    .replace(/,\s*(?:\.\.\.)?".*"(?:\.\.\.)?\s+is not valid JSON$/s, '')
    .replace(/^(Unexpected token) '.*?'/, '$1')
    .replace(/\s*\(line \d+ column \d+\)/, '')
    .replace(/ in JSON at position \d+/, '')
    .replace(/^"(?:[^"\\]|\\.)*" is not valid JSON$/, 'not valid JSON');
}
