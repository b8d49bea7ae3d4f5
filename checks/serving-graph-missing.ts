/**
 * Every cell must have the serving records SwitchTraffic reads before it does anything else.
 *
 * Upstream: `vitessio/vitess:go/vt/vtctl/workflow/server.go` `getWorkflowState` (run first by
 * `WorkflowSwitchTraffic`): for a MoveTables (TABLES migration, not partial, not multi-tenant)
 * `GetCellsWithTableReadsSwitched` reads `GetCellInfoNames` and then `ts.GetSrvVSchema(cell)` for every cell; for
 * a Reshard (SHARDS) `GetCellsWithShardReadsSwitched` reads `ts.GetSrvKeyspace(cell, keyspace)` for every cell.
 * Either returns the topo error unwrapped (`node doesn't exist: …`), so SwitchTraffic fails before any check of its
 * own. vtctld's `GetSrvVSchema` makes the same topo call and returns its error as is
 * (`go/vt/vtctl/grpcvtctldserver/server.go:2195-2197` @v0.24.4): a topo.Error has no gRPC status, so vtctld answers
 * UNKNOWN with the topo's text, which is Vitess's text exactly (read as `not-found` by `src/sources/read-kind.ts`);
 * any other failure is a warning. A missing SrvKeyspace shows as an empty entry of `GetSrvKeyspaces` (vtctld logs
 * `no srvkeyspace for keyspace %s in cell %s` and answers nil; the topo root in Vitess's text is not known to us, so
 * no exact text is predicted).
 * Same logic and texts in every release vtpreflight models (read at v0.19.10, v0.22.1 and v0.24.4).
 */
import { defineCheck, type CheckFinding, type Reasons } from '../src/engine/check.js';
import { isPartialMigration, migrationType } from '../src/model/traffic-switch.js';

const reasons = {
  // The topo's NoNode error, returned unwrapped by getWorkflowState (go/vt/topo/errors.go; the line is our reading
  // of errors.go's NewError switch, not checked against the pinned commit). vtctld's GetSrvVSchema answers the same
  // text for the same call, so the finding quotes it as read.
  srvVSchemaMissing: {
    severity: 'error',
    step: 'workflow-state',
    vitess: { template: "node doesn't exist: %s", file: 'go/vt/topo/errors.go', line: 49, versions: { from: 17 } },
  },
  // Same refusal; the text names the SrvKeyspace's topo path under the cell's root, which vtctld's GetSrvKeyspaces
  // does not show (it answers a nil entry), so no text is filled in.
  srvKeyspaceMissing: {
    severity: 'error',
    step: 'workflow-state',
    vitess: { template: "node doesn't exist: %s", file: 'go/vt/topo/errors.go', line: 49, versions: { from: 17 } },
  },
  srvVSchemaUnreadable: {
    severity: 'warning',
    step: 'workflow-state',
    heuristic: true,
    rationale: 'The SrvVSchema of a cell could not be read, so whether SwitchTraffic can read it is unknown.',
  },
  srvKeyspaceUnreadable: {
    severity: 'warning',
    step: 'workflow-state',
    heuristic: true,
    rationale: 'The SrvKeyspaces of the keyspace could not be read, so whether SwitchTraffic can read them is unknown.',
  },
} satisfies Reasons;

type R = keyof typeof reasons;

export default defineCheck({
  id: 'serving-graph-missing',
  title: 'Every cell has the SrvVSchema and SrvKeyspace SwitchTraffic reads',
  reasons,
  description:
    "Before anything else, SwitchTraffic reads what vtgates serve in every cell of the topology: the SrvVSchema of each cell for a MoveTables, the SrvKeyspace of the keyspace in each cell for a Reshard (`server.go` `getWorkflowState`, `GetCellsWithTableReadsSwitched` / `GetCellsWithShardReadsSwitched`). A cell where the record was never built (a new cell, a keyspace never rebuilt there) fails the switch with the topo's `node doesn't exist: …`. A cell whose record could not be read is a warning: the switch may fail the same way.",
  remediation:
    'Build the missing records: `vtctldclient RebuildVSchemaGraph --cells <cell>` for a SrvVSchema, `vtctldclient RebuildKeyspaceGraph --cells <cell> <keyspace>` for a SrvKeyspace; or remove a cell that is no longer used (`vtctldclient DeleteCellInfo`). Then run vtpreflight again.',
  needs: ['topology'],
  run(model) {
    const out: CheckFinding<R>[] = [];
    const { cells, srvVSchemas, srvKeyspaces } = model.serving;
    if (!cells.ok) return out; // not collected (older readout): nothing to judge
    for (const wf of model.workflows) {
      const type = migrationType(wf);
      if (wf.type !== 'MoveTables' && wf.type !== 'Reshard' && wf.type !== 'Migrate') continue;
      if (type === 'TABLES') {
        // Partial and multi-tenant MoveTables read shard or keyspace routing rules instead.
        if (isPartialMigration(wf) !== false || wf.streams.some((s) => (s.options?.tenantId ?? '') !== '')) continue;
        for (const cell of cells.value) {
          const r = srvVSchemas.get(cell);
          if (r === undefined || r.ok) continue;
          // The topo's NoNode (the typed kind), quoted without the status name the reason begins with.
          const notFound = r.error.kind === 'not-found';
          const prefix = `${r.error.code ?? r.error.reason.split(': ', 1)[0]}: `;
          const text = r.error.reason.slice(r.error.reason.indexOf(prefix) === 0 ? prefix.length : 0);
          const loc = { keyspace: wf.keyspace, workflow: wf.name };
          out.push(
            notFound
              ? {
                  reason: 'srvVSchemaMissing',
                  message: `cell ${cell} has no SrvVSchema, which SwitchTraffic reads for ${wf.keyspace}.${wf.name} in every cell`,
                  ...loc,
                  // Hand-filled: the topo's own NoNode text, quoted as vtctld returned it.
                  vitessError: text,
                  details: { cell },
                }
              : {
                  reason: 'srvVSchemaUnreadable',
                  message: `the SrvVSchema of cell ${cell} could not be read (${r.error.reason}); SwitchTraffic reads it for ${wf.keyspace}.${wf.name}`,
                  ...loc,
                  details: { cell, error: r.error.reason },
                },
          );
        }
      } else if (type === 'SHARDS') {
        const byCell = srvKeyspaces.get(wf.keyspace);
        if (byCell === undefined) continue;
        if (!byCell.ok) {
          out.push({
            reason: 'srvKeyspaceUnreadable',
            message: `the SrvKeyspace of ${wf.keyspace} could not be read (${byCell.error.reason}); SwitchTraffic reads it in every cell for ${wf.name}`,
            keyspace: wf.keyspace,
            workflow: wf.name,
            details: { error: byCell.error.reason },
          });
          continue;
        }
        for (const cell of cells.value) {
          // vtctld's GetSrvKeyspaces answers a NoNode cell with a nil entry, which arrives as an empty message
          // (grpcvtctldserver/server.go GetSrvKeyspaces); a built SrvKeyspace always has partitions.
          const entry = byCell.value[cell];
          if (entry !== undefined && entry.partitions.length > 0) continue;
          out.push({
            reason: 'srvKeyspaceMissing',
            message: `cell ${cell} has no SrvKeyspace for ${wf.keyspace}, which SwitchTraffic reads for Reshard ${wf.name} in every cell`,
            keyspace: wf.keyspace,
            workflow: wf.name,
            details: { cell },
          });
        }
      }
    }
    return out;
  },
});
