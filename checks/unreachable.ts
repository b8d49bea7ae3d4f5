/**
 * unreachable: every part of the cluster vtpreflight could not read, so that silence never looks like health.
 *
 * SwitchTraffic itself refreshes every tablet of every source and target shard and refuses when any does not
 * answer: `could not refresh all of the tablets involved in the operation` (`vitessio/vitess:go/vt/vtctl/workflow/
 * server.go` `canSwitch`, via `topotools.RefreshTabletsByShard`). A tablet that does not answer GetFullStatus
 * through vtctld would most likely fail that refresh too; a primary whose sidecar cannot be read leaves its
 * streams unchecked.
 */
import { defineCheck } from '../src/engine/check.js';
import type { ReadFailure } from '../src/model/types.js';

/** Reads whose failure only narrows the evidence (streams were still read): a warning, not a blind spot. */
const SECONDARY = /copy_state|vreplication_log|resharding_journal|^GetWorkflows/;

/**
 * GetFullStatus reaches the tablet's MySQL (`rpc_replication.go` `FullStatus`) while SwitchTraffic's refresh only has
 * the tablet re-read its own topo record (`rpc_actions.go` `RefreshState`). Only a tablet that does not answer at all
 * (UNAVAILABLE, a deadline) predicts the refresh refusal; a tablet that answers with an error (mysqld down, grants
 * missing: UNKNOWN, INTERNAL …) would still be refreshed (FIDELITY-AUDIT §18).
 */
const TABLET_NOT_ANSWERING = /^(UNAVAILABLE|DEADLINE_EXCEEDED)\b/;

function kind(f: ReadFailure): 'vtctld' | 'tablet-status' | 'tablet-mysql' | 'primary' | 'secondary' {
  if (/^GetFullStatus/.test(f.what))
    return f.timedOut || TABLET_NOT_ANSWERING.test(f.reason) ? 'tablet-status' : 'tablet-mysql';
  if (SECONDARY.test(f.what)) return 'secondary';
  if (f.tablet !== undefined || /^(connect|find primary|select|show)/i.test(f.what)) return 'primary';
  return 'vtctld';
}

const location = (f: ReadFailure) => (f.keyspace ? `${f.keyspace}${f.shard !== undefined ? `/${f.shard}` : ''}` : '');

function describe(f: ReadFailure): string {
  const how = f.timedOut ? 'timed out' : 'failed';
  switch (kind(f)) {
    case 'tablet-status':
      return `tablet ${f.tablet} of ${location(f)} did not answer GetFullStatus (${f.reason}); SwitchTraffic must refresh every tablet of the shard`;
    case 'tablet-mysql':
      return `tablet ${f.tablet} of ${location(f)} answered GetFullStatus with an error (${f.reason}): its MySQL status is unknown; SwitchTraffic's tablet refresh does not need MySQL`;
    case 'primary':
      return `could not read the streams of ${location(f)} on ${f.where}: ${f.what} ${how}: ${f.reason}`;
    case 'secondary':
      return `${f.what} ${how} on ${f.where}${location(f) ? ` for ${location(f)}` : ''}: ${f.reason}`;
    case 'vtctld':
      return `${f.what} ${how} at ${f.where}: ${f.reason}`;
  }
}

export default defineCheck({
  id: 'unreachable',
  title: 'Every part of the cluster could be read',
  reasons: {
    tabletUnreachable: {
      severity: 'error',
      step: 'can-switch-refresh',
      vitess: {
        template: 'could not refresh all of the tablets involved in the operation:\n%s',
        file: 'go/vt/vtctl/workflow/server.go',
        line: 104,
        versions: { from: 17 },
      },
    },
    tabletStatusFailed: {
      severity: 'warning',
      step: 'can-switch-refresh',
      heuristic: true,
      rationale:
        "The tablet answered but its MySQL status could not be read: RefreshState (topo record only) still succeeds, but the tablet's replication evidence is missing.",
    },
    primaryUnreadable: {
      severity: 'error',
      step: 'build-targets',
      heuristic: true,
      rationale: 'A primary whose `_vt.vreplication` could not be read hides its streams: nothing about them is known.',
    },
    partialRead: {
      severity: 'warning',
      step: 'can-switch-streams',
      heuristic: true,
      rationale:
        'The streams were read but copy_state, vreplication_log, the journal or GetWorkflows was not, so part of the evidence is missing.',
    },
    vtctldReadFailed: {
      severity: 'error',
      step: 'build-targets',
      heuristic: true,
      rationale:
        'A vtctld call that failed hides topology (keyspaces, shards, tablets, vschemas) every later judgement rests on.',
    },
  },
  description:
    'Whatever vtpreflight could not read, it cannot judge: a primary whose `_vt.vreplication` could not be read ' +
    'hides its streams, a vtctld call that failed hides topology. Each such gap is reported here so that a partial ' +
    'read is never a silent pass (exit 1). Tablets that do not answer GetFullStatus also predict a real refusal: ' +
    'SwitchTraffic refreshes every tablet of every participating shard and fails with `could not refresh all of the ' +
    'tablets involved in the operation` when one does not answer (`vitessio/vitess:go/vt/vtctl/workflow/server.go` ' +
    '`canSwitch`). Failures of secondary reads (copy_state, vreplication_log, the resharding journal, ' +
    'GetWorkflows) are warnings: the streams were still read.',
  remediation:
    "Check that the host running vtpreflight can reach vtctld and every primary's MySQL port (`mysql_hostname`/" +
    '`mysql_port` of the tablet record), that the MySQL user has SELECT on the sidecar database, and that the ' +
    'tablets are up: `vtctldclient GetTablets --keyspace <keyspace>` and `vtctldclient GetFullStatus <alias>`. ' +
    'If only vtctld is reachable, run with `--via vtctld`. Then run vtpreflight again.',
  run(model) {
    return model.failures.map((f) => {
      const k = kind(f);
      return {
        reason:
          k === 'tablet-status'
            ? ('tabletUnreachable' as const)
            : k === 'tablet-mysql'
              ? ('tabletStatusFailed' as const)
              : k === 'primary'
                ? ('primaryUnreadable' as const)
                : k === 'secondary'
                  ? ('partialRead' as const)
                  : ('vtctldReadFailed' as const),
        message: describe(f),
        ...(k === 'tablet-status'
          ? // The per-shard detail Vitess appends (its RPC error) cannot be known before the refresh runs.
            { vitessError: 'could not refresh all of the tablets involved in the operation:\n…' }
          : {}),
        ...(f.keyspace !== undefined ? { keyspace: f.keyspace } : {}),
        ...(f.shard !== undefined ? { shard: f.shard } : {}),
        ...(f.tablet !== undefined ? { tablet: f.tablet } : {}),
        details: {
          what: f.what,
          where: f.where,
          error: f.reason,
          timedOut: f.timedOut === true,
        },
      };
    });
  },
});
