/**
 * ReverseTraffic (`check --action reverse`): what `vtctldclient MoveTables|Reshard ReverseTraffic` refuses before it
 * changes anything. Upstream: `vitessio/vitess:go/vt/vtctl/workflow/server.go` `WorkflowSwitchTraffic` with
 * `direction=DirectionBackward` (@006b7393, v22+ since #16920):
 * - `onlySwitchingReads := !startState.WritesSwitched && !switchPrimary`: a reads-only reverse runs `switchReads`
 *   backward on the forward workflow, which refuses a read type that no cell has switched (`requesting reversal of
 *   read traffic for REPLICAs but REPLICA reads have not been switched`); canSwitch does not run.
 * - Otherwise the `<workflow>_reverse` workflow is loaded from the source keyspace (`getWorkflowState(ctx,
 *   ts.sourceKeyspace, ts.reverseWorkflow)`), whose BuildTargets fails with `no streams found in keyspace %s for %s`
 *   when it does not exist: the sharp edge of ReverseTraffic: a plain ReverseTraffic (default tablet types
 *   include PRIMARY) after a reads-only SwitchTraffic, before any reverse workflow was created.
 * - When the forward writes are switched, canSwitch runs on the reverse workflow like a forward SwitchTraffic: its
 *   lag (`replication lag %ds is higher than allowed lag %ds`), then each stream FROZEN, Copying or Error, wrapped
 *   `cannot switch traffic for workflow <workflow>_reverse at this time: …`. Binary logs purged on the original
 *   target's tablets that the reverse streams still need make the catch-up impossible (a heuristic, as
 *   `binlogs-purged` for forward streams).
 * Only MoveTables and Reshard workflows are judged. Multi-tenant and partial migrations switch all tablet types at
 * once (no reads-only refusal); their write reversal is left to the general checks.
 */
import { defineCheck, type CheckFinding, type Reasons } from '../src/engine/check.js';
import { requestedTabletTypes } from '../src/engine/options.js';
import { copyTablesLeft } from '../src/model/copy-state.js';
import { transactionLagSeconds } from '../src/model/lag.js';
import { cellReads, type ReadTabletType } from '../src/model/read-state.js';
import {
  countOf,
  fullStatusOf,
  parseLooseGtidSet,
  pickerCandidates,
  truncateGtidText,
} from '../src/model/source-position.js';
import { reverseWorkflowName } from '../src/model/stream-migrator.js';
import { isReverseOfJudgedWorkflow } from '../src/model/reverse-workflow.js';
import { shardsWithoutStreamTablets } from '../src/model/stream-from.js';
import { switchState } from '../src/model/switch-state.js';
import { isPartialMigration } from '../src/model/traffic-switch.js';
import type { ClusterModel, Workflow } from '../src/model/types.js';
import { plural } from '../src/text.js';
import { pickRule, versionsHold, type VitessVersions } from '../src/vitess/versions.js';

const SERVER = 'go/vt/vtctl/workflow/server.go';

const isMultiTenant = (wf: Workflow) => wf.streams.some((s) => (s.options?.tenantId ?? '') !== '');

/** The read-switch evidence of one type: the number of cells switched, null when not known. */
function switchedCells(model: ClusterModel, wf: Workflow, type: ReadTabletType): number | null {
  const cells = cellReads(model, wf, type);
  if (cells !== null) return cells.switched.length > 0 ? cells.switched.length : cells.unknown.length > 0 ? null : 0;
  const st = switchState(model, wf);
  const flag = type === 'REPLICA' ? st.replicaReadsSwitched : st.rdonlyReadsSwitched;
  return flag === null ? null : flag ? 1 : 0;
}

function readsOnly(
  model: ClusterModel,
  wf: Workflow,
  types: readonly string[],
  vitess: VitessVersions,
): CheckFinding<R>[] {
  // switchReads: partial and multi-tenant migrations switch every type at once (trafficSwitchingIsAllOrNothing).
  if (isPartialMigration(wf) !== false || isMultiTenant(wf)) return [];
  const out: CheckFinding<R>[] = [];
  // The RDONLY text before v22 still says SwitchReads (server.go:3333 @v0.21.5, :3087 @v0.19.10); v22 renamed it
  // (server.go:2744 @v0.22.4). The REPLICA text is the same in every release.
  const rdonly = pickRule(vitess, [
    { versions: '<22', value: 'rdonlyReadsNotSwitchedBeforeV22' as R },
    { versions: '>=22', value: 'rdonlyReadsNotSwitched' as R },
  ]);
  const checks: [string, ReadTabletType, R, string | null][] = [
    ['replica', 'REPLICA', 'replicaReadsNotSwitched', null],
    ['rdonly', 'RDONLY', rdonly.value, rdonly.note],
  ];
  for (const [name, type, reason, note] of checks) {
    if (!types.includes(name)) continue;
    const n = switchedCells(model, wf, type);
    if (n !== 0) continue;
    out.push({
      reason,
      message: `ReverseTraffic --tablet-types=${types.join(',')} of ${wf.keyspace}.${wf.name} reverses ${name} reads, but no cell serves ${name} reads of it from ${wf.keyspace}`,
      keyspace: wf.keyspace,
      workflow: wf.name,
      vitessArgs: [],
      details: { tabletTypes: [...types], readType: type, ...(note !== null ? { versionNote: note } : {}) },
    });
  }
  return out;
}

/**
 * The reads-only reverse of a `<wf>_reverse` name: switchReads refuses a read type that no cell has switched in the
 * state getWorkflowState reports for that name, the forward workflow's (its keyspaces flipped, server.go
 * @006b7393). Judged from the forward workflow `<wf>` when it exists; not judged otherwise.
 */
function readsOnlyOfReverseName(
  model: ClusterModel,
  wf: Workflow,
  types: readonly string[],
  vitess: VitessVersions,
): CheckFinding<R>[] {
  const forwardName = reverseWorkflowName(wf.name);
  const forward = model.allWorkflows.find((w) => w.name === forwardName && wf.sourceKeyspaces.includes(w.keyspace));
  if (forward === undefined) return [];
  return readsOnly(model, forward, types, vitess).map((f) => ({
    ...f,
    message: `${f.message} (the state Vitess reads for ${wf.keyspace}.${wf.name})`,
    keyspace: wf.keyspace,
    workflow: wf.name,
  }));
}

function reverseCanSwitch(
  model: ClusterModel,
  wf: Workflow,
  rev: Workflow,
  maxLag: number,
  maxLagGiven?: string,
): CheckFinding<R>[] {
  const out: CheckFinding<R>[] = [];
  const base = { keyspace: wf.keyspace, workflow: wf.name };
  const where = (s: Workflow['streams'][number]) => ({
    reverseKeyspace: s.keyspace,
    shard: s.shard,
    streamId: s.id,
    tablet: s.tablet,
  });
  const now = Math.floor(model.readAt / 1000);
  // canSwitch: the workflow's MaxVReplicationTransactionLag first (Copying counts as MaxInt64, which the amd64
  // float conversion turns negative: the copy refusal then comes first, as for forward workflows).
  const lags = rev.streams.map((s) => ({ s, lag: transactionLagSeconds(s, now) }));
  const worst = lags.filter((x) => x.lag !== null).sort((a, b) => b.lag! - a.lag!)[0];
  if (worst !== undefined && worst.lag! > maxLag && !rev.streams.some((s) => s.state === 'Copying'))
    out.push({
      reason: 'reverseLag',
      message:
        `reverse workflow ${rev.keyspace}.${rev.name} lags ${worst.lag}s behind ${wf.keyspace} (stream ${worst.s.id} on ${worst.s.keyspace}/${worst.s.shard}, ${worst.s.state}), above the allowed ${maxLag}s` +
        // `--max-lag 500ms` allows 0s: Vitess compares whole seconds; the message shows the value as given too.
        (maxLagGiven !== undefined ? ` (--max-lag ${maxLagGiven} in whole seconds, as Vitess compares)` : ''),
      ...base,
      vitessArgs: [worst.lag!, maxLag],
      details: { ...where(worst.s), lagSeconds: worst.lag, maxLagSeconds: maxLag, state: worst.s.state },
    });
  // Then each stream, in order: FROZEN, Copying, Error (canSwitch's switch on the stream state).
  for (const s of rev.streams) {
    if (s.message === 'FROZEN') {
      out.push({
        reason: 'reverseFrozen',
        message: `stream ${s.id} of reverse workflow ${rev.name} on ${s.keyspace}/${s.shard} is FROZEN`,
        ...base,
        vitessArgs: [],
        details: where(s),
      });
    } else if (s.displayState === 'Copying') {
      out.push({
        reason: 'reverseCopying',
        message: `stream ${s.id} of reverse workflow ${rev.name} on ${s.keyspace}/${s.shard} is still copying`,
        ...base,
        vitessArgs: [],
        details: { ...where(s), copyTables: copyTablesLeft(s) },
      });
    } else if (s.displayState === 'Error') {
      out.push({
        reason: 'reverseErrors',
        message: `stream ${s.id} of reverse workflow ${rev.name} on ${s.keyspace}/${s.shard} is in error: ${s.message}`,
        ...base,
        vitessArgs: [],
        details: { ...where(s), state: s.state, streamMessage: s.message },
      });
    }
  }
  // The catch-up of the reverse streams needs what they have not applied from the original target's binary logs.
  for (const s of rev.streams) {
    if (!s.pos || s.pos.isZero() || s.pos.flavor !== 'MySQL56' || !s.pos.gtidSet || s.message === 'FROZEN') continue;
    const candidates = pickerCandidates(model, s).tablets;
    const purgedOn: { tablet: string; missing: string; missingCount: number }[] = [];
    for (const t of candidates) {
      const purged = parseLooseGtidSet(fullStatusOf(t)?.gtidPurged ?? '', 'MySQL56');
      if (!purged || s.pos.gtidSet.contains(purged)) continue;
      const missing = purged.subtract(s.pos.gtidSet);
      if (missing.isEmpty()) continue;
      purgedOn.push({ tablet: t.alias, missing: truncateGtidText(missing.toString()), missingCount: countOf(missing) });
    }
    if (purgedOn.length === 0 || purgedOn.length < candidates.length) continue;
    out.push({
      reason: 'reverseBinlogsPurged',
      message: `stream ${s.id} of reverse workflow ${rev.name} on ${s.keyspace}/${s.shard} needs ${plural(Math.max(...purgedOn.map((p) => p.missingCount)), 'transaction')} that ${s.sourceKeyspace}/${s.sourceShard} has purged from every tablet it may read from`,
      ...base,
      details: { ...where(s), purgedOn },
    });
  }
  return out;
}

const reasons = {
  replicaReadsNotSwitched: {
    severity: 'error',
    step: 'reverse-reads',
    vitess: {
      template: 'requesting reversal of read traffic for REPLICAs but REPLICA reads have not been switched',
      file: SERVER,
      line: 2946,
      // The same words since v19 (server.go:3084 @v0.19.10, :3329 @v0.21.5); reached before v21 only once a
      // reverse workflow exists (no reads-only reverse there).
      versions: { from: 19 },
    },
  },
  rdonlyReadsNotSwitched: {
    severity: 'error',
    step: 'reverse-reads',
    vitess: {
      template: 'requesting reversal of read traffic for RDONLYs but RDONLY reads have not been switched',
      file: SERVER,
      line: 2950,
      versions: { from: 22 },
    },
  },
  rdonlyReadsNotSwitchedBeforeV22: {
    severity: 'error',
    step: 'reverse-reads',
    vitess: {
      template: 'requesting reversal of SwitchReads for RDONLYs but RDONLY reads have not been switched',
      file: SERVER,
      line: 3333,
      release: 'v0.21.5',
      versions: { from: 19, to: 21 },
    },
  },
  multiTenantWrites: {
    severity: 'error',
    step: 'reverse-load',
    vitess: {
      template: 'cannot reverse write traffic for multi-tenant migrations',
      file: SERVER,
      line: 2783,
      versions: { from: 22 },
    },
  },
  multiTenantReverseBeforeV22: {
    severity: 'error',
    step: 'reverse-load',
    // v20 (server.go:3049 @v0.20.8) and v21: every direction-backward switch of a multi-tenant migration.
    vitess: {
      template: 'cannot reverse traffic for multi-tenant migrations',
      file: SERVER,
      line: 3171,
      release: 'v0.21.5',
      versions: { from: 20, to: 21 },
    },
  },
  noReverseWorkflow: {
    severity: 'error',
    step: 'reverse-load',
    vitess: {
      template: 'no streams found in keyspace %s for %s',
      file: 'go/vt/vtctl/workflow/utils.go',
      line: 426,
      versions: { from: 17 },
      wraps: { literal: 'no streams found', file: 'go/vt/vtctl/workflow/traffic_switcher.go', line: 52 },
    },
  },
  reverseLag: {
    severity: 'error',
    step: 'reverse-can-switch',
    vitess: {
      template: 'replication lag %ds is higher than allowed lag %ds',
      file: SERVER,
      line: 103,
      versions: { from: 17 },
    },
  },
  reverseFrozen: {
    severity: 'error',
    step: 'reverse-can-switch',
    vitess: { template: 'workflow is frozen', file: SERVER, line: 105, versions: { from: 17 } },
  },
  reverseCopying: {
    severity: 'error',
    step: 'reverse-can-switch',
    vitess: { template: 'copy is still in progress', file: SERVER, line: 102, versions: { from: 17 } },
  },
  reverseErrors: {
    severity: 'error',
    step: 'reverse-can-switch',
    vitess: { template: 'workflow has errors', file: SERVER, line: 101, versions: { from: 17 } },
  },
  noTabletToStreamBack: {
    severity: 'error',
    step: 'reverse-can-switch',
    heuristic: true,
    rationale:
      'switchWrites on the reverse workflow refuses (no tablets were available to stream from) when a shard it writes back to has no tablet of its tablet types in its cells, as reverse-tablets-missing does forward.',
  },
  reverseBinlogsPurged: {
    severity: 'error',
    step: 'reverse-can-switch',
    heuristic: true,
    rationale:
      'MySQL refuses the reverse streams the binary logs they still need on every tablet they may read from, so the catch-up after writes stop never completes.',
  },
} satisfies Reasons;

type R = keyof typeof reasons;

export default defineCheck({
  id: 'reverse-traffic',
  needs: ['topology'],
  title: 'ReverseTraffic can reverse what was switched',
  reasons,
  description:
    'Judged with `--action reverse` (`vtctldclient MoveTables|Reshard ReverseTraffic`, the same RPC as SwitchTraffic with `direction=DirectionBackward`, `server.go` `WorkflowSwitchTraffic`). When writes are not switched and `--tablet-types` leaves out PRIMARY, the reads are reversed on the forward workflow and a read type no cell has switched is refused (`requesting reversal of read traffic for REPLICAs but REPLICA reads have not been switched`). Otherwise the `<workflow>_reverse` workflow of the source keyspace is loaded: without it Vitess refuses with `no streams found in keyspace <source> for <workflow>_reverse`, which is what a plain ReverseTraffic (default tablet types include PRIMARY) prints after a reads-only SwitchTraffic. Once writes are switched, the reverse workflow is judged like a forward one by canSwitch: its lag against `--max-lag`, then each stream FROZEN, copying or in error, and the binary logs it still needs on the original target.',
  remediation:
    'After a reads-only SwitchTraffic, reverse the reads with `vtctldclient MoveTables --workflow <workflow> --target-keyspace <keyspace> ReverseTraffic --tablet-types=replica,rdonly`. Reverse only the read types that were switched. A reverse workflow that is stopped, lagging or in error must be repaired (`Workflow --keyspace <source> start --workflow <workflow>_reverse`, then `show`) before writes can be reversed. Then run vtpreflight again.',
  run(model, options) {
    const types = requestedTabletTypes(options.action);
    const out: CheckFinding<R>[] = [];
    for (const wf of model.workflows) {
      if (wf.type !== 'MoveTables' && wf.type !== 'Reshard') continue;
      // A `_reverse` workflow is reversed by ReverseTraffic of its forward workflow and judged there; it has no
      // verdict row of its own (src/engine/verdict.ts) unless named with --workflow or its forward one is gone.
      if (isReverseOfJudgedWorkflow(model, wf)) continue;
      // ReverseTraffic run on a `<wf>_reverse` name: getWorkflowState flips its keyspaces and reports the forward
      // workflow's state (server.go @006b7393), and the workflow it loads is ReverseWorkflowName(`<wf>_reverse`),
      // i.e. `<wf>` in the reverse workflow's source keyspace, on which canSwitch then runs.
      const named = wf.name.endsWith('_reverse');
      const st = switchState(model, wf);
      // A state that could not be read counts as not switched, as for canSwitch (switch-state.ts).
      const writesSwitched = st.writesSwitched === true;
      const sourceKs = wf.sourceKeyspaces[0];
      const revName = reverseWorkflowName(wf.name);
      const rev =
        sourceKs === undefined
          ? undefined
          : model.allWorkflows.find((w) => w.keyspace === sourceKs && w.name === revName);
      // Before v21 ReverseTraffic loads `<wf>_reverse` first, whatever the tablet types (server.go:2976-2980
      // @v0.19.10, :3088-3092 @v0.20.8): there is no reads-only reverse, and a missing reverse workflow fails it.
      const loadsReverseFirst = versionsHold(options.vitess, '<21') === 'all';
      // v20 and v21 refuse every ReverseTraffic of a multi-tenant migration (v21 before anything else, server.go:3166-
      // 3171 @v0.21.5; v20 once the reverse workflow is loaded, :3045-3049 @v0.20.8); v22+ only the write path.
      if (isMultiTenant(wf) && versionsHold(options.vitess, '<22') === 'all' && !(loadsReverseFirst && !rev)) {
        out.push({
          reason: 'multiTenantReverseBeforeV22',
          message: `ReverseTraffic of ${wf.keyspace}.${wf.name} would reverse a multi-tenant migration, which Vitess before v22 refuses for every tablet type`,
          keyspace: wf.keyspace,
          workflow: wf.name,
          vitessArgs: [],
        });
        continue;
      }
      if (!writesSwitched && !types.includes('primary') && !(loadsReverseFirst && rev === undefined)) {
        if (!named) out.push(...readsOnly(model, wf, types, options.vitess));
        else out.push(...readsOnlyOfReverseName(model, wf, types, options.vitess));
        continue;
      }
      // server.go WorkflowSwitchTraffic: multi-tenant writes are never reversed (other tenants share the tables). On
      // v20 a missing reverse workflow fails the load first (below).
      if (isMultiTenant(wf) && !(loadsReverseFirst && rev === undefined)) {
        out.push({
          reason: 'multiTenantWrites',
          message: `ReverseTraffic of ${wf.keyspace}.${wf.name} would reverse writes of a multi-tenant migration, which Vitess does not do`,
          keyspace: wf.keyspace,
          workflow: wf.name,
          vitessArgs: [],
        });
        continue;
      }
      if (sourceKs === undefined) continue;
      if (rev === undefined) {
        // Whether the source keyspace holds it is known only when every one of its primaries was read.
        const ks = model.keyspace(sourceKs);
        if (!ks?.shards.ok || [...ks.shards.value.values()].some((s) => !s.sidecar?.ok)) continue;
        out.push({
          reason: 'noReverseWorkflow',
          message: writesSwitched
            ? `ReverseTraffic of ${wf.keyspace}.${wf.name} needs the ${named ? 'forward' : 'reverse'} workflow ${sourceKs}.${revName}, which no primary of the source keyspace has`
            : !types.includes('primary')
              ? `ReverseTraffic --tablet-types=${types.join(',')} of ${wf.keyspace}.${wf.name}: Vitess before v21 has no reads-only reverse and loads ${sourceKs}.${revName} first, which does not exist`
              : `ReverseTraffic --tablet-types=${types.join(',')} of ${wf.keyspace}.${wf.name} takes the write path (PRIMARY requested) while writes are not switched, and ${sourceKs}.${revName} does not exist: reverse the reads with --tablet-types=replica,rdonly`,
          keyspace: wf.keyspace,
          workflow: wf.name,
          vitessArgs: [sourceKs, revName],
          details: { reverseKeyspace: sourceKs, reverseWorkflow: revName, writesSwitched, tabletTypes: [...types] },
        });
        continue;
      }
      // canSwitch runs only when the forward writes are switched (writesAlreadySwitched is false for backward).
      if (!writesSwitched) continue;
      out.push(...reverseCanSwitch(model, wf, rev, options.maxLagSeconds, options.maxLagGiven));
      // switchWrites on the reverse workflow then checks, as for any write switch, that the workflow it re-creates
      // (the forward one) has a tablet to stream from on each of the reverse workflow's target shards.
      if (rev.frozen) continue;
      for (const miss of shardsWithoutStreamTablets(model, rev) ?? [])
        out.push({
          reason: 'noTabletToStreamBack',
          message: `${rev.keyspace}/${miss.shard} has no ${miss.types.join('/')} tablet in ${miss.cells.join(', ')} for the workflow ReverseTraffic re-creates from ${rev.name} to stream from`,
          keyspace: wf.keyspace,
          workflow: wf.name,
          details: {
            reverseKeyspace: rev.keyspace,
            shard: miss.shard,
            cells: [...miss.cells],
            tabletTypes: miss.typesText,
          },
        });
    }
    return out;
  },
});
