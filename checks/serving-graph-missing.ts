/**
 * Every cell must have the serving records SwitchTraffic reads before it does anything else.
 *
 * Upstream: `vitessio/vitess:go/vt/vtctl/workflow/server.go` `getWorkflowState` (run first by
 * `WorkflowSwitchTraffic`): for a MoveTables (TABLES migration, not partial, not multi-tenant)
 * `GetCellsWithTableReadsSwitched` reads `GetCellInfoNames` and then `ts.GetSrvVSchema(cell)` for every cell; for
 * a Reshard (SHARDS) `GetCellsWithShardReadsSwitched` reads `ts.GetSrvKeyspace(cell, keyspace)` for every cell.
 * Either returns the topo error unwrapped (`node doesn't exist: …`), so SwitchTraffic fails before any check of its
 * own. vtctld's `GetSrvVSchema` makes the same topo call, so its NOT_FOUND text is Vitess's text exactly; a missing
 * SrvKeyspace shows as an empty entry of `GetSrvKeyspaces` (vtctld logs `no srvkeyspace for keyspace %s in cell %s`
 * and answers nil; the topo root in Vitess's text is not known to us, so no exact text is predicted).
 * Same logic in every release vtpreflight models (v19–v24).
 */
import { defineCheck, type CheckFinding } from '../src/engine/check.js';
import { isPartialMigration, migrationType } from '../src/model/traffic-switch.js';

export default defineCheck({
  id: 'serving-graph-missing',
  title: 'Every cell has the SrvVSchema and SrvKeyspace SwitchTraffic reads',
  severity: 'error',
  predicts: "node doesn't exist",
  description:
    'Before anything else, SwitchTraffic reads what vtgates serve in every cell of the topology: the SrvVSchema of ' +
    'each cell for a MoveTables, the SrvKeyspace of the keyspace in each cell for a Reshard ' +
    '(`server.go` `getWorkflowState`, `GetCellsWithTableReadsSwitched` / `GetCellsWithShardReadsSwitched`). A cell ' +
    "where the record was never built (a new cell, a keyspace never rebuilt there) fails the switch with the topo's " +
    "`node doesn't exist: …`. A cell whose record could not be read is a warning: the switch may fail the same way.",
  remediation:
    'Build the missing records: `vtctldclient RebuildVSchemaGraph --cells <cell>` for a SrvVSchema, ' +
    '`vtctldclient RebuildKeyspaceGraph --cells <cell> <keyspace>` for a SrvKeyspace; or remove a cell that is no ' +
    'longer used (`vtctldclient DeleteCellInfo`). Then run vtpreflight again.',
  needs: ['topology'],
  run(model) {
    const out: CheckFinding[] = [];
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
          const notFound = /^NOT_FOUND: /.exec(r.error.reason);
          out.push({
            message: notFound
              ? `cell ${cell} has no SrvVSchema, which SwitchTraffic reads for ${wf.keyspace}.${wf.name} in every cell`
              : `the SrvVSchema of cell ${cell} could not be read (${r.error.reason}); SwitchTraffic reads it for ${wf.keyspace}.${wf.name}`,
            ...(notFound ? {} : { severity: 'warning' as const }),
            keyspace: wf.keyspace,
            workflow: wf.name,
            details: {
              reason: notFound ? 'srvVSchemaMissing' : 'srvVSchemaUnreadable',
              cell,
              vitessPhase: 'build',
              ...(notFound ? { vitessError: r.error.reason.slice(notFound[0].length) } : { error: r.error.reason }),
            },
          });
        }
      } else if (type === 'SHARDS') {
        const byCell = srvKeyspaces.get(wf.keyspace);
        if (byCell === undefined) continue;
        if (!byCell.ok) {
          out.push({
            message: `the SrvKeyspace of ${wf.keyspace} could not be read (${byCell.error.reason}); SwitchTraffic reads it in every cell for ${wf.name}`,
            severity: 'warning',
            keyspace: wf.keyspace,
            workflow: wf.name,
            details: { reason: 'srvKeyspaceUnreadable', error: byCell.error.reason },
          });
          continue;
        }
        for (const cell of cells.value) {
          // vtctld's GetSrvKeyspaces answers a NoNode cell with a nil entry, which arrives as an empty message
          // (grpcvtctldserver/server.go GetSrvKeyspaces); a built SrvKeyspace always has partitions.
          const entry = byCell.value[cell];
          if (entry !== undefined && entry.partitions.length > 0) continue;
          out.push({
            message: `cell ${cell} has no SrvKeyspace for ${wf.keyspace}, which SwitchTraffic reads for Reshard ${wf.name} in every cell`,
            keyspace: wf.keyspace,
            workflow: wf.name,
            details: { reason: 'srvKeyspaceMissing', cell, vitessPhase: 'build' },
          });
        }
      }
    }
    return out;
  },
});
