/**
 * A conservative read-only guard for SQL that vtpreflight sends to a tablet (through vtctld's
 * `ExecuteFetchAsDBA`, which runs with DBA privileges, or directly).
 *
 * It is defence in depth, not a parser: it accepts exactly one `SELECT` or `SHOW` statement and refuses
 * anything that could write or lock even inside a SELECT (`INTO OUTFILE/DUMPFILE/@var`, `FOR UPDATE`,
 * `FOR SHARE`, `LOCK IN SHARE MODE`) and MySQL executable comments (`/*! … *\/`), which MySQL runs as code.
 * Quoted strings, quoted identifiers and ordinary comments are skipped, so a `;` or `into` inside a string
 * literal is not mistaken for a second statement or a write.
 */

/** The guard's answer: `ok`, or the reason (one short phrase) the statement is refused. */
export type ReadOnlyVerdict = { readonly ok: true } | { readonly ok: false; readonly reason: string };

interface Word {
  readonly text: string;
  /** True when the word follows a `.` (a qualified name part, which may be a reserved word). */
  readonly qualified: boolean;
}

const isWordChar = (c: string): boolean => /[A-Za-z0-9_$]/.test(c);

/**
 * Checks that `sql` is a single SELECT or SHOW statement that neither writes nor locks.
 * A trailing `;` (followed only by whitespace or comments) is allowed.
 */
export function checkReadOnlyStatement(sql: string): ReadOnlyVerdict {
  const words: Word[] = [];
  let firstToken: string | null = null;
  let afterSemicolon = false;
  let i = 0;
  const n = sql.length;
  let prevSignificant = '';
  while (i < n) {
    const c = sql[i] as string;
    const next = sql[i + 1] ?? '';
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    if (c === '/' && next === '*') {
      if (sql[i + 2] === '!' || (sql[i + 2] === 'M' && sql[i + 3] === '!')) {
        return { ok: false, reason: 'MySQL executable comments (/*! … */) are not allowed' };
      }
      const end = sql.indexOf('*/', i + 2);
      if (end < 0) return { ok: false, reason: 'unterminated comment' };
      i = end + 2;
      continue;
    }
    if (c === '#' || (c === '-' && next === '-' && (i + 2 >= n || /\s/.test(sql[i + 2] as string)))) {
      const end = sql.indexOf('\n', i);
      i = end < 0 ? n : end + 1;
      continue;
    }
    if (afterSemicolon) return { ok: false, reason: 'multiple statements' };
    if (c === ';') {
      afterSemicolon = true;
      i++;
      continue;
    }
    if (c === "'" || c === '"' || c === '`') {
      let j = i + 1;
      let closed = false;
      while (j < n) {
        const d = sql[j] as string;
        if (d === '\\' && c !== '`') {
          j += 2;
          continue;
        }
        if (d === c) {
          if (sql[j + 1] === c) {
            j += 2;
            continue;
          }
          closed = true;
          break;
        }
        j++;
      }
      if (!closed) return { ok: false, reason: 'unterminated quoted string or identifier' };
      firstToken ??= c;
      prevSignificant = c;
      i = j + 1;
      continue;
    }
    if (isWordChar(c)) {
      let j = i + 1;
      while (j < n && isWordChar(sql[j] as string)) j++;
      const text = sql.slice(i, j).toUpperCase();
      words.push({ text, qualified: prevSignificant === '.' });
      firstToken ??= text;
      prevSignificant = 'w';
      i = j;
      continue;
    }
    firstToken ??= c;
    prevSignificant = c;
    i++;
  }
  if (firstToken === null) return { ok: false, reason: 'empty statement' };
  if (firstToken !== 'SELECT' && firstToken !== 'SHOW') {
    return { ok: false, reason: `not a SELECT or SHOW statement (starts with ${firstToken.slice(0, 20)})` };
  }
  for (let k = 0; k < words.length; k++) {
    const w = words[k] as Word;
    if (w.qualified) continue;
    const next = words[k + 1];
    if (w.text === 'INTO') return { ok: false, reason: 'SELECT … INTO writes to files or variables' };
    if (w.text === 'FOR' && next !== undefined && (next.text === 'UPDATE' || next.text === 'SHARE')) {
      return { ok: false, reason: `locking read (FOR ${next.text})` };
    }
    if (w.text === 'LOCK' && next?.text === 'IN') return { ok: false, reason: 'locking read (LOCK IN SHARE MODE)' };
  }
  return { ok: true };
}

/**
 * Splits a multi-statement text at its top-level `;` the way the server's parser does: quoted strings, quoted
 * identifiers and comments are skipped, so a `;` inside them does not split. Each statement keeps its own text
 * (leading whitespace removed); empty statements (a trailing `;`) are dropped. An unterminated quote or comment runs
 * to the end of the text, as one statement, which {@link checkReadOnlyStatement} then refuses.
 */
export function splitSqlStatements(sql: string): string[] {
  const out: string[] = [];
  let start = 0;
  let i = 0;
  const n = sql.length;
  const push = (end: number) => {
    const text = sql.slice(start, end).trim();
    if (text !== '') out.push(text);
  };
  while (i < n) {
    const c = sql[i] as string;
    const next = sql[i + 1] ?? '';
    if (c === '/' && next === '*') {
      const end = sql.indexOf('*/', i + 2);
      i = end < 0 ? n : end + 2;
    } else if (c === '#' || (c === '-' && next === '-' && (i + 2 >= n || /\s/.test(sql[i + 2] as string)))) {
      const end = sql.indexOf('\n', i);
      i = end < 0 ? n : end + 1;
    } else if (c === "'" || c === '"' || c === '`') {
      let j = i + 1;
      while (j < n) {
        const d = sql[j] as string;
        if (d === '\\' && c !== '`') j += 2;
        else if (d === c && sql[j + 1] === c) j += 2;
        else if (d === c) break;
        else j += 1;
      }
      i = j + 1;
    } else if (c === ';') {
      push(i);
      start = i + 1;
      i += 1;
    } else {
      i += 1;
    }
  }
  push(n);
  return out;
}

/**
 * {@link checkReadOnlyStatement} for every statement of a multi-statement text (ExecuteMultiFetchAsDBA): each one a
 * single SELECT or SHOW that neither writes nor locks. The first refusal names the statement's position.
 */
export function checkReadOnlyStatements(sql: string): ReadOnlyVerdict {
  const statements = splitSqlStatements(sql);
  if (statements.length === 0) return { ok: false, reason: 'empty statement' };
  for (let k = 0; k < statements.length; k++) {
    const verdict = checkReadOnlyStatement(statements[k] as string);
    if (!verdict.ok)
      return statements.length === 1 ? verdict : { ok: false, reason: `statement ${k + 1}: ${verdict.reason}` };
  }
  return { ok: true };
}
