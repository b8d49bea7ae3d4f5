/**
 * Fills a check's remediation placeholders with the names its findings already know, so that the report carries the
 * command to type, not a template. The runner stores the result in `checks[].remediation`; every reporter (text,
 * markdown, HTML, JUnit, JSON) shows that one text.
 *
 * A placeholder is filled only when every finding of the check that knows a value agrees on it, and no finding that
 * could know it lacks it: a wrong name is worse than a placeholder. Values are quoted for a POSIX shell when they
 * hold anything but the characters Vitess names are usually made of, so a filled command is safe to paste.
 */
import type { Finding } from './check.js';

type Pick = (f: Finding) => string | undefined;

const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
const detail = (f: Finding, key: string) => str((f.details as Record<string, unknown>)[key]);

/** The one other workflow a finding names in its `lacks`/`extra` lists (stream-set-mismatch), if exactly one. */
function otherWorkflow(f: Finding): string | undefined {
  const named = detail(f, 'streamWorkflow') ?? detail(f, 'otherWorkflow');
  if (named !== undefined) return named !== f.workflow ? named : undefined;
  const d = f.details as Record<string, unknown>;
  const names = new Set<string>();
  for (const list of [d.lacks, d.extra])
    if (Array.isArray(list))
      for (const e of list) {
        const w = str((e as Record<string, unknown> | null)?.workflow);
        if (w !== undefined) names.add(w);
      }
  return names.size === 1 ? [...names][0] : undefined;
}

/**
 * A tablet placeholder: the source tablet when the finding is about a source (it names a source shard), else the
 * finding's own tablet. A finding about a source that does not know which tablet leaves the placeholder.
 */
function tabletOf(f: Finding): string | undefined {
  const source = detail(f, 'sourceTablet');
  if (source !== undefined) return source;
  return detail(f, 'sourceShard') !== undefined ? undefined : f.tablet;
}

/** Placeholders and where a finding keeps their value. */
const FIELDS: readonly [placeholder: RegExp, pick: Pick][] = [
  [/<keyspace>/g, (f) => f.keyspace],
  [/<(workflow|reshard)>/g, (f) => f.workflow],
  [/<stream workflow>/g, (f) => detail(f, 'streamWorkflow') ?? f.workflow],
  [/<other workflow>/g, otherWorkflow],
  [/<shard>/g, (f) => f.shard],
  [/<source keyspace>/g, (f) => detail(f, 'sourceKeyspace')],
  [/<source shard>/g, (f) => detail(f, 'sourceShard')],
  [/<source primary>/g, (f) => detail(f, 'sourcePrimary') ?? detail(f, 'sourceTablet')],
  [/<(tablet|tablet alias|alias)>/g, tabletOf],
];

/** Characters that need no quoting in a POSIX shell word (and cover Vitess's keyspace, shard and alias names). */
const SHELL_SAFE = /^[A-Za-z0-9_.,:/@%+=-]+$/;

/** `value` as one shell word: as is when safe, else single-quoted (a `'` inside becomes `'\''`). */
export function shellWord(value: string): string {
  return SHELL_SAFE.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
}

/** The remediation with every placeholder the findings agree on replaced by that value, shell-quoted. */
export function fillRemediation(text: string, findings: readonly Finding[]): string {
  let out = text;
  for (const [re, pick] of FIELDS) {
    const values = new Set(findings.map(pick));
    const only = values.size === 1 ? [...values][0] : undefined;
    if (only !== undefined) out = out.replace(re, shellWord(only));
  }
  return out;
}
