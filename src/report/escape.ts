/**
 * Escaping for text that comes from the cluster (stream messages, error text, names): it is untrusted.
 * A stream message may hold anything MySQL or a tablet wrote, including terminal escape sequences and
 * control characters that XML 1.0 forbids, so every reporter passes such text through these functions.
 */

/**
 * Replaces control characters (C0, DEL, C1), lone UTF-16 surrogates and the non-characters U+FFFE/U+FFFF
 * with visible escapes (`\n`, `\t`, `\r`, `\x1b`, `\ud800`, `\ufffe`), except the
 * characters listed in `keep`. The result cannot move a terminal's cursor, recolour it, or break XML 1.0.
 */
export function visibleControls(text: string, keep = ''): string {
  // One pass over code units: a well-formed surrogate pair is copied, a lone half is replaced.
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    const ch = text[i]!;
    if (code >= 0xd800 && code <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        out += ch + text[i + 1]!;
        i++;
      } else {
        out += `\\u${code.toString(16)}`;
      }
      continue;
    }
    if (code >= 0xdc00 && code <= 0xdfff) {
      out += `\\u${code.toString(16)}`;
      continue;
    }
    const isControl = code < 0x20 || (code >= 0x7f && code <= 0x9f);
    if (isControl && !keep.includes(ch)) {
      out += code === 0x0a ? '\\n' : code === 0x09 ? '\\t' : code === 0x0d ? '\\r' : `\\x${code.toString(16).padStart(2, '0')}`;
    } else if (code === 0xfffe || code === 0xffff) {
      out += `\\u${code.toString(16)}`;
    } else {
      out += ch;
    }
  }
  return out;
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
