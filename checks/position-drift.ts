/**
 * Stream positions that Vitess cannot bring to one stop point, positions the source never executed, stopped
 * streams off their stop position, interrupted cutovers, and streams far behind their source.
 *
 * Upstream: `vitessio/vitess:go/vt/vtctl/workflow/stream_migrator.go` `syncSourceStreams` (per upstream
 * `"<bls.keyspace>:<bls.shard>"`, the stop position is the last stream whose position is `AtLeast` the current
 * pick) and `verifyStreamPositions` (every stream must then be `Equal` to it, else
 * `%s: stream %d position: %s does not match %s`).
 *
 * Failure modes (`details.reason`):
 * - `positionsNotOrdered` (error): a stream the Reshard's stream migrator moves is incomparable with the stop
 *   position Vitess would pick for its upstream shard; predicts the `verifyStreamPositions` error (real run only).
 * - `stopPositionNotExecuted` (error): that stop position holds GTIDs the upstream primary never executed, and no
 *   tablet of the upstream shard has executed them either (each answered GetFullStatus), so the streams restarted to
 *   reach it can never receive them and wait until the switch times out.
 * - `stopPositionNotOnPrimary` (warning): the same GTIDs, but some tablet of the upstream shard has executed them (or
 *   did not answer GetFullStatus): the restarted streams reach the stop position if they stream from such a tablet.
 *   What Vitess compares (`vitessio/vitess` @v0.24.4): `syncSourceStreams` (stream_migrator.go:773-848) sets each
 *   other stream's `stop_pos` to the furthest stream position of its upstream `keyspace:shard` (:779-781), restarts
 *   it (:828-830) and calls `VReplicationWaitForPos` on the Reshard source primary that runs it (:836), which polls
 *   that stream's own `pos` until `current.AtLeast(stop)` (vreplication/engine.go:841 WaitForPos) and fails only when
 *   the stream stops first (:847) or the context ends (:852-863). The stream's `pos` grows with the GTIDs of the
 *   binary log it reads, from the tablet its picker chose (any tablet of its tablet types, not only the primary), and
 *   the stop position itself is a position some stream reached that way: GTIDs the primary never executed (errant
 *   transactions of a replica) are there for every stream reading that replica.
 * - `notInSourceGtids` (warning): a stream's position holds GTIDs the upstream primary never executed (errant or
 *   foreign transactions: the target may hold rows the source does not).
 * - `interruptedCutover` (warning): a stream still carries a message a cutover writes while it runs.
 * - `stoppedOffStopPosition` (warning): a Stopped stream with a `stop_pos` it does not sit exactly on.
 * - `farBehind` (info): a Running stream at least {@link FAR_BEHIND_TRANSACTIONS} transactions behind its source.
 */
import { defineCheck, streamLocation, type CheckFinding } from '../src/engine/check.js';
import { copyTablesLeft } from '../src/model/copy-state.js';
import type { ClusterModel, Stream } from '../src/model/types.js';
import { type Position, positionOf } from '../src/vitess/position.js';
import { reshardMigrations, upstreamKey, type ReshardMigration } from '../src/model/stream-migrator.js';
import {
  encodePosition,
  fullStatusOf,
  parseLoosePosition,
  sourceExecuted,
  transactionsBehind,
  truncateGtidText,
  unexecuted,
} from '../src/model/source-position.js';

/**
 * Transactions behind the source from which a Running stream is reported (info). SwitchTraffic's catch-up runs
 * under `--timeout` (default 30s); a vplayer applies in the order of a few thousand transactions a second, so
 * 100 000 unapplied transactions is about where the default catch-up window stops being enough. Lag in seconds
 * is `replication-lag`'s job; this is the transaction count the issue asks for, which that check does not see.
 */
export const FAR_BEHIND_TRANSACTIONS = 100_000;

/** Messages Vitess writes into `_vt.vreplication.message` while a cutover runs (stream migrator, MoveTables switch). */
export const CUTOVER_MESSAGES: readonly string[] = ['for cutover', 'synchronizing for cutover', 'stopped for cutover'];

interface Subject {
  readonly stream: Stream;
  /** The Reshard whose stream migrator moves this stream, when it is not itself a selected workflow's stream. */
  readonly reshard: ReshardMigration | undefined;
}

const name = (s: Stream) => `stream ${s.id}${s.workflow ? ` of ${s.workflow}` : ''} on ${s.keyspace}/${s.shard}`;

const notOrdered = (m: ReshardMigration, s: Stream, key: string, pick: Stream) =>
  `${name(s)}, which Reshard ${m.workflow.name} migrates, is at a position neither containing nor contained in that of stream ${pick.id} on ${pick.shard}, the furthest stream reading ${key}, so Vitess cannot bring them to one stop position`;

const notExecutedStop = (m: ReshardMigration, pick: Stream, key: string, errantCount: number, waiters: number) =>
  `the stop position Reshard ${m.workflow.name}'s stream migrator would pick for ${key} (${name(pick)}) holds ${errantCount} transaction${errantCount === 1 ? '' : 's'} the source primary never executed, nor any other tablet of ${key}, so ${waiters} stream${waiters === 1 ? '' : 's'} restarted to reach it would wait until the switch times out`;

const notOnPrimaryStop = (
  m: ReshardMigration,
  pick: Stream,
  key: string,
  errantCount: number,
  waiters: number,
  holders: readonly string[],
  unknown: readonly string[],
) =>
  `the stop position Reshard ${m.workflow.name}'s stream migrator would pick for ${key} (${name(pick)}) holds ${errantCount} transaction${errantCount === 1 ? '' : 's'} the source primary never executed, which ${holders.length > 0 ? `${holders.join(', ')} of ${key} executed` : `${unknown.join(', ')} of ${key}, whose status was not read, may hold`}: the ${waiters} stream${waiters === 1 ? '' : 's'} restarted to reach it reach it only when streaming from such a tablet, and wait until the switch times out otherwise`;

/**
 * The running tablets of the upstream shard other than its primary, split into those whose executed GTID set holds
 * every GTID of `stop` the primary lacks (`holders`) and those that did not answer GetFullStatus (`unknown`).
 */
function stopHolders(model: ClusterModel, pick: Stream, stop: Position): { holders: string[]; unknown: string[] } {
  const shard = model.shard(pick.sourceKeyspace, pick.sourceShard);
  const holders: string[] = [];
  const unknown: string[] = [];
  const flavor = stop.flavor === 'MariaDB' ? 'MariaDB' : 'MySQL56';
  for (const t of shard?.tablets ?? []) {
    // A tablet without hostname is not running: no picker can stream from it.
    if (t.hostname === '' || t.alias === shard?.primaryAlias) continue;
    const fs = fullStatusOf(t);
    // Its executed set: `primary_status.position` (what its binary log holds), else `replication_status.position`
    // (the replica's executed GTID set, from SHOW REPLICA STATUS).
    const executed = fs
      ? (parseLoosePosition(fs.primaryPosition, flavor) ?? parseLoosePosition(fs.replicationPosition, flavor))
      : null;
    if (executed === null) {
      unknown.push(t.alias);
      continue;
    }
    const u = unexecuted(stop, executed);
    if (u === null || u.errantCount === 0) holders.push(t.alias);
  }
  return { holders, unknown };
}

const errant = (s: Stream, count: number, source: string, set: string) =>
  `${name(s)} holds ${count} transaction${count === 1 ? '' : 's'} that source primary ${source} never executed (${truncateGtidText(set, 120)})`;

const interrupted = (s: Stream) =>
  `${name(s)} is ${s.state} with message "${s.message}", left behind by an interrupted cutover`;

const RELATION_WORDS = { behind: 'short of', beyond: 'past', incomparable: 'at a position diverging from' } as const;

const offStop = (s: Stream, relation: keyof typeof RELATION_WORDS) =>
  `${name(s)} is Stopped ${RELATION_WORDS[relation]} its stop position instead of exactly on it`;

const farBehind = (s: Stream, behind: number, source: string) =>
  `${name(s)} is ${behind} transactions behind source primary ${source}`;

/** Its declared reasons. */
type R =
  | 'positionNotGtidSet'
  | 'positionUnparsable'
  | 'positionsNotOrdered'
  | 'stopPositionNotExecuted'
  | 'stopPositionNotOnPrimary'
  | 'notInSourceGtids'
  | 'interruptedCutover'
  | 'stoppedOffStopPosition'
  | 'farBehind';

function location(subject: Subject): Pick<CheckFinding, 'keyspace' | 'shard' | 'workflow' | 'streamId' | 'tablet'> {
  const s = subject.stream;
  return {
    keyspace: s.keyspace,
    shard: s.shard,
    workflow: subject.reshard ? subject.reshard.workflow.name : s.workflow,
    streamId: s.id,
    tablet: s.tablet,
  };
}

function relationOf(pos: Position, stop: Position): keyof typeof RELATION_WORDS {
  if (stop.atLeast(pos)) return 'behind';
  if (pos.atLeast(stop)) return 'beyond';
  return 'incomparable';
}

/** (a) The stream migrator's stop positions for one Reshard. */
/** The position a stream restarted toward `stop` reaches: its own set united with the stop position's. */
function afterSync(pos: Position, stop: Position): Position {
  if (pos.gtidSet === null || stop.gtidSet === null || pos.flavor !== stop.flavor) return pos;
  return positionOf(pos.gtidSet.union(stop.gtidSet));
}

function migratorFindings(model: ClusterModel, m: ReshardMigration): CheckFinding<R>[] {
  const groups = new Map<string, Stream[]>();
  for (const shard of m.shards) {
    for (const s of shard.migrated) {
      const k = upstreamKey(s);
      const g = groups.get(k);
      if (g) g.push(s);
      else groups.set(k, [s]);
    }
  }
  const out: CheckFinding<R>[] = [];
  for (const key of [...groups.keys()].sort()) {
    const group = groups.get(key)!;
    // syncSourceStreams: replace the pick whenever a stream's position is AtLeast it (deterministic order here).
    let pick = group[0]!;
    for (const s of group.slice(1)) if (s.pos!.atLeast(pick.pos!)) pick = s;
    const stop = pick.pos!;
    const waiters: Stream[] = [];
    for (const s of group) {
      if (stop.atLeast(s.pos!)) {
        if (!s.pos!.equals(stop)) waiters.push(s);
        continue;
      }
      out.push({
        reason: 'positionsNotOrdered',
        message: notOrdered(m, s, key, pick),
        keyspace: s.keyspace,
        shard: s.shard,
        workflow: m.workflow.name,
        streamId: s.id,
        tablet: s.tablet,
        // syncSourceStreams restarts this stream with stop_pos = the pick and waits until its position is AtLeast it,
        // so verifyStreamPositions reads (at least) pos ∪ stop, which is what Vitess prints (`stream_migrator.go`
        // `syncSourceStreams`, `verifyStreamPositions`).
        vitessArgs: [key, s.id, encodePosition(afterSync(s.pos!, stop)), encodePosition(stop)],
        details: {
          streamWorkflow: s.workflow,
          upstream: key,
          position: encodePosition(s.pos!),
          stopPosition: encodePosition(stop),
          stopPositionStream: { shard: pick.shard, streamId: pick.id, workflow: pick.workflow },
          realRunOnly: true,
        },
      });
    }
    if (waiters.length === 0) continue;
    const ex = sourceExecuted(model, pick);
    const u = ex ? unexecuted(stop, ex.executed) : null;
    if (!ex || !u || u.errantCount === 0) continue;
    // Certain only when no tablet can feed those GTIDs to the restarted streams (see the header).
    const { holders, unknown } = stopHolders(model, pick, stop);
    const certain = holders.length === 0 && unknown.length === 0;
    out.push({
      reason: certain ? 'stopPositionNotExecuted' : 'stopPositionNotOnPrimary',
      message: certain
        ? notExecutedStop(m, pick, key, u.errantCount, waiters.length)
        : notOnPrimaryStop(m, pick, key, u.errantCount, waiters.length, holders, unknown),
      keyspace: pick.keyspace,
      shard: pick.shard,
      workflow: m.workflow.name,
      streamId: pick.id,
      tablet: pick.tablet,
      details: {
        streamWorkflow: pick.workflow,
        upstream: key,
        stopPosition: encodePosition(stop),
        sourceTablet: ex.tablet.alias,
        sourcePosition: encodePosition(ex.executed),
        notExecuted: truncateGtidText(u.errant),
        notExecutedCount: u.errantCount,
        waitingStreams: waiters.map((w) => ({ shard: w.shard, streamId: w.id, workflow: w.workflow })),
        ...(holders.length > 0 ? { executedOn: holders } : {}),
        ...(unknown.length > 0 ? { statusNotRead: unknown } : {}),
      },
    });
  }
  return out;
}

/** (b), (c), (d) for one stream. */
function streamFindings(model: ClusterModel, subject: Subject): CheckFinding<R>[] {
  const s = subject.stream;
  const out: CheckFinding<R>[] = [];
  const ex = sourceExecuted(model, s);
  const behind = ex && s.pos ? transactionsBehind(s.pos, ex.executed) : null;
  // Built only for a finding: most streams have none, and the positions' texts were most of this check's time.
  let commonDetails: Record<string, unknown> | undefined;
  const common = () =>
    (commonDetails ??= {
      ...(subject.reshard ? { streamWorkflow: s.workflow, migratedBy: subject.reshard.workflow.name } : {}),
      position: s.pos ? encodePosition(s.pos) : s.posText,
      ...(ex ? { sourceTablet: ex.tablet.alias, sourcePosition: encodePosition(ex.executed) } : {}),
      ...(behind !== null ? { transactionsBehind: behind } : {}),
    });
  if (ex && s.pos) {
    const u = unexecuted(s.pos, ex.executed);
    if (u && u.errantCount > 0) {
      out.push({
        reason: 'notInSourceGtids',
        message: errant(s, u.errantCount, `${s.sourceKeyspace}/${s.sourceShard} (${ex.tablet.alias})`, u.errant),
        ...location(subject),
        details: {
          ...common(),
          notExecuted: truncateGtidText(u.errant),
          notExecutedCount: u.errantCount,
        },
      });
    }
  }
  if (CUTOVER_MESSAGES.includes(s.message)) {
    out.push({
      reason: 'interruptedCutover',
      message: interrupted(s),
      ...location(subject),
      details: {
        ...common(),
        state: s.state,
        message: s.message,
        stopPosition: s.stopPos ? encodePosition(s.stopPos) : s.stopPosText,
      },
    });
  } else if (s.state === 'Stopped' && s.message !== 'FROZEN' && s.pos && s.stopPos && !s.pos.equals(s.stopPos)) {
    const relation = relationOf(s.pos, s.stopPos);
    out.push({
      reason: 'stoppedOffStopPosition',
      message: offStop(s, relation),
      ...location(subject),
      details: {
        ...common(),
        stopPosition: encodePosition(s.stopPos),
        relation,
        message: s.message,
      },
    });
  }
  if (
    ex &&
    behind !== null &&
    behind >= FAR_BEHIND_TRANSACTIONS &&
    s.state === 'Running' &&
    copyTablesLeft(s)?.length === 0
  ) {
    out.push({
      reason: 'farBehind',
      message: farBehind(s, behind, `${s.sourceKeyspace}/${s.sourceShard} (${ex.tablet.alias})`),
      ...location(subject),
      details: { ...common(), thresholdTransactions: FAR_BEHIND_TRANSACTIONS },
    });
  }
  return out;
}

/**
 * `replication.DecodePosition` (go/mysql/replication/replication_position.go) on a MySQL56 position: the first
 * comma-separated uuid set without a colon fails with the text below; other malformed sets fail with texts that
 * wrap a lower-level parse error (not predicted exactly: `positionUnparsable`).
 */
function decodeError(text: string): string | null {
  const slash = text.indexOf('/');
  if (slash < 0 || text.slice(0, slash) !== 'MySQL56') return null;
  const set = text.slice(slash + 1);
  for (const part of set.split(',')) {
    const uuidSet = part.trim();
    if (uuidSet === '') continue;
    if (!uuidSet.includes(':')) return `invalid MySQL 5.6 GTID set (${JSON.stringify(set)}): expected uuid:interval`;
    return null; // the first uuid set with a colon: a later failure is not this text
  }
  return null;
}

/** Streams whose `pos` or `stop_pos` does not decode: Vitess's GetWorkflows fails on their keyspace. */
function undecodable(s: Stream): CheckFinding<R>[] {
  const out: CheckFinding<R>[] = [];
  const columns: [string, string | null, string | null][] = [
    ['pos', s.posText, s.pos === null ? (s.posError ?? 'does not parse') : null],
    [
      'stop_pos',
      s.stopPosText,
      s.stopPosText !== null && s.stopPosText !== '' && s.stopPos === null ? 'does not parse' : null,
    ],
  ];
  for (const [column, text, error] of columns) {
    if (error === null || text === null) continue;
    const vitess = decodeError(text);
    out.push({
      ...streamLocation(s),
      ...(vitess !== null ? { reason: 'positionNotGtidSet', vitessError: vitess } : { reason: 'positionUnparsable' }),
      message: `${name(s)} has a ${column} that is not a valid position (${JSON.stringify(text.length > 120 ? `${text.slice(0, 120)}…` : text)}): ${vitess ?? error}`,
      details: { column, position: text, parseError: error },
    });
  }
  return out;
}

export default defineCheck({
  id: 'position-drift',
  aggregated: 'perStream',
  needs: ['topology', 'fullStatus'],
  title: 'Stream positions can be brought to one stop point and exist on the source',
  reasons: {
    positionNotGtidSet: {
      severity: 'error',
      step: 'get-workflow',
      vitess: {
        template: 'invalid MySQL 5.6 GTID set (%q): expected uuid:interval',
        file: 'go/mysql/replication/mysql56_gtid_set.go',
        line: 85,
        versions: { from: 17 },
      },
    },
    positionUnparsable: {
      severity: 'error',
      step: 'get-workflow',
      heuristic: true,
      rationale:
        'Vitess decodes every stream position when it reads the workflow and fails on one that does not parse, with a parse error of its own wording.',
    },
    positionsNotOrdered: {
      severity: 'error',
      step: 'stop-streams',
      vitess: {
        template: '%s: stream %d position: %s does not match %s',
        file: 'go/vt/vtctl/workflow/stream_migrator.go',
        line: 541,
        versions: { from: 17 },
      },
    },
    stopPositionNotExecuted: {
      severity: 'error',
      step: 'stop-streams',
      heuristic: true,
      rationale:
        "VReplicationWaitForPos waits until each restarted stream's own position is AtLeast the stop position (vreplication/engine.go:841 @v0.24.4), and no tablet of the upstream shard executed the GTIDs it lacks, so no stream can receive them and the switch fails when its --timeout ends.",
    },
    stopPositionNotOnPrimary: {
      severity: 'warning',
      step: 'stop-streams',
      heuristic: true,
      rationale:
        "VReplicationWaitForPos compares each restarted stream's own position with the stop position (vreplication/engine.go:841 @v0.24.4), so GTIDs the upstream primary lacks but another tablet of the shard executed (the replica the furthest stream read) reach the streams that pick that tablet, and the others wait until the switch times out.",
    },
    notInSourceGtids: {
      severity: 'warning',
      step: 'catch-up',
      heuristic: true,
      rationale:
        'Errant or foreign transactions in a stream position mean the target may hold rows the source does not.',
    },
    interruptedCutover: {
      severity: 'warning',
      step: 'stop-streams',
      heuristic: true,
      rationale: 'A message a cutover writes while it runs, still present, means an earlier switch stopped half way.',
    },
    stoppedOffStopPosition: {
      severity: 'warning',
      step: 'catch-up',
      heuristic: true,
      rationale:
        'A stopped stream not sitting on its stop_pos was stopped by something other than the cutover that set it.',
    },
    farBehind: {
      severity: 'info',
      step: 'catch-up',
      heuristic: true,
      rationale: 'A stream this far behind makes the catch-up of a switch slow and may exceed its --timeout.',
    },
  },
  description:
    "When a Reshard switches writes, Vitess's stream migrator stops the other workflows' streams on the source shards, groups them by the upstream `keyspace:shard` they read, picks as stop position the furthest one (by GTID-set containment, `AtLeast`), restarts the others until they reach it and then requires every stream to be exactly (`Equal`) at it. Two positions of which neither contains the other can never be made equal, so the real switch (not a dry run) fails with `%s: stream %d position: %s does not match %s`; Vitess prints the position the stream reached after catching up, which is at or past the one shown here. If the stop position holds GTIDs the upstream primary never executed, the restarted streams reach it only by streaming from a tablet that executed them (Vitess waits for each stream's own position, `AtLeast`): with no such tablet in the upstream shard the switch fails when `--timeout` expires (error); when a replica of the shard executed them (errant transactions there), the streams that pick it reach the stop position and the others wait (warning). For every selected workflow's stream this check also reports positions holding GTIDs the upstream primary never executed (errant transactions: the target may hold rows the source does not), streams left with a `for cutover`, `synchronizing for cutover` or `stopped for cutover` message by an interrupted switch, Stopped streams not sitting exactly on their `stop_pos`, and (info) Running streams 100 000 or more transactions behind the source primary. Positions are compared as GTID sets; external sources and zero positions are skipped. Upstream: `vitessio/vitess:go/vt/vtctl/workflow/stream_migrator.go` (`syncSourceStreams`, `verifyStreamPositions`).",
  remediation:
    'Compare the positions with `vtctldclient Workflow --keyspace <keyspace> show --workflow <stream workflow>` and the source with `vtctldclient GetFullStatus <source primary>`. Streams whose GTID sets diverge (errant transactions on a source replica) must be re-created from a consistent source: fix the errant GTIDs on the source tablets, then recreate the workflow. For a leftover cutover message or stop position, find out which switch or VDiff left it, then restart the stream with `vtctldclient Workflow --keyspace <keyspace> start --workflow <stream workflow>` and check that it catches up. For a stream far behind, wait until it has caught up before switching traffic, or raise `--timeout` on SwitchTraffic.',
  run(model: ClusterModel) {
    const migrations = reshardMigrations(model);
    const out: CheckFinding<R>[] = migrations.flatMap((m) => migratorFindings(model, m));
    const seen = new Set<string>();
    const subjects: Subject[] = [];
    const add = (stream: Stream, reshard: ReshardMigration | undefined) => {
      const k = `${stream.keyspace}/${stream.shard}/${stream.id}`;
      if (seen.has(k)) return;
      seen.add(k);
      subjects.push({ stream, reshard });
    };
    for (const s of model.streams()) add(s, undefined);
    for (const m of migrations) for (const shard of m.shards) for (const s of shard.migrated) add(s, m);
    for (const subject of subjects) out.push(...streamFindings(model, subject));
    for (const st of model.streams()) out.push(...undecodable(st));
    return out;
  },
});
