/**
 * same-keyspace-movetables: a MoveTables whose source keyspace is its own target keyspace.
 *
 * Upstream `vitessio/vitess`:
 * - v24+ refuses it at create, before reading anything: `moveTablesCreate` returns `source and target keyspace must
 *   be different for MoveTables workflows` (INVALID_ARGUMENT, `go/vt/vtctl/workflow/server.go:1091-1093` @v0.24.4,
 *   #19012); Migrate, which shares the function, is exempt. v19–v23 have no such check (read at v0.19.10, v0.22.4 and
 *   v0.23.2): the workflow is created (from v22 `validateEmptyTables` refuses it when the tables hold rows, which
 *   `create-workflow` judges) and copies the tables onto themselves.
 * - No release refuses such a workflow at SwitchTraffic. `cancel` without `--keep-data` drops the target tables
 *   (`dropTargets`), which are physically the source tables: the source data is deleted (vitessio/vitess#19011).
 *   With `--keep-data` only the streams and routing rules go, which is safe.
 * The streams say it themselves: `workflow_type` MoveTables and a BinlogSource keyspace equal to the keyspace the rows
 * live in.
 */
import { type CheckFinding, defineCheck, type Reasons } from '../src/engine/check.js';
import { pickRule } from '../src/vitess/versions.js';

const SAME = 'source and target keyspace must be different for MoveTables workflows';

const reasons = {
  sourceIsTargetAtCreate: {
    severity: 'error',
    step: 'create-request',
    vitess: {
      template: SAME,
      file: 'go/vt/vtctl/workflow/server.go',
      line: 1092,
      release: 'v0.24.4',
      versions: { from: 24 },
    },
  },
  sourceIsTargetCreatedBefore24: {
    severity: 'warning',
    step: 'create-request',
    heuristic: true,
    rationale:
      'Before v24 MoveTables create accepts a source keyspace equal to the target keyspace, so the workflow copies its tables onto themselves and its cancel without --keep-data drops them (vitessio/vitess#19011).',
  },
  cancelDropsSourceTables: {
    severity: 'warning',
    step: 'cancel-state',
    actions: ['cancel'],
    heuristic: true,
    rationale:
      'Cancel without --keep-data drops the target tables, and a MoveTables whose source keyspace is its target has no other tables: the source data is deleted (vitessio/vitess#19011).',
  },
} satisfies Reasons;

type R = keyof typeof reasons;

export default defineCheck({
  id: 'same-keyspace-movetables',
  title: 'A MoveTables reads from another keyspace than the one it writes',
  reasons,
  description:
    'A MoveTables whose source keyspace is its target keyspace moves nothing: its target tables are its source tables. From v24 `MoveTables create` refuses it (`source and target keyspace must be different for MoveTables workflows`, `server.go` `moveTablesCreate`); older releases create it. Such a workflow is not refused by SwitchTraffic, but `cancel` without `--keep-data` drops the target tables, which are the source tables, so the source data is deleted (vitessio/vitess#19011); `cancel --keep-data` is safe. This check judges `--action create` with `--source-keyspace` equal to `--target-keyspace`, and `--action cancel` of MoveTables workflows (by `workflow_type`) whose streams read the keyspace they write.',
  remediation:
    'Create the MoveTables with the intended `--source-keyspace`. To remove one that reads its own keyspace, do not cancel it with the default `--keep-data=false`, which drops the source tables: cancel it with `--keep-data` (`vtctldclient MoveTables --workflow <workflow> --target-keyspace <keyspace> cancel --keep-data --keep-routing-rules`), then check the routing rules with `vtctldclient GetRoutingRules`.',
  run(model, options) {
    const create = options.action.create;
    if (create !== undefined) {
      if (create.reshard !== undefined || create.sourceKeyspace !== create.targetKeyspace) return [];
      const rule = pickRule(options.vitess, [
        { versions: '<24', value: 'sourceIsTargetCreatedBefore24' as const },
        { versions: '>=24', value: 'sourceIsTargetAtCreate' as const },
      ]);
      const base = { keyspace: create.targetKeyspace, workflow: create.workflow };
      const note = rule.note !== null ? { versionNote: rule.note } : {};
      return [
        rule.value === 'sourceIsTargetAtCreate'
          ? {
              reason: rule.value,
              message: `MoveTables ${create.workflow} would read from its own target keyspace ${create.targetKeyspace}: MoveTables create refuses it from v24`,
              ...base,
              vitessArgs: [],
              details: { sourceKeyspace: create.sourceKeyspace, ...note },
            }
          : {
              reason: rule.value,
              message: `MoveTables ${create.workflow} would read from its own target keyspace ${create.targetKeyspace}: before v24 it is created, copies its tables onto themselves, and a cancel without --keep-data drops them`,
              ...base,
              details: { sourceKeyspace: create.sourceKeyspace, ...note },
            },
      ];
    }
    if (options.action.action !== 'cancel' || options.action.keepData) return [];
    return model.workflows
      .filter((wf) => wf.type === 'MoveTables' && wf.sourceKeyspaces.includes(wf.keyspace))
      .map(
        (wf): CheckFinding<R> => ({
          reason: 'cancelDropsSourceTables',
          keyspace: wf.keyspace,
          workflow: wf.name,
          message: `MoveTables ${wf.keyspace}.${wf.name} reads from its own keyspace ${wf.keyspace}: a cancel without --keep-data drops the tables it copies from; cancel it with --keep-data`,
          details: {
            sourceKeyspaces: [...wf.sourceKeyspaces],
            streams: wf.streams.map((s) => ({ shard: s.shard, streamId: s.id, sourceShard: s.sourceShard })),
          },
        }),
      );
  },
});
