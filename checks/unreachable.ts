/**
 * unreachable: every part of the cluster vtpreflight could not read, so that silence never looks like health.
 *
 * SwitchTraffic's `canSwitch` (`vitessio/vitess:go/vt/vtctl/workflow/server.go`) ends by refreshing the tablets of
 * the workflow's source and target shards (`refreshTablets(ts.SourceShards(), "source")`, `… TargetShards() …
 * "target"`) through `topotools.RefreshTabletsByShard` (`go/vt/topotools/keyspace.go`): one RefreshState RPC per
 * tablet of the shard, in every cell, skipping tablets without a hostname; any RPC that fails makes the refresh
 * partial and canSwitch refuses: `could not refresh all of the tablets involved in the operation:\n%s`. RefreshState
 * (`go/vt/vttablet/tabletmanager/rpc_actions.go`) takes the tablet manager's action lock and re-reads the tablet's own
 * topo record (`tm.tmState.RefreshFromTopo`); it never touches MySQL. GetFullStatus (`rpc_replication.go`
 * `FullStatus`) reaches MySQL, so only a GetFullStatus that could not reach the tablet manager at all (UNAVAILABLE)
 * predicts the refresh refusal, and only for a tablet the refresh visits; a timeout (the tablet host gone, or only
 * its MySQL stalled: it cannot be told apart) leaves the tablet's status unknown: a warning, and the workflows it
 * concerns are unverified. An error answer (mysqld down, MariaDB's missing super_read_only, grants) comes from a
 * tablet manager that is up: no action calls FullStatus, so it is one information finding for all such tablets and
 * leaves no verdict unverified. A tablet without a hostname is not running: the refresh skips it, and its failed
 * GetFullStatus is no gap (src/model/build.ts).
 */
import { defineCheck, type CheckFinding } from '../src/engine/check.js';
import { canSwitchScope, type RefreshedShard, refreshedShards } from '../src/model/switch-state.js';
import type { ClusterModel, ReadFailure } from '../src/model/types.js';
import { extraGrantOf, fillNames, primaryRead, type PrimaryReadId } from '../src/reads/registry.js';
import { ER_UNKNOWN_SYSTEM_VARIABLE, relayedErrno } from '../src/vitess/sql-error.js';

type UnreachableReason =
  | 'tabletStatusNotRead'
  | 'targetPrimaryNotAnswering'
  | 'tabletUnreachable'
  | 'tabletStatusFailed'
  | 'primaryUnreadable'
  | 'partialRead'
  | 'notReadInTime'
  | 'vtctldReadFailed'
  | 'notRead';

/** Which gap a failure is (not to be confused with the failure's own `kind`). */
type Gap = 'vtctld' | 'target-primary' | 'tablet-refresh' | 'tablet-status' | 'primary' | 'secondary' | 'deadline';

/** Shards canSwitch refreshes for a selected workflow it runs for, as `keyspace/shard` → the first such shard. */
function refreshedBySwitch(model: ClusterModel): Map<string, RefreshedShard> {
  const out = new Map<string, RefreshedShard>();
  for (const wf of model.workflows) {
    if (!canSwitchScope(model, wf).runs) continue;
    for (const r of refreshedShards(wf))
      if (!out.has(`${r.keyspace}/${r.shard}`)) out.set(`${r.keyspace}/${r.shard}`, r);
  }
  return out;
}

/**
 * Primaries of every shard record of the selected workflows' target keyspaces: BuildTargets (utils.go) calls
 * `tmc.ReadVReplicationWorkflow` on each of them, for every action on a workflow, streams or not.
 */
function targetPrimaries(model: ClusterModel): Set<string> {
  const out = new Set<string>();
  for (const ks of new Set(model.workflows.map((wf) => wf.keyspace))) {
    const shards = model.keyspace(ks)?.shards;
    if (shards?.ok) for (const sh of shards.value.values()) if (sh.primaryAlias) out.add(sh.primaryAlias);
  }
  return out;
}

/**
 * Which finding a failure is, from where it sits in the readout (`part`) and its typed kind (`ReadFailure.kind`, from
 * the driver's codes), never from the wording of `what` or `reason`.
 */
function gapOf(
  f: ReadFailure,
  refreshed: ReadonlyMap<string, RefreshedShard>,
  primaries: ReadonlySet<string> = new Set(),
): Gap {
  const status = f.part === 'full-status';
  // A tablet vtpreflight never got to ask (its deadline passed first, or vtctld died) says nothing of the tablet.
  if (f.cause === 'vtctld') return 'vtctld';
  if (f.cause === 'deadline' && f.part !== 'streams' && f.part !== 'sidecar') return 'deadline';
  if (status) {
    // UNAVAILABLE: vtctld could not reach the tablet manager (a timeout is its own kind).
    const down = f.kind === 'unavailable';
    if (down && f.tablet !== undefined && primaries.has(f.tablet)) return 'target-primary';
    const visited = refreshed.has(`${f.keyspace}/${f.shard}`);
    return visited && down ? 'tablet-refresh' : 'tablet-status';
  }
  // copy_state, vreplication_log, the journal, information_schema, performance_schema and GetWorkflows narrow the
  // evidence while the streams were still read.
  if (f.part === 'sidecar' || f.part === 'workflows') return 'secondary';
  if (f.part === 'streams') return 'primary';
  return 'vtctld';
}

const location = (f: ReadFailure) => (f.keyspace ? `${f.keyspace}${f.shard !== undefined ? `/${f.shard}` : ''}` : '');

/** Why a tablet's failed GetFullStatus predicts no refresh refusal. */
function statusUnknown(f: ReadFailure, refreshed: ReadonlyMap<string, RefreshedShard>): string {
  const head = `tablet ${f.tablet} of ${location(f)}`;
  if (!refreshed.has(`${f.keyspace}/${f.shard}`))
    return `${head} did not answer GetFullStatus (${f.reason}): its status is unknown; no selected workflow's SwitchTraffic refreshes that shard`;
  if (f.kind === 'timeout')
    return `${head} did not answer GetFullStatus in time (${f.reason}): either the tablet is down, and SwitchTraffic's refresh of the shard fails, or only its MySQL is stalled, which the refresh does not need`;
  return `${head} answered GetFullStatus with an error (${f.reason}): its MySQL status is unknown; SwitchTraffic's tablet refresh does not need MySQL`;
}

function describe(f: ReadFailure, k: Gap, refreshed: ReadonlyMap<string, RefreshedShard>): string {
  const how =
    f.cause === 'deadline' ? 'was cut off by the run deadline (--deadline)' : f.timedOut ? 'timed out' : 'failed';
  switch (k) {
    case 'target-primary':
      return `primary ${f.tablet} of ${location(f)} did not answer GetFullStatus (${f.reason}): every action on a workflow of ${f.keyspace} starts by asking each of its primaries for the workflow (BuildTargets), which fails there before anything is changed: Vitess passes the ReadVReplicationWorkflow error through unwrapped, so what it prints is the RPC error itself (no Vitess text of its own to quote)`;
    case 'tablet-refresh':
      return `tablet ${f.tablet} of ${location(f)} did not answer GetFullStatus (${f.reason}); SwitchTraffic must refresh every tablet of the shard`;
    case 'tablet-status':
      return statusUnknown(f, refreshed);
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

/**
 * `canSwitch`'s text for one tablet whose RefreshState fails: `cannotSwitchFailedTabletRefresh` around the per-shard
 * line (`failed to successfully refresh all tablets in the %s/%s %s shard (%v):\n  %v\n`, `err` nil for a partial
 * refresh) and `RefreshTabletsByShard`'s `failed to refresh tablet %v: %v`; the RPC's own error cannot be known
 * before the refresh runs (`…`).
 */
function refreshArg(f: ReadFailure, side: 'source' | 'target'): string {
  return `failed to successfully refresh all tablets in the ${f.keyspace}/${f.shard} ${side} shard (<nil>):\n  failed to refresh tablet ${f.tablet}: …\n`;
}

/**
 * Why a tablet manager answered GetFullStatus with an error, when it is known: FullStatus reads
 * `SELECT @@global.super_read_only` (`vitessio/vitess` `go/vt/mysqlctl/replication.go:287` `IsSuperReadOnly`, called
 * from `go/vt/vttablet/tabletmanager/rpc_replication.go:136` `FullStatus` @v0.24.4), a variable MariaDB lacks.
 */
function statusCause(f: ReadFailure): string | null {
  // FullStatus reads no other variable that a MySQL server lacks: an unknown system variable there is MariaDB's.
  if (f.kind === 'sql-error' && relayedErrno(f.reason) === ER_UNKNOWN_SYSTEM_VARIABLE)
    return 'its MySQL is MariaDB, which has no super_read_only variable (errno 1193), and FullStatus reads it';
  return null;
}

/**
 * One information finding for every GetFullStatus a tablet manager answered with an error (`ReadFailure.notNeeded`):
 * no action calls FullStatus, so nothing Vitess does depends on it; only vtpreflight's own reads of the binlog
 * settings, positions and purged GTIDs of those tablets are missing.
 */
function statusNotRead(failures: readonly ReadFailure[]): CheckFinding<UnreachableReason> {
  const tablets = failures.map((f) => f.tablet ?? f.where);
  const shown = tablets.slice(0, 6).join(', ') + (tablets.length > 6 ? `, and ${tablets.length - 6} more` : '');
  const causes = [...new Set(failures.map((f) => statusCause(f) ?? `it answered: ${f.reason}`))];
  const n = failures.length;
  const why = causes.length === 1 ? causes[0]! : `for ${causes.length} different reasons (see details)`;
  const one = failures.length === 1 ? failures[0]! : undefined;
  return {
    reason: 'tabletStatusNotRead',
    message: `GetFullStatus failed on ${n} tablet${n === 1 ? '' : 's'} (${shown}): ${why}. No workflow action calls it (streams pick source tablets by their health stream, SwitchTraffic refreshes tablets with RefreshState), so only vtpreflight's own view of ${n === 1 ? 'its' : 'their'} binlog settings, positions and purged GTIDs is missing`,
    ...(one?.keyspace !== undefined ? { keyspace: one.keyspace } : {}),
    ...(one?.shard !== undefined ? { shard: one.shard } : {}),
    ...(one?.tablet !== undefined ? { tablet: one.tablet } : {}),
    details: {
      tablets,
      mariadb: failures.some((f) => statusCause(f) !== null),
      errors: failures.map((f) => ({ tablet: f.tablet ?? null, kind: f.kind, error: f.reason })),
    },
  };
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

/**
 * The one line naming every declared read that was not read, grouped by read: on how many primaries, and the grant
 * that lets it through where the server refused it for a privilege the minimal user may lack.
 */
function notReadLine(failures: readonly ReadFailure[]) {
  const byRead = new Map<PrimaryReadId, ReadFailure[]>();
  for (const f of failures) {
    const id = (f.reads as readonly PrimaryReadId[])[0] as PrimaryReadId;
    byRead.set(id, [...(byRead.get(id) ?? []), f]);
  }
  const parts = [...byRead].map(([id, fs]) => {
    const first = fs[0] as ReadFailure;
    const primaries = new Set(fs.map((f) => f.tablet ?? `${f.keyspace ?? ''}/${f.shard ?? ''}`)).size;
    const grant = extraGrantOf(id);
    const why =
      first.kind === 'privilege' && grant !== null
        ? `needs ${grant}`
        : first.kind === 'privilege'
          ? `refused: ${first.reason}`
          : `${first.timedOut ? 'timed out' : 'failed'}: ${first.reason}`;
    const what = fillNames(primaryRead(id).reads, { sidecar: 'the sidecar', schema: 'the schema' });
    return `${what} on ${primaries} ${primaries === 1 ? 'primary' : 'primaries'} (${why})`;
  });
  return {
    reason: 'notRead' as const,
    message: `not read, so not judged: ${parts.join('; ')}`,
    details: {
      reads: [...byRead].map(([id, fs]) => ({
        read: id,
        primaries: [...new Set(fs.map((f) => f.tablet ?? ''))].sort(),
        kind: (fs[0] as ReadFailure).kind,
        error: (fs[0] as ReadFailure).reason,
      })),
    },
  };
}

export default defineCheck({
  id: 'unreachable',
  role: 'read-failures',
  title: 'Every part of the cluster could be read',
  reasons: {
    tabletStatusNotRead: {
      severity: 'info',
      // Said for every action on an existing workflow: none of them calls FullStatus.
      step: 'build-targets',
      heuristic: true,
      rationale:
        'A tablet manager that answers GetFullStatus with an error (a MariaDB tablet lacks super_read_only) is reachable, and no action calls FullStatus, so only vtpreflight reads its binlog settings from it.',
    },
    targetPrimaryNotAnswering: {
      severity: 'error',
      step: 'build-targets',
      heuristic: true,
      // No template: BuildTargets returns the RPC error unwrapped (`if err != nil { return nil, err }`,
      // go/vt/vtctl/workflow/utils.go:390-391 @00bd50b6, after `tmc.ReadVReplicationWorkflow` at :387), and so do
      // buildTrafficSwitcher (server.go:2266-2269), getWorkflowState (:418-421) and WorkflowSwitchTraffic
      // (:2752-2754) @006b7393: vtctldclient prints the tablet manager client's own error, whose words the transport
      // decides (a dial or gRPC status text), so no literal upstream string can be quoted.
      rationale:
        "BuildTargets asks every target-keyspace primary's tablet manager for the workflow (ReadVReplicationWorkflow, utils.go:387) and returns its error unwrapped (utils.go:390-391), as do buildTrafficSwitcher, getWorkflowState and WorkflowSwitchTraffic (server.go:2269, 421, 2754): the action fails before changing anything, with the RPC error as its only text.",
    },
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
        "The tablet's GetFullStatus failed without showing that RefreshState (topo record only) would: an error answer or a timeout may come from its MySQL alone, or no selected switch refreshes its shard.",
    },
    primaryUnreadable: {
      // Vitess reaches the primary through its tablet manager, not through the MySQL connection vtpreflight uses (a
      // firewall in front of MySQL ports, a missing grant): the tool's own failure leaves the workflows unverified,
      // naming the part, and never blocked. A tablet manager that cannot be reached is targetPrimaryNotAnswering.
      severity: 'warning',
      step: 'build-targets',
      heuristic: true,
      rationale:
        'A primary whose `_vt.vreplication` vtpreflight could not read hides its streams from the tool, not from Vitess: the workflows it concerns are unverified.',
    },
    partialRead: {
      severity: 'warning',
      step: 'can-switch-streams',
      heuristic: true,
      rationale:
        'The streams were read but copy_state, vreplication_log, the journal or GetWorkflows was not, so part of the evidence is missing.',
    },
    notReadInTime: {
      severity: 'warning',
      step: 'can-switch-refresh',
      heuristic: true,
      rationale:
        'The run deadline (--deadline) passed before this part was read, so it is unknown (not known to be unreachable either) and the workflows it concerns are unverified.',
    },
    notRead: {
      severity: 'info',
      step: 'build-targets',
      heuristic: true,
      rationale:
        'A read only some checks judge from (src/reads/registry.ts) failed or was refused: those checks could not judge, and the verdicts of the actions whose refusals need it say so; one line names every such read.',
    },
    vtctldReadFailed: {
      // The read failed, not the action: the workflows it concerns are unverified, naming the part.
      severity: 'warning',
      step: 'build-targets',
      heuristic: true,
      rationale:
        'A vtctld call that failed during the read hides topology (keyspaces, shards, tablets, vschemas) every later judgement rests on: the workflows it concerns are unverified.',
    },
  },
  description:
    "Whatever vtpreflight could not read, it cannot judge: a primary whose `_vt.vreplication` could not be read hides its streams, a vtctld call that failed hides topology. Each such gap is reported here, as a warning that leaves the workflows it concerns `unverified` (the tool could not read, Vitess may well proceed), so that a partial read is never a silent pass (exit 1). A tablet whose tablet manager cannot be reached (GetFullStatus answers UNAVAILABLE) also predicts a real refusal when SwitchTraffic refreshes its shard: `canSwitch` sends RefreshState to every tablet with a hostname of every source and target shard of the workflow and fails with `could not refresh all of the tablets involved in the operation` when one fails (`vitessio/vitess:go/vt/vtctl/workflow/server.go`, `go/vt/topotools/keyspace.go`). RefreshState does not need MySQL: a GetFullStatus timeout is a warning (the status is unknown); an error answer (a tablet manager that is up, e.g. on MariaDB, which lacks the super_read_only variable FullStatus reads) is one information finding, since no action calls FullStatus; a tablet without a hostname is skipped like Vitess does. A primary of the target keyspace that cannot be reached fails every action earlier, in BuildTargets, which asks each target primary's tablet manager for the workflow. Failures of the other reads (copy_state, vreplication_log, the resharding journal, GetWorkflows) are warnings, and leave the workflows they concern unverified (exit 1): the streams were read, but not all of what decides copy, lag and the point of no return. The other reads of a primary (information_schema, performance_schema, the grant tables, the 2PC and VDiff tables) are declared by the check reasons that use them: a failure leaves unverified only the verdicts whose action has such a reason that can refuse, and all of them are named on one info line (`notRead`). A tablet vtpreflight never got to ask (vtctld died, or the run deadline passed first) is not blamed: the first is one finding about vtctld, the second says what the deadline left unread.",
  remediation:
    "Check that the host running vtpreflight can reach vtctld and every primary's MySQL port (`mysql_hostname`/`mysql_port` of the tablet record), that the MySQL user has SELECT on the sidecar database, and that the tablets are up: `vtctldclient GetTablets --keyspace <keyspace>` and `vtctldclient GetFullStatus <alias>`. If only vtctld is reachable, run with `--via vtctld`. Then run vtpreflight again.",
  run(model) {
    const refreshed = refreshedBySwitch(model);
    const primaries = targetPrimaries(model);
    const viaVtctld = model.failures.filter((f) => f.cause === 'vtctld');
    // A failure of declared reads only (src/reads/registry.ts) is said once, on one info line; the verdicts whose
    // action needs one of them name it in `unverifiedBy`.
    const declaredOnly = (f: ReadFailure) =>
      f.reads !== undefined && f.reads.length > 0 && f.reads.every((id) => primaryRead(id).role === 'declared');
    const own = model.failures.filter((f) => f.cause !== 'vtctld' && !declaredOnly(f) && f.notNeeded !== true);
    // A GetFullStatus the tablet manager answered with an error: said once, as information (ReadFailure.notNeeded).
    const notNeeded = model.failures.filter((f) => f.cause !== 'vtctld' && f.notNeeded === true);
    // A primary already reported for a core read (its connection, its streams, copy_state, the log) is that finding;
    // the line names the declared reads of primaries that were otherwise read.
    const reported = new Set(own.flatMap((f) => (f.tablet !== undefined ? [f.tablet] : [])));
    const notRead = model.failures.filter(
      (f) => f.cause !== 'vtctld' && declaredOnly(f) && (f.tablet === undefined || !reported.has(f.tablet)),
    );
    const REASON: Readonly<Record<Gap, UnreachableReason>> = {
      'target-primary': 'targetPrimaryNotAnswering',
      'tablet-refresh': 'tabletUnreachable',
      'tablet-status': 'tabletStatusFailed',
      primary: 'primaryUnreadable',
      secondary: 'partialRead',
      deadline: 'notReadInTime',
      vtctld: 'vtctldReadFailed',
    };
    return [
      ...(viaVtctld.length > 0 ? [vtctldDown(viaVtctld)] : []),
      ...(notNeeded.length > 0 ? [statusNotRead(notNeeded)] : []),
      ...(notRead.length > 0 ? [notReadLine(notRead)] : []),
      ...own.map((f): CheckFinding<UnreachableReason> => {
        const k = gapOf(f, refreshed, primaries);
        const side = refreshed.get(`${f.keyspace}/${f.shard}`)?.side ?? 'target';
        return {
          reason: REASON[k],
          message: describe(f, k, refreshed),
          ...(k === 'tablet-refresh' ? { vitessArgs: [refreshArg(f, side)] } : {}),
          ...(f.keyspace !== undefined ? { keyspace: f.keyspace } : {}),
          ...(f.shard !== undefined ? { shard: f.shard } : {}),
          ...(f.tablet !== undefined ? { tablet: f.tablet } : {}),
          details: {
            what: f.what,
            where: f.where,
            error: f.reason,
            timedOut: f.timedOut === true,
            kind: f.kind,
            ...(f.code !== undefined ? { code: f.code } : {}),
          },
        };
      }),
    ];
  },
});
