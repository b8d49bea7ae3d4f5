/**
 * MirrorTraffic (`check --action mirror`): what `vtctldclient MoveTables MirrorTraffic` refuses before it writes mirror
 * rules. Upstream `vitessio/vitess:go/vt/vtctl/workflow/server.go` @006b7393 `WorkflowMirrorTraffic` (v21+, #15945):
 * after the getWorkflowState prelude, only a basic MoveTables is mirrored: another workflow type (`invalid action for
 * %s workflow: MirrorTraffic`, e.g. Reshard), a reverse workflow, a partial or a multi-tenant migration are refused;
 * then a requested tablet type whose traffic is already switched (REPLICA/RDONLY in any cell, PRIMARY when writes are)
 * is refused with `cannot mirror [%s] traffic for workflow %s at this time: traffic for those tablet types is
 * switched`; then `ts.validate` (the `validate` step's reasons, e.g. shard-set-mismatch) and the mirror rules
 * themselves: `mirrorTableTraffic` (traffic_switcher.go) counts the rules `<source>.<table>[@type] → <target>.<table>`
 * that exist for the workflow's tables and the requested types, and refuses when some but not all exist (`wrong number
 * of pre-existing mirror rules`, as in upstream's own test "does not overwrite when some but not all mirror rules
 * already exist", server_test.go).
 */
import { defineCheck, type CheckFinding, type Reasons } from '../src/engine/check.js';
import { requestedTabletTypes } from '../src/engine/options.js';
import { cellReads } from '../src/model/read-state.js';
import { switchState } from '../src/model/switch-state.js';
import { isPartialMigration } from '../src/model/traffic-switch.js';
import type { ClusterModel, Workflow } from '../src/model/types.js';
import { versionsHold } from '../src/vitess/versions.js';

const SERVER = 'go/vt/vtctl/workflow/server.go';

/** `string(startState.WorkflowType)`: getWorkflowState names TABLES migrations MoveTables, SHARDS ones Reshard. */
const stateTypeName = (wf: Workflow): string =>
  wf.type === 'CreateLookupIndex' ? '' : wf.type === 'Reshard' || wf.type === 'Migrate' ? wf.type : 'MoveTables';

function judge(model: ClusterModel, wf: Workflow, types: readonly string[]): CheckFinding<R>[] {
  const base = { keyspace: wf.keyspace, workflow: wf.name };
  const typeName = stateTypeName(wf);
  if (typeName !== 'MoveTables')
    return [
      {
        reason: 'notMoveTables',
        message: `${wf.keyspace}.${wf.name} is a ${wf.type} workflow; MirrorTraffic mirrors only a MoveTables`,
        ...base,
        vitessArgs: [typeName],
      },
    ];
  if (wf.name.endsWith('_reverse'))
    return [
      {
        reason: 'reverseWorkflow',
        message: `${wf.keyspace}.${wf.name} is a reverse workflow, which MirrorTraffic refuses`,
        ...base,
        vitessArgs: [],
      },
    ];
  if (isPartialMigration(wf) === true)
    return [
      {
        reason: 'partialMigration',
        message: `${wf.keyspace}.${wf.name} is a partial (shard-by-shard) MoveTables, which MirrorTraffic refuses`,
        ...base,
        vitessArgs: [],
      },
    ];
  if (wf.streams.some((s) => (s.options?.tenantId ?? '') !== ''))
    return [
      {
        reason: 'multiTenantMigration',
        message: `${wf.keyspace}.${wf.name} is a multi-tenant MoveTables, which MirrorTraffic refuses`,
        ...base,
        vitessArgs: [],
      },
    ];
  const st = switchState(model, wf);
  const reads = (type: 'REPLICA' | 'RDONLY'): boolean => {
    const cells = cellReads(model, wf, type);
    if (cells !== null) return cells.switched.length > 0;
    return (type === 'REPLICA' ? st.replicaReadsSwitched : st.rdonlyReadsSwitched) === true;
  };
  // In the order of the request's tablet types, as WorkflowMirrorTraffic appends them.
  const switched = types.filter((t) =>
    t === 'primary' ? st.writesSwitched === true : t === 'replica' ? reads('REPLICA') : reads('RDONLY'),
  );
  if (switched.length === 0) return mirrorRuleCount(model, wf, types);
  return [
    {
      reason: 'typesSwitched',
      message: `${switched.join(', ')} traffic of ${wf.keyspace}.${wf.name} is already switched, so it cannot be mirrored`,
      ...base,
      vitessArgs: [switched.join(','), wf.name],
      details: { switched },
    },
  ];
}

/** traffic_switcher.go mirrorTableTraffic: the pre-existing rules must be none or all of (table × tablet type). */
function mirrorRuleCount(model: ClusterModel, wf: Workflow, types: readonly string[]): CheckFinding<R>[] {
  if (!model.mirrorRules.ok) return []; // a failed GetMirrorRules is a read failure (unverified), not a finding
  const sourceKs = wf.sourceKeyspaces[0] ?? '';
  const tables = switchState(model, wf).tables;
  const have = new Set(model.mirrorRules.value.map((r) => `${r.fromTable}\u0000${r.toTable}`));
  const existing: string[] = [];
  for (const t of tables)
    for (const type of types) {
      const from = `${sourceKs}.${t}${type === 'primary' ? '' : `@${type}`}`;
      if (have.has(`${from}\u0000${wf.keyspace}.${t}`)) existing.push(from);
    }
  const expected = tables.length * types.length;
  if (existing.length === 0 || existing.length === expected) return [];
  return [
    {
      reason: 'wrongMirrorRuleCount',
      message: `${existing.length} of the ${expected} mirror rules of ${wf.keyspace}.${wf.name} for ${types.join(', ')} already exist (${existing.join(', ')}): MirrorTraffic writes all or none`,
      keyspace: wf.keyspace,
      workflow: wf.name,
      vitessArgs: [],
      details: { existing, expected },
    },
  ];
}

const reasons = {
  noMirrorTrafficBeforeV21: {
    severity: 'error',
    step: 'mirror-state',
    heuristic: true,
    rationale: 'MirrorTraffic exists since v21 (#15945) and every release judged against is older.',
  },
  notMoveTables: {
    severity: 'error',
    step: 'mirror-state',
    vitess: {
      template: 'invalid action for %s workflow: MirrorTraffic',
      file: SERVER,
      line: 3589,
      versions: { from: 21 },
    },
  },
  reverseWorkflow: {
    severity: 'error',
    step: 'mirror-state',
    vitess: {
      template: 'invalid action for reverse workflow: MirrorTraffic',
      file: SERVER,
      line: 3592,
      versions: { from: 21 },
    },
  },
  partialMigration: {
    severity: 'error',
    step: 'mirror-state',
    vitess: {
      template: 'invalid action for partial migration: MirrorTraffic',
      file: SERVER,
      line: 3598,
      versions: { from: 21 },
    },
  },
  multiTenantMigration: {
    severity: 'error',
    step: 'mirror-state',
    vitess: {
      template: 'invalid action for multi-tenant migration: MirrorTraffic',
      file: SERVER,
      line: 3601,
      versions: { from: 21 },
    },
  },
  wrongMirrorRuleCount: {
    severity: 'error',
    step: 'mirror-rules',
    vitess: {
      template: 'wrong number of pre-existing mirror rules',
      file: 'go/vt/vtctl/workflow/traffic_switcher.go',
      line: 1579,
      versions: { from: 21 },
    },
  },
  typesSwitched: {
    severity: 'error',
    step: 'mirror-state',
    vitess: {
      template: 'cannot mirror [%s] traffic for workflow %s at this time: traffic for those tablet types is switched',
      file: SERVER,
      line: 3620,
      versions: { from: 21 },
    },
  },
} satisfies Reasons;

type R = keyof typeof reasons;

export default defineCheck({
  id: 'mirror-traffic',
  needs: ['topology'],
  title: 'MirrorTraffic can mirror the workflow',
  reasons,
  description:
    'Judged with `--action mirror` (`vtctldclient MoveTables MirrorTraffic`, v21+, `server.go` `WorkflowMirrorTraffic`): only a basic MoveTables is mirrored (not a Reshard, a reverse workflow, a partial or a multi-tenant migration), and no requested tablet type (default: primary, replica, rdonly) may already be switched; and the mirror rules already present for its tables and those types must be none or all of them (`wrong number of pre-existing mirror rules`, e.g. a leftover of an older workflow with fewer tables).',
  remediation:
    'Mirror before switching: reverse the switched tablet types with `ReverseTraffic` first, or mirror only the types not switched (`--tablet-types`). Then run vtpreflight again.',
  run(model, options) {
    const out: CheckFinding<R>[] = [];
    const types = requestedTabletTypes(options.action);
    const old = versionsHold(options.vitess, '<21') === 'all';
    for (const wf of model.workflows) {
      if (old) {
        out.push({
          reason: 'noMirrorTrafficBeforeV21',
          message: `MirrorTraffic does not exist in the Vitess releases judged against (${wf.keyspace}.${wf.name})`,
          keyspace: wf.keyspace,
          workflow: wf.name,
        });
        continue;
      }
      out.push(...judge(model, wf, types));
    }
    return out;
  },
});
