/**
 * stream-error: streams Vitess displays as `Error`. SwitchTraffic refuses with `workflow has errors`
 * (`vitessio/vitess:go/vt/vtctl/workflow/server.go` `canSwitch`); the display rule is `workflows.go`
 * `getStreamState`: any message containing "error" in any case, whatever the stored state.
 */
import { defineCheck, streamLocation } from '../src/engine/check.js';
import { canSwitchScope } from '../src/model/switch-state.js';
import type { Stream } from '../src/model/types.js';

const MAX_MESSAGE = 300;
const clip = (m: string) => (m.length > MAX_MESSAGE ? `${m.slice(0, MAX_MESSAGE)}…` : m).replace(/\s+/g, ' ');

const inError = (s: Stream) =>
  s.message === ''
    ? `stream ${s.id} of ${s.workflow} on ${s.keyspace}/${s.shard} is in state Error`
    : `stream ${s.id} of ${s.workflow} on ${s.keyspace}/${s.shard} shows an error (state ${s.state}): ${clip(s.message)}`;

/** canSwitch's refusal for any stream in error, by state or by message (server.go). */
const HAS_ERRORS = {
  template: 'workflow has errors',
  file: 'go/vt/vtctl/workflow/server.go',
  line: 101,
  versions: { from: 17 },
} as const;

export default defineCheck({
  id: 'stream-error',
  streamTestOrder: 2,
  title: 'No stream is in error',
  reasons: {
    stateError: {
      severity: 'error',
      step: 'can-switch-streams',
      vitess: HAS_ERRORS,
    },
    messageError: {
      severity: 'error',
      step: 'can-switch-streams',
      vitess: HAS_ERRORS,
    },
    errorNotRefused: {
      severity: 'warning',
      step: 'can-switch-streams',
      heuristic: true,
      rationale:
        "`workflow has errors` is SwitchTraffic's canSwitch refusal, skipped once writes are switched; a lookup backfill's Externalize only tests the stored state (`lookup_vindex.go` `validateInternalizedState`): the error still means the stream is not replicating cleanly.",
    },
  },
  description:
    'Vitess displays a stream as `Error` when its stored state is `Error` or when its message contains the word "error" in any case — even a transient, retried one such as `Error picking tablet: …` or an RPC error carrying `VStreamer is not open` (`vitessio/vitess:go/vt/vtctl/workflow/workflows.go` `getStreamState`). SwitchTraffic then refuses with `cannot switch traffic for workflow … at this time: workflow has errors` (`server.go` `canSwitch`). A stored `Error` state means the controller stopped retrying (`vreplication/controller.go`): the stream will not recover on its own.',
  remediation:
    'Read the full message and history: `vtctldclient Workflow --keyspace <keyspace> show --workflow <workflow> --include-logs`. Fix the cause (missing table, duplicate key, unreachable source tablet …), then restart the workflow with `vtctldclient Workflow --keyspace <keyspace> start --workflow <workflow>` and run vtpreflight again.',
  run(model) {
    return model.workflows.flatMap((wf) => {
      const scope = canSwitchScope(model, wf);
      return wf.streams
        .filter((s) => s.displayState === 'Error')
        .map((s) => ({
          ...(scope.runs
            ? {
                reason: s.state === 'Error' ? ('stateError' as const) : ('messageError' as const),
                vitessArgs: [],
              }
            : { reason: 'errorNotRefused' as const }),
          message: scope.runs ? inError(s) : `${inError(s)}; ${scope.why}`,
          ...streamLocation(s),
          details: {
            state: s.state,
            message: s.message,
            ...(scope.skipped ? { canSwitchSkipped: scope.skipped } : {}),
          },
        }));
    });
  },
});
