/**
 * source-tables-global-routing: tables (and views) a MoveTables leaves in its source keyspace that the source vschema
 * does not list, so that applications reach them by unqualified name only through vtgate's global routing.
 *
 * With a single keyspace, vtgate sends a query for a table no vschema lists to that keyspace; once a second keyspace
 * holds tables, an unqualified name must be found in a vschema, and a table listed nowhere is not found (#16869,
 * open). RFC #17425: "This logic recently caused down-time in a large production cluster … they were using global
 * routing with a single keyspace and then moved some tables to a second sharded keyspace, without specifying a
 * VSchema to the unsharded one". MoveTables does not move views, which are then ambiguous under global routing
 * (#19131). The danger is at create (the second keyspace appears) and again at Complete (the routing rules go).
 *
 * It compares the tables of the source primary's schema (`information_schema.TABLES`, read in the sidecar batch;
 * views are the tables that are not base tables) with the source keyspace's vschema and the workflow's tables.
 *
 * Failure modes (`details.reason`):
 * - `unlistedSourceTables` (warning): tables that stay in the source keyspace and that its vschema does not list,
 *   on a cluster that may run a release before v22. From v22, vtgate adds the tables schema tracking sees in an
 *   unsharded keyspace to the global routing when their name is unique (`AddAdditionalGlobalTables`,
 *   go/vt/vtgate/vindexes/vschema.go:485 @v0.22.4, called from vschema_manager.go:207; vitessio/vitess#17371), so
 *   a v22+ cluster is not told.
 * - `sourceViews` (info): views in the source schema, which MoveTables does not move.
 *
 * Not judged: a source primary whose tables were not read (or a readout from before that read), a workflow moving
 * every table (`/.*`), a source keyspace selected explicitly by the application (`USE <keyspace>`, which vtpreflight
 * cannot see), and tables whose names start with `_` (Vitess's and online schema tools' own).
 */
import { defineCheck, type CheckFinding, type Reasons } from '../src/engine/check.js';
import type { ClusterModel, Workflow } from '../src/model/types.js';
import { byCodeUnit } from '../src/text.js';
import { versionsHold } from '../src/vitess/versions.js';

const unescapeId = (name: string) =>
  name.length >= 2 && name.startsWith('`') && name.endsWith('`') ? name.slice(1, -1).replace(/``/g, '`') : name;

const listed = (names: readonly string[], max = 10) =>
  names.length <= max ? names.join(', ') : `${names.slice(0, max).join(', ')} and ${names.length - max} more`;

/**
 * Whether v22+ global routing covers unlisted tables: `none` before v22, `all` when every release judged is v22+,
 * `some` when the range spans both.
 */
type Tracked = 'all' | 'some' | 'none';

function workflowFindings(model: ClusterModel, wf: Workflow, tracked: Tracked): CheckFinding<Reason>[] {
  if (wf.type !== 'MoveTables' || wf.sourceKeyspaces.length !== 1) return [];
  const source = model.keyspace(wf.sourceKeyspaces[0]!);
  if (source === undefined || !source.vschema.ok || !source.shards.ok) return [];
  const named = [...new Set(wf.streams.flatMap((s) => s.tables))];
  if (named.some((t) => t.startsWith('/'))) return [];
  // The source primaries' schema tables (the first readable one: an unsharded source has one).
  let tables: readonly string[] | null = null;
  let baseTables: readonly string[] | null = null;
  let at: { keyspace: string; shard: string; tablet?: string } | null = null;
  for (const shard of source.shards.value.values()) {
    const sc = shard.sidecar;
    if (sc === undefined || !sc.ok || sc.value.tables === undefined || !sc.value.tables.ok) continue;
    if (sc.value.tables.value.length === 0) continue; // an empty list is not judged (a harness without tablet data)
    tables = sc.value.tables.value;
    baseTables = sc.value.tableKeys?.ok ? sc.value.tableKeys.value.map((t) => t.table) : null;
    at = { keyspace: shard.keyspace, shard: shard.name, ...(shard.primaryAlias ? { tablet: shard.primaryAlias } : {}) };
    break;
  }
  if (tables === null || at === null) return [];
  const inVSchema = new Set([...source.vschema.value.tables.keys()].map(unescapeId));
  const moved = new Set(named);
  const base = baseTables === null ? null : new Set(baseTables);
  const own = (t: string) => t.startsWith('_');
  const views = base === null ? [] : tables.filter((t) => !base.has(t) && !own(t));
  const viewSet = new Set(views);
  const staying = tables
    .filter((t) => !own(t) && !moved.has(t) && !inVSchema.has(t) && !viewSet.has(t))
    .sort(byCodeUnit);
  const label = `${wf.keyspace}.${wf.name}`;
  const out: CheckFinding<Reason>[] = [];
  if (staying.length > 0 && tracked !== 'all') {
    const note =
      tracked === 'some'
        ? {
            versionNote:
              'on v22+ vtgate routes a table listed in no vschema globally when its name is unique among the unsharded keyspaces (schema tracking)',
          }
        : {};
    out.push({
      ...at,
      reason: 'unlistedSourceTables',
      message: `${staying.length === 1 ? 'table' : `${staying.length} tables`} ${listed(staying)} ${staying.length === 1 ? 'stays' : 'stay'} in ${source.name}, whose vschema does not list ${staying.length === 1 ? 'it' : 'them'}, while ${label} moves tables to ${wf.keyspace}: with two keyspaces, unqualified queries no longer reach a table no vschema lists (RFC #17425, #16869)`,
      details: { workflow: label, sourceKeyspace: source.name, tables: staying, ...note },
    });
  }
  if (views.length > 0) {
    out.push({
      ...at,
      reason: 'sourceViews',
      message: `${views.length === 1 ? 'view' : `${views.length} views`} ${listed(views)} of ${source.name} ${views.length === 1 ? 'is' : 'are'} not moved by ${label} (MoveTables moves no views) and ${views.length === 1 ? 'reads' : 'read'} the source keyspace only (#19131)`,
      details: { workflow: label, sourceKeyspace: source.name, views: [...views].sort(byCodeUnit) },
    });
  }
  return out;
}

const reasons = {
  unlistedSourceTables: {
    reads: ['tables', 'tableKeys'],
    severity: 'warning',
    step: 'switch-reads',
    heuristic: true,
    rationale:
      'Before v22, vtgate finds an unqualified table in a vschema once several keyspaces exist; a table that stays in the source keyspace without a vschema entry is then not found (RFC #17425: production downtime; #16869), while v22+ routes it globally through schema tracking (#17371).',
  },
  sourceViews: {
    reads: ['tables', 'tableKeys'],
    severity: 'info',
    step: 'switch-reads',
    heuristic: true,
    rationale:
      'MoveTables moves tables, not views (#19131): a view over moved tables keeps reading the source keyspace.',
  },
} satisfies Reasons;

type Reason = keyof typeof reasons;

export default defineCheck({
  id: 'source-tables-global-routing',
  title: 'The tables a MoveTables leaves behind are reachable without global routing',
  reasons,
  description:
    "Compares the tables of the source primary's schema (`information_schema.TABLES`, read in the sidecar batch) with the source keyspace's vschema and the tables a MoveTables moves: tables that stay and that the source vschema does not list reach applications by unqualified name only through global routing, which before v22 stops finding them once a second keyspace holds tables (RFC #17425, #16869; v22+ routes a uniquely named unlisted table of an unsharded keyspace globally through schema tracking, #17371); views are not moved (#19131). Not judged: workflows moving every table, sessions that select the keyspace explicitly, `_`-prefixed tables.",
  remediation:
    "List every table that stays in the source keyspace's vschema (`vtctldclient ApplyVSchema`), or have the application qualify them with the keyspace; recreate views in the target keyspace if they read moved tables. Then run vtpreflight again.",
  needs: ['topology', 'vschema'],
  run(model, options) {
    const tracked = versionsHold(options.vitess, '>=22');
    return model.workflows.flatMap((wf) => workflowFindings(model, wf, tracked));
  },
});
