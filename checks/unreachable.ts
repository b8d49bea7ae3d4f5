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

/** Reads whose failure narrows the evidence while the streams were still read (information_schema: column sizes). */
const SECONDARY = /copy_state|vreplication_log|resharding_journal|information_schema|performance_schema|^GetWorkflows/;

/**
 * GetFullStatus reaches the tablet's MySQL (`rpc_replication.go` `FullStatus`) while SwitchTraffic's refresh only has
 * the tablet re-read its own topo record (`rpc_actions.go` `RefreshState`). Only a tablet that does not answer at all
 * (UNAVAILABLE, a deadline) predicts the refresh refusal; a tablet that answers with an error (mysqld down, grants
 * missing: UNKNOWN, INTERNAL …) would still be refreshed (FIDELITY-AUDIT §18).
 */
const TABLET_NOT_ANSWERING = /^(UNAVAILABLE|DEADLINE_EXCEEDED)\b/;

type Kind = 'vtctld' | 'tablet-status' | 'tablet-mysql' | 'primary' | 'secondary' | 'deadline';

function kind(f: ReadFailure): Kind {
  const status = /^GetFullStatus/.test(f.what);
  // A tablet vtpreflight never got to ask (its deadline passed first, or vtctld died) says nothing of the tablet.
  if (f.cause === 'vtctld') return 'vtctld';
  if (f.cause === 'deadline' && (status || !(f.tablet !== undefined || /^(connect|select|show)/i.test(f.what))))
    return 'deadline';
  if (status) return f.timedOut || TABLET_NOT_ANSWERING.test(f.reason) ? 'tablet-status' : 'tablet-mysql';
  if (SECONDARY.test(f.what)) return 'secondary';
  if (f.tablet !== undefined || /^(connect|find primary|select|show)/i.test(f.what)) return 'primary';
  return 'vtctld';
}

const location = (f: ReadFailure) => (f.keyspace ? `${f.keyspace}${f.shard !== undefined ? `/${f.shard}` : ''}` : '');

function describe(f: ReadFailure): string {
  const how =
    f.cause === 'deadline' ? 'was cut off by the run deadline (--deadline)' : f.timedOut ? 'timed out' : 'failed';
  switch (kind(f)) {
    case 'tablet-status':
      return (
        `tablet ${f.tablet} of ${location(f)} did not answer GetFullStatus (${f.reason}); SwitchTraffic must ` +
        `refresh every tablet of the shard`
      );
    case 'tablet-mysql':
      return (
        `tablet ${f.tablet} of ${location(f)} answered GetFullStatus with an error (${f.reason}): its MySQL ` +
        `status is unknown; SwitchTraffic's tablet refresh does not need MySQL`
      );
    case 'primary':
      return `could not read the streams of ${location(f)} on ${f.where}: ${f.what} ${how}: ${f.reason}`;
    case 'secondary':
      return `${f.what} ${how} on ${f.where}${location(f) ? ` for ${location(f)}` : ''}: ${f.reason}`;
    case 'vtctld':
      return `${f.what} ${how} at ${f.where}: ${f.reason}`;
    case 'deadline':
      return `${f.what}${location(f) ? ` for ${location(f)}` : ''} was not read before the run deadline (--deadline): ${f.reason}`;
  }
}

/** One finding for every read that failed because vtctld itself did (it died or became unreachable mid-run). */
function vtctldDown(failures: readonly ReadFailure[]) {
  const first = failures[0] as ReadFailure;
  const names = failures.map(
    (f) => `${f.what}${f.tablet !== undefined && !f.what.includes(f.tablet) ? ` ${f.tablet}` : ''}`,
  );
  const shown = names.slice(0, 5).join(', ') + (names.length > 5 ? `, and ${names.length - 5} more` : '');
  return {
    reason: 'vtctldReadFailed' as const,
    message: `vtctld at ${first.where.replace(/^vtctld /, '')} stopped answering during the read: ${failures.length} call${failures.length === 1 ? '' : 's'} failed (${shown}): ${first.reason}`,
    details: {
      what: first.what,
      where: first.where,
      error: first.reason,
      timedOut: first.timedOut === true,
      calls: names,
    },
  };
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
        'The tablet answered but its MySQL status could not be read: RefreshState (topo record only) still ' +
        "succeeds, but the tablet's replication evidence is missing.",
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
        'The streams were read but copy_state, vreplication_log, the journal or GetWorkflows was not, so ' +
        'part of the evidence is missing.',
    },
    notReadInTime: {
      severity: 'warning',
      step: 'can-switch-refresh',
      heuristic: true,
      rationale:
        'The run deadline (--deadline) passed before this part was read, so it is unknown (not known to be ' +
        'unreachable either) and the workflows it concerns are unverified.',
    },
    vtctldReadFailed: {
      severity: 'error',
      step: 'build-targets',
      heuristic: true,
      rationale:
        'A vtctld call that failed hides topology (keyspaces, shards, tablets, vschemas) every later ' +
        'judgement rests on.',
    },
  },
  description:
    'Whatever vtpreflight could not read, it cannot judge: a primary whose `_vt.vreplication` could not be read ' +
    'hides its streams, a vtctld call that failed hides topology. Each such gap is reported here so that a partial ' +
    'read is never a silent pass (exit 1). Tablets that do not answer GetFullStatus also predict a real refusal: ' +
    'SwitchTraffic refreshes every tablet of every participating shard and fails with `could not refresh all of the ' +
    'tablets involved in the operation` when one does not answer (`vitessio/vitess:go/vt/vtctl/workflow/server.go` ' +
    '`canSwitch`). Failures of the other reads (copy_state, vreplication_log, the resharding journal, GetWorkflows) ' +
    'are warnings, and leave the workflows they concern unverified (exit 1): the streams were read, but not all of ' +
    'what decides copy, lag and the point of no return. A tablet ' +
    'vtpreflight never got to ask (vtctld died, or the run deadline passed first) is not blamed: the first is one ' +
    'finding about vtctld, the second says what the deadline left unread.',
  remediation:
    "Check that the host running vtpreflight can reach vtctld and every primary's MySQL port (`mysql_hostname`/" +
    '`mysql_port` of the tablet record), that the MySQL user has SELECT on the sidecar database, and that the ' +
    'tablets are up: `vtctldclient GetTablets --keyspace <keyspace>` and `vtctldclient GetFullStatus <alias>`. ' +
    'If only vtctld is reachable, run with `--via vtctld`. Then run vtpreflight again.',
  run(model) {
    const viaVtctld = model.failures.filter((f) => kind(f) === 'vtctld' && f.cause === 'vtctld');
    const own = model.failures.filter((f) => !(kind(f) === 'vtctld' && f.cause === 'vtctld'));
    return [
      ...(viaVtctld.length > 0 ? [vtctldDown(viaVtctld)] : []),
      ...own.map((f) => {
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
                    : k === 'deadline'
                      ? ('notReadInTime' as const)
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
      }),
    ];
  },
});
