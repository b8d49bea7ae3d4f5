/**
 * `check --action`: which reasons apply to which action (steps.ts ACTION_STEPS and Reason.actions), and that the
 * verdict, vitessWouldSay and exit code follow the action judged, with the registry's own checks.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { CHECKS } from '../../checks/index.js';
import { defineCheck, reasonApplies } from '../../src/engine/check.js';
import { DEFAULT_ACTION_REQUEST, withDefaults, type ActionRequest } from '../../src/engine/options.js';
import { givenVitessVersions } from '../../src/vitess/versions.js';
import { runModelChecks } from '../../src/engine/run.js';
import { ACTION_STEPS, ACTIONS, stepsFor } from '../../src/engine/steps.js';
import { moveTablesRules } from '../helpers/actions.js';
import { cluster } from '../helpers/cluster.js';
import { CUSTOMER_TABLES, external, gtidPos, moveTablesScenario } from '../helpers/reshard-scenario.js';
import { runMeta } from '../helpers/run-meta.js';

const meta = runMeta();
const run = (b: ReturnType<typeof moveTablesScenario>, action: Partial<ActionRequest> = {}) =>
  runModelChecks(b.model(), CHECKS, withDefaults({ action: { ...DEFAULT_ACTION_REQUEST, ...action } }), meta);

/** Nothing switched, one target shard still copying: SwitchTraffic refuses, cancel is fine, complete refuses. */
const copying = () =>
  moveTablesScenario()
    .routing(moveTablesRules('commerce', 'customer', ['customer', 'corder'], []))
    .patchStream('customer', '-80', 1, { copyTables: ['customer'] })
    .servingGraph();

describe('--action steps', () => {
  test('every action starts with the getWorkflowState prelude (externalize too, for what it reads)', () => {
    // create makes a workflow that does not exist yet: no prelude (test/engine/create.test.ts).
    for (const a of ACTIONS.filter((x) => x !== 'create'))
      assert.deepEqual(ACTION_STEPS[a].slice(0, 3), ['build-targets', 'build-switcher', 'workflow-state']);
  });
  test('a SwitchTraffic without PRIMARY runs no write-switch step but validates (switchReads: ts.validate)', () => {
    const reads = stepsFor('switch', ['replica', 'rdonly']);
    for (const st of ['migrate', 'stop-streams', 'catch-up'] as const) assert.ok(!reads.includes(st), st);
    assert.ok(reads.includes('validate') && reads.includes('switch-reads') && reads.includes('can-switch-lag'));
    assert.ok(!stepsFor('switch', ['primary']).includes('switch-reads'));
    assert.deepEqual(stepsFor('switch', null), ACTION_STEPS.switch);
  });
  test('a reason narrowed with `actions` applies only there', () => {
    const c = defineCheck({
      id: 'x',
      title: 't',
      reasons: {
        r: { severity: 'info', step: 'workflow-state', actions: ['switch'], heuristic: true, rationale: 'test.' },
      },
      description: 'd',
      remediation: 'r.',
      run: () => [],
    });
    assert.equal(reasonApplies(c.reasons.r, 'switch'), true);
    assert.equal(reasonApplies(c.reasons.r, 'complete'), false);
    assert.equal(reasonApplies(c.reasons.r, 'cancel'), false);
  });
});

describe('--action verdicts with the registry', () => {
  test('switch (default): the copy blocks; the action checks do not apply', () => {
    const r = run(copying());
    const w = r.workflows[0]!;
    assert.equal(w.action, 'switch');
    assert.equal(w.verdict, 'blocked');
    assert.deepEqual(w.blockedBy, ['copy-incomplete']);
    assert.match(w.vitessWouldSay ?? '', /^cannot switch traffic for workflow commerce2customer at this time: copy/);
    for (const id of ['reverse-traffic', 'complete-workflow', 'cancel-workflow']) {
      const c = r.checks.find((x) => x.id === id)!;
      assert.equal(c.status, 'skipped');
      assert.equal(c.notApplicable, true);
    }
    assert.deepEqual(w.unverifiedBy, []);
    assert.equal(r.summary.exitCode, 1);
    assert.equal(r.options?.action?.action, 'switch');
  });
  test('cancel: the copy is no refusal of WorkflowDelete, so the workflow is ready and the run exits 0', () => {
    const r = run(copying(), { action: 'cancel' });
    const w = r.workflows[0]!;
    assert.equal(w.action, 'cancel');
    assert.equal(w.verdict, 'ready', JSON.stringify(w));
    assert.equal(r.findings.filter((f) => f.check === 'copy-incomplete').length, 0);
    assert.equal(r.checks.find((c) => c.id === 'copy-incomplete')!.notApplicable, true);
    assert.equal(r.summary.exitCode, 0);
  });
  test('complete: refused before anything else, in its own words', () => {
    const r = run(copying(), { action: 'complete' });
    const w = r.workflows[0]!;
    assert.equal(w.verdict, 'blocked');
    assert.deepEqual(w.blockedBy, ['complete-workflow']);
    assert.equal(
      w.vitessWouldSay,
      'cannot complete workflow because you have not yet switched all read and write traffic',
    );
  });
  test('reverse, reads only: the refusal is wrapped as switchReads wraps it', () => {
    const r = run(copying(), { action: 'reverse', tabletTypes: ['replica'] });
    assert.equal(
      r.workflows[0]!.vitessWouldSay,
      'invalid request: requesting reversal of read traffic for REPLICAs but REPLICA reads have not been switched',
    );
  });
  test('reverse: the reverse workflow canSwitch refusal names the reverse workflow', () => {
    const b = moveTablesScenario().routing(
      moveTablesRules('commerce', 'customer', ['customer', 'corder'], ['primary', 'replica', 'rdonly']),
    );
    for (const shard of ['-80', '80-']) b.patchStream('customer', shard, 1, { state: 'Stopped', message: 'FROZEN' });
    ['-80', '80-'].forEach((shard, i) => {
      b.stream('commerce', '0', i + 1, {
        workflow: 'commerce2customer_reverse',
        type: 'MoveTables',
        sourceKeyspace: 'customer',
        sourceShard: shard,
        rules: [
          { match: 'corder', filter: 'select * from corder' },
          { match: 'customer', filter: 'select * from customer' },
        ],
        state: 'Stopped',
        message: 'FROZEN',
      });
    });
    const r = run(b.servingGraph(), { action: 'reverse' });
    assert.equal(
      r.workflows.find((w) => w.workflow === 'commerce2customer')!.vitessWouldSay,
      'cannot switch traffic for workflow commerce2customer_reverse at this time: workflow is frozen',
    );
  });
});

/**
 * A write-switched MoveTables and its running `_reverse` workflow (commerce/0): what each action's verdict rows say
 * when no `--workflow` is given, and when the `_reverse` name is given.
 */
describe('--action and the <wf>_reverse workflow', () => {
  const REV = 'commerce2customer_reverse';
  const afterWriteSwitch = () => {
    const b = moveTablesScenario().routing(
      moveTablesRules('commerce', 'customer', ['customer', 'corder'], ['primary', 'replica', 'rdonly']),
    );
    for (const shard of ['-80', '80-']) b.patchStream('customer', shard, 1, { state: 'Stopped', message: 'FROZEN' });
    ['-80', '80-'].forEach((shard, i) => {
      b.stream('commerce', '0', i + 1, {
        workflow: REV,
        type: 'MoveTables',
        sourceKeyspace: 'customer',
        sourceShard: shard,
        rules: [
          { match: 'corder', filter: 'select * from corder' },
          { match: 'customer', filter: 'select * from customer' },
        ],
        pos: gtidPos('customer', shard, 1000),
      });
    });
    return b.servingGraph();
  };
  for (const action of ['reverse', 'complete', 'cancel', 'mirror', 'externalize'] as const)
    test(`${action}: no --workflow, so ${REV} is judged with its forward workflow and has no row`, () => {
      const r = run(afterWriteSwitch(), { action });
      assert.deepEqual(
        r.workflows.map((w) => w.workflow),
        ['commerce2customer'],
      );
    });
  test('switch (default): SwitchTraffic on the _reverse name is a real switch, so its row stays', () => {
    const r = run(afterWriteSwitch());
    assert.ok(r.workflows.some((w) => w.workflow === REV));
  });
  test('reverse named on the _reverse workflow: Vitess loads the FROZEN forward workflow and refuses', () => {
    const r = run(afterWriteSwitch().select({ workflows: [REV] }), { action: 'reverse' });
    const w = r.workflows.find((x) => x.workflow === REV)!;
    assert.equal(w.verdict, 'blocked');
    assert.equal(
      w.vitessWouldSay,
      'cannot switch traffic for workflow commerce2customer at this time: workflow is frozen',
    );
  });
  test('cancel named on the _reverse workflow: forward writes are switched, so WorkflowDelete refuses', () => {
    const r = run(afterWriteSwitch().select({ workflows: [REV] }), { action: 'cancel' });
    const w = r.workflows.find((x) => x.workflow === REV)!;
    assert.equal(w.verdict, 'blocked');
    assert.equal(w.vitessWouldSay, 'cannot delete workflow because you have already switched write traffic');
  });
  test('complete named on the _reverse workflow: fully switched forward, so the running reverse streams refuse', () => {
    const r = run(afterWriteSwitch().select({ workflows: [REV] }), { action: 'complete' });
    const w = r.workflows.find((x) => x.workflow === REV)!;
    assert.equal(w.verdict, 'blocked');
    // The forward state (keyspaces flipped) is fully switched: dropSources validates the reverse workflow itself.
    assert.ok((w.vitessWouldSay ?? '').split('\n').includes('vreplication streams are not frozen on tablet 100'));
    assert.ok(!w.blockedBy.includes('cancel-workflow'));
    assert.ok(
      r.findings.every((f) => f.details.reason !== 'notFullySwitched'),
      JSON.stringify(w),
    );
  });
  test('mirror named on the _reverse workflow: refused for its name', () => {
    const r = run(afterWriteSwitch().select({ workflows: [REV] }), { action: 'mirror' });
    const w = r.workflows.find((x) => x.workflow === REV)!;
    assert.equal(w.verdict, 'blocked');
    assert.equal(w.vitessWouldSay, 'invalid action for reverse workflow: MirrorTraffic');
  });
});

describe('GetFullStatus is no serving signal (MariaDB tablets)', () => {
  // FullStatus reads @@global.super_read_only (vitessio/vitess go/vt/vttablet/tabletmanager/rpc_replication.go:136
  // @v0.24.4), which MariaDB lacks, so it fails on every MariaDB tablet; no action calls it (the tablet picker follows
  // StreamHealth, go/vt/discovery/tablet_picker.go:471 @v0.24.4; SwitchTraffic refreshes with RefreshState).
  const MARIADB =
    "rpc error: code = Unknown desc = Unknown system variable 'super_read_only' (errno 1193) (sqlstate HY000) during query: SELECT @@global.super_read_only";
  const onMariaDB = () => {
    const b = moveTablesScenario().routing(moveTablesRules('commerce', 'customer', ['customer', 'corder'], []));
    for (const alias of b.model().tablets.keys())
      b.fullStatusOf(alias, { error: MARIADB, code: 'UNKNOWN', kind: 'sql-error' });
    return b;
  };
  for (const action of ['switch', 'cancel', 'complete', 'reverse'] as const) {
    test(`--action ${action}: the verdict is what it is with GetFullStatus read, and one info finding says why`, () => {
      const healthy = run(
        moveTablesScenario().routing(moveTablesRules('commerce', 'customer', ['customer', 'corder'], [])),
        { action },
      );
      const r = run(onMariaDB(), { action });
      assert.deepEqual(
        r.workflows.map((w) => [w.workflow, w.verdict, w.vitessWouldSay, w.unverifiedBy]),
        healthy.workflows.map((w) => [w.workflow, w.verdict, w.vitessWouldSay, w.unverifiedBy]),
      );
      const info = r.findings.filter((f) => f.check === 'unreachable');
      assert.deepEqual(
        info.map((f) => [f.severity, f.reason]),
        [['info', 'tabletStatusNotRead']],
      );
      assert.match(info[0]!.message, /MariaDB, which has no super_read_only variable \(errno 1193\)/);
      assert.equal(r.findings.filter((f) => f.check === 'source-not-serving').length, 0);
    });
  }
  test('the switch of a healthy MoveTables on MariaDB tablets is ready, exit 0', () => {
    const r = run(onMariaDB().servingGraph());
    assert.deepEqual(
      r.workflows.map((w) => w.verdict),
      ['ready'],
    );
    assert.equal(r.summary.exitCode, 0);
  });
});

/**
 * A write ReverseTraffic is SwitchTraffic of `<wf>_reverse` (server.go:2565-2631 @v0.22.x): the refusals of that
 * switch's switchReads and switchWrites (here the filtered user's permissions on the original target primaries, where
 * the re-created forward streams run) are the forward workflow's.
 */
describe('--action reverse judges the reverse workflow switch', () => {
  const REV = 'commerce2customer_reverse';
  const none = { select: 'N', insert: 'N', update: 'N', delete: 'N' };
  const reversed = (writesSwitched: boolean, lacking = true) => {
    const types = writesSwitched ? (['primary', 'replica', 'rdonly'] as const) : (['replica', 'rdonly'] as const);
    const hash = { columnVindexes: [{ name: 'hash', columns: ['customer_id'] }] };
    const b = cluster()
      .keyspace('commerce', { shards: ['0'], tables: { customer: {}, corder: {} } })
      .keyspace('customer', { shards: ['-80', '80-'], tables: { customer: hash, corder: hash } })
      .moveTables('commerce2customer', {
        from: 'commerce',
        to: 'customer',
        tables: ['customer', 'corder'],
        column: 'customer_id',
      })
      .routing(moveTablesRules('commerce', 'customer', ['customer', 'corder'], types));
    if (writesSwitched)
      for (const shard of ['-80', '80-']) b.patchStream('customer', shard, 1, { state: 'Stopped', message: 'FROZEN' });
    ['-80', '80-'].forEach((shard, i) => {
      b.stream('commerce', '0', i + 1, {
        workflow: REV,
        type: 'MoveTables',
        sourceKeyspace: 'customer',
        sourceShard: shard,
        rules: [
          { match: 'corder', filter: 'select * from corder' },
          { match: 'customer', filter: 'select * from customer' },
        ],
        pos: gtidPos('customer', shard, 1000),
      });
    });
    // The filtered user on customer/-80 (an original target primary) cannot manage vreplication there.
    if (lacking) b.filteredUserGrants('customer', '-80', { user: 'vt_filtered', global: [none], db: [], tables: [] });
    return b.servingGraph();
  };
  test('a healthy write switch with its reverse workflow running: ReverseTraffic is ready', () => {
    const r = run(reversed(true, false), { action: 'reverse' });
    const w = r.workflows.find((x) => x.workflow === 'commerce2customer')!;
    assert.equal(w.verdict, 'ready', JSON.stringify({ w, findings: r.findings }));
    assert.equal(r.summary.exitCode, 0);
  });
  test('writes switched: the reverse switch refuses on the original target primary, quoted (v22 words)', () => {
    const r = runModelChecks(
      reversed(true).model(),
      CHECKS,
      withDefaults({
        action: { ...DEFAULT_ACTION_REQUEST, action: 'reverse' },
        vitess: givenVitessVersions('22', 'flag'),
      }),
      meta,
    );
    const w = r.workflows.find((x) => x.workflow === 'commerce2customer')!;
    assert.equal(w.verdict, 'blocked', JSON.stringify(w));
    assert.deepEqual(w.blockedBy, ['reverse-permissions']);
    assert.match(
      w.vitessWouldSay ?? '',
      /^primary tablets are not able to fully manage the reverse vreplication workflow in the customer keyspace: /,
    );
    assert.match(w.vitessWouldSay ?? '', /keyspace: user vt_filtered /);
    const f = r.findings.find((x) => x.check === 'reverse-permissions')!;
    assert.equal(f.workflow, REV);
    assert.equal(f.shard, '-80');
    assert.equal(r.summary.exitCode, 1);
  });
  test('writes switched, judged against v23+: blocked on the same refusal, whose MySQL tail is not quoted', () => {
    const r = runModelChecks(
      reversed(true).model(),
      CHECKS,
      withDefaults({
        action: { ...DEFAULT_ACTION_REQUEST, action: 'reverse' },
        vitess: givenVitessVersions('24', 'flag'),
      }),
      meta,
    );
    const w = r.workflows.find((x) => x.workflow === 'commerce2customer')!;
    assert.equal(w.verdict, 'blocked', JSON.stringify(w));
    assert.deepEqual(w.blockedBy, ['reverse-permissions']);
    const f = r.findings.find((x) => x.check === 'reverse-permissions')!;
    assert.equal(f.details.reason, 'filteredUserLacksPermission');
    assert.equal(f.details.vitessError, undefined);
  });
  test('reads only (writes not switched): no reverse switch runs, so the grants do not matter', () => {
    const r = run(reversed(false), { action: 'reverse' });
    const w = r.workflows.find((x) => x.workflow === 'commerce2customer')!;
    assert.ok(!w.blockedBy.includes('reverse-permissions'), JSON.stringify(w));
    assert.ok(r.findings.every((x) => x.check !== 'reverse-permissions'));
  });
  test('--tablet-types replica,rdonly after a write switch: switchWrites of the reverse does not run', () => {
    const r = run(reversed(true), { action: 'reverse', tabletTypes: ['replica', 'rdonly'] });
    assert.ok(r.findings.every((x) => x.check !== 'reverse-permissions'));
  });
});

/**
 * A write ReverseTraffic of a Reshard runs the reverse workflow's switchWrites, whose stream migrator reads the other
 * workflows' streams on the reverse workflow's source shards, the Reshard's new shards (`readSourceStreams`,
 * go/vt/vtctl/workflow/stream_migrator.go @v0.24.4): a stopped one there refuses the ReverseTraffic.
 */
describe('--action reverse of a Reshard: the reverse switch runs the stream migrator on the new shards', () => {
  const NEW = ['-40', '40-80', '80-c0', 'c0-'];
  const switched = (otherState: 'Running' | 'Stopped') => {
    const b = cluster()
      .keyspace('commerce', { shards: ['0'] })
      .keyspace('customer', {
        shards: ['-80', '80-', ...NEW],
        tables: CUSTOMER_TABLES,
        notServing: ['-80', '80-'],
      })
      .reshard('cust2cust', { keyspace: 'customer', from: ['-80', '80-'], to: NEW });
    for (const shard of NEW) b.patchStream('customer', shard, 1, { state: 'Stopped', message: 'FROZEN' });
    // The reverse streams on the old shards, each reading the new shards it overlaps.
    for (const [shard, sources] of [
      ['-80', ['-40', '40-80']],
      ['80-', ['80-c0', 'c0-']],
    ] as const)
      for (const source of sources)
        b.stream('customer', shard, b.nextId('customer', shard), {
          workflow: 'cust2cust_reverse',
          type: 'Reshard',
          sourceKeyspace: 'customer',
          sourceShard: source,
          rules: [{ match: '/.*', filter: shard }],
          pos: gtidPos('customer', source, 1000),
        });
    // Another workflow writing into customer, moved onto the new shards by the forward switch's stream migrator.
    external(b, 'commerce2customer', { from: 'commerce', fromShard: '0', to: 'customer', shards: NEW });
    if (otherState === 'Stopped')
      b.patchStream('customer', '40-80', 2, { state: 'Stopped', message: 'Stopped by user' });
    return b.servingGraph();
  };
  test('the other workflow Running on the new shards: no stream-migrator refusal', () => {
    const r = run(switched('Running').select({ workflows: ['cust2cust'] }), { action: 'reverse' });
    const w = r.workflows.find((x) => x.workflow === 'cust2cust')!;
    assert.ok(!w.blockedBy.includes('source-streams-not-running'), JSON.stringify({ w, f: r.findings }));
  });
  test('the other workflow stopped on 40-80: ReverseTraffic is refused by the reverse switch stream migrator', () => {
    const r = run(switched('Stopped').select({ workflows: ['cust2cust'] }), { action: 'reverse' });
    const w = r.workflows.find((x) => x.workflow === 'cust2cust')!;
    assert.equal(w.verdict, 'blocked', JSON.stringify({ w, f: r.findings }));
    assert.ok(w.blockedBy.includes('source-streams-not-running'), JSON.stringify(w));
    // The shard and its primary's uid (stream_migrator.go readSourceStreams), wrapped as switchWrites wraps it.
    assert.equal(
      w.vitessWouldSay,
      'failed to migrate the workflow streams: cannot migrate until all streams are running: 40-80: 140',
    );
  });
});
