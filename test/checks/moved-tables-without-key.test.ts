/**
 * moved-tables-without-key. Field evidence: vitessio/vitess #6008 (deletes/updates of rows
 * with NULLs not applied on tables without a primary key), #7120 and PR #10192 (full scans; PK equivalents), #15974
 * (vplayer stalls), #17969 (VDiff `Row count exceeded` on unique-key-only tables), #8497 (duplicate keys).
 */
import check from '../../checks/moved-tables-without-key.js';
import { checkTester } from '../helpers/check-tester.js';
import { moveTablesScenario } from '../helpers/reshard-scenario.js';

/** commerce/0 (…100) → customer -80 (…110), 80- (…120): MoveTables commerce2customer of customer and corder. */
const moveTables = () => moveTablesScenario();

checkTester(check, {
  valid: [
    {
      name: 'both moved tables have a primary key',
      model: moveTables().tableKeys('commerce', '0', ['customer', 'corder']),
    },
    {
      name: 'a keyless table that is not moved',
      model: moveTables().tableKeys('commerce', '0', ['customer', 'corder', { table_name: 'audit_log' }]),
      reasons: ['noKey'],
    },
    {
      name: 'tables not read (older snapshot, or the read failed: a read failure elsewhere)',
      model: moveTables().tableKeys('commerce', '0', { error: 'Access denied' }),
      reasons: ['noKey', 'uniqueKeyOnly'],
    },
    {
      name: 'a moved table absent from the schema read is not judged here',
      model: moveTables().tableKeys('commerce', '0', ['customer']),
      reasons: ['noKey'],
    },
  ],
  invalid: [
    {
      name: 'corder without any key on the source (#6008)',
      model: moveTables().tableKeys('commerce', '0', [
        'customer',
        { table_name: 'corder', unique_nullable: ['uk_ref'] },
      ]),
      findings: [
        {
          reason: 'noKey',
          severity: 'warning',
          keyspace: 'commerce',
          shard: '0',
          tablet: 'zone1-0000000100',
          message:
            'table corder of customer.commerce2customer has no primary key and no unique key on NOT NULL columns on commerce/0: VReplication identifies its rows by every column, so updates and deletes of rows holding NULLs are not applied (#6008), each applied change scans the table, and VDiff cannot compare it reliably',
          details: { workflow: 'customer.commerce2customer', table: 'corder', uniqueNullable: ['uk_ref'] },
        },
      ],
    },
    {
      name: 'customer keyed by a NOT NULL unique key only, on a target shard (#17969)',
      model: moveTables()
        .tableKeys('commerce', '0', ['customer', 'corder'])
        .tableKeys('customer', '80-', [{ table_name: 'customer', unique_not_null: 'uk_email' }, 'corder']),
      findings: [
        {
          reason: 'uniqueKeyOnly',
          severity: 'info',
          keyspace: 'customer',
          shard: '80-',
          message:
            'table customer of customer.commerce2customer has no primary key on customer/80-: VReplication identifies its rows by the unique key uk_email on NOT NULL columns, and VDiff has failed on such tables ("Row count exceeded", #17969)',
          details: { uniqueKey: 'uk_email' },
        },
      ],
    },
  ],
});
