import check from '../../checks/externalize-options-invalid.js';
import { givenVitessVersions } from '../../src/vitess/versions.js';
import { checkTester } from '../helpers/check-tester.js';
import { cluster } from '../helpers/cluster.js';

const OPTIONS = '{"lookup_vindexes":["corder_lookup"]}';

/** customer -80, 80- → lookup -80, 80-: an owned lookup backfill, one stream per (target, source) pair. */
const backfill = () =>
  cluster()
    .keyspace('customer', { shards: ['-80', '80-'] })
    .keyspace('lookup', { shards: ['-80', '80-'] })
    .lookup('corder_lookup', {
      from: 'customer',
      to: 'lookup',
      table: 'corder_lookup',
      ownerTable: 'corder',
      owned: true,
    });

/** Sets the options column of every stream of the backfill on one lookup shard. */
const withOptions = (b: ReturnType<typeof backfill>, shard: string, options: string | null) => {
  for (const id of [1, 2]) b.patchStream('lookup', shard, id, { options });
  return b;
};

const both = (options: string) => withOptions(withOptions(backfill(), '-80', options), '80-', options);

checkTester(check, {
  valid: [
    {
      name: 'the same options on every serving shard',
      model: both(OPTIONS),
      reasons: ['inconsistentOptions', 'unparsableOptions'],
    },
    {
      name: 'v22 takes the vindex name from the request and never reads the options',
      model: withOptions(both(OPTIONS), '80-', '{"lookup_vindexes":["other"]}'),
      options: { vitess: givenVitessVersions('22.0', 'flag') },
      reasons: ['inconsistentOptions'],
    },
    {
      name: 'no options anywhere (the JSON decoder of an empty string is not judged)',
      model: both(''),
      reasons: ['unparsableOptions'],
    },
    {
      name: 'a serving shard not read: not judged',
      model: withOptions(both(OPTIONS), '80-', '{}').unreadable('lookup', '80-'),
      reasons: ['inconsistentOptions'],
    },
  ],
  invalid: [
    {
      name: 'two shards with different options (lookup_vindex.go getVindexesFromWorkflowOptions)',
      model: withOptions(both(OPTIONS), '80-', '{"lookup_vindexes":["corder_lookup","other"]}'),
      options: { vitess: givenVitessVersions('23.0', 'flag') },
      findings: [
        {
          keyspace: 'lookup',
          shard: '80-',
          workflow: 'corder_lookup',
          details: {
            reason: 'inconsistentOptions',
            vitessError:
              'failed to retrieve lookup vindex names from workflow: failed to read workflow options: inconsistent workflow options on target shard lookup/80-',
            certain: true,
          },
        },
      ],
    },
    {
      name: 'a shard where the workflow has no options (likely, order-dependent), judged by v23+ on an unknown range',
      model: withOptions(both(OPTIONS), '80-', null),
      findings: [
        {
          shard: '80-',
          details: { reason: 'inconsistentOptions', certain: false, versionNote: /judged by the newest/ },
        },
      ],
    },
    {
      name: 'options that are not JSON',
      model: both('{lookup_vindexes:'),
      options: { vitess: givenVitessVersions('24', 'flag') },
      findings: [{ keyspace: 'lookup', workflow: 'corder_lookup', details: { reason: 'unparsableOptions' } }],
    },
  ],
});
