/**
 * leftover-tables. Upstream @v0.24.4: `go/vt/vtctl/workflow/server.go` `dropTargets` (cancel:
 * `removeTargetTables` only without --keep-data) and `dropSources` (complete: `removeSourceTables` and the
 * denied-tables removals only without --keep-data); `materializer.go:627` `validateEmptyTables` (create refuses a
 * target table holding a row, v22+); `traffic_switcher.go:79` `renameTableTemplate` (`_%.59s_old`).
 */
import check from '../../checks/leftover-tables.js';
import { DEFAULT_ACTION_REQUEST } from '../../src/engine/options.js';
import { checkTester } from '../helpers/check-tester.js';
import { cluster } from '../helpers/cluster.js';

const sweep = { sweep: true };
const TABLES = ['corder', 'customer'];

/** commerce/0 and customer -80, 80-, each primary's schema listing `commerce` and `customer` tables. */
const keyspaces = (commerce: readonly string[] = TABLES, customer: readonly string[] = []) =>
  cluster()
    .keyspace('commerce', { shards: ['0'] })
    .keyspace('customer', { shards: ['-80', '80-'] })
    .schemaTables('commerce', '0', commerce)
    .schemaTables('customer', '-80', customer)
    .schemaTables('customer', '80-', customer);

/** What a MoveTables commerce → customer of customer and corder looks like while it runs. */
const running = () =>
  keyspaces(TABLES, TABLES).moveTables('commerce2customer', {
    from: 'commerce',
    to: 'customer',
    tables: TABLES,
    column: 'customer_id',
  });

/** `complete --keep-data`: the source keyspace keeps the tables and their denial (tablet controls). */
const completedKeepingData = () =>
  keyspaces(TABLES, TABLES).shardRecord('commerce', '0', {
    tabletControls: [{ tabletType: 'PRIMARY', cells: [], deniedTables: TABLES, frozen: false }],
  });

const refusal = (ks: string, tables: string) =>
  `failed to validate that all target tables are empty: non-empty tables found in target keyspace(${ks}): ${tables}`;

checkTester(check, {
  valid: [
    {
      name: 'a MoveTables in its copy phase: both keyspaces hold the tables it moves',
      reasons: ['tableInTwoKeyspaces'],
      model: running(),
      options: sweep,
    },
    {
      name: 'the same MoveTables with its writes switched: the rules sending commerce.customer away are its own',
      reasons: ['tableRoutedAway'],
      model: running().routing([
        { fromTable: 'commerce.customer', toTables: ['customer.customer'] },
        { fromTable: 'commerce.corder', toTables: ['customer.corder'] },
      ]),
      options: sweep,
    },
    {
      name: 'a reference table in every keyspace is shared by design',
      reasons: ['tableInTwoKeyspaces'],
      model: cluster()
        .keyspace('commerce', { shards: ['0'], tables: { zip: { type: 'reference' } } })
        .keyspace('customer', {
          shards: ['-80', '80-'],
          tables: { zip: { type: 'reference', source: 'commerce.zip' } },
        })
        .schemaTables('commerce', '0', ['zip'])
        .schemaTables('customer', '-80', ['zip'])
        .schemaTables('customer', '80-', ['zip']),
      options: sweep,
    },
    {
      name: 'one schema in three keyspaces (a keyspace per tenant) is shared by design, not a --keep-data copy',
      reasons: ['tableInTwoKeyspaces'],
      model: keyspaces(TABLES, TABLES)
        .keyspace('tenant3', { shards: ['0'] })
        .schemaTables('tenant3', '0', TABLES),
      options: sweep,
    },
    {
      name: 'the other keyspace has a primary that was not read: a workflow there may move the tables',
      reasons: ['tableInTwoKeyspaces', 'tableRoutedAway'],
      model: keyspaces(TABLES, TABLES)
        .unreadable('customer', '80-')
        .routing([{ fromTable: 'commerce.customer', toTables: ['customer.customer'] }]),
      options: sweep,
    },
    {
      name: 'the table lists were not read (a readout from before the read, or a failed read)',
      reasons: ['tableInTwoKeyspaces', 'renamedTablesLeft'],
      model: keyspaces(TABLES, TABLES)
        .schemaTables('commerce', '0', 'absent')
        .schemaTables('customer', '-80', { error: 'SELECT command denied' })
        .schemaTables('customer', '80-', { error: 'SELECT command denied' }),
      options: sweep,
    },
    {
      name: 'complete --keep-data: the target keyspace holds the live copy, the denied source copy is the leftover',
      reasons: ['tableInTwoKeyspaces'],
      model: completedKeepingData().select({ keyspaces: ['customer'] }),
    },
    {
      name: 'Vitess and schema tools own the names that start with _ (other than _<name>_old)',
      reasons: ['renamedTablesLeft'],
      model: keyspaces(['_vt_hld_6ace8bcef73211ea87e9f875a4d24e90_20200915120410_', '_customer_new', 'customer']),
      options: sweep,
    },
    {
      name: "check --action complete --rename-tables: _customer_old on the source is complete-workflow's finding",
      reasons: ['renamedTablesLeft'],
      model: running().schemaTables('commerce', '0', [...TABLES, '_customer_old']),
      options: { action: { ...DEFAULT_ACTION_REQUEST, action: 'complete', renameTables: true } },
    },
  ],
  invalid: [
    {
      name: 'MoveTables cancel --keep-data: the target keeps the copied tables, the source the originals',
      model: keyspaces(TABLES, TABLES),
      options: sweep,
      findings: [
        {
          severity: 'info',
          keyspace: 'commerce',
          message:
            "commerce and customer both keep corder, customer on their primaries, and no workflow read moves them between the two: one copy is likely kept by a MoveTables cancel --keep-data (the target's) or complete --keep-data (the source's); a later MoveTables create of them into commerce is refused while they hold rows (v22 and later)",
          details: {
            reason: 'tableInTwoKeyspaces',
            tables: TABLES,
            otherKeyspace: 'customer',
            vitessText: refusal('commerce', 'corder, customer'),
            clean: [
              "vtctldclient ApplySchema --sql 'DROP TABLE IF EXISTS `corder`' commerce",
              "vtctldclient ApplySchema --sql 'DROP TABLE IF EXISTS `customer`' commerce",
            ],
          },
        },
        {
          severity: 'info',
          keyspace: 'customer',
          details: {
            reason: 'tableInTwoKeyspaces',
            tables: TABLES,
            otherKeyspace: 'commerce',
            vitessText: refusal('customer', 'corder, customer'),
          },
        },
      ],
    },
    {
      name: 'MoveTables complete --keep-data: only the denied source copy is reported',
      model: completedKeepingData(),
      options: sweep,
      findings: [
        {
          severity: 'info',
          keyspace: 'commerce',
          message:
            "commerce and customer both keep corder, customer on their primaries, and no workflow read moves them between the two: one copy is likely kept by a MoveTables cancel --keep-data (the target's) or complete --keep-data (the source's, here: commerce denies corder, customer); a later MoveTables create of them into commerce is refused while they hold rows (v22 and later)",
          details: { reason: 'tableInTwoKeyspaces', otherKeyspace: 'customer', deniedHere: TABLES },
        },
      ],
    },
    {
      name: 'complete --keep-data --keep-routing-rules: commerce.customer is routed to customer, its rows stay behind',
      model: keyspaces(['customer'], ['customer']).routing([
        { fromTable: 'customer', toTables: ['customer.customer'] },
        { fromTable: 'commerce.customer', toTables: ['customer.customer'] },
        { fromTable: 'customer.customer', toTables: ['customer.customer'] },
      ]),
      options: sweep,
      findings: [
        {
          severity: 'info',
          keyspace: 'commerce',
          message:
            'commerce keeps customer on its primaries while routing rules send commerce.customer to customer, and no workflow read moves it between commerce and customer: rows kept by a cancel or complete run with --keep-data and --keep-routing-rules, which queries through vtgate do not reach; a later MoveTables create of it into commerce is refused while it holds rows (v22 and later)',
          details: {
            reason: 'tableRoutedAway',
            tables: ['customer'],
            routedTo: 'customer',
            shards: ['0'],
            vitessText: refusal('commerce', 'customer'),
          },
        },
      ],
    },
    {
      name: 'complete --rename-tables kept _customer_old and _corder_old on the source primary',
      model: keyspaces(['_corder_old', '_customer_old', 'product']),
      options: sweep,
      findings: [
        {
          severity: 'info',
          keyspace: 'commerce',
          message:
            'commerce keeps _corder_old, _customer_old on shard 0, the names complete --rename-tables gives the tables it moves away: nothing in Vitess drops them, and a later complete --rename-tables of a table of that name out of commerce fails renaming onto them',
          details: {
            reason: 'renamedTablesLeft',
            tables: ['_corder_old', '_customer_old'],
            shards: ['0'],
            breaks: 'MoveTables complete --rename-tables of corder, customer out of commerce',
            clean: [
              "vtctldclient ApplySchema --sql 'DROP TABLE IF EXISTS `_corder_old`' commerce",
              "vtctldclient ApplySchema --sql 'DROP TABLE IF EXISTS `_customer_old`' commerce",
            ],
          },
        },
      ],
    },
  ],
});
