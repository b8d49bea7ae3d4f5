/**
 * leftover-online-ddl: Online DDL rows in `_vt.vreplication` awaiting garbage collection on shards a Reshard will
 * read.
 *
 * A finished, failed or cancelled `vitess` Online DDL migration leaves its `_vt.vreplication` row Stopped until its
 * artifacts are garbage-collected (the retention period, 24 h by default; vitessio/vitess#20838). A Reshard's
 * stream migrator reads every row on its source primaries, Online DDL included, and refuses a Stopped one:
 * `cannot migrate until all streams are running: %s: %d` (`vitessio/vitess:go/vt/vtctl/workflow/stream_migrator.go`
 * `readSourceStreams`). For a selected Reshard `source-streams-not-running` judges its own source shards, and no
 * other action `check` judges reads these rows: this check runs in `vtpreflight sweep` only, over every shard.
 *
 * Failure modes (`details.reason`):
 * - `stoppedOnlineDdlRows` (warning): Online DDL rows not Running on a shard primary.
 */
import { defineCheck, type CheckFinding, type Reasons } from '../src/engine/check.js';
import { leftoverKeyspaces } from '../src/model/leftovers.js';
import { tabletUid } from '../src/model/stream-migrator.js';

const reasons = {
  stoppedOnlineDdlRows: {
    severity: 'warning',
    step: 'migrate',
    vitess: {
      template: 'cannot migrate until all streams are running: %s: %d',
      file: 'go/vt/vtctl/workflow/stream_migrator.go',
      line: 310,
      versions: { from: 17 },
    },
  },
} satisfies Reasons;

type R = keyof typeof reasons;

export default defineCheck({
  id: 'leftover-online-ddl',
  group: 'leftovers',
  needs: ['topology'],
  title: 'No stopped Online DDL row waits on a shard a Reshard would read',
  reasons,
  description:
    "A finished, failed or cancelled `vitess` Online DDL migration leaves its `_vt.vreplication` row Stopped until its artifacts are garbage-collected (24 h by default). A Reshard of the keyspace reads every row on its source primaries, Online DDL rows included, and refuses a Stopped one: `cannot migrate until all streams are running: %s: %d` (`vitessio/vitess:go/vt/vtctl/workflow/stream_migrator.go` `readSourceStreams`). This check reports such rows on every shard, in `vtpreflight sweep` only (`check` leaves a selected Reshard's own sources to `source-streams-not-running`).",
  remediation:
    'List the migrations with `vtctldclient OnlineDDL show <keyspace> all`; for each finished one, ask for its artifacts to be collected now with `vtctldclient OnlineDDL cleanup <keyspace> <uuid>` (the row goes with them), or wait for the retention period; then run vtpreflight again before the Reshard.',
  run(model, options) {
    // `check` judges an action on selected workflows, and none of them reads these rows but a Reshard's stream
    // migrator on its own source shards, which source-streams-not-running judges: the rows matter to a sweep only.
    if (!options.sweep) return [];
    const out: CheckFinding<R>[] = [];
    for (const ks of leftoverKeyspaces(model, options)) {
      if (!ks.shards.ok) continue;
      for (const shard of ks.shards.value.values()) {
        const sc = shard.sidecar;
        if (!sc?.ok) continue;
        const stopped = sc.value.onlineDdlStreams.filter((s) => s.state !== 'Running' && s.rawWorkflow !== null);
        if (stopped.length === 0) continue;
        const uuids = stopped.map((s) => s.workflow);
        out.push({
          reason: 'stoppedOnlineDdlRows',
          keyspace: ks.name,
          shard: shard.name,
          tablet: sc.value.tablet,
          message: `${ks.name}/${shard.name} holds ${stopped.length === 1 ? 'a' : stopped.length} stopped Online DDL ${stopped.length === 1 ? 'row' : 'rows'} (${uuids.join(', ')}) awaiting garbage collection: a Reshard of ${ks.name} reading this shard refuses to switch writes until ${stopped.length === 1 ? 'it is' : 'they are'} gone`,
          vitessArgs: [shard.name, tabletUid(sc.value.tablet)],
          details: {
            migrations: uuids,
            states: stopped.map((s) => s.state),
            streamIds: stopped.map((s) => s.id),
            breaks: `Reshard SwitchTraffic (writes) of ${ks.name}`,
            clean: 'vtctldclient OnlineDDL cleanup <keyspace> <uuid>',
          },
        });
      }
    }
    return out;
  },
});
