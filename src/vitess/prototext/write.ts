/**
 * Protocol Buffers text format ("prototext"): the single-line writer, as Go's `prototext.Marshal`
 * (`protocolbuffers/protobuf-go:encoding/prototext/encode.go` over `internal/encoding/text/encode.go`).
 * Its output reads back with `./read.ts` to the same message.
 */

import {
  type DecodedMessage,
  enumName,
  type FieldType,
  isEnumType,
  isMessageType,
  LIMITS,
  type MessageDescriptor,
} from './schema.js';

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

/**
 * Length of the valid UTF-8 sequence starting at `i` (a lead byte ≥ 0x80), or 0 if invalid (Go's `utf8.DecodeRune`
 * rules).
 */
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
  if (LONE_SURROGATE.test(s))
    throw new Error(`cannot write ${where}: the string contains an unpaired surrogate, which is not valid Unicode`);
  return utf8Encoder.encode(s);
}

/**
 * Order map keys as Go does for `order.GenericKeyOrder`: numbers and bools by value, strings by code point (= UTF-8
 * byte order).
 */
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
    if (typeof v !== 'number' || !Number.isInteger(v))
      throw new Error(`cannot write ${where}: expected an enum number`);
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
    case 'int32':
    case 'uint32':
    case 'int64':
    case 'uint64': {
      const n = typeof v === 'number' && Number.isInteger(v) ? BigInt(v) : typeof v === 'bigint' ? v : null;
      if (n === null) break;
      const [lo, hi] = LIMITS[t];
      if (n < lo || n > hi) throw new Error(`cannot write ${where}: ${n} is out of range for ${t}`);
      return n.toString();
    }
    case 'double':
    case 'float':
      if (typeof v !== 'number') break;
      if (Number.isNaN(v)) return 'nan';
      if (!Number.isFinite(v)) return v > 0 ? 'inf' : '-inf';
      return String(v);
  }
  throw new Error(`cannot write ${where}: expected a ${t} value`);
}
