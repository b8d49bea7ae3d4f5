/**
 * leftover-mirror-rules: mirror rules no workflow explains.
 *
 * `MoveTables … MirrorTraffic` writes mirror rules `<source>.<table>[@type] → <target>.<table>` (v21+, PR #15945), and
 * no Cancel removes them. SwitchTraffic and MirrorTraffic of a later workflow count the rules that already exist for
 * their own tables and tablet types (`vitessio/vitess:go/vt/vtctl/workflow/traffic_switcher.go` `mirrorTableTraffic`)
 * and refuse when some but not all exist: `wrong number of pre-existing mirror rules` (wrapped by SwitchTraffic in
 * `failed to remove mirror rules from source keyspace %s to target keyspace %s, workflow %s, for read-only tablet
 * types: …`). Meanwhile vtgate keeps mirroring the share of queries to the target table, dropped or not.
 *
 * A rule is explained by any workflow read that moves its table between its two keyspaces (either direction).
 *
 * Failure modes (`details.reason`):
 * - `mirrorRuleWithoutWorkflow` (warning): no workflow read explains the rule.
 * - `mirrorRuleUnexplained` (info): no workflow read explains it, but a keyspace of the rule had workflows not read.
 * - `mirrorRulesUnread` (warning): GetMirrorRules failed, so mirror rules could not be judged.
 */
import { defineCheck, type CheckFinding, type Reasons } from '../src/engine/check.js';
import {
  keyspacesWithUnreadWorkflows,
  leftoverKeyspaces,
  movedBetween,
  splitQualified,
} from '../src/model/leftovers.js';

const reasons = {
  mirrorRuleWithoutWorkflow: {
    severity: 'warning',
    step: 'switch-reads',
    vitess: {
      template: 'wrong number of pre-existing mirror rules',
      file: 'go/vt/vtctl/workflow/traffic_switcher.go',
      line: 1579,
      versions: { from: 21 },
    },
  },
  mirrorRuleUnexplained: {
    severity: 'info',
    step: 'switch-reads',
    heuristic: true,
    rationale: 'A workflow of a keyspace that was not read may own the mirror rule, so it is not proven a leftover.',
  },
  mirrorRulesUnread: {
    severity: 'warning',
    step: 'switch-reads',
    heuristic: true,
    rationale: 'GetMirrorRules failed, so leftover mirror rules that break a later switch could not be looked for.',
  },
} satisfies Reasons;

type R = keyof typeof reasons;

export default defineCheck({
  id: 'leftover-mirror-rules',
  group: 'leftovers',
  needs: ['topology'],
  title: 'No mirror rule is left without a workflow',
  reasons,
  description:
    '`MoveTables … MirrorTraffic` (v21+) writes mirror rules `<source>.<table>[@type] → <target>.<table>` and no Cancel removes them. SwitchTraffic and MirrorTraffic of a later workflow count the existing rules for their own tables and tablet types and refuse when some but not all exist: `wrong number of pre-existing mirror rules` (`vitessio/vitess:go/vt/vtctl/workflow/traffic_switcher.go` `mirrorTableTraffic`); until then vtgate keeps mirroring queries to the target table. This check reports each mirror rule that no workflow read moving its table between its two keyspaces explains.',
  remediation:
    "Confirm no workflow needs the rule (`vtctldclient GetWorkflows <keyspace> --include-logs=false` for both keyspaces), then print the rules with `vtctldclient GetMirrorRules` and apply them without the leftover with `vtctldclient ApplyMirrorRules --rules '<the remaining rules as JSON>'`, and run vtpreflight again.",
  run(model, options) {
    const rules = model.mirrorRules;
    if (!rules.ok) {
      // Not collected (an older readout) or not on this vtctld (before v21: no mirroring at all): nothing to judge.
      if (rules.error.unavailable === true || rules.error.kind === 'not-collected') return [];
      return [
        {
          reason: 'mirrorRulesUnread',
          message: `mirror rules could not be read (${rules.error.reason}), so leftover ones were not looked for`,
          details: { what: rules.error.what, where: rules.error.where, error: rules.error.reason },
        },
      ];
    }
    const scope = new Set(leftoverKeyspaces(model, options).map((k) => k.name));
    const unread = keyspacesWithUnreadWorkflows(model);
    const out: CheckFinding<R>[] = [];
    for (const r of rules.value) {
      const from = splitQualified(r.fromTable);
      const to = splitQualified(r.toTable);
      if (!scope.has(from.keyspace) && !scope.has(to.keyspace)) continue;
      const owner = movedBetween(model, from.table, from.keyspace, to.keyspace);
      if (owner !== undefined) continue;
      const what = `mirror rule ${r.fromTable} → ${r.toTable} (${r.percent}%)`;
      const details = {
        fromTable: r.fromTable,
        toTable: r.toTable,
        percent: r.percent,
        breaks: 'SwitchTraffic and MirrorTraffic of a later workflow over this table',
        // How SwitchTraffic wraps it when switching reads (server.go:3016 @006b7393, `switchReads`; the write switch
        // says `for primary tablet type`), for a later workflow between the same keyspaces.
        switchTrafficText: `failed to remove mirror rules from source keyspace ${from.keyspace} to target keyspace ${to.keyspace}, workflow …, for read-only tablet types: wrong number of pre-existing mirror rules`,
        clean: 'vtctldclient GetMirrorRules, then vtctldclient ApplyMirrorRules --rules <the other rules>',
      };
      const gaps = [from.keyspace, to.keyspace].filter((k) => unread.includes(k));
      if (gaps.length > 0) {
        out.push({
          reason: 'mirrorRuleUnexplained',
          keyspace: from.keyspace,
          message: `${what}: no workflow read moves ${from.table}, but the workflows of ${gaps.join(', ')} were not read`,
          details: { ...details, unreadKeyspaces: gaps },
        });
        continue;
      }
      out.push({
        reason: 'mirrorRuleWithoutWorkflow',
        keyspace: from.keyspace,
        message: `${what} is left by an earlier MirrorTraffic: no workflow moves ${from.table} between ${from.keyspace} and ${to.keyspace}; vtgate keeps mirroring ${r.percent}% of its queries, and a later workflow over this table refuses SwitchTraffic and MirrorTraffic with "wrong number of pre-existing mirror rules" unless it moves exactly the tables and tablet types the leftovers cover`,
        vitessArgs: [],
        details,
      });
    }
    return out;
  },
});
