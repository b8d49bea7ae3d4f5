/**
 * leftover-reverse-workflows: `_reverse` workflows that are stopped, or whose forward workflow is gone.
 *
 * SwitchTraffic (writes) always creates `<workflow>_reverse` on the source keyspace; with
 * `--enable-reverse-replication=false` it is Stopped. Its lag grows while it is stopped, so a later ReverseTraffic
 * refuses (`cannot switch traffic for workflow %s at this time: replication lag %ds is higher than allowed lag %ds`)
 * or would copy nothing back; a Complete that failed half-way can leave the reverse workflow without its forward one,
 * streaming from tables that are gone.
 *
 * Failure modes (`details.reason`):
 * - `reverseStopped` (warning): every stream of a `_reverse` workflow is Stopped while its forward workflow exists,
 *   and not FROZEN: after a write ReverseTraffic the `_reverse` streams are Stopped and FROZEN by design.
 * - `reverseWithoutForward` (warning): no forward workflow of that name was read in any keyspace it could live in.
 */
import { defineCheck, type CheckFinding, type Reasons } from '../src/engine/check.js';
import { leftoverKeyspaces } from '../src/model/leftovers.js';

const reasons = {
  reverseStopped: {
    severity: 'warning',
    step: 'can-switch-lag',
    heuristic: true,
    rationale:
      'A stopped reverse workflow falls behind, so ReverseTraffic refuses for lag or would send back stale data.',
  },
  reverseWithoutForward: {
    severity: 'warning',
    step: 'workflow-state',
    heuristic: true,
    rationale:
      'A reverse workflow whose forward workflow is gone is left by a Complete that failed half-way; nothing will ever complete it.',
  },
} satisfies Reasons;

type R = keyof typeof reasons;

export default defineCheck({
  id: 'leftover-reverse-workflows',
  group: 'leftovers',
  needs: ['topology'],
  title: 'Every reverse workflow runs and has its forward workflow',
  reasons,
  description:
    'SwitchTraffic (writes) always creates `<workflow>_reverse` on the source keyspace, Stopped with `--enable-reverse-replication=false`. Stopped, it falls behind, and ReverseTraffic refuses with `cannot switch traffic for workflow %s at this time: replication lag %ds is higher than allowed lag %ds`; a Complete that failed half-way can leave it without its forward workflow. This check reports both.',
  remediation:
    'If the migration is final, finish the forward workflow with `vtctldclient MoveTables --target-keyspace <keyspace> --workflow <workflow> complete` (it deletes the reverse one). If you may reverse, start it with `vtctldclient Workflow --keyspace <source keyspace> start --workflow <workflow>_reverse`. A reverse workflow without a forward one is deleted with `vtctldclient Workflow --keyspace <keyspace> delete --workflow <name>`.',
  run(model, options) {
    const scope = new Set(leftoverKeyspaces(model, options).map((k) => k.name));
    const out: CheckFinding<R>[] = [];
    for (const wf of model.allWorkflows) {
      if (!scope.has(wf.keyspace) || !wf.name.endsWith('_reverse')) continue;
      const forwardName = wf.name.slice(0, -'_reverse'.length);
      // The forward workflow lives on the keyspace the reverse one reads from.
      const forward = model.allWorkflows.find(
        (f) => f.name === forwardName && (wf.sourceKeyspaces.includes(f.keyspace) || f.keyspace === wf.keyspace),
      );
      if (forward === undefined) {
        // Only a fact when every primary of the keyspaces the forward workflow could live in was read.
        const homes = wf.sourceKeyspaces.length > 0 ? wf.sourceKeyspaces : [wf.keyspace];
        const unread = homes.some((k) => {
          const ks = model.keyspace(k);
          return !ks?.shards.ok || [...ks.shards.value.values()].some((s) => !s.sidecar?.ok);
        });
        if (unread) continue;
        out.push({
          reason: 'reverseWithoutForward',
          keyspace: wf.keyspace,
          workflow: wf.name,
          message: `${wf.keyspace}.${wf.name} has no forward workflow ${forwardName} in ${homes.join(', ')} (left by a Complete or Cancel that failed half-way): nothing will complete it`,
          details: {
            forwardWorkflow: forwardName,
            searchedKeyspaces: homes,
            breaks: `nothing Vitess runs: ${wf.name} keeps replicating from tables a Complete may have dropped`,
            clean: `vtctldclient Workflow --keyspace ${wf.keyspace} delete --workflow ${wf.name}`,
          },
        });
        continue;
      }
      if (wf.streams.length === 0 || !wf.streams.every((s) => s.state === 'Stopped')) continue;
      // Stopped and FROZEN is the designed state after a write ReverseTraffic (switchWrites stops the `_reverse`
      // streams and freezes them, `vitessio/vitess` `go/vt/vtctl/workflow/traffic_switcher.go:1214 @v0.22.x`
      // `freezeTargetVReplication`): the forward workflow runs again and a later SwitchTraffic re-creates this one.
      if (wf.streams.every((s) => s.message === 'FROZEN')) continue;
      out.push({
        reason: 'reverseStopped',
        keyspace: wf.keyspace,
        workflow: wf.name,
        message: `reverse workflow ${wf.keyspace}.${wf.name} is Stopped (switched with --enable-reverse-replication=false, or stopped since): it falls behind, so ReverseTraffic of ${forward.keyspace}.${forward.name} refuses for lag or has nothing current to send back`,
        details: {
          forwardWorkflow: `${forward.keyspace}.${forward.name}`,
          vitessText: `cannot switch traffic for workflow ${wf.name} at this time: replication lag …s is higher than allowed lag ${options.maxLagSeconds}s`,
          breaks: `ReverseTraffic of ${forward.keyspace}.${forward.name}`,
          clean: `vtctldclient MoveTables --target-keyspace ${forward.keyspace} --workflow ${forward.name} complete, or vtctldclient Workflow --keyspace ${wf.keyspace} start --workflow ${wf.name}`,
        },
      });
    }
    return out;
  },
});
