import check from '../../checks/reverse-traffic.js';
import { DEFAULT_ACTION_REQUEST, type TabletTypeName } from '../../src/engine/options.js';
import { moveTablesRules, type SwitchedType } from '../helpers/actions.js';
import { checkTester } from '../helpers/check-tester.js';
import { gtidPos, NOW_SECONDS, serverUuid, type StreamOptions } from '../helpers/cluster.js';
import { moveTablesScenario } from '../helpers/reshard-scenario.js';
import { givenVitessVersions } from '../../src/vitess/versions.js';

// commerce/0 (…100) → customer -80 (…110), 80- (…120): MoveTables commerce2customer of customer, corder.
const TABLES = ['customer', 'corder'];

/** The MoveTables with `switched` tablet types routed to customer, in every cell's SrvVSchema too. */
const switched = (types: readonly SwitchedType[]) => {
  const b = moveTablesScenario().routing(moveTablesRules('commerce', 'customer', TABLES, types));
  if (types.includes('primary'))
    for (const shard of ['-80', '80-']) b.patchStream('customer', shard, 1, { state: 'Stopped', message: 'FROZEN' });
  return b;
};

/** `commerce2customer_reverse` on commerce/0: one stream per original target shard, as SwitchTraffic creates it. */
const withReverse = (types: readonly SwitchedType[], patch: StreamOptions = {}) => {
  const b = switched(types);
  ['-80', '80-'].forEach((shard, i) => {
    b.stream('commerce', '0', i + 1, {
      workflow: 'commerce2customer_reverse',
      type: 'MoveTables',
      sourceKeyspace: 'customer',
      sourceShard: shard,
      rules: TABLES.map((t) => ({ match: t, filter: `select * from ${t}` })),
      pos: gtidPos('customer', shard, 1000),
      ...(i === 0 ? patch : {}),
    });
  });
  return b.servingGraph();
};

const reverse = (tabletTypes: TabletTypeName[] | null = null, version?: string) => ({
  action: { ...DEFAULT_ACTION_REQUEST, action: 'reverse' as const, tabletTypes },
  ...(version !== undefined ? { vitess: givenVitessVersions(version, 'flag') } : {}),
});
/** The multi-tenant MoveTables with `types` routed to customer (keyspace routing rules). */
const multiTenant = (types: readonly SwitchedType[]) =>
  switched(types)
    .patchStream('customer', '-80', 1, { options: '{"tenant_id":"7"}' })
    .patchStream('customer', '80-', 1, { options: '{"tenant_id":"7"}' })
    .keyspaceRouting(
      types.map((t) => ({ fromKeyspace: t === 'primary' ? 'commerce' : `commerce@${t}`, toKeyspace: 'customer' })),
    )
    .servingGraph();
const READS: TabletTypeName[] = ['replica', 'rdonly'];
const WF = { keyspace: 'customer', workflow: 'commerce2customer' };

checkTester(check, {
  valid: [
    {
      name: 'reads-only reverse after a reads-only switch',
      model: switched(['replica', 'rdonly']).servingGraph(),
      options: reverse(READS),
      reasons: ['replicaReadsNotSwitched', 'rdonlyReadsNotSwitched'],
    },
    {
      name: 'reverse of replica reads only, when only replica reads are switched',
      model: switched(['replica']).servingGraph(),
      options: reverse(['replica']),
      reasons: ['rdonlyReadsNotSwitched'],
    },
    {
      name: 'a full reverse after a write switch, with a healthy reverse workflow',
      model: withReverse(['primary', 'replica', 'rdonly']),
      options: reverse(),
      reasons: ['noReverseWorkflow', 'reverseLag', 'reverseFrozen', 'reverseCopying', 'reverseErrors'],
    },
    {
      name: 'a reverse workflow 20s behind, within --max-lag 30s',
      model: withReverse(['primary', 'replica', 'rdonly'], {
        transaction_timestamp: NOW_SECONDS - 20,
        time_updated: NOW_SECONDS - 20,
        time_heartbeat: NOW_SECONDS - 20,
      }),
      options: reverse(),
      reasons: ['reverseLag'],
    },
    {
      name: 'a multi-tenant MoveTables, reads only reversed',
      model: switched(['replica', 'rdonly'])
        .patchStream('customer', '-80', 1, { options: '{"tenant_id":"7"}' })
        .patchStream('customer', '80-', 1, { options: '{"tenant_id":"7"}' })
        .keyspaceRouting([
          { fromKeyspace: 'commerce@replica', toKeyspace: 'customer' },
          { fromKeyspace: 'commerce@rdonly', toKeyspace: 'customer' },
        ])
        .servingGraph(),
      options: reverse(READS),
      reasons: ['multiTenantWrites'],
    },
    {
      // v22+ reverses a multi-tenant migration's reads (only its writes are refused): no refusal.
      name: 'a multi-tenant MoveTables, reads only reversed, judged against v22',
      model: multiTenant(['replica', 'rdonly']),
      options: reverse(READS, '22'),
      reasons: ['multiTenantReverseBeforeV22'],
    },
    {
      // v21 has the reads-only reverse (server.go:3175 @v0.21.5): with reads switched, nothing to refuse.
      name: 'reads-only reverse after a reads-only switch, judged against v21',
      model: switched(['replica', 'rdonly']).servingGraph(),
      options: reverse(READS, '21'),
      reasons: ['rdonlyReadsNotSwitchedBeforeV22', 'noReverseWorkflow'],
    },
    {
      name: 'purged binary logs the reverse stream has applied already',
      model: withReverse(['primary', 'replica', 'rdonly']).fullStatusOf('zone1-0000000111', {
        gtidPurged: `${serverUuid('customer', '-80')}:1-900`,
      }),
      options: reverse(),
      reasons: ['reverseBinlogsPurged'],
    },
    {
      name: 'a reverse workflow with tablet_types RDONLY, and an RDONLY tablet on commerce/0',
      model: withReverse(['primary', 'replica', 'rdonly'], { tablet_types: 'rdonly' }).addTablet('commerce', '0', {
        cell: 'zone1',
        uid: 105,
        type: 'RDONLY',
      }),
      options: reverse(),
      reasons: ['noTabletToStreamBack'],
    },
    {
      // ReverseTraffic on the `_reverse` name after a ReverseTraffic: the forward workflow runs again (not frozen)
      // and forward writes are back on the source, so canSwitch is skipped (writesAlreadySwitched).
      name: 'ReverseTraffic named on commerce2customer_reverse while forward writes are not switched',
      model: withReverse([]).select({ workflows: ['commerce2customer_reverse'] }),
      options: reverse(),
      reasons: ['reverseFrozen', 'reverseLag', 'noReverseWorkflow'],
    },
    {
      name: 'a reads-only reverse named on commerce2customer_reverse after reads were switched',
      model: withReverse(['replica', 'rdonly']).select({ workflows: ['commerce2customer_reverse'] }),
      options: reverse(READS),
      reasons: ['replicaReadsNotSwitched', 'rdonlyReadsNotSwitched'],
    },
    {
      name: 'a source keyspace whose primary was not read: whether the reverse workflow exists is unknown',
      model: switched(['primary', 'replica', 'rdonly']).servingGraph().unreadable('commerce', '0'),
      options: reverse(),
      reasons: ['noReverseWorkflow'],
    },
  ],
  invalid: [
    {
      // server.go:2944-2950 (switchReads, DirectionBackward): no cell has REPLICA / RDONLY reads switched.
      name: 'reads-only reverse when nothing was switched',
      model: switched([]).servingGraph(),
      options: reverse(READS),
      findings: [
        {
          ...WF,
          reason: 'replicaReadsNotSwitched',
          message:
            'ReverseTraffic --tablet-types=replica,rdonly of customer.commerce2customer reverses replica reads, but no cell serves replica reads of it from customer',
          details: {
            vitessError: 'requesting reversal of read traffic for REPLICAs but REPLICA reads have not been switched',
          },
        },
        { ...WF, reason: 'rdonlyReadsNotSwitched' },
      ],
    },
    {
      // v19–v21 still say SwitchReads for RDONLYs (server.go:3333 @v0.21.5, :3087 @v0.19.10).
      name: 'reads-only reverse when nothing was switched, judged against v21: the RDONLY text of v21',
      model: switched([]).servingGraph(),
      options: reverse(READS, '21'),
      findings: [
        {
          ...WF,
          reason: 'replicaReadsNotSwitched',
          details: {
            vitessError: 'requesting reversal of read traffic for REPLICAs but REPLICA reads have not been switched',
          },
        },
        {
          ...WF,
          reason: 'rdonlyReadsNotSwitchedBeforeV22',
          details: {
            vitessError: 'requesting reversal of SwitchReads for RDONLYs but RDONLY reads have not been switched',
            versionNote: undefined,
          },
        },
      ],
    },
    {
      // v19–v20 have no reads-only reverse: ReverseTraffic loads the reverse workflow first (server.go:2976-2980
      // @v0.19.10), whatever the tablet types.
      name: 'reads-only reverse after a reads-only switch, judged against v19: the reverse workflow is loaded first',
      model: switched(['replica', 'rdonly']).servingGraph(),
      options: reverse(READS, '19'),
      findings: [
        {
          ...WF,
          reason: 'noReverseWorkflow',
          message:
            'ReverseTraffic --tablet-types=replica,rdonly of customer.commerce2customer: Vitess before v21 has no reads-only reverse and loads commerce.commerce2customer_reverse first, which does not exist',
          details: { vitessError: 'no streams found in keyspace commerce for commerce2customer_reverse' },
        },
      ],
    },
    {
      // v21 refuses every reverse of a multi-tenant migration, reads included (server.go:3166-3171 @v0.21.5).
      name: 'a multi-tenant MoveTables, reads only reversed, judged against v21',
      model: multiTenant(['replica', 'rdonly']),
      options: reverse(READS, '21'),
      findings: [
        {
          ...WF,
          reason: 'multiTenantReverseBeforeV22',
          details: { vitessError: 'cannot reverse traffic for multi-tenant migrations' },
        },
      ],
    },
    {
      // v20 loads the reverse workflow first: without one that fails before the multi-tenant refusal.
      name: 'a multi-tenant MoveTables, reads only reversed, judged against v20: no reverse workflow to load',
      model: multiTenant(['replica', 'rdonly']),
      options: reverse(READS, '20'),
      findings: [{ ...WF, reason: 'noReverseWorkflow' }],
    },
    {
      // The global rules say switched, but the cell's SrvVSchema (what getWorkflowState reads) was not rebuilt.
      name: 'reads switched in the global rules only, not in the SrvVSchema of the cell',
      model: switched(['replica', 'rdonly'])
        .servingGraph()
        .srvRouting(moveTablesRules('commerce', 'customer', TABLES, []), ['zone1']),
      options: reverse(['rdonly']),
      findings: [{ ...WF, reason: 'rdonlyReadsNotSwitched' }],
    },
    {
      // the default tablet types include PRIMARY, so the _reverse workflow is loaded.
      name: 'a plain ReverseTraffic after a reads-only switch',
      model: switched(['replica', 'rdonly']).servingGraph(),
      options: reverse(),
      findings: [
        {
          ...WF,
          reason: 'noReverseWorkflow',
          message:
            'ReverseTraffic --tablet-types=primary,replica,rdonly of customer.commerce2customer takes the write path (PRIMARY requested) while writes are not switched, and commerce.commerce2customer_reverse does not exist: reverse the reads with --tablet-types=replica,rdonly',
          details: { vitessError: 'no streams found in keyspace commerce for commerce2customer_reverse' },
        },
      ],
    },
    {
      name: 'writes switched but the reverse workflow was deleted',
      model: switched(['primary', 'replica', 'rdonly']).servingGraph(),
      options: reverse(),
      findings: [
        {
          ...WF,
          reason: 'noReverseWorkflow',
          message:
            'ReverseTraffic of customer.commerce2customer needs the reverse workflow commerce.commerce2customer_reverse, which no primary of the source keyspace has',
        },
      ],
    },
    {
      // server.go:2777-2783: the write path of a multi-tenant migration is refused before the reverse workflow loads.
      name: 'a multi-tenant MoveTables with writes switched',
      model: switched(['primary', 'replica', 'rdonly'])
        .patchStream('customer', '-80', 1, { options: '{"tenant_id":"7"}' })
        .patchStream('customer', '80-', 1, { options: '{"tenant_id":"7"}' })
        .keyspaceRouting([
          { fromKeyspace: 'commerce', toKeyspace: 'customer' },
          { fromKeyspace: 'commerce@replica', toKeyspace: 'customer' },
          { fromKeyspace: 'commerce@rdonly', toKeyspace: 'customer' },
        ])
        .servingGraph(),
      options: reverse(),
      findings: [
        {
          ...WF,
          reason: 'multiTenantWrites',
          details: { vitessError: 'cannot reverse write traffic for multi-tenant migrations' },
        },
      ],
    },
    {
      // canSwitch on the reverse workflow: its lag first (server.go WorkflowSwitchTraffic → canSwitch).
      name: 'a reverse workflow stopped two minutes ago',
      model: withReverse(['primary', 'replica', 'rdonly'], {
        state: 'Stopped',
        transaction_timestamp: NOW_SECONDS - 120,
        time_updated: NOW_SECONDS - 120,
        time_heartbeat: NOW_SECONDS - 120,
      }),
      options: reverse(),
      findings: [
        {
          ...WF,
          reason: 'reverseLag',
          details: {
            vitessError: 'replication lag 120s is higher than allowed lag 30s',
            reverseKeyspace: 'commerce',
            streamId: 1,
          },
        },
      ],
    },
    {
      name: 'a lagging reverse workflow under --max-lag 500ms: judged against 0s, shown as given',
      model: withReverse(['primary', 'replica', 'rdonly'], {
        state: 'Stopped',
        transaction_timestamp: NOW_SECONDS - 120,
        time_updated: NOW_SECONDS - 120,
        time_heartbeat: NOW_SECONDS - 120,
      }),
      options: { ...reverse(), maxLagSeconds: 0, maxLagGiven: '500ms' },
      findings: [
        {
          ...WF,
          reason: 'reverseLag',
          message: /above the allowed 0s \(--max-lag 500ms in whole seconds, as Vitess compares\)$/,
          details: { vitessError: 'replication lag 120s is higher than allowed lag 0s' },
        },
      ],
    },
    {
      name: 'a FROZEN reverse stream',
      model: withReverse(['primary', 'replica', 'rdonly'], { state: 'Stopped', message: 'FROZEN' }),
      options: reverse(),
      findings: [{ ...WF, reason: 'reverseFrozen', details: { vitessError: 'workflow is frozen' } }],
    },
    {
      name: 'a reverse stream still copying',
      model: withReverse(['primary', 'replica', 'rdonly'], { copyTables: ['customer'] }),
      options: reverse(),
      findings: [{ ...WF, reason: 'reverseCopying', details: { vitessError: 'copy is still in progress' } }],
    },
    {
      name: 'a reverse stream in error',
      model: withReverse(['primary', 'replica', 'rdonly'], {
        state: 'Error',
        message: "Error: table 'vt_commerce.customer' doesn't exist",
      }),
      options: reverse(),
      findings: [{ ...WF, reason: 'reverseErrors', details: { vitessError: 'workflow has errors' } }],
    },
    {
      // server.go switchWrites → areTabletsAvailableToStreamFrom (utils.go) on the reverse workflow's target shards.
      name: 'a reverse workflow with tablet_types RDONLY and no RDONLY tablet on commerce/0',
      model: withReverse(['primary', 'replica', 'rdonly'], { tablet_types: 'rdonly' }),
      options: reverse(),
      findings: [
        {
          ...WF,
          reason: 'noTabletToStreamBack',
          message:
            'commerce/0 has no RDONLY tablet in zone1 for the workflow ReverseTraffic re-creates from commerce2customer_reverse to stream from',
        },
      ],
    },
    {
      // server.go @006b7393 WorkflowSwitchTraffic: ReverseTraffic on the `_reverse` name loads
      // ReverseWorkflowName(commerce2customer_reverse) = commerce2customer, FROZEN after the write switch.
      name: 'ReverseTraffic named on commerce2customer_reverse after writes were switched',
      model: withReverse(['primary', 'replica', 'rdonly']).select({ workflows: ['commerce2customer_reverse'] }),
      options: reverse(),
      findings: [
        {
          keyspace: 'commerce',
          workflow: 'commerce2customer_reverse',
          reason: 'reverseFrozen',
          message: 'stream 1 of reverse workflow commerce2customer on customer/-80 is FROZEN',
          details: { vitessError: 'workflow is frozen' },
        },
        { keyspace: 'commerce', workflow: 'commerce2customer_reverse', reason: 'reverseFrozen' },
      ],
    },
    {
      name: 'a reads-only reverse named on commerce2customer_reverse when nothing was switched',
      model: withReverse([]).select({ workflows: ['commerce2customer_reverse'] }),
      options: reverse(['replica']),
      findings: [
        {
          keyspace: 'commerce',
          workflow: 'commerce2customer_reverse',
          reason: 'replicaReadsNotSwitched',
          message:
            'ReverseTraffic --tablet-types=replica of customer.commerce2customer reverses replica reads, but no cell serves replica reads of it from customer (the state Vitess reads for commerce.commerce2customer_reverse)',
        },
      ],
    },
    {
      name: 'the original target purged what the reverse stream still needs',
      model: withReverse(['primary', 'replica', 'rdonly']).fullStatusOf('zone1-0000000111', {
        gtidPurged: `${serverUuid('customer', '-80')}:1-2000`,
      }),
      options: reverse(),
      findings: [
        {
          ...WF,
          reason: 'reverseBinlogsPurged',
          message:
            'stream 1 of reverse workflow commerce2customer_reverse on commerce/0 needs 1000 transactions that customer/-80 has purged from every tablet it may read from',
        },
      ],
    },
  ],
});
