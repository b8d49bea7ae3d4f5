/**
 * leftover-lookup-vindexes. Upstream: `vitessio/vitess:go/vt/vtctl/workflow/
 * lookup_vindex.go` `prepareCreate` writes the vindex with `write_only: "true"`; Externalize clears it; `LookupVindex
 * cancel` (`server.go` `WorkflowDelete`) deletes the workflow and keeps the vindex and the table.
 */
import check from '../../checks/leftover-lookup-vindexes.js';
import { checkTester } from '../helpers/check-tester.js';
import { cluster } from '../helpers/cluster.js';

const sweep = { sweep: true };
const withVindex = (writeOnly: boolean) =>
  cluster()
    .keyspace('customer', {
      shards: ['-80', '80-'],
      vindexes: {
        hash: { type: 'hash', params: {}, owner: '' },
        corder_lookup: {
          type: 'consistent_lookup_unique',
          params: {
            table: 'lookup.corder_lookup',
            from: 'id',
            to: 'keyspace_id',
            ...(writeOnly ? { write_only: 'true' } : {}),
          },
          owner: 'corder',
        },
      },
      tables: {
        corder: {
          columnVindexes: [
            { name: 'hash', columns: ['customer_id'] },
            { name: 'corder_lookup', columns: ['id'] },
          ],
        },
      },
    })
    .keyspace('lookup', { shards: ['0'], tables: { corder_lookup: {} } });

checkTester(check, {
  valid: [
    { name: 'an externalized lookup vindex (not write-only)', model: withVindex(false), options: sweep },
    {
      name: 'a backfill in progress (its workflow is read)',
      reasons: ['writeOnlyWithoutWorkflow'],
      model: withVindex(true).lookup('corder_lookup', {
        from: 'customer',
        to: 'lookup',
        table: 'corder_lookup',
        ownerTable: 'corder',
        owned: true,
      }),
      options: sweep,
    },
    {
      name: 'a backfill workflow with another name fills the lookup table',
      reasons: ['writeOnlyWithoutWorkflow'],
      model: withVindex(true).lookup('backfill1', {
        from: 'customer',
        to: 'lookup',
        table: 'corder_lookup',
        ownerTable: 'corder',
        owned: true,
      }),
      options: sweep,
    },
    {
      name: 'another keyspace was not read, the lookup table’s keyspace was',
      reasons: ['writeOnlyUnexplained'],
      model: withVindex(true)
        .keyspace('other', { shards: ['0'] })
        .unreadable('other', '0')
        .lookup('corder_lookup', {
          from: 'customer',
          to: 'lookup',
          table: 'corder_lookup',
          ownerTable: 'corder',
          owned: true,
        }),
      options: sweep,
    },
  ],
  invalid: [
    {
      name: 'LookupVindex cancel kept the write-only vindex and its table',
      model: withVindex(true),
      options: sweep,
      findings: [
        {
          severity: 'warning',
          keyspace: 'customer',
          message:
            'lookup vindex customer.corder_lookup is write-only (table lookup.corder_lookup) but no lookup workflow backfills it (left by LookupVindex cancel or a failed create): it is never externalized, DML on corder keeps writing its table, and a re-create refuses while the table has rows',
          details: { reason: 'writeOnlyWithoutWorkflow', vindex: 'corder_lookup', lookupTable: 'lookup.corder_lookup' },
        },
      ],
    },
    {
      name: 'the lookup table’s keyspace was not read',
      model: withVindex(true).unreadable('lookup', '0'),
      options: sweep,
      findings: [{ severity: 'info', details: { reason: 'writeOnlyUnexplained' } }],
    },
  ],
});
