/**
 * A streaming `JSON.stringify(value, replacer, indent)`: the same bytes, handed to `emit` in chunks of about
 * {@link CHUNK} characters instead of built as one string (the JSON report of a 256×256 Materialize is ~27 MB, and one
 * string of it doubled the CLI's peak memory).
 *
 * It follows the ECMAScript SerializeJSONProperty steps: `toJSON(key)` then the replacer (called with the holder as
 * `this`), wrapper objects unwrapped, own enumerable string keys in `Object.keys` order, undefined/function/symbol
 * values left out of objects and written `null` in arrays, non-finite numbers `null`, a bigint the replacer did not
 * convert a TypeError, a cycle a TypeError. Strings, keys and numbers are written by `JSON.stringify` itself, so their
 * escapes (control characters, lone surrogates) and number forms (`-0` → `0`, `1e+21`) are its own.
 */

type Replacer = (this: unknown, key: string, value: unknown) => unknown;

/** About how many characters each emitted chunk holds (the last may hold fewer). */
export const CHUNK = 1 << 16;

/** Options of {@link streamJson}. */
export interface StreamJsonOptions {
  /**
   * Values this deep (the top value is at depth 0, its members at 1) are written by `JSON.stringify` itself, an
   * array's elements in batches of {@link NATIVE_BATCH}, and re-indented: several times faster than walking them here.
   * Only for a replacer that returns every value but a bigint unchanged and reads neither its key nor its holder (such
   * as `bigintAsString`; it is then called only where a bigint is), and `toJSON` methods that do not read their key.
   * Absent: every container is walked here.
   */
  readonly nativeDepth?: number;
}

/** Array elements written per `JSON.stringify` call below {@link StreamJsonOptions.nativeDepth}. */
export const NATIVE_BATCH = 256;

/**
 * Writes `value` as `JSON.stringify(value, replacer, indent)` would, in chunks, to `emit`. Returns false (and emits
 * nothing) when JSON.stringify would return undefined (a top-level undefined, function or symbol).
 */
export function streamJson(
  value: unknown,
  replacer: Replacer | undefined,
  indent: number,
  emit: (chunk: string) => void,
  opts: StreamJsonOptions = {},
): boolean {
  const nativeDepth = opts.nativeDepth ?? Number.POSITIVE_INFINITY;
  const gap = ' '.repeat(Math.min(10, Math.max(0, Math.floor(indent))));
  const stack: object[] = [];
  let parts: string[] = [];
  let size = 0;
  const put = (s: string) => {
    parts.push(s);
    size += s.length;
    if (size >= CHUNK) {
      emit(parts.join(''));
      parts = [];
      size = 0;
    }
  };

  /** The value SerializeJSONProperty would write for `holder[key]`, or undefined when it writes nothing. */
  const resolve = (holder: unknown, key: string, v: unknown): unknown => {
    if ((typeof v === 'object' && v !== null) || typeof v === 'bigint') {
      const toJSON = (v as { toJSON?: unknown }).toJSON;
      if (typeof toJSON === 'function') v = toJSON.call(v, key);
    }
    if (replacer !== undefined) v = replacer.call(holder, key, v);
    if (typeof v === 'object' && v !== null) {
      if (v instanceof Number) v = Number(v);
      else if (v instanceof String) v = String(v);
      else if (v instanceof Boolean) v = v.valueOf();
      else if (typeof BigInt === 'function' && v instanceof BigInt) v = v.valueOf();
    }
    return v;
  };

  /**
   * JSON.stringify of a container, without calling the replacer unless it holds a bigint (then again with it): see
   * {@link StreamJsonOptions.nativeDepth}. A cycle throws TypeError either way.
   */
  const native = (x: object): string => {
    try {
      return JSON.stringify(x, undefined, gap);
    } catch (e) {
      if (replacer === undefined || !(e instanceof TypeError)) throw e;
      return JSON.stringify(x, replacer, gap);
    }
  };
  /**
   * JSON.stringify's text of `x` as written at `depth` (indentation `gap` × depth), without re-indenting it: `x`
   * goes in `depth` arrays, which JSON.stringify indents, and their brackets are cut off again. With `inner`, the
   * brackets of `x` (an array) too: its elements' texts joined as they are written at depth + 1.
   */
  const nativeAt = (x: object, depth: number, inner = false): string => {
    let w: unknown = x;
    for (let k = 0; k < depth; k++) w = [w];
    const text = native(w as object);
    const n = inner ? depth + 1 : depth;
    const nl = gap === '' ? 0 : 1;
    // `[` + newline + gap × k for k = 1 … n in front; newline + gap × k + `]` for k = n - 1 … 0 behind.
    const front = n * (1 + nl) + (gap.length * n * (n + 1)) / 2;
    const back = n * (1 + nl) + (gap.length * n * (n - 1)) / 2;
    return text.slice(front, text.length - back);
  };

  /** Writes a resolved value; false when it is one JSON leaves out (undefined, function, symbol). */
  const write = (v: unknown, indentation: string): boolean => {
    if (typeof v === 'object' && v !== null && stack.length >= nativeDepth) {
      if (stack.includes(v)) throw new TypeError('Converting circular structure to JSON');
      put(nativeAt(v, stack.length));
      return true;
    }
    switch (typeof v) {
      case 'string':
      case 'number':
      case 'boolean':
        put(JSON.stringify(v));
        return true;
      case 'bigint':
        throw new TypeError('Do not know how to serialize a BigInt');
      case 'undefined':
      case 'function':
      case 'symbol':
        return false;
    }
    if (v === null) {
      put('null');
      return true;
    }
    const o = v as object;
    if (stack.includes(o)) throw new TypeError('Converting circular structure to JSON');
    stack.push(o);
    const inner = indentation + gap;
    const sep = gap === '' ? ',' : `,\n${inner}`;
    const open = gap === '' ? '' : `\n${inner}`;
    const close = gap === '' ? '' : `\n${indentation}`;
    if (Array.isArray(o)) {
      const len = o.length;
      if (len === 0) put('[]');
      else if (stack.length >= nativeDepth) {
        // The elements are deep enough: a batch of them at a time, as JSON.stringify writes the batch's array without
        // its brackets (`[` + open … close + `]` once re-indented).
        put(`[${open}`);
        for (let i = 0; i < len; i += NATIVE_BATCH) {
          if (i > 0) put(sep);
          put(nativeAt(o.slice(i, i + NATIVE_BATCH), stack.length - 1, true));
        }
        put(`${close}]`);
      } else {
        put(`[${open}`);
        for (let i = 0; i < len; i++) {
          if (i > 0) put(sep);
          if (!write(resolve(o, String(i), o[i]), inner)) put('null');
        }
        put(`${close}]`);
      }
    } else {
      let first = true;
      const colon = gap === '' ? ':' : ': ';
      for (const k of Object.keys(o)) {
        const item = resolve(o, k, (o as Record<string, unknown>)[k]);
        const t = typeof item;
        if (t === 'undefined' || t === 'function' || t === 'symbol') continue;
        put(first ? `{${open}` : sep);
        first = false;
        put(JSON.stringify(k) + colon);
        write(item, inner);
      }
      put(first ? '{}' : `${close}}`);
    }
    stack.pop();
    return true;
  };

  const top = resolve({ '': value }, '', value);
  if (!write(top, '')) return false;
  if (size > 0) emit(parts.join(''));
  return true;
}
