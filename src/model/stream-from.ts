/**
 * `areTabletsAvailableToStreamFrom` (`vitessio/vitess:go/vt/vtctl/workflow/utils.go`), which `switchWrites` runs
 * before stopping writes for the workflow it switches: per target shard of that workflow, a tablet picker with the
 * workflow's `tablet_types` (vtctld's default when empty), its `cell` column (else the shard primary's cell) plus the
 * primary's cell as the local cell; no matching tablet ⇒ `no tablet found to source data in keyspace %s, shard %s`.
 * Shared by reverse-tablets-missing (SwitchTraffic) and reverse-traffic (ReverseTraffic, run on `<wf>_reverse`).
 * Tablet health is not visible here; cell aliases and unknown cells are not judged.
 */
import { canonicalTabletType, parseTabletTypesColumn } from './tablet-picker.js';
import type { ClusterModel, Workflow } from './types.js';

/** The types vtctld's picker uses when the workflow has none (`vitessio/vitess:go/vt/vtctl/workflow/utils.go`). */
export const VTCTLD_DEFAULT_TYPES = 'replica,rdonly,primary';

/** A target shard of the workflow without a tablet to stream from. */
export interface NoStreamTablet {
  readonly shard: string;
  readonly cells: readonly string[];
  readonly types: readonly string[];
  /** The `tablet_types` text the picker is given. */
  readonly typesText: string;
}

/** The workflow's target shards with no tablet the picker may choose; null when not judged. */
export function shardsWithoutStreamTablets(model: ClusterModel, wf: Workflow): NoStreamTablet[] | null {
  if (!model.tabletsRead.ok) return null;
  const first = wf.streams[0];
  if (first === undefined) return null;
  const knownCells = new Set([...model.tablets.values()].map((t) => t.cell));
  const typesText = first.tabletTypes.trim() === '' ? VTCTLD_DEFAULT_TYPES : first.tabletTypes;
  const types = parseTabletTypesColumn(typesText);
  if (types.invalid.length > 0) return null; // the picker is not created: another failure, not this one
  const listed = first.cell
    .split(',')
    .map((c) => c.trim())
    .filter((c) => c !== '');
  if (listed.some((c) => !knownCells.has(c))) return null; // a cell alias or an unknown cell: not judged
  const out: NoStreamTablet[] = [];
  for (const shardName of wf.targetShards) {
    const shard = model.shard(wf.keyspace, shardName);
    const primary = shard?.primaryAlias ? model.tablet(shard.primaryAlias) : undefined;
    if (shard === undefined || primary === undefined) continue;
    const cells = new Set(listed.length > 0 ? listed : [primary.cell]);
    cells.add(primary.cell); // the local cell the picker is created with
    const onlyPrimary = types.types.length === 1 && types.types[0] === 'PRIMARY';
    const candidates = onlyPrimary
      ? [primary]
      : shard.tablets.filter((t) => cells.has(t.cell) && types.types.includes(canonicalTabletType(t.type)));
    if (candidates.length > 0) continue;
    out.push({ shard: shardName, cells: [...cells].sort(), types: [...types.types], typesText });
  }
  return out;
}
