/**
 * Which cells serve a workflow's REPLICA / RDONLY reads from the target, cell by cell, as `getWorkflowState` reads it
 * (`vitessio/vitess:go/vt/vtctl/workflow/server.go`, `GetCellsWithTableReadsSwitched` and
 * `GetCellsWithShardReadsSwitched`, @006b7393):
 * - MoveTables: in each cell's SrvVSchema, the routing rule `<source keyspace>.<first table>@replica|@rdonly`; the
 *   cell is switched when one of its to-tables names another keyspace than the source.
 * - Reshard: in each cell's SrvKeyspace, the partitions of the tablet type; the cell is NOT switched when a shard
 *   reference has the key range of the first source shard and the partition has no tablet controls or a control of
 *   that key range without `query_service_disabled`; otherwise it is switched.
 * Vitess iterates every cell of `GetCellInfoNames`. A cell whose record was not read (or is missing, where Vitess
 * fails outright: `serving-graph-missing` reports it) is `unknown` here. Used by the actions that depend on the read
 * state (ReverseTraffic's reads-only path, complete's all-switched refusal).
 */
import type { SrvKeyspaceRecord } from '../readout.js';
import { keyRangeEqual, parseKeyRangeParts, type KeyRange } from '../vitess/keyrange.js';
import { isPartialMigration, migrationType } from './traffic-switch.js';
import type { ClusterModel, Workflow } from './types.js';

export type ReadTabletType = 'REPLICA' | 'RDONLY';

/** The cells of the topology by read state of one tablet type, each list in cell order. */
export interface CellReads {
  readonly switched: readonly string[];
  readonly notSwitched: readonly string[];
  /** Cells whose SrvVSchema / SrvKeyspace was not read or does not exist. */
  readonly unknown: readonly string[];
}

/** The sorted table list of a workflow's filters (`ts.Tables()`; Vitess reads the first one). */
function tablesOf(wf: Workflow): string[] {
  return [...new Set(wf.streams.flatMap((s) => (s.source?.filter ? s.tables : [])))].sort();
}

function recordRange(kr: { start: string; end: string } | null): KeyRange | null {
  return kr === null ? null : parseKeyRangeParts(kr.start, kr.end);
}

/** `GetCellsWithShardReadsSwitched` for one cell's SrvKeyspace: true = switched. */
function shardReadsSwitched(srv: SrvKeyspaceRecord, type: ReadTabletType, range: KeyRange | null): boolean {
  let found = false;
  let served = false;
  let noControls = false;
  for (const p of srv.partitions) {
    if (p.servedType !== type) continue;
    if (p.shards.some((r) => keyRangeEqual(recordRange(r.keyRange), range))) found = true;
    if (p.shardTabletControls.length === 0) {
      noControls = true;
      break;
    }
    const control = p.shardTabletControls.find((c) => keyRangeEqual(recordRange(c.keyRange), range));
    if (control !== undefined && !control.queryServiceDisabled) served = true;
  }
  return !(found && (served || noControls));
}

/**
 * The read state of `type` for a MoveTables or Reshard workflow, cell by cell; null when Vitess does not read it
 * per cell (partial and multi-tenant migrations, other workflow types) or the cell list was not read.
 */
export function cellReads(model: ClusterModel, wf: Workflow, type: ReadTabletType): CellReads | null {
  const mt = migrationType(wf);
  if (mt === null || !model.serving.cells.ok) return null;
  if (isPartialMigration(wf) !== false || wf.streams.some((s) => (s.options?.tenantId ?? '') !== '')) return null;
  const sourceKs = wf.sourceKeyspaces[0];
  if (sourceKs === undefined) return null;
  const switched: string[] = [];
  const notSwitched: string[] = [];
  const unknown: string[] = [];
  const cells = [...model.serving.cells.value];
  if (mt === 'TABLES') {
    const table = tablesOf(wf)[0];
    if (table === undefined) return null;
    const from = `${sourceKs}.${table}@${type.toLowerCase()}`;
    for (const cell of cells) {
      const srv = model.serving.srvVSchemas.get(cell);
      if (srv === undefined || !srv.ok) {
        unknown.push(cell);
        continue;
      }
      const rule = srv.value.routingRules.find((r) => r.fromTable === from);
      const on = rule !== undefined && rule.toTables.some((to) => to.split('.')[0] !== sourceKs);
      (on ? switched : notSwitched).push(cell);
    }
    return { switched, notSwitched, unknown };
  }
  // SHARDS: Vitess checks the first source shard (sorted) against each cell's SrvKeyspace of the keyspace.
  const first = [...wf.sourceShards][0];
  const shard = first === undefined ? undefined : model.shard(sourceKs, first);
  const byCell = model.serving.srvKeyspaces.get(wf.keyspace);
  if (shard === undefined || byCell === undefined || !byCell.ok) return null;
  for (const cell of cells) {
    const srv = byCell.value[cell];
    if (srv === undefined) {
      unknown.push(cell);
      continue;
    }
    (shardReadsSwitched(srv, type, shard.keyRange) ? switched : notSwitched).push(cell);
  }
  return { switched, notSwitched, unknown };
}
