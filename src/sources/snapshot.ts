/**
 * Snapshot files: the readout written as JSON by `vtpreflight snapshot`, read back by `check --snapshot`.
 * Reading validates the envelope and the shape the model builder relies on, with one-line errors.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { CollectError } from '../errors.js';
import { oneLine } from '../text.js';
import { READOUT_VERSION, type Readout } from '../readout.js';

/** Writes a readout to `path` (pretty JSON, trailing newline). */
export async function writeSnapshot(path: string, readout: Readout): Promise<void> {
  await writeFile(path, `${JSON.stringify(readout, null, 2)}\n`, 'utf8');
}

const isObj = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const isRead = (v: unknown): boolean =>
  isObj(v) && (v.ok === true ? 'value' in v : v.ok === false && isObj(v.error) && typeof v.error.reason === 'string');

/** Checks that `data` has the readout shape; returns the first problem as a short phrase, or null. */
export function validateReadout(data: unknown): string | null {
  if (!isObj(data)) return 'not a JSON object';
  if (data.version !== READOUT_VERSION)
    return `unsupported readout version ${JSON.stringify(data.version)} (this vtpreflight reads version ${READOUT_VERSION})`;
  if (typeof data.capturedAt !== 'string' || !Number.isFinite(Date.parse(data.capturedAt)))
    return 'capturedAt is not an ISO-8601 time';
  if (!isObj(data.target) || !Array.isArray(data.target.keyspaces) || !Array.isArray(data.target.workflows))
    return 'target is missing keyspaces/workflows';
  const topo = data.topology;
  if (!isObj(topo)) return 'topology is missing';
  for (const k of ['keyspaces', 'tablets', 'routingRules', 'shardRoutingRules'])
    if (!isRead(topo[k])) return `topology.${k} is not a read result`;
  for (const k of ['shards', 'vschemas']) {
    if (!isObj(topo[k])) return `topology.${k} is not an object`;
    for (const [ks, r] of Object.entries(topo[k] as object))
      if (!isRead(r)) return `topology.${k}.${ks} is not a read result`;
  }
  if (!isObj(data.workflows)) return 'workflows is not an object';
  if (!Array.isArray(data.sidecars)) return 'sidecars is not an array';
  for (const [i, s] of (data.sidecars as unknown[]).entries()) {
    if (!isObj(s) || typeof s.keyspace !== 'string' || typeof s.shard !== 'string')
      return `sidecars[${i}] lacks keyspace/shard`;
    for (const k of ['vreplication', 'copyState', 'vreplicationLog', 'reshardingJournal'])
      if (!isRead(s[k])) return `sidecars[${i}].${k} is not a read result`;
    const rows = s.vreplication as { ok: boolean; value?: unknown };
    if (rows.ok) {
      if (!Array.isArray(rows.value)) return `sidecars[${i}].vreplication.value is not an array`;
      for (const [j, r] of rows.value.entries()) {
        if (!isObj(r) || typeof r.id !== 'number' || typeof r.source !== 'string' || typeof r.state !== 'string') {
          return `sidecars[${i}].vreplication.value[${j}] lacks id/source/state`;
        }
      }
    }
  }
  if (!isObj(data.fullStatus)) return 'fullStatus is not an object';
  return null;
}

/** Reads and validates a snapshot; throws CollectError (exit 2) with a one-line message. */
export async function readSnapshot(path: string): Promise<Readout> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (e) {
    throw new CollectError(`cannot read snapshot ${path}: ${oneLine(e)}`);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    throw new CollectError(`snapshot ${path} is not valid JSON: ${oneLine(e)}`);
  }
  const problem = validateReadout(data);
  if (problem) throw new CollectError(`snapshot ${path} is not a vtpreflight readout: ${problem}`);
  return data as Readout;
}
