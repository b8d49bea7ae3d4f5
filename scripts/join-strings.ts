/**
 * Joins string literals that were split with `+`, most often across lines to fit a line width (`'Vitess refuses ' +
 * 'the switch'`) back into one literal, so that every sentence vtpreflight prints can be found with grep.
 *
 * `node dist/scripts/join-strings.js [file…]` rewrites the given files (default: every `.ts` file of src, checks,
 * test, scripts and bench) and prints the ones it changed; run `npm run format` afterwards to re-indent.
 * An array of literals joined with a space (`['…', '…'].join(' ')`) becomes one literal too.
 * `test/conventions.test.ts` fails on a split it would join. A literal that ends in `\n` is a deliberate line break
 * and stays split. Only a plain `'…'` or `` `…` `` literal next to another one is joined, and only where `+` means
 * concatenation of those two (not `x - 'a' + 'b'`, not `'a' + 'b'.length`).
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** A string or template literal of a source text: its kind and where it starts and ends (end exclusive). */
interface Literal {
  readonly kind: 'single' | 'double' | 'template';
  readonly start: number;
  readonly end: number;
  /** A template literal with `${…}`. */
  readonly substitutions: boolean;
}

/** Tokens after which a `/` starts a regular expression rather than a division. */
const REGEX_AFTER = new Set([...'(,=:[!&|?{};+-*%<>~^', 'return', 'typeof', 'case', 'of', 'in', '=>', '']);

/**
 * The string and template literals of a TypeScript source, outermost only (a literal inside a `${…}` is part of
 * its template). Comments and regular expressions are skipped.
 */
export function literalsOf(text: string): Literal[] {
  const out: Literal[] = [];
  let i = 0;
  let prev = '';
  const n = text.length;
  const skipString = (q: string): void => {
    i++;
    while (i < n && text[i] !== q) i += text[i] === '\\' ? 2 : 1;
    i++;
  };
  // Skips a template from its opening backtick; returns whether it has substitutions.
  const skipTemplate = (): boolean => {
    let subs = false;
    i++;
    while (i < n && text[i] !== '`') {
      if (text[i] === '\\') i += 2;
      else if (text[i] === '$' && text[i + 1] === '{') {
        subs = true;
        i += 2;
        skipCode('}');
        i++;
      } else i++;
    }
    i++;
    return subs;
  };
  // Skips code up to the closing `close` at depth 0 (for `${…}`), or to the end.
  function skipCode(close: string | null): void {
    let depth = 0;
    let last = '';
    while (i < n) {
      const c = text[i]!;
      if (close !== null && c === close && depth === 0) return;
      if (c === '{') depth++;
      else if (c === '}') depth--;
      if (c === "'" || c === '"') {
        skipString(c);
        last = 'lit';
      } else if (c === '`') {
        skipTemplate();
        last = 'lit';
      } else if (c === '/' && text[i + 1] === '/') while (i < n && text[i] !== '\n') i++;
      else if (c === '/' && text[i + 1] === '*') i = text.indexOf('*/', i + 2) < 0 ? n : text.indexOf('*/', i + 2) + 2;
      else if (c === '/' && REGEX_AFTER.has(last)) {
        i++;
        let cls = false;
        while (i < n && (text[i] !== '/' || cls) && text[i] !== '\n') {
          if (text[i] === '\\') i++;
          else if (text[i] === '[') cls = true;
          else if (text[i] === ']') cls = false;
          i++;
        }
        i++;
        while (i < n && /[a-z]/.test(text[i]!)) i++;
        last = 'lit';
      } else if (/\s/.test(c)) i++;
      else if (/[\w$]/.test(c)) {
        const m = /^[\w$]+/.exec(text.slice(i, i + 40))![0];
        i += m.length;
        last = m;
      } else {
        last = c === '>' && text[i - 1] === '=' ? '=>' : c;
        i++;
      }
    }
  }
  // The top level: like skipCode, but records every literal it meets.
  while (i < n) {
    const c = text[i]!;
    if (c === "'" || c === '"') {
      const start = i;
      skipString(c);
      out.push({ kind: c === "'" ? 'single' : 'double', start, end: i, substitutions: false });
      prev = 'lit';
    } else if (c === '`') {
      const start = i;
      const subs = skipTemplate();
      out.push({ kind: 'template', start, end: i, substitutions: subs });
      prev = 'lit';
    } else if (c === '/' && text[i + 1] === '/') while (i < n && text[i] !== '\n') i++;
    else if (c === '/' && text[i + 1] === '*') i = text.indexOf('*/', i + 2) < 0 ? n : text.indexOf('*/', i + 2) + 2;
    else if (c === '/' && REGEX_AFTER.has(prev)) {
      skipCodeRegex();
      prev = 'lit';
    } else if (/\s/.test(c)) i++;
    else if (/[\w$]/.test(c)) {
      const m = /^[\w$]+/.exec(text.slice(i, i + 40))![0];
      i += m.length;
      prev = m;
    } else {
      prev = c === '>' && text[i - 1] === '=' ? '=>' : c;
      i++;
    }
  }
  function skipCodeRegex(): void {
    i++;
    let cls = false;
    while (i < n && (text[i] !== '/' || cls) && text[i] !== '\n') {
      if (text[i] === '\\') i++;
      else if (text[i] === '[') cls = true;
      else if (text[i] === ']') cls = false;
      i++;
    }
    i++;
    while (i < n && /[a-z]/.test(text[i]!)) i++;
  }
  return out;
}

/** The raw text between a literal's delimiters. */
const inner = (text: string, l: Literal) => text.slice(l.start + 1, l.end - 1);

type Kind = Literal['kind'];

const QUOTE: Record<Kind, string> = { single: "'", double: '"', template: '`' };

/** A plain (single or double-quoted) literal's raw text, re-escaped for a literal of kind `to` with the same value. */
function reencode(raw: string, to: Kind): string {
  let out = '';
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i]!;
    if (c === '\\') {
      const d = raw[i + 1] ?? '';
      i++;
      out += d === "'" || d === '"' || d === '`' ? (d === QUOTE[to] ? `\\${d}` : d) : `\\${d}`;
    } else if (c === QUOTE[to]) out += `\\${c}`;
    else if (to === 'template' && c === '$' && raw[i + 1] === '{') out += '\\$';
    else out += c;
  }
  return out;
}

/** One literal with the value of `lits` joined by `sep` (a plain text without quotes or backslashes). */
function merge(text: string, lits: readonly Literal[], sep: string): string {
  const kinds = new Set(lits.map((l) => l.kind));
  const to: Kind = kinds.has('template') ? 'template' : kinds.size === 1 ? lits[0]!.kind : 'single';
  const raws = lits.map((l) =>
    l.kind === to || l.kind === 'template' ? inner(text, l) : reencode(inner(text, l), to),
  );
  return `${QUOTE[to]}${raws.join(sep)}${QUOTE[to]}`;
}

/** Whether the code before `at` (skipping blanks) lets `+` after the literal there bind to it first. */
function concatenatesLeft(text: string, at: number): boolean {
  const before = text.slice(Math.max(0, at - 20), at).replace(/\s+$/, '');
  if (before === '') return true;
  if (/[\w$)\]]$/.test(before) && !/\b(return|case|throw|of|in|await|yield)$/.test(before)) {
    // An identifier, call or index right before a template would make it a tagged template.
    return false;
  }
  return !/([-*/%!~]|\*\*|typeof|void|delete)$/.test(before) || /[-=]>$/.test(before);
}

/** Whether the code after `at` (skipping blanks) binds no tighter than `+` to the literal ending there. */
function concatenatesRight(text: string, at: number): boolean {
  const after = text.slice(at, at + 3).replace(/^[ \t]+/, '');
  return !/^([.[(`*/%]|\?\.)/.test(after);
}

/** A split the joiner would join: the 1-based line of its `+`. */
export interface SplitString {
  readonly line: number;
}

interface Pair {
  readonly a: Literal;
  readonly b: Literal;
}

function joinablePairs(text: string): Pair[] {
  const lits = literalsOf(text);
  const pairs: Pair[] = [];
  for (let k = 0; k + 1 < lits.length; k++) {
    const a = lits[k]!;
    const b = lits[k + 1]!;
    const between = text.slice(a.end, b.start);
    if (!/^\s*\+\s*$/.test(between)) continue;
    const rawA = inner(text, a);
    if (rawA.endsWith('\\n')) continue;
    if (!concatenatesLeft(text, a.start) || !concatenatesRight(text, b.end)) continue;
    pairs.push({ a, b });
  }
  return pairs;
}

/** An array of literals joined with a space (`['a sentence cut', 'in two'].join(' ')`): one text in pieces. */
interface ArrayJoin {
  readonly start: number;
  readonly end: number;
  readonly lits: readonly Literal[];
}

function arrayJoins(text: string): ArrayJoin[] {
  const lits = literalsOf(text);
  const out: ArrayJoin[] = [];
  for (let k = 0; k < lits.length; k++) {
    const open = /\[\s*$/.exec(text.slice(Math.max(0, lits[k]!.start - 200), lits[k]!.start));
    if (open === null) continue;
    const start = lits[k]!.start - open[0].length;
    // An index (`x['a']`) is not an array literal.
    if (/[\w$)\]]\s*$/.test(text.slice(Math.max(0, start - 40), start))) continue;
    let j = k;
    while (j + 1 < lits.length && /^\s*,\s*$/.test(text.slice(lits[j]!.end, lits[j + 1]!.start))) j++;
    const tail = /^\s*,?\s*\]\.join\((['"])( ?)\1\)/.exec(text.slice(lits[j]!.end, lits[j]!.end + 200));
    if (tail === null || tail[2] !== ' ' || j === k) {
      k = j;
      continue;
    }
    out.push({ start, end: lits[j]!.end + tail[0].length, lits: lits.slice(k, j + 1) });
    k = j;
  }
  return out;
}

/** The splits of `text` that {@link joinSplitStrings} would join. */
export function findSplitStrings(text: string): SplitString[] {
  const at = (offset: number) => ({ line: text.slice(0, offset).split('\n').length });
  return [...joinablePairs(text).map((p) => at(p.a.end)), ...arrayJoins(text).map((a) => at(a.start))].sort(
    (x, y) => x.line - y.line,
  );
}

/** `text` with every joinable split joined (repeated until none is left, so chains become one literal). */
export function joinSplitStrings(text: string): string {
  let cur = text;
  for (const a of arrayJoins(cur).reverse()) cur = cur.slice(0, a.start) + merge(cur, a.lits, ' ') + cur.slice(a.end);
  for (;;) {
    const pairs = joinablePairs(cur);
    if (pairs.length === 0) return cur;
    // Join non-overlapping pairs from the end, so earlier offsets stay valid.
    let out = cur;
    let lastStart = Number.POSITIVE_INFINITY;
    for (const { a, b } of [...pairs].reverse()) {
      if (b.end > lastStart) continue;
      out = out.slice(0, a.start) + merge(out, [a, b], '') + out.slice(b.end);
      lastStart = a.start;
    }
    cur = out;
  }
}

/** Every `.ts` file of the folders the project's sources live in, repository-relative. */
export function sourceFiles(root: string): string[] {
  const out: string[] = [];
  const walk = (rel: string): void => {
    for (const name of readdirSync(join(root, rel)).sort()) {
      const p = `${rel}/${name}`;
      if (statSync(join(root, p)).isDirectory()) walk(p);
      else if (p.endsWith('.ts') && !p.endsWith('.d.ts')) out.push(p);
    }
  };
  for (const dir of ['src', 'checks', 'test', 'scripts', 'bench']) walk(dir);
  return out;
}

const isMain = process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
  const files = process.argv.length > 2 ? process.argv.slice(2) : sourceFiles(root);
  for (const f of files) {
    const path = resolve(root, f);
    const text = readFileSync(path, 'utf8');
    const next = joinSplitStrings(text);
    if (next !== text) {
      writeFileSync(path, next);
      console.log(f);
    }
  }
}
