import check from '../../checks/missing-source.js';
import { givenVitessVersions } from '../../src/vitess/versions.js';
import { checkTester } from '../helpers/check-tester.js';
import { cluster, sourceText } from '../helpers/cluster.js';
import { moveTablesScenario } from '../helpers/reshard-scenario.js';
import { joinRegExp } from '../helpers/regexp.js';

// commerce/0: primary zone1-0000000100, replica …101; customer/-80: …110/…111; customer/80-: …120/…121.
const moveTables = () => moveTablesScenario();

const rule = (shard: string) => ({
  match: 'customer',
  filter: `select * from customer where in_keyrange(customer_id, 'customer.hash', '${shard}')`,
});
const _MT = { workflow: 'commerce2customer', type: 'MoveTables' as const };

/** The two source tablets of commerce/0 moved to zone3, with a zone2 tablet elsewhere so that zone2 is a known cell. */
const sourceInZone3 = () =>
  moveTables()
    .patchTablet('zone1-0000000100', { cell: 'zone3' })
    .patchTablet('zone1-0000000101', { cell: 'zone3' })
    .addTablet('customer', '-80', { cell: 'zone2', uid: 300, type: 'REPLICA' });

const lookup = (owned: boolean) =>
  cluster()
    .keyspace('customer', { shards: ['-80', '80-'] })
    .keyspace('lookup', { shards: ['0'] })
    .lookup('corder_lookup', { from: 'customer', to: 'lookup', table: 'corder_lookup', ownerTable: 'corder', owned });

checkTester(check, {
  valid: [
    {
      name: 'healthy MoveTables',
      reasons: ['unparsableSource', 'invalidTabletTypes', 'emptySource', 'noPrimary', 'noCandidateWhileStreaming'],
      model: moveTables(),
    },
    {
      name: 'healthy Reshard',
      model: cluster()
        .keyspace('customer', { shards: ['0', '-80', '80-'], notServing: ['-80', '80-'] })
        .reshard('cust2cust', { keyspace: 'customer', from: ['0'], to: ['-80', '80-'] }),
    },
    { name: 'healthy owned lookup backfill stopped after copy', model: lookup(true) },
    { name: 'healthy unowned lookup backfill running', reasons: ['noPrimaryNotSwitched'], model: lookup(false) },
    {
      name: 'listed cell without source tablets: the target cell still counts',
      reasons: ['noTabletInCells', 'cellsUnresolved'],
      model: moveTables().patchStream('customer', '-80', 1, { cell: 'zone2' }),
    },
    {
      name: 'PRIMARY only: the primary is used in whatever cell it is',
      reasons: ['noPrimaryPrimaryOnly'],
      model: moveTables()
        .patchTablet('zone1-0000000100', { cell: 'zone3' })
        .patchStream('customer', '-80', 1, { tablet_types: 'primary' }),
    },
    {
      name: 'in_order with no replica: the primary is a candidate',
      reasons: ['noTabletOfTypes'],
      model: moveTables()
        .removeTablet('zone1-0000000101')
        .patchStream('customer', '-80', 1, { tablet_types: 'in_order:REPLICA,PRIMARY' }),
    },
    {
      name: 'a source in a mounted external cluster is outside this topology',
      model: moveTables().patchStream('customer', '-80', 1, {
        source: sourceText({ keyspace: 'legacy', shard: '-80', externalCluster: 'ext1', rules: [rule('-80')] }),
      }),
    },
    {
      name: 'an external MySQL source needs no keyspace or shard',
      reasons: ['pickerFieldsMissing', 'emptySourceName'],
      model: moveTables().patchStream('customer', '-80', 1, {
        source: 'external_mysql:"erp" filter:{rules:{match:"customer"}}',
      }),
    },
    {
      name: 'a FROZEN stream picks no tablet any more',
      model: moveTables().patchStream('customer', '-80', 1, {
        state: 'Stopped',
        message: 'FROZEN',
        tablet_types: 'RDONLY',
      }),
    },
    {
      name: 'tablet list not read: the picker is not judged',
      model: moveTables().patchStream('customer', '-80', 1, { tablet_types: 'RDONLY' }).topologyUnreadable('tablets'),
    },
    {
      name: 'keyspace list not read: a missing keyspace is not judged',
      reasons: ['keyspaceNotFound'],
      model: moveTables()
        .patchStream('customer', '-80', 1, {
          source: sourceText({ keyspace: 'nosuch', shard: '0', rules: [rule('-80')] }),
        })
        .topologyUnreadable('keyspaces'),
    },
    {
      name: 'source shards not read: a missing shard is not judged',
      reasons: ['shardNotFound'],
      model: moveTables()
        .patchStream('customer', '-80', 1, {
          source: sourceText({ keyspace: 'commerce', shard: '-80', rules: [rule('-80')] }),
        })
        .shardsUnreadable('commerce'),
    },
    {
      name: 'a Picked source tablet message is normal',
      reasons: ['errorPickingTablet'],
      model: moveTables().patchStream('customer', '-80', 1, { message: 'Picked source tablet: cell:"zone1" uid:101' }),
    },
  ],
  invalid: [
    {
      name: 'unparsable source',
      model: moveTables().patchStream('customer', '80-', 1, { source: 'keyspace:"commerce" shard:' }),
      findings: [
        {
          keyspace: 'customer',
          shard: '80-',
          streamId: 1,
          workflow: 'commerce2customer',
          tablet: 'zone1-0000000120',
          message:
            /^stream 1 of commerce2customer on customer\/80- has a source that does not parse as a BinlogSource: /,
          // rpc_vreplication.go ReadVReplicationWorkflow (BuildTargets): vterrors.Wrap(err, "error unmarshaling
          // binlog_source field from vreplication table record"), before anything else.
          details: {
            reason: 'unparsableSource',
            // The tablet manager names the RPC and the tablet first (rpc_server.go:73 @v0.21.5 HandleRPCPanic).
            vitessError:
              'TabletManager.ReadVReplicationWorkflow on zone1-0000000120: error unmarshaling binlog_source field from vreplication table record: …',
          },
        },
      ],
    },
    {
      // v24: the controller creates the picker on every pick (controller.go:408-413 @v0.24.4); measured on real
      // v24.0.4: the stream stays Running with this message, and never reaches `missing source`.
      name: 'source without keyspace and shard, judged against v24: Running, the picker error as its message',
      model: moveTables().patchStream('customer', '80-', 1, { source: 'filter:{rules:{match:"customer"}}' }),
      options: { vitess: givenVitessVersions('24', 'flag') },
      findings: [
        {
          shard: '80-',
          streamId: 1,
          message:
            'stream 1 of commerce2customer on customer/80- has a source without keyspace and shard: its controller retries forever, leaving the stream Running with the message "Error creating tablet picker: Missing required field(s) for tablet picker: Keyspace, Shard", and never replicates',
          details: {
            reason: 'pickerFieldsMissing',
            streamMessage: 'Error creating tablet picker: Missing required field(s) for tablet picker: Keyspace, Shard',
            versionNote: undefined,
          },
        },
        {
          shard: '80-',
          streamId: 1,
          message:
            'stream 1 of commerce2customer on customer/80- has a source without keyspace and shard: the action reads the source shard record of every stream first and the topology refuses the empty name',
          details: { reason: 'emptySourceName', vitessError: 'empty name' },
        },
      ],
    },
    {
      // v19–v23: newController creates the picker and fails (controller.go:162-165 @v0.23.3): no controller runs.
      name: 'source without keyspace and shard, judged against v23',
      model: moveTables().patchStream('customer', '80-', 1, { source: 'filter:{rules:{match:"customer"}}' }),
      options: { vitess: givenVitessVersions('23', 'flag') },
      findings: [
        {
          shard: '80-',
          streamId: 1,
          message:
            'stream 1 of commerce2customer on customer/80- has a source without keyspace and shard, so its controller never starts',
          details: {
            reason: 'pickerFieldsMissing',
            vttabletError: 'Missing required field(s) for tablet picker: Keyspace, Shard',
          },
        },
        {
          shard: '80-',
          streamId: 1,
          message:
            'stream 1 of commerce2customer on customer/80- has a source without keyspace and shard: the action reads the source shard record of every stream first and the topology refuses the empty name',
          details: { reason: 'emptySourceName', vitessError: 'empty name' },
        },
      ],
    },
    {
      name: 'tablet_types naming no tablet type',
      model: moveTables().patchStream('customer', '80-', 1, { tablet_types: 'in_order:REPLICA,FOLLOWER' }),
      findings: [
        {
          shard: '80-',
          streamId: 1,
          message: /has tablet_types "in_order:REPLICA,FOLLOWER", which names no tablet type \("FOLLOWER"\)/,
          details: {
            reason: 'invalidTabletTypes',
            invalid: ['FOLLOWER'],
            vttabletError: 'failed to parse list of tablet types: in_order:REPLICA,FOLLOWER',
            // rpc_vreplication.go: "error parsing the tablet_types field from vreplication table record", then
            // topoproto.ParseTabletType's error for the first name that is no tablet type.
            vitessError:
              'TabletManager.ReadVReplicationWorkflow on zone1-0000000120: error parsing the tablet_types field from vreplication table record: unknown TabletType FOLLOWER',
          },
        },
      ],
    },
    {
      // Go trims nothing (topoproto.ParseTabletType upper-cases the name as it is): ` REPLICA` is no tablet type.
      name: 'tablet_types with a blank after the comma',
      model: moveTables().patchStream('customer', '80-', 1, { tablet_types: 'PRIMARY, REPLICA,FOLLOWER' }),
      findings: [
        {
          shard: '80-',
          details: {
            reason: 'invalidTabletTypes',
            invalid: [' REPLICA', 'FOLLOWER'],
            vitessError:
              'TabletManager.ReadVReplicationWorkflow on zone1-0000000120: error parsing the tablet_types field from vreplication table record: unknown TabletType  REPLICA',
          },
        },
      ],
    },
    {
      name: 'content-free source: missing source',
      model: moveTables().patchStream('customer', '-80', 1, { source: 'keyspace:"commerce" shard:"0"' }),
      findings: [
        {
          shard: '-80',
          streamId: 1,
          message: joinRegExp(
            /has a source with no filter, tables or key range: its controller /,
            /fails with "missing source" every 5 seconds and never replicates$/,
          ),
          details: { reason: 'emptySource', vttabletError: 'missing source' },
        },
      ],
    },
    {
      name: 'source keyspace does not exist (both streams, one finding)',
      model: moveTables()
        .patchStream('customer', '-80', 1, {
          source: sourceText({ keyspace: 'comerce', shard: '0', rules: [rule('-80')] }),
        })
        .patchStream('customer', '80-', 1, {
          source: sourceText({ keyspace: 'comerce', shard: '0', rules: [rule('80-')] }),
        }),
      findings: [
        {
          keyspace: 'customer',
          workflow: 'commerce2customer',
          shard: undefined,
          streamId: undefined,
          message:
            '2 streams of workflow commerce2customer in customer read from keyspace comerce, which does not exist in the topology',
          details: {
            reason: 'keyspaceNotFound',
            sourceKeyspace: 'comerce',

            streams: [
              { shard: '-80', streamId: 1 },
              { shard: '80-', streamId: 1 },
            ],
          },
        },
      ],
    },
    {
      name: 'source shard does not exist',
      model: moveTables().patchStream('customer', '-80', 1, {
        source: sourceText({ keyspace: 'commerce', shard: '-80', rules: [rule('-80')] }),
      }),
      findings: [
        {
          shard: '-80',
          streamId: 1,
          tablet: 'zone1-0000000110',
          message:
            'stream 1 of commerce2customer on customer/-80 reads from shard commerce/-80, which has no shard record in the topology',
          details: { reason: 'shardNotFound', sourceShard: '-80' },
        },
      ],
    },
    {
      name: 'MoveTables source shard without primary: SwitchTraffic refuses',
      model: cluster()
        .keyspace('commerce', { shards: ['0'], noPrimary: ['0'] })
        .keyspace('customer', { shards: ['-80', '80-'] })
        .moveTables('commerce2customer', {
          from: 'commerce',
          to: 'customer',
          tables: ['customer'],
          column: 'customer_id',
        }),
      findings: [
        {
          severity: 'error',
          keyspace: 'customer',
          workflow: 'commerce2customer',
          message:
            'source shard commerce/0, read by 2 streams of workflow commerce2customer in customer, has no primary tablet',
          details: { reason: 'noPrimary', vitessError: 'source shard commerce/0 currently has no primary tablet' },
        },
      ],
    },
    {
      name: 'Materialize source shard without primary, replicas still serve the streams: warning',
      model: cluster()
        .keyspace('commerce', { shards: ['0'], noPrimary: ['0'] })
        .keyspace('customer', { shards: ['-80'] })
        .materialize('mat', { from: 'commerce', to: 'customer', tables: ['customer'] }),
      findings: [
        {
          severity: 'warning',
          shard: '-80',
          streamId: 1,
          details: { reason: 'noPrimaryNotSwitched', vitessError: undefined },
        },
      ],
    },
    {
      name: 'Materialize source shard without primary, streams that may only read the primary: error',
      model: cluster()
        .keyspace('commerce', { shards: ['0'], noPrimary: ['0'] })
        .keyspace('customer', { shards: ['-80'] })
        .materialize('mat', { from: 'commerce', to: 'customer', tables: ['customer'] })
        .patchStream('customer', '-80', 1, { tablet_types: 'primary' }),
      findings: [
        {
          severity: 'error',
          shard: '-80',
          streamId: 1,
          details: { reason: 'noPrimaryPrimaryOnly', vitessError: undefined },
        },
      ],
    },
    {
      name: 'no tablet of the stream tablet types in any cell, the stream stopped by the failed pick',
      model: moveTables().patchStream('customer', '-80', 1, {
        tablet_types: 'rdonly',
        state: 'Error',
        message: 'Error picking tablet: context has expired',
      }),
      findings: [
        {
          shard: '-80',
          streamId: 1,
          message:
            'source shard commerce/0 has no RDONLY tablet in any cell (tablet types rdonly), so stream 1 of commerce2customer on customer/-80 cannot pick a source tablet',
          details: { reason: 'noTabletOfTypes', tabletTypes: 'rdonly', tabletsOfTypes: [] },
        },
      ],
    },
    {
      name: 'no tablet of the stream tablet types, the stream Running on its earlier connection: a warning',
      model: moveTables().patchStream('customer', '-80', 1, { tablet_types: 'rdonly', state: 'Running', message: '' }),
      findings: [
        {
          severity: 'warning',
          shard: '-80',
          streamId: 1,
          message:
            'source shard commerce/0 has no RDONLY tablet in any cell (tablet types rdonly), so stream 1 of commerce2customer on customer/-80 cannot pick a source tablet; it is Running on a connection made earlier, so SwitchTraffic proceeds, but a reconnect (a source tablet restart, or during the catch-up after writes are stopped) fails',
          details: { reason: 'noCandidateWhileStreaming', tabletTypes: 'rdonly' },
        },
      ],
    },
    {
      name: 'tablets of the types only in a cell the picker does not search',
      model: sourceInZone3().patchStream('customer', '-80', 1, {
        cell: 'zone2',
        state: 'Error',
        message: 'Error picking tablet: context has expired',
      }),
      findings: [
        {
          shard: '-80',
          streamId: 1,
          message:
            "source shard commerce/0 has no REPLICA or PRIMARY tablet in cells zone1, zone2 (tablet types in_order:REPLICA,PRIMARY, vttablet's default), so stream 1 of commerce2customer on customer/-80 cannot pick a source tablet; such tablets exist only in zone3",
          details: { reason: 'noTabletInCells', cells: ['zone1', 'zone2'], tabletTypesDefaulted: true },
        },
        {
          severity: 'info',
          shard: '80-',
          streamId: 1,
          message:
            'source shard commerce/0 has no REPLICA or PRIMARY tablet in cell zone1 of stream 1 of commerce2customer on customer/80-, which lists no cells: it finds one only if that cell belongs to a cell alias covering zone3',
          details: { reason: 'cellsUnresolved', cells: ['zone1'] },
        },
      ],
    },
    {
      name: 'a listed cell that may be a cell alias: info only',
      model: sourceInZone3()
        .patchStream('customer', '-80', 1, { cell: 'us_east' })
        .patchTablet('zone1-0000000120', { cell: 'zone3' }),
      findings: [
        {
          severity: 'info',
          shard: '-80',
          streamId: 1,
          message: joinRegExp(
            /^source shard commerce\/0 has no REPLICA or PRIMARY tablet in cells us_east, zone1 where stream 1 /,
            /of commerce2customer on customer\/-80 may pick one, unless us_east is a cell alias covering zone3$/,
          ),
          details: { reason: 'cellsUnresolved', unresolvedCells: ['us_east'] },
        },
      ],
    },
    {
      name: 'Error picking tablet with candidates in the topology',
      model: moveTables().patchStream('customer', '-80', 1, { message: 'Error picking tablet: context has expired' }),
      findings: [
        {
          shard: '-80',
          streamId: 1,
          message:
            'stream 1 of commerce2customer on customer/-80 could not pick a source tablet of commerce/0 although the topology lists candidates (zone1-0000000101, zone1-0000000100): Error picking tablet: context has expired',
          details: { reason: 'errorPickingTablet', candidates: ['zone1-0000000101', 'zone1-0000000100'] },
        },
      ],
    },
    {
      name: 'Error picking tablet where only a cell alias could have helped: the alias did not',
      model: sourceInZone3()
        .patchStream('customer', '80-', 1, { message: 'Error picking tablet: context has expired' })
        .patchStream('customer', '-80', 1, { tablet_types: 'PRIMARY' }),
      findings: [
        { severity: 'info', shard: '80-', streamId: 1, details: { reason: 'cellsUnresolved' } },
        {
          severity: 'error',
          shard: '80-',
          streamId: 1,
          message:
            'stream 1 of commerce2customer on customer/80- could not pick a source tablet of commerce/0, which has no REPLICA or PRIMARY tablet in cells zone1: Error picking tablet: context has expired',
          details: { reason: 'errorPickingTablet', candidates: [] },
        },
      ],
    },
    {
      name: 'Error picking tablet explained by the topology is reported once, with the cause',
      model: moveTables().patchStream('customer', '-80', 1, {
        tablet_types: 'RDONLY',
        message: 'Error picking tablet: context has expired',
      }),
      findings: [{ shard: '-80', streamId: 1, details: { reason: 'noTabletOfTypes' } }],
    },
  ],
});
