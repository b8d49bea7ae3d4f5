/**
 * leftover-shards: non-serving shard records that no workflow uses.
 *
 * `Reshard complete --keep-data` keeps the old source shards, a Reshard cancel (v22+, PR #18020) keeps the new target
 * shards, and shards created for a Reshard that never ran stay too: all not serving, often with tablets and data.
 * SwitchTraffic of any later MoveTables into or out of that keyspace compares the shards it switches with every shard
 * record of the keyspace (`vitessio/vitess:go/vt/vtctl/workflow/utils.go` `CompareShards`) and refuses:
 * `mismatched shards for keyspace %s: topo shards not in switch command: %v`. A new Reshard that reuses the names
 * copies onto stale data.
 *
 * A non-serving shard is explained when a workflow read uses it (as a target shard with streams, or as a source
 * shard of a stream).
 *
 * Failure modes (`details.reason`):
 * - `nonServingShards` (warning): non-serving shards no workflow read uses, one finding per keyspace.
 * - `nonServingShardsUnexplained` (info): the same, but the keyspace's workflows were not all read.
 * - `nonServingShardsEmpty` (info, `vtpreflight sweep` only): the same, but every such shard's primary lists no table
 *   while a serving primary of the keyspace lists some (so the table list is readable): most likely shards created
 *   for a Reshard that has not started yet (a documented step: the new shards' tablets come up with an empty schema,
 *   which Reshard create copies), or emptied by a Reshard cancelled without `--keep-data` (`removeTargetTables`,
 *   `go/vt/vtctl/workflow/server.go:2244 @v0.24.4`; the shard records stay): ready for the next Reshard, not proven
 *   a leftover. They still make a MoveTables SwitchTraffic into or out of the keyspace refuse, which the finding
 *   says; under `check` the selected workflow's switch is judged, so the warning stays.
 */
import { defineCheck, type CheckFinding, type Reasons } from '../src/engine/check.js';
import {
  keyspacesWithUnreadWorkflows,
  leftoverKeyspaces,
  schemaBaseTables,
  workflowsTouching,
} from '../src/model/leftovers.js';
import type { Keyspace, Shard } from '../src/model/types.js';
import { goStringSlice } from '../src/model/traffic-switch.js';
import { compareCodePoints } from '../src/vitess/gtid-common.js';

/**
 * True when every one of `extra` has a primary whose table list was read and is empty, while a serving shard's
 * primary of the keyspace lists a table (an empty list there would say the read sees nothing, e.g. no privilege).
 */
function preCreated(ks: Keyspace, extra: readonly Shard[]): boolean {
  if (!ks.shards.ok) return false;
  if (!extra.every((sh) => schemaBaseTables(sh)?.length === 0)) return false;
  return [...ks.shards.value.values()].some((sh) => sh.isPrimaryServing && (schemaBaseTables(sh)?.length ?? 0) > 0);
}

const reasons = {
  nonServingShards: {
    severity: 'warning',
    step: 'switch-reads',
    vitess: {
      template: 'mismatched shards for keyspace %s: topo shards not in switch command: %v',
      file: 'go/vt/vtctl/workflow/utils.go',
      line: 521,
      versions: { from: 17 },
      wraps: { literal: 'topo shards not in switch command: %v', file: 'go/vt/vtctl/workflow/utils.go', line: 518 },
    },
  },
  nonServingShardsUnexplained: {
    severity: 'info',
    step: 'switch-reads',
    heuristic: true,
    rationale: 'A workflow on a primary that was not read may use the shard, so it is not proven a leftover.',
  },
  nonServingShardsEmpty: {
    reads: ['tables'],
    severity: 'info',
    step: 'switch-reads',
    heuristic: true,
    rationale:
      'Non-serving shards whose primaries hold no table are most likely created for a Reshard that has not started (or emptied by a cancelled one), so not proven leftovers; until a Reshard uses them, a MoveTables SwitchTraffic into or out of the keyspace refuses on them.',
  },
} satisfies Reasons;

type R = keyof typeof reasons;

export default defineCheck({
  id: 'leftover-shards',
  group: 'leftovers',
  needs: ['topology'],
  title: 'No non-serving shard is left without a workflow',
  reasons,
  description:
    '`Reshard complete --keep-data` keeps the old source shards, a Reshard cancel (v22+) keeps the new target shards, and shards created for a Reshard that never ran stay too, all not serving. SwitchTraffic of any later MoveTables into or out of that keyspace compares the shards it switches with every shard record of the keyspace and refuses: `mismatched shards for keyspace %s: topo shards not in switch command: %v` (`vitessio/vitess:go/vt/vtctl/workflow/utils.go` `CompareShards`); a Reshard reusing the names copies onto stale data. This check reports the non-serving shards that no workflow read uses as a source or target shard; in a sweep, shards whose primaries hold no table (while a serving primary of the keyspace lists some) are reported as information: most likely created for a Reshard not started yet, they still make that SwitchTraffic refuse.',
  remediation:
    'Confirm with `vtctldclient GetWorkflows <keyspace> --include-logs=false` that no workflow uses the shards and that their data is not needed, then delete them with `vtctldclient DeleteShards --recursive <keyspace>/<shard>` (it removes their tablet records too; stop those vttablets first), and run vtpreflight again. Shards created for a Reshard that has not started yet are not leftovers: run that Reshard (`vtctldclient Reshard --workflow <workflow> --target-keyspace <keyspace> create --source-shards <serving shards> --target-shards <these shards>`) before switching any MoveTables into or out of the keyspace.',
  run(model, options) {
    const unread = keyspacesWithUnreadWorkflows(model);
    const out: CheckFinding<R>[] = [];
    for (const ks of leftoverKeyspaces(model, options)) {
      if (!ks.shards.ok) continue;
      const used = new Set<string>();
      for (const wf of workflowsTouching(model, ks.name)) {
        if (wf.keyspace === ks.name) for (const s of wf.targetShards) used.add(s);
        if (wf.sourceKeyspaces.includes(ks.name))
          for (const s of wf.streams) if (s.sourceKeyspace === ks.name) used.add(s.sourceShard);
      }
      const extra = [...ks.shards.value.values()].filter((sh) => !sh.isPrimaryServing && !used.has(sh.name));
      if (extra.length === 0) continue;
      const names = extra.map((sh) => sh.name);
      // Go's `sets.List` sorts the names as strings (byte order) before `%v` prints them.
      const details = {
        shards: names,
        breaks: `SwitchTraffic of any MoveTables into or out of ${ks.name}`,
        clean: 'vtctldclient DeleteShards --recursive <keyspace>/<shard>',
      };
      const vitessText =
        `mismatched shards for keyspace ${ks.name}: topo shards not in switch command: ` +
        goStringSlice([...names].sort(compareCodePoints));
      if (unread.includes(ks.name)) {
        out.push({
          reason: 'nonServingShardsUnexplained',
          keyspace: ks.name,
          message: `${ks.name} has non-serving ${names.length === 1 ? 'shard' : 'shards'} ${names.join(', ')} that no workflow read uses, but not every primary of ${ks.name} was read`,
          details,
        });
        continue;
      }
      // Only in a sweep: under `check` the selected workflow's own switch is what these shards refuse.
      if (options.sweep && preCreated(ks, extra)) {
        out.push({
          reason: 'nonServingShardsEmpty',
          keyspace: ks.name,
          message: `${ks.name} has non-serving ${names.length === 1 ? 'shard' : 'shards'} ${names.join(', ')} that no workflow uses and whose ${names.length === 1 ? 'primary holds' : 'primaries hold'} no table: most likely created for a Reshard not started yet (or emptied by a cancelled one); until one runs, SwitchTraffic of any MoveTables into or out of ${ks.name} refuses`,
          details: { ...details, vitessText },
        });
        continue;
      }
      out.push({
        reason: 'nonServingShards',
        keyspace: ks.name,
        message: `${ks.name} has non-serving ${names.length === 1 ? 'shard' : 'shards'} ${names.join(', ')} that no workflow uses (left by Reshard complete --keep-data, a cancelled Reshard, or a Reshard never run): SwitchTraffic of any MoveTables into or out of ${ks.name} will refuse`,
        vitessArgs: [ks.name, [...names].sort(compareCodePoints)],
        details,
      });
    }
    return out;
  },
});
