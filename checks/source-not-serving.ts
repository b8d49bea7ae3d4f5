/**
 * source-not-serving: the tablets a stream may read from cannot serve it, or the MySQL settings on either side make
 * VReplication refuse to run.
 *
 * Upstream: `vitessio/vitess:go/vt/vttablet/tabletserver/vstreamer/engine.go` (`Stream` rejects a source whose
 * `binlog_row_image` is `minimal`: `minimal binlog_row_image is not supported by Vitess VReplication`; every entry
 * point
 * answers `VStreamer is not open` while the tablet server is not connected to MySQL),
 * `go/vt/vttablet/tabletmanager/vreplication/vreplicator.go` `validateBinlogRowImage` (on the TARGET mysqld, every
 * loop: `full` accepted; `noblob` accepted for MoveTables, Reshard, OnlineDDL and workflow type 0 (Materialize), else
 * `noblob binlog_row_image is not supported for %s`; anything else `%s binlog_row_image is not supported by Vitess
 * VReplication`),
 * `go/vt/discovery/tablet_picker.go` (which tablets a stream may pick).
 *
 * Failure modes (`details.reason`):
 * - `vstreamerNotOpen`: a stream's message shows `VStreamer is not open`.
 * - `allCandidatesUnreachable` (error) / `someCandidatesUnreachable` (warning): candidate source tablets vtctld could
 *   not reach at all (GetFullStatus UNAVAILABLE; the read failure itself is `unreachable`'s finding). A GetFullStatus
 *   answered with an error is no sign: the tablet picker never calls FullStatus. An error only while some stream of
 *   the group does not stream (not Running, or with a message): `allCandidatesUnreachableWhileStreaming` (warning)
 *   when every one is Running without a message. SwitchTraffic (`vitessio/vitess` @v0.24.4) calls no FullStatus (no
 *   call in go/vt/vtctl/workflow): of the source tablets it calls RefreshState on every one (canSwitch, server.go:3470;
 *   MoveTables again in switchDeniedTables, traffic_switcher.go:1113; Reshard on the source primaries through
 *   changeShardsAccess, :753-758), which `unreachable` judges from the same UNAVAILABLE, and PrimaryPosition on the
 *   source primaries (gatherSourcePositions :1524, gatherPositions :1502); the catch-up (`waitForCatchup`,
 *   :1032-1057) polls the target primaries while the streams keep the connection their picker made from the target
 *   tablet, not from vtctld. So a stream still Running without a message shows a source tablet serving it, whatever
 *   vtctld could reach.
 * - `minimalRowImage`, `binlogFormatNotRow`, `gtidModeOff`, `binlogDisabled`: source candidates whose settings
 *   VReplication cannot stream from; error when every tablet the picker tries first is affected, else warning.
 * - `logReplicaUpdatesOff` (warning): a replica candidate whose binary log lacks the transactions it replicates.
 * - `noblobSource` (warning): NOBLOB on source candidates of a workflow type for which Vitess supports no partial row
 *   images (it validates only the target's setting).
 * - `targetRowImage`, `noblobNotSupported`: the target primary's own `binlog_row_image`, which the stream validates
 *   on every loop.
 */
import { defineCheck, streamLocation, type CheckFinding, type Reason, type Severity } from '../src/engine/check.js';
import { fullStatusOf } from '../src/model/source-position.js';
import { canonicalTabletType, isStreaming, pickerView, type PickerView } from '../src/model/tablet-picker.js';
import type { ClusterModel, FullStatusRecord, Stream, Tablet, Workflow } from '../src/model/types.js';

/** Workflow types whose target accepts a NOBLOB `binlog_row_image` (v17+; OnlineDDL streams are not in the model). */
const NOBLOB_TYPES: readonly string[] = ['MoveTables', 'Reshard', 'OnlineDDL'];

const name = (s: Stream) => `stream ${s.id} of ${s.workflow} on ${s.keyspace}/${s.shard}`;

function isParked(s: Stream): boolean {
  return (
    s.message === 'FROZEN' ||
    (s.state === 'Stopped' && s.message.includes('Stopped after copy') && s.source?.stopAfterCopy === true)
  );
}

/** The binlog settings of GetFullStatus, when the server reported them (older servers leave them empty). */
function settingsOf(fs: FullStatusRecord | undefined): FullStatusRecord | undefined {
  return fs && (fs.binlogFormat !== '' || fs.binlogRowImage !== '') ? fs : undefined;
}

type SourceReason =
  | 'minimalRowImage'
  | 'binlogFormatNotRow'
  | 'gtidModeOff'
  | 'binlogDisabled'
  | 'logReplicaUpdatesOff'
  | 'noblobSource';
type GroupReason = SourceReason | 'allCandidatesUnreachable' | 'someCandidatesUnreachable';
type SettingReason = 'minimalRowImage' | 'binlogFormatNotRow' | 'gtidModeOff' | 'binlogDisabled';
/** Its declared reasons. */
type R =
  | GroupReason
  | `${SettingReason}OnSome`
  | 'vstreamerNotOpen'
  | 'allCandidatesUnreachableWhileStreaming'
  | 'targetRowImage'
  | 'noblobNotSupported';

/** The source-side settings problems of one candidate tablet, with the offending value. */
function sourceProblems(wf: Workflow, t: Tablet, fs: FullStatusRecord): { reason: SourceReason; value: string }[] {
  const out: { reason: SourceReason; value: string }[] = [];
  const image = fs.binlogRowImage.toUpperCase();
  if (image === 'MINIMAL') out.push({ reason: 'minimalRowImage', value: fs.binlogRowImage });
  if (image === 'NOBLOB' && !NOBLOB_TYPES.includes(wf.type))
    out.push({ reason: 'noblobSource', value: fs.binlogRowImage });
  if (fs.binlogFormat !== '' && fs.binlogFormat.toUpperCase() !== 'ROW')
    out.push({ reason: 'binlogFormatNotRow', value: fs.binlogFormat });
  if (fs.gtidMode !== '' && fs.gtidMode.toUpperCase() !== 'ON') out.push({ reason: 'gtidModeOff', value: fs.gtidMode });
  if (!fs.logBinEnabled) out.push({ reason: 'binlogDisabled', value: 'OFF' });
  else if (!fs.logReplicaUpdates && canonicalTabletType(t.type) !== 'PRIMARY')
    out.push({ reason: 'logReplicaUpdatesOff', value: 'OFF' });
  return out;
}

const SETTING: Record<SourceReason, (values: string) => string> = {
  minimalRowImage: () => 'binlog_row_image=MINIMAL, which VReplication rejects',
  noblobSource: (v) => `binlog_row_image=${v}, which VReplication supports only for MoveTables and Reshard`,
  binlogFormatNotRow: (v) => `binlog_format=${v} instead of ROW`,
  gtidModeOff: (v) => `gtid_mode=${v} instead of ON`,
  binlogDisabled: () => 'binary logging disabled (log_bin=OFF)',
  logReplicaUpdatesOff: () => 'log_replica_updates=OFF, so its binary log lacks the transactions it replicates',
};

/** What VReplication prints when it streams from such a tablet, where the text is known exactly. */
const STREAM_ERROR: Partial<Record<SourceReason, string>> = {
  minimalRowImage: 'minimal binlog_row_image is not supported by Vitess VReplication',
};

interface Group {
  readonly reason: GroupReason;
  readonly wf: Workflow;
  readonly view: PickerView;
  /** Affected candidate tablets (settings problems) or the ones that did not answer (reachability). */
  readonly tablets: readonly Tablet[];
  readonly values: readonly string[];
  readonly streams: Stream[];
}

function subject(g: Group): { text: string; s: string; es: string; they: string } {
  const n = g.streams.length;
  return n === 1
    ? { text: name(g.streams[0]!), s: 's', es: 'es', they: 'it' }
    : { text: `${n} streams of workflow ${g.wf.name} in ${g.wf.keyspace}`, s: '', es: '', they: 'they' };
}

const tabletList = (tablets: readonly Tablet[]) =>
  tablets.map((t) => `${t.alias} (${canonicalTabletType(t.type)})`).join(', ');

/** True when every tablet the picker tries first is affected: the streams then fail (almost) every time. */
function hitsEveryPreferred(g: Group): boolean {
  const bad = new Set(g.tablets.map((t) => t.alias));
  return g.view.preferred.length > 0 && g.view.preferred.every((t) => bad.has(t.alias));
}

function groupSeverity(g: Group): Severity | undefined {
  switch (g.reason) {
    case 'someCandidatesUnreachable':
    case 'logReplicaUpdatesOff':
    case 'noblobSource':
      return 'warning';
    case 'allCandidatesUnreachable':
      return undefined;
    default:
      return hitsEveryPreferred(g) ? undefined : 'warning';
  }
}

function groupMessage(g: Group): string {
  const sub = subject(g);
  const src = `${g.view.shard.keyspace}/${g.view.shard.name}`;
  const n = g.view.candidates.length;
  switch (g.reason) {
    case 'allCandidatesUnreachable':
      return groupReason(g) === 'allCandidatesUnreachableWhileStreaming'
        ? `no tablet of ${src} that ${sub.text} may stream from could be reached by vtctld on its gRPC port (GetFullStatus UNAVAILABLE: ${tabletList(g.tablets)}), but ${sub.they} ${g.streams.length === 1 ? 'is' : 'are'} Running without an error on a connection made from the target tablet, which the catch-up waits on; a reconnect needs a source tablet the target can reach`
        : `no tablet of ${src} that ${sub.text} may stream from could be reached on its gRPC port (GetFullStatus UNAVAILABLE: ${tabletList(g.tablets)}), and ${g.streams.length === 1 ? 'it is not' : 'not all of them are'} Running without an error, so ${sub.they} cannot stream from a working source tablet`;
    case 'someCandidatesUnreachable':
      return `${g.tablets.length} of the ${n} tablets of ${src} that ${sub.text} may stream from could not be reached on their gRPC port (GetFullStatus UNAVAILABLE: ${tabletList(g.tablets)}), so ${sub.they} fail${sub.s} whenever ${sub.they} pick${sub.s} one of them`;
    default: {
      const one = g.tablets.length === 1;
      const who =
        `source tablet${one ? '' : 's'} ${tabletList(g.tablets)} of ${src} ${one ? 'has' : 'have'} ` +
        SETTING[g.reason](g.values.join('/'));
      if (g.reason === 'logReplicaUpdatesOff')
        return `${who}: ${sub.text} miss${sub.es} replicated transactions whenever ${sub.they} stream${sub.s} from ${one ? 'it' : 'one of them'}`;
      return groupSeverity(g) === 'warning'
        ? `${who}, so ${sub.text} fail${sub.s} whenever ${sub.they} pick${sub.s} ${one ? 'it' : 'one of them'}`
        : `${who}, so ${sub.text} cannot stream from ${src}`;
    }
  }
}

/** The declared reason of a group: a settings problem on only some preferred tablets is its `…OnSome` variant. */
function groupReason(g: Group): R {
  switch (g.reason) {
    case 'allCandidatesUnreachable':
      // Streams Running without a message are served by a tablet their picker reached (see the header).
      return g.streams.every(isStreaming) ? 'allCandidatesUnreachableWhileStreaming' : g.reason;
    case 'minimalRowImage':
    case 'binlogFormatNotRow':
    case 'gtidModeOff':
    case 'binlogDisabled':
      return hitsEveryPreferred(g) ? g.reason : `${g.reason}OnSome`;
    default:
      return g.reason;
  }
}

function groupFinding(g: Group): CheckFinding<R> {
  const streamError = STREAM_ERROR[g.reason as SourceReason];
  return {
    reason: groupReason(g),
    message: groupMessage(g),
    keyspace: g.wf.keyspace,
    workflow: g.wf.name,
    ...(g.streams.length === 1 ? { shard: g.streams[0]!.shard, streamId: g.streams[0]!.id } : {}),
    ...(g.tablets.length === 1 ? { tablet: g.tablets[0]!.alias } : {}),
    details: {
      sourceKeyspace: g.view.shard.keyspace,
      sourceShard: g.view.shard.name,
      tablets: g.tablets.map((t) => t.alias),
      ...(g.values.length > 0 && !g.reason.endsWith('Unreachable') ? { values: g.values } : {}),
      candidates: g.view.candidates.map((t) => t.alias),
      preferred: g.view.preferred.map((t) => t.alias),
      tabletTypes: g.view.tabletTypes.text,
      cells: g.view.cells,
      streams: g.streams.map((s) => ({ shard: s.shard, streamId: s.id })),
      ...(streamError ? { streamError } : {}),
    },
  };
}

/** Source-side groups of one stream (reachability and settings of its candidates). */
function sourceGroups(wf: Workflow, _s: Stream, view: PickerView): { key: string; make: () => Group }[] {
  const out: { key: string; make: () => Group }[] = [];
  const candidates = view.candidates;
  const base =
    `${view.shard.keyspace}/${view.shard.name}|${candidates.map((t) => t.alias).join(',')}|` +
    view.preferred.map((t) => t.alias).join(',');
  // A tablet never asked (vtctld died first, or the run's deadline passed) is not an unreachable tablet: the gap is
  // `unreachable`'s finding about vtctld or the deadline, and this check has nothing to say about that tablet.
  // Only a tablet whose gRPC port vtctld could not reach (UNAVAILABLE) counts: the picker dials that port for the
  // tablet's StreamHealth (`vitessio/vitess` `go/vt/discovery/tablet_picker.go:467-471` @v0.24.4) and never calls
  // FullStatus, so a tablet manager that answers FullStatus with an error (MariaDB lacks super_read_only, which
  // FullStatus reads) or slowly says nothing about whether the picker can use it.
  const failed = candidates.filter(
    (t) =>
      t.fullStatus !== undefined &&
      !t.fullStatus.ok &&
      t.fullStatus.error.cause === undefined &&
      t.fullStatus.error.kind === 'unavailable',
  );
  if (failed.length > 0) {
    const reason: GroupReason =
      failed.length === candidates.length ? 'allCandidatesUnreachable' : 'someCandidatesUnreachable';
    out.push({
      key: `${reason}|${base}`,
      make: () => ({ reason, wf, view, tablets: failed, values: [], streams: [] }),
    });
  }
  const byReason = new Map<SourceReason, { tablets: Tablet[]; values: Set<string> }>();
  for (const t of candidates) {
    const fs = settingsOf(fullStatusOf(t));
    if (!fs) continue;
    for (const p of sourceProblems(wf, t, fs)) {
      let e = byReason.get(p.reason);
      if (!e) byReason.set(p.reason, (e = { tablets: [], values: new Set() }));
      e.tablets.push(t);
      e.values.add(p.value);
    }
  }
  for (const [reason, e] of byReason) {
    const values = [...e.values].sort();
    out.push({
      key: `${reason}|${base}|${e.tablets.map((t) => t.alias).join(',')}|${values.join(',')}`,
      make: () => ({ reason, wf, view, tablets: e.tablets, values, streams: [] }),
    });
  }
  return out;
}

/** The target primary's own row image, validated by every running stream (`validateBinlogRowImage`). */
function targetFinding(
  wf: Workflow,
  target: Tablet,
  fs: FullStatusRecord,
  streams: readonly Stream[],
): CheckFinding<R> | null {
  const image = fs.binlogRowImage.toLowerCase();
  if (image === '' || image === 'full') return null;
  const type = streams.find((s) => s.workflowType !== null)?.workflowType;
  let reason: R;
  let streamError: string;
  if (image === 'noblob') {
    // Accepted for MoveTables, Reshard and OnlineDDL, and for workflow type 0 (Vitess's unit-test case, which is also
    // Materialize's number and what a missing column reads as): rejected for CreateLookupIndex and Migrate only.
    if (type !== 'CreateLookupIndex' && type !== 'Migrate') return null;
    reason = 'noblobNotSupported';
    streamError = `noblob binlog_row_image is not supported for ${type}`;
  } else {
    reason = 'targetRowImage';
    streamError = `${image} binlog_row_image is not supported by Vitess VReplication`;
  }
  const one = streams.length === 1 ? streams[0]! : undefined;
  const subject = one ? name(one) : `the ${streams.length} streams of ${wf.name} on it`;
  return {
    reason,
    message: `target primary ${target.alias} of ${target.keyspace}/${target.shard} has binlog_row_image=${fs.binlogRowImage}, so ${subject} fail${one ? 's' : ''} on every start with "${streamError}"`,
    keyspace: target.keyspace,
    shard: target.shard,
    workflow: wf.name,
    ...(one ? { streamId: one.id } : {}),
    tablet: target.alias,
    details: {
      binlogRowImage: fs.binlogRowImage,
      workflowType: type ?? null,
      streamError,
      streams: streams.map((s) => s.id),
    },
  };
}

/**
 * The source tablets a stream that reports "VStreamer is not open" most likely picked: the candidates its picker tries
 * first (`in_order:` → those of the first listed type), narrowed to those whose GetFullStatus failed when some did (a
 * tablet server that lost its MySQL answers that way too). The stream message does not name the tablet (the
 * controller's "Picked source tablet" message is overwritten by the error), so this is the best the readout says.
 */
function vstreamerSuspects(view: PickerView): readonly Tablet[] {
  const failed = view.preferred.filter((t) => t.fullStatus !== undefined && !t.fullStatus.ok);
  return failed.length > 0 ? failed : view.preferred;
}

/** `the tablet server of source tablet zone1-… (REPLICA) in commerce/0`, or of one of the suspects. */
function vstreamerCulprit(s: Stream, suspects: readonly Tablet[]): string {
  const where = `${s.sourceKeyspace}/${s.sourceShard}`;
  const typed = (t: Tablet) => `${t.alias} (${canonicalTabletType(t.type)})`;
  if (suspects.length === 1)
    return `the tablet server of source tablet ${typed(suspects[0]!)} in ${where}, the one its picker tries first,`;
  if (suspects.length > 1)
    return `the tablet server of the source tablet it picked in ${where} (one of ${suspects.map(typed).join(', ')}, the candidates its picker tries first)`;
  return `the tablet server of the source tablet it picked in ${where}`;
}

function workflowFindings(model: ClusterModel, wf: Workflow): CheckFinding<R>[] {
  const out: (CheckFinding<R> | Group)[] = [];
  const groups = new Map<string, Group>();
  const targetStreams = new Map<string, Stream[]>();
  const groupsByView = new Map<PickerView, ReturnType<typeof sourceGroups>>();
  for (const s of wf.streams) {
    const view = pickerView(model, s);
    if (s.message.includes('VStreamer is not open')) {
      const suspects = view ? vstreamerSuspects(view) : [];
      out.push({
        reason: 'vstreamerNotOpen',
        message: `${name(s)} reports "VStreamer is not open": ${vstreamerCulprit(s, suspects)} is not connected to its MySQL`,
        ...streamLocation(s),
        details: {
          message: s.message,
          sourceKeyspace: s.sourceKeyspace,
          sourceShard: s.sourceShard,
          ...(suspects.length === 1 ? { sourceTablet: suspects[0]!.alias } : {}),
          ...(suspects.length > 1 ? { sourceTablets: suspects.map((t) => t.alias) } : {}),
          ...(view
            ? {
                candidates: view.candidates.map((t) => ({
                  tablet: t.alias,
                  type: canonicalTabletType(t.type),
                  fullStatus: t.fullStatus === undefined ? 'not read' : t.fullStatus.ok ? 'answered' : 'failed',
                })),
              }
            : {}),
        },
      });
    }
    if (isParked(s) || !s.source) continue;
    if (view) {
      // Streams of one source shard share their picker view, and with it their groups' keys.
      let ofView = groupsByView.get(view);
      if (ofView === undefined) groupsByView.set(view, (ofView = sourceGroups(wf, s, view)));
      for (const { key, make } of ofView) {
        let g = groups.get(key);
        if (!g) {
          g = make();
          groups.set(key, g);
          out.push(g);
        }
        g.streams.push(s);
      }
    }
    const list = targetStreams.get(s.tablet);
    if (list) list.push(s);
    else targetStreams.set(s.tablet, [s]);
  }
  const findings = out.map((x) => ('reason' in x && 'view' in x ? groupFinding(x) : x));
  for (const [alias, streams] of targetStreams) {
    const target = model.tablet(alias);
    const fs = settingsOf(fullStatusOf(target));
    if (!target || !fs) continue;
    const f = targetFinding(wf, target, fs, streams);
    if (f) findings.push(f);
  }
  return findings;
}

/** A source setting problem: an error on every preferred tablet, a warning (`…OnSome`) on only some candidates. */
function settingsReasons<K extends string>(reason: K, what: string): Record<K | `${K}OnSome`, Reason> {
  return {
    [reason]: {
      severity: 'error',
      step: 'catch-up',
      heuristic: true,
      rationale: `Every tablet the picker tries first has ${what}, so the stream errors and never catches up.`,
    },
    [`${reason}OnSome`]: {
      severity: 'warning',
      step: 'catch-up',
      heuristic: true,
      rationale: `Some tablets the stream may pick have ${what}, so it fails whenever it picks one.`,
    },
  } as Record<K | `${K}OnSome`, Reason>;
}

export default defineCheck({
  id: 'source-not-serving',
  needs: ['tablets', 'fullStatus'],
  title: 'Source tablets can serve the streams, with binlog settings VReplication accepts',
  reasons: {
    vstreamerNotOpen: {
      severity: 'error',
      step: 'can-switch-streams',
      heuristic: true,
      rationale:
        'The source tablet the stream picked is not connected to its MySQL; the stream is displayed as Error, which stream-error quotes.',
    },
    allCandidatesUnreachable: {
      severity: 'error',
      step: 'catch-up',
      heuristic: true,
      rationale:
        "No tablet the stream may pick could be reached on its gRPC port (GetFullStatus UNAVAILABLE), the port the tablet picker dials for the tablet's health stream, and the stream is not Running without an error, so none serves its binary log and the catch-up cannot finish.",
    },
    allCandidatesUnreachableWhileStreaming: {
      severity: 'warning',
      step: 'catch-up',
      heuristic: true,
      rationale:
        'SwitchTraffic never calls FullStatus on source tablets and its catch-up waits on the streams as they run (traffic_switcher.go:1032-1057 @v0.24.4), so streams Running without an error are served by a tablet their picker reached though vtctld could not; only a reconnect would need one.',
    },
    someCandidatesUnreachable: {
      severity: 'warning',
      step: 'catch-up',
      heuristic: true,
      rationale:
        'Some tablets the stream may pick could not be reached on their gRPC port (GetFullStatus UNAVAILABLE), so it fails whenever it picks one.',
    },
    ...settingsReasons('minimalRowImage', 'a minimal binlog_row_image, which VReplication refuses to stream'),
    ...settingsReasons('binlogFormatNotRow', 'a binlog_format other than ROW, which VReplication cannot stream'),
    ...settingsReasons('gtidModeOff', 'GTID mode off, so there is no GTID position to stream from'),
    ...settingsReasons('binlogDisabled', 'no binary log at all'),
    logReplicaUpdatesOff: {
      severity: 'warning',
      step: 'catch-up',
      heuristic: true,
      rationale: 'A replica without log_replica_updates lacks the replicated transactions in its binary log.',
    },
    noblobSource: {
      severity: 'warning',
      step: 'catch-up',
      heuristic: true,
      rationale:
        'NOBLOB source images are supported for MoveTables and Reshard only; Vitess validates only the target.',
    },
    targetRowImage: {
      severity: 'error',
      step: 'catch-up',
      heuristic: true,
      rationale:
        "The target primary's binlog_row_image is validated by every running stream, which then stops with an error.",
    },
    noblobNotSupported: {
      severity: 'error',
      step: 'catch-up',
      heuristic: true,
      rationale: 'A NOBLOB target row image is rejected by every running stream of this workflow type.',
    },
  },
  description:
    "A stream reads the binary log of a tablet its controller picks in the source shard: a tablet of the stream's `tablet_types` in its cells (`vitessio/vitess:go/vt/discovery/tablet_picker.go`). When that tablet's tablet server is not connected to its MySQL (starting, MySQL down, being restored), the source answers `VStreamer is not open` (`go/vt/vttablet/tabletserver/vstreamer/engine.go`); the error lands in the stream's message, so Vitess shows the stream as `Error` and SwitchTraffic refuses with `workflow has errors`. Candidate tablets that vtctld cannot reach at all (GetFullStatus UNAVAILABLE) cannot serve the stream either, an error while the streams are not Running without an error (a warning while they are: the picker reached a tablet from the target, and SwitchTraffic's catch-up waits on the running streams; the refresh of those tablets is `unreachable`'s finding); a GetFullStatus answered with an error (MariaDB lacks the super_read_only variable it reads) says nothing about serving: the picker follows StreamHealth. The source MySQL must write row-based binary logs with full row images (`minimal binlog_row_image is not supported by Vitess VReplication`), GTIDs on and, on replicas, `log_replica_updates`; these are read from GetFullStatus. A problem on every tablet the picker tries first (with `in_order:`, the first listed type) is an error, on some of the candidates a warning. The target primary's own `binlog_row_image` is validated by every running stream (`go/vt/vttablet/tabletmanager/vreplication/vreplicator.go` `validateBinlogRowImage`): NOBLOB is rejected for CreateLookupIndex and Migrate (`noblob binlog_row_image is not supported for %s`), anything but FULL or NOBLOB for every workflow (`%s binlog_row_image is not supported by Vitess VReplication`). NOBLOB on the source is supported for MoveTables and Reshard only and reported as a warning for other workflow types.",
  remediation:
    "Check the source tablets with `vtctldclient GetTablets --keyspace <source keyspace> --shard <source shard>` and `vtctldclient GetFullStatus <tablet alias>`; bring a tablet whose tablet server is not serving back (restart vttablet or its MySQL) or remove it from the stream's candidates with `vtctldclient Workflow --keyspace <keyspace> update --workflow <workflow> --tablet-types <types> --cells <cells>`. Fix MySQL settings on the named tablets, e.g. `SET PERSIST binlog_row_image = 'FULL';`, `SET PERSIST binlog_format = 'ROW';`, `log_replica_updates = ON` in my.cnf (needs a restart), and GTID mode ON as documented for your MySQL version; streams pick the change up on their next restart: `vtctldclient Workflow --keyspace <keyspace> stop --workflow <workflow>` then `start`. Then run vtpreflight again.",
  run(model) {
    return model.workflows.flatMap((wf) => workflowFindings(model, wf));
  },
});
