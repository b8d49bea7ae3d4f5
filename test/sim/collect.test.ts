/**
 * The collector against the simulated cluster, for what matters at scale: one connection per primary and no more than
 * `--concurrency` open at once, only the reader's statements, GetFullStatus once per tablet of the participating
 * shards, no GetWorkflows on modern schemas, and GetWorkflows in bounded shard chunks, merged, where the model needs
 * it (sidecar schemas without `workflow_type`).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { buildModel } from '../../src/model/build.js';
import { startSimCluster } from '../../src/sim/cluster.js';
import { generateScenario } from '../../src/sim/scenario.js';
import type { SimCluster } from '../../src/sim/types.js';
import { collect, sourceShardOf, WORKFLOWS_SHARD_CHUNK, type CollectOptions } from '../../src/sources/collect.js';
import { parseBinlogSource } from '../../src/vitess/binlog-source.js';
import { SET_READ_ONLY_SQL } from '../../src/sources/mysql.js';
import { SQL_TAG } from '../../src/sources/sidecar.js';
import { splitSqlStatements } from '../../src/sources/read-only-sql.js';

const options = (vtctld: string, concurrency: number): CollectOptions => ({
  vtctld: { address: vtctld, timeoutMs: 10_000 },
  keyspaces: [],
  workflows: [],
  concurrency,
  timeoutMs: 10_000,
  via: 'mysql',
  mysql: { user: 'vtpreflight', password: '' },
});

describe('collector on the simulated cluster', () => {
  test('one connection and one query per primary, at most --concurrency open, only the reader statements, status once per participating tablet', async () => {
    const sim = generateScenario('reshard', { now: Date.now(), shards: 8 });
    const running = await startSimCluster(sim, { record: true, rttMs: 1 });
    try {
      const readout = await collect(options(running.vtctld, 4));
      const rec = running.recording();
      const primaries = Object.keys(sim.sidecars).sort();
      assert.deepEqual(rec.mysql.map((c) => c.alias).sort(), primaries);
      assert.ok(running.tablets.stats.maxOpen <= 4, `max open ${running.tablets.stats.maxOpen}`);
      for (const c of rec.mysql) {
        // One round trip per primary: the read-only SET and every read in one multi-statement query.
        assert.equal(c.statements.length, 1, c.statements.join(' | '));
        const [first, limit, ...reads] = splitSqlStatements(c.statements[0]!);
        assert.equal(first, SET_READ_ONLY_SQL);
        // The simulator answers as MySQL 8.0: the session's statement time limit follows (mysql.ts).
        assert.equal(limit, `${SQL_TAG} SET SESSION max_execution_time = 9000`);
        assert.equal(reads.length, 22);
        for (const s of reads) assert.ok(s.startsWith(`${SQL_TAG} SELECT `), s);
      }
      const status = rec.grpc.filter((c) => c.rpc === 'GetFullStatus');
      assert.equal(status.length, sim.tablets.length, 'every tablet of this cluster participates');
      assert.equal(new Set(status.map((c) => JSON.stringify(c.request))).size, status.length, 'no tablet asked twice');
      assert.deepEqual(Object.keys(readout.fullStatus).sort(), sim.tablets.map((t) => t.alias).sort());
      assert.deepEqual(
        rec.grpc.filter((c) => c.rpc === 'GetWorkflows'),
        [],
      );
      assert.deepEqual(readout.workflows, {});
      assert.equal(readout.sidecars.length, primaries.length);
    } finally {
      await running.stop();
    }
  });

  test('a shard that holds no streams and feeds none: only its primary is asked for GetFullStatus', async () => {
    // canSwitch refreshes only ts.TargetShards() (shards with the workflow's streams) and its source shards; no
    // check reads the status of any other tablet. Round trips counted on the recording (the perf helper's counter).
    const base = generateScenario('reshard', { now: Date.now(), shards: 8 });
    const fed = new Set(
      Object.values(base.sidecars).flatMap((s) =>
        s.vreplication.map((r) => sourceShardOf(r.source)).map((x) => `${x?.keyspace}/${x?.shard}`),
      ),
    );
    const emptied = Object.values(base.sidecars).find(
      (s) => s.vreplication.length > 0 && !fed.has(`${s.keyspace}/${s.shard}`),
    )!;
    const sim: SimCluster = {
      ...base,
      sidecars: { ...base.sidecars, [emptied.alias]: { ...emptied, vreplication: [], copyState: [] } },
    };
    const running = await startSimCluster(sim, { record: true, rttMs: 1 });
    try {
      const readout = await collect(options(running.vtctld, 4));
      const status = running.recording().grpc.filter((c) => c.rpc === 'GetFullStatus');
      // Its replicas are not asked; its primary is (BuildTargets reaches every target primary's tablet manager).
      const idle = sim.tablets.filter(
        (t) => t.keyspace === emptied.keyspace && t.shard === emptied.shard && t.alias !== emptied.alias,
      );
      assert.ok(idle.length >= 1, 'the emptied shard has replicas');
      assert.equal(status.length, sim.tablets.length - idle.length);
      assert.deepEqual(
        Object.keys(readout.fullStatus).sort(),
        sim.tablets
          .filter((t) => !idle.includes(t))
          .map((t) => t.alias)
          .sort(),
      );
      // Its primary's sidecar is still read (BuildTargets reads every target shard's primary).
      assert.ok(readout.sidecars.some((sc) => sc.alias === emptied.alias && sc.vreplication.ok));
    } finally {
      await running.stop();
    }
  });

  test('sidecar schemas without workflow_type: GetWorkflows in chunks of shards, merged into one view per keyspace', async () => {
    const base = generateScenario('reshard', { now: Date.now(), shards: 64 });
    const old: SimCluster = {
      ...base,
      sidecars: Object.fromEntries(
        Object.entries(base.sidecars).map(([alias, s]) => [
          alias,
          { ...s, columns: s.columns.filter((c) => c !== 'workflow_type' && c !== 'workflow_sub_type') },
        ]),
      ),
    };
    const running = await startSimCluster(old, { record: true });
    try {
      const readout = await collect(options(running.vtctld, 16));
      const calls = running.recording().grpc.filter((c) => c.rpc === 'GetWorkflows');
      const withRows = Object.values(old.sidecars)
        .filter((s) => s.keyspace === 'customer' && s.vreplication.length > 0)
        .map((s) => s.shard);
      assert.equal(calls.length, Math.ceil(withRows.length / WORKFLOWS_SHARD_CHUNK));
      const asked = calls.flatMap((c) => (c.request as { shards: string[] }).shards);
      for (const c of calls) assert.ok((c.request as { shards: string[] }).shards.length <= WORKFLOWS_SHARD_CHUNK);
      assert.deepEqual([...asked].sort(), [...withRows].sort());
      const view = readout.workflows.customer;
      assert.ok(view?.ok, JSON.stringify(view));
      const expected = base.workflows.customer!;
      assert.deepEqual(
        view.value.map((w) => [w.name, w.workflowType, w.streams.length, [...w.targetShards].sort()]),
        expected.map((w) => [w.name, w.workflowType, w.streams.length, [...w.targetShards].sort()]),
      );
      // The model takes the workflow types from Vitess's view when the rows do not carry them.
      const types = Object.fromEntries(buildModel(readout).workflows.map((w) => [w.name, w.type]));
      assert.deepEqual(types, {
        cust2cust: 'Reshard',
        customer_orders: 'Materialize',
        customer_sales: 'Materialize',
        product_ref: 'Materialize',
      });
    } finally {
      await running.stop();
    }
  });

  test('the source shard of a stream: the fast path agrees with the BinlogSource parser', () => {
    const parsed = (text: string) => {
      try {
        const b = parseBinlogSource(text);
        return b.keyspace && b.shard ? { keyspace: b.keyspace, shard: b.shard } : null;
      } catch {
        return null;
      }
    };
    const generated = Object.values(generateScenario('all-faults', { now: Date.now(), shards: 16 }).sidecars).flatMap(
      (s) => s.vreplication.map((r) => r.source),
    );
    const edges = [
      'keyspace:  "a"  shard: "-80"',
      'keyspace:"a" shard:"b" keyspace:"c"',
      'shard:"x" keyspace:"y"',
      'keyspace:"a\\"b" shard:"c"',
      'keyspace:"" shard:"c"',
      'keyspace:"a"',
      'garbage',
      'keyspace:"a" shard:"b" filter:{rules:{match:"t" filter:"select shard: from t"}}',
      'keyspace:"a" shard:"b" external_cluster:"ext"',
    ];
    for (const text of [...generated, ...edges]) assert.deepEqual(sourceShardOf(text), parsed(text), text);
  });
});

describe('vreplication_log rows: check reads the newest per stream, a snapshot 20', () => {
  const logStatement = (statement: string): string => {
    const s = splitSqlStatements(statement).find((x) => x.includes('`vreplication_log`'));
    assert.ok(s !== undefined, 'the batch reads the log');
    return s;
  };

  test('the collector asks for logRowsPerStream rows of each stream, and the default reader limit without it', async () => {
    const sim = generateScenario('reshard', { now: Date.now(), shards: 4 });
    const running = await startSimCluster(sim, { record: true, rttMs: 0 });
    try {
      const one = await collect({ ...options(running.vtctld, 4), logRowsPerStream: 1 });
      for (const c of running.recording().mysql) {
        const log = logStatement(c.statements[0]!);
        assert.ok(!log.includes('UNION ALL') && log.includes('LIMIT 0, 1)'), log);
      }
      running.clearRecording();
      const all = await collect(options(running.vtctld, 4));
      for (const c of running.recording().mysql)
        assert.equal(logStatement(c.statements[0]!).split('UNION ALL').length, 20);
      let compared = 0;
      for (const [i, read] of one.sidecars.entries()) {
        const full = all.sidecars[i]!;
        assert.ok(read.vreplicationLog.ok && full.vreplicationLog.ok);
        // One row per stream that has any: its newest.
        const newest = new Map<number, number>();
        for (const l of full.vreplicationLog.value) newest.set(l.vrepl_id, Math.max(newest.get(l.vrepl_id) ?? 0, l.id));
        assert.deepEqual(
          read.vreplicationLog.value.map((l) => [l.vrepl_id, l.id]),
          [...newest].sort((a, b) => a[0] - b[0]),
        );
        compared += newest.size;
      }
      assert.ok(compared > 0, 'the scenario has log rows');
    } finally {
      await running.stop();
    }
  });

  test('check asks for the newest row of each stream (no check reads a log row): the report of a snapshot read with 20', async () => {
    const { main } = await import('../../src/cli.js');
    const sim = generateScenario('reshard', { now: Date.now(), shards: 4 });
    const running = await startSimCluster(sim, { record: true, rttMs: 0 });
    const dir = mkdtempSync(join(tmpdir(), 'vtpreflight-log-'));
    try {
      const run = async (args: string[]) => {
        let out = '';
        const io = {
          stdout: (s: string) => (out += s),
          stderr: () => {},
          env: {},
          stdoutIsTTY: false,
          stderrIsTTY: false,
        };
        const code = await main([...args, '--quiet', '--mysql-user', 'vtpreflight'], io);
        return { code, out };
      };
      const judged = ['--format', 'json', '--max-lag', '1h'];
      const live = await run(['check', '--vtctld', running.vtctld, ...judged]);
      for (const c of running.recording().mysql) assert.ok(!logStatement(c.statements[0]!).includes('UNION ALL'));
      const file = join(dir, 'snap.json');
      await run(['snapshot', '--vtctld', running.vtctld, '--output', file]);
      const saved = await run(['check', '--snapshot', file, ...judged]);
      // What was judged, without times (a lag or an age may differ by the second between the two reads).
      const gist = (json: string) => {
        type Finding = {
          check: string;
          details?: { reason?: string };
          keyspace?: string;
          shard?: string;
          workflow?: string;
        };
        const r = JSON.parse(json) as { findings: Finding[]; workflows: { workflow?: string; verdict: string }[] };
        return {
          findings: r.findings.map((f) => [f.check, f.details?.reason, f.keyspace, f.shard, f.workflow].join('|')),
          workflows: r.workflows.map((w) => `${w.workflow}|${w.verdict}`),
        };
      };
      assert.equal(live.code, saved.code);
      assert.deepEqual(gist(live.out), gist(saved.out));
      assert.ok(gist(live.out).workflows.length > 0);
    } finally {
      await running.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
