/**
 * The moved tables have the same columns on the source and target primaries (FIELD-FAILURES FF-31).
 *
 * The Vitess troubleshooting guide names "incompatible DDL having been executed against the source table while the
 * workflow is running" (default `on-ddl` IGNORE) as the most common cause of a stream error before a cutover: the
 * target then refuses the replicated rows (`Unknown column 'notes' in 'field list' (errno 1054)`) and the stream
 * stops in Error, which SwitchTraffic refuses (`canSwitch`); a type changed on one side breaks filters and conversions
 * (#18743). Vitess raises nothing before a row hits the drift, so both reasons are warnings.
 *
 * Read: every column of the tablet schema's tables (`information_schema.COLUMNS`, one schema equality, no ORDER BY;
 * sorted by the reader) on every source and target primary. Compared per moved table (the stream's rules; every
 * table for a `/.*` rule): the first source primary holding the table against each target primary holding it.
 * A rule with a column list (`select a, b from t`) is not judged: the target holds the columns it selects. Integer
 * display widths (`int(11)` vs `int`) are ignored: MySQL 8.0.19+ no longer prints them. Tables absent on one side,
 * and primaries whose columns could not be read, are not judged here.
 */
import { defineCheck, type CheckFinding } from '../src/engine/check.js';
import type { ClusterModel, Shard, TableColumnRow, Workflow } from '../src/model/types.js';
import { byCodeUnit } from '../src/text.js';

type Reason = 'columnMissingOnTarget' | 'columnDefinitionDiffers';

type Columns = ReadonlyMap<string, ReadonlyMap<string, TableColumnRow>>;

/** A shard primary's columns by table, then by column name; null when not read. */
function columnsOf(shard: Shard | undefined): Columns | null {
  const sc = shard?.sidecar;
  if (sc === undefined || !sc.ok) return null;
  const tc = sc.value.tableColumns;
  if (tc === undefined || !tc.ok) return null;
  const out = new Map<string, Map<string, TableColumnRow>>();
  for (const c of tc.value) {
    const t = out.get(c.table_name) ?? new Map<string, TableColumnRow>();
    t.set(c.column_name, c);
    out.set(c.table_name, t);
  }
  return out;
}

/** `COLUMN_TYPE` without integer display widths, lower case. */
const normalType = (t: string) =>
  t.toLowerCase().replace(/^(tinyint|smallint|mediumint|int|integer|bigint)\(\d+\)/, '$1');

const describe = (c: TableColumnRow) => `${c.column_type}${c.nullable ? ' NULL' : ' NOT NULL'}`;

/** The tables a workflow's rules name, whether a `/…` rule moves every table, and the tables moved by column list. */
function wholeTables(wf: Workflow): { named: Set<string>; everything: boolean; columnLists: Set<string> } {
  const named = new Set<string>();
  const columnLists = new Set<string>();
  let everything = false;
  for (const s of wf.streams)
    for (const r of s.source?.filter?.rules ?? []) {
      if (r.filter === 'exclude') continue;
      if (r.match.startsWith('/')) {
        everything = true;
        continue;
      }
      named.add(r.match);
      if (/^\s*select\s/i.test(r.filter) && !/^\s*select\s+\*\s+from\s/i.test(r.filter)) columnLists.add(r.match);
    }
  return { named, everything, columnLists };
}

function workflowFindings(model: ClusterModel, wf: Workflow): CheckFinding<Reason>[] {
  if (wf.type !== 'MoveTables' && wf.type !== 'Reshard' && wf.type !== 'Migrate') return [];
  const sources = wf.sourceShards
    .flatMap((n) => wf.sourceKeyspaces.map((ks) => model.shard(ks, n)))
    .map((s) => ({ shard: s, cols: columnsOf(s) }))
    .filter((x): x is { shard: Shard; cols: Columns } => x.shard !== undefined && x.cols !== null);
  const targets = wf.targetShards
    .map((n) => model.shard(wf.keyspace, n))
    .map((s) => ({ shard: s, cols: columnsOf(s) }))
    .filter((x): x is { shard: Shard; cols: Columns } => x.shard !== undefined && x.cols !== null);
  if (sources.length === 0 || targets.length === 0) return [];
  const { named, everything, columnLists } = wholeTables(wf);
  const tables = everything ? new Set([...named, ...sources.flatMap((s) => [...s.cols.keys()])]) : named;
  const label = `${wf.keyspace}.${wf.name}`;
  const out: CheckFinding<Reason>[] = [];
  for (const table of [...tables].sort(byCodeUnit)) {
    if (columnLists.has(table)) continue;
    const src = sources.find((s) => s.cols.has(table));
    if (src === undefined) continue;
    const srcCols = src.cols.get(table)!;
    const srcWhere = `${src.shard.keyspace}/${src.shard.name}`;
    const missing = new Map<string, string[]>();
    const differs = new Map<string, { shards: string[]; source: string; target: string }>();
    for (const t of targets) {
      const tgtCols = t.cols.get(table);
      if (tgtCols === undefined || t.shard === src.shard) continue;
      for (const [name, c] of srcCols) {
        const tc = tgtCols.get(name);
        if (tc === undefined) {
          missing.set(name, [...(missing.get(name) ?? []), t.shard.name]);
        } else if (normalType(tc.column_type) !== normalType(c.column_type) || tc.nullable !== c.nullable) {
          const key = `${name}\u0000${describe(tc)}`;
          const d = differs.get(key) ?? { shards: [], source: describe(c), target: describe(tc) };
          d.shards.push(t.shard.name);
          differs.set(key, d);
        }
      }
    }
    const loc = { keyspace: wf.keyspace, workflow: wf.name };
    for (const [column, shards] of missing)
      out.push({
        ...loc,
        reason: 'columnMissingOnTarget',
        message:
          `column ${column} of table ${table} exists on source ${srcWhere} but not on target shard(s) ` +
          `${shards.join(', ')} of ${label}: rows replicated with it fail with "Unknown column '${column}' in ` +
          `'field list'" and stop the streams`,
        details: {
          table,
          column,
          sourceShard: srcWhere,
          targetShards: shards,
          sourceType: describe(srcCols.get(column)!),
        },
      });
    for (const [key, d] of differs) {
      const column = key.split('\u0000')[0]!;
      out.push({
        ...loc,
        reason: 'columnDefinitionDiffers',
        message:
          `column ${column} of table ${table} of ${label} is ${d.source} on source ${srcWhere} but ${d.target} on ` +
          `target shard(s) ${d.shards.join(', ')}`,
        details: { table, column, sourceShard: srcWhere, targetShards: d.shards, source: d.source, target: d.target },
      });
    }
  }
  return out;
}

export default defineCheck({
  id: 'schema-drift',
  title: 'The moved tables have the same columns on the source and target primaries',
  reasons: {
    columnMissingOnTarget: {
      severity: 'warning',
      step: 'can-switch-streams',
      actions: ['switch'],
      heuristic: true,
      rationale:
        'A column added on the source while the workflow runs (on-ddl IGNORE) is not on the target, so the first ' +
        'replicated row that carries it fails the stream, which then blocks the switch.',
    },
    columnDefinitionDiffers: {
      severity: 'warning',
      step: 'can-switch-streams',
      actions: ['switch'],
      heuristic: true,
      rationale:
        'A column whose type or nullability differs between source and target makes replicated rows fail or ' +
        'convert silently (#18743), and VDiff reports the tables as different.',
    },
  },
  description:
    'VReplication applies the source rows to tables created on the target when the workflow started. DDL run on ' +
    'the source since then (the default `on-ddl` is IGNORE) leaves the two apart: the Vitess troubleshooting guide ' +
    "names it the most common cause of stream errors (`Unknown column 'notes' in 'field list' (errno 1054)`), and a " +
    'stream in Error blocks SwitchTraffic. This check compares the columns of each moved table ' +
    '(`information_schema.COLUMNS`) on a source primary with every target primary: a column missing on a target, ' +
    'or a different type or nullability, is a warning before any row hits it (#18673, #18715, #18743). Tables moved ' +
    'with a column list (`select a, b from t`) and tables absent on one side are not judged.',
  remediation:
    'Apply the same DDL to the target keyspace (`vtctldclient ApplySchema --sql "<alter>" <target keyspace>`), ' +
    'or reverse the change on the source, before the streams replicate a row that carries the difference; then ' +
    'run a VDiff. Then run vtpreflight again.',
  run(model) {
    return model.workflows.flatMap((wf) => workflowFindings(model, wf));
  },
});
