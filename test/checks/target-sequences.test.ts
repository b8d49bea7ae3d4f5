/**
 * target-sequences. Field evidence: vitessio/vitess #17831 (sequence initialisation longer
 * than the timeout, not in the dry run before PR #17842), #17871 (thousands of RPCs after writes stop), #15295 (empty
 * target shard, v18/v19, PR #15289), #19225 (empty source table), #21165 (`failed to get the sequence information …`
 * in a dry run with a db name override), #13216 / PR #13238 (sequence tables and routing). Upstream:
 * `go/vt/vtctl/workflow/sequences.go` `getTargetSequenceMetadata`, `findSequenceUsageInKeyspace`,
 * `createMissingSequenceTables` (line 433), `updateSequenceValues` (line 233), at 07acb8d9.
 * `sequenceBehind`: sequences.go `sqlInitSequenceTable` (line 45: next_id raised only when lower than max + 1) and
 * `sqlGetMaxSequenceVal` (line 48: `select max(%a) as maxval from %a.%a` on every target primary), at 07acb8d9; the
 * flag since v18 (PR #13656); ids colliding without it: #13685, #15295, #19225.
 */
import check from '../../checks/target-sequences.js';
import { DEFAULT_ACTION_REQUEST } from '../../src/engine/options.js';
import { givenVitessVersions } from '../../src/vitess/versions.js';
import { checkTester } from '../helpers/check-tester.js';
import { cluster } from '../helpers/cluster.js';

const hashOn = (column: string) => ({ columnVindexes: [{ name: 'hash', columns: [column] }] });

/**
 * commerce/0 (unsharded: customer, corder, and the sequence tables `seqs`) → customer -80, 80-: MoveTables
 * commerce2customer, customer's id drawn from `sequence` (as written in the target vschema).
 */
const moveTables = (
  sequence: string,
  o: { seqsIn?: 'commerce' | 'customer' | 'none'; sourceSharded?: boolean; lookupShards?: string[] } = {},
) => {
  const seqsIn = o.seqsIn ?? 'commerce';
  const seqTable = { customer_seq: { type: 'sequence' } };
  return cluster()
    .keyspace('commerce', {
      shards: o.sourceSharded ? ['-80', '80-'] : ['0'],
      tables: {
        customer: o.sourceSharded ? hashOn('customer_id') : {},
        corder: o.sourceSharded ? hashOn('customer_id') : {},
        ...(seqsIn === 'commerce' ? seqTable : {}),
      },
    })
    .keyspace('customer', {
      shards: ['-80', '80-'],
      tables: {
        customer: { ...hashOn('customer_id'), autoIncrement: { column: 'customer_id', sequence } },
        corder: hashOn('customer_id'),
        ...(seqsIn === 'customer' ? seqTable : {}),
      },
    })
    .keyspace('lookup', { shards: o.lookupShards ?? ['0'], tables: {} })
    .moveTables('commerce2customer', {
      from: 'commerce',
      to: 'customer',
      tables: ['customer', 'corder'],
      column: 'customer_id',
    });
};

/** The sequence commerce.customer_seq at `nextId`, and customer.customer_id's MAX per target shard. */
const withValues = (nextId: string | null, maxes: readonly (string | null)[] = ['1000', '900']) =>
  moveTables('customer_seq')
    .sequenceValues('commerce', '0', [{ table_name: 'customer_seq', next_id: nextId, cache: '1000' }])
    .autoIncrementMax('customer', '-80', [
      { table_name: 'customer', column_name: 'customer_id', max_value: maxes[0] ?? null },
    ])
    .autoIncrementMax('customer', '80-', [
      { table_name: 'customer', column_name: 'customer_id', max_value: maxes[1] ?? null },
    ]);

/** `--action switch --initialize-target-sequences`: the flag's own refusals are judged, a sequence behind is not. */
const INIT = { action: { ...DEFAULT_ACTION_REQUEST, initializeTargetSequences: true } };

const NOT_FOUND =
  'failed to locate all of the backing sequence tables being used and no global-keyspace was provided to auto create them in: customer_seq';

checkTester(check, {
  valid: [
    {
      name: 'next_id above the highest customer_id of every target shard',
      model: withValues('1001'),
      reasons: ['sequenceBehind'],
    },
    {
      name: 'every target table empty: no id can collide (#19225), and the cluster is not v18/v19',
      model: withValues('1', [null, null]),
      options: { vitess: givenVitessVersions('22', 'flag'), ...INIT },
      reasons: ['sequenceInitEmptyShard'],
    },
    {
      name: 'every target table empty, without the flag: next_id 1 is above nothing',
      model: withValues('1', [null, null]),
      reasons: ['sequenceBehind'],
    },
    {
      name: 'next_id 1 below the highest customer_id, with --initialize-target-sequences: Vitess raises it after writes stop',
      model: withValues('1'),
      options: INIT,
      reasons: ['sequenceBehind'],
    },
    {
      name: 'a sequence declared nowhere, without --initialize-target-sequences: Vitess does not look it up',
      model: moveTables('customer_seq', { seqsIn: 'none' }),
      reasons: ['sequenceNotFound'],
    },
    {
      name: 'a qualified sequence in a keyspace with two shards, without the flag: nothing is initialized',
      model: moveTables('lookup.customer_seq', { lookupShards: ['-80', '80-'] }),
      reasons: ['sequenceKeyspaceNotUnsharded'],
    },
    {
      name: 'a target shard without rows on v20+: PR #15289 reads its NULL as 0 (#15295 fixed)',
      model: withValues('1001', ['1000', null]),
      options: { vitess: givenVitessVersions('20', 'flag'), ...INIT },
      reasons: ['sequenceInitEmptyShard'],
    },
    {
      name: 'one target shard not read: the highest value is not known',
      model: moveTables('customer_seq')
        .sequenceValues('commerce', '0', [{ table_name: 'customer_seq', next_id: '1', cache: '1000' }])
        .autoIncrementMax('customer', '-80', [{ table_name: 'customer', column_name: 'customer_id', max_value: '5' }]),
      reasons: ['sequenceBehind'],
    },
    {
      name: 'the table is missing on a target shard: nothing to compare',
      model: withValues('1').autoIncrementMax('customer', '80-', [
        { table_name: 'customer', column_name: 'customer_id', present: false },
      ]),
      reasons: ['sequenceBehind'],
    },
    { name: 'the sequence is a sequence table of the unsharded source keyspace', model: moveTables('customer_seq') },
    {
      name: 'a backticked sequence name found unescaped',
      options: INIT,
      model: moveTables('`customer_seq`'),
      reasons: ['sequenceNotFound'],
    },
    {
      name: 'a qualified sequence in a keyspace with one shard',
      options: INIT,
      model: moveTables('lookup.customer_seq'),
      reasons: ['sequenceKeyspaceNotUnsharded'],
    },
    {
      name: 'a missing sequence, but the workflow has a global keyspace to create it in (v22+)',
      options: INIT,
      model: moveTables('customer_seq', { seqsIn: 'none' })
        .patchStream('customer', '-80', 1, { options: '{"globalKeyspace":"lookup"}' })
        .patchStream('customer', '80-', 1, { options: '{"globalKeyspace":"lookup"}' }),
      reasons: ['sequenceNotFound'],
    },
    {
      name: 'a missing sequence, but one keyspace vschema was not read (it may define it)',
      options: INIT,
      model: moveTables('customer_seq', { seqsIn: 'none' }).vschemaUnreadable('lookup'),
      reasons: ['sequenceNotFound'],
    },
    {
      name: 'a sequence declared nowhere on v20 or v19, without the flag: not looked up',
      model: moveTables('customer_seq', { seqsIn: 'none' }),
      options: { vitess: givenVitessVersions('19', 'flag') },
      reasons: ['sequenceNotFoundV20', 'sequenceNotFoundV19'],
    },
    {
      name: 'a sharded source keyspace: Vitess initializes no sequence',
      options: INIT,
      model: moveTables('customer_seq', { seqsIn: 'none', sourceSharded: true }),
      reasons: ['sequenceNotFound'],
    },
  ],
  invalid: [
    {
      name: 'a target shard without rows on v19: the initialization fails on its NULL (#15295)',
      model: withValues('1001', ['1000', null]),
      options: { vitess: givenVitessVersions('19', 'flag'), ...INIT },
      findings: [
        {
          reason: 'sequenceInitEmptyShard',
          severity: 'warning',
          keyspace: 'customer',
          workflow: 'commerce2customer',
          message:
            'table customer of customer.commerce2customer has no row on target shard 80-: on this v18/v19 cluster without the PR #15289 patch, SwitchTraffic with --initialize-target-sequences fails reading its NULL highest value, after writes are stopped (#15295)',
          details: { table: 'customer', emptyShards: ['80-'] },
        },
      ],
    },
    {
      name: 'next_id 1 below the highest customer_id (1000 on -80): duplicate keys after the switch (#13685)',
      model: withValues('1'),
      findings: [
        {
          reason: 'sequenceBehind',
          severity: 'warning',
          keyspace: 'customer',
          workflow: 'commerce2customer',
          message:
            "table customer of customer.commerce2customer takes customer_id from the sequence commerce.customer_seq, which has next_id 1, not above the highest customer_id on the target shards (1000): SwitchTraffic without --initialize-target-sequences leaves new rows drawing ids that already exist (duplicate keys) once writes are switched; with that flag (judge it with vtpreflight's --initialize-target-sequences), Vitess sets next_id to 1001 after writes stop",
          details: { nextId: '1', cache: '1000', targetMax: '1000', sequenceKeyspace: 'commerce' },
        },
      ],
    },
    {
      name: 'next_id equal to the highest value: the next insert collides',
      model: withValues('1000'),
      findings: [{ reason: 'sequenceBehind', details: { nextId: '1000', targetMax: '1000' } }],
    },
    {
      name: 'the sequence table has no row id = 0 (never initialized)',
      model: withValues(null),
      findings: [{ reason: 'sequenceBehind', message: /, which has no row id = 0 \(never initialized\), not above / }],
    },
    {
      name: 'the sequence table is declared nowhere (#21165 wording)',
      options: INIT,
      model: moveTables('customer_seq', { seqsIn: 'none' }),
      findings: [
        {
          reason: 'sequenceNotFound',
          severity: 'error',
          keyspace: 'customer',
          workflow: 'commerce2customer',
          message:
            'table customer of customer.commerce2customer takes customer_id from the sequence customer_seq, which no keyspace defines as a sequence table, and the workflow has no global keyspace to create it in: SwitchTraffic with --initialize-target-sequences is refused before anything changes',
          details: {
            vitessError: NOT_FOUND,
            table: 'customer',
            column: 'customer_id',
            sequence: 'customer_seq',
            definedInSharded: [],
          },
        },
      ],
    },
    {
      name: 'the sequence table is declared nowhere, on v20: its own words (traffic_switcher.go:1606 @v0.20.8)',
      model: moveTables('customer_seq', { seqsIn: 'none' }),
      options: { ...INIT, vitess: givenVitessVersions('20', 'flag') },
      findings: [
        {
          reason: 'sequenceNotFoundV20',
          severity: 'error',
          details: {
            vitessError: 'failed to locate all of the backing sequence tables being used: customer_seq',
          },
        },
      ],
    },
    {
      name: 'the sequence table is declared nowhere, on v19: refused, with Go pointers in the text (nothing quoted)',
      model: moveTables('customer_seq', { seqsIn: 'none' }),
      options: { ...INIT, vitess: givenVitessVersions('19', 'flag') },
      findings: [{ reason: 'sequenceNotFoundV19', severity: 'error', message: /no text to quote\)$/ }],
    },
    {
      name: 'the sequence table is declared in the sharded target keyspace',
      options: INIT,
      model: moveTables('customer_seq', { seqsIn: 'customer' }),
      findings: [
        {
          reason: 'sequenceNotFound',
          message: /^table customer of customer.commerce2customer takes customer_id from the sequence customer_seq/,
          details: { definedInSharded: ['customer'], vitessError: NOT_FOUND },
        },
      ],
    },
    {
      name: 'a qualified sequence in a keyspace with two shards: fails after writes are stopped',
      options: INIT,
      model: moveTables('lookup.customer_seq', { lookupShards: ['-80', '80-'] }),
      findings: [
        {
          reason: 'sequenceKeyspaceNotUnsharded',
          severity: 'error',
          keyspace: 'customer',
          workflow: 'commerce2customer',
          message:
            'table customer of customer.commerce2customer takes customer_id from the sequence lookup.customer_seq, whose keyspace lookup has 2 shards: SwitchTraffic with --initialize-target-sequences fails when it initializes the sequences, after writes are stopped',
          details: {
            vitessError: 'failed to get the primary tablet for keyspace lookup: …',
            sequenceKeyspace: 'lookup',
          },
        },
      ],
    },
    {
      name: 'a qualified sequence in a keyspace that does not exist',
      options: INIT,
      model: moveTables('nosuch.customer_seq'),
      findings: [
        {
          reason: 'sequenceKeyspaceNotUnsharded',
          message: /, whose keyspace nosuch does not exist: /,
        },
      ],
    },
  ],
});
