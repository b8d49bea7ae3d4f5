/**
 * `JSON.stringify` of a string, with the characters it leaves as they are but a terminal or a log line would not: DEL,
 * the C1 controls and the line and paragraph separators (U+2028, U+2029) become `\uXXXX` escapes too.
 */
export function quoteText(text: string): string {
  return JSON.stringify(text).replace(
    /[\u007f-\u009f\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
