/**
 * Protocol Buffers text format ("prototext"): the streaming schema-driven reader.
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
 * Like Go's decoder, reading is a single pass that decodes as it goes: skipped (unknown) values are
 * checked for syntax but never materialized, so work and memory are linear in the input. Recursion is
 * bounded by {@link MAX_DEPTH} nested messages. Bad input raises a {@link PrototextError} whose message
 * is one line: `invalid <what> at character <n>: <detail>`, `n` being a 1-based index into the
 * JavaScript string; the first problem in text order is the one reported, as in Go.
 */

import {
  type DecodedMessage,
  type EnumDescriptor,
  type FieldDescriptor,
  type FieldType,
  enumNumber,
  isEnumType,
  isMessageType,
  LIMITS,
  type MessageDescriptor,
  type ScalarKind,
} from './schema.js';

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

/** The result of {@link decodeTextProto}. */
export interface Decoded {
  readonly message: DecodedMessage;
  /**
   * Dotted paths (`filter.rules.foo`, `[ext.name]`) of fields that are not in the schema, first-seen order, no repeats.
   */
  readonly unknownFields: readonly string[];
}

// ------------------------------------------------------------------------------------------------
// Tokens

const SPACE = 0x20,
  TAB = 0x09,
  LF = 0x0a,
  CR = 0x0d,
  HASH = 0x23,
  QUOTE = 0x22,
  APOS = 0x27,
  BACKSLASH = 0x5c;
const LBRACE = 0x7b,
  RBRACE = 0x7d,
  LANGLE = 0x3c,
  RANGLE = 0x3e,
  LBRACKET = 0x5b,
  RBRACKET = 0x5d,
  COLON = 0x3a,
  COMMA = 0x2c,
  SEMI = 0x3b;

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
/** protobuf-go `isDelim`: anything that cannot continue an identifier or number. NaN (end of input) counts. */
function isDelim(c: number): boolean {
  return !(c === 0x2d || c === 0x2b || c === 0x2e || isIdentChar(c));
}
function hexValue(c: number): number {
  return c <= 0x39 ? c - 0x30 : (c | 0x20) - 0x57;
}
function isTypeNameChar(c: number): boolean {
  return c === 0x2d || isIdentChar(c);
}
function isMessageOpen(c: number): boolean {
  return c === LBRACE || c === LANGLE;
}

/**
 * A scalar token. A string's `bin` holds its bytes as a binary string (one char per byte, 0–255), the
 * cheapest immutable byte container in JavaScript; adjacent literals are already joined. A number's
 * `text` is the sign and the literal as written, without whitespace after the sign and without a float
 * `f` suffix (protobuf-go's `number.string`).
 */
type Scalar =
  | { readonly kind: 'string'; readonly bin: string; readonly offset: number; readonly end: number }
  | { readonly kind: 'literal'; readonly text: string; readonly offset: number; readonly end: number }
  | NumberToken;

interface NumberToken {
  readonly kind: 'number';
  readonly text: string;
  readonly numberKind: 'dec' | 'hex' | 'oct' | 'float';
  readonly negative: boolean;
  readonly offset: number;
  readonly end: number;
}

/** A reusable, growable byte buffer (amortized O(1) append) that converts to a binary string. */
class ByteScratch {
  private buf = new Uint8Array(256);
  len = 0;
  reset(): void {
    this.len = 0;
  }
  private room(n: number): void {
    if (this.len + n <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.len + n) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.buf.subarray(0, this.len));
    this.buf = next;
  }
  push(b: number): void {
    this.room(1);
    this.buf[this.len++] = b;
  }
  /** Append `src[from, to)`, all of whose characters are ASCII. */
  pushAscii(src: string, from: number, to: number): void {
    if (to <= from) return;
    this.room(to - from);
    const buf = this.buf;
    let n = this.len;
    for (let i = from; i < to; i++) buf[n++] = src.charCodeAt(i);
    this.len = n;
  }
  /** Append the UTF-8 encoding of a code point. */
  pushCodePoint(cp: number): void {
    this.room(4);
    const buf = this.buf;
    if (cp < 0x80) buf[this.len++] = cp;
    else if (cp < 0x800) {
      buf[this.len++] = 0xc0 | (cp >> 6);
      buf[this.len++] = 0x80 | (cp & 0x3f);
    } else if (cp < 0x10000) {
      buf[this.len++] = 0xe0 | (cp >> 12);
      buf[this.len++] = 0x80 | ((cp >> 6) & 0x3f);
      buf[this.len++] = 0x80 | (cp & 0x3f);
    } else {
      buf[this.len++] = 0xf0 | (cp >> 18);
      buf[this.len++] = 0x80 | ((cp >> 12) & 0x3f);
      buf[this.len++] = 0x80 | ((cp >> 6) & 0x3f);
      buf[this.len++] = 0x80 | (cp & 0x3f);
    }
  }
  /** The bytes as a binary string (one char per byte), built in chunks to bound argument counts. */
  toBinary(): string {
    const CHUNK = 4096;
    if (this.len <= CHUNK)
      return String.fromCharCode.apply(null, this.buf.subarray(0, this.len) as unknown as number[]);
    const chunks: string[] = [];
    for (let i = 0; i < this.len; i += CHUNK) {
      chunks.push(
        String.fromCharCode.apply(null, this.buf.subarray(i, Math.min(this.len, i + CHUNK)) as unknown as number[]),
      );
    }
    return chunks.join('');
  }
}

function binaryToBytes(bin: string): Uint8Array {
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

const ASCII_ONLY = /^[\x00-\x7f]*$/;
const utf8Decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

const BOOL_LITERALS: Readonly<Record<string, boolean>> = {
  t: true,
  true: true,
  True: true,
  f: false,
  false: false,
  False: false,
};
const FLOAT_LITERALS: Readonly<Record<string, number>> = {
  nan: NaN,
  inf: Infinity,
  infinity: Infinity,
  '-inf': -Infinity,
  '-infinity': -Infinity,
};
const UINT_BASE0 = /^(?:0[xX][0-9a-fA-F]+|0[0-7]*|[1-9][0-9]*)$/;

/** Integer value of a non-float number token, as Go's `strconv.ParseInt(s, 0, …)` reads it. */
function integerOf(tok: NumberToken): bigint | null {
  if (tok.numberKind === 'float') return null;
  const body = tok.negative ? tok.text.slice(1) : tok.text;
  let v: bigint;
  if (tok.numberKind === 'hex') v = BigInt(`0x${body.slice(2)}`);
  else if (tok.numberKind === 'oct') v = BigInt(`0o${body.slice(1)}`);
  else v = BigInt(body);
  return tok.negative ? -v : v;
}

const EXCERPT_RE = /[-+._a-zA-Z0-9/]{1,25}|[\s\S]/y;
const MAX_EXCERPT = 24;

/** A short quoted form of a name for messages (names can be arbitrarily long). */
function quoteName(name: string): string {
  return JSON.stringify(name.length > 40 ? `${name.slice(0, 40)}…` : name);
}

// ------------------------------------------------------------------------------------------------
// Reader

class Reader {
  private pos = 0;
  readonly unknown = new Set<string>();
  /** Reused for the bytes of every string value, so that reading allocates no buffer per literal. */
  private readonly scratch = new ByteScratch();
  /** Set by {@link stringLiteral}: the literal had no escapes and only ASCII, so its bytes are its text. */
  private literalWasPlain = true;

  constructor(
    private readonly src: string,
    private readonly what: string,
  ) {}

  fail(offset: number, detail: string): never {
    throw new PrototextError(this.what, offset, detail);
  }

  /** What stands at `offset`, for "found …": a short quoted excerpt or "end of input". */
  private found(offset: number): string {
    if (offset >= this.src.length) return 'end of input';
    EXCERPT_RE.lastIndex = offset;
    const m = EXCERPT_RE.exec(this.src);
    let text = m ? m[0] : this.src.charAt(offset);
    if (text.length > MAX_EXCERPT) text = `${text.slice(0, MAX_EXCERPT)}…`;
    return JSON.stringify(text);
  }

  /** The source text of a token, shortened, quoted. */
  private excerpt(t: { offset: number; end: number }): string {
    let text = this.src.slice(t.offset, Math.min(t.end, t.offset + MAX_EXCERPT + 1)).trimEnd();
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

  // --- structure -------------------------------------------------------------------------------

  /** Decode the whole input as a message of type `desc`. */
  document(desc: MessageDescriptor): DecodedMessage {
    const state = new MessageState(desc);
    this.fields(null, 0, () => this.field(0, state, ''));
    return state.out;
  }

  /**
   * Read fields up to the `close` character (or the end of input at top level), calling `onField`
   * with `this.pos` at each field name. One `,` or `;` may follow each field.
   */
  private fields(close: number | null, _depth: number, onField: () => void): void {
    let separatorAllowed = false;
    for (;;) {
      this.pos = this.skipSpace(this.pos);
      const at = this.pos;
      if (at >= this.src.length) {
        if (close === null) return;
        this.fail(at, `expected ${JSON.stringify(String.fromCharCode(close))}, found end of input`);
      }
      const c = this.code(at);
      if (close !== null && c === close) {
        this.pos++;
        return;
      }
      if (close !== null && (c === RBRACE || c === RANGLE)) {
        this.fail(
          at,
          `mismatched close character ${this.found(at)}, expected ${JSON.stringify(String.fromCharCode(close))}`,
        );
      }
      if ((c === COMMA || c === SEMI) && separatorAllowed) {
        this.pos++;
        separatorAllowed = false;
        continue;
      }
      onField();
      separatorAllowed = true;
    }
  }

  /** Read `{…}` or `<…>` at `this.pos`, calling `onField` for each field inside. */
  private braced(depth: number, onField: (depth: number) => void): void {
    const offset = this.pos;
    if (depth >= MAX_DEPTH) this.fail(offset, `messages nested deeper than ${MAX_DEPTH} levels`);
    const close = this.code(offset) === LBRACE ? RBRACE : RANGLE;
    this.pos = offset + 1;
    this.fields(close, depth + 1, () => onField(depth + 1));
  }

  /** Read `[item, …]` at `this.pos`; `item` reads one message or scalar at `this.pos`. No trailing comma. */
  private list(item: () => void): void {
    this.pos = this.skipSpace(this.pos + 1);
    if (this.code(this.pos) === RBRACKET) {
      this.pos++;
      return;
    }
    for (;;) {
      if (this.pos >= this.src.length) this.fail(this.pos, 'expected a list value or "]", found end of input');
      item();
      this.pos = this.skipSpace(this.pos);
      const next = this.code(this.pos);
      if (next === RBRACKET) {
        this.pos++;
        return;
      }
      if (next !== COMMA) this.fail(this.pos, `expected "," or "]" in list, found ${this.found(this.pos)}`);
      this.pos = this.skipSpace(this.pos + 1);
    }
  }

  /** A field name (identifier, `[type.name]`, or number) and an optional `:`; leaves `this.pos` at the value. */
  private fieldName(): { name: string; nameKind: 'ident' | 'type' | 'number'; hasSeparator: boolean; offset: number } {
    const offset = this.pos;
    const c = this.code(offset);
    let name: string;
    let nameKind: 'ident' | 'type' | 'number';
    if (c === LBRACKET) {
      name = this.typeName();
      nameKind = 'type';
    } else if (isIdentStart(c)) {
      let i = offset + 1;
      while (isIdentChar(this.code(i))) i++;
      if (!isDelim(this.code(i))) this.fail(offset, `expected field name, found ${this.found(offset)}`);
      name = this.src.slice(offset, i);
      nameKind = 'ident';
      this.pos = i;
    } else {
      const num = this.number(offset);
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
    if (this.code(this.pos) === COLON) {
      hasSeparator = true;
      this.pos = this.skipSpace(this.pos + 1);
    }
    if (this.pos >= this.src.length)
      this.fail(this.pos, `expected a value for field ${quoteName(name)}, found end of input`);
    return { name, nameKind, hasSeparator, offset };
  }

  /** `[` type.name/url `]` (protobuf-go `parseTypeName`); whitespace allowed around the parts. */
  private typeName(): string {
    const start = this.pos;
    let i = this.skipSpace(start + 1);
    if (i >= this.src.length) this.fail(i, 'expected extension or type name, found end of input');
    const parts: string[] = [];
    let last = -1;
    const readPart = (): void => {
      const s = i;
      while (isTypeNameChar(this.code(i))) i++;
      if (i > s) {
        parts.push(this.src.slice(s, i));
        last = this.code(i - 1);
      }
      i = this.skipSpace(i);
    };
    readPart();
    for (;;) {
      if (i >= this.src.length) this.fail(start, `unterminated extension or type name ${this.found(start)}`);
      const c = this.code(i);
      if (c === RBRACKET) {
        i++;
        break;
      }
      if (c === 0x2f || c === 0x2e) {
        if (last === 0x2f || last === 0x2e)
          this.fail(i, `invalid extension or type name ${this.excerpt({ offset: start, end: i + 1 })}`);
        parts.push(this.src[i]!);
        last = c;
        i = this.skipSpace(i + 1);
        readPart();
        continue;
      }
      this.fail(i, `invalid extension or type name: unexpected ${this.found(i)}`);
    }
    const name = parts.join('');
    const first = name.charCodeAt(0);
    if (name === '' || first === 0x2e || last === 0x2e || last === 0x2f) {
      this.fail(start, `invalid extension or type name ${this.excerpt({ offset: start, end: i })}`);
    }
    this.pos = i;
    return name;
  }

  // --- fields of a known message ----------------------------------------------------------------

  /** One field of the message being decoded into `state` (or, when `state` is null, of a skipped message). */
  private field(depth: number, state: MessageState | null, path: string): void {
    const { name, nameKind, hasSeparator, offset } = this.fieldName();
    if (state === null) {
      this.skipValue(depth);
      return;
    }
    if (nameKind === 'number') this.fail(offset, `field given by number (${name}); prototext requires names`);
    const index = nameKind === 'ident' ? fieldIndex(state.desc).get(name) : undefined;
    const fd = index === undefined ? undefined : state.desc.fields[index];
    const out = state.out;
    const where = path === '' ? name : `${path}.${name}`;
    if (fd === undefined) {
      // Deliberately tolerant (Go's Unmarshal fails here): newer Vitess versions add fields.
      this.unknown.add(nameKind === 'type' ? `${path === '' ? '' : `${path}.`}[${name}]` : where);
      this.skipValue(depth);
      return;
    }
    const v = this.code(this.pos);
    if (fd.label === 'map') {
      const entry = (): void => {
        if (!isMessageOpen(this.code(this.pos))) {
          const s = this.scalar(where, v === LBRACKET);
          this.fail(s.offset, `field ${where}: expected a map entry {key: … value: …}, found ${this.excerpt(s)}`);
        }
        let map = out[fd.name] as Map<unknown, unknown>;
        if (map === EMPTY_MAP) out[fd.name] = map = new Map();
        this.mapEntry(depth, fd, where, map);
      };
      if (v === LBRACKET) this.list(entry);
      else entry();
      return;
    }
    if (!isMessageType(fd.type) && !hasSeparator) this.fail(offset, `field ${where}: missing ":" after the field name`);
    if (fd.label === 'repeated') {
      let items = out[fd.name] as unknown[];
      if (items === EMPTY_LIST) out[fd.name] = items = [];
      if (v === LBRACKET) this.list(() => items.push(this.value(depth, fd.type, where, true)));
      else items.push(this.value(depth, fd.type, where));
      return;
    }
    if (v === LBRACKET) this.fail(offset, `field ${where} is not repeated and cannot take a list`);
    if (state.has(index!)) this.fail(offset, `non-repeated field ${where} is repeated`);
    state.mark(index!);
    out[fd.name] = this.value(depth, fd.type, where);
  }

  /** A `{key: … value: …}` map entry at `this.pos`. A missing key or value takes its default; a later key wins. */
  private mapEntry(depth: number, fd: FieldDescriptor, where: string, map: Map<unknown, unknown>): void {
    const keyKind = fd.mapKey ?? 'string';
    let key: unknown;
    let value: unknown;
    let hasKey = false;
    let hasValue = false;
    this.braced(depth, (inner) => {
      const f = this.fieldName();
      if (f.nameKind !== 'ident' || (f.name !== 'key' && f.name !== 'value')) {
        this.unknown.add(f.nameKind === 'type' ? `${where}.[${f.name}]` : `${where}.${f.name}`);
        this.skipValue(inner);
        return;
      }
      const fieldWhere = `${where}.${f.name}`;
      if (this.code(this.pos) === LBRACKET) this.fail(f.offset, `map entry field ${fieldWhere} cannot take a list`);
      if (f.name === 'key') {
        if (!f.hasSeparator) this.fail(f.offset, `field ${fieldWhere}: missing ":" after the field name`);
        if (hasKey) this.fail(f.offset, `map entry field ${fieldWhere} is repeated`);
        key = this.value(inner, keyKind, fieldWhere);
        hasKey = true;
      } else {
        if (!isMessageType(fd.type) && !f.hasSeparator)
          this.fail(f.offset, `field ${fieldWhere}: missing ":" after the field name`);
        if (hasValue) this.fail(f.offset, `map entry field ${fieldWhere} is repeated`);
        value = this.value(inner, fd.type, fieldWhere);
        hasValue = true;
      }
    });
    if (!hasKey) key = scalarDefault(keyKind);
    if (!hasValue) value = isMessageType(fd.type) ? newMessage(fd.type) : typeDefault(fd.type);
    map.set(key, value);
  }

  /** A value of `type` at `this.pos`: a message for message types, else a scalar converted to the type. */
  private value(depth: number, type: FieldType, where: string, inList = false): unknown {
    const c = this.code(this.pos);
    if (isMessageType(type)) {
      if (!isMessageOpen(c)) {
        const s = this.scalar(where, inList);
        this.fail(s.offset, `field ${where}: expected a message {…}, found ${this.excerpt(s)}`);
      }
      const state = new MessageState(type);
      this.braced(depth, (inner) => this.field(inner, state, where));
      return state.out;
    }
    if (isMessageOpen(c))
      this.fail(
        this.pos,
        `field ${where}: expected a ${isEnumType(type) ? type.enumName : type} value, found a message`,
      );
    const s = this.scalar(where, inList);
    return isEnumType(type) ? this.enumValue(s, type, where) : this.convert(s, type, where);
  }

  /** Check and skip any value (message, list or scalar) without keeping it. */
  private skipValue(depth: number): void {
    const c = this.code(this.pos);
    if (c === LBRACKET) {
      this.list(() => {
        if (isMessageOpen(this.code(this.pos))) this.braced(depth, (inner) => this.field(inner, null, ''));
        else this.scalar(null, true);
      });
    } else if (isMessageOpen(c)) {
      this.braced(depth, (inner) => this.field(inner, null, ''));
    } else {
      this.scalar(null);
    }
  }

  // --- scalars -----------------------------------------------------------------------------------

  /**
   * A scalar token at `this.pos` (protobuf-go `parseScalar`): strings, then literals, then numbers.
   * `field` and `inList` only shape the error message.
   */
  private scalar(field: string | null, inList = false): Scalar {
    const offset = this.pos;
    const c = this.code(offset);
    if (c === QUOTE || c === APOS) {
      const bytes = this.scratch;
      bytes.reset();
      let i = offset;
      let literals = 0;
      let plain = true;
      let literalEnd = offset;
      // Adjacent literals concatenate, with only whitespace or comments between them.
      while (this.code(i) === QUOTE || this.code(i) === APOS) {
        literalEnd = this.stringLiteral(i, bytes);
        plain &&= this.literalWasPlain && literals === 0;
        literals++;
        i = this.skipSpace(literalEnd);
      }
      this.pos = i;
      // A single literal without escapes or non-ASCII is its own source text: slice it, copy nothing.
      const bin = plain ? this.src.slice(offset + 1, literalEnd - 1) : bytes.toBinary();
      return { kind: 'string', bin, offset, end: i };
    }
    // Literal: an identifier, optionally directly preceded by '-', followed by a delimiter.
    let i = c === 0x2d ? offset + 1 : offset;
    if (isIdentStart(this.code(i))) {
      i++;
      while (isIdentChar(this.code(i))) i++;
      if (isDelim(this.code(i))) {
        this.pos = this.skipSpace(i);
        return { kind: 'literal', text: this.src.slice(offset, i), offset, end: i };
      }
    }
    const num = this.number(offset);
    if (num !== null) {
      this.pos = this.skipSpace(num.end);
      return num;
    }
    const where = inList ? ' in list' : field === null ? '' : ` for field ${quoteName(field)}`;
    return this.fail(offset, `expected a value${where}, found ${this.found(offset)}`);
  }

  /**
   * A number at `start` (protobuf-go `parseNumber`): integer `-?([1-9][0-9]*|0[xX][0-9a-fA-F]+|0[0-7]*)`,
   * float `-?((0|[1-9][0-9]*)?([.][0-9]*)?([eE][+-]?[0-9]+)?[fF]?)`, whitespace or comments allowed
   * after the minus sign, and a delimiter required after it. Null if there is no number here.
   */
  private number(start: number): NumberToken | null {
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
    const make = (numberKind: NumberToken['numberKind'], end: number, textEnd: number): NumberToken | null => {
      if (end < len && !isDelim(this.code(end))) return null;
      const body = this.src.slice(bodyStart, textEnd);
      return { kind: 'number', text: negative ? `-${body}` : body, numberKind, negative, offset: start, end };
    };
    let kind: NumberToken['numberKind'] = 'dec';
    const c0 = this.code(i);
    if (c0 === 0x30) {
      const c1 = this.code(i + 1);
      if (c1 === 0x78 || c1 === 0x58) {
        let j = i + 2;
        while (isHex(this.code(j))) j++;
        return j === i + 2 ? null : make('hex', j, j);
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
    const textEnd = i;
    if (this.code(i) === 0x66 || this.code(i) === 0x46) {
      kind = 'float';
      i++;
    }
    return make(kind, i, textEnd);
  }

  /**
   * One quoted literal at `start`; appends its bytes (as a binary string) to `parts` and returns the
   * index after the closing quote. Escapes as in protobuf-go `parseString`: `\" \' \\ \? \a \b \f \n
   * \r \t \v`, octal `\N`..`\NNN` (≤ 0377), hex `\xN`/`\xNN`, `\uNNNN` (a surrogate pair as two
   * `\u`), `\UNNNNNNNN`. Raw NUL and newline are not allowed; other characters are their UTF-8 bytes.
   */
  private stringLiteral(start: number, bytes: ByteScratch): number {
    const src = this.src;
    const len = src.length;
    const quote = src.charCodeAt(start);
    let i = start + 1;
    let run = i; // start of the current run of plain ASCII characters, copied in one go
    this.literalWasPlain = true;
    for (;;) {
      if (i >= len) this.fail(start, 'unterminated string literal');
      const c = src.charCodeAt(i);
      if (c === quote) {
        bytes.pushAscii(src, run, i);
        return i + 1;
      }
      if (c < 0x80 && c !== BACKSLASH && c !== 0 && c !== LF) {
        i++;
        continue;
      }
      bytes.pushAscii(src, run, i);
      this.literalWasPlain = false;
      if (c === 0 || c === LF) this.fail(i, `invalid character ${JSON.stringify(src[i])} in string literal`);
      if (c !== BACKSLASH) {
        const cp = src.codePointAt(i)!;
        if (cp >= 0xd800 && cp <= 0xdfff) this.fail(i, 'invalid UTF-8 in string literal (unpaired surrogate)');
        bytes.pushCodePoint(cp);
        i += cp > 0xffff ? 2 : 1;
      } else {
        i = this.escape(i, start, bytes);
      }
      run = i;
    }
  }

  /** One escape sequence at `i` (a backslash) inside the literal opened at `start`; returns the index after it. */
  private escape(i: number, start: number, bytes: ByteScratch): number {
    const src = this.src;
    const len = src.length;
    if (i + 1 >= len) this.fail(start, 'unterminated string literal');
    const e = src.charCodeAt(i + 1);
    const simple = SIMPLE_ESCAPES[e];
    if (simple !== undefined) {
      bytes.push(simple);
      return i + 2;
    }
    if (isOctal(e)) {
      // One to three octal digits; the value must fit a byte (protobuf-go ParseUint(…, 8, 8)).
      let v = 0;
      let j = i + 1;
      while (j < i + 4 && isOctal(src.charCodeAt(j))) v = v * 8 + src.charCodeAt(j++) - 0x30;
      if (v > 0xff) this.fail(i, `invalid octal escape ${JSON.stringify(src.slice(i, j))} in string literal`);
      bytes.push(v);
      return j;
    }
    if (e === 0x78) {
      // One or two hex digits.
      let v = 0;
      let j = i + 2;
      while (j < i + 4 && isHex(src.charCodeAt(j))) v = v * 16 + hexValue(src.charCodeAt(j++));
      if (j === i + 2) this.fail(i, `invalid hex escape ${JSON.stringify(src.slice(i, i + 3))} in string literal`);
      bytes.push(v);
      return j;
    }
    if (e === 0x75 || e === 0x55) {
      // Exactly four (\u) or eight (\U) hex digits, at most U+10FFFF.
      const n = e === 0x75 ? 4 : 8;
      if (i + 2 + n > len) this.fail(start, 'unterminated string literal');
      let cp = this.hexDigits(i + 2, n);
      if (cp < 0 || cp > 0x10ffff)
        this.fail(i, `invalid Unicode escape ${JSON.stringify(src.slice(i, i + 2 + n))} in string literal`);
      let j = i + 2 + n;
      if (cp >= 0xd800 && cp <= 0xdfff) {
        // A surrogate must be the high half of a pair completed by a following \uXXXX.
        if (j + 6 > len) this.fail(start, 'unterminated string literal');
        const low = src.charCodeAt(j) === BACKSLASH && src.charCodeAt(j + 1) === 0x75 ? this.hexDigits(j + 2, 4) : -1;
        if (cp > 0xdbff || low < 0xdc00 || low > 0xdfff) {
          this.fail(
            j,
            `invalid Unicode escape ${JSON.stringify(src.slice(i, j + 6))} in string literal (unpaired surrogate)`,
          );
        }
        cp = 0x10000 + ((cp - 0xd800) << 10) + (low - 0xdc00);
        j += 6;
      }
      bytes.pushCodePoint(cp);
      return j;
    }
    return this.fail(i, `invalid escape ${JSON.stringify(src.slice(i, i + 2))} in string literal`);
  }

  /** The value of exactly `n` hex digits at `from`, or -1 if any is not a hex digit. */
  private hexDigits(from: number, n: number): number {
    let v = 0;
    for (let k = from; k < from + n; k++) {
      const c = this.src.charCodeAt(k);
      if (!isHex(c)) return -1;
      v = v * 16 + hexValue(c);
    }
    return v;
  }

  // --- conversions -------------------------------------------------------------------------------

  private enumValue(s: Scalar, type: EnumDescriptor, where: string): number {
    if (s.kind === 'literal' && !s.text.startsWith('-')) {
      const n = enumNumber(type, s.text);
      if (n !== null) return n;
      this.fail(s.offset, `field ${where}: unknown ${type.enumName} value ${this.excerpt(s)}`);
    }
    if (s.kind === 'number') {
      const n = integerOf(s);
      if (n !== null && n >= LIMITS.int32[0] && n <= LIMITS.int32[1]) return Number(n);
    }
    return this.fail(s.offset, `field ${where}: expected a ${type.enumName} name or number, found ${this.excerpt(s)}`);
  }

  /** Convert a scalar token to a value of `kind` (protobuf-go `unmarshalScalar`). */
  private convert(s: Scalar, kind: ScalarKind, where: string): unknown {
    switch (kind) {
      case 'string':
        if (s.kind !== 'string') break;
        if (ASCII_ONLY.test(s.bin)) return s.bin;
        try {
          return utf8Decoder.decode(binaryToBytes(s.bin));
        } catch {
          return this.fail(s.offset, `field ${where}: string is not valid UTF-8 (use a bytes field for raw bytes)`);
        }
      case 'bytes':
        if (s.kind === 'string') return binaryToBytes(s.bin);
        break;
      case 'bool':
        if (s.kind === 'literal' && Object.hasOwn(BOOL_LITERALS, s.text)) return BOOL_LITERALS[s.text];
        // Go accepts an unsigned integer spelling of 0 or 1 (`1`, `0x1`, `01`; even `1f`).
        if (s.kind === 'number' && !s.negative && UINT_BASE0.test(s.text)) {
          const n = BigInt(s.numberKind === 'oct' ? `0o${s.text.slice(1)}` : s.text);
          if (n === 0n || n === 1n) return n === 1n;
        }
        break;
      case 'int32':
      case 'int64':
      case 'uint32':
      case 'uint64': {
        if (s.kind !== 'number') break;
        const n = integerOf(s);
        if (n === null || (kind.startsWith('u') && s.negative)) break;
        const [lo, hi] = LIMITS[kind];
        if (n < lo || n > hi) this.fail(s.offset, `field ${where}: ${this.excerpt(s)} is out of range for ${kind}`);
        return kind.endsWith('64') ? n : Number(n);
      }
      case 'double':
      case 'float': {
        if (s.kind === 'literal') {
          const f = FLOAT_LITERALS[s.text.toLowerCase()];
          if (f !== undefined) return f;
          break;
        }
        if (s.kind !== 'number' || s.numberKind === 'hex') break;
        // Go's ParseFloat reads a leading-zero "octal" literal as decimal.
        const n = Number(s.numberKind === 'oct' ? s.text.replace(/^(-?)0+(?=\d)/, '$1') : s.text);
        if (Number.isNaN(n)) break;
        return kind === 'float' ? Math.fround(n) : n;
      }
    }
    return this.fail(s.offset, `field ${where}: expected a ${kind} value, found ${this.excerpt(s)}`);
  }
}

/** Byte value of each single-character escape (`\"`, `\n` …). */
const SIMPLE_ESCAPES: Readonly<Record<number, number>> = {
  34: 0x22,
  39: 0x27,
  92: 0x5c,
  63: 0x3f,
  97: 0x07,
  98: 0x08,
  102: 0x0c,
  110: 0x0a,
  114: 0x0d,
  116: 0x09,
  118: 0x0b,
};

/**
 * Shared read-only defaults for empty repeated and map fields, replaced by a fresh container on the
 * first element: most rules have no maps, and allocating three empty Maps per rule dominated the cost
 * of large inputs.
 */
const EMPTY_LIST: readonly unknown[] = Object.freeze([]);
const EMPTY_MAP: ReadonlyMap<unknown, unknown> = new Map();

function newMessage(desc: MessageDescriptor): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of desc.fields) {
    out[f.name] = f.label === 'repeated' ? EMPTY_LIST : f.label === 'map' ? EMPTY_MAP : typeDefault(f.type);
  }
  return out;
}

/** A message being decoded: its values and which singular fields were already given. */
class MessageState {
  readonly out: Record<string, unknown>;
  private seen = 0;
  private seenHigh: Set<number> | null = null;
  constructor(readonly desc: MessageDescriptor) {
    this.out = newMessage(desc);
  }
  has(index: number): boolean {
    return index < 31 ? (this.seen & (1 << index)) !== 0 : (this.seenHigh?.has(index) ?? false);
  }
  mark(index: number): void {
    if (index < 31) this.seen |= 1 << index;
    else (this.seenHigh ??= new Set()).add(index);
  }
}

const FIELD_INDEX = new WeakMap<MessageDescriptor, ReadonlyMap<string, number>>();
/** Field name → index in `desc.fields`, computed once per descriptor. */
function fieldIndex(desc: MessageDescriptor): ReadonlyMap<string, number> {
  let index = FIELD_INDEX.get(desc);
  if (index === undefined) {
    index = new Map(desc.fields.map((f, i) => [f.name, i]));
    FIELD_INDEX.set(desc, index);
  }
  return index;
}

function typeDefault(t: FieldType): unknown {
  if (isMessageType(t)) return null;
  if (isEnumType(t)) return 0;
  return scalarDefault(t);
}

function scalarDefault(k: ScalarKind): unknown {
  switch (k) {
    case 'string':
      return '';
    case 'bytes':
      return new Uint8Array(0);
    case 'bool':
      return false;
    case 'int64':
    case 'uint64':
      return 0n;
    default:
      return 0;
  }
}

/**
 * Read prototext as a message of type `desc`.
 *
 * Mirrors `prototext.Unmarshal` (`protocolbuffers/protobuf-go:encoding/prototext/decode.go`) over the
 * grammar of `internal/encoding/text`: `{…}` and `<…>` messages with an optional `:` before them,
 * `[…]` lists for repeated fields (or the field repeated), one optional `,` or `;` after each field,
 * whitespace and `#` comments between tokens, quoted strings with every escape and adjacent-literal
 * concatenation, identifiers, decimal/hex/octal/float numbers. Field names only (not numbers, not
 * JSON names); `:` required before scalar values; a singular field given twice is an error; maps as
 * `{key: … value: …}` entries (a later key wins); bools as `true/false/True/False/t/f` or `0/1`;
 * enums by name or number; string fields must be valid UTF-8. Absent fields take proto3 defaults
 * (`''`, `0`, `0n`, `false`, empty bytes, `[]`, empty `Map`, `null` for messages); returned
 * arrays and Maps are read-only (empty ones are shared).
 *
 * Differs from Go on purpose: unknown fields (and extensions, and unknown map-entry fields) are
 * skipped with their values and listed in `unknownFields` instead of failing the whole read; messages
 * may nest at most {@link MAX_DEPTH} deep.
 *
 * @param what names the input in error messages (`invalid <what> at character …`).
 * @throws PrototextError (one line) on a syntax error or a value of the wrong type.
 */
export function decodeTextProto(text: string, desc: MessageDescriptor, what = desc.messageName): Decoded {
  if (typeof text !== 'string') throw new PrototextError(what, 0, `expected a string, got ${typeof text}`);
  const reader = new Reader(text, what);
  const message = reader.document(desc);
  return { message, unknownFields: [...reader.unknown] };
}
