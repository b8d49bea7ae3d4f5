/**
 * leftover-lookup-vindexes: write-only lookup vindexes that no workflow backfills.
 *
 * `LookupVindex create` adds the vindex with `write_only: "true"` and a workflow that backfills its lookup table;
 * Externalize clears the flag. `LookupVindex cancel` deletes the workflow and keeps the vindex, its owner's column
 * vindex and the lookup table (and a failed create in the same keyspace can leave them too): every DML on the owner
 * table keeps writing the lookup table and fails once someone drops it, and a re-create refuses while the table has
 * rows (`failed to validate that all target tables are empty: non-empty tables found in target keyspace(%s): %s`).
 *
 * A vindex is explained by a lookup workflow read with its name, listing it in its options, or filling its table.
 *
 * Failure modes (`details.reason`):
 * - `writeOnlyWithoutWorkflow` (warning): no lookup workflow read backfills the write-only vindex.
 * - `writeOnlyUnexplained` (info): the same, but the lookup table's keyspace was not read in full.
 */
import { defineCheck, type CheckFinding, type Reasons } from '../src/engine/check.js';
import { workflowTableSet } from '../src/model/expected-streams.js';
import { keyspacesWithUnreadWorkflows, leftoverKeyspaces, splitQualified } from '../src/model/leftovers.js';

const reasons = {
  writeOnlyWithoutWorkflow: {
    severity: 'warning',
    step: 'workflow-state',
    heuristic: true,
    rationale:
      'A write-only lookup vindex without a workflow is never externalized: owner DML keeps writing its table, and a re-create refuses while the table has rows.',
  },
  writeOnlyUnexplained: {
    severity: 'info',
    step: 'workflow-state',
    heuristic: true,
    rationale: 'The backfill workflow may live on a primary that was not read, so it is not proven a leftover.',
  },
} satisfies Reasons;

type R = keyof typeof reasons;

export default defineCheck({
  id: 'leftover-lookup-vindexes',
  group: 'leftovers',
  needs: ['topology', 'vschema'],
  title: 'No write-only lookup vindex is left without its backfill workflow',
  reasons,
  description:
    '`LookupVindex create` adds the vindex with `write_only: "true"` and a workflow that backfills its table; Externalize clears the flag. `LookupVindex cancel` deletes the workflow and keeps the vindex and the table: owner DML keeps writing it, and a re-create refuses while it has rows (`non-empty tables found in target keyspace(%s): %s`). This check reports each write-only lookup vindex that no lookup workflow read backfills.',
  remediation:
    'Either re-create the backfill with `vtctldclient LookupVindex --name <name> --table-keyspace <keyspace> create …` after emptying the table, or remove the vindex and its column vindex from the owner keyspace with `vtctldclient GetVSchema <keyspace>` and `vtctldclient ApplyVSchema --keyspace <keyspace> --vschema-file <edited file>`, then drop the lookup table with `vtctldclient ApplySchema --sql "drop table <table>" <table keyspace>`.',
  run(model, options) {
    const unread = keyspacesWithUnreadWorkflows(model);
    const lookups = model.allWorkflows.filter((wf) => wf.type === 'CreateLookupIndex');
    const out: CheckFinding<R>[] = [];
    for (const ks of leftoverKeyspaces(model, options)) {
      if (!ks.vschema.ok) continue;
      for (const v of ks.vschema.value.vindexes.values()) {
        if (v.params.write_only !== 'true') continue;
        const table = splitQualified(v.params.table ?? '');
        const owned = lookups.some(
          (wf) =>
            wf.name === v.name ||
            wf.streams.some((s) => s.options?.lookupVindexes.includes(v.name) === true) ||
            ((table.keyspace === '' || wf.keyspace === table.keyspace) && workflowTableSet(wf).has(table.table)),
        );
        if (owned) continue;
        const details = {
          vindex: v.name,
          type: v.type,
          owner: v.owner,
          lookupTable: v.params.table ?? '',
          // materializer.go (main): a re-create over a non-empty lookup table.
          vitessText: `failed to validate that all target tables are empty: non-empty tables found in target keyspace(${table.keyspace || ks.name}): ${table.table}`,
          breaks: `DML on ${v.owner || 'the owner table'} once the lookup table is dropped; LookupVindex create of ${v.name}`,
          clean: 'vtctldclient ApplyVSchema (remove the vindex), vtctldclient ApplySchema (drop the lookup table)',
        };
        const where = table.keyspace || ks.name;
        if (unread.includes(where)) {
          out.push({
            reason: 'writeOnlyUnexplained',
            keyspace: ks.name,
            message: `lookup vindex ${ks.name}.${v.name} is write-only and no backfill workflow was read, but not every primary of ${where} was read`,
            details,
          });
          continue;
        }
        out.push({
          reason: 'writeOnlyWithoutWorkflow',
          keyspace: ks.name,
          message: `lookup vindex ${ks.name}.${v.name} is write-only (table ${v.params.table ?? '?'}) but no lookup workflow backfills it (left by LookupVindex cancel or a failed create): it is never externalized, DML on ${v.owner || 'its owner table'} keeps writing its table, and a re-create refuses while the table has rows`,
          details,
        });
      }
    }
    return out;
  },
});
