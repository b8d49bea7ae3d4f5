/**
 * leftover-journals. Upstream: `vitessio/vitess:go/vt/vtctl/workflow/utils.go`
 * `HashStreams` gives the journal id; no statement in `go/vt` deletes `resharding_journal` rows; MoveTables create
 * refuses an id found from a previous run (`server.go`).
 */
import check from '../../checks/leftover-journals.js';
import { workflowJournalId } from '../../src/model/journal.js';
import { checkTester } from '../helpers/check-tester.js';
import { cluster, type ClusterBuilder } from '../helpers/cluster.js';

const sweep = { sweep: true };
const moveTables = () =>
  cluster()
    .keyspace('commerce', { shards: ['0'] })
    .keyspace('customer', { shards: ['-80', '80-'] })
    .moveTables('commerce2customer', { from: 'commerce', to: 'customer', tables: ['customer'], column: 'id' });
const journalOf = (b: ClusterBuilder) => workflowJournalId(b.model().workflows[0]!);

checkTester(check, {
  valid: [
    { name: 'no journals', model: moveTables(), options: sweep },
    {
      name: 'the journal of a workflow read (its switch passed the point of no return)',
      reasons: ['journalWithoutWorkflow'],
      model: (() => {
        const b = moveTables();
        return b.journal('commerce', '0', { id: journalOf(b), db_name: 'vt_commerce', val: '' });
      })(),
      options: sweep,
    },
    {
      name: 'the journal table was not read',
      reasons: ['journalWithoutWorkflow'],
      model: moveTables()
        .journal('commerce', '0', { id: '42', db_name: 'vt_commerce', val: '' })
        .unreadable('commerce', '0'),
      options: sweep,
    },
  ],
  invalid: [
    {
      name: 'journals of completed workflows stay forever',
      model: moveTables()
        .journal('commerce', '0', { id: '42', db_name: 'vt_commerce', val: '' })
        .journal('commerce', '0', { id: '7', db_name: 'vt_commerce', val: '' }),
      options: sweep,
      findings: [
        {
          severity: 'info',
          keyspace: 'commerce',
          shard: '0',
          tablet: 'zone1-0000000100',
          message:
            'commerce/0 keeps 2 resharding journals of earlier workflows (42, 7): Vitess never deletes them; a later workflow whose streams hash to one of these ids (its target keyspace and the same shard:stream-id pairs, which needs stream ids to repeat) is refused at create',
          details: { reason: 'journalWithoutWorkflow', journalIds: ['42', '7'] },
        },
      ],
    },
  ],
});
