/**
 * leftover-tables: tables an earlier MoveTables left on a keyspace's primaries, read from the schema table list
 * vtpreflight already reads on every primary (`information_schema.TABLES`, the `tables` read).
 *
 * `--keep-data` keeps tables on purpose: `MoveTables cancel --keep-data` skips `removeTargetTables`, so the target
 * keyspace keeps the copied tables (and, sharded or not, their vschema entries), and `MoveTables complete
 * --keep-data` skips `removeSourceTables` and both denied-tables removals, so the source keyspace keeps the moved
 * tables, denied, and its vschema entries (`vitessio/vitess:go/vt/vtctl/workflow/server.go:2227-2240` `dropTargets`,
 * `:2506-2527` `dropSources` @v0.24.4). Nothing refuses while they sit there, but moving the same tables into that
 * keyspace again is refused from v22 while one holds a row: MoveTables create probes every target table with
 * `select 1 from <table> limit 1` and fails with `non-empty tables found in target keyspace(%s): %s`
 * (`go/vt/vtctl/workflow/materializer.go:627 @v0.24.4` `validateEmptyTables`, wrapped at :306 with `failed to
 * validate that all target tables are empty`); before v22 it copies onto the old rows. Whether a table holds rows is
 * not read (the probe is sent only for `check --action create --tables`), so the findings are information only.
 *
 * `MoveTables complete --rename-tables` renames each source table to `_%.59s_old` (`renameTableTemplate`,
 * `go/vt/vtctl/workflow/traffic_switcher.go:79 @v0.24.4`, `removeSourceTables`) instead of dropping it; nothing in
 * Vitess drops those later, and a later `complete --rename-tables` of a table of that name out of that keyspace fails
 * on the existing name (MySQL error 1050, which `complete-workflow` predicts for the workflow it judges).
 *
 * A table is explained by any workflow read that moves it between the two keyspaces (either direction), so nothing is
 * reported in the middle of a workflow. Reference and sequence tables (vschema `type`), which live in several
 * keyspaces by design, tables on the primaries of three keyspaces or more (a schema they share, e.g. one keyspace per
 * tenant; a `--keep-data` leftover makes two copies), and names starting with `_` (Vitess's and schema tools' own)
 * other than `_<name>_old` are left out. Keyspaces whose workflows were not all read are not judged for the first
 * two reasons.
 *
 * Failure modes (`details.reason`), all information:
 * - `tableRoutedAway`: a table on a keyspace's primaries whose `<keyspace>.<table>` routing rule sends it to another
 *   keyspace, with no workflow read between the two (`cancel` or `complete` with `--keep-data --keep-routing-rules`):
 *   queries on `<keyspace>.<table>` through vtgate do not reach those rows.
 * - `tableInTwoKeyspaces`: a table on the primaries of two keyspaces, no workflow read moving it between them and no
 *   routing rule between them: one copy is likely a `--keep-data` leftover. When only one of the two keyspaces
 *   denies the table (what `complete --keep-data` leaves on the source), the finding is on that keyspace alone.
 * - `renamedTablesLeft`: `_<name>_old` tables, left by `complete --rename-tables` (or a schema tool).
 */
import { defineCheck, type CheckFinding, type Reasons } from '../src/engine/check.js';
import type { CheckOptions } from '../src/engine/options.js';
import { workflowTables } from '../src/model/expected-streams.js';
import {
  keyspacesWithUnreadWorkflows,
  leftoverKeyspaces,
  movedBetween,
  renamedTableName,
  schemaBaseTables,
  splitQualified,
} from '../src/model/leftovers.js';
import type { ClusterModel, Keyspace } from '../src/model/types.js';
import { byCodeUnit } from '../src/text.js';

const RENAMED = /^_.+_old$/;

const listed = (names: readonly string[], max = 10) =>
  names.length <= max ? names.join(', ') : `${names.slice(0, max).join(', ')} and ${names.length - max} more`;
const them = (names: readonly string[]) => (names.length === 1 ? 'it' : 'them');

/** The base tables of each read primary of `ks`, by table: the shards holding it (key-range order). */
function tablesOn(ks: Keyspace): Map<string, string[]> {
  const out = new Map<string, string[]>();
  if (!ks.shards.ok) return out;
  for (const shard of ks.shards.value.values()) {
    for (const t of schemaBaseTables(shard) ?? []) {
      const shards = out.get(t);
      if (shards === undefined) out.set(t, [shard.name]);
      else shards.push(shard.name);
    }
  }
  return out;
}

/** True when the keyspace's vschema declares `table` a reference or sequence table (in several keyspaces by design). */
function sharedByDesign(ks: Keyspace | undefined, table: string): boolean {
  const type = ks?.vschema.ok ? ks.vschema.value.tables.get(table)?.type : undefined;
  return type === 'reference' || type === 'sequence';
}

/** True when a shard record of `ks` denies `table` (tablet controls). */
function denies(ks: Keyspace, table: string): boolean {
  if (!ks.shards.ok) return false;
  for (const shard of ks.shards.value.values())
    if (shard.tabletControls.some((tc) => tc.deniedTables.includes(table))) return true;
  return false;
}

/** The keyspace the primary-type routing rule of `<keyspace>.<table>` sends it to, or '' when none. */
function routedTo(model: ClusterModel, keyspace: string, table: string): string {
  if (!model.routingRules.ok) return '';
  const to = model.routingRules.value.get(`${keyspace}.${table}`)?.[0];
  return to === undefined ? '' : splitQualified(to).keyspace;
}

/** The `_<name>_old` tables `complete-workflow` judges itself under `check --action complete --rename-tables`. */
function judgedByComplete(model: ClusterModel, keyspace: string, options: CheckOptions): Set<string> {
  const a = options.action;
  if (options.sweep || a.action !== 'complete' || !a.renameTables || a.keepData) return new Set();
  const selected = model.workflows.filter((wf) => wf.sourceKeyspaces.includes(keyspace));
  return new Set(selected.flatMap((wf) => workflowTables(wf).map(renamedTableName)));
}

/** The shards of `ks` holding one of `tables`, in key-range order. */
function shardsHolding(
  ks: Keyspace,
  here: ReadonlyMap<string, readonly string[]>,
  tables: readonly string[],
): string[] {
  if (!ks.shards.ok) return [];
  return [...ks.shards.value.keys()].filter((n) => tables.some((t) => here.get(t)?.includes(n)));
}

const createRefusal = (keyspace: string, tables: readonly string[]) =>
  `failed to validate that all target tables are empty: non-empty tables found in target keyspace(${keyspace}): ${tables.join(', ')}`;

const dropStatements = (keyspace: string, tables: readonly string[]) =>
  tables.map((t) => `vtctldclient ApplySchema --sql 'DROP TABLE IF EXISTS \`${t.replace(/`/g, '``')}\`' ${keyspace}`);

const reasons = {
  tableRoutedAway: {
    reads: ['tables'],
    severity: 'info',
    step: 'workflow-state',
    heuristic: true,
    rationale:
      'A routing rule no workflow explains sends the table elsewhere, so queries through vtgate do not reach the rows kept here by --keep-data, and a later MoveTables create of the table into this keyspace is refused (v22+) while they hold rows.',
  },
  tableInTwoKeyspaces: {
    reads: ['tables'],
    severity: 'info',
    step: 'workflow-state',
    heuristic: true,
    rationale:
      'A table on the primaries of two keyspaces that no workflow moves between them is likely a copy kept by a --keep-data cancel or complete; MoveTables create of it into the keyspace holding it is refused (v22+) while it holds rows.',
  },
  renamedTablesLeft: {
    reads: ['tables'],
    severity: 'info',
    step: 'workflow-state',
    heuristic: true,
    rationale:
      'complete --rename-tables keeps each source table as _<name>_old and nothing drops it; a later complete --rename-tables of that name fails on it.',
  },
} satisfies Reasons;

type Reason = keyof typeof reasons;

export default defineCheck({
  id: 'leftover-tables',
  group: 'leftovers',
  needs: ['topology'],
  title: 'No table a finished MoveTables kept stays on the primaries unexplained',
  reasons,
  description:
    '`MoveTables cancel --keep-data` keeps the copied tables in the target keyspace, and `MoveTables complete --keep-data` keeps the moved tables (and their denied-tables entries) in the source keyspace (`vitessio/vitess:go/vt/vtctl/workflow/server.go` `dropTargets`, `dropSources`). Moving the same tables into that keyspace again is refused from v22 while one holds a row: `failed to validate that all target tables are empty: non-empty tables found in target keyspace(%s): %s` (`go/vt/vtctl/workflow/materializer.go` `validateEmptyTables`). `complete --rename-tables` keeps each source table as `_<name>_old` (`renameTableTemplate`, `_%.59s_old`), which nothing drops. From the table list vtpreflight reads on every primary (`information_schema.TABLES`), this check reports tables that a routing rule sends to another keyspace, tables on the primaries of exactly two keyspaces that no workflow read moves between them, and `_<name>_old` tables; reference and sequence tables are left out. Whether a table holds rows is not read, so every finding is information.',
  remediation:
    "Decide which copy is stale: the one a routing rule sends elsewhere, the one whose keyspace denies the table (`vtctldclient GetShard <keyspace>/<shard>`), or the one your application does not read (`vtctldclient GetVSchema <keyspace>`). Once its rows are not needed (keep a backup), drop it on every shard of that keyspace with `vtctldclient ApplySchema --sql 'DROP TABLE IF EXISTS `<table>`' <keyspace>`; the same drops `_<name>_old` tables once the move they kept is final. Then run vtpreflight again.",
  run(model, options) {
    const unread = new Set(keyspacesWithUnreadWorkflows(model));
    const physical = new Map<string, Map<string, string[]>>();
    const on = (ks: Keyspace) => {
      let m = physical.get(ks.name);
      if (m === undefined) physical.set(ks.name, (m = tablesOn(ks)));
      return m;
    };
    const out: CheckFinding<Reason>[] = [];
    for (const ks of leftoverKeyspaces(model, options)) {
      const here = on(ks);
      if (here.size === 0) continue;
      const routed = new Map<string, string[]>();
      const twice = new Map<string, string[]>();
      const renamed: string[] = [];
      const judged = judgedByComplete(model, ks.name, options);
      for (const t of [...here.keys()].sort(byCodeUnit)) {
        if (RENAMED.test(t)) {
          if (!judged.has(t)) renamed.push(t);
          continue;
        }
        if (t.startsWith('_') || unread.has(ks.name) || sharedByDesign(ks, t)) continue;
        const to = routedTo(model, ks.name, t);
        if (to !== '' && to !== ks.name) {
          if (unread.has(to) || movedBetween(model, t, ks.name, to) !== undefined) continue;
          routed.set(to, [...(routed.get(to) ?? []), t]);
          continue;
        }
        const holders = [...model.keyspaces.values()].filter((k) => k.name !== ks.name && on(k).has(t));
        // A --keep-data copy makes two; a table in three keyspaces or more is a schema they share by design.
        if (holders.length !== 1) continue;
        for (const other of holders) {
          if (unread.has(other.name)) continue;
          if (sharedByDesign(other, t) || movedBetween(model, t, ks.name, other.name) !== undefined) continue;
          // The other copy is routed here (reported there), or it is the denied one complete --keep-data kept.
          if (routedTo(model, other.name, t) === ks.name) continue;
          if (denies(other, t) && !denies(ks, t)) continue;
          twice.set(other.name, [...(twice.get(other.name) ?? []), t]);
        }
      }
      for (const [to, tables] of [...routed].sort(([a], [b]) => byCodeUnit(a, b))) {
        out.push({
          reason: 'tableRoutedAway',
          keyspace: ks.name,
          message: `${ks.name} keeps ${listed(tables)} on its primaries while routing rules send ${tables.length === 1 ? `${ks.name}.${tables[0]}` : `these ${ks.name} tables`} to ${to}, and no workflow read moves ${them(tables)} between ${ks.name} and ${to}: rows kept by a cancel or complete run with --keep-data and --keep-routing-rules, which queries through vtgate do not reach; a later MoveTables create of ${them(tables)} into ${ks.name} is refused while ${tables.length === 1 ? 'it holds' : 'they hold'} rows (v22 and later)`,
          details: {
            tables,
            routedTo: to,
            shards: shardsHolding(ks, here, tables),
            breaks: `MoveTables create of ${tables.join(', ')} into ${ks.name} (v22 and later), while they hold rows`,
            vitessText: createRefusal(ks.name, tables),
            clean: dropStatements(ks.name, tables),
          },
        });
      }
      for (const [other, tables] of [...twice].sort(([a], [b]) => byCodeUnit(a, b))) {
        const denied = tables.filter((t) => denies(ks, t));
        out.push({
          reason: 'tableInTwoKeyspaces',
          keyspace: ks.name,
          message: `${ks.name} and ${other} both keep ${listed(tables)} on their primaries, and no workflow read moves ${them(tables)} between the two: one copy is likely kept by a MoveTables cancel --keep-data (the target's) or complete --keep-data (the source's${denied.length > 0 ? `, here: ${ks.name} denies ${listed(denied)}` : ''}); a later MoveTables create of ${them(tables)} into ${ks.name} is refused while ${tables.length === 1 ? 'it holds' : 'they hold'} rows (v22 and later)`,
          details: {
            tables,
            otherKeyspace: other,
            ...(denied.length > 0 ? { deniedHere: denied } : {}),
            breaks: `MoveTables create of ${tables.join(', ')} into ${ks.name} (v22 and later), while they hold rows`,
            vitessText: createRefusal(ks.name, tables),
            clean: dropStatements(ks.name, tables),
          },
        });
      }
      if (renamed.length > 0) {
        const shards = shardsHolding(ks, here, renamed);
        out.push({
          reason: 'renamedTablesLeft',
          keyspace: ks.name,
          message: `${ks.name} keeps ${listed(renamed)} on ${shards.length === 1 ? `shard ${shards[0]}` : `shards ${shards.join(', ')}`}, the names complete --rename-tables gives the tables it moves away: nothing in Vitess drops ${them(renamed)}, and a later complete --rename-tables of a table of that name out of ${ks.name} fails renaming onto ${them(renamed)}`,
          details: {
            tables: renamed,
            shards,
            breaks: `MoveTables complete --rename-tables of ${renamed.map((t) => t.slice(1, -4)).join(', ')} out of ${ks.name}`,
            clean: dropStatements(ks.name, renamed),
          },
        });
      }
    }
    return out;
  },
});
