/**
 * leftover-routing-rules: routing rules kept after their workflow (`complete --keep-routing-rules`, `cancel
 * --keep-routing-rules`) that make a later MoveTables of the same table refuse to complete.
 *
 * MoveTables Complete without `--keep-routing-rules` looks at every routing rule and refuses while one still routes
 * to a moved table in the keyspace it leaves (`vitessio/vitess:go/vt/vtctl/workflow/utils.go`, after the frozen
 * check): `routing still exists from keyspace %s table %s to %s`. A rule `<x>.<table>[@type] → <y>.<table>` kept by an
 * earlier move from x to y is exactly that when the table later moves out of y. Until then the rule also sends
 * queries on `<x>.<table>` to y, where a later move drops the table.
 *
 * A rule is explained by any workflow read that moves its table between its two keyspaces (either direction).
 * `stray-routing-rules` reports rules without a workflow for the selected workflows' SwitchTraffic; this check names
 * the later Complete they break, and runs in `vtpreflight sweep`.
 *
 * A partial (shard-by-shard) MoveTables routes per shard instead (`--source-shards`): create writes the shard routing
 * rule `<target>.<shard> → <source>` for every serving source shard without one (`createDefaultShardRoutingRules`,
 * `go/vt/vtctl/workflow/utils.go:143 @v0.24.4`), the write switch replaces it by `<source>.<shard> → <target>` for
 * its own shards (`traffic_switcher.go:783-796`), and Cancel/Complete delete only `<target>.<shard>` of the
 * workflow's target shards (`deleteShardRoutingRules`, `traffic_switcher.go:436-455`): the `<source>.<shard>` rules
 * of a switched partial workflow go only when its `_reverse` is cancelled, and the default rules of the shards no
 * partial workflow moved stay after it. A leftover rule keeps sending every query of that shard of `<from>` to
 * `<to>`, and a later partial MoveTables between the two keyspaces takes it for its own: `getWorkflowState` counts
 * every shard rule pointing at its source keyspace as not switched and at its target as switched
 * (`server.go:469-484`), and create writes no default rule for a shard that already has one.
 *
 * Failure modes (`details.reason`):
 * - `ruleBreaksLaterComplete` (warning): no workflow read explains a cross-keyspace rule to `<y>.<table>`.
 * - `ruleUnexplained` (info): the same, but a keyspace of the rule had workflows that were not read.
 * - `shardRuleLeftover` (warning): a shard routing rule no partial MoveTables read between its two keyspaces explains
 *   (one moving that shard, or any whose source keyspace the default rule `<target>.<shard> → <source>` points at).
 * - `shardRuleUnexplained` (info): the same, but a keyspace of the rule had workflows that were not read.
 */
import { defineCheck, type CheckFinding, type Reasons } from '../src/engine/check.js';
import type { ClusterModel, Workflow } from '../src/model/types.js';
import {
  keyspacesWithUnreadWorkflows,
  leftoverKeyspaces,
  movedBetween,
  splitQualified,
} from '../src/model/leftovers.js';

/**
 * True when a partial MoveTables read between the rule's two keyspaces explains it: it moves that shard, or the rule
 * is the default one its create writes for every serving source shard (`<target>.<shard> → <source>`).
 */
function shardRuleExplained(wf: Workflow, r: { fromKeyspace: string; toKeyspace: string; shard: string }): boolean {
  if ((wf.type !== 'MoveTables' && wf.type !== 'Migrate') || wf.subType !== 'Partial') return false;
  const between = [r.fromKeyspace, r.toKeyspace].every((k) => k === wf.keyspace || wf.sourceKeyspaces.includes(k));
  if (!between || r.fromKeyspace === r.toKeyspace) return false;
  const defaultRule = r.fromKeyspace === wf.keyspace && wf.sourceKeyspaces.includes(r.toKeyspace);
  return defaultRule || wf.sourceShards.includes(r.shard) || wf.targetShards.includes(r.shard);
}

function shardRuleFindings(model: ClusterModel, scope: ReadonlySet<string>, unread: readonly string[]) {
  if (!model.shardRoutingRules.ok) return [];
  const out: CheckFinding<Reason>[] = [];
  for (const r of model.shardRoutingRules.value) {
    if (!scope.has(r.fromKeyspace) && !scope.has(r.toKeyspace)) continue;
    if (model.allWorkflows.some((wf) => shardRuleExplained(wf, r))) continue;
    const rule = `${r.fromKeyspace}.${r.shard} → ${r.toKeyspace}`;
    const details = {
      fromKeyspace: r.fromKeyspace,
      toKeyspace: r.toKeyspace,
      breaks: `queries on shard ${r.shard} of ${r.fromKeyspace}, and the switch state of a later partial MoveTables between ${r.fromKeyspace} and ${r.toKeyspace}`,
      clean: 'vtctldclient GetShardRoutingRules, then vtctldclient ApplyShardRoutingRules --rules <the other rules>',
    };
    const gaps = [r.fromKeyspace, r.toKeyspace].filter((k) => unread.includes(k));
    if (gaps.length > 0) {
      out.push({
        reason: 'shardRuleUnexplained',
        keyspace: r.fromKeyspace,
        shard: r.shard,
        message: `shard routing rule ${rule}: no partial MoveTables read between ${r.fromKeyspace} and ${r.toKeyspace} explains it, but the workflows of ${gaps.join(', ')} were not read`,
        details: { ...details, unreadKeyspaces: gaps },
      });
      continue;
    }
    out.push({
      reason: 'shardRuleLeftover',
      keyspace: r.fromKeyspace,
      shard: r.shard,
      message: `shard routing rule ${rule} is left by an earlier partial MoveTables (none read between ${r.fromKeyspace} and ${r.toKeyspace} explains it): every query on shard ${r.shard} of ${r.fromKeyspace} goes to ${r.toKeyspace}, and a later partial MoveTables between them takes the rule for its own switch state`,
      details,
    });
  }
  return out;
}

const reasons = {
  ruleBreaksLaterComplete: {
    severity: 'warning',
    step: 'workflow-state',
    vitess: {
      template: 'routing still exists from keyspace %s table %s to %s',
      file: 'go/vt/vtctl/workflow/utils.go',
      line: 595,
      versions: { from: 17 },
    },
  },
  ruleUnexplained: {
    severity: 'info',
    step: 'workflow-state',
    heuristic: true,
    rationale: 'A workflow of a keyspace that was not read may own the routing rule, so it is not proven a leftover.',
  },
  shardRuleLeftover: {
    severity: 'warning',
    step: 'workflow-state',
    heuristic: true,
    rationale:
      'A shard routing rule no partial MoveTables explains sends every query of that shard to the other keyspace, and a later partial MoveTables between the two reads it as its own switch state.',
  },
  shardRuleUnexplained: {
    severity: 'info',
    step: 'workflow-state',
    heuristic: true,
    rationale:
      'A partial MoveTables of a keyspace that was not read may own the shard routing rule, so it is not proven a leftover.',
  },
} satisfies Reasons;

type Reason = keyof typeof reasons;

export default defineCheck({
  id: 'leftover-routing-rules',
  group: 'leftovers',
  needs: ['topology'],
  title: 'No routing rule of a finished workflow blocks a later move of its table',
  reasons,
  description:
    'MoveTables Complete (without `--keep-routing-rules`) refuses while any routing rule still routes to a moved table in the keyspace it leaves: `routing still exists from keyspace %s table %s to %s` (`vitessio/vitess:go/vt/vtctl/workflow/utils.go`). A rule `<x>.<table>[@type] → <y>.<table>` kept by an earlier move from x to y (`complete --keep-routing-rules`, `cancel --keep-routing-rules`) is exactly that once the table moves on out of y. This check reports every such cross-keyspace rule that no workflow read moving its table between its two keyspaces explains. It also reports shard routing rules (`vtctldclient GetShardRoutingRules`) that no partial MoveTables read between their two keyspaces explains: Cancel and Complete of a partial MoveTables delete only the rules of its own target shards (`deleteShardRoutingRules`, `go/vt/vtctl/workflow/traffic_switcher.go`), a leftover keeps routing every query of its shard to the other keyspace, and a later partial MoveTables between the two keyspaces reads it as its own switch state (`getWorkflowState`, `server.go`).',
  remediation:
    "Confirm no workflow needs the rule (`vtctldclient GetWorkflows <keyspace> --include-logs=false`), print the rules with `vtctldclient GetRoutingRules`, and apply them without the leftover ones with `vtctldclient ApplyRoutingRules --rules '<the remaining rules as JSON>'`; for shard routing rules, print them with `vtctldclient GetShardRoutingRules` and apply the rest with `vtctldclient ApplyShardRoutingRules --rules '<the remaining rules as JSON>'`. Then run vtpreflight again.",
  run(model, options) {
    const scope = new Set(leftoverKeyspaces(model, options).map((k) => k.name));
    const unread = keyspacesWithUnreadWorkflows(model);
    const out: CheckFinding<Reason>[] = [];
    for (const [fromTable, toTables] of model.routingRules.ok ? model.routingRules.value : []) {
      const from = splitQualified(fromTable);
      if (from.keyspace === '') continue;
      for (const toTable of toTables) {
        const to = splitQualified(toTable);
        if (to.keyspace === '' || to.keyspace === from.keyspace || to.table !== from.table) continue;
        if (!scope.has(from.keyspace) && !scope.has(to.keyspace)) continue;
        if (movedBetween(model, to.table, from.keyspace, to.keyspace) !== undefined) continue;
        const details = {
          fromTable,
          toTable,
          breaks: `MoveTables complete of a later move of ${to.table} out of ${to.keyspace}`,
          clean: 'vtctldclient GetRoutingRules, then vtctldclient ApplyRoutingRules --rules <the other rules>',
        };
        const gaps = [from.keyspace, to.keyspace].filter((k) => unread.includes(k));
        if (gaps.length > 0) {
          out.push({
            reason: 'ruleUnexplained',
            keyspace: to.keyspace,
            message: `routing rule ${fromTable} → ${toTable}: no workflow read moves ${to.table} between ${from.keyspace} and ${to.keyspace}, but the workflows of ${gaps.join(', ')} were not read`,
            details: { ...details, unreadKeyspaces: gaps },
          });
          continue;
        }
        out.push({
          reason: 'ruleBreaksLaterComplete',
          keyspace: to.keyspace,
          message: `routing rule ${fromTable} → ${toTable} is left by an earlier move of ${to.table} (no workflow read moves it between ${from.keyspace} and ${to.keyspace}): a later MoveTables of ${to.table} out of ${to.keyspace} will refuse to complete`,
          vitessArgs: [to.keyspace, to.table, fromTable],
          details,
        });
      }
    }
    out.push(...shardRuleFindings(model, scope, unread));
    return out;
  },
});
