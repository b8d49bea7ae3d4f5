import check from '../../checks/frozen-workflow.js';
import { workflowJournalId } from '../../src/model/journal.js';
import type { RoutingRuleRecord, TabletControlRecord } from '../../src/readout.js';
import { checkTester } from '../helpers/check-tester.js';
import { cluster, type ClusterBuilder } from '../helpers/cluster.js';
import { joinRegExp } from '../helpers/regexp.js';

const TABLES = ['customer', 'corder'];

/** Routing rules MoveTables commerce → customer keeps for each stage of its switch. */
function routing(stage: 'created' | 'readsSwitched' | 'writesSwitched'): RoutingRuleRecord[] {
  const out: RoutingRuleRecord[] = [];
  for (const t of TABLES) {
    const src = [`commerce.${t}`];
    const dst = [`customer.${t}`];
    if (stage === 'writesSwitched') {
      out.push({ fromTable: t, toTables: dst }, { fromTable: `commerce.${t}`, toTables: dst });
      continue;
    }
    const reads = stage === 'readsSwitched' ? dst : src;
    out.push(
      { fromTable: t, toTables: src },
      { fromTable: `customer.${t}`, toTables: src },
      { fromTable: `${t}@replica`, toTables: reads },
      { fromTable: `${t}@rdonly`, toTables: reads },
      { fromTable: `customer.${t}@replica`, toTables: reads },
      { fromTable: `customer.${t}@rdonly`, toTables: reads },
      { fromTable: `commerce.${t}@replica`, toTables: reads },
      { fromTable: `commerce.${t}@rdonly`, toTables: reads },
    );
  }
  return out;
}

// commerce/0: primary zone1-0000000100; customer/-80: …110; customer/80-: …120.
const moveTables = (stage: 'created' | 'readsSwitched' | 'writesSwitched' = 'created') =>
  cluster()
    .keyspace('commerce', { shards: ['0'] })
    .keyspace('customer', { shards: ['-80', '80-'] })
    .moveTables('commerce2customer', { from: 'commerce', to: 'customer', tables: TABLES, column: 'customer_id' })
    .routing(routing(stage));

const freeze = (b: ClusterBuilder, keyspace = 'customer', shards = ['-80', '80-']) => {
  for (const sh of shards) b.patchStream(keyspace, sh, 1, { state: 'Stopped', message: 'FROZEN' });
  return b;
};

const deny = (tables: string[]): { tabletControls: TabletControlRecord[] } => ({
  tabletControls: [{ tabletType: 'PRIMARY', cells: [], deniedTables: tables, frozen: false }],
});

const reshard = (sourceServing: boolean) =>
  cluster()
    .keyspace('customer', { shards: ['0', '-80', '80-'], notServing: sourceServing ? ['-80', '80-'] : ['0'] })
    .reshard('cust2cust', { keyspace: 'customer', from: ['0'], to: ['-80', '80-'] });

/** A partial MoveTables of shard -80 only (commerce and customer both -80, 80-). */
const partial = () =>
  cluster()
    .keyspace('commerce', { shards: ['-80', '80-'] })
    .keyspace('customer', { shards: ['-80', '80-'] })
    .stream('customer', '-80', 1, {
      workflow: 'partial80',
      type: 'MoveTables',
      subType: 'Partial',
      sourceKeyspace: 'commerce',
      sourceShard: '-80',
      rules: [{ match: 'customer', filter: 'select * from customer' }],
    });

const journalOf = (b: ClusterBuilder) => workflowJournalId(b.model().workflows[0]!);

checkTester(
  check,
  {
    valid: [
      { name: 'healthy MoveTables before its switch', reasons: ['frozen', 'readsSwitched'], model: moveTables() },
      { name: 'healthy Reshard before its switch', reasons: ['writesSwitchedNotFrozen'], model: reshard(true) },
      {
        name: 'routing rules not read, nothing frozen',
        reasons: ['frozenSwitchUnknown'],
        model: moveTables().topologyUnreadable('routingRules'),
      },
      {
        name: 'target primaries deny the moved tables before the switch (newer MoveTables create)',
        reasons: ['targetDeniesTables'],
        model: moveTables().shardRecord('customer', '-80', deny(TABLES)).shardRecord('customer', '80-', deny(TABLES)),
      },
      {
        name: 'partial MoveTables not switched yet',
        reasons: ['partialSwitchDone'],
        model: partial().shardRouting([{ fromKeyspace: 'customer', toKeyspace: 'commerce', shard: '-80' }]),
      },
      {
        name: 'a journal of another workflow on the source primary',
        reasons: ['journalExists'],
        model: moveTables().journal('commerce', '0', { id: '12345', db_name: 'vt_commerce', val: '' }),
      },
      {
        name: 'a FROZEN reverse workflow is not judged',
        reasons: ['alreadySwitched'],
        model: freeze(
          moveTables()
            .patchStream('customer', '-80', 1, { workflow: 'commerce2customer_reverse' })
            .patchStream('customer', '80-', 1, { workflow: 'commerce2customer_reverse' }),
        ),
      },
      {
        // Only the workflow's own tables count; another table denied on the source is orphan-denied-tables' finding.
        name: 'the source primary denies a table this workflow does not move',
        reasons: ['sourceDeniesTables'],
        model: moveTables().shardRecord('commerce', '0', deny(['product'])),
      },
      {
        name: 'a FROZEN lookup backfill (externalized) is not a switch',
        model: cluster()
          .keyspace('customer', { shards: ['-80'] })
          .keyspace('lookup', { shards: ['0'] })
          .lookup('corder_lookup', {
            from: 'customer',
            to: 'lookup',
            table: 'corder_lookup',
            ownerTable: 'corder',
            owned: true,
          })
          .patchStream('lookup', '0', 1, { message: 'FROZEN' }),
      },
    ],
    invalid: [
      {
        name: 'FROZEN while writes are not switched: workflow is frozen',
        model: freeze(moveTables()),
        findings: [
          {
            severity: 'error',
            keyspace: 'customer',
            workflow: 'commerce2customer',
            shard: undefined,
            message:
              'workflow commerce2customer in customer has 2 FROZEN streams although its writes are not switched (routing rule commerce.corder → (none)), so SwitchTraffic refuses with "workflow is frozen"',
            details: {
              reason: 'frozen',
              vitessError: 'workflow is frozen',
              writesSwitched: false,
              frozenStreams: [
                { shard: '-80', streamId: 1 },
                { shard: '80-', streamId: 1 },
              ],
            },
          },
        ],
      },
      {
        name: 'FROZEN with writes switched: the switch is done',
        model: freeze(moveTables('writesSwitched')),
        findings: [
          {
            severity: 'info',
            message:
              'workflow commerce2customer in customer has 2 FROZEN streams and its writes are switched (routing rule commerce.corder → customer.corder): SwitchTraffic skips its checks and has nothing left to do; ReverseTraffic uses commerce2customer_reverse, Complete finishes the workflow',
            details: { reason: 'alreadySwitched', writesSwitched: true, vitessError: undefined },
          },
        ],
      },
      {
        name: 'FROZEN, routing rules not read',
        model: freeze(moveTables()).topologyUnreadable('routingRules'),
        findings: [
          {
            severity: 'warning',
            message: /whether its writes are switched is unknown \(routing rules not read\)/,
            details: { reason: 'frozenSwitchUnknown', writesSwitched: null },
          },
        ],
      },
      {
        name: 'Reshard FROZEN while the source shard still serves',
        model: freeze(reshard(true)),
        findings: [
          {
            severity: 'error',
            workflow: 'cust2cust',
            message: joinRegExp(
              /has 2 FROZEN streams although its writes are not /,
              /switched \(source shards 0 still serve primary traffic\)/,
            ),
            details: { reason: 'frozen' },
          },
        ],
      },
      {
        name: 'Reshard FROZEN after its switch',
        model: freeze(reshard(false)),
        findings: [
          {
            severity: 'info',
            message: /writes are switched \(source shards 0 no longer serve primary traffic\)/,
            details: { reason: 'alreadySwitched' },
          },
        ],
      },
      {
        name: 'partial MoveTables FROZEN after its shard switch: Vitess would still answer workflow is frozen',
        model: partial()
          .patchStream('customer', '-80', 1, { state: 'Stopped', message: 'FROZEN' })
          .shardRouting([{ fromKeyspace: 'commerce', toKeyspace: 'customer', shard: '-80' }]),
        findings: [
          {
            severity: 'info',
            shard: '-80',
            streamId: 1,
            message:
              'workflow partial80 in customer has 1 FROZEN stream and shard routing rules send shards -80 to customer: its partial switch is done; SwitchTraffic, which always checks a partial workflow, would answer "workflow is frozen"',
            details: {
              reason: 'partialSwitchDone',
              partial: true,
              shardsSwitched: ['-80'],
              vitessError: 'workflow is frozen',
            },
          },
        ],
      },
      {
        name: 'a journal of this workflow on its source primary: past the point of no return',
        model: (() => {
          const b = moveTables('writesSwitched');
          return b.journal('commerce', '0', { id: journalOf(b), db_name: 'vt_commerce', val: 'id:1' });
        })(),
        findings: [
          {
            severity: 'warning',
            keyspace: 'customer',
            workflow: 'commerce2customer',
            tablet: 'zone1-0000000100',
            message: joinRegExp(
              /^a resharding journal of workflow commerce2customer in customer \(id \d+\) exists on source primary /,
              /zone1-0000000100 /,
              /\(commerce\/0\): a previous SwitchTraffic passed its point of no return, so the next one resumes from /,
              /there and Cancel is refused$/,
            ),
            details: {
              reason: 'journalExists',
              journalChecked: true,
              journalFoundOn: [{ keyspace: 'commerce', shard: '0', tablet: 'zone1-0000000100' }],
              writesSwitched: true,
            },
          },
        ],
      },
      {
        // server.go:501-503 @006b7393: the rule keyed <source>.<table> decides (exists and points elsewhere than
        // itself), not the bare table's rule: after a manual edit of the bare rules back to the source, writes still
        // count as switched and SwitchTraffic has nothing to do.
        name: 'FROZEN, <source>.<table> rules on the target, bare rules edited back to the source: switched',
        model: freeze(
          moveTables('writesSwitched').routing([
            { fromTable: 'customer', toTables: ['commerce.customer'] },
            { fromTable: 'corder', toTables: ['commerce.corder'] },
            { fromTable: 'commerce.customer', toTables: ['customer.customer'] },
            { fromTable: 'commerce.corder', toTables: ['customer.corder'] },
          ]),
        ),
        findings: [{ severity: 'info', details: { reason: 'alreadySwitched', writesSwitched: true } }],
      },
      {
        // The converse: bare rules point at the target but no <source>.<table> rule exists: not switched for Vitess,
        // so canSwitch runs and refuses the FROZEN workflow.
        name: 'FROZEN, only the bare table rules point at the target: not switched for Vitess, workflow is frozen',
        model: freeze(
          cluster()
            .keyspace('commerce', { shards: ['0'] })
            .keyspace('customer', { shards: ['-80', '80-'] })
            .moveTables('commerce2customer', {
              from: 'commerce',
              to: 'customer',
              tables: TABLES,
              column: 'customer_id',
            })
            .routing([
              { fromTable: 'customer', toTables: ['customer.customer'] },
              { fromTable: 'corder', toTables: ['customer.corder'] },
            ]),
        ),
        findings: [{ severity: 'error', details: { reason: 'frozen', vitessError: 'workflow is frozen' } }],
      },
      {
        name: 'writes routed to the target while the streams still run',
        model: moveTables('writesSwitched'),
        findings: [
          {
            severity: 'warning',
            message:
              'workflow commerce2customer in customer already sends writes to the target (routing rule commerce.corder → customer.corder) but its streams are not frozen and no journal of it was found: SwitchTraffic skips its checks and runs the whole write switch again while the application writes to both sides',
            details: { reason: 'writesSwitchedNotFrozen', journalChecked: true },
          },
        ],
      },
      {
        name: 'reads switched, writes not yet',
        model: moveTables('readsSwitched'),
        findings: [
          {
            severity: 'info',
            message:
              'workflow commerce2customer in customer has REPLICA and RDONLY reads switched to customer while writes still go to commerce',
            details: { reason: 'readsSwitched', table: 'corder' },
          },
        ],
      },
      {
        name: 'source primary denies the moved tables although writes are not switched',
        model: moveTables().shardRecord('commerce', '0', deny(['customer', 'corder', 'other'])),
        findings: [
          {
            severity: 'warning',
            keyspace: 'customer',
            workflow: 'commerce2customer',
            tablet: 'zone1-0000000100',
            message:
              'source shard commerce/0 denies writes to corder, customer on its primary although workflow commerce2customer in customer has not switched writes, a leftover of an interrupted switch: the application cannot write these tables',
            details: { reason: 'sourceDeniesTables', deniedTables: ['corder', 'customer'] },
          },
        ],
      },
      {
        name: 'target primary still denies the tables after the switch',
        model: freeze(moveTables('writesSwitched')).shardRecord('customer', '80-', deny(['customer'])),
        findings: [
          { severity: 'info', details: { reason: 'alreadySwitched' } },
          {
            severity: 'warning',
            shard: '80-',
            tablet: 'zone1-0000000120',
            message:
              'target shard customer/80- still denies writes to customer on its primary although workflow commerce2customer in customer switched writes to it: the application cannot write these tables',
            details: { reason: 'targetDeniesTables', deniedTables: ['customer'] },
          },
        ],
      },
    ],
  },
  { more: true },
);

// Multi-tenant MoveTables (options.tenant_id): no table routing rules; server.go updateKeyspaceRoutingState reads the
// keyspace routing rules, writes switched when `<source keyspace>` routes to the target.
const tenant = () =>
  cluster()
    .keyspace('commerce', { shards: ['0'] })
    .keyspace('customer', { shards: ['-80', '80-'] })
    .moveTables('commerce2customer', { from: 'commerce', to: 'customer', tables: TABLES, column: 'customer_id' })
    .patchStream('customer', '-80', 1, { options: '{"tenant_id":"42"}', state: 'Stopped', message: 'FROZEN' })
    .patchStream('customer', '80-', 1, { options: '{"tenant_id":"42"}', state: 'Stopped', message: 'FROZEN' });

checkTester(check, {
  valid: [],
  invalid: [
    {
      name: 'multi-tenant MoveTables already switched by keyspace routing rules: done, not refused',
      model: tenant().keyspaceRouting([
        { fromKeyspace: 'commerce', toKeyspace: 'customer' },
        { fromKeyspace: 'commerce@replica', toKeyspace: 'customer' },
        { fromKeyspace: 'commerce@rdonly', toKeyspace: 'customer' },
      ]),
      findings: [
        {
          severity: 'info',
          details: {
            reason: 'alreadySwitched',
            writesSwitched: true,
            evidence: 'keyspace routing rule commerce → customer',
            vitessError: undefined,
          },
        },
      ],
    },
    {
      name: 'multi-tenant MoveTables FROZEN while its keyspace routing rule still points at the source: frozen',
      model: tenant().keyspaceRouting([{ fromKeyspace: 'commerce', toKeyspace: 'commerce' }]),
      findings: [{ details: { reason: 'frozen', writesSwitched: false, vitessError: 'workflow is frozen' } }],
    },
  ],
});
