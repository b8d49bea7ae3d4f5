/**
 * Protocol Buffers text format ("prototext"): a tokenizer, a schema-free parser into a value tree, a
 * schema-driven decoder, and a single-line encoder.
 *
 * Vitess stores `_vt.vreplication.source` (a `binlogdata.BinlogSource`) and other sidecar values in this
 * format, written by Go's `prototext.Marshal` (or, in rows created before ~v10, golang/protobuf v1's
 * `<…>` spelling) and read back with `prototext.Unmarshal`. The grammar here follows protobuf-go's
 * reader, `protocolbuffers/protobuf-go:internal/encoding/text/decode.go` (`Decoder.parseNext`,
 * `parseFieldName`, `parseTypeName`, `parseScalar`), `decode_string.go` (`parseString`) and
 * `decode_number.go` (`parseNumber`), and its field rules follow
 * `protocolbuffers/protobuf-go:encoding/prototext/decode.go` (`unmarshalMessage`, `unmarshalScalar`,
 * `unmarshalList`, `unmarshalMap`). Where this module deliberately differs from Go it says so: unknown
 * fields are skipped and reported instead of failing, and nesting is bounded.
 *
 * Every function runs in time linear in the input, never recurses deeper than {@link MAX_DEPTH}
 * messages, and reports bad input by throwing a {@link PrototextError} whose message is one line:
 * `invalid <what> at character <n>: <detail>`, with `n` a 1-based index into the JavaScript string.
 */

/** Deepest message nesting accepted, to keep recursion (and stack use) bounded. */
export const MAX_DEPTH = 100;

/** A bad-input error from this module. `offset` is the 0-based index into the input string. */
export class PrototextError extends Error {
  readonly offset: number;
  constructor(what: string, offset: number, detail: string) {
    super(`invalid ${what} at character ${offset + 1}: ${detail}`);
    this.name = 'PrototextError';
    this.offset = offset;
  }
}

// ------------------------------------------------------------------------------------------------
// Value tree

/** A string literal (adjacent literals already joined), decoded to raw bytes. */
export interface TextString {
  readonly kind: 'string';
  readonly bytes: Uint8Array;
  readonly offset: number;
  readonly end: number;
}

/** An identifier value: an enum name, a boolean literal, or a float literal (`inf`, `-nan` …). */
export interface TextLiteral {
  readonly kind: 'literal';
  readonly text: string;
  readonly offset: number;
  readonly end: number;
}

/**
 * A number. `text` is the sign followed by the literal as written, without whitespace after the sign
 * and without a float `f` suffix (protobuf-go's `number.string`).
 */
export interface TextNumber {
  readonly kind: 'number';
  readonly text: string;
  readonly numberKind: 'dec' | 'hex' | 'oct' | 'float';
  readonly negative: boolean;
  readonly offset: number;
  readonly end: number;
}

/** A message: the fields between `{…}` or `<…>` (or the whole document). */
export interface TextMessage {
  readonly kind: 'message';
  readonly fields: readonly TextField[];
  readonly offset: number;
  readonly end: number;
}

export type TextScalar = TextString | TextLiteral | TextNumber;
export type TextValue = TextScalar | TextMessage;

/**
 * One `name: value` (or `name: [v, …]`) occurrence. `nameKind` is `ident` for a field name, `type` for
 * an extension or Any type URL in `[…]`, `number` for a field given by number.
 */
export interface TextField {
  readonly name: string;
  readonly nameKind: 'ident' | 'type' | 'number';
  readonly hasSeparator: boolean;
  readonly isList: boolean;
  readonly values: readonly TextValue[];
  readonly offset: number;
}

// ------------------------------------------------------------------------------------------------
// Tokenizer + parser

const SPACE = 0x20, TAB = 0x09, LF = 0x0a, CR = 0x0d, HASH = 0x23, QUOTE = 0x22, APOS = 0x27, BACKSLASH = 0x5c;

function isIdentStart(c: number): boolean {
  return c === 0x5f || (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a);
}
function isIdentChar(c: number): boolean {
  return isIdentStart(c) || (c >= 0x30 && c <= 0x39);
}
function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}
function isOctal(c: number): boolean {
  return c >= 0x30 && c <= 0x37;
}
function isHex(c: number): boolean {
  return isDigit(c) || (c >= 0x61 && c <= 0x66) || (c >= 0x41 && c <= 0x46);
}
/** protobuf-go `isDelim`: anything that cannot continue an identifier or number. NaN (end) counts. */
function isDelim(c: number): boolean {
  return !(c === 0x2d || c === 0x2b || c === 0x2e || isIdentChar(c));
}
function isTypeNameChar(c: number): boolean {
  return c === 0x2d || isIdentChar(c);
}

/** A growable byte buffer (amortized O(1) push). */
class ByteSink {
  private buf = new Uint8Array(16);
  private len = 0;
  push(b: number): void {
    if (this.len === this.buf.length) {
      const next = new Uint8Array(this.buf.length * 2);
      next.set(this.buf);
      this.buf = next;
    }
    this.buf[this.len++] = b;
  }
  pushCodePoint(cp: number): void {
    if (cp < 0x80) this.push(cp);
    else if (cp < 0x800) {
      this.push(0xc0 | (cp >> 6));
      this.push(0x80 | (cp & 0x3f));
    } else if (cp < 0x10000) {
      this.push(0xe0 | (cp >> 12));
      this.push(0x80 | ((cp >> 6) & 0x3f));
      this.push(0x80 | (cp & 0x3f));
    } else {
      this.push(0xf0 | (cp >> 18));
      this.push(0x80 | ((cp >> 12) & 0x3f));
      this.push(0x80 | ((cp >> 6) & 0x3f));
      this.push(0x80 | (cp & 0x3f));
    }
  }
  bytes(): Uint8Array {
    return this.buf.slice(0, this.len);
  }
}

const EXCERPT_RE = /[-+._a-zA-Z0-9/]+|[^]/y;
const MAX_EXCERPT = 24;

class Parser {
  private pos = 0;
  constructor(
    private readonly src: string,
    private readonly what: string,
  ) {}

  fail(offset: number, detail: string): never {
    throw new PrototextError(this.what, offset, detail);
  }

  /** What stands at `offset`, for "found …" in messages: a short quoted excerpt or "end of input". */
  found(offset: number): string {
    if (offset >= this.src.length) return 'end of input';
    EXCERPT_RE.lastIndex = offset;
    const m = EXCERPT_RE.exec(this.src);
    let text = m ? m[0] : this.src.charAt(offset);
    if (text.length > MAX_EXCERPT) text = `${text.slice(0, MAX_EXCERPT)}…`;
    return JSON.stringify(text);
  }

  private code(i: number): number {
    return this.src.charCodeAt(i);
  }

  /** Skip spaces, tabs, newlines and `#` comments (protobuf-go `consume`). */
  private skipSpace(from: number): number {
    const src = this.src;
    let i = from;
    for (;;) {
      const c = src.charCodeAt(i);
      if (c === SPACE || c === LF || c === CR || c === TAB) i++;
      else if (c === HASH) {
        const nl = src.indexOf('\n', i);
        i = nl < 0 ? src.length : nl + 1;
      } else return i;
    }
  }

  parseDocument(): TextMessage {
    const fields = this.parseFields(null, 0);
    return { kind: 'message', fields, offset: 0, end: this.src.length };
  }

  /** Fields up to `close` (or end of input at top level). A single `,` or `;` may follow each field. */
  private parseFields(close: number | null, depth: number): TextField[] {
    const fields: TextField[] = [];
    let separatorAllowed = false;
    for (;;) {
      this.pos = this.skipSpace(this.pos);
      const at = this.pos;
      if (at >= this.src.length) {
        if (close === null) return fields;
        this.fail(at, `expected ${JSON.stringify(String.fromCharCode(close))}, found end of input`);
      }
      const c = this.code(at);
      if (close !== null && c === close) {
        this.pos++;
        return fields;
      }
      if (close !== null && (c === 0x7d || c === 0x3e)) {
        this.fail(at, `mismatched close character ${this.found(at)}, expected ${JSON.stringify(String.fromCharCode(close))}`);
      }
      if ((c === 0x2c || c === 0x3b) && separatorAllowed) {
        this.pos++;
        separatorAllowed = false;
        continue;
      }
      fields.push(this.parseField(depth));
      separatorAllowed = true;
    }
  }

  private parseField(depth: number): TextField {
    const offset = this.pos;
    const c = this.code(offset);
    let name: string;
    let nameKind: TextField['nameKind'];
    if (c === 0x5b) {
      name = this.parseTypeName();
      nameKind = 'type';
    } else if (isIdentStart(c)) {
      let i = offset + 1;
      while (isIdentChar(this.code(i))) i++;
      if (!isDelim(this.code(i))) this.fail(offset, `expected field name, found ${this.found(offset)}`);
      name = this.src.slice(offset, i);
      nameKind = 'ident';
      this.pos = i;
    } else {
      const num = this.scanNumber(offset);
      if (num === null) this.fail(offset, `expected field name, found ${this.found(offset)}`);
      if (num.negative || num.numberKind !== 'dec' || Number(num.text) > 0x7fffffff) {
        this.fail(offset, `invalid field number ${this.found(offset)}`);
      }
      name = num.text;
      nameKind = 'number';
      this.pos = num.end;
    }
    this.pos = this.skipSpace(this.pos);
    let hasSeparator = false;
    if (this.code(this.pos) === 0x3a) {
      hasSeparator = true;
      this.pos = this.skipSpace(this.pos + 1);
    }
    const at = this.pos;
    if (at >= this.src.length) this.fail(at, `expected a value for field ${JSON.stringify(name)}, found end of input`);
    const v = this.code(at);
    if (v === 0x5b) {
      return { name, nameKind, hasSeparator, isList: true, values: this.parseList(depth), offset };
    }
    const value = v === 0x7b || v === 0x3c ? this.parseMessage(depth) : this.parseScalar(`for field ${JSON.stringify(name)}`);
    return { name, nameKind, hasSeparator, isList: false, values: [value], offset };
  }

  /** `[` type.name/url `]` (protobuf-go `parseTypeName`); whitespace allowed around the parts. */
  private parseTypeName(): string {
    const start = this.pos;
    let i = this.skipSpace(start + 1);
    if (i >= this.src.length) this.fail(i, 'expected extension or type name, found end of input');
    let name = '';
    const readPart = (): void => {
      const s = i;
      while (isTypeNameChar(this.code(i))) i++;
      name += this.src.slice(s, i);
      i = this.skipSpace(i);
    };
    readPart();
    for (;;) {
      if (i >= this.src.length) this.fail(i, `unterminated extension or type name ${this.found(start)}`);
      const c = this.code(i);
      if (c === 0x5d) {
        i++;
        break;
      }
      if (c === 0x2f || c === 0x2e) {
        const last = name.charCodeAt(name.length - 1);
        if (last === 0x2f || last === 0x2e) this.fail(i, `invalid extension or type name ${JSON.stringify(this.src.slice(start, i + 1))}`);
        name += this.src[i];
        i = this.skipSpace(i + 1);
        readPart();
        continue;
      }
      this.fail(i, `invalid extension or type name: unexpected ${this.found(i)}`);
    }
    const first = name.charCodeAt(0);
    const last = name.charCodeAt(name.length - 1);
    if (name === '' || first === 0x2e || last === 0x2e || last === 0x2f) {
      this.fail(start, `invalid extension or type name ${JSON.stringify(this.src.slice(start, i))}`);
    }
    this.pos = i;
    return name;
  }

  private parseMessage(depth: number): TextMessage {
    const offset = this.pos;
    if (depth >= MAX_DEPTH) this.fail(offset, `messages nested deeper than ${MAX_DEPTH} levels`);
    const close = this.code(offset) === 0x7b ? 0x7d : 0x3e;
    this.pos = offset + 1;
    const fields = this.parseFields(close, depth + 1);
    return { kind: 'message', fields, offset, end: this.pos };
  }

  /** `[` (message | scalar) {`,` (message | scalar)} `]`, or `[]`. No trailing comma. */
  private parseList(depth: number): TextValue[] {
    const values: TextValue[] = [];
    this.pos = this.skipSpace(this.pos + 1);
    if (this.code(this.pos) === 0x5d) {
      this.pos++;
      return values;
    }
    for (;;) {
      const at = this.pos;
      if (at >= this.src.length) this.fail(at, 'expected a list value or "]", found end of input');
      const c = this.code(at);
      values.push(c === 0x7b || c === 0x3c ? this.parseMessage(depth) : this.parseScalar('in list'));
      this.pos = this.skipSpace(this.pos);
      const next = this.code(this.pos);
      if (next === 0x5d) {
        this.pos++;
        return values;
      }
      if (next !== 0x2c) this.fail(this.pos, `expected "," or "]" in list, found ${this.found(this.pos)}`);
      this.pos = this.skipSpace(this.pos + 1);
    }
  }

  private parseScalar(where: string): TextScalar {
    const offset = this.pos;
    const c = this.code(offset);
    if (c === QUOTE || c === APOS) {
      const sink = new ByteSink();
      let i = offset;
      // Adjacent literals concatenate, with only whitespace or comments between them.
      while (this.code(i) === QUOTE || this.code(i) === APOS) {
        i = this.skipSpace(this.scanString(i, sink));
      }
      this.pos = i;
      return { kind: 'string', bytes: sink.bytes(), offset, end: i };
    }
    // Literal: optional '-' directly followed by an identifier, then a delimiter.
    {
      let i = offset;
      if (c === 0x2d) i++;
      if (isIdentStart(this.code(i))) {
        i++;
        while (isIdentChar(this.code(i))) i++;
        if (isDelim(this.code(i))) {
          this.pos = i;
          return { kind: 'literal', text: this.src.slice(offset, i), offset, end: i };
        }
      }
    }
    const num = this.scanNumber(offset);
    if (num !== null) {
      this.pos = num.end;
      return num;
    }
    return this.fail(offset, `expected a value ${where}, found ${this.found(offset)}`);
  }

  /**
   * Scan a number at `start` (protobuf-go `parseNumber`):
   * integer `-?([1-9][0-9]*|0[xX][0-9a-fA-F]+|0[0-7]*)`, float
   * `-?((0|[1-9][0-9]*)?([.][0-9]*)?([eE][+-]?[0-9]+)?[fF]?)`, whitespace or comments allowed after
   * the minus sign, and a delimiter required after it. Returns null if there is no number here.
   */
  private scanNumber(start: number): TextNumber | null {
    const len = this.src.length;
    let i = start;
    let negative = false;
    let bodyStart = start;
    if (this.code(i) === 0x2d) {
      negative = true;
      i = this.skipSpace(i + 1);
      bodyStart = i;
      if (i >= len) return null;
    }
    const make = (kind: TextNumber['numberKind'], end: number, textEnd: number): TextNumber | null => {
      if (end < len && !isDelim(this.code(end))) return null;
      const body = this.src.slice(bodyStart, textEnd);
      return { kind: 'number', text: negative ? `-${body}` : body, numberKind: kind, negative, offset: start, end };
    };
    let kind: TextNumber['numberKind'] = 'dec';
    const c0 = this.code(i);
    if (c0 === 0x30) {
      const c1 = this.code(i + 1);
      if (c1 === 0x78 || c1 === 0x58) {
        let j = i + 2;
        while (isHex(this.code(j))) j++;
        if (j === i + 2) return null;
        return make('hex', j, j);
      }
      if (isOctal(c1)) {
        let j = i + 2;
        while (isOctal(this.code(j))) j++;
        return make('oct', j, j);
      }
      i++;
    } else if (c0 >= 0x31 && c0 <= 0x39) {
      i++;
      while (isDigit(this.code(i))) i++;
    } else if (c0 === 0x2e) {
      kind = 'float';
    } else {
      return null;
    }
    if (this.code(i) === 0x2e) {
      i++;
      if (i >= len && kind === 'float') return null;
      while (isDigit(this.code(i))) i++;
      kind = 'float';
    }
    if (i + 1 < len && (this.code(i) === 0x65 || this.code(i) === 0x45)) {
      kind = 'float';
      i++;
      const s = this.code(i);
      if (s === 0x2b || s === 0x2d) {
        i++;
        if (i >= len) return null;
      }
      while (isDigit(this.code(i))) i++;
    }
    let textEnd = i;
    if (this.code(i) === 0x66 || this.code(i) === 0x46) {
      kind = 'float';
      i++;
    }
    if (kind !== 'float') textEnd = i;
    return make(kind, i, textEnd);
  }

  /**
   * Scan one quoted literal at `start` into `sink`; returns the index after the closing quote.
   * Escapes as in protobuf-go `parseString`: `\" \' \\ \? \a \b \f \n \r \t \v`, octal `\N`..`\NNN`
   * (≤ 0377), hex `\xN`/`\xNN`, `\uNNNN` (surrogate pairs as two `\u`), `\UNNNNNNNN`. Raw NUL and
   * newline are not allowed inside a literal; other characters are taken as their UTF-8 bytes.
   */
  private scanString(start: number, sink: ByteSink): number {
    const src = this.src;
    const len = src.length;
    const quote = src.charCodeAt(start);
    let i = start + 1;
    for (;;) {
      if (i >= len) this.fail(start, 'unterminated string literal');
      const c = src.charCodeAt(i);
      if (c === quote) return i + 1;
      if (c === 0 || c === LF) this.fail(i, `invalid character ${JSON.stringify(src[i])} in string literal`);
      if (c !== BACKSLASH) {
        if (c < 0x80) {
          sink.push(c);
          i++;
        } else {
          const cp = src.codePointAt(i)!;
          if (cp >= 0xd800 && cp <= 0xdfff) this.fail(i, 'invalid UTF-8 in string literal (unpaired surrogate)');
          sink.pushCodePoint(cp);
          i += cp > 0xffff ? 2 : 1;
        }
        continue;
      }
      if (i + 1 >= len) this.fail(start, 'unterminated string literal');
      const e = src.charCodeAt(i + 1);
      switch (e) {
        case QUOTE: case APOS: case BACKSLASH: case 0x3f:
          sink.push(e); i += 2; break;
        case 0x61: sink.push(0x07); i += 2; break; // \a
        case 0x62: sink.push(0x08); i += 2; break; // \b
        case 0x66: sink.push(0x0c); i += 2; break; // \f
        case 0x6e: sink.push(0x0a); i += 2; break; // \n
        case 0x72: sink.push(0x0d); i += 2; break; // \r
        case 0x74: sink.push(0x09); i += 2; break; // \t
        case 0x76: sink.push(0x0b); i += 2; break; // \v
        case 0x78: { // \x: one or two hex digits
          let j = i + 2;
          while (j < i + 4 && isHex(src.charCodeAt(j))) j++;
          if (j === i + 2) this.fail(i, `invalid hex escape ${JSON.stringify(src.slice(i, i + 3))} in string literal`);
          sink.push(parseInt(src.slice(i + 2, j), 16));
          i = j;
          break;
        }
        case 0x75: case 0x55: { // \uXXXX, \UXXXXXXXX
          const n = e === 0x75 ? 4 : 8;
          const hex = src.slice(i + 2, i + 2 + n);
          if (hex.length < n) this.fail(start, 'unterminated string literal');
          if (!/^[0-9a-fA-F]+$/.test(hex) || parseInt(hex, 16) > 0x10ffff) {
            this.fail(i, `invalid Unicode escape ${JSON.stringify(src.slice(i, i + 2 + n))} in string literal`);
          }
          let cp = parseInt(hex, 16);
          i += 2 + n;
          if (cp >= 0xd800 && cp <= 0xdfff) {
            // A surrogate must be the high half of a pair completed by a following \uXXXX.
            const low = src.slice(i + 2, i + 6);
            if (i + 6 > len) this.fail(start, 'unterminated string literal');
            const lowCp = /^[0-9a-fA-F]{4}$/.test(low) ? parseInt(low, 16) : -1;
            if (src.charCodeAt(i) !== BACKSLASH || src.charCodeAt(i + 1) !== 0x75 || cp > 0xdbff || lowCp < 0xdc00 || lowCp > 0xdfff) {
              this.fail(i, `invalid Unicode escape ${JSON.stringify(src.slice(i, i + 6))} in string literal (unpaired surrogate)`);
            }
            cp = 0x10000 + ((cp - 0xd800) << 10) + (lowCp - 0xdc00);
            i += 6;
          }
          sink.pushCodePoint(cp);
          break;
        }
        default: {
          if (isOctal(e)) { // one to three octal digits, value ≤ 0377
            let j = i + 1;
            while (j < i + 4 && isOctal(src.charCodeAt(j))) j++;
            const v = parseInt(src.slice(i + 1, j), 8);
            if (v > 0xff) this.fail(i, `invalid octal escape ${JSON.stringify(src.slice(i, j))} in string literal`);
            sink.push(v);
            i = j;
            break;
          }
          this.fail(i, `invalid escape ${JSON.stringify(src.slice(i, i + 2))} in string literal`);
        }
      }
    }
  }
}

/**
 * Parse prototext into a schema-free value tree (the top-level message).
 *
 * Mirrors protobuf-go's `text.Decoder` (`internal/encoding/text/decode.go`): `{…}` and `<…>` messages
 * with an optional `:` before them, `[…]` lists, one optional `,` or `;` after each field, whitespace
 * and `#` comments anywhere between tokens, quoted strings with every escape, identifiers, and
 * decimal/hex/octal/float numbers. Messages may nest at most {@link MAX_DEPTH} deep.
 *
 * @param what names the input in error messages (`invalid <what> at character …`).
 * @throws PrototextError (one line) on a syntax error.
 */
export function parseTextProto(text: string, what = 'text proto'): TextMessage {
  if (typeof text !== 'string') throw new PrototextError(what, 0, `expected a string, got ${typeof text}`);
  return new Parser(text, what).parseDocument();
}

// ------------------------------------------------------------------------------------------------
// Schema-driven decoding

/** A protobuf scalar type. 64-bit integers decode to `bigint`, bytes to `Uint8Array`. */
export type ScalarKind = 'string' | 'bytes' | 'bool' | 'int32' | 'int64' | 'uint32' | 'uint64' | 'double' | 'float';

/** An enum: `[name, number]` pairs in declaration order (aliases allowed; the first name of a number is canonical). */
export interface EnumDescriptor {
  readonly enumName: string;
  readonly values: readonly (readonly [string, number])[];
}

/** A message type: its fields in declaration order. */
export interface MessageDescriptor {
  readonly messageName: string;
  readonly fields: readonly FieldDescriptor[];
}

export type FieldType = ScalarKind | EnumDescriptor | MessageDescriptor;

/**
 * A field. `label` is `repeated` for repeated fields and `map` for `map<mapKey, type>` fields
 * (encoded as repeated `{key: … value: …}` entries).
 */
export interface FieldDescriptor {
  readonly name: string;
  readonly number: number;
  readonly type: FieldType;
  readonly label?: 'repeated' | 'map';
  readonly mapKey?: ScalarKind;
}

/** A decoded message: proto field name → value (defaults filled in; absent messages are `null`). */
export type DecodedMessage = { readonly [field: string]: unknown };

/** The result of {@link decodeTextProto}. */
export interface Decoded {
  readonly message: DecodedMessage;
  /** Dotted paths (`filter.rules.foo`, `[ext.name]`) of fields that are not in the schema, first-seen order, no repeats. */
  readonly unknownFields: readonly string[];
}

function isMessageType(t: FieldType): t is MessageDescriptor {
  return typeof t === 'object' && 'fields' in t;
}
function isEnumType(t: FieldType): t is EnumDescriptor {
  return typeof t === 'object' && 'values' in t;
}

/** The canonical (first declared) name of an enum number, or `null`. */
export function enumName(desc: EnumDescriptor, num: number): string | null {
  for (const [name, n] of desc.values) if (n === num) return name;
  return null;
}

/** The number of an enum name (aliases included), or `null`. */
export function enumNumber(desc: EnumDescriptor, name: string): number | null {
  for (const [n, num] of desc.values) if (n === name) return num;
  return null;
}

const BOOL_LITERALS: Readonly<Record<string, boolean>> = { t: true, true: true, True: true, f: false, false: false, False: false };
const FLOAT_LITERALS: Readonly<Record<string, number>> = {
  nan: NaN, inf: Infinity, infinity: Infinity, '-inf': -Infinity, '-infinity': -Infinity,
};
const UINT_BASE0 = /^(?:0[xX][0-9a-fA-F]+|0[0-7]*|[1-9][0-9]*)$/;

const LIMITS: Readonly<Record<'int32' | 'int64' | 'uint32' | 'uint64', readonly [bigint, bigint]>> = {
  int32: [-(1n << 31n), (1n << 31n) - 1n],
  int64: [-(1n << 63n), (1n << 63n) - 1n],
  uint32: [0n, (1n << 32n) - 1n],
  uint64: [0n, (1n << 64n) - 1n],
};

/** Integer value of a non-float number token, as Go's `strconv.ParseInt(s, 0, …)` reads it. */
function integerOf(tok: TextNumber): bigint | null {
  if (tok.numberKind === 'float') return null;
  const body = tok.negative ? tok.text.slice(1) : tok.text;
  let v: bigint;
  if (tok.numberKind === 'hex') v = BigInt(`0x${body.slice(2)}`);
  else if (tok.numberKind === 'oct') v = BigInt(`0o${body.slice(1)}`);
  else v = BigInt(body);
  return tok.negative ? -v : v;
}

const utf8Decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

class Decoder {
  readonly unknown = new Set<string>();
  constructor(
    private readonly src: string,
    private readonly what: string,
  ) {}

  fail(offset: number, detail: string): never {
    throw new PrototextError(this.what, offset, detail);
  }

  excerpt(v: TextValue): string {
    let t = this.src.slice(v.offset, Math.min(v.end, v.offset + MAX_EXCERPT + 1)).trimEnd();
    if (t.length > MAX_EXCERPT) t = `${t.slice(0, MAX_EXCERPT)}…`;
    return JSON.stringify(t);
  }

  message(tree: TextMessage, desc: MessageDescriptor, path: string): DecodedMessage {
    const out: Record<string, unknown> = Object.create(null);
    for (const f of desc.fields) out[f.name] = this.defaultOf(f);
    const seen = new Set<string>();
    for (const field of tree.fields) {
      const where = path === '' ? field.name : `${path}.${field.name}`;
      if (field.nameKind === 'number') this.fail(field.offset, `field given by number (${field.name}); prototext requires names`);
      const fd = field.nameKind === 'ident' ? desc.fields.find((f) => f.name === field.name) : undefined;
      if (fd === undefined) {
        // Deliberately tolerant (Go's Unmarshal fails here): newer Vitess adds fields.
        this.unknown.add(field.nameKind === 'type' ? `${path === '' ? '' : `${path}.`}[${field.name}]` : where);
        continue;
      }
      if (fd.label === 'map') {
        const map = out[fd.name] as Map<unknown, unknown>;
        for (const v of field.values) {
          if (v.kind !== 'message') this.fail(v.offset, `field ${where}: expected a map entry {key: … value: …}, found ${this.excerpt(v)}`);
          this.mapEntry(v, fd, where, map);
        }
        continue;
      }
      const isMsg = isMessageType(fd.type);
      if (!isMsg && !field.hasSeparator) this.fail(field.offset, `field ${where}: missing ":" after the field name`);
      if (fd.label === 'repeated') {
        const list = out[fd.name] as unknown[];
        for (const v of field.values) list.push(this.value(v, fd.type, where));
        continue;
      }
      if (field.isList) this.fail(field.offset, `field ${where} is not repeated and cannot take a list`);
      if (seen.has(fd.name)) this.fail(field.offset, `non-repeated field ${where} is repeated`);
      seen.add(fd.name);
      out[fd.name] = this.value(field.values[0]!, fd.type, where);
    }
    return out;
  }

  private mapEntry(entry: TextMessage, fd: FieldDescriptor, where: string, map: Map<unknown, unknown>): void {
    const keyKind = fd.mapKey ?? 'string';
    let key: unknown;
    let value: unknown;
    let hasKey = false;
    let hasValue = false;
    for (const f of entry.fields) {
      if (f.nameKind !== 'ident' || (f.name !== 'key' && f.name !== 'value')) {
        this.unknown.add(f.nameKind === 'type' ? `${where}.[${f.name}]` : `${where}.${f.name}`);
        continue;
      }
      if (f.isList) this.fail(f.offset, `map entry field ${where}.${f.name} cannot take a list`);
      if (f.name === 'key') {
        if (!f.hasSeparator) this.fail(f.offset, `field ${where}.key: missing ":" after the field name`);
        if (hasKey) this.fail(f.offset, `map entry field ${where}.key is repeated`);
        key = this.value(f.values[0]!, keyKind, `${where}.key`);
        hasKey = true;
      } else {
        if (!isMessageType(fd.type) && !f.hasSeparator) this.fail(f.offset, `field ${where}.value: missing ":" after the field name`);
        if (hasValue) this.fail(f.offset, `map entry field ${where}.value is repeated`);
        value = this.value(f.values[0]!, fd.type, `${where}.value`);
        hasValue = true;
      }
    }
    if (!hasKey) key = this.scalarDefault(keyKind);
    if (!hasValue) value = isMessageType(fd.type) ? this.emptyMessage(fd.type) : this.typeDefault(fd.type);
    map.set(key, value);
  }

  private emptyMessage(desc: MessageDescriptor): DecodedMessage {
    const out: Record<string, unknown> = Object.create(null);
    for (const f of desc.fields) out[f.name] = this.defaultOf(f);
    return out;
  }

  private defaultOf(f: FieldDescriptor): unknown {
    if (f.label === 'repeated') return [];
    if (f.label === 'map') return new Map();
    return this.typeDefault(f.type);
  }

  private typeDefault(t: FieldType): unknown {
    if (isMessageType(t)) return null;
    if (isEnumType(t)) return 0;
    return this.scalarDefault(t);
  }

  private scalarDefault(k: ScalarKind): unknown {
    switch (k) {
      case 'string': return '';
      case 'bytes': return new Uint8Array(0);
      case 'bool': return false;
      case 'int64': case 'uint64': return 0n;
      default: return 0;
    }
  }

  private value(v: TextValue, type: FieldType, where: string): unknown {
    if (isMessageType(type)) {
      if (v.kind !== 'message') this.fail(v.offset, `field ${where}: expected a message {…}, found ${this.excerpt(v)}`);
      return this.message(v, type, where);
    }
    if (v.kind === 'message') this.fail(v.offset, `field ${where}: expected a ${isEnumType(type) ? type.enumName : type} value, found a message`);
    if (isEnumType(type)) return this.enumValue(v, type, where);
    return this.scalar(v, type, where);
  }

  private enumValue(v: TextScalar, type: EnumDescriptor, where: string): number {
    if (v.kind === 'literal' && !v.text.startsWith('-')) {
      const n = enumNumber(type, v.text);
      if (n !== null) return n;
      this.fail(v.offset, `field ${where}: unknown ${type.enumName} value ${this.excerpt(v)}`);
    }
    if (v.kind === 'number') {
      const n = integerOf(v);
      if (n !== null && n >= LIMITS.int32[0] && n <= LIMITS.int32[1]) return Number(n);
    }
    return this.fail(v.offset, `field ${where}: expected a ${type.enumName} name or number, found ${this.excerpt(v)}`);
  }

  private scalar(v: TextScalar, kind: ScalarKind, where: string): unknown {
    switch (kind) {
      case 'string': {
        if (v.kind !== 'string') break;
        try {
          return utf8Decoder.decode(v.bytes);
        } catch {
          return this.fail(v.offset, `field ${where}: string is not valid UTF-8 (use a bytes field for raw bytes)`);
        }
      }
      case 'bytes':
        if (v.kind === 'string') return v.bytes;
        break;
      case 'bool':
        if (v.kind === 'literal' && Object.hasOwn(BOOL_LITERALS, v.text)) return BOOL_LITERALS[v.text];
        // Go accepts an unsigned integer spelling of 0 or 1 (`1`, `0x1`, `01`; even `1f`).
        if (v.kind === 'number' && !v.negative && UINT_BASE0.test(v.text)) {
          const n = BigInt(v.numberKind === 'oct' ? `0o${v.text.slice(1)}` : v.text);
          if (n === 0n || n === 1n) return n === 1n;
        }
        break;
      case 'int32': case 'int64': case 'uint32': case 'uint64': {
        if (v.kind !== 'number') break;
        const n = integerOf(v);
        const [lo, hi] = LIMITS[kind];
        if (n === null || (kind.startsWith('u') && v.negative)) break;
        if (n < lo || n > hi) this.fail(v.offset, `field ${where}: ${this.excerpt(v)} is out of range for ${kind}`);
        return kind.endsWith('64') ? n : Number(n);
      }
      case 'double': case 'float': {
        if (v.kind === 'literal') {
          const f = FLOAT_LITERALS[v.text.toLowerCase()];
          if (f !== undefined) return f;
          break;
        }
        if (v.kind !== 'number' || v.numberKind === 'hex') break;
        const n = Number(v.numberKind === 'oct' ? v.text.replace(/^(-?)0+(?=\d)/, '$1') : v.text);
        if (Number.isNaN(n)) break;
        return kind === 'float' ? Math.fround(n) : n;
      }
    }
    return this.fail(v.offset, `field ${where}: expected a ${kind} value, found ${this.excerpt(v)}`);
  }
}

/**
 * Parse prototext and decode it against a message schema.
 *
 * Mirrors `prototext.Unmarshal` (`protocolbuffers/protobuf-go:encoding/prototext/decode.go`): field
 * names only (not numbers, not JSON names); `:` required before scalar values; repeated fields given
 * repeatedly or as `[…]`; a singular field given twice is an error; maps as `{key: … value: …}`
 * entries (a later key wins); bools as `true/false/True/False/t/f` or `0/1`; enums by name or
 * number; string fields must be valid UTF-8. Absent fields take proto3 defaults (`''`, `0`, `0n`,
 * `false`, empty bytes, `[]`, empty `Map`, `null` for messages).
 *
 * Differs from Go on purpose: unknown fields (and extensions, and unknown map-entry fields) are
 * skipped with their values and listed in `unknownFields` instead of failing the whole parse.
 *
 * @throws PrototextError (one line) on a syntax error or a value of the wrong type.
 */
export function decodeTextProto(text: string, desc: MessageDescriptor, what = desc.messageName): Decoded {
  const tree = parseTextProto(text, what);
  const d = new Decoder(text, what);
  const message = d.message(tree, desc, '');
  return { message, unknownFields: [...d.unknown] };
}

// ------------------------------------------------------------------------------------------------
// Encoding

/**
 * Quote bytes as a prototext string literal the way protobuf-go writes it (`appendString` in
 * `protocolbuffers/protobuf-go:internal/encoding/text/encode.go`): `"` and `\` backslash-escaped,
 * `\n \r \t`, other bytes below 0x20 and every byte that is not part of valid UTF-8 as `\xHH`;
 * valid multi-byte UTF-8 and everything else printable (including `'` and DEL) as is.
 */
export function quoteTextBytes(bytes: Uint8Array): string {
  let out = '"';
  let i = 0;
  const n = bytes.length;
  while (i < n) {
    const b = bytes[i]!;
    if (b < 0x80) {
      if (b === 0x22) out += '\\"';
      else if (b === 0x5c) out += '\\\\';
      else if (b === 0x0a) out += '\\n';
      else if (b === 0x0d) out += '\\r';
      else if (b === 0x09) out += '\\t';
      else if (b < 0x20) out += `\\x${b.toString(16).padStart(2, '0')}`;
      else out += String.fromCharCode(b);
      i++;
      continue;
    }
    const len = utf8SequenceLength(bytes, i);
    if (len === 0) {
      out += `\\x${b.toString(16)}`;
      i++;
    } else {
      let cp = len === 2 ? b & 0x1f : len === 3 ? b & 0x0f : b & 0x07;
      for (let k = 1; k < len; k++) cp = (cp << 6) | (bytes[i + k]! & 0x3f);
      out += String.fromCodePoint(cp);
      i += len;
    }
  }
  return `${out}"`;
}

/** Length of the valid UTF-8 sequence starting at `i` (a lead byte ≥ 0x80), or 0 if invalid (Go's `utf8.DecodeRune` rules). */
function utf8SequenceLength(b: Uint8Array, i: number): number {
  const b0 = b[i]!;
  const cont = (k: number, lo = 0x80, hi = 0xbf): boolean => {
    const x = b[i + k];
    return x !== undefined && x >= lo && x <= hi;
  };
  if (b0 >= 0xc2 && b0 <= 0xdf) return cont(1) ? 2 : 0;
  if (b0 === 0xe0) return cont(1, 0xa0) && cont(2) ? 3 : 0;
  if ((b0 >= 0xe1 && b0 <= 0xec) || b0 === 0xee || b0 === 0xef) return cont(1) && cont(2) ? 3 : 0;
  if (b0 === 0xed) return cont(1, 0x80, 0x9f) && cont(2) ? 3 : 0;
  if (b0 === 0xf0) return cont(1, 0x90) && cont(2) && cont(3) ? 4 : 0;
  if (b0 >= 0xf1 && b0 <= 0xf3) return cont(1) && cont(2) && cont(3) ? 4 : 0;
  if (b0 === 0xf4) return cont(1, 0x80, 0x8f) && cont(2) && cont(3) ? 4 : 0;
  return 0;
}

const utf8Encoder = new TextEncoder();
/** With the `u` flag a surrogate class only matches surrogates that are not part of a pair. */
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;

/** UTF-8 bytes of a well-formed string; throws (one line) on an unpaired surrogate. */
function utf8Of(s: string, where: string): Uint8Array {
  if (LONE_SURROGATE.test(s)) throw new Error(`cannot write ${where}: the string contains an unpaired surrogate, which is not valid Unicode`);
  return utf8Encoder.encode(s);
}

/** Order map keys as Go does for `order.GenericKeyOrder`: numbers and bools by value, strings by code point (= UTF-8 byte order). */
function compareKeys(a: unknown, b: unknown): number {
  if (typeof a === 'string' && typeof b === 'string') {
    const ia = a[Symbol.iterator]();
    const ib = b[Symbol.iterator]();
    for (;;) {
      const x = ia.next();
      const y = ib.next();
      if (x.done || y.done) return x.done && y.done ? 0 : x.done ? -1 : 1;
      const cx = x.value.codePointAt(0)!;
      const cy = y.value.codePointAt(0)!;
      if (cx !== cy) return cx - cy;
    }
  }
  const x = typeof a === 'boolean' ? Number(a) : (a as number | bigint);
  const y = typeof b === 'boolean' ? Number(b) : (b as number | bigint);
  return x < y ? -1 : x > y ? 1 : 0;
}

/**
 * Write a decoded-form message (as {@link decodeTextProto} returns it) as single-line prototext, the
 * way Go's `prototext.Marshal` does without its random extra spaces: fields in declaration order,
 * default scalars omitted, absent (`null`) messages omitted, present messages written even if empty,
 * repeated fields as repeated `name:value`, map entries sorted by key as `name:{key:… value:…}`, one
 * space between fields, enums by canonical name (number if unknown).
 *
 * @throws Error (one line) if a value does not fit its field type.
 */
export function encodeTextProto(message: DecodedMessage, desc: MessageDescriptor): string {
  return encodeFields(message, desc, '').join(' ');
}

function encodeFields(message: DecodedMessage, desc: MessageDescriptor, path: string): string[] {
  const parts: string[] = [];
  for (const fd of desc.fields) {
    const where = path === '' ? fd.name : `${path}.${fd.name}`;
    const v = message[fd.name];
    if (fd.label === 'map') {
      if (v === undefined) continue;
      if (!(v instanceof Map)) throw new Error(`cannot write ${where}: expected a Map`);
      const keys = [...v.keys()].sort(compareKeys);
      for (const k of keys) {
        const key = encodeValue(k, fd.mapKey ?? 'string', `${where}.key`);
        const value = encodeValue(v.get(k), fd.type, `${where}.value`);
        parts.push(`${fd.name}:{key:${key} value:${value}}`);
      }
      continue;
    }
    if (fd.label === 'repeated') {
      if (v === undefined) continue;
      if (!Array.isArray(v)) throw new Error(`cannot write ${where}: expected an array`);
      for (const item of v) parts.push(`${fd.name}:${encodeValue(item, fd.type, where)}`);
      continue;
    }
    if (v === undefined || v === null || isDefaultScalar(v, fd.type)) continue;
    parts.push(`${fd.name}:${encodeValue(v, fd.type, where)}`);
  }
  return parts;
}

function isDefaultScalar(v: unknown, t: FieldType): boolean {
  if (isMessageType(t)) return false;
  if (isEnumType(t)) return v === 0;
  return v === '' || v === false || v === 0 || v === 0n || (v instanceof Uint8Array && v.length === 0);
}

function encodeValue(v: unknown, t: FieldType, where: string): string {
  if (isMessageType(t)) {
    if (v === null || typeof v !== 'object') throw new Error(`cannot write ${where}: expected a message object`);
    return `{${encodeFields(v as DecodedMessage, t, where).join(' ')}}`;
  }
  if (isEnumType(t)) {
    if (typeof v !== 'number' || !Number.isInteger(v)) throw new Error(`cannot write ${where}: expected an enum number`);
    return enumName(t, v) ?? String(v);
  }
  switch (t) {
    case 'string':
      if (typeof v !== 'string') break;
      return quoteTextBytes(utf8Of(v, where));
    case 'bytes':
      if (!(v instanceof Uint8Array)) break;
      return quoteTextBytes(v);
    case 'bool':
      if (typeof v !== 'boolean') break;
      return v ? 'true' : 'false';
    case 'int32': case 'uint32': case 'int64': case 'uint64': {
      const n = typeof v === 'number' && Number.isInteger(v) ? BigInt(v) : typeof v === 'bigint' ? v : null;
      if (n === null) break;
      const [lo, hi] = LIMITS[t];
      if (n < lo || n > hi) throw new Error(`cannot write ${where}: ${n} is out of range for ${t}`);
      return n.toString();
    }
    case 'double': case 'float':
      if (typeof v !== 'number') break;
      if (Number.isNaN(v)) return 'nan';
      if (!Number.isFinite(v)) return v > 0 ? 'inf' : '-inf';
      return String(v);
  }
  throw new Error(`cannot write ${where}: expected a ${t} value`);
}
