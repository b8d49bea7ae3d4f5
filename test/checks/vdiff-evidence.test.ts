/**
 * vdiff-evidence. Field evidence: the troubleshooting guide ("run a VDiff before switching
 * traffic"), vitessio/vitess #9715 (false mismatches across versions), #11233 (VDiff after SwitchWrites), #17969
 * (VDiff failing on unique-key-only tables). Upstream: `go/vt/sidecardb/schema/vdiff/vdiff.sql` (252e9453) and
 * `vdiff_table.sql` (2291bf54) for the rows; `go/vt/vttablet/tabletmanager/vdiff/table_differ.go`
 * `stopTargetVReplicationStreams` (`state = 'Stopped', message='for vdiff'`) for a running VDiff.
 */
import check from '../../checks/vdiff-evidence.js';
import type { VDiffRow } from '../../src/readout.js';
import { checkTester } from '../helpers/check-tester.js';
import { moveTablesScenario } from '../helpers/reshard-scenario.js';

// commerce/0 → customer -80 (primary zone1-0000000110), 80- (…120): MoveTables commerce2customer, stream 1 per shard.
const moveTables = () => moveTablesScenario(['customer']);

type Run = Partial<VDiffRow> & { id: number; workflow: string };
/** The same VDiff run (uuid u1) on both target shards, each with `o` (per shard: `[-80, 80-]`). */
const withRuns = (minus: readonly Run[], plus: readonly Run[]) =>
  moveTables().vdiffs('customer', '-80', minus).vdiffs('customer', '80-', plus);
const run = (o: Partial<VDiffRow> = {}): Run => ({ id: 7, workflow: 'commerce2customer', vdiff_uuid: 'u1', ...o });

checkTester(check, {
  valid: [
    { name: 'VDiff tables not in the readout (older snapshot): not judged', model: moveTables() },
    {
      name: 'the newest VDiff completed on both target shards without mismatches',
      model: withRuns([run()], [run({ id: 3 })]),
      reasons: ['noVDiff', 'vdiffMismatch', 'vdiffFailed', 'vdiffRunning'],
    },
    {
      name: 'an older VDiff failed, the newest one completed',
      model: withRuns(
        [run({ id: 9, vdiff_uuid: 'u2', created_at: '2026-01-02 00:00:00' }), run({ state: 'error' })],
        [run({ id: 4, vdiff_uuid: 'u2', created_at: '2026-01-02 00:00:00' }), run({ id: 3, state: 'error' })],
      ),
      reasons: ['vdiffFailed'],
    },
    {
      name: "a VDiff of another workflow does not count for this one, but one target primary's runs were not read",
      model: moveTables().vdiffs('customer', '-80', []).vdiffs('customer', '80-', { error: 'connect ECONNREFUSED' }),
      reasons: ['noVDiff'],
    },
    {
      name: 'still copying: nothing to compare yet',
      model: moveTables()
        .patchStream('customer', '-80', 1, { copyTables: ['customer'] })
        .vdiffs('customer', '-80', [])
        .vdiffs('customer', '80-', []),
      reasons: ['noVDiff'],
    },
  ],
  invalid: [
    {
      name: 'no VDiff on any target primary (troubleshooting guide, #9715)',
      model: moveTables()
        .vdiffs('customer', '-80', [run({ workflow: 'other' })])
        .vdiffs('customer', '80-', []),
      findings: [
        {
          reason: 'noVDiff',
          severity: 'info',
          keyspace: 'customer',
          workflow: 'commerce2customer',
          message:
            'MoveTables customer.commerce2customer has no VDiff recorded on its target primaries: its copied data was never compared with the source before the switch',
          details: { targetShards: ['-80', '80-'] },
        },
      ],
    },
    {
      name: 'the newest VDiff is still running on 80- (streams stopped for vdiff)',
      model: withRuns([run()], [run({ id: 3, state: 'started', completed_at: null })]),
      findings: [
        {
          reason: 'vdiffRunning',
          severity: 'warning',
          message:
            'VDiff u1 of customer.commerce2customer is still running on 80-: it stops the target streams for each table it compares, so a switch now races it, and its result is not known yet',
          details: { vdiffUuid: 'u1', shards: ['80-'] },
        },
      ],
    },
    {
      name: 'the newest VDiff ended in error on -80 (#17969)',
      model: withRuns([run({ state: 'error', last_error: 'Row count exceeded' })], [run({ id: 3 })]),
      findings: [
        {
          reason: 'vdiffFailed',
          severity: 'warning',
          message:
            'the newest VDiff u1 of customer.commerce2customer did not complete on -80 (error: Row count exceeded): the data was not shown to match',
          details: { shards: ['-80'], state: 'error', lastError: 'Row count exceeded' },
        },
      ],
    },
    {
      name: 'the newest VDiff was stopped',
      model: withRuns([run({ state: 'stopped' })], [run({ id: 3, state: 'stopped' })]),
      findings: [{ reason: 'vdiffFailed', details: { shards: ['-80', '80-'], state: 'stopped' } }],
    },
    {
      name: 'the newest VDiff found mismatched rows in customer on 80-',
      model: withRuns([run()], [run({ id: 3, mismatched_tables: ['customer'] })]),
      findings: [
        {
          reason: 'vdiffMismatch',
          severity: 'warning',
          message:
            "the newest VDiff u1 of customer.commerce2customer found rows that differ in customer on 80-: switching serves the target's divergent data",
          details: { tables: ['customer'], shards: ['80-'] },
        },
      ],
    },
  ],
});
