/**
 * Go's `fmt.Sprintf` for the verbs Vitess's error templates use (`%s`, `%d`, `%v`, `%q`, `%%`), with strings,
 * integers and slices of them as arguments: what `vterrors.Errorf(code, template, args...)` prints.
 *
 * As Go prints them: `%s`/`%v` of a string is the string, `%d`/`%v` of an integer its decimal form, `%q` of a string
 * `strconv.Quote`, and a slice is `[` its elements formatted with the same verb, separated by spaces, `]`
 * (`[a b]`; a list Vitess joins itself, `strings.Join(tables, ",")`, is a string argument). Flags, widths and
 * precisions are not used by any template and are refused, as is an argument count that does not match the verbs.
 */

/** An argument of a Go format: a string, an integer, or a slice of them. */
export type GoArg = string | number | readonly (string | number)[];

const VERB = /%(.)/gs;

/** The number of arguments `template` consumes (`%%` consumes none). */
export function goVerbCount(template: string): number {
  let n = 0;
  for (const m of template.matchAll(VERB)) if (m[1] !== '%') n++;
  return n;
}

/** `template` with `args` in place of its verbs, as Go's `fmt.Sprintf` prints them; throws on a mismatch. */
export function goSprintf(template: string, args: readonly GoArg[]): string {
  const count = goVerbCount(template);
  if (count !== args.length)
    throw new Error(`format ${JSON.stringify(template)} takes ${count} arguments, given ${args.length}`);
  let i = 0;
  return template.replace(VERB, (_m, verb: string) => (verb === '%' ? '%' : formatArg(verb, args[i++]!)));
}

function formatArg(verb: string, arg: GoArg): string {
  if (typeof arg === 'object') return `[${arg.map((a) => formatArg(verb, a)).join(' ')}]`;
  switch (verb) {
    case 's':
    case 'v':
      return String(arg);
    case 'd':
      // An integer, or one already in decimal form (an int64 beyond a double's safe range, e.g. `lagText`).
      if (typeof arg === 'number' ? !Number.isInteger(arg) : !/^-?[0-9]+$/.test(arg))
        throw new Error(`%d of a non-integer: ${String(arg)}`);
      return String(arg);
    case 'q':
      return typeof arg === 'number' ? `'${String.fromCodePoint(arg)}'` : goQuote(arg);
    default:
      throw new Error(`unsupported format verb %${verb}`);
  }
}

const ESCAPES: Readonly<Record<string, string>> = {
  '\u0007': '\\a',
  '\b': '\\b',
  '\f': '\\f',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
  '\u000b': '\\v',
  '\\': '\\\\',
  '"': '\\"',
};

/** Go's `strconv.Quote` of a valid UTF-8 string: printable characters as they are, others escaped. */
export function goQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const esc = ESCAPES[ch];
    if (esc !== undefined) out += esc;
    else if (/[\p{L}\p{M}\p{N}\p{P}\p{S}\u0020]/u.test(ch)) out += ch;
    else {
      const cp = ch.codePointAt(0)!;
      out +=
        cp < 0x80
          ? `\\x${cp.toString(16).padStart(2, '0')}`
          : cp < 0x10000
            ? `\\u${cp.toString(16).padStart(4, '0')}`
            : `\\U${cp.toString(16).padStart(8, '0')}`;
    }
  }
  return `${out}"`;
}
