/**
 * frozen-workflow: a workflow whose traffic switch already ran, fully or in part: FROZEN streams, routing that already
 * points at the target, denied tables left behind, a resharding journal past the point of no return.
 *
 * Upstream: `vitessio/vitess:go/vt/vtctl/workflow/server.go` `WorkflowSwitchTraffic` / `canSwitch` (any stream message
 * `FROZEN` ⇒ `workflow is frozen`, but the whole check is skipped when writes are already switched in the requested
 * direction), `getWorkflowState` (what "switched" means), `switchWrites` (a frozen workflow has nothing left to do;
 * `checkJournals` finds the journal and resumes after the point of no return), `traffic_switcher.go`
 * (`stopSourceWrites` denies the tables on the source primaries, `cancelMigration` removes the denial,
 * `allowTargetWrites` removes the target's, `freezeTargetVReplication` writes `FROZEN`), `utils.go` `HashStreams`
 * (the journal id).
 *
 * Failure modes (`details.reason`):
 * - `frozen`: FROZEN streams while writes are not switched (error: `workflow is frozen`), or when that is unknown
 * (warning).
 * - `alreadySwitched` (info): FROZEN with writes switched: the switch is done.
 * - `journalExists` (warning): not frozen, but a previous switch left its journal: the next SwitchTraffic resumes.
 * - `writesSwitchedNotFrozen` (warning): routing already sends writes to the target, yet the streams still run.
 * - `readsSwitched` (info): REPLICA/RDONLY reads switched, writes not yet: normal progress.
 * - `sourceDeniesTables` (warning): source primaries deny the moved tables although writes are not switched.
 * - `targetDeniesTables` (warning): target primaries still deny the moved tables after writes were switched.
 * Target primaries denying the tables before the switch are expected (MoveTables create sets that up on newer Vitess).
 */
import { defineCheck, type CheckFinding, type VitessText, type Reasons } from '../src/engine/check.js';
import { findWorkflowJournal, type JournalSearch } from '../src/model/journal.js';
import { switchState, type SwitchState } from '../src/model/switch-state.js';
import { allShardsRead } from '../src/model/traffic-switch.js';
import type { ClusterModel, Shard, Stream, Workflow } from '../src/model/types.js';
import { plural } from '../src/text.js';

const FROZEN = 'FROZEN';

const wfName = (wf: Workflow) => `workflow ${wf.name} in ${wf.keyspace}`;

function streamList(streams: readonly Stream[]) {
  return streams.map((s) => ({ shard: s.shard, streamId: s.id }));
}

function onlyStream(streams: readonly Stream[]): Pick<CheckFinding, 'shard' | 'streamId' | 'tablet'> {
  const s = streams.length === 1 ? streams[0]! : undefined;
  return s ? { shard: s.shard, streamId: s.id, tablet: s.tablet } : {};
}

function journalDetails(j: JournalSearch | null) {
  // Checked means every source primary that could hold the journal was read.
  if (j === null) return { journalChecked: false };
  return {
    journalChecked: j.unread.length === 0,
    journalId: j.id,
    journalFoundOn: j.foundOn,
    ...(j.unread.length > 0 ? { journalUnread: j.unread } : {}),
  };
}

/** The finding about FROZEN streams, if any. */
function frozenFinding(
  wf: Workflow,
  st: SwitchState,
  frozen: readonly Stream[],
  journal: JournalSearch | null,
): CheckFinding<R> {
  const base = {
    keyspace: wf.keyspace,
    workflow: wf.name,
    ...onlyStream(frozen),
  };
  const details = {
    frozenStreams: streamList(frozen),
    writesSwitched: st.writesSwitched,
    evidence: st.evidence,
    ...(st.partial ? { partial: true, shardsSwitched: st.shardsSwitched } : {}),
    ...journalDetails(journal),
  };
  const n = plural(frozen.length, 'FROZEN stream');
  if (st.partial && st.shardsSwitched !== null && st.shardsSwitched.length > 0) {
    return {
      reason: 'partialSwitchDone',
      message: `${wfName(wf)} has ${n} and ${st.evidence}: its partial switch is done; SwitchTraffic, which always checks a partial workflow, would answer "workflow is frozen"`,
      ...base,
      vitessArgs: [],
      details,
    };
  }
  if (st.writesSwitched === true) {
    return {
      reason: 'alreadySwitched',
      message: `${wfName(wf)} has ${n} and its writes are switched (${st.evidence}): SwitchTraffic skips its checks and has nothing left to do; ReverseTraffic uses ${wf.name}_reverse, Complete finishes the workflow`,
      ...base,
      details,
    };
  }
  if (st.writesSwitched === false) {
    return {
      reason: 'frozen',
      message: `${wfName(wf)} has ${n} although its writes are not switched (${st.evidence}), so SwitchTraffic refuses with "workflow is frozen"`,
      ...base,
      vitessArgs: [],
      details,
    };
  }
  return {
    reason: 'frozenSwitchUnknown',
    message: `${wfName(wf)} has ${n} and whether its writes are switched is unknown (${st.evidence}): if they are not, SwitchTraffic refuses with "workflow is frozen"`,
    ...base,
    details,
  };
}

/** PRIMARY denied tables of a shard record that belong to the workflow. */
function deniedOf(shard: Shard, tables: readonly string[]): string[] {
  const denied = new Set<string>();
  for (const tc of shard.tabletControls) {
    const type = tc.tabletType.toUpperCase();
    if (type !== 'PRIMARY' && type !== 'MASTER') continue;
    for (const t of tc.deniedTables) if (tables.includes(t)) denied.add(t);
  }
  return [...denied].sort();
}

function deniedFindings(model: ClusterModel, wf: Workflow, st: SwitchState, frozen: boolean): CheckFinding<R>[] {
  if (st.migrationType !== 'TABLES' || st.partial || st.tables.length === 0) return [];
  const out: CheckFinding<R>[] = [];
  const sourceKs = wf.sourceKeyspaces[0];
  if (st.writesSwitched === false && !frozen && sourceKs !== undefined) {
    for (const name of wf.sourceShards) {
      const shard = model.shard(sourceKs, name);
      if (!shard) continue;
      const denied = deniedOf(shard, st.tables);
      if (denied.length === 0) continue;
      out.push({
        reason: 'sourceDeniesTables',
        message: `source shard ${sourceKs}/${name} denies writes to ${denied.join(', ')} on its primary although ${wfName(wf)} has not switched writes, a leftover of an interrupted switch: the application cannot write these tables`,
        keyspace: wf.keyspace,
        workflow: wf.name,
        ...(shard.primaryAlias ? { tablet: shard.primaryAlias } : {}),
        details: {
          sourceKeyspace: sourceKs,
          sourceShard: name,
          deniedTables: denied,
          evidence: st.evidence,
        },
      });
    }
  }
  if (st.writesSwitched === true) {
    for (const name of wf.targetShards) {
      const shard = model.shard(wf.keyspace, name);
      if (!shard) continue;
      const denied = deniedOf(shard, st.tables);
      if (denied.length === 0) continue;
      out.push({
        reason: 'targetDeniesTables',
        message: `target shard ${wf.keyspace}/${name} still denies writes to ${denied.join(', ')} on its primary although ${wfName(wf)} switched writes to it: the application cannot write these tables`,
        keyspace: wf.keyspace,
        shard: name,
        workflow: wf.name,
        ...(shard.primaryAlias ? { tablet: shard.primaryAlias } : {}),
        details: { deniedTables: denied, evidence: st.evidence },
      });
    }
  }
  return out;
}

function workflowFindings(model: ClusterModel, wf: Workflow): CheckFinding<R>[] {
  const st = switchState(model, wf);
  const frozen = wf.streams.filter((s) => s.message === FROZEN);
  // The journal id hashes every stream of the workflow: only computable when every target shard was read.
  const journal = allShardsRead(model, wf.keyspace) ? findWorkflowJournal(model, wf) : null;
  const out: CheckFinding<R>[] = [];
  if (frozen.length > 0) {
    out.push(frozenFinding(wf, st, frozen, journal));
  } else if (journal !== null && journal.foundOn.length > 0) {
    const where = journal.foundOn.map((f) => `${f.tablet} (${f.keyspace}/${f.shard})`).join(', ');
    out.push({
      reason: 'journalExists',
      message: `a resharding journal of ${wfName(wf)} (id ${journal.id}) exists on source primary ${where}: a previous SwitchTraffic passed its point of no return, so the next one resumes from there and Cancel is refused`,
      keyspace: wf.keyspace,
      workflow: wf.name,
      ...(journal.foundOn.length === 1 ? { tablet: journal.foundOn[0]!.tablet } : {}),
      details: {
        ...journalDetails(journal),
        writesSwitched: st.writesSwitched,
        evidence: st.evidence,
        cancelError: 'traffic switching has reached the point of no return, cannot cancel',
      },
    });
  } else if (st.writesSwitched === true || (st.partial && (st.shardsSwitched?.length ?? 0) > 0)) {
    out.push({
      reason: 'writesSwitchedNotFrozen',
      message:
        `${wfName(wf)} already sends writes to the target (${st.evidence}) but its streams are not frozen and ` +
        (journal !== null && journal.unread.length === 0
          ? 'no journal of it was found'
          : 'its journal could not be looked for on every source primary') +
        `: SwitchTraffic ${st.partial ? 'runs' : 'skips its checks and runs'} the whole write switch again while the application writes to both sides`,
      keyspace: wf.keyspace,
      workflow: wf.name,
      details: {
        writesSwitched: st.writesSwitched,
        evidence: st.evidence,
        ...journalDetails(journal),
      },
    });
  } else if (st.writesSwitched === false && (st.replicaReadsSwitched === true || st.rdonlyReadsSwitched === true)) {
    const types = [...(st.replicaReadsSwitched ? ['REPLICA'] : []), ...(st.rdonlyReadsSwitched ? ['RDONLY'] : [])];
    out.push({
      reason: 'readsSwitched',
      message: `${wfName(wf)} has ${types.join(' and ')} reads switched to ${wf.keyspace} while writes still go to ${wf.sourceKeyspaces.join(', ')}`,
      keyspace: wf.keyspace,
      workflow: wf.name,
      details: { tabletTypes: types, table: st.tables[0] },
    });
  }
  out.push(...deniedFindings(model, wf, st, frozen.length > 0));
  return out;
}

/** `canSwitch`: a stream whose message is FROZEN. */
const FROZEN_TEXT: VitessText = {
  template: 'workflow is frozen',
  file: 'go/vt/vtctl/workflow/server.go',
  line: 105,
  versions: { from: 17 },
};

const reasons = {
  frozen: { severity: 'error', step: 'can-switch-streams', vitess: FROZEN_TEXT },
  partialSwitchDone: { severity: 'info', step: 'can-switch-streams', vitess: FROZEN_TEXT },
  frozenSwitchUnknown: {
    severity: 'warning',
    step: 'can-switch-streams',
    heuristic: true,
    rationale:
      'Whether writes are switched could not be read; if they are not, SwitchTraffic refuses with workflow is frozen.',
  },
  alreadySwitched: {
    // The switch state SwitchTraffic reports; ReverseTraffic, complete and cancel judge it themselves.
    actions: ['switch'],
    severity: 'info',
    step: 'workflow-state',
    heuristic: true,
    rationale: 'Writes are already switched, so SwitchTraffic has nothing left to do: the next step is Complete.',
  },
  journalExists: {
    severity: 'warning',
    step: 'switch-reads',
    heuristic: true,
    rationale:
      'A journal means a previous switch passed its point of no return: the next SwitchTraffic resumes it and Cancel is refused.',
  },
  writesSwitchedNotFrozen: {
    // The switch state SwitchTraffic reports; ReverseTraffic, complete and cancel judge it themselves.
    actions: ['switch'],
    severity: 'warning',
    step: 'workflow-state',
    heuristic: true,
    rationale:
      'Routing already sends writes to the target while the streams run, so a new SwitchTraffic redoes the write switch under live writes.',
  },
  readsSwitched: {
    // The switch state SwitchTraffic reports; ReverseTraffic, complete and cancel judge it themselves.
    actions: ['switch'],
    severity: 'info',
    step: 'workflow-state',
    heuristic: true,
    rationale: 'Reads switched before writes is normal progress, reported so the state is visible.',
  },
  sourceDeniesTables: {
    // The switch state SwitchTraffic reports; ReverseTraffic, complete and cancel judge it themselves.
    actions: ['switch'],
    severity: 'warning',
    step: 'workflow-state',
    heuristic: true,
    rationale:
      'Tables denied on the source primaries without a write switch are a leftover the application cannot write through.',
  },
  targetDeniesTables: {
    // The switch state SwitchTraffic reports; ReverseTraffic, complete and cancel judge it themselves.
    actions: ['switch'],
    severity: 'warning',
    step: 'workflow-state',
    heuristic: true,
    rationale: 'Tables still denied on the target after the write switch block the application from writing them.',
  },
} satisfies Reasons;

type R = keyof typeof reasons;

export default defineCheck({
  id: 'frozen-workflow',
  streamTestOrder: 0,
  needs: ['topology'],
  title: 'The workflow has not been switched already, not even in part',
  reasons,
  description:
    "After SwitchTraffic switches writes it marks the forward streams `FROZEN` (`vitessio/vitess:go/vt/vtctl/workflow/traffic_switcher.go` `freezeTargetVReplication`). SwitchTraffic skips its own preflight (`server.go` `canSwitch`) when writes are already switched in the requested direction — then a frozen workflow simply has nothing left to do, ReverseTraffic works on `<workflow>_reverse` and Complete finishes it — but when writes are not switched (routing rules, or for Reshard the source shards' serving state, say so) a FROZEN stream makes it refuse with `workflow is frozen`; a partial (shard-by-shard) MoveTables is always checked. Leftovers of an interrupted switch are reported too: a resharding journal of this workflow on a source primary (its id computed like `utils.go` `HashStreams`) means the point of no return was passed and the next SwitchTraffic resumes from there (`switchWrites` `checkJournals`) while Cancel is refused; routing that already sends writes to the target while the streams still run; tables still denied on the source primaries although writes were never switched (cancelMigration failed to remove them), or still denied on the target after the switch. Reads switched before writes are normal progress (info). Reverse workflows (`*_reverse`) are not judged.",
  remediation:
    'Check the state with `vtctldclient Workflow --keyspace <keyspace> show --workflow <workflow>` and `vtctldclient GetRoutingRules` (partial MoveTables: `vtctldclient GetShardRoutingRules`). A switched workflow is finished with `vtctldclient MoveTables --target-keyspace <keyspace> --workflow <workflow> complete` (or `Reshard … complete`), or rolled back with `… reversetraffic`. When a journal exists, run `… switchtraffic` again to finish the interrupted switch. A FROZEN workflow whose writes are not switched, or tables denied without a switch, need manual repair: compare the routing rules with the workflow, fix the denied tables with `vtctldclient SetShardTabletControl --denied-tables <tables> --remove <keyspace>/<shard> primary` followed by `vtctldclient RefreshStateByShard <keyspace>/<shard>`, and restart the streams with `vtctldclient Workflow --keyspace <keyspace> start --workflow <workflow>` only after confirming no writes reached the target.',
  run(model) {
    return model.workflows
      .filter((wf) => (wf.type === 'MoveTables' || wf.type === 'Reshard') && !wf.name.endsWith('_reverse'))
      .flatMap((wf) => workflowFindings(model, wf));
  },
});
