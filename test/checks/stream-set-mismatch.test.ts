import check from '../../checks/stream-set-mismatch.js';
import { checkTester } from '../helpers/check-tester.js';
import { sourceText, type StreamOptions } from '../helpers/cluster.js';
import { external, mergeScenario, reshardScenario, shardedRule } from '../helpers/reshard-scenario.js';
import { joinRegExp } from '../helpers/regexp.js';
import { givenVitessVersions } from '../../src/vitess/versions.js';
import { moveTablesScenario } from '../helpers/reshard-scenario.js';

const c2c = { workflow: 'commerce2customer', sourceKeyspace: 'commerce', sourceShard: '0' };

checkTester(
  check,
  {
    valid: [
      {
        reasons: ['tableNotInVSchema', 'mixedReferenceTables'],
        name: 'the resharded keyspace vschema was not read: reference streams cannot be told apart, the migrator is not judged',
        model: external(reshardScenario(), 'mat2', {
          from: 'commerce',
          fromShard: '0',
          to: 'customer',
          shards: ['-80'],
          type: 'Materialize',
        }).vschemaUnreadable('customer'),
      },
      {
        name: 'healthy Reshard with an external MoveTables and a reference Materialize on both source shards',
        reasons: ['streamsMismatched', 'mixedReferenceTables'],
        model: reshardScenario(),
      },
      { name: 'healthy merge of four source shards', model: mergeScenario() },
      {
        name: 'a MoveTables is not judged (the stream migrator runs for Reshard only)',
        reasons: ['streamsMismatched', 'shardLacksStreams'],
        model: moveTablesScenario(['customer']).stream('commerce', '0', 1, {
          workflow: 'other',
          type: 'Materialize',
          sourceKeyspace: 'customer',
          sourceShard: '-80',
        }),
      },
      {
        name: 'reference-table streams present on one source shard only are ignored',
        reasons: ['shardLacksStreams', 'streamsMismatched'],
        model: reshardScenario().removeStream('customer', '80-', 2),
      },
      {
        name: 'a reverse-workflow row whose source does not parse is not read',
        reasons: ['sourceUnparsable'],
        model: reshardScenario().stream('customer', '-80', 9, {
          workflow: 'cust2cust_reverse',
          type: 'Materialize',
          source: 'keyspace:"commerce" shard:',
        }),
      },
      {
        name: 'a reverse-workflow row whose position does not parse is not read',
        reasons: ['positionUnparsable'],
        model: reshardScenario()
          .stream('customer', '-80', 9, {
            workflow: 'cust2cust_reverse',
            sourceKeyspace: 'customer',
            sourceShard: '-40',
          })
          .patchStream('customer', '-80', 9, { pos: 'Bogus/1-2-3' }),
      },
      {
        name: 'the reverse workflow of the Reshard is not read',
        reasons: ['sameWorkflowName', 'sameWorkflowNameV19', 'unnamedStreamV19'],
        model: reshardScenario().stream('customer', '-80', 9, {
          workflow: 'cust2cust_reverse',
          sourceKeyspace: 'customer',
          sourceShard: '-40',
        }),
      },
      {
        name: 'a Reshard whose writes are already switched (FROZEN) is not judged',
        reasons: ['streamsMismatched'],
        model: (() => {
          const b = reshardScenario().removeStream('customer', '80-', 1);
          for (const shard of ['-40', '40-80', '80-c0', 'c0-'])
            b.patchStream('customer', shard, 1, { state: 'Stopped', message: 'FROZEN' });
          return b;
        })(),
      },
      {
        name: 'a source shard whose primary could not be read is not compared',
        reasons: ['streamsMismatched', 'shardLacksStreams'],
        model: external(reshardScenario(), 'mat2', {
          from: 'commerce',
          fromShard: '0',
          to: 'customer',
          shards: ['-80'],
          type: 'Materialize',
        }).unreadable('customer', '80-'),
      },
      {
        name: 'internal Online DDL table names need no vschema entry',
        reasons: ['tableNotInVSchema'],
        model: (() => {
          const b = reshardScenario();
          for (const shard of ['-80', '80-']) {
            b.stream('customer', shard, 7, {
              workflow: 'ddlmat',
              type: 'Materialize',
              sourceKeyspace: 'commerce',
              sourceShard: '0',
              rules: [{ match: '_vt_vrp_6ace8bcef73211ea87e9f875a4d24e90_20200915120410_', filter: 'select * from t' }],
            });
          }
          return b;
        })(),
      },
      {
        name: 'FROZEN leftovers identical on both source shards match',
        reasons: ['streamsMismatched'],
        model: external(reshardScenario(), 'old', {
          from: 'commerce',
          fromShard: '0',
          to: 'customer',
          shards: ['-80', '80-'],
          extra: { state: 'Stopped', message: 'FROZEN' },
        }),
      },
    ],
    invalid: [
      {
        name: 'a workflow on one source shard only',
        model: external(reshardScenario(), 'mat2', {
          from: 'commerce',
          fromShard: '0',
          to: 'customer',
          shards: ['-80'],
          type: 'Materialize',
        }),
        findings: [
          {
            keyspace: 'customer',
            shard: '80-',
            workflow: 'cust2cust',
            tablet: 'zone1-0000000120',
            message: joinRegExp(
              /^source shard customer\/80- of Reshard cust2cust carries other workflows' /,
              /streams that differ from source shard -80: lacks 1 \(mat2 from commerce\/0\)$/,
            ),
            details: {
              reason: 'streamsMismatched',
              vitessError: 'streams are mismatched across source shards: -80 vs 80-',
              referenceShard: '-80',
              lacks: [{ workflow: 'mat2', sourceKeyspace: 'commerce', sourceShard: '0', count: 1 }],
              extra: [],
            },
          },
        ],
      },
      {
        name: 'streams are compared as multisets: a duplicate stream is a difference',
        model: reshardScenario().stream('customer', '80-', 5, {
          ...c2c,
          type: 'MoveTables',
          rules: [shardedRule('customer', '80-')],
        }),
        findings: [
          {
            shard: '80-',
            message: /has 1 extra \(commerce2customer from commerce\/0\)$/,
            details: {
              reason: 'streamsMismatched',
              lacks: [],
              extra: [{ ...c2c, count: 1 }],
              vitessError: 'streams are mismatched across source shards: -80 vs 80-',
            },
          },
        ],
      },
      {
        name: 'every shard that differs from the most common set is reported, each with what it lacks and has extra',
        model: (() => {
          const b = external(mergeScenario(), 'mat2', {
            from: 'commerce',
            fromShard: '0',
            to: 'customer',
            shards: ['40-80'],
            type: 'Materialize',
          });
          b.patchStream('customer', 'c0-', 1, {
            source: sourceText({ keyspace: 'commerce', shard: '1', rules: [shardedRule('customer', 'c0-')] }),
          });
          return b;
        })(),
        findings: [
          {
            shard: '40-80',
            workflow: 'merge',
            details: {
              reason: 'streamsMismatched',
              vitessError: 'streams are mismatched across source shards: -40 vs 40-80',
              referenceShards: ['-40', '80-c0'],
              lacks: [],
              extra: [{ workflow: 'mat2', sourceKeyspace: 'commerce', sourceShard: '0', count: 1 }],
            },
          },
          {
            shard: 'c0-',
            workflow: 'merge',
            message:
              /lacks 1 \(commerce2customer from commerce\/0\); has 1 extra \(commerce2customer from commerce\/1\)$/,
            details: {
              reason: 'streamsMismatched',
              vitessError: 'streams are mismatched across source shards: -40 vs c0-',
              shardsLikeThis: ['c0-'],
            },
          },
        ],
      },
      {
        name: 'a source shard with none of the streams the others have is a warning',
        model: reshardScenario().removeStream('customer', '80-', 1),
        findings: [
          {
            severity: 'warning',
            keyspace: 'customer',
            shard: '80-',
            workflow: 'cust2cust',
            tablet: 'zone1-0000000120',
            message: joinRegExp(
              /^source shard customer\/80- of Reshard cust2cust has none of the 1 other-workflow /,
              /streams that source shard -80 has \(commerce2customer from commerce\/0\): /,
              /Vitess skips it, then creates those streams on every new shard from -80's, at their positions, /,
              /so the rows of 80-'s key range they /,
              /never wrote stay missing on the new shards \(only later changes arrive\)$/,
            ),
            details: { reason: 'shardLacksStreams', referenceShard: '-80', lacks: [{ ...c2c, count: 1 }] },
          },
        ],
      },
      {
        name: 'an unnamed stream on a source shard',
        model: reshardScenario().stream('customer', '80-', 6, {
          workflow: '',
          type: 'Materialize',
          sourceKeyspace: 'commerce',
          sourceShard: '0',
          rules: [shardedRule('customer', '80-')],
        }),
        findings: [
          {
            shard: '80-',
            streamId: 6,
            workflow: 'cust2cust',
            tablet: 'zone1-0000000120',
            message: /^stream 6 on source shard customer\/80- of Reshard cust2cust has no workflow name/,
            details: {
              reason: 'unnamedStream',
              // stream_migrator.go readTabletStreams since PR #14424 (v20): no stream id in the vtctld text.
              vitessError: 'VReplication streams must have named workflows for migration: shard: customer:80-',
              vitessErrorBeforeV20:
                'VReplication streams must have named workflows for migration: shard: customer:80-, stream: 6',
            },
          },
        ],
      },
      {
        name: 'a stream on a source shard named like the Reshard',
        model: reshardScenario().stream('customer', '-80', 6, {
          workflow: 'cust2cust',
          type: 'Materialize',
          sourceKeyspace: 'commerce',
          sourceShard: '0',
          rules: [shardedRule('customer', '-80')],
        }),
        findings: [
          {
            shard: '-80',
            streamId: 6,
            message: /carries the Reshard's own workflow name/,
            details: {
              reason: 'sameWorkflowName',
              vitessError:
                'VReplication stream has the same workflow name as the resharding workflow: shard: customer:-80',
              vitessErrorBeforeV20:
                'VReplication stream has the same workflow name as the resharding workflow: shard: customer:-80, stream: 6',
            },
          },
        ],
      },
      {
        // v19's stream migrator prints the stream id (stream_migrator.go:250 @v0.19.10).
        name: 'an unnamed stream on a source shard, judged against v19: the text v19 prints',
        model: reshardScenario().stream('customer', '80-', 6, {
          workflow: '',
          type: 'Materialize',
          sourceKeyspace: 'commerce',
          sourceShard: '0',
          rules: [shardedRule('customer', '80-')],
        }),
        options: { vitess: givenVitessVersions('19', 'flag') },
        findings: [
          {
            shard: '80-',
            streamId: 6,
            reason: 'unnamedStreamV19',
            details: {
              vitessError:
                'VReplication streams must have named workflows for migration: shard: customer:80-, stream: 6',
            },
          },
        ],
      },
      {
        // stream_migrator.go:253 @v0.19.10.
        name: 'a stream on a source shard named like the Reshard, judged against v19',
        model: reshardScenario().stream('customer', '-80', 6, {
          workflow: 'cust2cust',
          type: 'Materialize',
          sourceKeyspace: 'commerce',
          sourceShard: '0',
          rules: [shardedRule('customer', '-80')],
        }),
        options: { vitess: givenVitessVersions('19', 'flag') },
        findings: [
          {
            shard: '-80',
            streamId: 6,
            reason: 'sameWorkflowNameV19',
            details: {
              vitessError:
                'VReplication stream has the same workflow name as the resharding workflow: shard: customer:-80, stream: 6',
            },
          },
        ],
      },
      {
        name: 'a stream mixing reference and sharded tables',
        model: reshardScenario().stream('customer', '-80', 6, {
          workflow: 'mixed',
          type: 'Materialize',
          sourceKeyspace: 'commerce',
          sourceShard: '0',
          rules: [shardedRule('customer', '-80'), { match: 'ref_country', filter: 'select * from ref_country' }],
        }),
        findings: [
          {
            shard: '-80',
            streamId: 6,
            message: /mixes reference and sharded tables/,
            details: {
              reason: 'mixedReferenceTables',
              streamWorkflow: 'mixed',
              vitessError: joinRegExp(
                /^blsIsReference: cannot reshard streams with a mix of reference /,
                /and sharded tables: keyspace:"commerce" shard:"0" filter:/,
              ),
            },
          },
        ],
      },
      {
        name: 'a stream replicating a table missing from the vschema',
        model: (() => {
          const b = reshardScenario();
          for (const shard of ['-80', '80-'])
            b.stream('customer', shard, 6, {
              workflow: 'mat3',
              type: 'Materialize',
              sourceKeyspace: 'commerce',
              sourceShard: '0',
              rules: [{ match: 'audit', filter: 'select * from audit' }],
            });
          return b;
        })(),
        findings: [
          {
            shard: '-80',
            streamId: 6,
            message: /table audit is not in the customer vschema/,
            details: { reason: 'tableNotInVSchema', vitessError: 'blsIsReference: table audit not found in vschema' },
          },
          { shard: '80-', streamId: 6, details: { reason: 'tableNotInVSchema' } },
        ],
      },
      {
        name: 'a stream whose source does not parse',
        model: reshardScenario().stream('customer', '80-', 6, {
          workflow: 'broken',
          type: 'Materialize',
          source: 'keyspace:"commerce" shard:',
        }),
        findings: [
          {
            shard: '80-',
            streamId: 6,
            message: /has a source the stream migrator cannot parse/,
            details: { reason: 'sourceUnparsable', vitessError: undefined, streamWorkflow: 'broken' },
          },
        ],
      },
      {
        name: 'a stream whose position does not parse',
        model: (() => {
          const b = reshardScenario();
          for (const shard of ['-80', '80-']) b.patchStream('customer', shard, 1, { pos: 'Bogus/1-2-3' });
          return b;
        })(),
        findings: [
          {
            shard: '-80',
            streamId: 1,
            message: /has a position the stream migrator cannot decode/,
            details: { reason: 'positionUnparsable', vitessError: undefined },
          },
          { shard: '80-', streamId: 1, details: { reason: 'positionUnparsable' } },
        ],
      },
    ],
  },
  { more: true },
);

// Online DDL rows (workflow_type 5) are read by the stream migrator: stream_migrator.go readTabletStreams has no
// workflow_type predicate. A running Online DDL streams each shard from itself (bls.shard = the
// shard), so the two source shards carry different (workflow, keyspace, shard) keys.
const onlineDdl = (shard: string, o: StreamOptions = {}) => ({
  workflow: '2d1b4a5e_8f3c_11ef_9a1b_0a1b2c3d4e5f',
  type: 'OnlineDDL' as const,
  sourceKeyspace: 'customer',
  sourceShard: shard,
  rules: [{ match: '_vt_vrp_2d1b4a5e8f3c11ef9a1b0a1b2c3d4e5f_20251201120000_', filter: 'select * from corder' }],
  ...o,
});

checkTester(check, {
  valid: [
    {
      // `workflow != '<reverse>'` drops a NULL workflow: the row never reaches the migrator.
      name: 'a row with a NULL workflow on one source shard is invisible to the stream migrator',
      reasons: ['unnamedStream'],
      model: reshardScenario()
        .stream('customer', '80-', 6, {
          type: 'Materialize',
          sourceKeyspace: 'commerce',
          sourceShard: '0',
          rules: [shardedRule('customer', '80-')],
        })
        .patchStream('customer', '80-', 6, { workflow: null }),
    },
  ],
  invalid: [
    {
      name: 'a running Online DDL on both source shards: its streams differ per shard',
      model: reshardScenario()
        .stream('customer', '-80', 7, onlineDdl('-80'))
        .stream('customer', '80-', 7, onlineDdl('80-')),
      findings: [
        {
          shard: '80-',
          details: { vitessError: 'streams are mismatched across source shards: -80 vs 80-' },
        },
      ],
    },
  ],
});
