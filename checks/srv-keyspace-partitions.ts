/**
 * The serving partitions of a Reshard's keyspace must be whole before its reads switch, and writes should not switch
 * before reads.
 *
 * Upstream `vitessio/vitess` (read at v0.19.10 and v0.20.8 through v0.24.4, the same in each):
 * - `go/vt/vtctl/workflow/server.go` `switchReads`: for a SHARDS migration `sw.switchShardReads(ctx, req.Cells, …)`
 *   with the request's `--cells` only (none = every cell); its error is wrapped by `defaultErrorHandler` (v21+,
 *   `handleError` before, both `vterrors.Wrap`): `failed to switch read traffic for the shards: …` (server.go:3113
 *   @v0.24.4). Nothing skips a Reshard whose reads are already switched.
 * - `go/vt/vtctl/workflow/traffic_switcher.go` `switchShardReads`: first `ValidateSrvKeyspace(target keyspace,
 *   strings.Join(cells, ","))`, wrapped `Before switching shard reads, found SrvKeyspace for %s is corrupt in cell %s`
 *   (traffic_switcher.go:628 @v0.24.4) with the joined `--cells`: empty without them, which prints `in cell : …`.
 *   The same validation over every cell (`""`) runs again in `changeShardRouting` at the write switch, after the
 *   journals are written and target writes are allowed ("Before changing shard routes, found SrvKeyspace for %s is
 *   corrupt").
 * - `go/vt/topo/srv_keyspace.go` `ValidateSrvKeyspace` (:726 @v0.24.4): `ExpandCells` (every cell of the topology for
 *   `""`), then per cell `GetSrvKeyspace` and `OrderAndCheckPartitions`: each partition's shard references sorted by
 *   start, then the first must start at the minimum key (:698), the last end at the maximum key (:702), neighbours
 *   must agree on having a key range (:710) and be contiguous (:717). The first error stops the validation.
 * The workflow's own `cell` column plays no part (`ts.optCells` is used only by the stream picker).

 * Writes before reads: `vtctldclient SwitchTraffic --tablet-types primary` (or without `rdonly`) while reads
 * of a type are still served by the source in some cell switches writes anyway: `Complete` then refuses until the
 * reads are switched, even in cells with no RDONLY tablets at all (#20923, #10421; PR #20924 would refuse
 * `cannot switch writes for workflow <wf> before reads are switched`, not merged in the releases modelled).
 *
 * Not judged: cells whose SrvKeyspace is missing (`serving-graph-missing`), partitions with no shard reference (which
 * `OrderAndCheckPartitions` indexes without a length check).
 */
import { defineCheck, type CheckFinding, type Reasons } from '../src/engine/check.js';
import { requestedTabletTypes } from '../src/engine/options.js';
import { cellReads, type ReadTabletType } from '../src/model/read-state.js';
import { migrationType } from '../src/model/traffic-switch.js';
import { type Corrupt, partitionError } from '../src/model/srv-keyspace-partitions.js';
import type { ClusterModel, Workflow } from '../src/model/types.js';
import { byCodeUnit } from '../src/text.js';

const SRV = 'go/vt/topo/srv_keyspace.go';

const SWITCH_READS_WRAP = 'failed to switch read traffic for the shards';
const BEFORE_READS_WRAP = 'Before switching shard reads, found SrvKeyspace for %s is corrupt in cell %s';

/** A corruption refused before the read switch: the srv_keyspace.go literal inside both wrappers Vitess prints. */
const corruptReason = (inner: string, line: number) =>
  ({
    severity: 'error',
    step: 'switch-reads',
    vitess: {
      template: `${SWITCH_READS_WRAP}: ${BEFORE_READS_WRAP}: ${inner}`,
      file: 'go/vt/vtctl/workflow/server.go',
      line: 3113,
      release: 'v0.24.4',
      wraps: {
        literal: `${BEFORE_READS_WRAP}: ${inner}`,
        file: 'go/vt/vtctl/workflow/traffic_switcher.go',
        line: 628,
        wraps: { literal: inner, file: SRV, line },
      },
      versions: { from: 19 },
    },
  }) as const;

/**
 * The first corrupt partition `ValidateSrvKeyspace` finds: before the read switch (`reads`, over SwitchTraffic's
 * `--cells`, else every cell), or, when only writes are switched, in `changeShardRouting` over every cell (`writes`),
 * after the point of no return.
 */
function corruptFindings(
  model: ClusterModel,
  wf: Workflow,
  mode: 'reads' | 'writes',
  switchCells: readonly string[],
): CheckFinding<Corrupt['reason'] | 'corruptAtWriteSwitch'>[] {
  const out: CheckFinding<Corrupt['reason'] | 'corruptAtWriteSwitch'>[] = [];
  const byCell = model.serving.srvKeyspaces.get(wf.keyspace);
  if (byCell === undefined || !byCell.ok || !model.serving.cells.ok) return out;
  const requested = mode === 'reads' ? switchCells : [];
  // ExpandCells returns the cells as a sorted set (sets.List, go/vt/topo/cell_info.go:259 @v0.24.4).
  const cells = requested.length > 0 ? [...new Set(requested)].sort(byCodeUnit) : [...model.serving.cells.value];
  for (const cell of cells) {
    const srv = byCell.value[cell];
    if (srv === undefined) continue; // serving-graph-missing
    for (const p of srv.partitions) {
      const e = partitionError(cell, p);
      if (e === null) continue;
      const shards = p.shards.map((s) => s.name);
      if (mode === 'writes') {
        out.push({
          reason: 'corruptAtWriteSwitch',
          message: `the ${p.servedType} partition of ${wf.keyspace}'s SrvKeyspace in cell ${cell} is corrupt (shards ${shards.join(', ')}): the write switch of ${wf.name} validates it after writing the journals and allowing writes on the targets`,
          keyspace: wf.keyspace,
          workflow: wf.name,
          details: {
            cell,
            servedType: p.servedType,
            shards,
            corruption: e.reason,
            vitessText: `Before changing shard routes, found SrvKeyspace for ${wf.keyspace} is corrupt: ${e.text}`,
          },
        });
        break;
      }
      out.push({
        reason: e.reason,
        message: `the ${p.servedType} partition of ${wf.keyspace}'s SrvKeyspace in cell ${cell} is corrupt (shards ${p.shards.map((s) => s.name).join(', ')}): SwitchTraffic of ${wf.name} validates it before switching reads`,
        keyspace: wf.keyspace,
        workflow: wf.name,
        // Hand-filled: the innermost text (`e.text`) is built by the model (src/model/srv-keyspace-partitions.ts).
        vitessError: `${SWITCH_READS_WRAP}: Before switching shard reads, found SrvKeyspace for ${wf.keyspace} is corrupt in cell ${requested.join(',')}: ${e.text}`,
        details: {
          cell,
          servedType: p.servedType,
          shards: p.shards.map((s) => s.name),
          cellsValidated: requested.length > 0 ? [...requested] : 'every cell (no --cells)',
        },
      });
      break; // ValidateSrvKeyspace stops at the first error of a cell
    }
    if (out.length > 0) break; // … and at the first cell in error
  }
  return out;
}

function writesBeforeReads(
  model: ClusterModel,
  wf: Workflow,
  types: readonly string[],
): CheckFinding<'writesBeforeReads'>[] {
  if (!types.includes('primary')) return [];
  const out: CheckFinding<'writesBeforeReads'>[] = [];
  for (const type of ['REPLICA', 'RDONLY'] as ReadTabletType[]) {
    if (types.includes(type.toLowerCase())) continue;
    const reads = cellReads(model, wf, type);
    if (reads === null || reads.notSwitched.length === 0) continue;
    const withTablets = new Set(
      [...model.tablets.values()]
        .filter((t) => t.type === type && (t.keyspace === wf.keyspace || wf.sourceKeyspaces.includes(t.keyspace)))
        .map((t) => t.cell),
    );
    const noTablets = reads.notSwitched.filter((c) => !withTablets.has(c));
    out.push({
      reason: 'writesBeforeReads',
      message:
        `--tablet-types ${types.join(',')} switches the writes of ${wf.keyspace}.${wf.name} while ${type} reads are still served by the source in cell ${reads.notSwitched.join(', ')}` +
        (noTablets.length > 0 ? ` (no ${type} tablets in ${noTablets.join(', ')})` : '') +
        `: Complete refuses until they are switched`,
      keyspace: wf.keyspace,
      workflow: wf.name,
      details: { tabletType: type, cellsNotSwitched: reads.notSwitched, cellsWithoutTablets: noTablets },
    });
  }
  return out;
}

const reasons = {
  startNotMinKey: corruptReason('keyspace partition for %v in cell %v does not start with min key', 665),
  endNotMaxKey: corruptReason('keyspace partition for %v in cell %v does not end with max key', 669),
  inconsistentKeyRanges: corruptReason('shards with inconsistent KeyRanges for %v in cell %v. shards: %v, %v', 677),
  nonContiguous: corruptReason('non-contiguous KeyRange values for %v in cell %v at shard %v to %v: %v != %v', 684),
  corruptAtWriteSwitch: {
    severity: 'error',
    step: 'initialize-sequences',
    actions: ['switch'],
    heuristic: true,
    rationale:
      'With only PRIMARY requested the read validation does not run, and changeShardRouting refuses the corrupt SrvKeyspace after the journals are written and target writes allowed (wrapper text in a traffic_switcher.go version other than the pinned one).',
  },
  writesBeforeReads: {
    severity: 'warning',
    step: 'validate',
    actions: ['switch'],
    heuristic: true,
    rationale:
      'Writes switched while a read type still serves from the source leave the workflow half switched, and Complete refuses until those reads are switched too (#20923, #10421).',
  },
} satisfies Reasons;

type R = keyof typeof reasons;

export default defineCheck({
  id: 'srv-keyspace-partitions',
  title: "The Reshard keyspace's serving partitions are whole, and reads switch before writes",
  reasons,
  description:
    "Before it switches the reads of a Reshard, SwitchTraffic validates the SrvKeyspace of the keyspace in every cell, or only in SwitchTraffic's `--cells` (`traffic_switcher.go` `switchShardReads` → `srv_keyspace.go` `ValidateSrvKeyspace` / `OrderAndCheckPartitions`): in every partition the shards, sorted by key range, must start at the minimum key, end at the maximum key and be contiguous. A partition with a gap, an overlap or a mix of ranged and unranged shards (an interrupted or hand-edited rebuild) fails the switch with `failed to switch read traffic for the shards: Before switching shard reads, found SrvKeyspace for <keyspace> is corrupt in cell <--cells>: …` (PR #7481; the cells are empty without `--cells`), and the same validation fails the write switch after its point of no return. A warning when `--tablet-types` switches writes while REPLICA or RDONLY reads still serve from the source in some cell: `Complete` then refuses, even where no RDONLY tablet exists (#20923, #10421).",
  remediation:
    'Rebuild the serving graph from the shard records: `vtctldclient RebuildKeyspaceGraph --cells <cell> <keyspace>`, and read it back with `vtctldclient GetSrvKeyspaces <keyspace> <cell>`. For writes before reads, switch the reads first: `vtctldclient Reshard|MoveTables --workflow <workflow> --target-keyspace <keyspace> SwitchTraffic --tablet-types rdonly,replica`. Then run vtpreflight again.',
  needs: ['topology'],
  run(model, options) {
    const out: CheckFinding<R>[] = [];
    const types = requestedTabletTypes(options.action);
    for (const wf of model.workflows) {
      const type = migrationType(wf);
      if (type === null) continue;
      const reads = types.includes('replica') || types.includes('rdonly');
      const frozen = wf.streams.some((s) => s.message === 'FROZEN');
      const cells = options.action.cells ?? [];
      if (type === 'SHARDS' && reads) out.push(...corruptFindings(model, wf, 'reads', cells));
      else if (type === 'SHARDS' && types.includes('primary') && !frozen && options.action.action === 'switch')
        out.push(...corruptFindings(model, wf, 'writes', cells));
      if (options.action.action === 'switch') out.push(...writesBeforeReads(model, wf, types));
    }
    return out;
  },
});
