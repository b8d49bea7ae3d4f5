/**
 * What the VReplication tablet picker of one stream can choose from, in the terms of the topology that was read.
 *
 * Upstream: `vitessio/vitess:go/vt/vttablet/tabletmanager/vreplication/controller.go` `newController` (the row's
 * `cell`, else the target tablet's own cell; the row's `tablet_types`, else vttablet's `--vreplication_tablet_type`,
 * documented default `in_order:REPLICA,PRIMARY`) and `go/vt/discovery/tablet_picker.go` (`NewTabletPicker`,
 * `GetMatchingTablets`, `PickForStreaming`).
 * - PRIMARY as the only type: the shard record's primary, whatever its cell.
 * - Otherwise: tablets of the listed types registered in the listed cells. Newer pickers always add the target
 *   tablet's own cell (`PreferLocalWithAlias`) and the cells of its cell alias; listed names that are cell aliases
 *   are expanded and unknown names ignored. Aliases are not in the readout, so a listed name that is no cell of any
 *   tablet is reported as unresolved rather than guessed.
 * - `in_order:` orders the candidates by type (the first dialable one wins); without it they are shuffled.
 *
 * `src/model/source-position.ts` `pickerCandidates` answers a narrower question for the position checks (which
 * tablets will actually be read from, falling back to every cell); this module keeps the cells apart so that the
 * source checks can tell "no tablet anywhere" from "none in the listed cells".
 */
import { DEFAULT_VREPLICATION_TABLET_TYPES, readsExternalSource } from './source-position.js';
import type { ClusterModel, Shard, Stream, Tablet } from './types.js';

/** `topodata.TabletType` names `topoproto.ParseTabletType` accepts (case-insensitive; MASTER and BATCH are aliases). */
export const TABLET_TYPE_NAMES: readonly string[] = [
  'UNKNOWN',
  'PRIMARY',
  'MASTER',
  'REPLICA',
  'RDONLY',
  'BATCH',
  'SPARE',
  'EXPERIMENTAL',
  'BACKUP',
  'RESTORE',
  'DRAINED',
];

/** Canonical name of a tablet type (MASTER → PRIMARY, BATCH → RDONLY, upper case). */
export function canonicalTabletType(name: string): string {
  const t = name.trim().toUpperCase();
  return t === 'MASTER' ? 'PRIMARY' : t === 'BATCH' ? 'RDONLY' : t;
}

/** A stream's `tablet_types` column as `discovery.ParseTabletTypesAndOrder` reads it. */
export interface StreamTabletTypes {
  /** The text the picker parses: the column, or vttablet's default when the column is empty. */
  readonly text: string;
  /** True when the column was empty and vttablet's default applies (an operator may have changed that flag). */
  readonly defaulted: boolean;
  readonly inOrder: boolean;
  /** Canonical type names in the listed order, duplicates removed. */
  readonly types: readonly string[];
  /** Listed names that are no tablet type (the picker, and so the stream's controller, is then not created). */
  readonly invalid: readonly string[];
}

export function parseTabletTypesColumn(column: string): StreamTabletTypes {
  // As Go reads it, nothing trimmed: only an empty column takes vttablet's default, and `topoproto.ParseTabletType`
  // upper-cases each comma-separated name as it is, so ` replica` is no tablet type (go/vt/topo/topoproto/tablet.go
  // :174-196 @v0.24.4, :181 @v0.19.10; go/vt/discovery/utils.go:29-38 @v0.24.4).
  const defaulted = column === '';
  const text = defaulted ? DEFAULT_VREPLICATION_TABLET_TYPES : column;
  const inOrder = text.startsWith('in_order:');
  const list = inOrder ? text.slice('in_order:'.length) : text;
  const types: string[] = [];
  const invalid: string[] = [];
  for (const raw of list.split(',')) {
    if (!TABLET_TYPE_NAMES.includes(raw.toUpperCase())) {
      invalid.push(raw);
      continue;
    }
    const t = canonicalTabletType(raw);
    if (!types.includes(t)) types.push(t);
  }
  return { text, defaulted, inOrder, types, invalid };
}

/**
 * A stream Running with no message: it streams on a connection its picker made earlier (the tablet it picked is still
 * serving it), and picks again only when that connection breaks. SwitchTraffic's catch-up waits on such a stream as
 * it runs (`vitessio/vitess` go/vt/vtctl/workflow/traffic_switcher.go:1032-1057 @v0.24.4 `waitForCatchup`:
 * VReplicationWaitForPos on the target primary, no restart).
 */
export const isStreaming = (s: Stream): boolean => s.state === 'Running' && s.message.trim() === '';

/** The picker's view of one stream's upstream shard. */
export interface PickerView {
  /** The upstream (source) shard record. */
  readonly shard: Shard;
  readonly tabletTypes: StreamTabletTypes;
  /** PRIMARY is the only type: the shard record's primary is the only candidate, in any cell. */
  readonly primaryOnly: boolean;
  /**
   * The target tablet's cell (always searched by newer pickers), null when the target tablet is not in the tablet list.
   */
  readonly localCell: string | null;
  /** Cells listed in the row's `cell` column (empty: the local cell only). */
  readonly listedCells: readonly string[];
  /** Listed names that are no cell of any tablet in the cluster: cell aliases, or cells without tablets. */
  readonly unresolvedCells: readonly string[];
  /** The cells searched here: listed ∪ local, sorted. */
  readonly cells: readonly string[];
  /**
   * Tablets the picker may choose: of the listed types in `cells` (PRIMARY only: the primary), by type order then
   * alias.
   */
  readonly candidates: readonly Tablet[];
  /** Tablets of the listed types in any cell (PRIMARY only: the primary). */
  readonly ofTypes: readonly Tablet[];
  /** The candidates the picker tries first: with `in_order:`, those of the first listed type that has any; else all. */
  readonly preferred: readonly Tablet[];
}

const cellCache = new WeakMap<ClusterModel, ReadonlySet<string>>();

/** Every cell that has a tablet, once per model (per stream it made the picker O(streams × tablets)). */
function cellsOf(model: ClusterModel): ReadonlySet<string> {
  let cells = cellCache.get(model);
  if (cells === undefined) cellCache.set(model, (cells = new Set([...model.tablets.values()].map((t) => t.cell))));
  return cells;
}

/**
 * The picker's view for a stream, or null when it cannot be known: the source does not parse or is external
 * (`external_mysql`, `external_cluster`), its keyspace or shard is not a shard record that was read, the tablet
 * list was not read, or the tablet types do not parse.
 */
export function pickerView(model: ClusterModel, s: Stream): PickerView | null {
  // Asked for the same stream by several checks: its answer is kept with the stream (per model) too.
  let byStream = streamViewCache.get(model);
  if (byStream === undefined) streamViewCache.set(model, (byStream = new WeakMap()));
  let view = byStream.get(s);
  if (view === undefined) byStream.set(s, (view = sharedPickerView(model, s)));
  return view;
}

const streamViewCache = new WeakMap<ClusterModel, WeakMap<Stream, PickerView | null>>();

function sharedPickerView(model: ClusterModel, s: Stream): PickerView | null {
  if (!s.source || readsExternalSource(s) || !model.tabletsRead.ok) return null;
  // The view depends on the stream only through these; streams sharing them (thousands of one source shard in a
  // Materialize) share one view, computed once per model.
  const localCell = model.tablet(s.tablet)?.cell ?? null;
  const key = `${s.sourceKeyspace}\u0000${s.sourceShard}\u0000${s.tabletTypes}\u0000${s.cell}\u0000${localCell ?? '\u0001'}`;
  let views = viewCache.get(model);
  if (views === undefined) viewCache.set(model, (views = new Map()));
  let view = views.get(key);
  if (view === undefined) views.set(key, (view = computePickerView(model, s, localCell)));
  return view;
}

const viewCache = new WeakMap<ClusterModel, Map<string, PickerView | null>>();

function computePickerView(model: ClusterModel, s: Stream, localCell: string | null): PickerView | null {
  const shard = model.shard(s.sourceKeyspace, s.sourceShard);
  if (!shard) return null;
  const tabletTypes = parseTabletTypesColumn(s.tabletTypes);
  if (tabletTypes.invalid.length > 0) return null;
  const { types, inOrder } = tabletTypes;
  const listedCells = [
    ...new Set(
      s.cell
        .split(',')
        .map((c) => c.trim())
        .filter((c) => c !== ''),
    ),
  ];
  const knownCells = cellsOf(model);
  const unresolvedCells = listedCells.filter((c) => !knownCells.has(c));
  const cells = [...new Set([...listedCells, ...(localCell !== null ? [localCell] : [])])].sort();
  const rank = (t: Tablet) => types.indexOf(canonicalTabletType(t.type));
  const byTypeThenAlias = (a: Tablet, b: Tablet) =>
    rank(a) - rank(b) || (a.alias < b.alias ? -1 : a.alias > b.alias ? 1 : 0);

  const primaryOnly = types.length === 1 && types[0] === 'PRIMARY';
  let ofTypes: Tablet[];
  let candidates: Tablet[];
  if (primaryOnly) {
    const primary = shard.primaryAlias ? model.tablet(shard.primaryAlias) : undefined;
    ofTypes = primary && canonicalTabletType(primary.type) === 'PRIMARY' ? [primary] : [];
    candidates = ofTypes;
  } else {
    ofTypes = shard.tablets.filter((t) => rank(t) >= 0).sort(byTypeThenAlias);
    candidates = ofTypes.filter((t) => cells.includes(t.cell));
  }
  let preferred: Tablet[] = candidates;
  if (inOrder) {
    const first = types.find((type) => candidates.some((t) => canonicalTabletType(t.type) === type));
    preferred = first === undefined ? [] : candidates.filter((t) => canonicalTabletType(t.type) === first);
  }
  return {
    shard,
    tabletTypes,
    primaryOnly,
    localCell,
    listedCells,
    unresolvedCells,
    cells,
    candidates,
    ofTypes,
    preferred,
  };
}
