/**
 * Snapshot files: the readout written as JSON by `vtpreflight snapshot`, read back by `check --snapshot`.
 * Reading validates the envelope and the shape the model builder relies on, with one-line errors.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { CollectError } from '../errors.js';
import { oneLine } from '../text.js';
import { jsonErrorText } from '../secrets.js';
import { READOUT_VERSION, type Readout } from '../readout.js';
import { withReadErrorKinds } from './read-kind.js';
import { primaryReadsShape } from './read-shapes.js';
import { READOUT_PARTS } from './snapshot-parts.js';
import {
  arr,
  bool,
  isObject,
  literal,
  nullable,
  num,
  obj,
  printable,
  read,
  record,
  type Shape,
  str,
  stripBom,
} from '../reads/shape.js';

/** A readout as a snapshot file holds it (pretty JSON, trailing newline). */
export const serializeReadout = (readout: Readout): string => `${JSON.stringify(readout, null, 2)}\n`;

/** Writes a readout to `path` (pretty JSON, trailing newline). */
export async function writeSnapshot(path: string, readout: Readout): Promise<void> {
  await writeFile(path, serializeReadout(readout), 'utf8');
}

const keyspaceRecord = obj({ name: str }, { sidecarDbName: str, keyspaceType: str, baseKeyspace: str });
const keyRange = nullable(obj({ start: str, end: str }));
const tabletControl = obj({ tabletType: str, cells: arr(str), deniedTables: arr(str), frozen: bool });
const shardRecord = obj(
  { keyspace: str, name: str, primaryAlias: nullable(str), keyRange, tabletControls: arr(tabletControl) },
  { isPrimaryServing: bool },
);
const tabletRecord = obj(
  { alias: str, keyspace: str, shard: str, type: str },
  {
    cell: str,
    uid: num,
    hostname: str,
    mysqlHostname: str,
    mysqlPort: num,
    dbNameOverride: str,
    portMap: record(num),
  },
);
const vschemaRecord = obj(
  {
    tables: record(
      obj(
        { columnVindexes: arr(obj({ name: str, columns: arr(str) })) },
        { type: str, source: str, pinned: str, autoIncrement: obj({ column: str, sequence: str }) },
      ),
    ),
    vindexes: record(obj({ type: str }, { params: record(str), owner: str })),
  },
  { sharded: bool, requireExplicitRouting: bool },
);
/** A primary's reads, each by its shape in src/sources/read-shapes.ts. */
const sidecarRead = primaryReadsShape();

/** The readout's shape as the model builder relies on it (fields it does not read are not checked). */
const READOUT: Shape = obj(
  {
    version: literal(READOUT_VERSION, `${READOUT_VERSION} (the readout version this vtpreflight reads)`),
    capturedAt: (v, p) =>
      typeof v === 'string' && Number.isFinite(Date.parse(v)) ? null : `${p}: expected an ISO-8601 time`,
    target: obj({ keyspaces: arr(str), workflows: arr(str) }),
    topology: obj({
      keyspaces: read(arr(keyspaceRecord)),
      tablets: read(arr(tabletRecord)),
      shards: record(read(arr(shardRecord))),
      vschemas: record(read(vschemaRecord)),
      routingRules: read(arr(obj({ fromTable: str, toTables: arr(str) }))),
      shardRoutingRules: read(arr(obj({ fromKeyspace: str, toKeyspace: str, shard: str }))),
    }),
    workflows: record(
      read(
        arr(
          obj(
            { name: str },
            {
              workflowType: str,
              workflowSubType: str,
              sourceKeyspace: str,
              targetKeyspace: str,
              sourceShards: arr(str),
              targetShards: arr(str),
              maxVReplicationLag: nullable(num),
              maxVReplicationTransactionLag: nullable(num),
              streams: arr(obj({ id: num, shard: str }, { state: str, message: str })),
            },
          ),
        ),
      ),
    ),
    sidecars: arr(sidecarRead),
    fullStatus: record(read(obj({}))),
  },
  { lacks: arr(str), mirrorRules: read(arr(obj({ fromTable: str, toTable: str, percent: num }))) },
);

/**
 * Checks that `data` has the readout shape; returns the first problem as `<json path>: expected …`
 * (e.g. `topology.tablets.value: expected an array`), or null.
 */
export function validateReadout(data: unknown): string | null {
  if (isObject(data) && 'version' in data && data.version !== READOUT_VERSION)
    return `unsupported readout version ${printable(JSON.stringify(data.version) ?? '', 40)} (this vtpreflight reads version ${READOUT_VERSION})`;
  return READOUT(data, '') ?? READOUT_PARTS(data, '');
}

/** Reads and validates a snapshot; throws CollectError (exit 2) with a one-line message. */
export async function readSnapshot(path: string): Promise<Readout> {
  const name = printable(path, 200);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new CollectError(`cannot read snapshot ${name}: ${code ?? printable(oneLine(e))}`);
  }
  return parseSnapshot(text, name);
}

/**
 * Parses snapshot text (a UTF-8 byte-order mark is accepted) and validates it; throws CollectError (exit 2) with one
 * line that never echoes the file's bytes raw: JSON.parse quotes the text near the error, which may hold terminal
 * escapes, so what is shown has its control characters escaped.
 */
export function parseSnapshot(text: string, name: string): Readout {
  let data: unknown;
  try {
    data = JSON.parse(stripBom(text));
  } catch (e) {
    // Never the text JSON.parse quotes around the error: a misplaced credentials file holds a password.
    throw new CollectError(`snapshot ${name} is not valid JSON: ${printable(jsonErrorText(e))}`);
  }
  const problem = validateReadout(data);
  if (problem) throw new CollectError(`snapshot ${name} is not a vtpreflight readout: ${printable(problem, 300)}`);
  // Failures recorded before `ReadError.kind` existed get theirs here, so the model and checks always have one.
  return withReadErrorKinds(data as Readout);
}
