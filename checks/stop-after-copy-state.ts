/**
 * stop-after-copy-state: lookup-vindex backfills whose streams are not in the state Externalize requires, and
 * MoveTables/Reshard streams that stop (or stopped) after their copy and so never catch up for SwitchTraffic.
 *
 * Upstream: `vitessio/vitess:go/vt/vtctl/workflow/lookup_vindex.go` `validateInternalizedState` and
 * `IsBackfillingOwnedVindexes` (newest), `server.go` `LookupVindexExternalize` (v18–v20), the legacy
 * `go/vt/wrangler/materializer.go` `ExternalizeVindex`; for every stream on every serving shard of the lookup keyspace:
 * a filter is required (`invalid binlog source`; v18–v20 also exactly one rule); when the workflow backfills owned
 * vindexes and the stream's source has `stop_after_copy`, the stream must be `Stopped` with a message containing
 * `Stopped after copy` (`stream %d for %v.%v is not in Stopped after copy state: %v, %v`), otherwise it must be
 * `Running` (`stream %d for %v.%v is not in Running state: %v`); owned and unowned vindexes in one workflow are refused
 * (`workflow can't backfill mix of unowned and owned vindexes, vindex %s is unowned`). The copy phase ends in
 * `go/vt/vttablet/tabletmanager/vreplication/vreplicator.go` `replicate`: with `stop_after_copy` the stream is set
 * `Stopped` / `Stopped after copy.`, and it stops again each time it is started after its copy.
 *
 * Failure modes (`details.reason`):
 * - `mixedOwnership`, `invalidBinlogSource`, `notStoppedAfterCopy`, `notRunning`, `notFoundOnShard`: Externalize fails.
 * - `stillCopying`: the backfill is still copying: Externalize fails now and passes once the copy is done (error); or,
 *   for a stream that must be Running and already is, Externalize would pass with an incomplete lookup table (warning).
 * - `vindexNotFound` (warning): no lookup vindex of the workflow in the vschema, so ownership cannot be judged.
 * - `stoppedAfterCopy`: a MoveTables/Reshard stream Stopped after copy: it replicates nothing, SwitchTraffic cannot
 * catch up.
 * - `stopAfterCopyFlag`: a MoveTables/Reshard stream whose source has `stop_after_copy`: it will stop after its copy.
 */
import { defineCheck, streamLocation, type CheckFinding, type VitessText, type Reasons } from '../src/engine/check.js';
import { copyTablesLeft, isCopyingAsRead } from '../src/model/copy-state.js';
import { backfilledVindexes, isWriteOnly, type BackfilledVindex } from '../src/model/lookup-vindex.js';
import type { ClusterModel, Stream, Workflow } from '../src/model/types.js';
import { pickRule } from '../src/vitess/versions.js';

const STOPPED_AFTER_COPY = 'Stopped after copy';

const name = (s: Stream) => `stream ${s.id} of ${s.workflow} on ${s.keyspace}/${s.shard}`;

// copy_state not read: judged by the stored state only (`unreachable` reports the read; the verdict is unverified).
const isCopying = isCopyingAsRead;

const isStoppedAfterCopy = (s: Stream) => s.state === 'Stopped' && s.message.includes(STOPPED_AFTER_COPY);

const quoted = (m: string) => `"${m.length > 200 ? `${m.slice(0, 200)}…` : m}"`;

const vindexNames = (vs: readonly BackfilledVindex[]) => vs.map((v) => `${v.keyspace}.${v.vindex.name}`).join(', ');

const copyLeft = (s: Stream) => {
  const n = copyTablesLeft(s)?.length ?? 0;
  return n > 0 ? ` (${n} table${n === 1 ? '' : 's'} left)` : '';
};

/** True when the workflow is a lookup backfill that Externalize will judge. */
function isLookupBackfill(wf: Workflow, found: readonly BackfilledVindex[]): boolean {
  if (wf.type === 'CreateLookupIndex') return true;
  // Workflows created before workflow_type existed read as Materialize: a write-only vindex on their table is a
  // backfill.
  return wf.type === 'Materialize' && found.some((v) => v.matchedBy === 'table' && isWriteOnly(v.vindex));
}

function lookupStreamFinding(
  wf: Workflow,
  s: Stream,
  owned: readonly BackfilledVindex[],
  all: readonly BackfilledVindex[],
  rule: 'v22' | 'v23',
): CheckFinding<R> | null {
  const src = s.source!;
  const filter = src.filter;
  if (filter === null) {
    return {
      reason: 'invalidBinlogSource',
      message: `${name(s)} has no filter in its source, so Externalize fails with "invalid binlog source"`,
      ...streamLocation(s),
      vitessArgs: [],
      details: { rules: 0 },
    };
  }
  const stopped = owned.length > 0 && src.stopAfterCopy;
  const vindexes = vindexNames(owned.length > 0 ? owned : all);
  const common = {
    state: s.state,
    message: s.message,
    stopAfterCopy: src.stopAfterCopy,
    vindexes: (owned.length > 0 ? owned : all).map((v) => `${v.keyspace}.${v.vindex.name}`),
    owned: owned.length > 0,
    tablesLeft: copyTablesLeft(s)?.length ?? null,
  };
  if (stopped) {
    if (isStoppedAfterCopy(s)) return null;
    const vitessArgs = [s.id, wf.keyspace, s.shard, s.state, s.message];
    if (isCopying(s)) {
      return {
        reason: 'stillCopying',
        message: `${name(s)} is still copying${copyLeft(s)} the backfill of owned vindex ${vindexes}, so Externalize fails until the copy finishes and the stream stops after copy`,
        ...streamLocation(s),
        vitessArgs,
        details: common,
      };
    }
    return {
      reason: 'notStoppedAfterCopy',
      message: `${name(s)} backfills owned vindex ${vindexes} but is ${s.state}${s.message ? ` with message ${quoted(s.message)}` : ''} instead of Stopped after copy, so Externalize fails`,
      ...streamLocation(s),
      vitessArgs,
      details: common,
    };
  }
  const why =
    owned.length > 0
      ? `backfills owned vindex ${vindexes} without stop_after_copy`
      : `backfills unowned vindex ${vindexes}`;
  if (s.state !== 'Running') {
    const vitessArgs = [s.id, wf.keyspace, s.shard, s.state];
    if (isCopying(s)) {
      return {
        reason: 'stillCopyingNotRunning',
        message: `${name(s)} ${why} and is still copying${copyLeft(s)} in state ${s.state}, so Externalize fails until the copy finishes and the stream runs`,
        ...streamLocation(s),
        vitessArgs,
        details: common,
      };
    }
    return {
      reason: 'notRunning',
      message: `${name(s)} ${why} but is ${s.state}${s.message ? ` with message ${quoted(s.message)}` : ''} instead of Running, so Externalize fails`,
      ...streamLocation(s),
      vitessArgs,
      details: common,
    };
  }
  if (isCopying(s)) {
    return {
      reason: 'stillCopyingWhileRunning',
      message: `${name(s)} ${why} and is Running but still copying${copyLeft(s)}: Externalize would pass now and expose an incomplete lookup table`,
      ...streamLocation(s),
      details: common,
    };
  }
  if (filter.rules.length !== 1) {
    // release-22.0 server.go LookupVindexExternalize: `len(bls.Filter.Rules) != 1` ⇒ `invalid binlog source`; the
    // multi-vindex Externalize of PR #17566 (v23+) accepts any number of rules.
    return rule === 'v22'
      ? {
          reason: 'multipleFilterRulesV22',
          message: `${name(s)} has ${filter.rules.length} filter rules: Externalize up to v22 requires exactly one and fails with "invalid binlog source"`,
          ...streamLocation(s),
          vitessArgs: [],
          details: { rules: filter.rules.length },
        }
      : {
          reason: 'multipleFilterRules',
          message: `${name(s)} has ${filter.rules.length} filter rules: Externalize up to v22 requires exactly one and fails with "invalid binlog source"; v23 and newer accept it`,
          ...streamLocation(s),
          details: { rules: filter.rules.length, refusedThrough: 'v22' },
        };
  }
  return null;
}

/**
 * The vindex names Externalize looks up: release-22.0 `getVindexAndVSchema(req.Name)` (the workflow name); v23+
 * `lookup_vindex.go` `getVindexesAndVSchema`: the workflow options' `lookup_vindexes`, else the workflow name.
 */
function externalizedNames(wf: Workflow, rule: 'v22' | 'v23'): string[] {
  if (rule === 'v22') return [wf.name];
  const fromOptions = wf.streams.find((s) => (s.options?.lookupVindexes.length ?? 0) > 0)?.options?.lookupVindexes;
  return fromOptions ? [...fromOptions] : [wf.name];
}

function lookupFindings(model: ClusterModel, wf: Workflow, rule: 'v22' | 'v23'): CheckFinding<R>[] {
  // Externalized already (newest Vitess freezes the streams of an owned backfill instead of deleting them).
  if (wf.streams.every((s) => s.message === 'FROZEN')) return [];
  const found = backfilledVindexes(model, wf);
  if (!isLookupBackfill(wf, found.vindexes)) return [];
  // Externalize looks its vindexes up by name in the keyspace holding them (the owner table's keyspace, the
  // streams' source keyspace): `vindex %s not found in the %s keyspace` (release-22.0 `getVindexAndVSchema`,
  // v23+ `lookup_vindex.go` `getVindexesAndVSchema`) fails it before any stream is looked at.
  const vindexKs = wf.sourceKeyspaces.length === 1 ? wf.sourceKeyspaces[0]! : null;
  const vs = vindexKs === null ? undefined : model.keyspace(vindexKs)?.vschema;
  if (vindexKs !== null && vs?.ok) {
    // A `<vindex>_vdx` workflow is the legacy vtctl naming (`go/vt/wrangler/materializer.go` `ExternalizeVindex`
    // takes the vindex and derives the workflow): its vindex is the name without the suffix.
    const has = (n: string) =>
      vs.value.vindexes.has(n) || (n.endsWith('_vdx') && vs.value.vindexes.has(n.slice(0, -4)));
    const missing = externalizedNames(wf, rule).filter((n) => !has(n));
    if (missing.length > 0)
      return [
        {
          reason: 'vindexNotFound',
          message: `Externalize looks up vindex ${missing.join(', ')} of workflow ${wf.name} in the ${vindexKs} vschema, which has no vindex of that name, so it fails`,
          keyspace: wf.keyspace,
          workflow: wf.name,
          vitessArgs: [missing[0]!, vindexKs],
          details: { names: missing, searched: [vindexKs], tables: found.tables },
        },
      ];
  }
  // Several source keyspaces (multiple-source-keyspaces reports it) or an unread vschema: nothing to judge by.
  if (found.vindexes.length === 0) return [];
  const owned = found.vindexes.filter((v) => v.vindex.owner !== '');
  const unowned = found.vindexes.filter((v) => v.vindex.owner === '');
  if (owned.length > 0 && unowned.length > 0) {
    return [
      {
        reason: 'mixedOwnership',
        message: `workflow ${wf.name} in ${wf.keyspace} backfills owned vindex ${vindexNames(owned)} and unowned vindex ${vindexNames(unowned)}, which Externalize refuses`,
        keyspace: wf.keyspace,
        workflow: wf.name,
        // Vitess walks a Go map: it reports the first unowned vindex met after an owned one (or, by chance, none).
        vitessArgs: [unowned[0]!.vindex.name],
        details: {
          owned: owned.map((v) => `${v.keyspace}.${v.vindex.name}`),
          unowned: unowned.map((v) => `${v.keyspace}.${v.vindex.name}`),
        },
      },
    ];
  }
  const out: CheckFinding<R>[] = [];
  const ks = model.keyspace(wf.keyspace);
  if (ks?.shards.ok) {
    for (const shard of ks.shards.value.values()) {
      if (!shard.isPrimaryServing || !shard.sidecar?.ok || wf.targetShards.includes(shard.name)) continue;
      out.push({
        reason: 'notFoundOnShard',
        message: `serving shard ${wf.keyspace}/${shard.name} has no stream of workflow ${wf.name}, so Externalize fails there`,
        keyspace: wf.keyspace,
        shard: shard.name,
        workflow: wf.name,
        tablet: shard.sidecar.value.tablet,
        vitessArgs: [wf.name, shard.sidecar.value.tablet],
      });
    }
  }
  for (const s of wf.streams) {
    if (!s.source) continue; // missing-source reports it
    // Externalize reads the workflow on the serving shards only (`GetServingShards`).
    if (model.shard(wf.keyspace, s.shard)?.isPrimaryServing === false) continue;
    const f = lookupStreamFinding(wf, s, owned, found.vindexes, rule);
    if (f) out.push(f);
  }
  return out;
}

function switchedFindings(wf: Workflow): CheckFinding<R>[] {
  const out: CheckFinding<R>[] = [];
  for (const s of wf.streams) {
    if (!s.source || s.message === 'FROZEN') continue;
    const flag = s.source.stopAfterCopy;
    const details = {
      state: s.state,
      message: s.message,
      stopAfterCopy: flag,
      tablesLeft: copyTablesLeft(s)?.length ?? null,
      workflowType: wf.type,
    };
    if (isStoppedAfterCopy(s)) {
      out.push({
        reason: 'stoppedAfterCopy',
        message: flag
          ? `${name(s)} is Stopped after copy and its source has stop_after_copy, so it stops again whenever it is started: it never replicates changes and ${wf.type} SwitchTraffic cannot catch up`
          : `${name(s)} is Stopped after copy and replicates no changes until it is started again, so ${wf.type} SwitchTraffic cannot catch up`,
        ...streamLocation(s),
        details,
      });
    } else if (flag) {
      out.push({
        reason: 'stopAfterCopyFlag',
        message: `${name(s)} has stop_after_copy in its source, so it stops when its copy finishes${s.state === 'Stopped' ? ' or is started' : ''} and never replicates changes: ${wf.type} SwitchTraffic cannot catch up`,
        ...streamLocation(s),
        details,
      });
    }
  }
  return out;
}

/** `validateInternalizedState`: an owned backfill's stream must be Stopped after copy. */
const NOT_STOPPED_AFTER_COPY: VitessText = {
  template: 'stream %d for %v.%v is not in Stopped after copy state: %v, %v',
  file: 'go/vt/vtctl/workflow/lookup_vindex.go',
  line: 704,
  versions: { from: 18 },
};
/** `validateInternalizedState`: an unowned backfill's stream must be Running. */
const NOT_RUNNING: VitessText = {
  template: 'stream %d for %v.%v is not in Running state: %v',
  file: 'go/vt/vtctl/workflow/lookup_vindex.go',
  line: 699,
  versions: { from: 18 },
};

const reasons = {
  // Externalize (lookup_vindex.go `validateInternalizedState`), not SwitchTraffic, raises a backfill's errors.
  mixedOwnership: {
    severity: 'error',
    step: 'externalize',
    vitess: {
      template: "workflow can't backfill mix of unowned and owned vindexes, vindex %s is unowned",
      file: 'go/vt/vtctl/workflow/lookup_vindex.go',
      line: 791,
      versions: { from: 23 },
    },
  },
  invalidBinlogSource: {
    severity: 'error',
    step: 'externalize',
    vitess: {
      template: 'invalid binlog source',
      file: 'go/vt/vtctl/workflow/lookup_vindex.go',
      line: 693,
      versions: { from: 18 },
    },
  },
  notFoundOnShard: {
    severity: 'error',
    step: 'externalize',
    vitess: {
      template: 'workflow %s not found on %v',
      file: 'go/vt/vtctl/workflow/lookup_vindex.go',
      line: 689,
      versions: { from: 18 },
    },
  },
  stillCopying: { severity: 'error', step: 'externalize', vitess: NOT_STOPPED_AFTER_COPY },
  notStoppedAfterCopy: { severity: 'error', step: 'externalize', vitess: NOT_STOPPED_AFTER_COPY },
  stillCopyingNotRunning: { severity: 'error', step: 'externalize', vitess: NOT_RUNNING },
  notRunning: { severity: 'error', step: 'externalize', vitess: NOT_RUNNING },
  stillCopyingWhileRunning: {
    severity: 'warning',
    step: 'externalize',
    heuristic: true,
    rationale:
      'Externalize only requires Running, so it passes now and exposes a lookup table that is not fully backfilled.',
  },
  multipleFilterRules: {
    severity: 'warning',
    step: 'externalize',
    heuristic: true,
    rationale:
      'Externalize up to v22 requires exactly one filter rule and fails with invalid binlog source; v23 and newer accept more.',
  },
  multipleFilterRulesV22: {
    severity: 'error',
    step: 'externalize',
    vitess: {
      template: 'invalid binlog source',
      file: 'go/vt/vtctl/workflow/server.go',
      line: 665,
      versions: { from: 18, to: 22 },
    },
  },
  vindexNotFound: {
    severity: 'error',
    step: 'externalize',
    vitess: {
      template: 'vindex %s not found in the %s keyspace',
      file: 'go/vt/vtctl/workflow/lookup_vindex.go',
      line: 773,
      versions: { from: 18 },
    },
  },
  stoppedAfterCopy: {
    severity: 'error',
    step: 'can-switch-lag',
    heuristic: true,
    rationale:
      'A stream stopped after its copy replicates no changes, so its lag grows until SwitchTraffic refuses and it cannot catch up.',
  },
  stopAfterCopyFlag: {
    severity: 'error',
    step: 'can-switch-lag',
    heuristic: true,
    rationale:
      'A stream with stop_after_copy stops after its copy and again whenever started, so SwitchTraffic can never catch up.',
  },
} satisfies Reasons;

type R = keyof typeof reasons;

export default defineCheck({
  id: 'stop-after-copy-state',
  aggregated: 'perShard',
  needs: ['topology', 'vschema'],
  title: 'Streams are Stopped after copy exactly where Vitess expects it',
  reasons,
  description:
    "A lookup vindex is backfilled by a CreateLookupIndex workflow and then externalized. Externalize (`vitessio/vitess:go/vt/vtctl/workflow/lookup_vindex.go` `validateInternalizedState`; `server.go` `LookupVindexExternalize` in v18–v20; `go/vt/wrangler/materializer.go` `ExternalizeVindex` in vtctl) checks every stream on every serving shard of the lookup keyspace: for an owned vindex whose streams carry `stop_after_copy` (the default at creation) each stream must be `Stopped` with a message containing `Stopped after copy` (`stream %d for %v.%v is not in Stopped after copy state: %v, %v`); for an unowned vindex, or one created with `--continue-after-copy-with-owner`, each stream must be `Running` (`stream %d for %v.%v is not in Running state: %v`); a workflow backfilling owned and unowned vindexes together is refused, and a stream without a filter fails with `invalid binlog source`. A backfill still copying fails the same way until its copy is done. The vindex is found in the vschema of the streams' source keyspace by its `table` parameter (the lookup table the streams write), else by the workflow name. A MoveTables or Reshard whose streams carry `stop_after_copy` (created with `--stop-after-copy`) stops after its copy and, because the vreplicator stops such a stream again each time it is started (`go/vt/vttablet/tabletmanager/vreplication/vreplicator.go` `replicate`), never replicates changes: SwitchTraffic refuses on replication lag and could not catch up anyway.",
  remediation:
    'For a lookup backfill, wait until `vtctldclient Workflow --keyspace <lookup keyspace> show --workflow <workflow>` shows every stream Stopped with `Stopped after copy.` (owned vindex) or Running with no copy left (unowned vindex), then run `vtctldclient LookupVindex --name <workflow> --table-keyspace <lookup keyspace> externalize --keyspace <vindex keyspace>`. Restart a stream that should be Running with `vtctldclient Workflow --keyspace <lookup keyspace> start --workflow <workflow>`. A stream of an owned backfill that was restarted after its copy, or a workflow mixing owned and unowned vindexes, must be recreated: `vtctldclient LookupVindex --name <workflow> --table-keyspace <lookup keyspace> cancel` and create it again. A MoveTables or Reshard created with `--stop-after-copy` cannot be switched: cancel it (`vtctldclient MoveTables --target-keyspace <keyspace> --workflow <workflow> cancel`, or `Reshard … cancel`) and create it again without `--stop-after-copy`; a stream merely stopped after copy without the flag resumes with `vtctldclient Workflow --keyspace <keyspace> start --workflow <workflow>`.',
  run(model, options) {
    // release-22.0's Externalize (one vindex named like the workflow, one rule per stream) or PR #17566's (v23+).
    const externalize = pickRule<'v22' | 'v23'>(options.vitess, [
      { versions: '<23', value: 'v22' },
      { versions: '>=23', value: 'v23' },
    ]).value;
    return model.workflows.flatMap((wf) =>
      wf.type === 'MoveTables' || wf.type === 'Reshard' ? switchedFindings(wf) : lookupFindings(model, wf, externalize),
    );
  },
});
