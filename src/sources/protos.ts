/**
 * The one place that loads vtpreflight's `.proto` subset (`protos/`) and fixes the @grpc/proto-loader options.
 *
 * Every decoder and encoder in the project (the vtctld client, the fake vtctld server, the wire-fixture test)
 * goes through this module, so a decoded message always has the same shape: proto field names (snake_case,
 * like vtctldclient's JSON), 64-bit integers as decimal strings (stream ids and timestamps must not lose
 * precision), enums as names, bytes as Buffers, absent scalars as their zero value and absent messages as
 * `null`.
 */
import { fileURLToPath } from 'node:url';
import { loadSync, type Options, type PackageDefinition } from '@grpc/proto-loader';
import type { ServiceDefinition } from '@grpc/grpc-js';

/** The fixed proto-loader options. Never pass other options anywhere else. */
export const PROTO_LOADER_OPTIONS: Readonly<Options> = Object.freeze({
  keepCase: true,
  longs: String,
  enums: String,
  bytes: Buffer,
  defaults: true,
  oneofs: true,
});

/**
 * Absolute path of the `protos/` directory, resolved from this compiled file
 * (`dist/src/sources/protos.js` → `../../../protos`), so it works from any working directory and from an
 * installed package (`protos/` is in the package's `files`).
 */
export const PROTOS_DIR: string = fileURLToPath(new URL('../../../protos/', import.meta.url));

/** The entry file; it imports every other file of the subset. */
const ENTRY_PROTO = 'vtctlservice.proto';

/** Fully-qualified name of the vtctld service. */
export const VTCTLD_SERVICE = 'vtctlservice.Vtctld';

let cachedDefinition: PackageDefinition | undefined;

/** Loads (once) and returns the package definition of `protos/`, with the fixed options. */
export function loadVtctldProtos(): PackageDefinition {
  cachedDefinition ??= loadSync(ENTRY_PROTO, { ...PROTO_LOADER_OPTIONS, includeDirs: [PROTOS_DIR] });
  return cachedDefinition;
}

/** The `vtctlservice.Vtctld` service definition, for `grpc.Client#makeUnaryRequest` and `grpc.Server#addService`. */
export function vtctldServiceDefinition(): ServiceDefinition {
  const def = loadVtctldProtos()[VTCTLD_SERVICE];
  if (def === undefined || !isServiceDefinition(def))
    throw new Error(`${VTCTLD_SERVICE} is missing from ${PROTOS_DIR}`);
  return def as unknown as ServiceDefinition;
}

interface SerializingTypeDefinition {
  readonly format: string;
  readonly type: DescriptorMessage;
  readonly serialize: (value: object) => Buffer;
  readonly deserialize: (bytes: Buffer) => object;
}

function isServiceDefinition(def: object): boolean {
  return !('format' in def);
}

function topLevelMessage(fullName: string): SerializingTypeDefinition {
  const def = loadVtctldProtos()[fullName] as Partial<SerializingTypeDefinition> | undefined;
  if (def === undefined || typeof def.deserialize !== 'function' || typeof def.serialize !== 'function') {
    throw new Error(`unknown top-level message type ${fullName} in ${PROTOS_DIR}`);
  }
  return def as SerializingTypeDefinition;
}

/**
 * Decodes protobuf bytes of a top-level message type (e.g. `vtctldata.GetTabletsResponse`) into a plain
 * object with the fixed options: exactly what the vtctld client sees for the same bytes.
 */
export function decodeMessage<T = Record<string, unknown>>(fullName: string, bytes: Uint8Array): T {
  return topLevelMessage(fullName).deserialize(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)) as T;
}

// ---------------------------------------------------------------------------------------------------------
// Schema reflection (used by the wire-fixture test to project protojson onto what our subset declares).

/** The scalar kinds of `google.protobuf.FieldDescriptorProto.Type`, lower-cased without the `TYPE_` prefix. */
export type ScalarKind =
  | 'double'
  | 'float'
  | 'int64'
  | 'uint64'
  | 'int32'
  | 'fixed64'
  | 'fixed32'
  | 'bool'
  | 'string'
  | 'bytes'
  | 'uint32'
  | 'sfixed32'
  | 'sfixed64'
  | 'sint32'
  | 'sint64';

/** One declared field, with its type resolved to a fully-qualified name. */
export type FieldSchema =
  | {
      readonly name: string;
      readonly number: number;
      readonly repeated: boolean;
      readonly kind: 'scalar';
      readonly scalar: ScalarKind;
    }
  | {
      readonly name: string;
      readonly number: number;
      readonly repeated: boolean;
      readonly kind: 'enum';
      readonly typeName: string;
    }
  | {
      readonly name: string;
      readonly number: number;
      readonly repeated: boolean;
      readonly kind: 'message';
      readonly typeName: string;
    }
  | {
      readonly name: string;
      readonly number: number;
      readonly repeated: false;
      readonly kind: 'map';
      readonly key: ScalarKind;
      readonly value: FieldSchema;
    };

/** A message as declared in `protos/`. */
export interface MessageSchema {
  readonly fullName: string;
  readonly fields: readonly FieldSchema[];
}

interface DescriptorField {
  readonly name: string;
  readonly number: number;
  readonly label: string;
  readonly type: string;
  readonly typeName: string;
}
interface DescriptorEnum {
  readonly name: string;
  readonly value: readonly { readonly name: string; readonly number: number }[];
}
interface DescriptorMessage {
  readonly name: string;
  readonly field: readonly DescriptorField[];
  readonly nestedType: readonly DescriptorMessage[];
  readonly enumType: readonly DescriptorEnum[];
  readonly options: { readonly mapEntry?: boolean } | null;
}

interface SchemaIndex {
  readonly messages: Map<string, DescriptorMessage>;
  readonly enums: Map<string, DescriptorEnum>;
}

let cachedIndex: SchemaIndex | undefined;

function schemaIndex(): SchemaIndex {
  if (cachedIndex !== undefined) return cachedIndex;
  const messages = new Map<string, DescriptorMessage>();
  const enums = new Map<string, DescriptorEnum>();
  const addMessage = (fullName: string, d: DescriptorMessage): void => {
    messages.set(fullName, d);
    for (const n of d.nestedType) addMessage(`${fullName}.${n.name}`, n);
    for (const e of d.enumType) enums.set(`${fullName}.${e.name}`, e);
  };
  for (const [name, def] of Object.entries(loadVtctldProtos())) {
    if (!('format' in def)) continue;
    const d = def as { format: string; type: unknown };
    if (d.format.includes('EnumDescriptorProto')) enums.set(name, d.type as DescriptorEnum);
    else if (d.format.includes('DescriptorProto')) addMessage(name, d.type as DescriptorMessage);
  }
  cachedIndex = { messages, enums };
  return cachedIndex;
}

/** Resolves a (possibly relative) type name as protoc does: innermost enclosing scope first. */
function resolveTypeName(scope: string, typeName: string, index: SchemaIndex): string {
  if (typeName.startsWith('.')) return typeName.slice(1);
  const parts = scope.split('.');
  for (let i = parts.length; i >= 0; i--) {
    const candidate = [...parts.slice(0, i), typeName].join('.');
    if (index.messages.has(candidate) || index.enums.has(candidate)) return candidate;
  }
  throw new Error(`cannot resolve type ${typeName} from ${scope}`);
}

function fieldSchema(scope: string, f: DescriptorField, index: SchemaIndex): FieldSchema {
  const repeated = f.label === 'LABEL_REPEATED';
  const base = { name: f.name, number: f.number, repeated };
  if (f.type === 'TYPE_ENUM') return { ...base, kind: 'enum', typeName: resolveTypeName(scope, f.typeName, index) };
  if (f.type === 'TYPE_MESSAGE') {
    const typeName = resolveTypeName(scope, f.typeName, index);
    const entry = index.messages.get(typeName);
    if (entry?.options?.mapEntry === true) {
      const keyField = entry.field.find((x) => x.number === 1);
      const valueField = entry.field.find((x) => x.number === 2);
      if (keyField === undefined || valueField === undefined) throw new Error(`malformed map entry ${typeName}`);
      const key = fieldSchema(typeName, keyField, index);
      if (key.kind !== 'scalar') throw new Error(`map key of ${typeName} is not a scalar`);
      return {
        name: f.name,
        number: f.number,
        repeated: false,
        kind: 'map',
        key: key.scalar,
        value: fieldSchema(typeName, valueField, index),
      };
    }
    return { ...base, kind: 'message', typeName };
  }
  return { ...base, kind: 'scalar', scalar: f.type.replace(/^TYPE_/, '').toLowerCase() as ScalarKind };
}

/** The declared fields of a message (top-level or nested, e.g. `vtctldata.Workflow.Stream`), types resolved. */
export function messageSchema(fullName: string): MessageSchema {
  const index = schemaIndex();
  const d = index.messages.get(fullName);
  if (d === undefined) throw new Error(`unknown message type ${fullName} in ${PROTOS_DIR}`);
  return { fullName, fields: d.field.map((f) => fieldSchema(fullName, f, index)) };
}
