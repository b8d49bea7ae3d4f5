/**
 * leftover-journals: resharding journal rows that belong to no workflow read.
 *
 * Every write switch inserts a journal row (id = `HashStreams` of the workflow) into `_vt.resharding_journal` on the
 * source primaries, and nothing in Vitess deletes it. Harmless in itself, it is a trap for a later workflow whose
 * streams hash to the same id (stream ids restart after their rows are gone): MoveTables create refuses with
 * `found an entry from a previous run for migration id %d in _vt.resharding_journal on tablets %s, …`, and a
 * SwitchTraffic finding a journal for its own id resumes past the point of no return.
 *
 * Failure modes (`details.reason`):
 * - `journalWithoutWorkflow` (info): journal rows on a primary whose ids match no workflow read. Vitess has no
 *   command to delete them, so there is nothing to type: the finding is informational.
 */
import { defineCheck, type CheckFinding } from '../src/engine/check.js';
import { workflowJournalId } from '../src/model/journal.js';
import { leftoverKeyspaces } from '../src/model/leftovers.js';

export default defineCheck({
  id: 'leftover-journals',
  group: 'leftovers',
  needs: ['topology'],
  title: 'Resharding journals belong to a workflow read',
  reasons: {
    journalWithoutWorkflow: {
      severity: 'info',
      step: 'workflow-state',
      heuristic: true,
      rationale:
        'Vitess never deletes journals; one whose id a later workflow hashes to makes that create refuse or that switch resume past its point of no return.',
    },
  },
  description:
    'Every write switch inserts a journal row into `_vt.resharding_journal` on the source primaries and nothing in Vitess deletes it. A later workflow whose streams hash to the same id is refused at create (`found an entry from a previous run for migration id %d in _vt.resharding_journal on tablets %s, …`) or resumes a switch it never started. This check lists, per primary, the journal ids no workflow read hashes to (information only).',
  remediation:
    'Nothing to type: Vitess has no command that deletes journal rows. Keep the list; if a MoveTables create later reports one of these ids, create it under another workflow name (the id hashes the names of its streams and their shards).',
  run(model, options) {
    const known = new Set(model.allWorkflows.map((wf) => workflowJournalId(wf)));
    const out: CheckFinding[] = [];
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
          message: `${ks.name}/${shard.name} keeps ${ids.length === 1 ? 'a resharding journal' : `${ids.length} resharding journals`} of earlier workflows (${ids.join(', ')}): Vitess never deletes them; a later workflow hashing to one of these ids is refused at create`,
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
