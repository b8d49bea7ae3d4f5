/**
 * leftover-journals: resharding journal rows that belong to no workflow read.
 *
 * Every write switch inserts a journal row into `_vt.resharding_journal` on the source primaries, and nothing in
 * Vitess deletes it. Its id is `HashStreams`: FNV-1 64 of the target keyspace name followed by the sorted
 * `<target shard>:<stream id>` of every stream of the workflow, top bit cleared
 * (`vitessio/vitess:go/vt/vtctl/workflow/utils.go:530-549 @v0.24.4`; MoveTables create computes the same with
 * `getMigrationID`, :342-353): the workflow's name is not part of it. Harmless in itself, a row is a trap only for a
 * later workflow into the same keyspace whose streams land on the same shards with the same ids, which needs the
 * stream ids to repeat (the sidecar's `vreplication` table recreated, or its AUTO_INCREMENT counter reset by a restart
 * of a server that does not persist it): MoveTables create then refuses after creating its streams, before starting
 * them, with `found an entry from a previous run for migration id %d in _vt.resharding_journal on tablets %s, …`
 * (`server.go:1339 @v0.24.4`), and a SwitchTraffic finding a journal for its own id resumes past the point of no
 * return.
 *
 * Failure modes (`details.reason`):
 * - `journalWithoutWorkflow` (info): journal rows on a primary whose ids match no workflow read. Vitess has no
 *   command to delete them, so there is nothing to type: the finding is informational.
 */
import { defineCheck, type CheckFinding, type Reasons } from '../src/engine/check.js';
import { workflowJournalId } from '../src/model/journal.js';
import { leftoverKeyspaces } from '../src/model/leftovers.js';

const reasons = {
  journalWithoutWorkflow: {
    severity: 'info',
    step: 'workflow-state',
    heuristic: true,
    rationale:
      'Vitess never deletes journals; one whose id a later workflow hashes to makes that create refuse or that switch resume past its point of no return.',
  },
} satisfies Reasons;

type R = keyof typeof reasons;

export default defineCheck({
  id: 'leftover-journals',
  group: 'leftovers',
  needs: ['topology'],
  title: 'Resharding journals belong to a workflow read',
  reasons,
  description:
    "Every write switch inserts a journal row into `_vt.resharding_journal` on the source primaries and nothing in Vitess deletes it. Its id hashes the target keyspace and the sorted `<target shard>:<stream id>` of the workflow's streams (`HashStreams`, `vitessio/vitess:go/vt/vtctl/workflow/utils.go`), not the workflow name, so only a later workflow whose stream ids repeat (the sidecar `vreplication` table recreated, or its AUTO_INCREMENT reset) can hash to it: its create is refused (`found an entry from a previous run for migration id %d in _vt.resharding_journal on tablets %s, …`) or its switch resumes one it never started. This check lists, per primary, the journal ids no workflow read hashes to (information only).",
  remediation:
    "Nothing to type now: Vitess has no command that deletes journal rows, and the rows are harmless until a workflow hashes to one. The id hashes the target keyspace and the `<target shard>:<stream id>` of the new workflow's streams, not its name, so creating it under another name does not help. If a MoveTables create reports one of these ids, its streams exist but were not started: cancel it (`vtctldclient MoveTables --workflow <workflow> --target-keyspace <keyspace> cancel`) and create it again, which gives its streams new ids and so a new journal id; then run vtpreflight again.",
  run(model, options) {
    const known = new Set(model.allWorkflows.map((wf) => workflowJournalId(wf)));
    const out: CheckFinding<R>[] = [];
    for (const ks of leftoverKeyspaces(model, options)) {
      if (!ks.shards.ok) continue;
      for (const shard of ks.shards.value.values()) {
        const sc = shard.sidecar;
        if (!sc?.ok || !sc.value.journals.ok) continue;
        const ids = sc.value.journals.value.map((j) => j.id).filter((id) => !known.has(id));
        if (ids.length === 0) continue;
        out.push({
          reason: 'journalWithoutWorkflow',
          keyspace: ks.name,
          shard: shard.name,
          tablet: sc.value.tablet,
          message: `${ks.name}/${shard.name} keeps ${ids.length === 1 ? 'a resharding journal' : `${ids.length} resharding journals`} of earlier workflows (${ids.join(', ')}): Vitess never deletes them; a later workflow whose streams hash to one of these ids (its target keyspace and the same shard:stream-id pairs, which needs stream ids to repeat) is refused at create`,
          details: {
            journalIds: ids,
            breaks: 'MoveTables create of a workflow whose id collides',
            // server.go (main), with the first id and this primary filled in.
            vitessText: `found an entry from a previous run for migration id ${ids[0]} in _vt.resharding_journal on tablets ${sc.value.tablet}, …`,
            clean: null,
          },
        });
      }
    }
    return out;
  },
});
