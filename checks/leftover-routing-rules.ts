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
 * Failure modes (`details.reason`):
 * - `ruleBreaksLaterComplete` (warning): no workflow read explains a cross-keyspace rule to `<y>.<table>`.
 * - `ruleUnexplained` (info): the same, but a keyspace of the rule had workflows that were not read.
 */
import { defineCheck, type CheckFinding } from '../src/engine/check.js';
import {
  keyspacesWithUnreadWorkflows,
  leftoverKeyspaces,
  movedBetween,
  splitQualified,
} from '../src/model/leftovers.js';

export default defineCheck({
  id: 'leftover-routing-rules',
  group: 'leftovers',
  needs: ['topology'],
  title: 'No routing rule of a finished workflow blocks a later move of its table',
  reasons: {
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
  },
  description:
    'MoveTables Complete (without `--keep-routing-rules`) refuses while any routing rule still routes to a moved table in the keyspace it leaves: `routing still exists from keyspace %s table %s to %s` (`vitessio/vitess:go/vt/vtctl/workflow/utils.go`). A rule `<x>.<table>[@type] → <y>.<table>` kept by an earlier move from x to y (`complete --keep-routing-rules`, `cancel --keep-routing-rules`) is exactly that once the table moves on out of y. This check reports every such cross-keyspace rule that no workflow read moving its table between its two keyspaces explains.',
  remediation:
    "Confirm no workflow needs the rule (`vtctldclient GetWorkflows <keyspace> --include-logs=false`), print the rules with `vtctldclient GetRoutingRules`, and apply them without the leftover ones with `vtctldclient ApplyRoutingRules --rules '<the remaining rules as JSON>'`; then run vtpreflight again.",
  run(model, options) {
    if (!model.routingRules.ok) return [];
    const scope = new Set(leftoverKeyspaces(model, options).map((k) => k.name));
    const unread = keyspacesWithUnreadWorkflows(model);
    const out: CheckFinding[] = [];
    for (const [fromTable, toTables] of model.routingRules.value) {
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
          vitessError: `routing still exists from keyspace ${to.keyspace} table ${to.table} to ${fromTable}`,
          details,
        });
      }
    }
    return out;
  },
});
