/**
 * moved-tables-foreign-keys: foreign keys on the tables a MoveTables moves, on its source primaries.
 *
 * VReplication replays the source's binary log, and MySQL foreign keys live inside one server: a cascaded change
 * (`ON DELETE CASCADE`, `SET NULL`) is made by InnoDB and never written to the binary log, so VReplication cannot
 * follow it, and a constraint between a moved and a staying table cannot be enforced once they are in two keyspaces
 * (vitessio/vitess #11975, the maintainers' list of foreign-key limitations). Copying tables with foreign keys one at
 * a time, while the changes of tables already copied are replayed, is what `--atomic-copy` (PR #13137, v18: every
 * table in one copy cycle, workflow sub type `AtomicCopy`) exists for. Field reports: #15232 (cancel with atomic copy
 * and foreign keys), #16296 (reverse workflow with `foreign_key_checks` off), #14547 (`--defer-secondary-keys` with
 * foreign keys), #18424 (duplicate entry after the copy), #14648 (atomic copy with views).
 *
 * It reads `information_schema.KEY_COLUMN_USAGE` (the constraints) and `REFERENTIAL_CONSTRAINTS` (their rules) of each
 * primary's schema, each with one schema equality, in the sidecar batch, and judges the foreign keys of the moved
 * tables on the workflow's source primaries. MariaDB shows `REFERENTIAL_CONSTRAINTS` only to users with more than
 * SELECT (MySQL shows it with SELECT): a rule not shown is unknown, and `foreignKeyCascade` is then not judged.
 *
 * Failure modes (`details.reason`):
 * - `foreignKeyCascade` (warning): a moved table is the child of a foreign key that cascades (`CASCADE`, `SET NULL`,
 *   `SET DEFAULT`): the cascaded changes never reach the target.
 * - `foreignKeyAcrossWorkflow` (warning): a foreign key between a moved table and one that stays: after the switch it
 *   spans two keyspaces, where MySQL cannot enforce it.
 * - `foreignKeyWithoutAtomicCopy` (warning): a foreign key between two moved tables, and the workflow was not created
 *   with `--atomic-copy`.
 *
 * Not judged: a source primary not read (the read failure says so), foreign keys to another schema, and the vschema's
 * `foreignKeyMode`.
 */
import { defineCheck, type CheckFinding, type Reasons } from '../src/engine/check.js';
import type { ClusterModel, ForeignKeyRow, Shard, Workflow } from '../src/model/types.js';

const CASCADING = new Set(['CASCADE', 'SET NULL', 'SET DEFAULT']);

const describeFk = (f: ForeignKeyRow) => `${f.constraint_name} (${f.table_name} → ${f.referenced_table_name})`;

function workflowFindings(model: ClusterModel, wf: Workflow): CheckFinding<Reason>[] {
  if (wf.type !== 'MoveTables' || wf.frozen) return [];
  const named = [...new Set(wf.streams.flatMap((s) => s.tables))];
  const everything = named.some((t) => t.startsWith('/'));
  const moved = (t: string) => everything || named.includes(t);
  const label = `${wf.keyspace}.${wf.name}`;
  const sources = wf.sourceShards
    .flatMap((n) => wf.sourceKeyspaces.map((ks) => model.shard(ks, n)))
    .filter((s): s is Shard => s !== undefined);
  const seen = new Set<string>();
  const out: CheckFinding<Reason>[] = [];
  for (const shard of sources) {
    const sc = shard.sidecar;
    if (sc === undefined || !sc.ok || sc.value.foreignKeys === undefined || !sc.value.foreignKeys.ok) continue;
    const dbName = sc.value.dbName;
    for (const fk of sc.value.foreignKeys.value) {
      if (fk.referenced_schema !== dbName) continue; // another schema: not judged
      const child = moved(fk.table_name);
      const parent = moved(fk.referenced_table_name);
      if (!child && !parent) continue;
      const key = `${fk.table_name}\u0000${fk.constraint_name}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const loc = {
        keyspace: shard.keyspace,
        shard: shard.name,
        ...(shard.primaryAlias ? { tablet: shard.primaryAlias } : {}),
      };
      const details = {
        workflow: label,
        constraint: fk.constraint_name,
        table: fk.table_name,
        referencedTable: fk.referenced_table_name,
        onUpdate: fk.update_rule,
        onDelete: fk.delete_rule,
      };
      const where = `${shard.keyspace}/${shard.name}`;
      const rules = [fk.delete_rule, fk.update_rule].filter((r) => CASCADING.has(r));
      if (child && rules.length > 0) {
        const on = [
          ...(CASCADING.has(fk.delete_rule) ? [`ON DELETE ${fk.delete_rule}`] : []),
          ...(CASCADING.has(fk.update_rule) ? [`ON UPDATE ${fk.update_rule}`] : []),
        ].join(' ');
        out.push({
          ...loc,
          reason: 'foreignKeyCascade',
          message: `moved table ${fk.table_name} of ${label} is the child of foreign key ${describeFk(fk)} ${on} on ${where}: InnoDB makes cascaded changes without writing them to the binary log, so VReplication never copies them to the target (#11975)`,
          details,
        });
      }
      if (child !== parent) {
        const staying = child ? fk.referenced_table_name : fk.table_name;
        const movedOne = child ? fk.table_name : fk.referenced_table_name;
        out.push({
          ...loc,
          reason: 'foreignKeyAcrossWorkflow',
          message: `foreign key ${describeFk(fk)} on ${where} ties moved table ${movedOne} of ${label} to ${staying}, which stays: after the switch the constraint spans two keyspaces, where MySQL cannot enforce it (#11975)`,
          details: { ...details, staying },
        });
      } else if (wf.subType !== 'AtomicCopy') {
        out.push({
          ...loc,
          reason: 'foreignKeyWithoutAtomicCopy',
          message: `foreign key ${describeFk(fk)} on ${where} links two tables ${label} moves, and the workflow was not created with --atomic-copy: its tables are copied one at a time while the changes of those already copied are replayed (PR #13137; #15232, #18424)`,
          details: { ...details, subType: wf.subType },
        });
      }
    }
  }
  return out;
}

const reasons = {
  foreignKeyCascade: {
    reads: ['foreignKeys'],
    severity: 'warning',
    step: 'switch-reads',
    heuristic: true,
    rationale:
      'Cascaded foreign-key changes are made inside InnoDB and are not in the binary log VReplication reads (#11975), so the target misses them and diverges from the source.',
  },
  foreignKeyAcrossWorkflow: {
    reads: ['foreignKeys'],
    severity: 'warning',
    step: 'switch-reads',
    heuristic: true,
    rationale:
      'MySQL foreign keys are limited to one server (#11975): once one table of the pair serves from another keyspace the constraint is no longer enforced.',
  },
  foreignKeyWithoutAtomicCopy: {
    reads: ['foreignKeys'],
    severity: 'warning',
    step: 'switch-reads',
    heuristic: true,
    rationale:
      'Vitess supports foreign keys in MoveTables through --atomic-copy (PR #13137, v18); a table-by-table copy of related tables has failed in the field (#15232, #18424, #14547).',
  },
} satisfies Reasons;

type Reason = keyof typeof reasons;

export default defineCheck({
  id: 'moved-tables-foreign-keys',
  title: 'The moved tables have no foreign keys VReplication cannot carry',
  reasons,
  description:
    "Reads the foreign keys of each source primary's schema (`information_schema.KEY_COLUMN_USAGE`, and their rules from `REFERENTIAL_CONSTRAINTS`, each with one schema equality) and judges those of the tables a MoveTables moves: a moved child table of a cascading foreign key (cascaded changes are not in the binary log VReplication reads, #11975), a foreign key between a moved and a staying table (it spans two keyspaces after the switch), and foreign keys between moved tables in a workflow not created with `--atomic-copy` (PR #13137, v18; #15232, #16296, #14547, #18424, #14648). Not judged: foreign keys to other schemas, and the vschema `foreignKeyMode`.",
  remediation:
    'Move related tables together in one workflow created with `--atomic-copy`; drop or replace cascading foreign keys before the copy (or let the application do the cascade), and run VDiff before switching. Then run vtpreflight again.',
  needs: ['topology'],
  run(model) {
    return model.workflows.flatMap((wf) => workflowFindings(model, wf));
  },
});
