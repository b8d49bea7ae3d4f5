/**
 * orphan-denied-tables: tablet controls on the shards of a workflow's keyspaces that deny tables no workflow moves.
 *
 * A MoveTables denies its tables on shard records (`tablet_controls[].denied_tables`): on the target primaries from
 * create (v20+, PR #15977) until writes are switched, and on the source primaries from the write switch until
 * Complete (`vitessio/vitess:go/vt/vtctl/workflow/traffic_switcher.go` `changeTableSourceWrites`,
 * `dropSourceDeniedTables`, `dropTargetDeniedTables`). Every vttablet turns the list into the query rule
 * `enforce denied tables` (`go/vt/vttablet/tabletmanager/tm_state.go` `applyDenyList`, `rules.QRFailRetry`), and
 * the query executor refuses every query on those tables with `disallowed due to rule: enforce denied tables`
 * (`go/vt/vttablet/tabletserver/query_executor.go` `checkPermissions`). When the cleanup path of a cancelled,
 * `--keep-data` or interrupted workflow fails, the denial outlives every workflow that could explain it: #13998
 * (Cancel left tablet controls, fixed PR #14008, v18), #17620 (cancel after a failed switch left them, v19–v21, PR
 * #17616), #17326 (a tablet roll during ReverseTraffic left the target denying routed tables), #15963 (a later
 * Cancel refused: `cannot remove tables since one or more do not exist in the denylist`), and the migration
 * troubleshooting guide ("leftover artifacts from a previous MoveTables").
 *
 * A denial is explained by any workflow read (forward, `_reverse`, frozen) that has the shard's keyspace as its
 * target or source keyspace and the table in its filter. Workflows live on their target keyspace's primaries, so a
 * keyspace whose primaries were not all read could hold the explaining workflow: the denial is then only a warning.
 *
 * Failure modes (`details.reason`):
 * - `deniedTableRouted` (error, `vtpreflight sweep` only): no workflow explains the denial and routing sends the
 *   table's queries to this keyspace (no routing rule sends them elsewhere; the keyspace is unsharded or its vschema
 *   has the table): they fail now.
 * - `deniedTableServing` (warning): the same under `check`: the queries fail now, but no workflow action judged is
 *   refused by it (a MoveTables SwitchTraffic out of a keyspace that keeps `complete --keep-data` denials proceeds),
 *   so it must not block the workflow's verdict.
 * - `deniedTableNotRouted` (warning): no workflow explains it, but routing rules send the table elsewhere or the
 *   sharded keyspace's vschema lacks it: harmless until routing changes. Since v20 a later MoveTables of the table
 *   merges the denial with a warning (`vitessio/vitess` `go/vt/topo/shard.go:491-498 @v0.22.x`); only v19 refused
 *   it (`one or more tables are already present in the denylist`).
 * - `deniedTablesRefuseReshardSwitch` (error): any table denied on a source or target shard of a selected Reshard,
 *   explained or not: its read switch updates those shards' query service and Vitess refuses with `cannot safely
 *   alter DisableQueryService as DeniedTables is set for shard %v` (`go/vt/topo/srv_keyspace.go:460 @v0.19.x to
 *   @v0.22.x`, via `go/vt/topotools/keyspace.go:118` UpdateShardRecords from `switchShardReads`). `%v` prints the
 *   whole shard record, which cannot be predicted to the byte, so the reason is heuristic with the text in its
 *   message.
 * - `deniedTableUnexplained` (info): no workflow read explains it, but keyspaces whose workflows were not read
 *   might.
 */
import { defineCheck, type CheckFinding, type Reasons } from '../src/engine/check.js';
import { workflowTables } from '../src/model/expected-streams.js';
import { keyspacesWithUnreadWorkflows, leftoverKeyspaces } from '../src/model/leftovers.js';
import type { ClusterModel, Keyspace, Shard, TabletControl, Workflow } from '../src/model/types.js';

/** The routing-rule suffix of a tablet type (`vschema` rules are keyed `table@replica`, `ks.table@rdonly`). */
function suffixOf(tabletType: string): string | null {
  switch (tabletType.toUpperCase()) {
    case 'PRIMARY':
    case 'MASTER':
      return '';
    case 'REPLICA':
      return '@replica';
    case 'RDONLY':
    case 'BATCH':
      return '@rdonly';
    default:
      return null;
  }
}

const keyspaceOf = (qualified: string): string => {
  const dot = qualified.indexOf('.');
  return dot < 0 ? '' : qualified.slice(0, dot);
};

/** Tables of MoveTables-like workflows touching `keyspace` (as target or source), by workflow. */
function explainers(model: ClusterModel, keyspace: string): readonly { wf: Workflow; tables: Set<string> }[] {
  return model.allWorkflows
    .filter((wf) => wf.keyspace === keyspace || wf.sourceKeyspaces.includes(keyspace))
    .map((wf) => ({ wf, tables: new Set(workflowTables(wf)) }));
}

interface Routing {
  /** Where a query for the table (this tablet type) goes: keyspaces named by rules, or this one by default. */
  readonly routedHere: boolean | null;
  readonly evidence: string;
}

/**
 * Whether vtgate sends queries for `table` of tablet type `suffix` to `ks`: the qualified name goes there unless a
 * routing rule `ks.table[@type]` points elsewhere; the unqualified name goes there when a rule `table[@type]` points
 * there. A sharded keyspace whose vschema lacks the table receives no query for it at all.
 */
function routingOf(model: ClusterModel, ks: Keyspace, table: string, suffix: string): Routing {
  if (ks.vschema.ok && ks.vschema.value.sharded && !ks.vschema.value.tables.has(table)) {
    return { routedHere: false, evidence: `the sharded vschema of ${ks.name} has no table ${table}` };
  }
  if (!model.routingRules.ok) return { routedHere: null, evidence: 'routing rules not read' };
  const rules = model.routingRules.value;
  // vtgate looks up `name@type` first, then `name` (`go/vt/vtgate/vindexes/vschema.go` `FindRoutedTable`).
  const lookup = (name: string): { rule: string; to: readonly string[] } | undefined => {
    for (const key of [`${name}${suffix}`, name]) {
      const to = rules.get(key);
      if (to !== undefined) return { rule: key, to };
    }
    return undefined;
  };
  const qualified = lookup(`${ks.name}.${table}`);
  const bare = lookup(table);
  const bareHere = bare !== undefined && keyspaceOf(bare.to[0] ?? '') === ks.name;
  if (qualified === undefined && !bareHere) {
    return { routedHere: true, evidence: `no routing rule sends ${ks.name}.${table}${suffix} elsewhere` };
  }
  const here = bareHere
    ? bare
    : qualified !== undefined && keyspaceOf(qualified.to[0] ?? '') === ks.name
      ? qualified
      : null;
  if (here !== null) return { routedHere: true, evidence: `routing rule ${here.rule} → ${here.to.join(', ')}` };
  return { routedHere: false, evidence: `routing rule ${qualified!.rule} → ${qualified!.to.join(', ')}` };
}

function controlFindings(
  model: ClusterModel,
  ks: Keyspace,
  shard: Shard,
  tc: TabletControl,
  explain: readonly { wf: Workflow; tables: Set<string> }[],
  unread: readonly string[],
  sweep: boolean,
): CheckFinding<R>[] {
  const suffix = suffixOf(tc.tabletType);
  const orphans = tc.deniedTables.filter((t) => !explain.some((e) => e.tables.has(t)));
  if (orphans.length === 0 || suffix === null) return [];
  const type = tc.tabletType.toUpperCase();
  const cells = tc.cells.length > 0 ? ` in cells ${tc.cells.join(', ')}` : '';
  const base = {
    keyspace: ks.name,
    shard: shard.name,
    ...(type === 'PRIMARY' && shard.primaryAlias ? { tablet: shard.primaryAlias } : {}),
  };
  const detailsOf = (table: string, routing: Routing) => ({
    table,
    tabletType: type,
    cells: [...tc.cells],
    deniedTables: [...tc.deniedTables],
    routing: routing.evidence,
    workflowsRead: explain.map((e) => `${e.wf.keyspace}.${e.wf.name}`),
    vttabletError: 'disallowed due to rule: enforce denied tables',
    breaks: `queries on ${table} routed to ${ks.name}; a Reshard read switch of ${ks.name}`,
    clean: `vtctldclient SetShardTabletControl --denied-tables ${table} --remove ${ks.name}/${shard.name} ${type}, then vtctldclient RefreshStateByShard ${ks.name}/${shard.name}`,
  });
  return orphans.map((table): CheckFinding<R> => {
    const routing = routingOf(model, ks, table, suffix);
    const what = `shard ${ks.name}/${shard.name} denies ${type} queries on ${table}${cells}`;
    if (unread.length > 0) {
      return {
        ...base,
        reason: 'deniedTableUnexplained',
        message: `${what} and no workflow read moves it, but the workflows of ${unread.join(', ')} were not read (${routing.evidence})`,
        details: { ...detailsOf(table, routing), unreadKeyspaces: unread },
      };
    }
    if (routing.routedHere === false) {
      return {
        ...base,
        reason: 'deniedTableNotRouted',
        message: `${what} although no workflow moves it, a leftover of an earlier workflow; ${routing.evidence}, so queries do not reach it until routing changes, and a Reshard of ${ks.name} cannot switch reads while it is set`,
        details: detailsOf(table, routing),
      };
    }
    return {
      ...base,
      reason: sweep ? 'deniedTableRouted' : 'deniedTableServing',
      message:
        `${what} although no workflow moves it, a leftover of an earlier workflow; ${routing.evidence}, so every such query fails with "disallowed due to rule: enforce denied tables"` +
        (sweep ? '' : ' (the workflow action judged is not refused by it)'),
      details: detailsOf(table, routing),
    };
  });
}

/**
 * A selected Reshard whose source or target shard denies any table (a leftover or not): `switchShardReads` updates
 * the query service of both sides through UpdateDisableQueryService, which refuses a shard with denied tables.
 */
function reshardRefusals(model: ClusterModel): CheckFinding<R>[] {
  const out: CheckFinding<R>[] = [];
  for (const wf of model.workflows) {
    if (wf.type !== 'Reshard') continue;
    for (const name of [...new Set([...wf.sourceShards, ...wf.targetShards])]) {
      const shard = model.shard(wf.keyspace, name);
      const denied = shard?.tabletControls.filter((tc) => tc.deniedTables.length > 0) ?? [];
      if (shard === undefined || denied.length === 0) continue;
      const tables = [...new Set(denied.flatMap((tc) => tc.deniedTables))].sort();
      const types = denied.map((tc) => tc.tabletType);
      out.push({
        reason: 'deniedTablesRefuseReshardSwitch',
        message: `shard ${wf.keyspace}/${name} denies ${tables.join(', ')} (${types.join(', ')}), so the read switch of the Reshard ${wf.name} is refused with "cannot safely alter DisableQueryService as DeniedTables is set for shard" followed by that shard record`,
        keyspace: wf.keyspace,
        shard: name,
        workflow: wf.name,
        details: { deniedTables: tables, tabletTypes: types },
      });
    }
  }
  return out;
}

const reasons = {
  deniedTableRouted: {
    severity: 'error',
    step: 'workflow-state',
    // No workflow action is refused by it: only the sweep, which judges no action, reports it as an error.
    actions: [],
    heuristic: true,
    rationale:
      'Routing still sends the table to this shard, so every query on it fails with disallowed due to rule: enforce denied tables.',
  },
  deniedTableServing: {
    severity: 'warning',
    step: 'workflow-state',
    heuristic: true,
    rationale:
      'Routing still sends the table to this shard, so its queries fail now, but the workflow action judged does not read the denial and proceeds.',
  },
  deniedTableNotRouted: {
    severity: 'warning',
    step: 'workflow-state',
    heuristic: true,
    rationale:
      'Routing sends the table elsewhere today, but routing back would fail every query, and a Reshard of the keyspace cannot switch reads while a table is denied.',
  },
  deniedTablesRefuseReshardSwitch: {
    severity: 'error',
    step: 'switch-reads',
    actions: ['switch'],
    heuristic: true,
    rationale:
      'A Reshard read switch updates the query service of its shards and Vitess refuses it while any of them denies a table (cannot safely alter DisableQueryService as DeniedTables is set for shard %v).',
  },
  deniedTableUnexplained: {
    // Not proven a leftover (like the other checks' *Unexplained reasons): said, not a risk.
    severity: 'info',
    step: 'workflow-state',
    heuristic: true,
    rationale: 'A workflow of a keyspace that was not read may explain the denial, so it is not proven a leftover.',
  },
} satisfies Reasons;

type R = keyof typeof reasons;

export default defineCheck({
  id: 'orphan-denied-tables',
  group: 'leftovers',
  needs: ['topology'],
  title: 'Tables denied on shard records belong to a live workflow',
  // vttablet (not SwitchTraffic) refuses the queries: `disallowed due to rule: enforce denied tables` is in details.
  reasons,
  description:
    "A MoveTables denies its tables on shard records: on the target primaries from create (v20+) until writes switch, on the source primaries from the write switch until Complete (`vitessio/vitess:go/vt/vtctl/workflow/traffic_switcher.go` `changeTableSourceWrites`, `dropSourceDeniedTables`, `dropTargetDeniedTables`). Every vttablet turns that list into the query rule `enforce denied tables` (`go/vt/vttablet/tabletmanager/tm_state.go`) and refuses every query on those tables with `disallowed due to rule: enforce denied tables` (`go/vt/vttablet/tabletserver/query_executor.go` `checkPermissions`). When a Cancel, a `--keep-data` cleanup or an interrupted switch fails to remove them, the denial outlives every workflow (vitessio/vitess #13998, #17620, #17326, #15963; the migration troubleshooting guide). This check looks at every shard of the selected workflows' source and target keyspaces (`vtpreflight sweep`: of every keyspace) and reports each denied table that no workflow read (forward, `_reverse` or frozen) with that keyspace as target or source moves: under `sweep` an error when routing still sends the table there (queries fail now; under `check` a warning, since no workflow action is refused by it), a warning when routing sends it elsewhere or the sharded vschema lacks it, an info line when keyspaces whose workflows were not read might explain it. Any table denied on a shard of a selected Reshard is an error: its read switch is refused with `cannot safely alter DisableQueryService as DeniedTables is set for shard %v` (`go/vt/topo/srv_keyspace.go`).",
  remediation:
    'Confirm that no workflow needs the denial: `vtctldclient GetWorkflows <keyspace> --include-logs=false` for every keyspace, and `vtctldclient GetShard <keyspace>/<shard>`. Then remove it with `vtctldclient SetShardTabletControl --denied-tables <table> --remove <keyspace>/<shard> <tablet type>` and `vtctldclient RefreshStateByShard <keyspace>/<shard>`, and run vtpreflight again.',
  run(model, options) {
    const unread = keyspacesWithUnreadWorkflows(model);
    const out: CheckFinding<R>[] = [];
    // `check`: the selected workflows' keyspaces; `sweep`: every keyspace (src/model/leftovers.ts).
    for (const ks of leftoverKeyspaces(model, options)) {
      if (!ks.shards.ok) continue;
      const explain = explainers(model, ks.name);
      for (const shard of ks.shards.value.values()) {
        for (const tc of shard.tabletControls) {
          out.push(...controlFindings(model, ks, shard, tc, explain, unread, options.sweep));
        }
      }
    }
    if (!options.sweep) out.push(...reshardRefusals(model));
    return out;
  },
});
