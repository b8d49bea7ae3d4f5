/**
 * moved-tables-foreign-keys. Field evidence: vitessio/vitess #11975 (foreign-key
 * limitations: cascades not in the binary log, constraints limited to one server), PR #13137 (`--atomic-copy`, v18),
 * #15232, #16296, #14547, #18424, #14648. No Vitess error text: every reason is a heuristic.
 */
import check from '../../checks/moved-tables-foreign-keys.js';
import { checkTester } from '../helpers/check-tester.js';
import { moveTablesScenario } from '../helpers/reshard-scenario.js';

// commerce/0 (primary zone1-0000000100, schema vt_commerce) → customer -80, 80-: MoveTables commerce2customer moving
// customer and corder.
const moveTables = () => moveTablesScenario(['customer', 'corder']);
const atomic = () =>
  moveTables()
    .patchStream('customer', '-80', 1, { subType: 'AtomicCopy' })
    .patchStream('customer', '80-', 1, { subType: 'AtomicCopy' });

checkTester(check, {
  valid: [
    { name: 'foreign keys not in the readout (older snapshot): not judged', model: moveTables() },
    {
      name: 'corder → customer, both moved, RESTRICT, with --atomic-copy',
      model: atomic().foreignKeys('commerce', '0', [{ table_name: 'corder', referenced_table_name: 'customer' }]),
      reasons: ['foreignKeyWithoutAtomicCopy', 'foreignKeyCascade', 'foreignKeyAcrossWorkflow'],
    },
    {
      name: 'a foreign key between two tables that stay',
      model: moveTables().foreignKeys('commerce', '0', [
        { table_name: 'invoice', referenced_table_name: 'product', delete_rule: 'CASCADE' },
      ]),
      reasons: ['foreignKeyAcrossWorkflow', 'foreignKeyCascade'],
    },
    {
      name: 'a foreign key to another schema is not judged',
      model: moveTables().foreignKeys('commerce', '0', [
        { table_name: 'corder', referenced_table_name: 'customer', referenced_schema: 'vt_other' },
      ]),
      reasons: ['foreignKeyAcrossWorkflow', 'foreignKeyWithoutAtomicCopy'],
    },
  ],
  invalid: [
    {
      name: 'a moved parent whose staying child cascades: no change lost on the target, but the key spans keyspaces',
      model: moveTablesScenario(['customer']).foreignKeys('commerce', '0', [
        { table_name: 'corder', referenced_table_name: 'customer', delete_rule: 'CASCADE' },
      ]),
      findings: [{ reason: 'foreignKeyAcrossWorkflow', details: { staying: 'corder', onDelete: 'CASCADE' } }],
    },
    {
      name: 'corder → customer ON DELETE CASCADE, both moved, atomic copy: the cascade never reaches the target',
      model: atomic().foreignKeys('commerce', '0', [
        { table_name: 'corder', referenced_table_name: 'customer', delete_rule: 'CASCADE' },
      ]),
      findings: [
        {
          reason: 'foreignKeyCascade',
          severity: 'warning',
          keyspace: 'commerce',
          shard: '0',
          tablet: 'zone1-0000000100',
          message:
            'moved table corder of customer.commerce2customer is the child of foreign key fk_corder_customer (corder → customer) ON DELETE CASCADE on commerce/0: InnoDB makes cascaded changes without writing them to the binary log, so VReplication never copies them to the target (#11975)',
          details: {
            constraint: 'fk_corder_customer',
            table: 'corder',
            referencedTable: 'customer',
            onDelete: 'CASCADE',
            onUpdate: 'RESTRICT',
          },
        },
      ],
    },
    {
      name: 'corder → customer, both moved, without --atomic-copy (PR #13137, #15232)',
      model: moveTables().foreignKeys('commerce', '0', [{ table_name: 'corder', referenced_table_name: 'customer' }]),
      findings: [
        {
          reason: 'foreignKeyWithoutAtomicCopy',
          severity: 'warning',
          message:
            'foreign key fk_corder_customer (corder → customer) on commerce/0 links two tables customer.commerce2customer moves, and the workflow was not created with --atomic-copy: its tables are copied one at a time while the changes of those already copied are replayed (PR #13137; #15232, #18424)',
          details: { subType: 'None' },
        },
      ],
    },
    {
      name: 'a moved child of a staying parent, ON UPDATE SET NULL: cascade lost and the constraint spans keyspaces',
      model: moveTablesScenario(['corder']).foreignKeys('commerce', '0', [
        { table_name: 'corder', referenced_table_name: 'customer', update_rule: 'SET NULL' },
      ]),
      findings: [
        { reason: 'foreignKeyCascade', message: / ON UPDATE SET NULL on commerce\/0: / },
        {
          reason: 'foreignKeyAcrossWorkflow',
          message:
            'foreign key fk_corder_customer (corder → customer) on commerce/0 ties moved table corder of customer.commerce2customer to customer, which stays: after the switch the constraint spans two keyspaces, where MySQL cannot enforce it (#11975)',
          details: { staying: 'customer' },
        },
      ],
    },
  ],
});
