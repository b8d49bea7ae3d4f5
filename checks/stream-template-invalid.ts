/**
 * Reshard only: every stream the stream migrator moves to the new shards must be templatable, and its position
 * readable by the migrator.
 *
 * Upstream: `vitessio/vitess:go/vt/vtctl/workflow/stream_migrator.go` — `BuildStreamMigrator` → `templatize` →
 * `templatizeRule` / `templatizeKeyRange` (`vitessio/vitess` main at b3666b2d, lines 1122–1200; rules in
 * `src/model/stream-template.ts`), run in `switchWrites` and wrapped `failed to migrate the workflow streams: %v`
 * (`server.go`). And `readTabletStreams` decodes each row's `pos` with `replication.DecodePosition`, which does not
 * undo `--vreplication_store_compressed_gtid` (unlike `binlogplayer.DecodePosition`): a compressed `pos` fails the
 * switch at the same step. All Vitess releases vtpreflight models (v19–v24) share this logic.
 */
import { defineCheck, type CheckFinding, type Reasons } from '../src/engine/check.js';
import { reshardMigrations } from '../src/model/stream-migrator.js';
import { streamTemplateProblem, type TemplateProblemReason } from '../src/model/stream-template.js';

const WHY: Record<TemplateProblemReason, string> = {
  noSelectExpression: 'has no select expression',
  excludeRule: 'is an exclude rule',
  notASelect: 'is not a SELECT',
  unparsableFilter: 'does not parse as SQL',
  inKeyrangeParameters: 'has an in_keyrange() whose arguments the migrator cannot template',
  braceInQuery: "contains '{{'",
};

const reasons = {
  noSelectExpression: {
    severity: 'error',
    step: 'migrate',
    vitess: {
      template: 'rule %v does not have a select expression in vreplication',
      file: 'go/vt/vtctl/workflow/stream_migrator.go',
      line: 661,
      versions: { from: 17 },
    },
  },
  excludeRule: {
    severity: 'error',
    step: 'migrate',
    vitess: {
      template: 'unexpected rule in vreplication: %v',
      file: 'go/vt/vtctl/workflow/stream_migrator.go',
      line: 666,
      versions: { from: 17 },
    },
  },
  notASelect: {
    severity: 'error',
    step: 'migrate',
    vitess: {
      template: 'unexpected query: %v',
      file: 'go/vt/vtctl/workflow/stream_migrator.go',
      line: 684,
      versions: { from: 17 },
    },
  },
  inKeyrangeParameters: {
    severity: 'error',
    step: 'migrate',
    vitess: {
      template: 'unexpected in_keyrange parameters: %v',
      file: 'go/vt/vtctl/workflow/stream_migrator.go',
      line: 706,
      versions: { from: 17 },
    },
  },
  braceInQuery: {
    severity: 'error',
    step: 'migrate',
    vitess: {
      template: "cannot migrate queries that contain '{{' in their string: %s",
      file: 'go/vt/vtctl/workflow/stream_migrator.go',
      line: 720,
      versions: { from: 17 },
    },
  },
  unparsableFilter: {
    severity: 'error',
    step: 'migrate',
    heuristic: true,
    rationale: 'sqlparser refuses the filter with its own error, which the stream migrator returns as is.',
  },
  compressedPosition: {
    severity: 'error',
    step: 'migrate',
    heuristic: true,
    rationale:
      'readTabletStreams decodes pos with replication.DecodePosition, which does not inflate a compressed GTID set, so the write switch fails on the row (the parse error text depends on the bytes).',
  },
} satisfies Reasons;

type R = keyof typeof reasons;

export default defineCheck({
  id: 'stream-template-invalid',
  title: 'The streams a Reshard migrates can be templated for the new shards',
  // Lines: read at stream_migrator.go @24f8641 (templatizeRule / templatizeKeyRange), copied into
  // test/checks/upstream/ (lines 1122-1200 of main at b3666b2d are another layout).
  reasons,
  description:
    "When a Reshard switches writes, Vitess moves the other workflows' streams that run on its source shards to the new shards: it rewrites each filter rule into a template with `{{.}}` in place of the key range (`stream_migrator.go` `templatizeRule`). A rule without a select expression, an `exclude` rule, a filter that is not a SELECT, an `in_keyrange()` with other than 1 or 3 arguments or a non-literal range, or a query containing `{{` cannot be templated, and SwitchTraffic fails after the reads were switched: `failed to migrate the workflow streams: rule … does not have a select expression in vreplication` and the like. The migrator also decodes each stream's `pos` without undoing `--vreplication_store_compressed_gtid`, so a compressed position fails it too.",
  remediation:
    "Recreate the offending workflow with a plain filter (a SELECT, with `in_keyrange(<column>, '<vindex type>', '<range>')` or none), or stop and delete it before the Reshard switches writes and create it again afterwards. For a compressed position, run the source tablets without `--vreplication_store_compressed_gtid` until the stream has stored a plain position.",
  needs: ['topology', 'vschema'],
  run(model) {
    const out: CheckFinding<R>[] = [];
    for (const m of reshardMigrations(model)) {
      for (const shard of m.shards) {
        for (const s of shard.migrated) {
          const loc = {
            keyspace: m.keyspace,
            shard: shard.name,
            workflow: m.workflow.name,
            streamId: s.id,
            tablet: shard.tablet,
          };
          const p = streamTemplateProblem(s);
          if (p !== null) {
            out.push({
              reason: p.reason,
              message: `stream ${s.id} (${s.workflow}) on source shard ${m.keyspace}/${shard.name} of Reshard ${m.workflow.name}: its rule for ${p.table} ${WHY[p.reason]}, so the stream migrator cannot move it to the new shards`,
              ...loc,
              // Hand-filled: the text is built by the model's stream migrator (src/model/stream-migrator.ts).
              ...(p.vitessError !== null ? { vitessError: p.vitessError } : {}),
              details: { streamWorkflow: s.workflow, table: p.table, filter: p.filter },
            });
          }
          if (s.posCompressed) {
            out.push({
              reason: 'compressedPosition',
              message: `stream ${s.id} (${s.workflow}) on source shard ${m.keyspace}/${shard.name} of Reshard ${m.workflow.name} stores a compressed position, which the stream migrator cannot decode`,
              ...loc,
              details: { streamWorkflow: s.workflow, position: s.posText },
            });
          }
        }
      }
    }
    return out;
  },
});
