import check from '../../checks/no-streams.js';
import { checkTester } from '../helpers/check-tester.js';
import type { ClusterBuilder } from '../helpers/cluster.js';
import { joinRegExp } from '../helpers/regexp.js';
import { moveTablesScenario } from '../helpers/reshard-scenario.js';

/** commerce/0 → customer -80, 80-: MoveTables commerce2customer. */
function moveTables(): ClusterBuilder {
  return moveTablesScenario(['customer']);
}

checkTester(check, {
  valid: [
    { name: 'no workflow named on the command line', model: moveTables() },
    {
      name: 'the named workflow has streams in the named keyspace',
      reasons: ['noStreams'],
      model: moveTables().select({ keyspaces: ['customer'], workflows: ['commerce2customer'] }),
    },
    {
      name: 'the named workflow has streams somewhere (no --keyspace)',
      reasons: ['noStreamsAnyKeyspace'],
      model: moveTables().select({ workflows: ['commerce2customer'] }),
    },
    {
      name: 'a shard primary of the keyspace could not be read: "no streams" is not proven',
      reasons: ['noStreams'],
      model: moveTables()
        .unreadable('customer', '80-')
        .select({ keyspaces: ['customer'], workflows: ['typo'] }),
    },
    {
      name: 'a shard of the keyspace has no primary: not proven (BuildTargets fails on it first)',
      reasons: ['noStreams'],
      model: moveTables()
        .orphanShard('customer', '80-c0')
        .select({ keyspaces: ['customer'], workflows: ['typo'] }),
    },
    {
      name: 'the shard records were not read',
      reasons: ['noStreams'],
      model: moveTables()
        .shardsUnreadable('customer')
        .select({ keyspaces: ['customer'], workflows: ['typo'] }),
    },
    {
      name: "a named keyspace that is not in the topology is not this check's finding",
      model: moveTables().select({ keyspaces: ['custmer'], workflows: ['commerce2customer'] }),
    },
    {
      name: 'without --keyspace, one keyspace not fully read leaves "nowhere" unproven',
      reasons: ['noStreamsAnyKeyspace'],
      model: moveTables()
        .unreadable('commerce', '0')
        .select({ workflows: ['typo'] }),
    },
  ],
  invalid: [
    {
      name: 'a typo in the workflow name',
      model: moveTables().select({ keyspaces: ['customer'], workflows: ['comerce2customer'] }),
      findings: [
        {
          keyspace: 'customer',
          workflow: 'comerce2customer',
          message: /^workflow comerce2customer has no stream on any of the 2 shard primaries of keyspace customer$/,
          details: {
            reason: 'noStreams',
            primariesRead: 2,
            foundInKeyspaces: [],
            vitessError: 'no streams found in keyspace customer for comerce2customer',
          },
        },
      ],
    },
    {
      name: 'the wrong keyspace: the finding says where the workflow is',
      model: moveTables().select({ keyspaces: ['commerce'], workflows: ['commerce2customer'] }),
      findings: [
        {
          keyspace: 'commerce',
          workflow: 'commerce2customer',
          message: joinRegExp(
            /^workflow commerce2customer has no stream on the only shard /,
            /primary of keyspace commerce \(it exists in keyspace customer\)$/,
          ),
          details: {
            reason: 'noStreams',
            foundInKeyspaces: ['customer'],
            vitessError: 'no streams found in keyspace commerce for commerce2customer',
          },
        },
      ],
    },
    {
      name: 'without --keyspace: the workflow is in no keyspace at all',
      model: moveTables().select({ workflows: ['typo'] }),
      findings: [
        {
          workflow: 'typo',
          keyspace: undefined,
          message: /^workflow typo has no stream in any keyspace \(2 keyspaces, 3 shard primaries read\)$/,
          details: {
            reason: 'noStreamsAnyKeyspace',
            keyspaces: ['commerce', 'customer'],
            primariesRead: 3,
            vitessError: undefined,
          },
        },
      ],
    },
  ],
});
