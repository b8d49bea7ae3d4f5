/**
 * schema-drift (FF-31): the troubleshooting guide's "incompatible DDL having been executed against the source table
 * while the workflow is running" (`Unknown column 'notes' in 'field list' (errno 1054)`), #18673, #18715, #18743.
 */
import check from '../../checks/schema-drift.js';
import { checkTester } from '../helpers/check-tester.js';
import { cluster, sourceText } from '../helpers/cluster.js';

/** commerce/0 → customer -80, 80-: MoveTables commerce2customer of customer (select * from customer). */
const moveTables = () =>
  cluster()
    .keyspace('commerce', { shards: ['0'] })
    .keyspace('customer', { shards: ['-80', '80-'] })
    .moveTables('commerce2customer', { from: 'commerce', to: 'customer', tables: ['customer'] });

const columnList = sourceText({
  keyspace: 'commerce',
  shard: '0',
  rules: [{ match: 'customer', filter: 'select customer_id, email from customer' }],
});
const BASE = ['customer_id bigint(20)', 'email varchar(128) NULL'];
const WITH_NOTES = [...BASE, 'notes text NULL'];

/** The source has `src` columns of customer; both targets `tgt` (or `tgt80` on 80-). */
const drift = (src: readonly string[], tgt: readonly string[], tgt80: readonly string[] = tgt) =>
  moveTables()
    .tableColumns('commerce', '0', { customer: src, unrelated: ['id int(11)'] })
    .tableColumns('customer', '-80', { customer: tgt })
    .tableColumns('customer', '80-', { customer: tgt80 });

checkTester(check, {
  valid: [
    { name: 'the same columns on source and targets', model: drift(WITH_NOTES, WITH_NOTES) },
    { name: 'not read (an older readout)', model: moveTables() },
    {
      name: 'integer display widths differ only (MySQL 8.0.19+ prints none)',
      model: drift(['customer_id bigint(20)'], ['customer_id bigint']),
      reasons: ['columnDefinitionDiffers'],
    },
    {
      name: 'a rule with a column list: the target holds the columns it selects',
      model: drift(WITH_NOTES, BASE)
        .patchStream('customer', '-80', 1, { source: columnList })
        .patchStream('customer', '80-', 1, { source: columnList }),
      reasons: ['columnMissingOnTarget'],
    },
    {
      name: 'a table the workflow does not move may differ',
      model: drift(WITH_NOTES, WITH_NOTES).tableColumns('customer', '-80', {
        customer: WITH_NOTES,
        unrelated: ['id bigint(20)'],
      }),
      reasons: ['columnDefinitionDiffers'],
    },
    {
      name: 'a target whose columns could not be read is not judged',
      model: drift(WITH_NOTES, WITH_NOTES).tableColumns('customer', '-80', { error: 'SELECT command denied' }),
      reasons: ['columnMissingOnTarget'],
    },
  ],
  invalid: [
    {
      name: 'a column added on the source while the workflow runs (on-ddl IGNORE): missing on every target',
      model: drift(WITH_NOTES, BASE),
      findings: [
        {
          reason: 'columnMissingOnTarget',
          severity: 'warning',
          keyspace: 'customer',
          workflow: 'commerce2customer',
          message:
            'column notes of table customer exists on source commerce/0 but not on target shard(s) -80, 80- of ' +
            "customer.commerce2customer: rows replicated with it fail with \"Unknown column 'notes' in 'field " +
            'list\'" and stop the streams',
          details: { table: 'customer', column: 'notes', targetShards: ['-80', '80-'], sourceType: 'text NULL' },
        },
      ],
    },
    {
      name: 'a type widened on one target shard only (#18743)',
      model: drift(WITH_NOTES, WITH_NOTES, ['customer_id int(11)', 'email varchar(128) NULL', 'notes text NULL']),
      findings: [
        {
          reason: 'columnDefinitionDiffers',
          message:
            'column customer_id of table customer of customer.commerce2customer is bigint(20) NOT NULL on source ' +
            'commerce/0 but int(11) NOT NULL on target shard(s) 80-',
          details: { column: 'customer_id', targetShards: ['80-'] },
        },
      ],
    },
    {
      name: 'nullability differs',
      model: drift(WITH_NOTES, ['customer_id bigint(20)', 'email varchar(128)', 'notes text NULL']),
      findings: [
        {
          reason: 'columnDefinitionDiffers',
          details: { column: 'email', source: 'varchar(128) NULL', target: 'varchar(128) NOT NULL' },
        },
      ],
    },
  ],
});
