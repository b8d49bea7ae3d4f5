/**
 * The source tablets a stream may read from must still hold, in their binary logs, every transaction the
 * stream has not applied: `gtid_purged ⊆ pos`. Otherwise the source refuses the binlog dump (MySQL error 1236,
 * "… purged binary logs containing GTIDs that the replica requires") and the stream can never resume or catch up
 * from that tablet.
 *
 * Which tablets: those the tablet picker may choose (`pickerCandidates`: the stream's `tablet_types`, empty =
 * vttablet's default `in_order:REPLICA,PRIMARY`, so replicas when there are any; its cells plus the target's own),
 * `vitessio/vitess:go/vt/discovery/tablet_picker.go`. `gtid_purged` comes from GetFullStatus.
 *
 * Skipped: zero positions (a stream whose copy has not started takes a fresh consistent snapshot and has nothing
 * to catch up from: `vitessio/vitess:go/vt/vttablet/tabletmanager/vreplication/vcopier.go` `catchup` returns at
 * once when the start position is zero), external sources, FROZEN streams and owned lookup backfills stopped after
 * copy (they never resume), and anything but MySQL56: a MariaDB position is one GTID per domain, for which
 * containment of the purged state says nothing about which binlog files remain.
 */
import { defineCheck, streamLocation, type CheckFinding, type Reasons } from '../src/engine/check.js';
import type { ClusterModel, Stream } from '../src/model/types.js';
import type { GtidSet } from '../src/vitess/position.js';
import {
  countOf,
  encodePosition,
  fullStatusOf,
  parseLooseGtidSet,
  pickerCandidates,
  readsExternalSource,
  truncateGtidText,
} from '../src/model/source-position.js';
import { plural } from '../src/text.js';

interface PurgedOn {
  readonly tablet: string;
  readonly type: string;
  readonly gtidPurged: string;
  readonly missing: string;
  readonly missingCount: number;
}

const list = (tablets: readonly PurgedOn[]) => tablets.map((t) => `${t.tablet} (${t.type})`).join(', ');

const mostMissing = (on: readonly PurgedOn[]) => Math.max(...on.map((t) => t.missingCount));

const purgedEverywhere = (s: Stream, source: string, on: readonly PurgedOn[]) =>
  `stream ${s.id} of ${s.workflow} on ${s.keyspace}/${s.shard} needs ${on.length > 1 ? 'up to ' : ''}${plural(mostMissing(on), 'transaction')} that source ${source} has purged from the binary logs of every tablet it may read from (${list(on)}), so it can never catch up`;

const purgedSomewhere = (s: Stream, source: string, on: readonly PurgedOn[], candidates: number) =>
  `stream ${s.id} of ${s.workflow} on ${s.keyspace}/${s.shard} needs ${on.length > 1 ? 'up to ' : ''}${plural(mostMissing(on), 'transaction')} that source ${source} has purged from the binary logs of ${on.length} of the ${candidates} tablets it may read from (${list(on)}), so it fails whenever it picks one of them`;

function isNeverResumed(s: Stream): boolean {
  return (
    s.message === 'FROZEN' ||
    (s.workflowType === 'CreateLookupIndex' && s.state === 'Stopped' && s.message.includes('Stopped after copy'))
  );
}

/** `purged − pos` when not empty, else null; once per (position, purged set) pair (both immutable, parsed once). */
function missingFrom(pos: GtidSet, purged: GtidSet): GtidSet | null {
  let inner = missingCache.get(pos);
  if (inner === undefined) missingCache.set(pos, (inner = new WeakMap()));
  let hit = inner.get(purged);
  if (hit === undefined) {
    const missing = pos.contains(purged) ? null : purged.subtract(pos);
    inner.set(purged, (hit = { missing: missing === null || missing.isEmpty() ? null : missing }));
  }
  return hit.missing;
}

const missingCache = new WeakMap<GtidSet, WeakMap<GtidSet, { missing: GtidSet | null }>>();

function findingFor(model: ClusterModel, s: Stream): CheckFinding<R> | null {
  if (
    !s.source ||
    readsExternalSource(s) ||
    !s.pos ||
    s.pos.isZero() ||
    s.pos.flavor !== 'MySQL56' ||
    !s.pos.gtidSet ||
    isNeverResumed(s)
  )
    return null;
  const pos = s.pos.gtidSet;
  const picker = pickerCandidates(model, s);
  const candidates = picker.tablets;
  const purgedOn: PurgedOn[] = [];
  let read = 0;
  for (const t of candidates) {
    const fs = fullStatusOf(t);
    if (!fs) continue;
    read++;
    const purged = parseLooseGtidSet(fs.gtidPurged, 'MySQL56');
    if (!purged) continue;
    const missing = missingFrom(pos, purged);
    if (missing === null) continue;
    purgedOn.push({
      tablet: t.alias,
      type: t.type,
      gtidPurged: truncateGtidText(purged.toString()),
      missing: truncateGtidText(missing.toString()),
      missingCount: countOf(missing),
    });
  }
  if (purgedOn.length === 0) return null;
  const source = `${s.sourceKeyspace}/${s.sourceShard}`;
  const everywhere = purgedOn.length === candidates.length;
  return {
    reason: everywhere ? 'purgedOnEverySource' : 'purgedOnSomeSources',
    message: everywhere
      ? purgedEverywhere(s, source, purgedOn)
      : purgedSomewhere(s, source, purgedOn, candidates.length),
    ...streamLocation(s),
    details: {
      sourceKeyspace: s.sourceKeyspace,
      sourceShard: s.sourceShard,
      position: encodePosition(s.pos),
      tabletTypes: `${picker.inOrder ? 'in_order:' : ''}${picker.types.join(',')}`,
      candidateTablets: candidates.map((t) => t.alias),
      unreadTablets: candidates.length - read,
      purgedOn,
    },
  };
}

const reasons = {
  purgedOnEverySource: {
    severity: 'error',
    step: 'catch-up',
    heuristic: true,
    rationale:
      'MySQL (not Vitess) refuses the binlog dump with error 1236 on every tablet the picker may choose, so the stream errors forever and never catches up.',
  },
  purgedOnSomeSources: {
    severity: 'warning',
    step: 'catch-up',
    heuristic: true,
    rationale:
      'The stream errors with MySQL error 1236 whenever the tablet picker chooses one of these tablets, and recovers only when it picks another.',
  },
} satisfies Reasons;

type R = keyof typeof reasons;

export default defineCheck({
  id: 'binlogs-purged',
  needs: ['tablets', 'fullStatus'],
  title: 'Source binary logs still hold what every stream has not applied',
  reasons,
  description:
    "A stream resumes from its position by asking a source tablet for every transaction its GTID set lacks. When that tablet has already purged some of them from its binary logs (`@@gtid_purged` not contained in the stream's `pos`), MySQL refuses the dump with error 1236 and the stream errors and retries forever: it can never catch up from that tablet, and SwitchTraffic then waits for a catch-up that never comes. Checked against the GetFullStatus answer of every tablet of the source shard the tablet picker may choose (the stream's `tablet_types` and cells): an error when every one of them has purged transactions the stream needs, a warning when only some have. Streams that have not started copying (zero position: the copy begins from a fresh snapshot), external sources, FROZEN streams and owned lookup backfills stopped after copy are skipped, and only MySQL56 positions are compared. Upstream: `vitessio/vitess:go/vt/vttablet/tabletserver/vstreamer/vstreamer.go` (binlog dump from the stream position) and `go/vt/vttablet/tabletmanager/vreplication/vcopier.go` (`catchup`).",
  remediation:
    'Point the stream at a tablet that still has the binary logs (`vtctldclient Workflow --keyspace <keyspace> update --workflow <workflow> --tablet-types ...` or `--cells ...`) if one does; otherwise the missing transactions are gone and the workflow must be recreated: `vtctldclient Workflow --keyspace <keyspace> delete --workflow <workflow>`, then create it again so that it copies afresh. Raise `binlog_expire_logs_seconds` on the source so that retention covers the longest time a stream may be stopped.',
  run(model: ClusterModel) {
    return model
      .streams()
      .map((s) => findingFor(model, s))
      .filter((f): f is CheckFinding<R> => f !== null);
  },
});
