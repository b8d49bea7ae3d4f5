/**
 * The tables a simulated (or test-built) source primary's schema holds by default: the tables the streams reading
 * from it name (their filter rules' `match` values, regular expressions left out). A real source keyspace has the
 * tables its workflows copy; a schema listing none is what a MySQL user without SELECT on `vt_<keyspace>` sees
 * (src/model/schema-visibility.ts), so scenarios and fixtures list them unless they say otherwise.
 */
import { byCodeUnit } from '../text.js';
import { parseBinlogSource } from '../vitess/binlog-source.js';

/** A vreplication row as far as this needs it. */
interface SourceRow {
  readonly source: string;
  readonly workflow_type?: number;
}

/** Workflow type OnlineDDL (`binlogdata.VReplicationWorkflowType`): its rows read their own shard's schema. */
const ONLINE_DDL = 5;

/** By source `keyspace/shard`: the explicit tables the rows' filter rules name there, sorted, deduplicated. */
export function sourceSchemaTables(rows: Iterable<SourceRow>): Map<string, string[]> {
  const sets = new Map<string, Set<string>>();
  for (const r of rows) {
    if (r.workflow_type === ONLINE_DDL) continue;
    let bls: ReturnType<typeof parseBinlogSource>;
    try {
      bls = parseBinlogSource(r.source);
    } catch {
      continue; // a fixture's deliberately broken source names no table
    }
    const named = [...(bls.filter?.rules.map((x) => x.match) ?? []), ...bls.tables].filter(
      (t) => t !== '' && !t.startsWith('/'),
    );
    if (named.length === 0) continue;
    const key = `${bls.keyspace}/${bls.shard}`;
    let set = sets.get(key);
    if (!set) sets.set(key, (set = new Set()));
    for (const t of named) set.add(t);
  }
  return new Map([...sets].map(([k, v]) => [k, [...v].sort(byCodeUnit)] as const));
}

/** Workflow type MoveTables (`binlogdata.VReplicationWorkflowType`). */
const MOVE_TABLES = 1;

/**
 * The explicit tables a MoveTables target primary holds: those its own rows (its streams) name. MoveTables create
 * deploys the moved tables' schema to every target primary before the streams start (materializer.go
 * `deploySchema`), so a target schema listing none over MySQL is one the user cannot see
 * (src/model/schema-visibility.ts); live harnesses create these tables, so a healthy MoveTables stays `ready`.
 */
export function targetSchemaTables(rows: Iterable<SourceRow>): string[] {
  const set = new Set<string>();
  for (const r of rows) {
    if (r.workflow_type !== MOVE_TABLES) continue;
    let bls: ReturnType<typeof parseBinlogSource>;
    try {
      bls = parseBinlogSource(r.source);
    } catch {
      continue;
    }
    for (const t of [...(bls.filter?.rules.map((x) => x.match) ?? []), ...bls.tables])
      if (t !== '' && !t.startsWith('/')) set.add(t);
  }
  return [...set].sort(byCodeUnit);
}
