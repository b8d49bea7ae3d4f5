/**
 * same-keyspace-movetables: a MoveTables whose source keyspace is its own target keyspace.
 *
 * `MoveTables create` does not check that the keyspaces differ, so the workflow is created and copies (as long as the
 * target table is empty), but SwitchTraffic refuses it with FAILED_PRECONDITION (`validateMoveTablesSourceKeyspace`,
 * `vitessio/vitess:go/vt/vtctl/workflow/server.go`; the exact text is not in the stored upstream copy), so the
 * workflow can never complete; and `cancel` without `--keep-data` drops the target tables, which are physically the
 * source tables: the source data is deleted (vitessio/vitess #19011, #20368, 2025–2026). The streams say it themselves:
 * `workflow_type` MoveTables and a BinlogSource keyspace equal to the keyspace the rows live in.
 *
 * Failure mode (`details.reason`): `sourceIsTarget` (error).
 */
import { defineCheck } from '../src/engine/check.js';

export default defineCheck({
  id: 'same-keyspace-movetables',
  title: 'A MoveTables reads from another keyspace than the one it writes',
  reasons: {
    sourceIsTarget: {
      severity: 'error',
      step: 'build-switcher',
      heuristic: true,
      rationale:
        'SwitchTraffic refuses a MoveTables whose source keyspace is its target (`validateMoveTablesSourceKeyspace`, FAILED_PRECONDITION; its text is not in the stored upstream copy), and its cancel without --keep-data drops the source tables.',
    },
  },
  description:
    'A MoveTables created with the same source and target keyspace copies, but SwitchTraffic refuses it (FAILED_PRECONDITION, `validateMoveTablesSourceKeyspace` in `vitessio/vitess:go/vt/vtctl/workflow/server.go`), so it can never complete; and `cancel` without `--keep-data` drops the target tables, which are the source tables (vitessio/vitess #19011, #20368). This check reports MoveTables workflows (by `workflow_type`) whose streams read the keyspace they write.',
  remediation:
    'Do not cancel it with the default `--keep-data=false`: that drops the source tables. Delete only the workflow with `vtctldclient Workflow --keyspace <keyspace> delete --workflow <workflow> --keep-data --keep-routing-rules`, check the routing rules with `vtctldclient GetRoutingRules`, and create the MoveTables again with the intended `--source-keyspace`.',
  run(model) {
    return model.workflows
      .filter((wf) => wf.type === 'MoveTables' && wf.sourceKeyspaces.includes(wf.keyspace))
      .map((wf) => ({
        reason: 'sourceIsTarget' as const,
        keyspace: wf.keyspace,
        workflow: wf.name,
        message: `MoveTables ${wf.keyspace}.${wf.name} reads from its own keyspace ${wf.keyspace}: SwitchTraffic refuses it, so it can never complete, and a cancel without --keep-data drops the tables it copies from`,
        details: {
          sourceKeyspaces: [...wf.sourceKeyspaces],
          streams: wf.streams.map((s) => ({ shard: s.shard, streamId: s.id, sourceShard: s.sourceShard })),
        },
      }));
  },
});
