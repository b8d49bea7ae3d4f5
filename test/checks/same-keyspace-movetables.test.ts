/**
 * same-keyspace-movetables. Upstream: `moveTablesCreate` refuses a MoveTables whose source keyspace is its target from
 * v24 (`source and target keyspace must be different for MoveTables workflows`, go/vt/vtctl/workflow/server.go:1092
 * @v0.24.4, #19012; absent at v0.19.10, v0.22.4 and v0.23.2); no release refuses such a workflow at SwitchTraffic;
 * its cancel without --keep-data drops the source tables (vitessio/vitess#19011), with --keep-data it is safe.
 */
import check from '../../checks/same-keyspace-movetables.js';
import { DEFAULT_ACTION_REQUEST } from '../../src/engine/options.js';
import { givenVitessVersions } from '../../src/vitess/versions.js';
import { checkTester } from '../helpers/check-tester.js';
import { cluster } from '../helpers/cluster.js';

const base = () =>
  cluster()
    .keyspace('commerce', { shards: ['0'] })
    .keyspace('customer', { shards: ['-80', '80-'] });

const sameKeyspace = () => base().moveTables('oops', { from: 'commerce', to: 'commerce', tables: ['customer'] });

const create = (sourceKeyspace: string, release?: string) => ({
  action: {
    ...DEFAULT_ACTION_REQUEST,
    action: 'create' as const,
    create: { workflow: 'c2c', targetKeyspace: 'commerce', sourceKeyspace, tables: ['customer'] },
  },
  ...(release !== undefined ? { vitess: givenVitessVersions(release, 'flag') } : {}),
});
const cancel = (keepData: boolean) => ({ action: { ...DEFAULT_ACTION_REQUEST, action: 'cancel' as const, keepData } });

checkTester(check, {
  valid: [
    {
      name: 'a MoveTables between two keyspaces, cancelled',
      model: base().moveTables('commerce2customer', { from: 'commerce', to: 'customer', tables: ['customer'] }),
      options: cancel(false),
    },
    {
      name: 'a Reshard reads its own keyspace by design',
      reasons: ['cancelDropsSourceTables'],
      model: cluster()
        .keyspace('customer', { shards: ['0', '-80', '80-'], notServing: ['-80', '80-'] })
        .reshard('cust2cust', { keyspace: 'customer', from: ['0'], to: ['-80', '80-'] }),
      options: cancel(false),
    },
    {
      name: 'an intra-keyspace Materialize is legitimate',
      model: base().materialize('agg', { from: 'commerce', to: 'commerce', tables: ['sales'] }),
      options: cancel(false),
    },
    {
      name: 'cancel --keep-data of a same-keyspace MoveTables drops nothing',
      reasons: ['cancelDropsSourceTables'],
      model: sameKeyspace(),
      options: cancel(true),
    },
    {
      name: 'SwitchTraffic of a same-keyspace MoveTables: no release refuses it there',
      reasons: ['cancelDropsSourceTables', 'sourceIsTargetAtCreate'],
      model: sameKeyspace(),
    },
    {
      name: 'create from another keyspace (v23)',
      reasons: ['sourceIsTargetCreatedBefore24'],
      model: base(),
      options: create('customer', '23'),
    },
    {
      name: 'create from another keyspace (v24)',
      reasons: ['sourceIsTargetAtCreate'],
      model: base(),
      options: create('customer', '24'),
    },
  ],
  invalid: [
    {
      name: 'create with --source-keyspace equal to --target-keyspace on v24: refused before anything is read',
      model: base(),
      options: create('commerce', '24.0.4'),
      findings: [
        {
          reason: 'sourceIsTargetAtCreate',
          severity: 'error',
          keyspace: 'commerce',
          workflow: 'c2c',
          details: { vitessError: 'source and target keyspace must be different for MoveTables workflows' },
        },
      ],
    },
    {
      name: 'the same create judged against v23: created, a warning',
      model: base(),
      options: create('commerce', '23'),
      findings: [{ reason: 'sourceIsTargetCreatedBefore24', severity: 'warning' }],
    },
    {
      name: 'cancel without --keep-data of MoveTables commerce → commerce (#19011)',
      model: sameKeyspace(),
      options: cancel(false),
      findings: [
        {
          reason: 'cancelDropsSourceTables',
          severity: 'warning',
          keyspace: 'commerce',
          workflow: 'oops',
          message:
            'MoveTables commerce.oops reads from its own keyspace commerce: a cancel without --keep-data drops the tables it copies from; cancel it with --keep-data',
          details: { sourceKeyspaces: ['commerce'], streams: [{ shard: '0', streamId: 1, sourceShard: '0' }] },
        },
      ],
    },
  ],
});
