/**
 * The stream migrator's templating of the streams it moves to the new shards of a Reshard: each rule's filter gets
 * its key range replaced by `{{.}}` so that one template can be filled in per target shard. Some filters cannot be
 * templated, and then SwitchTraffic fails after the reads were switched (`failed to migrate the workflow streams: …`).
 *
 * Upstream: `vitessio/vitess:go/vt/vtctl/workflow/stream_migrator.go` `templatize`, `templatizeRule` and
 * `templatizeKeyRange` (`vitessio/vitess` main at b3666b2d, lines 1122–1200; the same logic
 * since v16 in the stored copy read for this module). Per rule of a migrated (non-reference) stream:
 * - `rule.Filter == ""` ⇒ `rule %v does not have a select expression in vreplication`;
 * - a key range (`-80`) ⇒ fine; `exclude` ⇒ `unexpected rule in vreplication: %v`;
 * - otherwise the filter must parse as a SELECT (`unexpected query: %v`); in its WHERE, the AND-ed
 *   `in_keyrange(…)` calls are looked at: one with 1 or 3 arguments whose last one is a literal is templated, any
 *   other `in_keyrange` ⇒ `unexpected in_keyrange parameters: %v`; a templated filter containing `{{` ⇒
 *   `cannot migrate queries that contain '{{' in their string: %s`.
 * The mix of reference and sharded rules that `templatize` also refuses cannot reach it: `readTabletStreams` runs
 * `blsIsReference` on every row first and refuses the mix there (`src/model/stream-migrator.ts` `classifyRules`).
 *
 * `%v` of a rule is Go's prototext, whose whitespace protobuf-go randomizes on purpose; we print it with single
 * spaces (`match:"t1" filter:"exclude"`). A filter that sqlparser itself rejects fails with the parser's own error,
 * which we do not reproduce (reason `unparsableFilter`, no Vitess text).
 */
import type { Stream } from './types.js';

/** Why a rule cannot be templated. */
export type TemplateProblemReason =
  | 'noSelectExpression'
  | 'excludeRule'
  | 'notASelect'
  | 'unparsableFilter'
  | 'inKeyrangeParameters'
  | 'braceInQuery';

export interface TemplateProblem {
  readonly reason: TemplateProblemReason;
  /** The rule's `match`. */
  readonly table: string;
  readonly filter: string;
  /** Vitess's error (before the `failed to migrate the workflow streams: ` wrap), null when not reproducible. */
  readonly vitessError: string | null;
}

const KEY_RANGE = /^[0-9a-fA-F]*-[0-9a-fA-F]*$/;

/** Go prototext of a `binlogdata.Rule` with the fields we know, single-spaced. */
function ruleText(match: string, filter: string): string {
  const q = (s: string) => JSON.stringify(s);
  return filter === '' ? `match:${q(match)}` : `match:${q(match)} filter:${q(filter)}`;
}

/** Splits `text` at top-level occurrences of `sep` (outside quotes and parentheses). */
function splitTopLevel(text: string, sep: RegExp): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quote: string | null = null;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quote !== null) {
      if (ch === '\\') i++;
      else if (ch === quote) quote = null;
      continue;
    }
    if (ch === "'" || ch === '"' || ch === '`') quote = ch;
    else if (ch === '(') depth++;
    else if (ch === ')') depth--;
    else if (depth === 0) {
      sep.lastIndex = i;
      const m = sep.exec(text);
      if (m !== null && m.index === i) {
        parts.push(text.slice(start, i));
        start = i + m[0].length;
        i = start - 1;
      }
    }
  }
  parts.push(text.slice(start));
  return parts;
}

/** The WHERE clause of a simple SELECT (up to GROUP BY / ORDER BY / LIMIT at top level), or null when none. */
function whereClause(select: string): string | null {
  const parts = splitTopLevel(select, /\swhere\s/iy);
  if (parts.length < 2) return null;
  const rest = parts.slice(1).join(' where ');
  return splitTopLevel(rest, /\s(group\s+by|order\s+by|limit|having)\s/iy)[0] ?? '';
}

const LITERAL = /^(?:'(?:[^'\\]|\\.|'')*'|"(?:[^"\\]|\\.|"")*"|[+-]?\d+(?:\.\d+)?|0x[0-9a-fA-F]+|x'[0-9a-fA-F]*')$/i;

/** The problem Vitess's `templatizeRule` has with one rule, or null when it templates it. */
export function templateProblem(match: string, filter: string): TemplateProblem | null {
  const at = { table: match, filter };
  if (filter === '')
    return {
      reason: 'noSelectExpression',
      ...at,
      vitessError: `rule ${ruleText(match, filter)} does not have a select expression in vreplication`,
    };
  if (KEY_RANGE.test(filter)) return null;
  if (filter === 'exclude')
    return { reason: 'excludeRule', ...at, vitessError: `unexpected rule in vreplication: ${ruleText(match, filter)}` };
  const text = filter.trim().replace(/^\/\*.*?\*\/\s*/s, '');
  if (!/^select\s/i.test(text)) {
    // sqlparser parses other statements (and refuses garbage with its own error); a non-SELECT is refused here.
    return /^(insert|update|delete|replace|show|set|create|alter|drop|with|\()/i.test(text)
      ? { reason: 'notASelect', ...at, vitessError: `unexpected query: ${filter}` }
      : { reason: 'unparsableFilter', ...at, vitessError: null };
  }
  const where = whereClause(text);
  for (const conjunct of where === null ? [] : splitTopLevel(where, /\sand\s/iy)) {
    const m = /^\s*in_keyrange\s*\(([\s\S]*)\)\s*$/i.exec(conjunct);
    if (m === null) continue;
    const args = splitTopLevel(m[1]!, /,/y).map((a) => a.trim());
    const last = args.length === 1 ? args[0]! : args.length === 3 ? args[2]! : null;
    if (last === null || !LITERAL.test(last))
      return {
        reason: 'inKeyrangeParameters',
        ...at,
        vitessError: `unexpected in_keyrange parameters: in_keyrange(${args.join(', ')})`,
      };
    if (filter.includes('{{'))
      return {
        reason: 'braceInQuery',
        ...at,
        vitessError: `cannot migrate queries that contain '{{' in their string: ${filter}`,
      };
    return null;
  }
  // No in_keyrange: Vitess adds one from the table's first vindex.
  return null;
}

/** The first rule of a stream Vitess cannot template (rules in order, as `templatize` walks them), or null. */
export function streamTemplateProblem(s: Stream): TemplateProblem | null {
  for (const rule of s.source?.filter?.rules ?? []) {
    const p = templateProblem(rule.match, rule.filter);
    if (p !== null) return p;
  }
  return null;
}
