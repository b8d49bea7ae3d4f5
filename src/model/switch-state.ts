/**
 * How far a workflow's traffic has been switched, read the way Vitess reads it.
 *
 * Upstream: `vitessio/vitess:go/vt/vtctl/workflow/server.go` `getWorkflowState`:
 * - TABLES (MoveTables): writes are switched when, for any of the workflow's tables, the global routing rule keyed
 *   `<source keyspace>.<table>` exists and points first elsewhere than itself (server.go:501-503 @006b7393); reads of a
 *   tablet type are switched (`GetCellsWithTableReadsSwitched`) when `<source keyspace>.<first table>@replica` /
 *   `@rdonly` points into the target keyspace (Vitess reads it per cell from the SrvVSchema; the global rules are
 *   what the readout has).
 * - Multi-tenant MoveTables (`options.tenant_id`): the keyspace routing rules (`updateKeyspaceRoutingState`).
 * - Partial (shard-by-shard) MoveTables: only shard routing rules, shards whose rule points to the target keyspace are
 *   switched; Vitess never sets WritesSwitched for them, so its `canSwitch` always runs.
 * - SHARDS (Reshard): writes are switched when the source shard is no longer primary-serving; reads come from the
 *   SrvKeyspace, which the readout does not hold.
 * The state decides whether SwitchTraffic runs `canSwitch` at all ("writes already switched no need to check lag").
 */
import { isPartialMigration, migrationType } from './traffic-switch.js';
import type { ClusterModel, Workflow } from './types.js';

export interface SwitchState {
  readonly migrationType: 'TABLES' | 'SHARDS' | null;
  readonly partial: boolean;
  /** Vitess's `WritesSwitched` (always false for partial migrations); null when the evidence was not read. */
  readonly writesSwitched: boolean | null;
  /** Null when unknown (Reshard: not in the readout). */
  readonly replicaReadsSwitched: boolean | null;
  readonly rdonlyReadsSwitched: boolean | null;
  /**
   * Partial migrations: the workflow's shards whose shard routing rule points to the target keyspace (null: not read).
   */
  readonly shardsSwitched: readonly string[] | null;
  /** One line of evidence for the writes state (`routing rule customer → customer.customer`). */
  readonly evidence: string;
  /** The sorted table list of the workflow (TABLES). */
  readonly tables: readonly string[];
}

/** The switch state of a MoveTables or Reshard workflow. */
export function switchState(model: ClusterModel, wf: Workflow): SwitchState {
  const type = migrationType(wf);
  const tables = [...new Set(wf.streams.flatMap((s) => (s.source?.filter ? s.tables : [])))].sort();
  const sourceKs = wf.sourceKeyspaces[0] ?? '';
  if (type === 'SHARDS') {
    const shards = wf.sourceShards.map((n) => model.shard(sourceKs, n));
    let writesSwitched: boolean | null = null;
    let evidence = 'source shard records not read';
    if (shards.length > 0 && shards.every((s) => s !== undefined)) {
      const serving = shards.filter((s) => s!.isPrimaryServing).map((s) => s!.name);
      const notServing = shards.filter((s) => !s!.isPrimaryServing).map((s) => s!.name);
      writesSwitched = serving.length === 0 ? true : notServing.length === 0 ? false : null;
      evidence =
        writesSwitched === true
          ? `source shards ${notServing.join(', ')} no longer serve primary traffic`
          : writesSwitched === false
            ? `source shards ${serving.join(', ')} still serve primary traffic`
            : `source shards ${serving.join(', ')} serve primary traffic but ${notServing.join(', ')} do not`;
    }
    return {
      migrationType: type,
      partial: false,
      writesSwitched,
      replicaReadsSwitched: null,
      rdonlyReadsSwitched: null,
      shardsSwitched: null,
      evidence,
      tables,
    };
  }
  // Multi-tenant MoveTables (options.tenant_id) have no table routing rules: getWorkflowState reads the keyspace
  // routing rules instead (`server.go` `updateKeyspaceRoutingState`: writes are switched when the rule keyed by the
  // source keyspace — the primary suffix is empty — points at the target keyspace; reads by `@replica`/`@rdonly`).
  if (wf.streams.some((s) => (s.options?.tenantId ?? '') !== '')) {
    const krr = model.keyspaceRoutingRules;
    const known = krr.ok ? new Map(krr.value.map((r) => [r.fromKeyspace, r.toKeyspace] as const)) : null;
    const to = (suffix: string) => (known === null ? null : known.get(`${sourceKs}${suffix}`) === wf.keyspace);
    return {
      migrationType: type,
      partial: false,
      writesSwitched: to(''),
      replicaReadsSwitched: to('@replica'),
      rdonlyReadsSwitched: to('@rdonly'),
      shardsSwitched: null,
      evidence:
        known === null
          ? 'multi-tenant workflow: keyspace routing rules not read'
          : `keyspace routing rule ${sourceKs} → ${known.get(sourceKs) ?? '(none)'}`,
      tables,
    };
  }
  if (isPartialMigration(wf) === true) {
    let shardsSwitched: string[] | null = null;
    let evidence = 'shard routing rules not read';
    if (model.shardRoutingRules.ok) {
      shardsSwitched = wf.sourceShards.filter(
        (sh) =>
          model.shardRoutingRules.ok &&
          model.shardRoutingRules.value.some((r) => r.shard === sh && r.toKeyspace === wf.keyspace),
      );
      evidence =
        shardsSwitched.length > 0
          ? `shard routing rules send shards ${shardsSwitched.join(', ')} to ${wf.keyspace}`
          : `no shard routing rule sends shards ${wf.sourceShards.join(', ')} to ${wf.keyspace}`;
    }
    return {
      migrationType: type,
      partial: true,
      writesSwitched: false,
      replicaReadsSwitched: null,
      rdonlyReadsSwitched: null,
      shardsSwitched,
      evidence,
      tables,
    };
  }
  if (!model.routingRules.ok || tables.length === 0) {
    const evidence = model.routingRules.ok ? 'the workflow lists no table' : 'routing rules not read';
    return {
      migrationType: type,
      partial: false,
      writesSwitched: null,
      replicaReadsSwitched: null,
      rdonlyReadsSwitched: null,
      shardsSwitched: null,
      evidence,
      tables,
    };
  }
  const rules = model.routingRules.value;
  // getWorkflowState (`vitessio/vitess` server.go:501-503 @006b7393, the same at b3666b2d): for each table the rule
  // keyed `<source keyspace>.<table>` decides — writes are switched when it exists and its first target is not
  // itself. For a `_reverse` workflow the source is the forward workflow's source, i.e. the reverse workflow's own
  // keyspace.
  const ruleKs = wf.name.endsWith('_reverse') ? wf.keyspace : sourceKs;
  const switchedTable = tables.find((t) => {
    const rr = rules.get(`${ruleKs}.${t}`);
    return rr !== undefined && rr.length > 0 && rr[0] !== `${ruleKs}.${t}`;
  });
  const first = tables[0]!;
  // GetCellsWithTableReadsSwitched reads `<source>.<table>@<type>` (per cell from the SrvVSchema; the global rules
  // here): reads are switched when it routes into the target keyspace.
  const readsSwitched = (suffix: string) => {
    const to = rules.get(`${ruleKs}.${first}@${suffix}`);
    return to !== undefined && to.some((x) => x.split('.')[0] === wf.keyspace);
  };
  const rule = (t: string) => `${ruleKs}.${t} → ${(rules.get(`${ruleKs}.${t}`) ?? ['(none)']).join(', ')}`;
  return {
    migrationType: type,
    partial: false,
    writesSwitched: switchedTable !== undefined,
    replicaReadsSwitched: readsSwitched('replica'),
    rdonlyReadsSwitched: readsSwitched('rdonly'),
    shardsSwitched: null,
    evidence: `routing rule ${rule(switchedTable ?? first)}`,
    tables,
  };
}

/** Whether SwitchTraffic's `canSwitch` would run for a workflow, and why not. */
export interface CanSwitchScope {
  readonly runs: boolean;
  /** `notSwitchTraffic`: the workflow is not cut over with SwitchTraffic; `writesSwitched`: canSwitch is skipped. */
  readonly skipped: 'notSwitchTraffic' | 'writesSwitched' | null;
  /** One line saying why it does not run ('' when it runs). */
  readonly why: string;
}

/**
 * `canSwitch` runs only for SwitchTraffic (MoveTables and Reshard; Migrate refuses SwitchTraffic, a lookup backfill
 * is Externalized, Materialize is never switched), and `WorkflowSwitchTraffic` skips it when the workflow state says
 * writes are already switched in the requested direction (`vitessio/vitess:go/vt/vtctl/workflow/server.go`
 * `canSwitch`: "writes already switched no need to check lag"). A state that could not be read (`writesSwitched`
 * null) counts as not switched: the refusal is predicted rather than a cutover window risked.
 */
export function canSwitchScope(model: ClusterModel, wf: Workflow): CanSwitchScope {
  if (wf.type !== 'MoveTables' && wf.type !== 'Reshard')
    return {
      runs: false,
      skipped: 'notSwitchTraffic',
      why: `${wf.type} workflows are not cut over with SwitchTraffic, whose canSwitch refuses this`,
    };
  const st = switchState(model, wf);
  if (st.writesSwitched === true)
    return {
      runs: false,
      skipped: 'writesSwitched',
      why: `writes are already switched (${st.evidence}), so SwitchTraffic skips canSwitch`,
    };
  return { runs: true, skipped: null, why: '' };
}

/** One shard `canSwitch`'s tablet refresh visits, and on which side of the workflow. */
export interface RefreshedShard {
  readonly keyspace: string;
  readonly shard: string;
  readonly side: 'source' | 'target';
}

/**
 * The shards whose tablets `canSwitch` refreshes for a workflow: `refreshTablets(ts.SourceShards(), "source")` and
 * `refreshTablets(ts.TargetShards(), "target")` (`vitessio/vitess:go/vt/vtctl/workflow/server.go` `canSwitch`), i.e.
 * the source shards its streams read and the target shards that have its streams (BuildTargets keeps only those).
 * Each is `topotools.RefreshTabletsByShard` with no cell filter (`go/vt/topotools/keyspace.go`): every tablet of the
 * shard in every cell, except tablets without a hostname ("The tablet is not running … so we just skip this tablet").
 */
export function refreshedShards(wf: Workflow): RefreshedShard[] {
  const out: RefreshedShard[] = [];
  for (const keyspace of wf.sourceKeyspaces)
    for (const shard of wf.sourceShards) out.push({ keyspace, shard, side: 'source' });
  for (const shard of wf.targetShards) out.push({ keyspace: wf.keyspace, shard, side: 'target' });
  return out;
}
