/**
 * Reading a `--config FILE` (YAML or JSON) into a tree of values that remember their line, and checking its keys
 * against the config schema, so every problem is reported as `FILE:LINE: what is wrong (what to do)`.
 *
 * YAML is parsed with the `yaml` package (YAML 1.2, whose node ranges give exact lines); a `.json` file must also
 * be strict JSON (JSON.parse), then goes through the same YAML reader (JSON is YAML 1.2) to learn the lines.
 * Duplicate keys, several documents, and anchors that point nowhere are errors. Values are typed and checked by
 * `src/config/settings.ts`; this module checks the shape: known keys, maps where maps belong.
 */
import { readFileSync } from 'node:fs';
import { LineCounter, isAlias, isMap, isScalar, isSeq, parseDocument, type Document, type Node } from 'yaml';
import { UsageError } from '../errors.js';
import { oneLine, printable, stripBom } from '../text.js';
import { jsonErrorText } from '../secrets.js';

/** A config value with the line it is on (1-based; 0 when unknown). */
export interface Located<T = unknown> {
  readonly value: T;
  readonly line: number;
}

/** A leaf of the config file: its dotted path (`vtctld.tls.ca`), its plain JS value and its line. */
export interface ConfigEntry extends Located {
  readonly path: string;
  /** For a list value: the line of each item. */
  readonly itemLines?: readonly number[];
}

/** The loaded config file: leaves by dotted path (maps flattened, lists and `severities` kept whole). */
export interface ConfigFile {
  /** The path as given (used in messages). */
  readonly file: string;
  readonly entries: ReadonlyMap<string, ConfigEntry>;
}

/**
 * The shape of the config file: a nested map of known keys. `'leaf'` takes any value (checked later); `'map'` is
 * a map of free keys (check ids under `severities`), each stored as its own entry `severities.<key>`.
 */
export type Shape = { readonly [key: string]: Shape | 'leaf' | 'map' };

/** Levenshtein distance, for "did you mean". */
function distance(a: string, b: string): number {
  const prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let diag = prev[0]!;
    prev[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const up = prev[j]!;
      prev[j] = Math.min(
        up + 1,
        prev[j - 1]! + 1,
        diag + (a[i - 1]!.toLowerCase() === b[j - 1]!.toLowerCase() ? 0 : 1),
      );
      diag = up;
    }
  }
  return prev[b.length]!;
}

/** The closest known key to `key`, when it is close enough to be a typo. */
export function suggest(key: string, known: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestD = Infinity;
  for (const k of known) {
    const d = distance(key, k);
    if (d < bestD) [best, bestD] = [k, d];
  }
  return best !== undefined && bestD <= Math.max(1, Math.floor(best.length / 3)) ? best : undefined;
}

/** Reads and checks `file` against `shape`; throws a one-line UsageError naming the file and line. */
export function loadConfigFile(file: string, shape: Shape): ConfigFile {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new UsageError(`cannot read --config ${printable(file, 200)}: ${code ?? printable(oneLine(e))}`);
  }
  return parseConfigText(file, text, shape);
}

/** {@link loadConfigFile} on text already read (for tests and for `config print`). */
export function parseConfigText(shownFile: string, rawText: string, shape: Shape): ConfigFile {
  // Names and text from the file are printed escaped (no terminal escapes, no raw control characters), and a UTF-8
  // byte-order mark is accepted (JSON.parse refuses one).
  const file = printable(shownFile, 200);
  const text = stripBom(rawText);
  const lc = new LineCounter();
  const lineOf = (offset: number | undefined): number => (offset === undefined ? 0 : lc.linePos(offset).line);
  if (/\.json$/i.test(file)) {
    try {
      JSON.parse(text);
    } catch (e) {
      const msg = oneLine(e);
      const at = /position (\d+)/.exec(msg);
      const line = at ? text.slice(0, Number(at[1])).split('\n').length : 1;
      throw new UsageError(
        // Never the text JSON.parse quotes around the error: it may be a password.
        `${file}:${line}: not valid JSON: ${printable(jsonErrorText(e))}`,
      );
    }
  }
  const doc: Document = parseDocument(text, { lineCounter: lc, uniqueKeys: true, prettyErrors: true, merge: false });
  const err = doc.errors[0];
  if (err) {
    const line = err.linePos?.[0]?.line ?? 1;
    const what = (err.message.split('\n')[0] ?? '').replace(/ at line \d+, column \d+:?$/, '');
    throw new UsageError(`${file}:${line}: not valid YAML: ${printable(what)}`);
  }
  const entries = new Map<string, ConfigEntry>();
  const root = doc.contents;
  // An empty file.
  if (root === null || (isScalar(root) && (root.value === null || root.value === ''))) return { file, entries };
  const resolve = (n: unknown): unknown => (isAlias(n) ? n.resolve(doc) : n);

  const walk = (node: Node, at: Shape, prefix: string): void => {
    const line = lineOf(node.range?.[0]);
    if (!isMap(node)) {
      throw new UsageError(
        `${file}:${line}: ${prefix === '' ? 'the config' : prefix} must be a map of keys (${Object.keys(at).join(', ')})`,
      );
    }
    for (const pair of node.items) {
      const keyNode = pair.key as Node | null;
      const keyLine = lineOf(keyNode?.range?.[0]);
      const key = isScalar(keyNode) ? String(keyNode.value) : null;
      if (key === null) throw new UsageError(`${file}:${keyLine}: keys must be plain names`);
      const path = prefix === '' ? printable(key, 80) : `${prefix}.${printable(key, 80)}`;
      const sub = Object.hasOwn(at, key) ? at[key] : undefined;
      if (sub === undefined) {
        const hint = suggest(key, Object.keys(at));
        throw new UsageError(
          `${file}:${keyLine}: unknown key "${path}"` +
            (hint
              ? ` (did you mean "${prefix === '' ? hint : `${prefix}.${hint}`}"?)`
              : ` (known keys${prefix === '' ? '' : ` of ${prefix}`}: ${Object.keys(at).join(', ')})`),
        );
      }
      const valueNode = resolve(pair.value) as Node | null;
      if (sub === 'leaf') {
        const value = valueNode === null ? null : (valueNode as Node).toJSON();
        const itemLines = isSeq(valueNode)
          ? valueNode.items.map((i) => lineOf((resolve(i) as Node | null)?.range?.[0]) || keyLine)
          : undefined;
        entries.set(path, {
          path,
          value,
          line: valueNode?.range ? lineOf(valueNode.range[0]) : keyLine,
          ...(itemLines ? { itemLines } : {}),
        });
      } else if (sub === 'map') {
        if (valueNode === null || (isScalar(valueNode) && valueNode.value === null)) continue;
        if (!isMap(valueNode))
          throw new UsageError(
            `${file}:${keyLine}: ${path} must be a map of check ids to levels (e.g. ${path}: {replication-lag: warning})`,
          );
        for (const item of valueNode.items) {
          const k = item.key as Node | null;
          const kLine = lineOf(k?.range?.[0]);
          if (!isScalar(k)) throw new UsageError(`${file}:${kLine}: keys must be plain names`);
          const v = resolve(item.value) as Node | null;
          entries.set(`${path}.${String(k.value)}`, {
            path: `${path}.${String(k.value)}`,
            value: v === null ? null : v.toJSON(),
            line: kLine,
          });
        }
      } else if (valueNode === null || (isScalar(valueNode) && valueNode.value === null)) {
      } else {
        walk(valueNode, sub, path);
      }
    }
  };
  if (isSeq(root) || isScalar(root))
    throw new UsageError(
      `${file}:${lineOf(root.range?.[0])}: the config must be a map of keys (${Object.keys(shape).join(', ')})`,
    );
  walk(root as Node, shape, '');
  return { file, entries };
}
