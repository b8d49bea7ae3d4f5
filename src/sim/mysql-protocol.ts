/**
 * Server-side MySQL packets for the simulated tablets: OK, ERR and text-protocol result sets, encoded into one
 * Buffer per answer with the sequence ids the client expects (the answer to a command starts at 1).
 *
 * mysql2's server API does the handshake and command dispatch; its own writers are not used for answers because
 * they leave the connection's sequence counter wrong after the first command (clients then warn "packets out of
 * order") and encode row values one packet and one write at a time, which the benchmark's tens of thousands of
 * statements notice. Layouts: MySQL client/server protocol, "Protocol::OK_Packet", "ERR_Packet",
 * "Text Resultset", "Protocol::ColumnDefinition41"; classic EOF packets (the server does not advertise
 * CLIENT_DEPRECATE_EOF).
 */

/** `enum_field_types` values used by the sidecar tables. */
export const FieldType = {
  TINY: 1,
  LONG: 3,
  LONGLONG: 8,
  DATETIME: 12,
  JSON: 245,
  BLOB: 252,
  VAR_STRING: 253,
} as const;

/**
 * Collation ids: `binary` (VARBINARY/BLOB and numbers), `utf8mb3_general_ci` (information_schema),
 * `utf8mb4_0900_ai_ci`.
 */
export const Charset = { BINARY: 63, UTF8MB3: 33, UTF8MB4: 255 } as const;

/** One result column. */
export interface ColumnDef {
  readonly name: string;
  readonly type: number;
  readonly charset: number;
  /** Display length in bytes. */
  readonly length: number;
  /** Column flags (NOT_NULL 1, PRI_KEY 2, UNSIGNED 32, BINARY 128 …). */
  readonly flags?: number;
  readonly table?: string;
  readonly schema?: string;
}

/** A value as sent in a text-protocol row; `null` is SQL NULL. */
export type WireValue = string | number | null;

const SERVER_STATUS_AUTOCOMMIT = 0x0002;
/** Status flag on the OK or final EOF of every result but the last of a multi-statement answer. */
const SERVER_MORE_RESULTS_EXISTS = 0x0008;

function lenencIntSize(n: number): number {
  return n < 251 ? 1 : n < 0x10000 ? 3 : n < 0x1000000 ? 4 : 9;
}

function writeLenencInt(buf: Buffer, off: number, n: number): number {
  if (n < 251) {
    buf[off] = n;
    return off + 1;
  }
  if (n < 0x10000) {
    buf[off] = 0xfc;
    buf.writeUInt16LE(n, off + 1);
    return off + 3;
  }
  if (n < 0x1000000) {
    buf[off] = 0xfd;
    buf.writeUIntLE(n, off + 1, 3);
    return off + 4;
  }
  buf[off] = 0xfe;
  buf.writeBigUInt64LE(BigInt(n), off + 1);
  return off + 9;
}

/** Accumulates packets (header + payload) into one Buffer. */
class PacketWriter {
  private readonly chunks: Buffer[] = [];
  constructor(private seq: number) {}

  packet(payload: Buffer): void {
    // Payloads here are far below 16 MiB; a larger one would need splitting, which nothing here produces.
    if (payload.length >= 0xffffff) throw new Error(`simulated tablet: packet of ${payload.length} bytes is too large`);
    const header = Buffer.allocUnsafe(4);
    header.writeUIntLE(payload.length, 0, 3);
    header[3] = this.seq & 0xff;
    this.seq += 1;
    this.chunks.push(header, payload);
  }

  /** The sequence id the next packet gets: one command's answer continues one sequence across all its results. */
  get next(): number {
    return this.seq;
  }

  done(): Buffer {
    return Buffer.concat(this.chunks);
  }
}

const statusBytes = (more: boolean): [number, number] => {
  const status = SERVER_STATUS_AUTOCOMMIT | (more ? SERVER_MORE_RESULTS_EXISTS : 0);
  return [status & 0xff, status >> 8];
};

/** An OK packet answering a command (sequence id 1 unless told). */
export function okPacket(seq = 1): Buffer {
  const w = new PacketWriter(seq);
  writeOk(w, false);
  return w.done();
}

function writeOk(w: PacketWriter, more: boolean): void {
  w.packet(Buffer.from([0x00, 0x00, 0x00, ...statusBytes(more), 0x00, 0x00]));
}

/** An ERR packet: `errno`, a five-character SQLSTATE and a message (as `ERROR errno (state): message`). */
export function errPacket(errno: number, sqlState: string, message: string, seq = 1): Buffer {
  const w = new PacketWriter(seq);
  w.packet(errPayload(errno, sqlState, message));
  return w.done();
}

function errPayload(errno: number, sqlState: string, message: string): Buffer {
  const text = Buffer.from(message, 'utf8');
  const payload = Buffer.allocUnsafe(9 + text.length);
  payload[0] = 0xff;
  payload.writeUInt16LE(errno, 1);
  payload[3] = 0x23; // '#'
  payload.write(sqlState.padEnd(5, '0').slice(0, 5), 4, 'latin1');
  text.copy(payload, 9);
  return payload;
}

function eofPayload(more = false): Buffer {
  return Buffer.from([0xfe, 0x00, 0x00, ...statusBytes(more)]);
}

function columnPayload(c: ColumnDef): Buffer {
  const strings = ['def', c.schema ?? '', c.table ?? '', c.table ?? '', c.name, c.name].map((s) =>
    Buffer.from(s, 'utf8'),
  );
  let size = 13;
  for (const s of strings) size += lenencIntSize(s.length) + s.length;
  const buf = Buffer.allocUnsafe(size);
  let off = 0;
  for (const s of strings) {
    off = writeLenencInt(buf, off, s.length);
    off += s.copy(buf, off);
  }
  buf[off++] = 0x0c;
  buf.writeUInt16LE(c.charset, off);
  buf.writeUInt32LE(c.length, off + 2);
  buf[off + 6] = c.type;
  buf.writeUInt16LE(c.flags ?? 0, off + 7);
  buf[off + 9] = 0; // decimals
  buf.writeUInt16LE(0, off + 10);
  return buf;
}

/** Column definitions do not change between answers: encode each once. */
const columnCache = new WeakMap<ColumnDef, Buffer>();

function cachedColumn(c: ColumnDef): Buffer {
  let b = columnCache.get(c);
  if (b === undefined) columnCache.set(c, (b = columnPayload(c)));
  return b;
}

function rowPayload(values: readonly WireValue[]): Buffer {
  const parts: (Buffer | null)[] = new Array(values.length);
  let size = 0;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (v === null || v === undefined) {
      parts[i] = null;
      size += 1;
    } else {
      const b = Buffer.from(typeof v === 'number' ? String(v) : v, 'utf8');
      parts[i] = b;
      size += lenencIntSize(b.length) + b.length;
    }
  }
  const buf = Buffer.allocUnsafe(size);
  let off = 0;
  for (const p of parts) {
    if (p === null) {
      buf[off++] = 0xfb;
    } else {
      off = writeLenencInt(buf, off, p.length);
      off += p.copy(buf, off);
    }
  }
  return buf;
}

/** A complete text result set (column count, definitions, EOF, rows, EOF) answering a command. */
export function resultSet(columns: readonly ColumnDef[], rows: readonly (readonly WireValue[])[], seq = 1): Buffer {
  const w = new PacketWriter(seq);
  writeResultSet(w, columns, rows, false);
  return w.done();
}

function writeResultSet(
  w: PacketWriter,
  columns: readonly ColumnDef[],
  rows: readonly (readonly WireValue[])[],
  more: boolean,
): void {
  const count = Buffer.allocUnsafe(lenencIntSize(columns.length));
  writeLenencInt(count, 0, columns.length);
  w.packet(count);
  for (const c of columns) w.packet(cachedColumn(c));
  w.packet(eofPayload());
  for (const r of rows) w.packet(rowPayload(r));
  w.packet(eofPayload(more));
}

/** One result of a command's answer. */
export type ResponsePart =
  | { readonly kind: 'rows'; readonly columns: readonly ColumnDef[]; readonly rows: readonly (readonly WireValue[])[] }
  | { readonly kind: 'ok' }
  | { readonly kind: 'error'; readonly errno: number; readonly sqlState: string; readonly message: string };

/**
 * The whole answer to one COM_QUERY, one part per statement that ran: every part but the last carries
 * SERVER_MORE_RESULTS_EXISTS, sequence ids run on across parts, and an error ends the answer (the server runs no
 * statement after a failed one), as MySQL and MariaDB answer a multi-statement query ("Multi-Resultset").
 */
export function response(parts: readonly ResponsePart[]): Buffer {
  const w = new PacketWriter(1);
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i] as ResponsePart;
    const more = i < parts.length - 1;
    if (part.kind === 'ok') writeOk(w, more);
    else if (part.kind === 'rows') writeResultSet(w, part.columns, part.rows, more);
    else {
      w.packet(errPayload(part.errno, part.sqlState, part.message));
      break;
    }
  }
  return w.done();
}
