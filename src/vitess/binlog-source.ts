/**
 * `binlogdata.BinlogSource`, the `source` column of `_vt.vreplication`, read from and written to the
 * protobuf text format.
 *
 * Upstream: the message definitions in `vitessio/vitess:proto/binlogdata.proto` (`BinlogSource`,
 * `Filter`, `Rule`, `CharsetConversion`, `OnDDLAction`) and `proto/topodata.proto` (`KeyRange`,
 * `TabletType`); Vitess writes the column with `prototext.Marshal` / `bls.String()` (e.g.
 * `go/vt/vtctl/workflow/materializer.go` `generateBinlogSources`) and reads it with
 * `prototext.Unmarshal` (`go/vt/vttablet/tabletmanager/vreplication/controller.go` `newController`).
 * The grammar lives in `./prototext/` (`read.ts`, `write.ts`, `schema.ts`).
 */
import { quoteText } from './quote.js';
import type { KeyRange } from './keyrange.js';
import { bytesToHex, hexToBytes } from './keyrange.js';
import { decodeTextProto } from './prototext/read.js';
import {
  type DecodedMessage,
  type EnumDescriptor,
  enumName,
  enumNumber,
  type MessageDescriptor,
} from './prototext/schema.js';
import { encodeTextProto } from './prototext/write.js';

/** `binlogdata.OnDDLAction`: what the stream does with a DDL on the source. */
export type OnDdlAction = 'IGNORE' | 'STOP' | 'EXEC' | 'EXEC_IGNORE';

/** `binlogdata.CharsetConversion`. */
export interface CharsetConversion {
  readonly fromCharset: string;
  readonly toCharset: string;
}

/** `binlogdata.Rule`: one table rule of a filter. */
export interface Rule {
  /** Table name, or `/regexp` (Reshard uses `/.*`). */
  readonly match: string;
  /** `''` (whole table), a key range (`-80`), `exclude`, or a `select …` statement. */
  readonly filter: string;
  readonly convertEnumToText: Readonly<Record<string, string>>;
  readonly convertCharset: Readonly<Record<string, { readonly fromCharset: string; readonly toCharset: string }>>;
  readonly sourceUniqueKeyColumns: string;
  readonly targetUniqueKeyColumns: string;
  readonly sourceUniqueKeyTargetColumns: string;
  readonly convertIntToEnum: Readonly<Record<string, boolean>>;
  readonly forceUniqueKey: string;
}

/** `binlogdata.Filter`: ordered rules (the first match wins). */
export interface Filter {
  readonly rules: readonly Rule[];
  readonly fieldEventMode: 'ERR_ON_MISMATCH' | 'BEST_EFFORT';
  /** int64 `workflow_type` as a decimal string (`'0'` when absent). */
  readonly workflowType: string;
  readonly workflowName: string;
}

/** `binlogdata.BinlogSource` with camelCase fields and proto3 defaults for absent ones. */
export interface BinlogSource {
  readonly keyspace: string;
  readonly shard: string;
  /**
   * `topodata.TabletType` canonical name (`UNKNOWN` when absent; the alias `MASTER` reads as `PRIMARY`,
   * `BATCH` as `RDONLY`); a number with no name is kept as its decimal string.
   */
  readonly tabletType: string;
  /** `null` when absent; bounds as lower-case hex of the raw bytes. */
  readonly keyRange: KeyRange | null;
  readonly tables: readonly string[];
  /** `null` when absent. */
  readonly filter: Filter | null;
  readonly onDdl: OnDdlAction;
  readonly externalMysql: string;
  readonly stopAfterCopy: boolean;
  readonly externalCluster: string;
  readonly sourceTimeZone: string;
  readonly targetTimeZone: string;
  /** Paths of fields this version does not know (`filter.rules.foo`), skipped with their values. */
  readonly unknownFields: readonly string[];
}

/** `topodata.TabletType` (allow_alias: `MASTER` = `PRIMARY`, `BATCH` = `RDONLY`), from `proto/topodata.proto`. */
export const TABLET_TYPE: EnumDescriptor = {
  enumName: 'topodata.TabletType',
  values: [
    ['UNKNOWN', 0],
    ['PRIMARY', 1],
    ['MASTER', 1],
    ['REPLICA', 2],
    ['RDONLY', 3],
    ['BATCH', 3],
    ['SPARE', 4],
    ['EXPERIMENTAL', 5],
    ['BACKUP', 6],
    ['RESTORE', 7],
    ['DRAINED', 8],
  ],
};

const ON_DDL: EnumDescriptor = {
  enumName: 'binlogdata.OnDDLAction',
  values: [
    ['IGNORE', 0],
    ['STOP', 1],
    ['EXEC', 2],
    ['EXEC_IGNORE', 3],
  ],
};

const FIELD_EVENT_MODE: EnumDescriptor = {
  enumName: 'binlogdata.Filter.FieldEventMode',
  values: [
    ['ERR_ON_MISMATCH', 0],
    ['BEST_EFFORT', 1],
  ],
};

const KEY_RANGE: MessageDescriptor = {
  messageName: 'topodata.KeyRange',
  fields: [
    { name: 'start', number: 1, type: 'bytes' },
    { name: 'end', number: 2, type: 'bytes' },
  ],
};

const CHARSET_CONVERSION: MessageDescriptor = {
  messageName: 'binlogdata.CharsetConversion',
  fields: [
    { name: 'from_charset', number: 1, type: 'string' },
    { name: 'to_charset', number: 2, type: 'string' },
  ],
};

const RULE: MessageDescriptor = {
  messageName: 'binlogdata.Rule',
  fields: [
    { name: 'match', number: 1, type: 'string' },
    { name: 'filter', number: 2, type: 'string' },
    { name: 'convert_enum_to_text', number: 3, type: 'string', label: 'map', mapKey: 'string' },
    { name: 'convert_charset', number: 4, type: CHARSET_CONVERSION, label: 'map', mapKey: 'string' },
    { name: 'source_unique_key_columns', number: 5, type: 'string' },
    { name: 'target_unique_key_columns', number: 6, type: 'string' },
    { name: 'source_unique_key_target_columns', number: 7, type: 'string' },
    { name: 'convert_int_to_enum', number: 8, type: 'bool', label: 'map', mapKey: 'string' },
    { name: 'force_unique_key', number: 9, type: 'string' },
  ],
};

const FILTER: MessageDescriptor = {
  messageName: 'binlogdata.Filter',
  fields: [
    { name: 'rules', number: 1, type: RULE, label: 'repeated' },
    { name: 'field_event_mode', number: 2, type: FIELD_EVENT_MODE },
    { name: 'workflow_type', number: 3, type: 'int64' },
    { name: 'workflow_name', number: 4, type: 'string' },
  ],
};

/** The `binlogdata.BinlogSource` schema (field names and numbers as upstream `proto/binlogdata.proto`). */
export const BINLOG_SOURCE: MessageDescriptor = {
  messageName: 'BinlogSource',
  fields: [
    { name: 'keyspace', number: 1, type: 'string' },
    { name: 'shard', number: 2, type: 'string' },
    { name: 'tablet_type', number: 3, type: TABLET_TYPE },
    { name: 'key_range', number: 4, type: KEY_RANGE },
    { name: 'tables', number: 5, type: 'string', label: 'repeated' },
    { name: 'filter', number: 6, type: FILTER },
    { name: 'on_ddl', number: 7, type: ON_DDL },
    { name: 'external_mysql', number: 8, type: 'string' },
    { name: 'stop_after_copy', number: 9, type: 'bool' },
    { name: 'external_cluster', number: 10, type: 'string' },
    { name: 'source_time_zone', number: 11, type: 'string' },
    { name: 'target_time_zone', number: 12, type: 'string' },
  ],
};

const WHAT = 'BinlogSource';

function closedEnum<T extends string>(desc: EnumDescriptor, num: number, where: string): T {
  const name = enumName(desc, num);
  if (name === null) {
    // Go would keep an unnamed number; these fields' types are closed unions, so refuse it clearly.
    throw new Error(`invalid ${WHAT}: ${where} has unknown ${desc.enumName} number ${num}`);
  }
  return name as T;
}

/** Shared value for the (usual) empty maps of a Rule. */
const EMPTY_RECORD: Readonly<Record<string, never>> = Object.freeze({});

/** A decoded map as a plain record; `Object.fromEntries` keeps a key such as `__proto__` an ordinary own key. */
function toRecord<V, W>(map: unknown, convert: (v: V) => W): Readonly<Record<string, W>> {
  const m = map as ReadonlyMap<string, V>;
  if (m.size === 0) return EMPTY_RECORD;
  return Object.fromEntries(Array.from(m, ([k, v]) => [k, convert(v)]));
}

function toRule(m: DecodedMessage): Rule {
  return {
    match: m['match'] as string,
    filter: m['filter'] as string,
    convertEnumToText: toRecord<string, string>(m['convert_enum_to_text'], (v) => v),
    convertCharset: toRecord<DecodedMessage, CharsetConversion>(m['convert_charset'], (v) => ({
      fromCharset: v['from_charset'] as string,
      toCharset: v['to_charset'] as string,
    })),
    sourceUniqueKeyColumns: m['source_unique_key_columns'] as string,
    targetUniqueKeyColumns: m['target_unique_key_columns'] as string,
    sourceUniqueKeyTargetColumns: m['source_unique_key_target_columns'] as string,
    convertIntToEnum: toRecord<boolean, boolean>(m['convert_int_to_enum'], (v) => v),
    forceUniqueKey: m['force_unique_key'] as string,
  };
}

function toFilter(m: DecodedMessage): Filter {
  return {
    rules: (m['rules'] as DecodedMessage[]).map(toRule),
    fieldEventMode: closedEnum(FIELD_EVENT_MODE, m['field_event_mode'] as number, 'filter.field_event_mode'),
    workflowType: (m['workflow_type'] as bigint).toString(),
    workflowName: m['workflow_name'] as string,
  };
}

// ---------------------------------------------------------------------------------------------------------------
/**
 * A fast reader for the common shape of the `source` column: the single-line text Vitess writes (`prototext.Marshal`
 * / golang/protobuf v1's `<…>` spelling), known fields in field-number order, plain printable-ASCII strings. It
 * answers exactly what `parseBinlogSource`'s full decoder answers for the texts it accepts, and `null` for
 * anything else (escapes, comments, maps, unknown or repeated singular fields, numbers that are not plain decimals,
 * any syntax error), which the caller then hands to the full decoder. At 65,536 streams the full decoder was the
 * largest single item of the model build.
 *
 * Equality with the full decoder is proven by a differential test over the upstream fixtures, generated sources and
 * mutated texts (`test/vitess/binlog-source-fast.test.ts`).
 */

/** Canonical `topodata.TabletType` names by the names the decoder accepts (aliases: MASTER, BATCH). */
const FAST_TABLET_TYPES: Readonly<Record<string, string>> = {
  UNKNOWN: 'UNKNOWN',
  PRIMARY: 'PRIMARY',
  MASTER: 'PRIMARY',
  REPLICA: 'REPLICA',
  RDONLY: 'RDONLY',
  BATCH: 'RDONLY',
  SPARE: 'SPARE',
  EXPERIMENTAL: 'EXPERIMENTAL',
  BACKUP: 'BACKUP',
  RESTORE: 'RESTORE',
  DRAINED: 'DRAINED',
};
const FAST_ON_DDL = new Set(['IGNORE', 'STOP', 'EXEC', 'EXEC_IGNORE']);
const FAST_FIELD_EVENT_MODE = new Set(['ERR_ON_MISMATCH', 'BEST_EFFORT']);

const TOP_FIELDS: Readonly<Record<string, number>> = {
  keyspace: 1,
  shard: 2,
  tablet_type: 3,
  key_range: 4,
  tables: 5,
  filter: 6,
  on_ddl: 7,
  external_mysql: 8,
  stop_after_copy: 9,
  external_cluster: 10,
  source_time_zone: 11,
  target_time_zone: 12,
};
const FILTER_FIELDS: Readonly<Record<string, number>> = {
  rules: 1,
  field_event_mode: 2,
  workflow_type: 3,
  workflow_name: 4,
};
const RULE_FIELDS: Readonly<Record<string, number>> = {
  match: 1,
  filter: 2,
  source_unique_key_columns: 5,
  target_unique_key_columns: 6,
  source_unique_key_target_columns: 7,
  force_unique_key: 9,
};
const KEY_RANGE_FIELDS: Readonly<Record<string, number>> = { start: 1, end: 2 };

class FastReader {
  i = 0;
  constructor(readonly t: string) {}

  skipSpaces(): void {
    while (this.t.charCodeAt(this.i) === 32) this.i++;
  }

  atEnd(): boolean {
    this.skipSpaces();
    return this.i >= this.t.length;
  }

  /** A field name (`[a-z_]+`) followed by `:`; null when the text has something else here. */
  name(): string | null {
    this.skipSpaces();
    const start = this.i;
    for (;;) {
      const c = this.t.charCodeAt(this.i);
      if ((c >= 97 && c <= 122) || c === 95) this.i++;
      else break;
    }
    if (this.i === start || this.t.charCodeAt(this.i) !== 58) return null;
    const n = this.t.slice(start, this.i);
    this.i++; // ':'
    this.skipSpaces();
    return n;
  }

  /** A double-quoted string of printable ASCII without escapes; null otherwise. */
  str(): string | null {
    if (this.t.charCodeAt(this.i) !== 34) return null;
    const start = ++this.i;
    for (;;) {
      const c = this.t.charCodeAt(this.i);
      if (c === 34) break;
      if (!(c >= 32 && c <= 126) || c === 92) return null;
      this.i++;
    }
    const s = this.t.slice(start, this.i);
    this.i++;
    // A space, a closing bracket or the end must follow (adjacent literals concatenate: the full decoder's business).
    return this.endsValue() ? s : null;
  }

  /** An identifier value (`[A-Za-z_][A-Za-z0-9_]*`), ended by a space, a closing bracket or the end. */
  ident(): string | null {
    const start = this.i;
    for (;;) {
      const c = this.t.charCodeAt(this.i);
      if ((c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || (this.i > start && c >= 48 && c <= 57)) this.i++;
      else break;
    }
    if (this.i === start || !this.endsValue()) return null;
    return this.t.slice(start, this.i);
  }

  /** A plain decimal integer (`0` or `-?[1-9][0-9]{0,17}`), ended like {@link ident}. */
  decimal(): string | null {
    const m = /^-?(?:0|[1-9][0-9]{0,17})/.exec(this.t.slice(this.i, this.i + 20));
    if (m === null) return null;
    this.i += m[0].length;
    return this.endsValue() ? m[0] : null;
  }

  /** What may follow a value: a space, a field separator (`,` `;`), a closing bracket, the end. */
  endsValue(): boolean {
    const c = this.t.charCodeAt(this.i);
    return Number.isNaN(c) || c === 32 || c === 44 || c === 59 || c === 125 || c === 62;
  }

  /** One optional `,` or `;` after a field. */
  separator(): void {
    this.skipSpaces();
    const c = this.t.charCodeAt(this.i);
    if (c === 44 || c === 59) this.i++;
  }

  /** `{` or `<`; returns the closing character code, or 0. */
  open(): number {
    const c = this.t.charCodeAt(this.i);
    if (c === 123 || c === 60) {
      this.i++;
      return c === 123 ? 125 : 62;
    }
    return 0;
  }

  /** True (and consumed) when the next non-space character is `close`. */
  close(close: number): boolean {
    this.skipSpaces();
    if (this.t.charCodeAt(this.i) !== close) return false;
    this.i++;
    return true;
  }
}

/** Reads the body of a message up to `close`; `field` consumes one field's value (false: not the fast shape). */
function fastFields(
  r: FastReader,
  close: number,
  numbers: Readonly<Record<string, number>>,
  field: (n: string) => boolean,
) {
  let last = 0;
  let lastName = '';
  for (;;) {
    if (close === 0 ? r.atEnd() : r.close(close)) return true;
    const n = r.name();
    if (n === null) return false;
    const num = numbers[n];
    if (num === undefined) return false;
    // Field-number order; only the repeated fields (`tables`, `rules`) may come again, and only in a row.
    if (num < last || (num === last && (n !== lastName || (n !== 'tables' && n !== 'rules')))) return false;
    last = num;
    lastName = n;
    if (!field(n)) return false;
    r.separator();
  }
}

function fastKeyRangeHex(s: string): string {
  let out = '';
  for (let i = 0; i < s.length; i++) out += s.charCodeAt(i).toString(16).padStart(2, '0');
  return out;
}

function fastRule(r: FastReader): Rule | null {
  const close = r.open();
  if (close === 0) return null;
  const v: Record<string, string> = {
    match: '',
    filter: '',
    source_unique_key_columns: '',
    target_unique_key_columns: '',
    source_unique_key_target_columns: '',
    force_unique_key: '',
  };
  const ok = fastFields(r, close, RULE_FIELDS, (n) => {
    const s = r.str();
    if (s === null) return false;
    v[n] = s;
    return true;
  });
  if (!ok) return null;
  return {
    match: v.match as string,
    filter: v.filter as string,
    convertEnumToText: EMPTY_RECORD,
    convertCharset: EMPTY_RECORD,
    sourceUniqueKeyColumns: v.source_unique_key_columns as string,
    targetUniqueKeyColumns: v.target_unique_key_columns as string,
    sourceUniqueKeyTargetColumns: v.source_unique_key_target_columns as string,
    convertIntToEnum: EMPTY_RECORD,
    forceUniqueKey: v.force_unique_key as string,
  };
}

function fastFilter(r: FastReader): Filter | null {
  const close = r.open();
  if (close === 0) return null;
  const rules: Rule[] = [];
  let fieldEventMode: Filter['fieldEventMode'] = 'ERR_ON_MISMATCH';
  let workflowType = '0';
  let workflowName = '';
  const ok = fastFields(r, close, FILTER_FIELDS, (n) => {
    switch (n) {
      case 'rules': {
        const x = fastRule(r);
        if (x === null) return false;
        rules.push(x);
        return true;
      }
      case 'field_event_mode': {
        const x = r.ident();
        if (x === null || !FAST_FIELD_EVENT_MODE.has(x)) return false;
        fieldEventMode = x as Filter['fieldEventMode'];
        return true;
      }
      case 'workflow_type': {
        const x = r.decimal();
        if (x === null) return false;
        workflowType = x === '-0' ? '0' : x;
        return true;
      }
      default: {
        const x = r.str();
        if (x === null) return false;
        workflowName = x;
        return true;
      }
    }
  });
  return ok ? { rules, fieldEventMode, workflowType, workflowName } : null;
}

/**
 * The BinlogSource of `text` when it has the common shape, else null (the full decoder decides, errors included).
 * Exported for the differential test; callers use `parseBinlogSource`.
 */
export function parseBinlogSourceFast(text: string): BinlogSource | null {
  const r = new FastReader(text);
  let keyspace = '';
  let shard = '';
  let tabletType = 'UNKNOWN';
  let keyRange: BinlogSource['keyRange'] = null;
  const tables: string[] = [];
  let filt: Filter | null = null;
  let onDdl: OnDdlAction = 'IGNORE';
  let stopAfterCopy = false;
  const strs: Record<string, string> = {
    external_mysql: '',
    external_cluster: '',
    source_time_zone: '',
    target_time_zone: '',
  };
  const ok = fastFields(r, 0, TOP_FIELDS, (n) => {
    switch (n) {
      case 'keyspace':
      case 'shard':
      case 'tables':
      case 'external_mysql':
      case 'external_cluster':
      case 'source_time_zone':
      case 'target_time_zone': {
        const s = r.str();
        if (s === null) return false;
        if (n === 'keyspace') keyspace = s;
        else if (n === 'shard') shard = s;
        else if (n === 'tables') tables.push(s);
        else strs[n] = s;
        return true;
      }
      case 'tablet_type': {
        const x = r.ident();
        const canonical = x === null ? undefined : FAST_TABLET_TYPES[x];
        if (canonical === undefined) return false;
        tabletType = canonical;
        return true;
      }
      case 'key_range': {
        const close = r.open();
        if (close === 0) return false;
        const kr = { start: '', end: '' };
        const good = fastFields(r, close, KEY_RANGE_FIELDS, (k) => {
          const s = r.str();
          if (s === null) return false;
          kr[k as 'start' | 'end'] = fastKeyRangeHex(s);
          return true;
        });
        keyRange = kr;
        return good;
      }
      case 'filter':
        filt = fastFilter(r);
        return filt !== null;
      case 'on_ddl': {
        const x = r.ident();
        if (x === null || !FAST_ON_DDL.has(x)) return false;
        onDdl = x as OnDdlAction;
        return true;
      }
      default: {
        // stop_after_copy
        const x = r.ident();
        if (x !== 'true' && x !== 'false') return false;
        stopAfterCopy = x === 'true';
        return true;
      }
    }
  });
  if (!ok) return null;
  return {
    keyspace,
    shard,
    tabletType,
    keyRange,
    tables,
    filter: filt,
    onDdl,
    externalMysql: strs.external_mysql as string,
    stopAfterCopy,
    externalCluster: strs.external_cluster as string,
    sourceTimeZone: strs.source_time_zone as string,
    targetTimeZone: strs.target_time_zone as string,
    unknownFields: [],
  };
}

/**
 * Parse the `source` column of a `_vt.vreplication` row.
 *
 * Mirrors `prototext.Unmarshal(source, &binlogdatapb.BinlogSource{})` as Vitess calls it (e.g.
 * `vitessio/vitess:go/vt/vttablet/tabletmanager/vreplication/controller.go` `newController`), accepting
 * both the old golang/protobuf `<…>` spelling and the newer `{…}` one. Absent fields take proto3
 * defaults (`keyRange` and `filter` are `null` when absent). Two deliberate differences from Go:
 * unknown fields are skipped and listed in `unknownFields` rather than failing the parse, and an
 * `on_ddl` or `field_event_mode` number with no name is an error rather than an opaque number.
 *
 * @throws Error with a one-line message such as
 *   `invalid BinlogSource at character 17: expected field name, found "}"` (1-based character index).
 */
export function parseBinlogSource(text: string): BinlogSource {
  return (typeof text === 'string' ? parseBinlogSourceFast(text) : null) ?? parseBinlogSourceFull(text);
}

/** {@link parseBinlogSource} through the full decoder only (the reference of the fast path's differential test). */
export function parseBinlogSourceFull(text: string): BinlogSource {
  const { message: m, unknownFields } = decodeTextProto(text, BINLOG_SOURCE, WHAT);
  const kr = m['key_range'] as DecodedMessage | null;
  const f = m['filter'] as DecodedMessage | null;
  const tabletType = m['tablet_type'] as number;
  return {
    keyspace: m['keyspace'] as string,
    shard: m['shard'] as string,
    tabletType: enumName(TABLET_TYPE, tabletType) ?? String(tabletType),
    keyRange:
      kr === null ? null : { start: bytesToHex(kr['start'] as Uint8Array), end: bytesToHex(kr['end'] as Uint8Array) },
    tables: m['tables'] as string[],
    filter: f === null ? null : toFilter(f),
    onDdl: closedEnum<OnDdlAction>(ON_DDL, m['on_ddl'] as number, 'on_ddl'),
    externalMysql: m['external_mysql'] as string,
    stopAfterCopy: m['stop_after_copy'] as boolean,
    externalCluster: m['external_cluster'] as string,
    sourceTimeZone: m['source_time_zone'] as string,
    targetTimeZone: m['target_time_zone'] as string,
    unknownFields,
  };
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * Parse the `source` column as the raw bytes MySQL returns for a `mediumblob` (mysql2 gives a Buffer).
 * The text must be valid UTF-8, as protobuf-go's reader requires; non-UTF-8 bytes inside values
 * appear escaped (`\x80`, `\200`) in what Vitess writes.
 *
 * @throws Error (one line) if the bytes are not UTF-8 or the text is not a valid BinlogSource.
 */
export function parseBinlogSourceBytes(bytes: Uint8Array): BinlogSource {
  let text: string;
  try {
    text = strictUtf8.decode(bytes);
  } catch {
    throw new Error(`invalid ${WHAT}: the column bytes are not valid UTF-8`);
  }
  return parseBinlogSource(text);
}

function enumByName(desc: EnumDescriptor, name: string, where: string): number {
  const n = enumNumber(desc, name);
  if (n !== null) return n;
  if (/^-?\d+$/.test(name) && Number.isSafeInteger(Number(name))) return Number(name);
  throw new Error(`cannot write ${WHAT}: ${where} ${quoteText(name)} is not a ${desc.enumName} name`);
}

function keyRangeBytes(hex: string, where: string): Uint8Array {
  if (!/^(?:[0-9a-f]{2})*$/.test(hex))
    throw new Error(`cannot write ${WHAT}: ${where} ${quoteText(hex)} is not lower-case hex of whole bytes`);
  return hexToBytes(hex);
}

function fromRule(r: Rule): DecodedMessage {
  return {
    match: r.match,
    filter: r.filter,
    convert_enum_to_text: new Map(Object.entries(r.convertEnumToText)),
    convert_charset: new Map(
      Object.entries(r.convertCharset).map(([k, v]) => [k, { from_charset: v.fromCharset, to_charset: v.toCharset }]),
    ),
    source_unique_key_columns: r.sourceUniqueKeyColumns,
    target_unique_key_columns: r.targetUniqueKeyColumns,
    source_unique_key_target_columns: r.sourceUniqueKeyTargetColumns,
    convert_int_to_enum: new Map(Object.entries(r.convertIntToEnum)),
    force_unique_key: r.forceUniqueKey,
  };
}

function fromFilter(f: Filter): DecodedMessage {
  if (!/^-?\d+$/.test(f.workflowType)) {
    throw new Error(`cannot write ${WHAT}: filter.workflow_type ${quoteText(f.workflowType)} is not a decimal integer`);
  }
  return {
    rules: f.rules.map(fromRule),
    field_event_mode: enumByName(FIELD_EVENT_MODE, f.fieldEventMode, 'filter.field_event_mode'),
    workflow_type: BigInt(f.workflowType),
    workflow_name: f.workflowName,
  };
}

/**
 * Write a BinlogSource in Go's single-line prototext form, e.g.
 * `keyspace:"commerce" shard:"0" filter:{rules:{match:"t1" filter:"select * from t1"}} stop_after_copy:true`.
 *
 * Mirrors `prototext.Marshal` / `bls.String()` as Vitess uses them to fill the `source` column (minus
 * protobuf-go's deliberately random extra spaces): fields in field-number order, proto3 defaults
 * omitted, `key_range`/`filter` written when non-null (even if empty), map entries sorted by key,
 * strings escaped as protobuf-go's `appendString` does (`\"`, `\\`, `\n`, `\r`, `\t`, `\xHH` for other
 * control bytes and for bytes that are not UTF-8), enums by canonical name (`MASTER` is written
 * `PRIMARY`, as Go does). `unknownFields` cannot be written back and are ignored.
 * `parseBinlogSource(binlogSourceToText(x))` returns `x` (with `unknownFields: []`) whenever `x` uses
 * canonical enum names.
 *
 * @throws Error (one line) if a value cannot be represented (bad hex, unknown enum name, unpaired surrogate).
 */
export function binlogSourceToText(bls: BinlogSource): string {
  const msg: DecodedMessage = {
    keyspace: bls.keyspace,
    shard: bls.shard,
    tablet_type: enumByName(TABLET_TYPE, bls.tabletType, 'tablet_type'),
    key_range:
      bls.keyRange === null
        ? null
        : {
            start: keyRangeBytes(bls.keyRange.start, 'key_range.start'),
            end: keyRangeBytes(bls.keyRange.end, 'key_range.end'),
          },
    tables: [...bls.tables],
    filter: bls.filter === null ? null : fromFilter(bls.filter),
    on_ddl: enumByName(ON_DDL, bls.onDdl, 'on_ddl'),
    external_mysql: bls.externalMysql,
    stop_after_copy: bls.stopAfterCopy,
    external_cluster: bls.externalCluster,
    source_time_zone: bls.sourceTimeZone,
    target_time_zone: bls.targetTimeZone,
  };
  return encodeTextProto(msg, BINLOG_SOURCE);
}
