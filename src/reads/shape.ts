/**
 * A small shape checker for JSON read from files (snapshots): each checker returns the first problem as
 * `<json path>: expected <what>` (e.g. `topology.tablets.value: expected an array`), or null. A malformed file is
 * rejected naming the place that is wrong, never read as "no tablets" or "no streams".
 */
import { READ_ERROR_KINDS } from '../readout.js';

/** Returns the first problem of `v` at `path`, or null. */
export type Shape = (v: unknown, path: string) => string | null;

const join = (path: string, key: string | number): string =>
  typeof key === 'number'
    ? `${path}[${key}]`
    : /^[A-Za-z_$][\w$]*$/.test(key)
      ? path === ''
        ? key
        : `${path}.${key}`
      : `${path}[${JSON.stringify(key)}]`;

const at = (path: string): string => path || '(top level)';
const expected = (path: string, what: string): string => `${at(path)}: expected ${what}`;

export const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

export const str: Shape = (v, p) => (typeof v === 'string' ? null : expected(p, 'a string'));
export const num: Shape = (v, p) => (typeof v === 'number' && Number.isFinite(v) ? null : expected(p, 'a number'));
export const bool: Shape = (v, p) => (typeof v === 'boolean' ? null : expected(p, 'true or false'));
export const any: Shape = () => null;

/** `null` or what `inner` accepts. */
export const nullable =
  (inner: Shape): Shape =>
  (v, p) =>
    v === null ? null : inner(v, p);

/** A literal value. */
export const literal =
  (want: unknown, what = JSON.stringify(want)): Shape =>
  (v, p) =>
    v === want ? null : expected(p, what);

/** An array whose every element `item` accepts. */
export const arr =
  (item: Shape): Shape =>
  (v, p) => {
    if (!Array.isArray(v)) return expected(p, 'an array');
    for (let i = 0; i < v.length; i += 1) {
      const problem = item(v[i], join(p, i));
      if (problem !== null) return problem;
    }
    return null;
  };

/** An object with these fields (`optional` ones may be absent; other keys are allowed and not checked). */
export const obj =
  (fields: Readonly<Record<string, Shape>>, optional: Readonly<Record<string, Shape>> = {}): Shape =>
  (v, p) => {
    if (!isObject(v)) return expected(p, 'an object');
    for (const [k, shape] of Object.entries(fields)) {
      if (!(k in v)) return `${at(join(p, k))}: missing`;
      const problem = shape(v[k], join(p, k));
      if (problem !== null) return problem;
    }
    for (const [k, shape] of Object.entries(optional)) {
      if (!(k in v) || v[k] === undefined) continue;
      const problem = shape(v[k], join(p, k));
      if (problem !== null) return problem;
    }
    return null;
  };

/** An object used as a map: every value `value` accepts. */
export const record =
  (value: Shape): Shape =>
  (v, p) => {
    if (!isObject(v)) return expected(p, 'an object');
    for (const [k, x] of Object.entries(v)) {
      const problem = value(x, join(p, k));
      if (problem !== null) return problem;
    }
    return null;
  };

/** One of `values`. */
export const oneOf =
  (values: readonly string[]): Shape =>
  (v, p) =>
    typeof v === 'string' && values.includes(v) ? null : expected(p, `one of ${values.join(', ')}`);

// `kind` is optional: readouts written before it existed are read as they are (the model derives it).
const readError = obj({ what: str, where: str, reason: str }, { timedOut: bool, kind: oneOf(READ_ERROR_KINDS) });

/** A `Read<T>` of the readout: `{ ok: true, value }` with `value` as `inner` wants, or `{ ok: false, error }`. */
export const read =
  (inner: Shape): Shape =>
  (v, p) => {
    if (!isObject(v)) return expected(p, 'a read result (an object with "ok")');
    if (v.ok === true) return 'value' in v ? inner(v.value, join(p, 'value')) : `${at(join(p, 'value'))}: missing`;
    if (v.ok === false) return readError(v.error, join(p, 'error'));
    return expected(join(p, 'ok'), 'true or false');
  };

export { printable, stripBom } from '../text.js';
