import check from '../../checks/create-workflow.js';
import { DEFAULT_ACTION_REQUEST, type CreateRequest, type TabletTypeName } from '../../src/engine/options.js';
import { givenVitessVersions } from '../../src/vitess/versions.js';
import { checkTester } from '../helpers/check-tester.js';
import { cluster, type ClusterBuilder } from '../helpers/cluster.js';
import { moveTablesScenario } from '../helpers/reshard-scenario.js';

/** commerce/0 (…100) → customer -80 (…110), 80- (…120): MoveTables commerce2customer of customer. */
function moveTables(): ClusterBuilder {
  return moveTablesScenario(['customer']);
}

/** `--action create --workflow <workflow> --target-keyspace <targetKeyspace>`. */
const create = (workflow: string, targetKeyspace = 'customer') => ({
  action: { ...DEFAULT_ACTION_REQUEST, action: 'create' as const, create: { workflow, targetKeyspace } },
});

checkTester(
  check,
  {
    valid: [
      {
        name: 'a new name: no target primary has a stream of it',
        model: moveTables(),
        options: create('commerce2customer_v2'),
        reasons: [
          'workflowExists',
          'workflowExistsV19',
          'workflowExistsV20',
          'shardNoPrimary',
          'targetKeyspaceMissing',
        ],
      },
      {
        // A keyspace vtpreflight could not list is no refusal: the read failure leaves the verdict unverified.
        name: 'GetKeyspaces failed: whether the target keyspace exists is not known, no finding',
        model: moveTables().topologyUnreadable('keyspaces'),
        options: create('commerce2customer', 'customer2'),
        reasons: ['targetKeyspaceMissing'],
      },
      {
        // Only NoNode says the vschema is not there; any other failed GetVSchema is a read failure (unverified).
        name: 'GetVSchema of the target failed, not with NoNode: no finding',
        model: moveTables().vschemaUnreadable('customer', 'UNAVAILABLE: connection refused'),
        options: create('commerce2customer_v2'),
        reasons: ['targetVSchemaMissing'],
      },
      {
        // v20 reads the workflows (ReadVReplicationWorkflows) and no longer refuses a frozen one of another name.
        name: 'a FROZEN workflow on a target primary, judged against v20: no refusal',
        model: moveTables().patchStream('customer', '-80', 1, { state: 'Stopped', message: 'FROZEN' }),
        options: { ...create('other'), vitess: givenVitessVersions('20', 'flag') },
        reasons: ['frozenWorkflowOnTarget'],
      },
      {
        // validateNewWorkflow reads the target keyspace's shards only (utils.go:105-128 @00bd50b6).
        name: 'the name is taken in another keyspace only',
        model: moveTables(),
        options: create('commerce2customer', 'commerce'),
        reasons: ['workflowExists'],
      },
      {
        name: 'a source shard without primary: not a target shard record',
        model: cluster()
          .keyspace('commerce', { shards: ['0'], noPrimary: ['0'] })
          .keyspace('customer', { shards: ['-80', '80-'] }),
        options: create('commerce2customer'),
        reasons: ['shardNoPrimary'],
      },
      {
        name: 'another action judged: create says nothing',
        model: moveTables(),
        options: { action: { ...DEFAULT_ACTION_REQUEST, action: 'cancel' as const } },
        reasons: ['workflowExists'],
      },
      {
        name: 'the target sidecar was not read: unverified, not a finding',
        model: moveTables().unreadable('customer', '-80').unreadable('customer', '80-'),
        options: create('commerce2customer'),
        reasons: ['workflowExists'],
      },
    ],
    invalid: [
      {
        // v19: validateWorkflowName's `select 1 … where workflow=…`, message wrapped (utils.go:113, :126 @v0.19.10);
        // measured on real v19.0.0: `validateWorkflowName.VReplicationExec: workflow m2m already exists in keyspace
        // merchant on tablet cell:"zone1" uid:900`.
        name: 'the name is taken, judged against v19: the alias printed as a proto, wrapped',
        model: moveTables(),
        options: { ...create('commerce2customer'), vitess: givenVitessVersions('19', 'flag') },
        findings: [
          {
            shard: '-80',
            reason: 'workflowExistsV19',
            details: {
              vitessError:
                'validateWorkflowName.VReplicationExec: workflow commerce2customer already exists in keyspace customer on tablet cell:"zone1" uid:110',
              versionNote: undefined,
            },
          },
          { shard: '80-', reason: 'workflowExistsV19' },
        ],
      },
      {
        // v20: utils.go:124 @v0.20.8, the alias proto unwrapped.
        name: 'the name is taken, judged against v20: the alias printed as a proto',
        model: moveTables(),
        options: { ...create('commerce2customer'), vitess: givenVitessVersions('20', 'flag') },
        findings: [
          {
            shard: '-80',
            reason: 'workflowExistsV20',
            details: {
              vitessError:
                'workflow commerce2customer already exists in keyspace customer on tablet cell:"zone1" uid:110',
            },
          },
          { shard: '80-', reason: 'workflowExistsV20' },
        ],
      },
      {
        // v19's second validation (utils.go:115-117 @v0.19.10): any FROZEN, not partial, workflow on a target primary.
        name: 'a FROZEN workflow of another name on a target primary, judged against v19',
        model: moveTables().patchStream('customer', '-80', 1, { state: 'Stopped', message: 'FROZEN' }),
        options: { ...create('other'), vitess: givenVitessVersions('19', 'flag') },
        findings: [
          {
            shard: '-80',
            tablet: 'zone1-0000000110',
            reason: 'frozenWorkflowOnTarget',
            details: {
              vitessError:
                'validateWorkflowName.VReplicationExec: found previous frozen workflow on tablet cell:"zone1" uid:110, please review and delete it first before creating a new workflow',
              frozenWorkflows: ['commerce2customer'],
            },
          },
        ],
      },
      {
        // moveTablesCreate: GetVSchema of the target (server.go:1127-1130 @v0.24.4) returns the topo's NoNode error
        // (errors.go:55 @v0.23.2, the same words at :54 @v0.24.4) before anything else is read.
        name: 'the target keyspace does not exist: GetKeyspaces does not list it',
        model: moveTables(),
        options: create('commerce2customer', 'customer2'),
        findings: [
          {
            keyspace: 'customer2',
            workflow: 'commerce2customer',
            reason: 'targetKeyspaceMissing',
            severity: 'error',
            message:
              "target keyspace customer2 does not exist (vtctld's GetKeyspaces does not list it), so MoveTables create fails reading its vschema",
            details: { node: 'keyspaces/customer2/VSchema' },
          },
        ],
      },
      {
        // A keyspace created with --allow-empty-vschema has no vschema node: moveTablesCreate's GetVSchema (server.go
        // :1127-1130 @v0.24.4) fails with the NoNode error vtctld's own GetVSchema answered, before the shards are
        // read.
        name: 'the target keyspace exists without a vschema node: GetVSchema answers NoNode',
        model: moveTables().vschemaUnreadable(
          'customer',
          "UNKNOWN: node doesn't exist: /vitess/global/keyspaces/customer/VSchema",
        ),
        options: create('commerce2customer'),
        findings: [
          {
            keyspace: 'customer',
            workflow: 'commerce2customer',
            reason: 'targetVSchemaMissing',
            severity: 'error',
            message:
              "target keyspace customer has no vschema (vtctld's GetVSchema: UNKNOWN: node doesn't exist: /vitess/global/keyspaces/customer/VSchema), so MoveTables create fails reading it",
            details: {
              node: '/vitess/global/keyspaces/customer/VSchema',
              vitessError: "node doesn't exist: /vitess/global/keyspaces/customer/VSchema",
            },
          },
        ],
      },
      {
        // utils.go:128 @00bd50b6: a row with the workflow name on a target primary, one error per shard.
        name: 'the name is taken on every target primary',
        model: moveTables(),
        options: create('commerce2customer'),
        findings: [
          {
            keyspace: 'customer',
            shard: '-80',
            workflow: 'commerce2customer',
            reason: 'workflowExists',
            tablet: 'zone1-0000000110',
            details: {
              vitessError: 'workflow commerce2customer already exists in keyspace customer on tablet zone1-0000000110',
            },
          },
          {
            shard: '80-',
            reason: 'workflowExists',
            details: {
              vitessError: 'workflow commerce2customer already exists in keyspace customer on tablet zone1-0000000120',
            },
          },
        ],
      },
      {
        name: 'a frozen leftover of a switched, never completed workflow on one shard',
        model: moveTables()
          .patchStream('customer', '-80', 1, { state: 'Stopped', message: 'FROZEN' })
          .removeStream('customer', '80-', 1),
        options: create('commerce2customer'),
        findings: [{ shard: '-80', reason: 'workflowExists' }],
      },
      {
        // utils.go:105 @00bd50b6: every shard record of the target keyspace, serving or not (si.ShardName()).
        name: 'a leftover shard record without primary in the target keyspace',
        model: moveTables().orphanShard('customer', '80-c0'),
        options: create('commerce2customer_v2'),
        findings: [
          {
            keyspace: 'customer',
            shard: '80-c0',
            reason: 'shardNoPrimary',
            details: { vitessError: 'shard has no primary: 80-c0' },
          },
        ],
      },
    ],
  },
  { more: true },
);

/** commerce/0 → customer -80, 80- (sharded, `customer` in its vschema): no workflow yet. */
function fresh(o: { vschema?: readonly string[]; sharded?: boolean; notServing?: readonly string[] } = {}) {
  const sharded = o.sharded ?? true;
  const vindexed = { columnVindexes: [{ name: 'hash', columns: ['id'] }] };
  return cluster()
    .keyspace('commerce', { shards: ['0'] })
    .keyspace('customer', {
      shards: sharded ? ['-80', '80-'] : ['0'],
      sharded,
      tables: Object.fromEntries((o.vschema ?? ['customer']).map((t) => [t, vindexed])),
      ...(o.notServing ? { notServing: o.notServing } : {}),
    })
    .schemaTables('commerce', '0', ['corder', 'customer', 'product']);
}

/** `--action create --workflow commerce2customer --target-keyspace customer --source-keyspace commerce …`. */
const createTables = (tables: CreateRequest['tables'], more: Partial<CreateRequest> = {}, version?: string) => ({
  action: {
    ...DEFAULT_ACTION_REQUEST,
    action: 'create' as const,
    create: { workflow: 'commerce2customer', targetKeyspace: 'customer', sourceKeyspace: 'commerce', tables, ...more },
  },
  ...(version !== undefined ? { vitess: givenVitessVersions(version, 'flag') } : {}),
});

/** Both target primaries probed for `probed`, `nonEmpty` holding a row on -80 only. */
const probed = (
  b: ClusterBuilder,
  tables: readonly string[],
  nonEmpty: readonly string[] = [],
  shards = ['-80', '80-'],
) => {
  for (const shard of shards)
    b.schemaTables('customer', shard, nonEmpty).tableProbes('customer', shard, {
      probed: tables,
      nonEmpty: shard === '-80' ? nonEmpty : [],
    });
  return b;
};

checkTester(
  check,
  {
    valid: [
      {
        name: 'every table to move is in the sharded target vschema, and absent from the target primaries',
        model: probed(fresh(), ['customer']),
        options: createTables(['customer']),
        reasons: ['tableNotInVSchema', 'targetTableNotEmpty', 'emptinessNotProbed'],
      },
      {
        // MoveTablesCreate adds the tables to an unsharded target's vschema before buildMaterializer runs.
        name: 'an unsharded target without the tables in its vschema',
        model: fresh({ sharded: false, vschema: [] }),
        options: createTables(['customer', 'corder']),
        reasons: ['tableNotInVSchema'],
      },
      {
        // materializer.go:485-491 @011aa691: only the tables of the request are looked up.
        name: 'a table not moved is missing from the target vschema',
        model: fresh().tableKeys('commerce', '0', ['customer', 'corder']),
        options: createTables('all', { excludeTables: ['corder'] }),
        reasons: ['tableNotInVSchema', 'tablesNotListed'],
      },
      {
        name: 'the target table exists and the probe found no row',
        model: probed(fresh(), ['customer']).schemaTables('customer', '-80', ['customer']),
        options: createTables(['customer']),
        reasons: ['targetTableNotEmpty', 'emptinessNotProbed'],
      },
      {
        name: 'a table that is not moved holds rows on the target',
        model: probed(fresh({ vschema: ['customer', 'corder'] }), ['customer', 'corder'], ['corder']),
        options: createTables(['customer']),
        reasons: ['targetTableNotEmpty'],
      },
      {
        // validateEmptyTables reads mz.targetShards: GetServingShards of the target (materializer.go:515).
        name: 'rows only on a target shard that is not serving',
        model: probed(fresh({ notServing: ['-80'] }), ['customer'], ['customer']),
        options: createTables(['customer']),
        reasons: ['targetTableNotEmpty', 'targetTableNotEmptyBefore22'],
      },
      {
        name: 'the probe failed on one primary: a read failure (unverified), not a finding',
        model: fresh().tableProbes('customer', '-80', { error: 'Lost connection' }),
        options: createTables(['customer']),
        reasons: ['targetTableNotEmpty', 'emptinessNotProbed'],
      },
      {
        // utils.go:1048 @00bd50b6: every requested name is a table of the first serving source shard's primary.
        name: 'every table to move exists on the source primary',
        model: probed(fresh({ vschema: ['customer', 'corder'] }), ['customer', 'corder']),
        options: createTables(['customer', 'corder']),
        reasons: ['sourceTableMissing', 'sourceShardNoPrimary', 'sourceTablesNotVisible'],
      },
      {
        // getTablesInKeyspace reads GetServingShards(source)[0] only (utils.go:61-72 @00bd50b6).
        name: 'a source shard record without primary that is not serving',
        model: probed(fresh(), ['customer']).orphanShard('commerce', '80-'),
        options: createTables(['customer']),
        reasons: ['sourceShardNoPrimary'],
      },
      {
        name: 'a readout from before the table list was read: the source names are not judged',
        model: probed(fresh(), ['customer', 'nope']).schemaTables('commerce', '0', 'absent'),
        options: createTables(['customer']),
        reasons: ['sourceTableMissing'],
      },
      {
        name: 'Vitess v21: the target tables are empty',
        model: probed(fresh(), ['customer']),
        options: createTables(['customer'], {}, '21'),
        reasons: ['targetTableNotEmptyBefore22'],
      },
    ],
    invalid: [
      {
        // materializer.go:489 @011aa691: the first table of the request missing from a sharded target's vschema.
        name: 'a table to move is missing from the sharded target vschema',
        model: probed(fresh(), ['customer', 'corder', 'product']),
        options: createTables(['customer', 'corder', 'product']),
        findings: [
          {
            keyspace: 'customer',
            workflow: 'commerce2customer',
            reason: 'tableNotInVSchema',
            details: {
              vitessError: 'table corder not found in vschema for keyspace customer',
              tables: ['corder', 'product'],
            },
          },
        ],
      },
      {
        name: '--all-tables: the source tables minus the excluded ones, checked against the target vschema',
        model: fresh().tableKeys('commerce', '0', ['customer', 'corder', 'product']),
        options: createTables('all', { excludeTables: ['product'] }),
        findings: [
          {
            reason: 'tableNotInVSchema',
            details: { vitessError: 'table corder not found in vschema for keyspace customer' },
          },
        ],
      },
      {
        // Over MySQL an empty list is what a user without SELECT on vt_commerce reads (src/model/schema-visibility.ts).
        name: 'the source primary lists no table: not visible, a warning rather than a refusal',
        model: probed(fresh(), ['customer']).schemaTables('commerce', '0', []),
        options: createTables(['customer']),
        findings: [
          {
            reason: 'sourceTablesNotVisible',
            severity: 'warning',
            message: /lists no table in vt_commerce: grant the MySQL user SELECT on vt_commerce/,
          },
        ],
      },
      {
        // utils.go:1048 @00bd50b6: the missing names in the request's order, joined with ",".
        name: 'tables to move that the source primary does not have',
        model: probed(fresh({ vschema: ['customer', 'nope', 'gone'] }), ['customer', 'nope', 'gone']),
        options: createTables(['nope', 'customer', 'gone']),
        findings: [
          {
            reason: 'sourceTableMissing',
            keyspace: 'customer',
            workflow: 'commerce2customer',
            details: { vitessError: 'table(s) not found in source keyspace commerce: nope,gone', sourceShard: '0' },
          },
        ],
      },
      {
        name: '--all-tables excluding a table the source does not have',
        model: fresh({ vschema: ['customer', 'corder', 'product'] }).tableKeys('commerce', '0', [
          'corder',
          'customer',
          'product',
        ]),
        options: createTables('all', { excludeTables: ['product', 'old_table'] }),
        findings: [
          {
            reason: 'sourceTableMissing',
            details: { vitessError: 'table(s) not found in source keyspace commerce: old_table' },
          },
        ],
      },
      {
        // utils.go:72 @00bd50b6: the first serving source shard's primary lists the tables.
        name: 'the source shard has no primary',
        model: cluster()
          .keyspace('commerce', { shards: ['0'], noPrimary: ['0'] })
          .keyspace('customer', { shards: ['-80', '80-'], tables: { customer: {} } }),
        options: createTables('all'),
        findings: [
          {
            reason: 'sourceShardNoPrimary',
            details: { vitessError: 'shard does not have a primary: 0', sourceShard: '0' },
          },
        ],
      },
      {
        name: '--all-tables with a readout that does not list the source tables',
        model: fresh(),
        options: createTables('all'),
        findings: [
          { reason: 'tablesNotListed', severity: 'warning', message: /does not list the base tables of commerce\/0/ },
        ],
      },
      {
        // materializer.go:625 (wrapped at :297 by the step), v22+: a row on any serving target primary.
        name: 'a table to move already holds rows on one target primary',
        model: probed(fresh({ vschema: ['customer', 'corder'] }), ['customer', 'corder'], ['corder']),
        options: createTables(['customer', 'corder']),
        findings: [
          {
            reason: 'targetTableNotEmpty',
            severity: 'error',
            keyspace: 'customer',
            details: {
              vitessError: 'non-empty tables found in target keyspace(customer): corder',
              shards: { corder: ['-80'] },
            },
          },
        ],
      },
      {
        name: 'Vitess v21: a non-empty target table is not refused, the copy fails later',
        model: probed(fresh(), ['customer'], ['customer']),
        options: createTables(['customer'], {}, '21'),
        findings: [{ reason: 'targetTableNotEmptyBefore22', severity: 'warning' }],
      },
      {
        name: 'a target table exists but this readout has no probe of it',
        model: fresh().schemaTables('customer', '80-', ['customer']),
        options: createTables(['customer']),
        findings: [{ reason: 'emptinessNotProbed', message: /customer \(80-\)/, details: { tables: ['customer'] } }],
      },
    ],
  },
  { more: true },
);

/** customer/0 (serving) → -80, 80- (shard records with primaries, not serving yet): a Reshard about to be created. */
const resharding = () => cluster().keyspace('customer', { shards: ['0', '-80', '80-'], notServing: ['-80', '80-'] });

/** `--action create --workflow cust2cust --target-keyspace customer --source-shards … --target-shards …`. */
const reshardCreate = (
  sourceShards: readonly string[],
  targetShards: readonly string[],
  cells?: string[],
  targetKeyspace = 'customer',
) => ({
  action: {
    ...DEFAULT_ACTION_REQUEST,
    action: 'create' as const,
    create: {
      workflow: 'cust2cust',
      targetKeyspace,
      reshard: { sourceShards, targetShards },
      ...(cells !== undefined ? { cells } : {}),
    },
  },
});

type Refs = readonly [string, { start: string; end: string } | null][];
/** customer's SrvKeyspace: PRIMARY and RDONLY on 0, REPLICA on `replica` (a hand-edited or interrupted rebuild). */
const srvWithReplica = (replica: Refs) => {
  const part = (servedType: string, refs: Refs) => ({
    servedType,
    shards: refs.map(([name, keyRange]) => ({ name, keyRange })),
    shardTabletControls: [],
  });
  const zero: Refs = [['0', null]];
  return { partitions: [part('PRIMARY', zero), part('REPLICA', replica), part('RDONLY', zero)] };
};
const corruptReplica = (replica: Refs) => resharding().servingGraph().srvKeyspace('customer', srvWithReplica(replica));

/**
 * ReshardCreate (server.go:1548-1552 @v0.24.4) validates the SrvKeyspace first (srv_keyspace.go:726-741, texts
 * :698-717 @v0.24.4, returned as is), then buildResharder's ValidateForReshard (resharder.go:125, split.go:30-75
 * @v0.24.4, wrapped `ValidateForReshard`; the step adds `buildResharder`).
 */
checkTester(
  check,
  {
    valid: [
      {
        // ReshardCreate reads no vschema: a keyspace without one is judged by its SrvKeyspace and shards.
        name: 'Reshard create into a keyspace without a vschema node: not the MoveTables refusal',
        model: resharding()
          .servingGraph()
          .vschemaUnreadable('customer', "UNKNOWN: node doesn't exist: /vitess/global/keyspaces/customer/VSchema"),
        options: reshardCreate(['0'], ['-80', '80-']),
        reasons: ['targetVSchemaMissing'],
      },
      {
        name: 'Reshard create: every cell has a whole SrvKeyspace, and the key ranges make a reshard',
        model: resharding().servingGraph({ extraCells: ['zone2'] }),
        options: reshardCreate(['0'], ['-80', '80-']),
        reasons: [
          'reshardSrvKeyspaceMissing',
          'reshardSrvKeyspaceStartNotMinKey',
          'reshardSrvKeyspaceEndNotMaxKey',
          'reshardSrvKeyspaceInconsistentKeyRanges',
          'reshardSrvKeyspaceNonContiguous',
          'reshardSameKeyRange',
          'reshardKeyRangesDiffer',
          'reshardShardsNotContiguous',
        ],
      },
      {
        name: 'Reshard create --cells zone1: a zone2 without the SrvKeyspace is not validated',
        model: resharding().servingGraph({ extraCells: ['zone2'], missing: { srvKeyspace: { customer: ['zone2'] } } }),
        options: reshardCreate(['0'], ['-80', '80-'], ['zone1']),
        reasons: ['reshardSrvKeyspaceMissing'],
      },
      {
        name: 'Reshard create -80,80- → 0 (a merge): the combined ranges match',
        model: cluster().keyspace('customer', { shards: ['-80', '80-', '0'], notServing: ['0'] }),
        options: reshardCreate(['-80', '80-'], ['0']),
        reasons: ['reshardKeyRangesDiffer', 'reshardShardsNotContiguous'],
      },
    ],
    invalid: [
      {
        name: 'Reshard create: a cell without the SrvKeyspace (never rebuilt there) fails before anything else',
        model: resharding().servingGraph({ extraCells: ['zone2'], missing: { srvKeyspace: { customer: ['zone2'] } } }),
        options: reshardCreate(['0'], ['-80', '80-']),
        findings: [
          {
            reason: 'reshardSrvKeyspaceMissing',
            severity: 'error',
            keyspace: 'customer',
            workflow: 'cust2cust',
            message:
              'cell zone2 has no SrvKeyspace for customer, and Reshard create validates the SrvKeyspace in every cell first',
            details: { cell: 'zone2' },
          },
        ],
      },
      {
        // ValidateSrvKeyspace (srv_keyspace.go:726-742 @v0.24.4): GetSrvKeyspace of the first cell finds no node.
        name: 'Reshard create in a keyspace that does not exist: the first cell has no SrvKeyspace for it',
        model: resharding().servingGraph({ extraCells: ['zone2'] }),
        options: reshardCreate(['0'], ['-80', '80-'], undefined, 'customer2'),
        findings: [
          {
            reason: 'reshardSrvKeyspaceMissing',
            keyspace: 'customer2',
            workflow: 'cust2cust',
            message:
              "target keyspace customer2 does not exist (vtctld's GetKeyspaces does not list it), so cell zone1 has no SrvKeyspace for it, and Reshard create validates the SrvKeyspace in every cell first",
            details: { cell: 'zone1', keyspaceExists: false },
          },
        ],
      },
      {
        name: 'Reshard create: a REPLICA partition without its first shard',
        model: corruptReplica([['80-', { start: '80', end: '' }]]),
        options: reshardCreate(['0'], ['-80', '80-']),
        findings: [
          {
            reason: 'reshardSrvKeyspaceStartNotMinKey',
            details: {
              cell: 'zone1',
              vitessError: 'keyspace partition for REPLICA in cell zone1 does not start with min key',
            },
          },
        ],
      },
      {
        name: 'Reshard create: a REPLICA partition without its last shard',
        model: corruptReplica([['-80', { start: '', end: '80' }]]),
        options: reshardCreate(['0'], ['-80', '80-']),
        findings: [
          {
            reason: 'reshardSrvKeyspaceEndNotMaxKey',
            details: { vitessError: 'keyspace partition for REPLICA in cell zone1 does not end with max key' },
          },
        ],
      },
      {
        name: 'Reshard create: an unranged shard beside ranged ones',
        model: corruptReplica([
          ['0', null],
          ['-80', { start: '', end: '80' }],
          ['80-', { start: '80', end: '' }],
        ]),
        options: reshardCreate(['0'], ['-80', '80-']),
        findings: [{ reason: 'reshardSrvKeyspaceInconsistentKeyRanges' }],
      },
      {
        name: 'Reshard create: a gap in a partition',
        model: corruptReplica([
          ['-40', { start: '', end: '40' }],
          ['80-', { start: '80', end: '' }],
        ]),
        options: reshardCreate(['0'], ['-80', '80-']),
        findings: [
          {
            reason: 'reshardSrvKeyspaceNonContiguous',
            details: {
              vitessError: 'non-contiguous KeyRange values for REPLICA in cell zone1 at shard 0 to 1: 40 != 80',
            },
          },
        ],
      },
      {
        name: 'Reshard create 0 → - : the unsharded shard and the full-range shard have the same key range',
        model: cluster().keyspace('customer', { shards: ['0', '-'], notServing: ['-'] }),
        options: reshardCreate(['0'], ['-']),
        findings: [
          {
            reason: 'reshardSameKeyRange',
            severity: 'error',
            details: { vitessError: 'ValidateForReshard: same keyrange is present in source and target: -' },
          },
        ],
      },
      {
        name: 'Reshard create 0 → -80 only: the target ranges do not cover the source',
        model: resharding(),
        options: reshardCreate(['0'], ['-80']),
        findings: [
          {
            reason: 'reshardKeyRangesDiffer',
            details: { vitessError: "ValidateForReshard: source and target keyranges don't match: - vs -80" },
          },
        ],
      },
      {
        name: 'Reshard create 0 → -40, 80-: the target shards leave a gap',
        model: cluster().keyspace('customer', {
          shards: ['0', '-40', '40-80', '80-'],
          notServing: ['-40', '40-80', '80-'],
        }),
        options: reshardCreate(['0'], ['-40', '80-']),
        findings: [
          {
            reason: 'reshardShardsNotContiguous',
            details: { vitessError: "ValidateForReshard: shards don't form a contiguous keyrange" },
          },
        ],
      },
    ],
  },
  { more: true },
);

checkTester(
  check,
  {
    valid: [
      {
        name: 'Reshard create: the source serving, the targets with primaries, not serving and without streams',
        model: resharding(),
        options: reshardCreate(['0'], ['-80', '80-']),
        reasons: [
          'reshardShardUnknown',
          'reshardSourceNotServing',
          'reshardTargetNoPrimary',
          'reshardTargetServing',
          'reshardTargetStreams',
        ],
      },
      {
        // validateTargets asks the target primaries only (resharder.go:145-159 @2291bf54); Reshard create runs no
        // validateNewWorkflow, so the name is not looked up either.
        name: 'Reshard create: streams on the source shard only',
        model: resharding().stream('customer', '0', 1, { workflow: 'cust2cust', sourceKeyspace: 'commerce' }),
        options: reshardCreate(['0'], ['-80', '80-']),
        reasons: ['reshardTargetStreams', 'workflowExists', 'reshardTargetHasTables'],
      },
      {
        name: 'Reshard create: a target primary not read is a read failure (unverified), not a finding',
        model: resharding().unreadable('customer', '80-'),
        options: reshardCreate(['0'], ['-80', '80-']),
        reasons: ['reshardTargetStreams'],
      },
    ],
    invalid: [
      {
        // resharder.go:156 @2291bf54 (HasVReplicationWorkflows: any row of the tablet's database, frozen included).
        name: 'Reshard create: a frozen leftover stream on one target primary',
        model: resharding().stream('customer', '80-', 1, {
          workflow: 'old_reshard',
          sourceKeyspace: 'customer',
          state: 'Stopped',
          message: 'FROZEN',
        }),
        options: reshardCreate(['0'], ['-80', '80-']),
        findings: [
          {
            reason: 'reshardTargetStreams',
            keyspace: 'customer',
            shard: '80-',
            workflow: 'cust2cust',
            tablet: 'zone1-0000000120',
            details: {
              vitessError:
                'some streams already exist in the target shards, please clean them up and retry the command',
              workflows: ['old_reshard'],
            },
          },
        ],
      },
      {
        // resharder.go:99 @2291bf54: the sources are read first, in the request's order; the first failure is returned.
        name: 'Reshard create: a source shard that is not serving (and a target that is)',
        model: cluster().keyspace('customer', { shards: ['0', '-80', '80-'], notServing: ['0', '-80'] }),
        options: reshardCreate(['0'], ['-80', '80-']),
        findings: [
          {
            reason: 'reshardSourceNotServing',
            shard: '0',
            details: { vitessError: 'source shard 0 is not in serving state' },
          },
        ],
      },
      {
        name: 'Reshard create: a target shard already serving',
        model: cluster().keyspace('customer', { shards: ['0', '-80', '80-'], notServing: ['-80'] }),
        options: reshardCreate(['0'], ['-80', '80-']),
        findings: [
          {
            reason: 'reshardTargetServing',
            shard: '80-',
            details: { vitessError: 'target shard 80- is in serving state' },
          },
        ],
      },
      {
        name: 'Reshard create: a target shard without primary',
        model: cluster().keyspace('customer', {
          shards: ['0', '-80', '80-'],
          notServing: ['-80', '80-'],
          noPrimary: ['-80'],
        }),
        options: reshardCreate(['0'], ['-80', '80-']),
        findings: [
          {
            reason: 'reshardTargetNoPrimary',
            shard: '-80',
            details: { vitessError: 'target shard -80 has no primary tablet' },
          },
        ],
      },
      {
        name: 'Reshard create: a target shard with no shard record',
        model: resharding(),
        options: reshardCreate(['0'], ['-40', '40-80', '80-']),
        findings: [{ reason: 'reshardShardUnknown', shard: '-40', message: /customer\/-40 has no shard record/ }],
      },
      {
        name: 'Reshard create: a target primary already holds tables (left by a cancelled --keep-data Reshard)',
        model: resharding().schemaTables('customer', '-80', ['corder', 'customer']),
        options: reshardCreate(['0'], ['-80', '80-']),
        findings: [
          {
            reason: 'reshardTargetHasTables',
            severity: 'warning',
            shard: '-80',
            tablet: 'zone1-0000000110',
            details: { tables: ['corder', 'customer'] },
          },
        ],
      },
    ],
  },
  { more: true },
);

/** `--action create` of commerce2customer_v2 from commerce with `--cells` / `--tablet-types` (no table rules). */
const createStreams = (cells: string[] | undefined, tabletTypes: TabletTypeName[] | null = null) => ({
  action: {
    ...DEFAULT_ACTION_REQUEST,
    action: 'create' as const,
    tabletTypes,
    create: {
      workflow: 'commerce2customer_v2',
      targetKeyspace: 'customer',
      sourceKeyspace: 'commerce',
      ...(cells !== undefined ? { cells } : {}),
    },
  },
});

/** moveTables() with an RDONLY tablet of commerce/0 in zone2, and the serving graph (the topology's cells). */
const twoCells = () =>
  moveTables().addTablet('commerce', '0', { cell: 'zone2', uid: 200, type: 'RDONLY' }).servingGraph();

// vtctldclient ParseCells (common/utils.go) only trims --cells; the streams' tablet picker then reads them.
checkTester(check, {
  valid: [
    {
      name: 'cells and tablet types the source has: a replica of commerce/0 in zone1',
      model: twoCells(),
      options: createStreams(['zone1'], ['replica']),
      reasons: ['cellNotInTopology', 'noSourceTabletInCells'],
    },
    {
      name: "rdonly in zone2 only: the source's RDONLY tablet is in zone2",
      model: twoCells(),
      options: createStreams(['zone2'], ['rdonly']),
      reasons: ['cellNotInTopology', 'noSourceTabletInCells'],
    },
    {
      name: "neither --cells nor --tablet-types: vttablet's defaults, not judged",
      model: moveTables().servingGraph(),
      options: createStreams(undefined),
      reasons: ['cellNotInTopology', 'noSourceTabletInCells'],
    },
    {
      name: 'the topology cells were not read: an unknown cell is not judged',
      model: moveTables(),
      options: createStreams(['zone9']),
      reasons: ['cellNotInTopology'],
    },
  ],
  invalid: [
    {
      name: 'a cell that is not in the topology',
      model: twoCells(),
      options: createStreams(['zone1', 'zone9']),
      findings: [
        {
          reason: 'cellNotInTopology',
          severity: 'warning',
          keyspace: 'customer',
          workflow: 'commerce2customer_v2',
          message:
            "--cells names zone9, which is no cell of the topology (zone1, zone2): the streams' tablet picker finds no source tablet there unless it is a cells alias",
        },
      ],
    },
    {
      name: 'rdonly requested, the only RDONLY tablet is in a cell not given',
      model: twoCells(),
      options: createStreams(['zone1'], ['rdonly']),
      findings: [
        {
          reason: 'noSourceTabletInCells',
          severity: 'warning',
          message:
            'commerce/0 has no RDONLY tablet in zone1 for the streams of customer/-80, 80- to copy from: the create succeeds and the copy never starts',
          details: {
            sourceShard: '0',
            targets: [
              { shard: '-80', cells: ['zone1'] },
              { shard: '80-', cells: ['zone1'] },
            ],
          },
        },
      ],
    },
  ],
});
