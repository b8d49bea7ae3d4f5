/**
 * Protocol Buffers text format ("prototext"): the schema both directions share.
 *
 * A hand-written subset of protobuf descriptors (message, field, enum, scalar kinds), enough for the
 * Vitess messages this tool reads from and writes into sidecar tables. The reader is `./read.ts`
 * (`prototext.Unmarshal`), the writer `./write.ts` (`prototext.Marshal`).
 */

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

/** The type of a field's values: a scalar kind, an enum, or a message. */
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

export function isMessageType(t: FieldType): t is MessageDescriptor {
  return typeof t === 'object' && 'fields' in t;
}
export function isEnumType(t: FieldType): t is EnumDescriptor {
  return typeof t === 'object' && 'values' in t;
}

/**
 * The canonical (first declared) name of an enum number, or `null` if it has none; as protobuf-go's
 * `EnumValueDescriptors.ByNumber`, which the text encoder uses to print enums.
 */
export function enumName(desc: EnumDescriptor, num: number): string | null {
  for (const [name, n] of desc.values) if (n === num) return name;
  return null;
}

/** The number of an enum name (aliases included), or `null`; as protobuf-go's `EnumValueDescriptors.ByName`. */
export function enumNumber(desc: EnumDescriptor, name: string): number | null {
  for (const [n, num] of desc.values) if (n === name) return num;
  return null;
}

/** Value ranges of the integer scalar kinds. */
export const LIMITS: Readonly<Record<'int32' | 'int64' | 'uint32' | 'uint64', readonly [bigint, bigint]>> = {
  int32: [-(1n << 31n), (1n << 31n) - 1n],
  int64: [-(1n << 63n), (1n << 63n) - 1n],
  uint32: [0n, (1n << 32n) - 1n],
  uint64: [0n, (1n << 64n) - 1n],
};
