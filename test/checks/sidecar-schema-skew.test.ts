/**
 * sidecar-schema-skew. Field evidence: vitessio/vitess #12100 (v15 vtctld and target, v14
 * source tablets: `createReverseVReplication failed: … Unknown column 'workflow_sub_type' in 'field list' (errno
 * 1054)`),
 * #11535 (`Unknown column 'tags'` in GetWorkflows). Upstream: `go/vt/vtctl/workflow/traffic_switcher.go`
 * `createReverseVReplication` (`binlogplayer.CreateVReplicationState`, `getReverseVReplicationUpdateQuery`).
 */
import check from '../../checks/sidecar-schema-skew.js';
import { checkTester } from '../helpers/check-tester.js';
import { cluster, SIDECAR_COLUMNS } from '../helpers/cluster.js';
import { moveTablesScenario } from '../helpers/reshard-scenario.js';

const without = (...cols: string[]) => SIDECAR_COLUMNS.filter((c) => !cols.includes(c));

// commerce/0: primary zone1-0000000100; customer/-80: …110; customer/80-: …120.
const moveTables = () => moveTablesScenario(['customer']);

checkTester(check, {
  valid: [
    { name: 'one schema everywhere', model: moveTables() },
    {
      name: 'the source is newer than the targets (the reverse insert names only columns it has)',
      reasons: ['reverseInsertColumnMissing', 'sourceColumnsBehind'],
      model: moveTables()
        .sidecarColumns('customer', '-80', without('options'))
        .sidecarColumns('customer', '80-', without('options')),
    },
    {
      name: 'the source primary was not read',
      model: moveTables().unreadable('commerce', '0').sidecarColumns('customer', '-80', without('tags')),
      reasons: ['reverseInsertColumnMissing'],
    },
    {
      name: 'no target primary was read',
      model: moveTables().unreadable('customer', '-80').unreadable('customer', '80-'),
    },
  ],
  invalid: [
    {
      name: 'a v14-era source under v15 targets: the reverse insert names workflow_sub_type (#12100)',
      model: moveTables().sidecarColumns(
        'commerce',
        '0',
        without('workflow_sub_type', 'defer_secondary_keys', 'options'),
      ),
      findings: [
        {
          keyspace: 'commerce',
          shard: '0',
          tablet: 'zone1-0000000100',
          message:
            "source primary zone1-0000000100 of commerce/0 has no workflow_sub_type, options in _vt.vreplication although the target primaries of commerce2customer have: SwitchTraffic writes the reverse workflow there after stopping writes and fails with \"Unknown column 'workflow_sub_type' in 'field list' (errno 1054)\"",
          details: {
            reason: 'reverseInsertColumnMissing',
            missingColumns: ['defer_secondary_keys', 'options', 'workflow_sub_type'],
            reverseColumns: ['workflow_sub_type', 'options'],
            targetPrimaries: ['zone1-0000000110', 'zone1-0000000120'],
          },
        },
      ],
    },
    {
      name: 'a source missing only a column the reverse streams do not write: a warning',
      model: moveTables().sidecarColumns('commerce', '0', without('component_throttled')),
      findings: [
        {
          severity: 'warning',
          keyspace: 'commerce',
          shard: '0',
          details: { reason: 'sourceColumnsBehind', missingColumns: ['component_throttled'] },
        },
      ],
    },
    {
      name: 'a Reshard whose source shard runs the older schema',
      model: cluster()
        .keyspace('customer', { shards: ['0', '-80', '80-'], notServing: ['-80', '80-'] })
        .reshard('cust2cust', { keyspace: 'customer', from: ['0'], to: ['-80', '80-'] })
        .sidecarColumns('customer', '0', without('workflow_type', 'workflow_sub_type', 'options')),
      findings: [
        {
          keyspace: 'customer',
          shard: '0',
          details: {
            reason: 'reverseInsertColumnMissing',
            reverseColumns: ['workflow_type', 'workflow_sub_type', 'options'],
          },
        },
      ],
    },
  ],
});
