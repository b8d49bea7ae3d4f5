/**
 * stray-routing-rules: routing rules that contradict the workflows or that no workflow explains, and
 * tables claimed by two live workflows at once.
 *
 * vtgate resolves a table through the routing rules before the vschema: `keyspace.table@type`, then
 * `keyspace.table` (`vitessio/vitess:go/vt/vtgate/vindexes/vschema.go` `FindRoutedTable`). A rule is resolved when the
 * SrvVSchema is built (`buildRoutingRule`): more than one target (`table %v has more than one target: %v`), a
 * target keyspace missing from the vschema (`Unknown database '%s' in vschema`) or a table a sharded keyspace's vschema
 * lacks (`table %s not found`, `findTable`) turn the rule into an error that every query on its table returns.
 * MoveTables writes the rules for its tables at create and flips them at the switch; `getWorkflowState`
 * (`go/vt/vtctl/workflow/server.go`) infers "writes switched" from the first table's rule.
 *
 * Field evidence: #6850 and #13589 (a failed MoveTables create still leaves its rules), #13170 (Cancel ignored
 * `--keep_routing_rules`), #7477 (DropSources left rules), #16733 (two workflows moving a same-named table from
 * different source keyspaces overwrite each other's global rule, so Vitess infers the wrong switch state; PR #16731,
 * v21), #16817 (a second workflow for already-moved tables), #19115; the cutover guide: with stale rules, dropping a
 * table in the target keyspace is re-routed to the source and drops the original table.
 *
 * Failure modes (`details.reason`):
 * - `ruleBroken`: the rule cannot resolve, so every query on its table fails with vtgate's error (error when it is
 *   about a selected workflow's table, else a warning).
 * - `ruleContradictsWorkflow` (error): a rule for a selected MoveTables' table points into a keyspace that is neither
 *   its source nor its target: another workflow or a hand edit owns the name, and Vitess reads the switch state from
 * it.
 * - `ruleWithoutWorkflow` (info): a rule redirecting `keyspace.table` to another keyspace that no workflow read
 *   between those keyspaces moves: a leftover of a cancelled, failed or completed workflow, or an alias applied on
 *   purpose (`ApplyRoutingRules`, `complete --keep-routing-rules`), which nothing read tells apart. Judged only when
 *   every keyspace the rule names had all its primaries read.
 * - `tableInTwoWorkflows` (warning): two live MoveTables (other than a workflow and its `_reverse`) move the same
 * table.
 *
 * Shard routing rules that no partial MoveTables explains are `leftover-routing-rules`' (`shardRuleLeftover`), which
 * `vtpreflight sweep` runs too: one finding per rule, not one here and one there.
 */
import { defineCheck, type CheckFinding, type Reasons } from '../src/engine/check.js';
import { workflowTableSet, workflowTables } from '../src/model/expected-streams.js';
import type { ClusterModel, Keyspace, Workflow } from '../src/model/types.js';

interface ParsedRule {
  readonly from: string;
  /** Keyspace qualifier of `from`, '' when unqualified. */
  readonly fromKeyspace: string;
  readonly table: string;
  /** '' | '@replica' | '@rdonly' … */
  readonly suffix: string;
  readonly to: readonly string[];
}

function parseRule(from: string, to: readonly string[]): ParsedRule {
  const at = from.indexOf('@');
  const name = at < 0 ? from : from.slice(0, at);
  const suffix = at < 0 ? '' : from.slice(at);
  const dot = name.indexOf('.');
  return {
    from,
    fromKeyspace: dot < 0 ? '' : name.slice(0, dot),
    table: dot < 0 ? name : name.slice(dot + 1),
    suffix,
    to,
  };
}

function splitQualified(qualified: string): { keyspace: string; table: string } | null {
  const parts = qualified.split('.');
  return parts.length === 2 && parts[0] && parts[1] ? { keyspace: parts[0], table: parts[1] } : null;
}

const isMoveTables = (wf: Workflow) => wf.type === 'MoveTables' || wf.type === 'Migrate';
const wfLabel = (wf: Workflow) => `${wf.keyspace}.${wf.name}`;

/** vtgate's resolution error for a rule (`vschema.go` `buildRoutingRule` / `findTable`), or null when it resolves. */
function resolutionError(model: ClusterModel, r: ParsedRule): string | null {
  if (r.to.length > 1) return `table ${r.from} has more than one target: [${r.to.join(' ')}]`;
  const target = r.to[0];
  if (target === undefined) return null; // an empty rule disables the table on purpose (`table %s has been disabled`)
  const q = splitQualified(target);
  if (q === null) return `table ${target} must be qualified`;
  if (!model.keyspacesRead.ok) return null;
  const ks = model.keyspace(q.keyspace);
  if (ks === undefined) return `Unknown database '${q.keyspace}' in vschema`;
  if (ks.vschema.ok && ks.vschema.value.sharded && !ks.vschema.value.tables.has(q.table)) {
    return `table ${q.table} not found`;
  }
  return null;
}

/** True when every shard primary of the keyspace was read (its workflows are all known). */
function keyspaceFullyRead(ks: Keyspace | undefined): boolean {
  if (ks === undefined || !ks.shards.ok) return false;
  for (const sh of ks.shards.value.values()) if (sh.sidecar === undefined || !sh.sidecar.ok) return false;
  return true;
}

function tableRuleFindings(model: ClusterModel): CheckFinding<R>[] {
  if (!model.routingRules.ok) return [];
  const out: CheckFinding<R>[] = [];
  const moving = model.allWorkflows.filter(isMoveTables).map((wf) => ({ wf, tables: workflowTableSet(wf) }));
  const selected = model.workflows.filter((wf) => isMoveTables(wf) && !wf.name.endsWith('_reverse'));
  for (const [from, to] of [...model.routingRules.value.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const r = parseRule(from, to);
    const toKeyspace = splitQualified(r.to[0] ?? '')?.keyspace ?? '';
    const mine = selected.filter(
      (wf) =>
        workflowTableSet(wf).has(r.table) &&
        (r.fromKeyspace === '' || r.fromKeyspace === wf.keyspace || wf.sourceKeyspaces.includes(r.fromKeyspace)),
    );
    const location = { keyspace: r.fromKeyspace || toKeyspace || undefined };
    const broken = resolutionError(model, r);
    if (broken !== null) {
      out.push({
        ...(location.keyspace ? { keyspace: location.keyspace } : {}),
        ...(mine.length === 1 ? { workflow: mine[0]!.name, keyspace: mine[0]!.keyspace } : {}),
        reason: mine.length === 0 ? 'ruleBrokenNoWorkflow' : 'ruleBroken',
        message: `routing rule ${r.from} → ${r.to.join(', ')} does not resolve, so every query on ${r.from} fails with "${broken}"`,
        details: {
          rule: r.from,
          toTables: [...r.to],
          vtgateError: broken,
          workflows: mine.map(wfLabel),
        },
      });
      continue;
    }
    const contradicted = mine.filter(
      (wf) => toKeyspace !== '' && toKeyspace !== wf.keyspace && !wf.sourceKeyspaces.includes(toKeyspace),
    );
    for (const wf of contradicted) {
      out.push({
        keyspace: wf.keyspace,
        workflow: wf.name,
        reason: 'ruleContradictsWorkflow',
        message: `routing rule ${r.from} → ${r.to.join(', ')} sends table ${r.table} of workflow ${wf.name} (${wf.sourceKeyspaces.join(', ')} → ${wf.keyspace}) to keyspace ${toKeyspace}: another workflow or a hand edit owns the name, and SwitchTraffic reads the workflow's switch state from these rules`,
        details: {
          rule: r.from,
          toTables: [...r.to],
          table: r.table,
          sourceKeyspaces: [...wf.sourceKeyspaces],
        },
      });
    }
    // A cross-keyspace redirect of a qualified name (`ks.t → other.t`). An unqualified rule (`t → ks.t`) without a
    // workflow is also how operators pin an ambiguous name by hand, so only a broken one is reported (above).
    if (contradicted.length > 0 || toKeyspace === '' || r.fromKeyspace === '' || r.fromKeyspace === toKeyspace)
      continue;
    const explained = moving.some(
      ({ wf, tables }) =>
        tables.has(r.table) &&
        [r.fromKeyspace, toKeyspace].every((k) => k === wf.keyspace || wf.sourceKeyspaces.includes(k)),
    );
    if (explained) continue;
    // Workflows live on their target keyspace's primaries: judge only when both keyspaces were read completely.
    if (![r.fromKeyspace, toKeyspace].every((k) => keyspaceFullyRead(model.keyspace(k)))) continue;
    out.push({
      keyspace: r.fromKeyspace,
      reason: 'ruleWithoutWorkflow',
      message: `routing rule ${r.from} → ${r.to.join(', ')} redirects ${r.fromKeyspace}.${r.table} to ${toKeyspace}, but no workflow between ${r.fromKeyspace} and ${toKeyspace} moves ${r.table}: a leftover of a cancelled, failed or completed workflow unless it was applied on purpose; queries (and DDL such as DROP TABLE) on ${r.fromKeyspace}.${r.table} reach ${toKeyspace}`,
      details: { rule: r.from, toTables: [...r.to], table: r.table },
    });
  }
  return out;
}

/** `a` and `b` are a workflow and its reverse (`<name>_reverse`, keyspaces swapped). */
function reversePair(a: Workflow, b: Workflow): boolean {
  const [fwd, rev] = a.name.endsWith('_reverse') ? [b, a] : [a, b];
  return rev.name === `${fwd.name}_reverse` && fwd.sourceKeyspaces.includes(rev.keyspace);
}

function twoWorkflowFindings(model: ClusterModel): CheckFinding<R>[] {
  const live = model.allWorkflows.filter((wf) => isMoveTables(wf) && !wf.frozen);
  const out: CheckFinding<R>[] = [];
  for (const wf of model.workflows) {
    if (!isMoveTables(wf) || wf.frozen) continue;
    const tables = workflowTableSet(wf);
    for (const other of live) {
      if (other === wf || (other.keyspace === wf.keyspace && other.name === wf.name) || reversePair(wf, other))
        continue;
      const shared = workflowTables(other).filter((t) => tables.has(t));
      if (shared.length === 0) continue;
      out.push({
        keyspace: wf.keyspace,
        workflow: wf.name,
        reason: 'tableInTwoWorkflows',
        message: `workflow ${wf.name} (${wf.sourceKeyspaces.join(', ')} → ${wf.keyspace}) and workflow ${other.name} (${other.sourceKeyspaces.join(', ')} → ${other.keyspace}) both move ${shared.join(', ')}: their routing rules for these names overwrite each other, so Vitess can infer the wrong switch state, and the second copy meets rows the first one wrote`,
        details: { otherWorkflow: wfLabel(other), tables: shared },
      });
    }
  }
  return out;
}

const reasons = {
  ruleBroken: {
    severity: 'error',
    step: 'workflow-state',
    heuristic: true,
    rationale: 'A routing rule of this workflow that does not resolve fails every query on its table in vtgate.',
  },
  ruleBrokenNoWorkflow: {
    severity: 'warning',
    step: 'workflow-state',
    heuristic: true,
    rationale: 'A routing rule no workflow explains does not resolve, so queries on its table fail in vtgate.',
  },
  ruleContradictsWorkflow: {
    severity: 'error',
    step: 'workflow-state',
    heuristic: true,
    rationale:
      'SwitchTraffic reads the switch state from routing rules, and this one sends the table to a third keyspace.',
  },
  ruleWithoutWorkflow: {
    severity: 'info',
    step: 'workflow-state',
    heuristic: true,
    rationale:
      'A rule no workflow explains redirects queries and DDL on the table to another keyspace: a leftover, or an alias applied on purpose, which is why it is information only.',
  },
  tableInTwoWorkflows: {
    severity: 'warning',
    step: 'workflow-state',
    heuristic: true,
    rationale:
      "Two workflows moving one table overwrite each other's routing rules, so Vitess can infer the wrong switch state.",
  },
} satisfies Reasons;

type R = keyof typeof reasons;

export default defineCheck({
  id: 'stray-routing-rules',
  needs: ['topology'],
  title: 'Routing rules agree with the workflows, and each table is moved by one workflow',
  reasons,
  description:
    "vtgate resolves tables through the routing rules first (`vitessio/vitess:go/vt/vtgate/vindexes/vschema.go` `FindRoutedTable`), and a rule that does not resolve (`buildRoutingRule`: several targets, `Unknown database`, `table %s not found` in a sharded vschema) fails every query on its table. MoveTables writes rules for its tables at create and flips them at the switch, and `getWorkflowState` (`go/vt/vtctl/workflow/server.go`) reads the switch state from the first table's rule; error paths of create, Cancel and Complete leave rules behind (vitessio/vitess #6850, #13589, #13170, #7477, #19115), and two workflows moving one table overwrite each other's rules (#16733, #16817). This check reports rules that do not resolve, rules for a selected MoveTables' table pointing into a third keyspace (error: the switch state is read from them), cross-keyspace redirects that no workflow read explains (warning; judged only where every keyspace they name was read), and tables moved by two live workflows (warning). Shard routing rules left by a partial MoveTables are `leftover-routing-rules`' (it runs in `vtpreflight sweep` too).",
  remediation:
    'Compare `vtctldclient GetRoutingRules` with `vtctldclient GetWorkflows <keyspace>` of every keyspace. Remove leftovers by applying the rules without them (`vtctldclient ApplyRoutingRules --rules-file <file>`), never while a workflow that owns them is running, then run vtpreflight again. When two workflows move the same table, cancel the one that should not exist before switching the other.',
  run(model) {
    return [...tableRuleFindings(model), ...twoWorkflowFindings(model)];
  },
});
