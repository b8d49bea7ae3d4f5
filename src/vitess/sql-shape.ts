/**
 * The shape of another session's SQL statement, which is all vtpreflight shows of it: its digest (string, hex and
 * number literals as `?`, comments removed, whitespace collapsed), its verb and the tables it names. Never its
 * literals or its comments: both may hold customer data or secrets (`/* api_token=… *\/`, `WHERE email = '…'`).
 */

/** At most this many characters of digest are kept. */
export const DIGEST_CHARS = 200;

export interface StatementShape {
  readonly digest: string;
  /** The first keyword, upper-cased (`SELECT`, `UPDATE`, `ALTER` …); '' when there is none. */
  readonly verb: string;
  /** Tables after FROM, JOIN, INTO, UPDATE or TABLE, unquoted, in order of first appearance (at most 8). */
  readonly tables: readonly string[];
}

/**
 * One pass over `text`: quoted strings become `?`, comments (`/* *\/`, including `/*! *\/` and hints, `-- ` and `#` to
 * the end of the line) become a space, backquoted identifiers are kept; then number literals become `?`.
 */
function scrub(text: string): string {
  let out = '';
  let i = 0;
  // Backquoted identifiers are set aside (as \u0000<n>\u0000) so that the number pass cannot touch `t 2`.
  const quoted: string[] = [];
  while (i < text.length) {
    const c = text[i]!;
    const next = text[i + 1];
    if (c === "'" || c === '"') {
      // A string literal (doubled quotes and backslash escapes stay inside it); an unterminated one runs to the end.
      let j = i + 1;
      while (j < text.length) {
        if (text[j] === '\\') j += 2;
        else if (text[j] === c && text[j + 1] === c) j += 2;
        else if (text[j] === c) break;
        else j++;
      }
      out += '?';
      i = j + 1;
    } else if (c === '`') {
      const end = text.indexOf('`', i + 1);
      const j = end < 0 ? text.length : end + 1;
      out += `\u0000${quoted.push(text.slice(i, j)) - 1}\u0000`;
      i = j;
    } else if (c === '/' && next === '*') {
      const end = text.indexOf('*/', i + 2);
      out += ' ';
      i = end < 0 ? text.length : end + 2;
    } else if (c === '#' || (c === '-' && next === '-' && /\s|$/.test(text[i + 2] ?? ''))) {
      const end = text.indexOf('\n', i);
      out += ' ';
      i = end < 0 ? text.length : end + 1;
    } else {
      out += c === '\u0000' ? ' ' : c;
      i++;
    }
  }
  return out
    .replace(/\b[xb]\?/gi, '?')
    .replace(/(?<!\u0000)\b(?:0x[0-9a-f]+|[0-9]+(?:\.[0-9]+)?(?:e[+-]?[0-9]+)?)\b(?!\u0000)/gi, '?')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/\u0000(\d+)\u0000/g, (_, n: string) => quoted[Number(n)]!);
}

const TABLE_AFTER =
  /\b(?:FROM|JOIN|INTO|UPDATE|TABLE)\s+((?:`[^`]*`|[A-Za-z_$][\w$]*)(?:\s*\.\s*(?:`[^`]*`|[A-Za-z_$][\w$]*))?)/gi;

/** The digest, verb and tables of a statement's text (see the module comment). */
export function statementShape(text: string): StatementShape {
  const scrubbed = scrub(text);
  const digest = scrubbed.length > DIGEST_CHARS ? `${scrubbed.slice(0, DIGEST_CHARS - 3)}...` : scrubbed;
  const verb = (/^[(\s]*([A-Za-z]+)/.exec(scrubbed)?.[1] ?? '').toUpperCase();
  const tables: string[] = [];
  for (const m of scrubbed.matchAll(TABLE_AFTER)) {
    const name = m[1]!.replace(/\s*\.\s*/, '.').replace(/`/g, '');
    if (!tables.includes(name) && tables.length < 8) tables.push(name);
  }
  return { digest, verb, tables };
}

/** `UPDATE on orders, customers` / `SELECT`: the words a finding uses for a statement. */
export function shapeText(shape: StatementShape): string {
  return shape.tables.length > 0 ? `${shape.verb} on ${shape.tables.join(', ')}` : shape.verb;
}
