import { deflateSync } from 'node:zlib';
import check from '../../checks/stream-template-invalid.js';
import { templateProblem } from '../../src/model/stream-template.js';
import { checkTester } from '../helpers/check-tester.js';
import { gtidPos, sourceText } from '../helpers/cluster.js';
import { reshardScenario, shardedRule } from '../helpers/reshard-scenario.js';
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { moveTablesScenario } from '../helpers/reshard-scenario.js';

/** commerce2customer's stream 1 on customer/-80 (a source shard of the Reshard) with other rules. */
const withRules = (rules: { match: string; filter: string }[]) =>
  reshardScenario().patchStream('customer', '-80', 1, {
    source: sourceText({ keyspace: 'commerce', shard: '0', rules }),
  });

/** MySQL COMPRESS(): 4-byte little-endian length, then zlib. */
function compress(text: string): string {
  const len = Buffer.alloc(4);
  len.writeUInt32LE(Buffer.byteLength(text));
  return Buffer.concat([len, deflateSync(Buffer.from(text))]).toString('base64');
}

// Upstream's own cases: vitessio/vitess go/vt/vtctl/workflow/stream_migrator_test.go TestTemplatize (the stored
// copy read for this module; "Sharded table with no filter", "Excluded table", the in_keyrange forms).
describe('templateProblem (stream_migrator.go templatizeRule / templatizeKeyRange)', () => {
  it('a key range filter and a SELECT with a 3-argument or 1-argument in_keyrange are templated', () => {
    assert.equal(templateProblem('t1', '-80'), null);
    assert.equal(templateProblem('t1', "select * from t1 where in_keyrange(c1, 'hash', '-80')"), null);
    assert.equal(templateProblem('t1', "select * from t1 where in_keyrange('-80')"), null);
    assert.equal(templateProblem('t1', "select * from t1 where c2 = 'x' and in_keyrange(c1, 'hash', '-80')"), null);
    // No in_keyrange at all: Vitess adds one from the table's first vindex.
    assert.equal(templateProblem('t1', 'select * from t1'), null);
  });
  it('sharded table with no filter', () => {
    assert.deepEqual(templateProblem('t1', ''), {
      reason: 'noSelectExpression',
      table: 't1',
      filter: '',
      vitessError: 'rule match:"t1" does not have a select expression in vreplication',
    });
  });
  it('excluded table', () => {
    assert.equal(
      templateProblem('t1', 'exclude')?.vitessError,
      'unexpected rule in vreplication: match:"t1" filter:"exclude"',
    );
  });
  it('not a select, and in_keyrange with 2 arguments or a non-literal range', () => {
    assert.equal(templateProblem('t1', 'delete from t1')?.vitessError, 'unexpected query: delete from t1');
    assert.equal(
      templateProblem('t1', "select * from t1 where in_keyrange(c1, '-80')")?.vitessError,
      "unexpected in_keyrange parameters: in_keyrange(c1, '-80')",
    );
    assert.equal(
      templateProblem('t1', "select * from t1 where in_keyrange(c1, 'hash', c2)")?.reason,
      'inKeyrangeParameters',
    );
  });
  it("a templated query with '{{' in it", () => {
    const f = "select * from t1 where c2 = '{{x}}' and in_keyrange(c1, 'hash', '-80')";
    assert.equal(
      templateProblem('t1', f)?.vitessError,
      `cannot migrate queries that contain '{{' in their string: ${f}`,
    );
    // Without an in_keyrange Vitess never reaches the '{{' test.
    assert.equal(templateProblem('t1', "select * from t1 where c2 = '{{x}}'"), null);
  });
});

checkTester(check, {
  valid: [
    {
      name: 'healthy Reshard: in_keyrange filters and a reference Materialize',
      model: reshardScenario(),
      reasons: ['inKeyrangeParameters', 'braceInQuery'],
    },
    {
      name: "'{{' in a filter without in_keyrange: Vitess adds its own and never tests for it",
      model: withRules([{ match: 'customer', filter: "select * from customer where note = '{{'" }]),
      reasons: ['braceInQuery', 'notASelect'],
    },
    {
      name: 'a MoveTables has no stream migrator',
      model: moveTablesScenario(['customer']),
    },
    {
      name: 'an unreadable source shard is not judged',
      model: withRules([{ match: 'customer', filter: '' }]).unreadable('customer', '-80'),
      reasons: [
        'noSelectExpression',
        'excludeRule',
        'notASelect',
        'unparsableFilter',
        'inKeyrangeParameters',
        'braceInQuery',
        'compressedPosition',
      ],
    },
  ],
  invalid: [
    {
      name: 'a rule without a select expression',
      model: withRules([shardedRule('customer', '-80'), { match: 'corder', filter: '' }]),
      findings: [
        {
          keyspace: 'customer',
          shard: '-80',
          workflow: 'cust2cust',
          streamId: 1,
          message:
            'stream 1 (commerce2customer) on source shard customer/-80 of Reshard cust2cust: its rule for corder has no select expression, so the stream migrator cannot move it to the new shards',
          details: {
            reason: 'noSelectExpression',
            vitessError: 'rule match:"corder" does not have a select expression in vreplication',
          },
        },
      ],
    },
    {
      name: 'an in_keyrange the migrator cannot template',
      model: withRules([{ match: 'customer', filter: "select * from customer where in_keyrange(customer_id, '-80')" }]),
      findings: [{ streamId: 1, details: { reason: 'inKeyrangeParameters' } }],
    },
    {
      name: "a filter with '{{' in it",
      model: withRules([
        {
          match: 'customer',
          filter: "select * from customer where note = '{{' and in_keyrange(customer_id, 'customer.hash', '-80')",
        },
      ]),
      findings: [{ streamId: 1, details: { reason: 'braceInQuery' } }],
    },
    {
      name: 'an exclude rule and a filter that is not a SELECT',
      model: withRules([{ match: 'customer', filter: 'exclude' }]).patchStream('customer', '80-', 1, {
        source: sourceText({
          keyspace: 'commerce',
          shard: '0',
          rules: [{ match: 'customer', filter: 'delete from customer' }],
        }),
      }),
      findings: [
        { shard: '-80', details: { reason: 'excludeRule' } },
        { shard: '80-', details: { reason: 'notASelect', vitessError: 'unexpected query: delete from customer' } },
      ],
    },
    {
      name: 'a filter sqlparser cannot parse',
      model: withRules([{ match: 'customer', filter: 'selec * frm customer' }]),
      findings: [{ streamId: 1, details: { reason: 'unparsableFilter' } }],
    },
    {
      name: 'a compressed position (--vreplication_store_compressed_gtid)',
      model: reshardScenario().patchStream('customer', '80-', 1, {
        pos: '',
        posBase64: compress(gtidPos('commerce', '0', 1000)),
      }),
      findings: [
        {
          shard: '80-',
          streamId: 1,
          message: /stores a compressed position, which the stream migrator cannot decode$/,
          details: { reason: 'compressedPosition' },
        },
      ],
    },
  ],
});
