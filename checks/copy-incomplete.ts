/**
 * copy-incomplete: streams still in their copy phase. SwitchTraffic refuses while any stream is displayed as
 * `Copying` (`vitessio/vitess:go/vt/vtctl/workflow/server.go` `canSwitch`; display rule in `workflows.go`
 * `getStreamState`: a Running stream with `_vt.copy_state` rows is shown as Copying).
 */
import { defineCheck, streamLocation } from '../src/engine/check.js';
import { canSwitchScope } from '../src/model/switch-state.js';
import { copyTablesLeft, isCopyingAsRead } from '../src/model/copy-state.js';
import type { Stream } from '../src/model/types.js';

// A stream whose copy_state was not read is judged by its stored state only; `unreachable` reports the read, and the
// verdict is unverified, so an unread copy_state never passes as "done copying".
const isCopying = isCopyingAsRead;

const tableList = (tables: readonly string[]) =>
  tables.length <= 5 ? tables.join(', ') : `${tables.slice(0, 5).join(', ')} and ${tables.length - 5} more`;

const stillCopying = (s: Stream) => {
  const left = copyTablesLeft(s) ?? [];
  return left.length > 0
    ? `stream ${s.id} of ${s.workflow} on ${s.keyspace}/${s.shard} is still copying ${left.length} table(s): ${tableList(left)}`
    : `stream ${s.id} of ${s.workflow} on ${s.keyspace}/${s.shard} is in state Copying`;
};

export default defineCheck({
  id: 'copy-incomplete',
  streamTestOrder: 1,
  title: 'Every stream has finished copying',
  reasons: {
    stillCopying: {
      severity: 'error',
      step: 'can-switch-streams',
      vitess: {
        template: 'copy is still in progress',
        file: 'go/vt/vtctl/workflow/server.go',
        line: 102,
        versions: { from: 17 },
      },
    },
    copyingNotRefused: {
      severity: 'warning',
      step: 'can-switch-streams',
      heuristic: true,
      rationale:
        "canSwitch's copy refusal is SwitchTraffic's and is skipped once writes are switched; a lookup backfill's Externalize only needs Running streams (`lookup_vindex.go` `validateInternalizedState`): the copy still leaves the target incomplete.",
    },
    copyingBehindError: {
      severity: 'error',
      step: 'can-switch-streams',
      heuristic: true,
      rationale:
        'The stream has not finished copying, but its error message makes Vitess display it as Error and refuse with `workflow has errors` first; once that clears, the copy still blocks.',
    },
  },
  description:
    'A stream still in its copy phase has not yet copied every row of its tables, so traffic cannot switch: Vitess refuses with `cannot switch traffic for workflow … at this time: copy is still in progress` (`vitessio/vitess:go/vt/vtctl/workflow/server.go` `canSwitch`). A stream counts as copying when its stored state is `Copying` or `_vt.copy_state` still has rows for it (`workflows.go` `getStreamState`). On arm64 vtctld the same condition surfaces as `replication lag 9223372036854775807s is higher than allowed lag`.',
  remediation:
    'Wait for the copy to finish: `vtctldclient Workflow --keyspace <keyspace> show --workflow <workflow>` shows the tables left and rows copied. If the copy does not progress, look at the stream message and at `_vt.vreplication_log` on the target primary, then run vtpreflight again.',
  run(model) {
    return model.workflows.flatMap((wf) => {
      const scope = canSwitchScope(model, wf);
      return wf.streams.filter(isCopying).map((s) => ({
        // Vitess says this only when the copying stream is displayed as Copying; an error message wins. Outside
        // SwitchTraffic's canSwitch (not a MoveTables/Reshard, or writes already switched) it is no refusal.
        ...(!scope.runs
          ? { reason: 'copyingNotRefused' as const }
          : s.displayState === 'Copying'
            ? { reason: 'stillCopying' as const, vitessArgs: [] }
            : { reason: 'copyingBehindError' as const }),
        message: scope.runs ? stillCopying(s) : `${stillCopying(s)}; ${scope.why}`,
        ...streamLocation(s),
        details: {
          state: s.state,
          displayState: s.displayState,
          tablesLeft: copyTablesLeft(s)?.length ?? null,
          tables: copyTablesLeft(s),
          rowsCopied: s.rowsCopied,
          ...(scope.skipped ? { canSwitchSkipped: scope.skipped } : {}),
        },
      }));
    });
  },
});
