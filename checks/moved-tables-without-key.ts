/**
 * moved-tables-without-key: tables a workflow replicates that have no primary key, or only a unique key, on its source
 * or target primaries.
 *
 * VReplication identifies a row by the table's primary key; without one it uses a unique index whose columns are all
 * NOT NULL (a "PK equivalent", PR #10192), and without that every column of the row. With every column, an update or
 * delete of a row holding NULLs matches nothing and is silently not applied (`… and description=null …`, #6008),
 * each applied event scans the table (#7120, #15974: the target falls behind, and the switch's catch-up with it),
 * and VDiff cannot compare the table reliably. With only a unique key, VDiff has failed with `Row count exceeded`
 * (#17969) and applying `INSERT … ON DUPLICATE KEY UPDATE` has hit duplicate keys (#8497).
 *
 * It reads `information_schema.TABLES` and `STATISTICS` of each primary's schema in the sidecar batch. A moved table
 * the read did not find there is not judged (another check reports missing tables); a primary whose read failed is
 * a read failure (unverified).
 *
 * Failure modes (`details.reason`):
 * - `noKey` (warning): neither a primary key nor a unique key on NOT NULL columns.
 * - `uniqueKeyOnly` (warning): no primary key, a unique key on NOT NULL columns.
 */
import { defineCheck, type CheckFinding, type Reasons } from '../src/engine/check.js';
import type { ClusterModel, Shard, TableKeys, Workflow } from '../src/model/types.js';

/** The table keys of a shard's primary by table name; null when not read (or read before this read existed). */
function keysOf(shard: Shard | undefined): ReadonlyMap<string, TableKeys> | null {
  const sc = shard?.sidecar;
  if (sc === undefined || !sc.ok) return null;
  const tk = sc.value.tableKeys;
  if (tk === undefined || !tk.ok) return null;
  return new Map(tk.value.map((t) => [t.table, t] as const));
}

function workflowFindings(model: ClusterModel, wf: Workflow): CheckFinding<Reason>[] {
  // Where the rows are read and where they are applied: the source shards, then the target shards.
  const places = [
    ...wf.sourceShards.flatMap((n) => wf.sourceKeyspaces.map((ks) => model.shard(ks, n))),
    ...wf.targetShards.map((n) => model.shard(wf.keyspace, n)),
  ].filter((s): s is Shard => s !== undefined);
  const named = [...new Set(wf.streams.flatMap((s) => s.tables))].sort();
  const everything = named.some((t) => t.startsWith('/'));
  const label = `${wf.keyspace}.${wf.name}`;
  const seen = new Set<string>();
  const out: CheckFinding<Reason>[] = [];
  for (const shard of places) {
    const keys = keysOf(shard);
    if (keys === null) continue;
    const tables = everything ? [...keys.keys()].sort() : named;
    for (const table of tables) {
      const k = keys.get(table);
      if (k === undefined || k.primaryKey || seen.has(table)) continue;
      seen.add(table);
      const where = `${shard.keyspace}/${shard.name}`;
      const loc = {
        keyspace: shard.keyspace,
        shard: shard.name,
        ...(shard.primaryAlias ? { tablet: shard.primaryAlias } : {}),
      };
      const details = { workflow: label, table, uniqueNullable: [...k.uniqueNullable] };
      if (k.uniqueNotNull === null) {
        out.push({
          ...loc,
          reason: 'noKey',
          message: `table ${table} of ${label} has no primary key and no unique key on NOT NULL columns on ${where}: VReplication identifies its rows by every column, so updates and deletes of rows holding NULLs are not applied (#6008), each applied change scans the table, and VDiff cannot compare it reliably`,
          details,
        });
      } else {
        out.push({
          ...loc,
          reason: 'uniqueKeyOnly',
          message: `table ${table} of ${label} has no primary key on ${where}: VReplication identifies its rows by the unique key ${k.uniqueNotNull} on NOT NULL columns, and VDiff has failed on such tables ("Row count exceeded", #17969)`,
          details: { ...details, uniqueKey: k.uniqueNotNull },
        });
      }
    }
  }
  return out;
}

const reasons = {
  noKey: {
    reads: ['tableKeys'],
    severity: 'warning',
    step: 'catch-up',
    heuristic: true,
    rationale:
      'Without a primary key or a NOT NULL unique key VReplication matches rows on every column: changes to rows holding NULLs are lost and each change scans the table (#6008, #7120, #15974).',
  },
  uniqueKeyOnly: {
    reads: ['tableKeys'],
    // A supported primary-key equivalent (PR #10192) that healthy tables use: said, never a risk by itself.
    severity: 'info',
    step: 'catch-up',
    heuristic: true,
    rationale:
      'A unique key stands in for the primary key in VReplication (PR #10192), but VDiff and upserts have failed on such tables (#17969, #8497), so the evidence before the switch is weaker.',
  },
} satisfies Reasons;

type Reason = keyof typeof reasons;

export default defineCheck({
  id: 'moved-tables-without-key',
  title: 'Every table the workflow replicates has a primary key',
  reasons,
  description:
    'VReplication identifies rows by the primary key, else by a unique key on NOT NULL columns, else by every column (PR #10192). Without a key, updates and deletes of rows holding NULLs are silently not applied (#6008), each change scans the table (#7120, #15974) and VDiff is unreliable; with only a unique key VDiff has failed with `Row count exceeded` (#17969). The check reads `information_schema.TABLES` and `STATISTICS` of the source and target primaries for the tables the workflow replicates.',
  remediation:
    'Add a primary key to the table on the source (an Online DDL) before relying on the copy, then run VDiff; or accept the risk for a table whose rows never hold NULLs. Then run vtpreflight again.',
  needs: ['topology'],
  run(model) {
    return model.workflows.flatMap((wf) => workflowFindings(model, wf));
  },
});
