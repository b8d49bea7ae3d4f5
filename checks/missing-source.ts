/**
 * missing-source: streams whose `source` gives the target's VReplication controller nothing to stream from.
 *
 * Upstream: `vitessio/vitess:go/vt/vttablet/tabletmanager/vreplication/controller.go` (`newController` parses the
 * source with `prototext.Unmarshal` and builds the tablet picker; `runBlp` picks a source tablet, then dispatches on
 * `tables` / `key_range` / `filter` and otherwise fails with `missing source`, retried every 5s forever),
 * `go/vt/discovery/tablet_picker.go` (`NewTabletPicker`: `Missing required field(s) for tablet picker: …`,
 * `failed to parse list of tablet types: %v`; `GetMatchingTablets`, `PickForStreaming`), and for SwitchTraffic
 * `go/vt/vtctl/workflow/server.go` `buildTrafficSwitcher` (every source shard must exist and have a primary:
 * `source shard %s/%s currently has no primary tablet`).
 *
 * Failure modes (`details.reason`):
 * - `unparsableSource`: the `source` column does not parse as a BinlogSource.
 * - `pickerFieldsMissing`: no keyspace or shard in the source (not `external_mysql`): the picker is never created.
 * - `invalidTabletTypes`: the `tablet_types` column names something that is no tablet type.
 * - `emptySource`: none of `filter`, `tables`, `key_range`: `missing source` in the target vttablet's log.
 * - `keyspaceNotFound` / `shardNotFound`: the source keyspace or shard has no record in the topology.
 * - `noPrimary`: the source shard record has no primary.
 * - `noTabletOfTypes`: no tablet of the stream's tablet types in the source shard, in any cell.
 * - `noTabletInCells`: such tablets exist, but none in the listed cells (nor the target's own cell).
 * - `noCandidateWhileStreaming` (warning): either of the two, for streams that are Running with no message: they
 *   stream on the connection picked earlier, and fail only when they must pick again.
 * - `cellsUnresolved` (info): as above, but a listed cell name is no cell of any tablet (probably a cell alias), or
 *   the stream lists no cells and only the target's own cell is searched, whose cell alias (newer pickers add its
 *   cells) is not in the readout: not judged.
 * - `errorPickingTablet`: the stream's message shows the picker failed, and the topology does not explain why.
 * Sources in an external cluster (`external_cluster`) or an external MySQL (`external_mysql`) are outside this
 * topology and are only checked for content.
 */
import { defineCheck, streamLocation, type CheckFinding } from '../src/engine/check.js';
import { readsExternalSource } from '../src/model/source-position.js';
import { isStreaming, parseTabletTypesColumn, pickerView, type PickerView } from '../src/model/tablet-picker.js';
import type { ClusterModel, Stream, Workflow } from '../src/model/types.js';
import { pickRule, type VitessVersions } from '../src/vitess/versions.js';

/** Workflow types whose SwitchTraffic builds a traffic switcher that needs every source shard's primary. */
const SWITCHED_TYPES: readonly string[] = ['MoveTables', 'Reshard', 'Migrate'];

const name = (s: Stream) => `stream ${s.id} of ${s.workflow} on ${s.keyspace}/${s.shard}`;

const clip = (text: string, max = 200) => (text.length > max ? `${text.slice(0, max)}…` : text).replace(/\s+/g, ' ');

/** True for streams that never pick a source tablet again: FROZEN ones and stop-after-copy ones that have stopped. */
function isParked(s: Stream): boolean {
  return (
    s.message === 'FROZEN' ||
    (s.state === 'Stopped' && s.message.includes('Stopped after copy') && s.source?.stopAfterCopy === true)
  );
}

const typeList = (types: readonly string[]) =>
  types.length <= 1 ? (types[0] ?? '') : `${types.slice(0, -1).join(', ')} or ${types[types.length - 1]}`;

const typesLabel = (v: PickerView) => `${v.tabletTypes.text}${v.tabletTypes.defaulted ? ", vttablet's default" : ''}`;

type GroupReason =
  | 'keyspaceNotFound'
  | 'shardNotFound'
  | 'noPrimary'
  | 'noTabletOfTypes'
  | 'noTabletInCells'
  | 'cellsUnresolved';
/** Its declared reasons. */
type R =
  | GroupReason
  | 'unparsableSource'
  | 'invalidTabletTypes'
  | 'emptySource'
  | 'noPrimaryPrimaryOnly'
  | 'noPrimaryNotSwitched'
  | 'emptySourceName'
  | 'pickerFieldsMissing'
  | 'noCandidateWhileStreaming'
  | 'errorPickingTablet';

/** One source-side problem shared by several streams of a workflow. */
interface Group {
  readonly reason: GroupReason;
  readonly wf: Workflow;
  readonly sourceKeyspace: string;
  readonly sourceShard: string;
  readonly streams: Stream[];
  readonly view?: PickerView;
}

type Entry = { readonly finding: CheckFinding<R> } | { readonly group: Group };

/** "stream 1 of wf on ks/-80" or "2 streams of workflow wf in ks", and the matching verb ending. */
function subject(g: Group): { text: string; s: string } {
  const n = g.streams.length;
  const one = g.streams[0]!;
  return n === 1
    ? { text: name(one), s: 's' }
    : { text: `${n} streams of workflow ${g.wf.name} in ${g.wf.keyspace}`, s: '' };
}

const cellsOf = (v: PickerView) => [...new Set(v.ofTypes.map((t) => t.cell))].sort().join(', ');

function groupMessage(g: Group): string {
  const sub = subject(g);
  const src = `${g.sourceKeyspace}/${g.sourceShard}`;
  const v = g.view;
  switch (g.reason) {
    case 'keyspaceNotFound':
      return `${sub.text} read${sub.s} from keyspace ${g.sourceKeyspace}, which does not exist in the topology`;
    case 'shardNotFound':
      return `${sub.text} read${sub.s} from shard ${src}, which has no shard record in the topology`;
    case 'noPrimary':
      return `source shard ${src}, read by ${sub.text}, has no primary tablet`;
    case 'noTabletOfTypes':
      return `source shard ${src} has no ${typeList(v!.tabletTypes.types)} tablet in any cell (tablet types ${typesLabel(v!)}), so ${sub.text} cannot pick a source tablet`;
    case 'noTabletInCells':
      return `source shard ${src} has no ${typeList(v!.tabletTypes.types)} tablet in cells ${v!.cells.join(', ')} (tablet types ${typesLabel(v!)}), so ${sub.text} cannot pick a source tablet; such tablets exist only in ${cellsOf(v!)}`;
    case 'cellsUnresolved':
      return v!.unresolvedCells.length > 0
        ? `source shard ${src} has no ${typeList(v!.tabletTypes.types)} tablet in cells ${v!.cells.join(', ')} where ${sub.text} may pick one, unless ${v!.unresolvedCells.join(', ')} is a cell alias covering ${cellsOf(v!)}`
        : `source shard ${src} has no ${typeList(v!.tabletTypes.types)} tablet in cell ${v!.cells.join(', ')} of ${sub.text}, which lists no cells: it finds one only if that cell belongs to a cell alias covering ${cellsOf(v!)}`;
  }
}

/**
 * The declared reason of a group: a missing primary is Vitess's refusal only where SwitchTraffic runs; no candidate
 * tablet stops streams that must pick one, not streams still connected.
 */
function groupReason(g: Group): R {
  if ((g.reason === 'noTabletOfTypes' || g.reason === 'noTabletInCells') && g.streams.every(isStreaming))
    return 'noCandidateWhileStreaming';
  if (g.reason !== 'noPrimary') return g.reason;
  if (SWITCHED_TYPES.includes(g.wf.type)) return 'noPrimary';
  // Only SwitchTraffic needs the primary itself; the streams need it only when PRIMARY is their only tablet type.
  return g.streams.some(isPrimaryOnly) ? 'noPrimaryPrimaryOnly' : 'noPrimaryNotSwitched';
}

function isPrimaryOnly(s: Stream): boolean {
  const t = parseTabletTypesColumn(s.tabletTypes);
  return t.types.length === 1 && t.types[0] === 'PRIMARY';
}

function groupFinding(g: Group): CheckFinding<R> {
  const v = g.view;
  const single = g.streams.length === 1 ? g.streams[0]! : undefined;
  const reason = groupReason(g);
  return {
    reason,
    message:
      reason === 'noCandidateWhileStreaming'
        ? `${groupMessage(g)}; ${g.streams.length === 1 ? 'it is' : 'they are'} Running on a connection made earlier, so SwitchTraffic proceeds, but a reconnect (a source tablet restart, or during the catch-up after writes are stopped) fails`
        : groupMessage(g),
    ...(reason === 'noPrimary' ? { vitessArgs: [g.sourceKeyspace, g.sourceShard] } : {}),
    keyspace: g.wf.keyspace,
    workflow: g.wf.name,
    ...(single ? { shard: single.shard, streamId: single.id, tablet: single.tablet } : {}),
    details: {
      sourceKeyspace: g.sourceKeyspace,
      sourceShard: g.sourceShard,
      streams: g.streams.map((s) => ({ shard: s.shard, streamId: s.id })),
      ...(v
        ? {
            tabletTypes: v.tabletTypes.text,
            tabletTypesDefaulted: v.tabletTypes.defaulted,
            cells: v.cells,
            ...(v.unresolvedCells.length > 0 ? { unresolvedCells: v.unresolvedCells } : {}),
            tabletsOfTypes: v.ofTypes.map((t) => ({ tablet: t.alias, cell: t.cell, type: t.type })),
          }
        : {}),
      ...(g.reason === 'noTabletInCells'
        ? { note: "newer Vitess also searches the cells of the target cell's alias, which the readout does not hold" }
        : {}),
    },
  };
}

/**
 * The prefix Vitess prints for a row BuildTargets cannot read; Go's own parse error follows it, given as `cause` when
 * it is predictable (`…` otherwise: protobuf-go varies its text on purpose).
 */
const BUILD_PREFIX: Readonly<Record<string, string>> = {
  unparsableSource: 'error unmarshaling binlog_source field from vreplication table record',
  invalidTabletTypes: 'error parsing the tablet_types field from vreplication table record',
};

function streamFinding(
  s: Stream,
  reason: R,
  message: string,
  extra: Record<string, unknown> = {},
  cause = '…',
): CheckFinding<R> {
  const prefix = BUILD_PREFIX[reason];
  return {
    reason,
    message,
    // Escape hatch (the runner's template has no place for it): the tablet manager wraps every RPC's error with its
    // name and the tablet (`HandleRPCPanic`,
    // go/vt/vttablet/tabletmanager/rpc_server.go:73 @v0.21.5 and @v0.19.10, :80 @v0.24.4), and BuildTargets returns
    // it as is: v21.0.5 printed `TabletManager.ReadVReplicationWorkflow on zone1-0000000200: error parsing …`.
    ...(prefix !== undefined
      ? { vitessError: `TabletManager.ReadVReplicationWorkflow on ${s.tablet}: ${prefix}: ${cause}` }
      : {}),
    ...streamLocation(s),
    details: { state: s.state, source: clip(s.sourceText, 500), ...extra },
  };
}

/**
 * The stream-level problems: the controller cannot be created or has nothing to run. Returns true when one was
 * found.
 */
function contentFindings(s: Stream, out: Entry[], vitess: VitessVersions): boolean {
  if (!s.source) {
    out.push({
      finding: streamFinding(
        s,
        'unparsableSource',
        `${name(s)} has a source that does not parse as a BinlogSource: ${clip(s.sourceError ?? 'unknown error')}`,
        {
          parseError: s.sourceError,
        },
      ),
    });
    return true;
  }
  const src = s.source;
  if (src.externalMysql === '' && (src.keyspace === '' || src.shard === '')) {
    const missing = [...(src.keyspace === '' ? ['Keyspace'] : []), ...(src.shard === '' ? ['Shard'] : [])];
    const pickerError = `Missing required field(s) for tablet picker: ${missing.join(', ')}`;
    const without = `${name(s)} has a source without ${missing.map((m) => m.toLowerCase()).join(' and ')}`;
    // Before v24 newController creates the tablet picker and fails with it: no controller runs the stream
    // (controller.go:162-165 @v0.23.3). v24 keeps the picker's parameters and creates the picker on every pick,
    // so the controller runs, stores `Error creating tablet picker: …` as the message and retries, and the row stays
    // Running (controller.go:408-413 @v0.24.4); it never reaches `missing source` (:361). Measured on real v24.0.4.
    const rule = pickRule(vitess, [
      { versions: '<24', value: 'noController' as const },
      { versions: '>=24', value: 'pickerRetried' as const },
    ]);
    out.push({
      finding: streamFinding(
        s,
        'pickerFieldsMissing',
        rule.value === 'noController'
          ? `${without}, so its controller never starts`
          : `${without}: its controller retries forever, leaving the stream ${s.state} with the message "Error creating tablet picker: ${pickerError}", and never replicates`,
        {
          vttabletError: pickerError,
          ...(rule.value === 'pickerRetried' ? { streamMessage: `Error creating tablet picker: ${pickerError}` } : {}),
          ...(rule.note !== null ? { versionNote: rule.note } : {}),
        },
      ),
    });
    // Every action that builds the traffic switcher (SwitchTraffic, ReverseTraffic, complete, cancel) reads the
    // source shard record of each stream first, and the topology refuses an empty keyspace or shard name before any
    // lookup (go/vt/vtctl/workflow/server.go:2382 GetShard, go/vt/topo/validator.go:15 @v0.24.4; the same from v19).
    // Measured on real v19.0.10, v21.0.5, v22.0.4 and v24.0.4: `SwitchTraffic --dry-run` fails with it.
    out.push({
      finding: {
        ...streamFinding(
          s,
          'emptySourceName',
          `${without}: the action reads the source shard record of every stream first and the topology refuses the empty name`,
        ),
        vitessArgs: [],
      },
    });
    return true;
  }
  if (src.externalMysql === '') {
    const types = parseTabletTypesColumn(s.tabletTypes);
    if (types.invalid.length > 0) {
      out.push({
        finding: streamFinding(
          s,
          'invalidTabletTypes',
          `${name(s)} has tablet_types "${s.tabletTypes}", which names no tablet type (${types.invalid.map((t) => `"${t}"`).join(', ')}), so its controller never starts`,
          {
            tabletTypes: s.tabletTypes,
            invalid: types.invalid,
            vttabletError: `failed to parse list of tablet types: ${types.text}`,
          },
          // The first name that is no tablet type, as topoproto.ParseTabletType words it (go/vt/topo/topoproto/
          // tablet.go:177 @v0.24.4, :181 @v0.19.10), wrapped by ReadVReplicationWorkflow (rpc_vreplication.go:441
          // @v0.24.4, :156 @v0.19.10).
          `unknown TabletType ${types.invalid[0]}`,
        ),
      });
      return true;
    }
  }
  if (src.filter === null && src.tables.length === 0 && src.keyRange === null) {
    out.push({
      finding: streamFinding(
        s,
        'emptySource',
        `${name(s)} has a source with no filter, tables or key range: its controller fails with "missing source" every 5 seconds and never replicates`,
        {
          vttabletError: 'missing source',
        },
      ),
    });
    return true;
  }
  return false;
}

function workflowEntries(model: ClusterModel, wf: Workflow, vitess: VitessVersions): Entry[] {
  const out: Entry[] = [];
  const groups = new Map<string, Group>();
  const addToGroup = (key: string, make: () => Group, s: Stream) => {
    let g = groups.get(key);
    if (!g) {
      g = make();
      groups.set(key, g);
      out.push({ group: g });
    }
    g.streams.push(s);
  };
  for (const s of wf.streams) {
    if (contentFindings(s, out, vitess)) continue;
    if (readsExternalSource(s) || !model.keyspacesRead.ok) continue;
    const ks = s.sourceKeyspace;
    const sh = s.sourceShard;
    const base = { wf, sourceKeyspace: ks, sourceShard: sh, streams: [] as Stream[] };
    const keyspace = model.keyspace(ks);
    if (!keyspace) {
      addToGroup(`ks ${ks}`, () => ({ ...base, reason: 'keyspaceNotFound' }), s);
      continue;
    }
    if (!keyspace.shards.ok) continue;
    const shard = keyspace.shards.value.get(sh);
    if (!shard) {
      addToGroup(`shard ${ks}/${sh}`, () => ({ ...base, reason: 'shardNotFound' }), s);
      continue;
    }
    const view = pickerView(model, s);
    const parked = isParked(s);
    let explained = false;
    if (shard.primaryAlias === null && (SWITCHED_TYPES.includes(wf.type) || !parked)) {
      addToGroup(`primary ${ks}/${sh}`, () => ({ ...base, reason: 'noPrimary', ...(view ? { view } : {}) }), s);
      explained = isPrimaryOnly(s);
    }
    if (view && !parked && !view.primaryOnly && view.candidates.length === 0) {
      // Newer pickers also search the cells of the target cell's alias, and listed names may be aliases: neither is in
      // the readout, so only explicitly listed, known cells are judged.
      const unresolved = view.unresolvedCells.length > 0 || view.listedCells.length === 0;
      const reason: GroupReason =
        view.ofTypes.length === 0 ? 'noTabletOfTypes' : unresolved ? 'cellsUnresolved' : 'noTabletInCells';
      addToGroup(
        `${reason} ${ks}/${sh} ${view.tabletTypes.text} ${view.cells.join(',')}`,
        () => ({ ...base, reason, view }),
        s,
      );
      explained = explained || reason !== 'cellsUnresolved';
    }
    if (!explained && s.message.startsWith('Error picking tablet')) {
      out.push({
        finding: streamFinding(
          s,
          'errorPickingTablet',
          !view
            ? `${name(s)} could not pick a source tablet of ${ks}/${sh} (the tablet list was not read): ${clip(s.message)}`
            : view.candidates.length > 0
              ? `${name(s)} could not pick a source tablet of ${ks}/${sh} although the topology lists candidates (${view.candidates.map((t) => t.alias).join(', ')}): ${clip(s.message)}`
              : `${name(s)} could not pick a source tablet of ${ks}/${sh}, which has no ${typeList(view.tabletTypes.types)} tablet in cells ${view.cells.join(', ')}: ${clip(s.message)}`,
          {
            message: s.message,
            sourceKeyspace: ks,
            sourceShard: sh,
            ...(view
              ? {
                  tabletTypes: view.tabletTypes.text,
                  cells: view.cells,
                  candidates: view.candidates.map((t) => t.alias),
                }
              : {}),
          },
        ),
      });
    }
  }
  return out;
}

export default defineCheck({
  id: 'missing-source',
  needs: ['topology', 'tablets'],
  title: 'Every stream has a source it can stream from',
  reasons: {
    // `ReadVReplicationWorkflow(s)` (BuildTargets, GetWorkflows) fails on the row before anything else is checked;
    // vterrors.Wrap appends Go's own error, which is not reproduced: the quote ends in `…`.
    unparsableSource: {
      severity: 'error',
      step: 'build-targets',
      vitess: {
        template: 'error unmarshaling binlog_source field from vreplication table record: %v',
        file: 'go/vt/vttablet/tabletmanager/rpc_vreplication.go',
        line: 479,
        versions: { from: 18 },
      },
    },
    invalidTabletTypes: {
      severity: 'error',
      step: 'build-targets',
      vitess: {
        template: 'error parsing the tablet_types field from vreplication table record: %v',
        file: 'go/vt/vttablet/tabletmanager/rpc_vreplication.go',
        line: 445,
        versions: { from: 18 },
      },
    },
    emptySource: {
      severity: 'error',
      step: 'build-switcher',
      heuristic: true,
      rationale:
        'A source with no filter, tables or key range only logs missing source on the target vttablet and never replicates.',
    },
    keyspaceNotFound: {
      severity: 'error',
      step: 'build-switcher',
      heuristic: true,
      rationale:
        'A source keyspace with no record fails the GetShard of buildTrafficSwitcher and gives the stream nothing to read.',
    },
    shardNotFound: {
      severity: 'error',
      step: 'build-switcher',
      heuristic: true,
      rationale:
        'A source shard with no record fails the GetShard of buildTrafficSwitcher and gives the stream nothing to read.',
    },
    noPrimary: {
      severity: 'error',
      step: 'build-switcher',
      vitess: {
        template: 'source shard %s/%s currently has no primary tablet',
        file: 'go/vt/vtctl/workflow/server.go',
        line: 2343,
        versions: { from: 17 },
      },
    },
    noPrimaryPrimaryOnly: {
      severity: 'error',
      step: 'catch-up',
      heuristic: true,
      rationale:
        'Streams that may only read from the primary have no tablet to stream from while the source shard has none.',
    },
    noPrimaryNotSwitched: {
      severity: 'warning',
      step: 'catch-up',
      heuristic: true,
      rationale:
        'The workflow is never switched and its streams can use replicas, but the source shard has no primary to fail over to.',
    },
    emptySourceName: {
      severity: 'error',
      step: 'build-switcher',
      vitess: {
        template: 'empty name',
        file: 'go/vt/topo/validator.go',
        line: 15,
        release: 'v0.24.4',
        versions: { from: 19 },
      },
    },
    pickerFieldsMissing: {
      severity: 'error',
      step: 'catch-up',
      heuristic: true,
      rationale:
        'Without keyspace or shard the tablet picker is never created, so the stream never replicates (only vttablet logs it).',
    },
    noTabletOfTypes: {
      severity: 'error',
      step: 'catch-up',
      heuristic: true,
      rationale:
        "No tablet of the stream's types exists in the source shard: the picker fails and the stream shows Error picking tablet.",
    },
    noTabletInCells: {
      severity: 'error',
      step: 'catch-up',
      heuristic: true,
      rationale:
        "No tablet of the stream's types is in its cells: the picker fails and the stream shows Error picking tablet.",
    },
    noCandidateWhileStreaming: {
      severity: 'warning',
      step: 'catch-up',
      heuristic: true,
      rationale:
        'A Running stream keeps the connection its picker made, so a source shard without a tablet of its types stops it only when it must reconnect, which the catch-up after writes stop may need.',
    },
    cellsUnresolved: {
      severity: 'info',
      step: 'catch-up',
      heuristic: true,
      rationale:
        'Cell aliases are not in the readout, so a candidate outside the listed cells may or may not be found.',
    },
    errorPickingTablet: {
      severity: 'error',
      step: 'catch-up',
      heuristic: true,
      rationale: 'The stream already failed to pick a source tablet and the topology does not explain why.',
    },
  },
  description:
    "Each stream's `source` column tells the target's VReplication controller what to replicate and from where (`vitessio/vitess:go/vt/vttablet/tabletmanager/vreplication/controller.go`). A source that does not parse, that names no keyspace or shard, or whose `tablet_types` do not parse keeps the controller from starting at all; a source with none of `filter`, `tables` or `key_range` fails with `missing source`, which is only logged on the target vttablet and retried every 5 seconds, so the stream silently never replicates. The source keyspace and shard must exist and the tablet picker (`go/vt/discovery/tablet_picker.go`) must find a tablet of the stream's `tablet_types` (empty: vttablet's `--vreplication_tablet_type`, by default `in_order:REPLICA,PRIMARY`) in its cells (the row's `cell` list plus the target tablet's own cell and, in newer releases, the cells of that cell's alias; PRIMARY alone means the shard's primary, in any cell); otherwise the stream shows `Error picking tablet: …` after 150 seconds and SwitchTraffic refuses with `workflow has errors`. SwitchTraffic itself needs every source shard to have a primary: `source shard %s/%s currently has no primary tablet` (`go/vt/vtctl/workflow/server.go` `buildTrafficSwitcher`). Cell aliases are not in the readout: when a listed cell is no cell of any tablet, or the stream lists no cells, a missing candidate is reported as info only. External sources (`external_cluster`, `external_mysql`) are outside this topology and are only checked for content.",
  remediation:
    "Inspect the stream with `vtctldclient Workflow --keyspace <keyspace> show --workflow <workflow>` and the source shard with `vtctldclient GetShard <source keyspace>/<source shard>` and `vtctldclient GetTablets --keyspace <source keyspace> --shard <source shard>`. A source shard without a primary needs one: `vtctldclient PlannedReparentShard <source keyspace>/<source shard>` (or `EmergencyReparentShard` if the old primary is gone). When no tablet of the stream's types is in its cells, add such tablets or change the workflow: `vtctldclient Workflow --keyspace <keyspace> update --workflow <workflow> --cells <cells> --tablet-types <types>`. A stream whose source does not parse, is empty or names a keyspace or shard that does not exist cannot be repaired in place: cancel the workflow with `vtctldclient Workflow --keyspace <keyspace> delete --workflow <workflow>` (MoveTables/Reshard: `vtctldclient MoveTables --target-keyspace <keyspace> --workflow <workflow> cancel`) and create it again.",
  run(model, options) {
    return model.workflows.flatMap((wf) =>
      workflowEntries(model, wf, options.vitess).map((e) => ('finding' in e ? e.finding : groupFinding(e.group))),
    );
  },
});
