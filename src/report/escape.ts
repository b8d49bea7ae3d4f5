/**
 * Escaping for text that comes from the cluster (stream messages, error text, names): it is untrusted.
 * A stream message may hold anything MySQL or a tablet wrote, including terminal escape sequences and
 * control characters that XML 1.0 forbids, so every reporter passes such text through these functions.
 */

// Control characters (C0, DEL, C1), the non-characters U+FFFE/U+FFFF, and UTF-16 surrogates that are not
// part of a pair.
const UNSAFE =
  /[\u0000-\u001f\u007f-\u009f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
const NAMED: Readonly<Record<string, string>> = { '\n': '\\n', '\t': '\\t', '\r': '\\r' };

/**
 * Replaces control characters (C0, DEL, C1), lone UTF-16 surrogates and the non-characters U+FFFE/U+FFFF
 * with visible escapes (`\n`, `\t`, `\r`, `\x1b`, `\ud800`, `\ufffe`), except the characters listed in
 * `keep`. The result cannot move a terminal's cursor, recolour it, or break XML 1.0.
 */
export function visibleControls(text: string, keep = ''): string {
  return text.replace(UNSAFE, (ch) => {
    if (keep.includes(ch)) return ch;
    const code = ch.charCodeAt(0);
    return NAMED[ch] ?? (code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16)}`);
  });
}

/** Escapes text content for XML 1.0: controls made visible (tab and newline kept), then `&`, `<`, `>`. */
export function xmlText(text: string): string {
  return visibleControls(text, '\t\n').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * Escapes an XML 1.0 attribute value (double-quoted): controls made visible, then `& < > "` and `'`;
 * tab and newline become character references so that attribute-value normalisation keeps them.
 */
export function xmlAttr(text: string): string {
  return visibleControls(text, '\t\n')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;')
    .replace(/\n/g, '&#10;')
    .replace(/\t/g, '&#9;');
}

/**
 * Escapes text for inline Markdown (GitHub Flavored Markdown, CommonMark) so that it renders literally:
 * controls made visible; backslash, backtick, `*`, `_`, brackets, angle brackets, `~` and `&` (the characters
 * that can start markup, links, HTML or entities) backslash-escaped; `|` escaped for tables; newlines turned
 * into `<br>` so that a table cell stays one row.
 */
export function markdownInline(text: string): string {
  return visibleControls(text, '\n')
    .replace(/[\\`*_[\]<>|~&]/g, (c) => `\\${c}`)
    .replace(/\n/g, '<br>');
}

/** C1 control characters (U+0080–U+009F), which JSON.stringify leaves raw. */
const C1 = /[\u0080-\u009f]/g;

/**
 * Serialised JSON with every C1 control character written as a `\u00XX` escape: the same JSON value, but no raw
 * C1 byte for a terminal (U+009B is CSI) or a log viewer to act on. Valid on any chunk of JSON text, since outside
 * strings JSON is ASCII.
 */
export function escapeC1InJson(json: string): string {
  return json.replace(C1, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
