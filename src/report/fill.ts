/**
 * Fills a check's remediation placeholders (`<keyspace>`, `<workflow>`, `<shard>`, `<tablet>`) with the real names
 * when every finding it applies to agrees on them, so the command can be pasted as is. Placeholders stay when the
 * findings name several objects: a wrong name is worse than a placeholder.
 */
import type { Finding } from '../engine/check.js';

const FIELDS: readonly [placeholder: RegExp, pick: (f: Finding) => string | undefined][] = [
  [/<keyspace>/g, (f) => f.keyspace],
  [/<workflow>/g, (f) => f.workflow],
  [/<shard>/g, (f) => f.shard],
  [/<(tablet|tablet alias|alias)>/g, (f) => f.tablet],
];

/** The remediation with every placeholder the findings agree on replaced by that value. */
export function fillRemediation(text: string, findings: readonly Finding[]): string {
  let out = text;
  for (const [re, pick] of FIELDS) {
    const values = new Set(findings.map(pick));
    const only = values.size === 1 ? [...values][0] : undefined;
    if (only !== undefined && only !== '') out = out.replace(re, only);
  }
  return out;
}
