/**
 * The vtctld client against the fake vtctld (`src/sim/vtctld-server.ts`) over real loopback sockets:
 * every method, round trips of every record type, deadlines, unreachable classification, TLS and mTLS
 * (throwaway certificates made with the `openssl` CLI at test time), static auth, the read-only guard of
 * ExecuteFetchAsDBA, injected failures and a 1,024-shard cluster.
 */
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type {
  FullStatusRecord,
  KeyspaceRecord,
  ShardRecord,
  TabletRecord,
  VSchemaRecord,
  VtctldWorkflowRecord,
} from '../../src/readout.js';
import { hasOpenssl, makeTestPki } from '../harness/tls.js';
import { startFakeVtctld, type FakeVtctld, type FakeVtctldCluster } from '../../src/sim/vtctld-server.js';
import { checkReadOnlyStatement } from '../../src/sources/read-only-sql.js';
import {
  createVtctldClient,
  isVtctldUnreachable,
  VtctldError,
  type VtctldClient,
  type VtctldClientOptions,
} from '../../src/sources/vtctld.js';

// ---------------------------------------------------------------------------------------------------------
// A cluster like the golden fixtures' (test/fixtures/vtctld/README.md), as records.

const UUID = '6f1e9a8c-3b2d-11ef-a5c1-0242ac120064';

function tablet(uid: number, keyspace: string, shard: string, type: string, cell = 'zone1'): TabletRecord {
  return {
    alias: `${cell}-${String(uid).padStart(10, '0')}`,
    cell,
    uid,
    hostname: 'localhost',
    keyspace,
    shard,
    type,
    dbNameOverride: '',
    mysqlHostname: '127.0.0.1',
    mysqlPort: 17000 + uid,
    portMap: { grpc: 16000 + uid, vt: 15000 + uid },
  };
}

const keyspaces: KeyspaceRecord[] = [
  { name: 'commerce', keyspaceType: 'NORMAL', baseKeyspace: '', durabilityPolicy: 'semi_sync', sidecarDbName: '_vt' },
  { name: 'customer', keyspaceType: 'NORMAL', baseKeyspace: '', durabilityPolicy: 'semi_sync', sidecarDbName: '_vt' },
];

const shards: ShardRecord[] = [
  {
    keyspace: 'commerce',
    name: '0',
    keyRange: null,
    primaryAlias: 'zone1-0000000100',
    isPrimaryServing: true,
    tabletControls: [],
  },
  {
    keyspace: 'customer',
    name: '80-',
    keyRange: { start: '80', end: '' },
    primaryAlias: 'zone1-0000000300',
    isPrimaryServing: true,
    tabletControls: [{ tabletType: 'PRIMARY', cells: [], deniedTables: ['corder'], frozen: false }],
  },
  {
    keyspace: 'customer',
    name: '-80',
    keyRange: { start: '', end: '80' },
    primaryAlias: 'zone1-0000000200',
    isPrimaryServing: true,
    tabletControls: [],
  },
];

const tablets: TabletRecord[] = [
  tablet(300, 'customer', '80-', 'PRIMARY'),
  tablet(100, 'commerce', '0', 'PRIMARY'),
  tablet(101, 'commerce', '0', 'REPLICA'),
  tablet(200, 'customer', '-80', 'PRIMARY'),
  tablet(201, 'customer', '-80', 'RDONLY'),
  tablet(301, 'customer', '80-', 'REPLICA', 'zone2'),
];

const customerVSchema: VSchemaRecord = {
  sharded: true,
  vindexes: {
    hash: { type: 'hash', params: {}, owner: '' },
    customer_email_idx: {
      type: 'consistent_lookup',
      params: { table: 'customer.customer_email_idx', from: 'email,customer_id', to: 'keyspace_id' },
      owner: 'customer',
    },
  },
  tables: {
    customer: {
      type: '',
      columnVindexes: [
        { name: 'hash', columns: ['customer_id'] },
        { name: 'customer_email_idx', columns: ['email', 'customer_id'] },
      ],
      source: '',
      pinned: '',
    },
    corder: { type: '', columnVindexes: [{ name: 'hash', columns: ['customer_id'] }], source: '', pinned: '' },
  },
  requireExplicitRouting: false,
};

const fullStatus = (position: string): FullStatusRecord => ({
  serverUuid: UUID,
  primaryPosition: position,
  replicationPosition: '',
  gtidPurged: `MySQL56/${UUID}:1-10`,
  version: '8.0.40',
  readOnly: false,
  superReadOnly: false,
  gtidMode: 'ON',
  binlogFormat: 'ROW',
  binlogRowImage: 'FULL',
  logBinEnabled: true,
  logReplicaUpdates: true,
  tabletType: 'PRIMARY',
});

const stream = (
  shard: string,
  tabletAlias: string,
  id: number,
  over: Partial<VtctldWorkflowRecord['streams'][number]> = {},
) => ({
  id,
  shard,
  tablet: tabletAlias,
  sourceKeyspace: 'commerce',
  sourceShard: '0',
  position: `${UUID}:1-1234`,
  stopPosition: '',
  state: 'Running',
  message: '',
  timeUpdated: 1767225601,
  transactionTimestamp: 1767225600,
  copyStateTables: [],
  ...over,
});

const workflows: VtctldWorkflowRecord[] = [
  {
    name: 'commerce2customer',
    sourceKeyspace: 'commerce',
    sourceShards: ['0'],
    targetKeyspace: 'customer',
    targetShards: ['-80', '80-'],
    workflowType: 'MoveTables',
    workflowSubType: 'None',
    maxVReplicationLag: 1,
    maxVReplicationTransactionLag: 2,
    streams: [
      stream('-80', 'zone1-0000000200', 1),
      stream('80-', 'zone1-0000000300', 1, {
        position: `${UUID}:1-1233`,
        copyStateTables: ['corder'],
        state: 'Copying',
      }),
    ],
  },
  {
    name: 'archive',
    sourceKeyspace: 'commerce',
    sourceShards: ['0'],
    targetKeyspace: 'customer',
    targetShards: ['-80'],
    workflowType: 'Materialize',
    workflowSubType: 'None',
    maxVReplicationLag: 0,
    maxVReplicationTransactionLag: 0,
    streams: [
      stream('-80', 'zone1-0000000200', 2, {
        state: 'Stopped',
        message: 'Stopped after copy.',
        stopPosition: `MySQL56/${UUID}:1-812`,
        timeUpdated: 0,
        transactionTimestamp: null,
      }),
    ],
  },
];

const cluster: FakeVtctldCluster = {
  keyspaces,
  shards,
  tablets,
  vschemas: {
    customer: customerVSchema,
    commerce: { sharded: false, vindexes: {}, tables: {}, requireExplicitRouting: false },
  },
  routingRules: [
    { fromTable: 'customer', toTables: ['commerce.customer'] },
    { fromTable: 'customer.customer@replica', toTables: ['commerce.customer'] },
  ],
  shardRoutingRules: [{ fromKeyspace: 'commerce', toKeyspace: 'customer', shard: '-80' }],
  fullStatus: {
    'zone1-0000000100': fullStatus(`MySQL56/${UUID}:1-1300`),
    'zone1-0000000200': { error: 'rpc error: code = Unavailable desc = connection refused' },
    'zone1-0000000300': { error: 'DEADLINE_EXCEEDED: tablet did not answer in time' },
  },
  workflows: { customer: workflows },
};

const sortedTablets = [...tablets].sort((a, b) => (a.cell < b.cell ? -1 : a.cell > b.cell ? 1 : a.uid - b.uid));

/** Read-only RPCs vtpreflight may call. */
const READ_ONLY_RPCS = new Set([
  'GetKeyspaces',
  'GetKeyspace',
  'FindAllShardsInKeyspace',
  'GetTablets',
  'GetWorkflows',
  'GetVSchema',
  'GetRoutingRules',
  'GetShardRoutingRules',
  'GetFullStatus',
  'GetSrvKeyspaces',
  'ExecuteFetchAsDBA',
]);

/**
 * Fails unless every call the fake received was read-only (ExecuteFetchAsDBA: SELECT/SHOW, no binlog or schema side
 * effects).
 */
function assertReadOnly(fake: FakeVtctld): void {
  for (const c of fake.calls) {
    assert.ok(READ_ONLY_RPCS.has(c.rpc), `${c.rpc} is read-only`);
    if (c.rpc === 'ExecuteFetchAsDBA') {
      const r = c.request as { query: string; disable_binlogs: boolean; reload_schema: boolean };
      assert.deepEqual(checkReadOnlyStatement(r.query), { ok: true }, r.query);
      assert.equal(r.disable_binlogs, false);
      assert.equal(r.reload_schema, false);
    }
  }
}

async function rejectsWith(
  p: Promise<unknown>,
  expect: Partial<Pick<VtctldError, 'kind' | 'code' | 'rpc' | 'timedOut' | 'readErrorKind'>> & {
    message?: RegExp | string;
  },
): Promise<VtctldError> {
  try {
    await p;
  } catch (err) {
    assert.ok(err instanceof VtctldError, `a VtctldError, got ${String(err)}`);
    const { message, ...fields } = expect;
    for (const [k, v] of Object.entries(fields))
      assert.equal((err as unknown as Record<string, unknown>)[k], v, `${k} of "${err.message}"`);
    if (typeof message === 'string') assert.equal(err.message, message);
    else if (message !== undefined) assert.match(err.message, message);
    assert.ok(!err.message.includes('\n'), 'one line');
    return err;
  }
  assert.fail('expected a rejection');
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const addr = s.address();
      s.close(() => resolve(typeof addr === 'object' && addr !== null ? addr.port : 0));
    });
  });
}

// ---------------------------------------------------------------------------------------------------------

describe('vtctld client ↔ fake vtctld (plaintext)', () => {
  let fake: FakeVtctld;
  let client: VtctldClient;
  const rawPos = Buffer.from([0x78, 0x9c, 0xff, 0x00, 0x80, 0x01]); // not UTF-8 (a compressed pos)

  before(async () => {
    fake = await startFakeVtctld(cluster, {
      executeFetchAsDBA: (alias, query) => {
        if (query.includes('boom'))
          throw Object.assign(new Error("Unknown column 'boom'"), { code: 'INVALID_ARGUMENT' });
        // A MySQL error as mysql2 throws it: the fake vtctld answers UNKNOWN with Vitess's `(errno n) (sqlstate s)`.
        if (query.includes('nosuch'))
          throw Object.assign(new Error("Table '_vt.nosuch' doesn't exist"), {
            code: 'ER_NO_SUCH_TABLE',
            errno: 1146,
            sqlState: '42S02',
            sqlMessage: "Table '_vt.nosuch' doesn't exist",
          });
        return {
          fields: [{ name: 'id', type: 'INT32' }, 'workflow', 'pos', 'message'],
          rows: [
            ['1', alias, 'MySQL56/x:1-5', ''],
            ['2', null, rawPos, null],
          ],
        };
      },
    });
    client = createVtctldClient({ address: fake.address, timeoutMs: 5000 });
  });
  after(async () => {
    client.close();
    await fake.stop();
  });

  test('checkReachable resolves without sending any RPC', async () => {
    const before = fake.calls.length;
    await client.checkReachable();
    assert.equal(fake.calls.length, before);
  });

  test('getKeyspaces / getKeyspace round-trip the records', async () => {
    assert.deepEqual(await client.getKeyspaces(), keyspaces);
    assert.deepEqual(await client.getKeyspace('customer'), keyspaces[1]);
    await rejectsWith(client.getKeyspace('nope'), {
      kind: 'rpc',
      code: 'NOT_FOUND',
      rpc: 'GetKeyspace',
      message: `GetKeyspace failed at vtctld ${fake.address}: NOT_FOUND: node doesn't exist: keyspaces/nope/Keyspace`,
    });
  });

  test('findAllShardsInKeyspace returns every shard sorted by name', async () => {
    const got = await client.findAllShardsInKeyspace('customer');
    assert.deepEqual(
      got.map((s) => s.name),
      ['-80', '80-'],
    );
    assert.deepEqual(got, [shards[2], shards[1]]);
    assert.deepEqual(await client.findAllShardsInKeyspace('commerce'), [shards[0]]);
    await rejectsWith(client.findAllShardsInKeyspace('nope'), { kind: 'rpc', code: 'NOT_FOUND' });
  });

  test('getTablets: all, by keyspace, by shard, by type, by cell; sorted by alias', async () => {
    assert.deepEqual(await client.getTablets(), sortedTablets);
    assert.deepEqual(
      (await client.getTablets({ keyspace: 'customer' })).map((t) => t.alias),
      ['zone1-0000000200', 'zone1-0000000201', 'zone1-0000000300', 'zone2-0000000301'],
    );
    assert.deepEqual(
      (await client.getTablets({ keyspace: 'customer', shard: '80-' })).map((t) => t.alias),
      ['zone1-0000000300', 'zone2-0000000301'],
    );
    assert.deepEqual(
      (await client.getTablets({ tabletType: 'PRIMARY' })).map((t) => t.alias),
      ['zone1-0000000100', 'zone1-0000000200', 'zone1-0000000300'],
    );
    assert.deepEqual(
      (await client.getTablets({ cells: ['zone2'] })).map((t) => t.alias),
      ['zone2-0000000301'],
    );
    // A shard without a keyspace is ignored by vtctld but still filtered here.
    assert.deepEqual(
      (await client.getTablets({ shard: '0' })).map((t) => t.alias),
      ['zone1-0000000100', 'zone1-0000000101'],
    );
    const req = fake.calls.filter((c) => c.rpc === 'GetTablets').at(-1)?.request as { shard: string; strict: boolean };
    assert.equal(req.shard, '', 'shard is not sent without keyspace');
    assert.equal(req.strict, true, 'strict by default: a failed cell must not look like missing tablets');
  });

  test('getVSchema / getRoutingRules / getShardRoutingRules round-trip', async () => {
    assert.deepEqual(await client.getVSchema('customer'), customerVSchema);
    assert.deepEqual(await client.getVSchema('commerce'), cluster.vschemas['commerce']);
    assert.deepEqual(await client.getRoutingRules(), cluster.routingRules);
    assert.deepEqual(await client.getShardRoutingRules(), cluster.shardRoutingRules);
  });

  test('getWorkflows: all (sorted), one workflow, some shards, active only', async () => {
    const all = await client.getWorkflows('customer');
    assert.deepEqual(all, [workflows[1], workflows[0]]);
    assert.deepEqual(
      (await client.getWorkflows('customer', { workflow: 'commerce2customer' })).map((w) => w.name),
      ['commerce2customer'],
    );
    const onShard = await client.getWorkflows('customer', { shards: ['80-'] });
    assert.deepEqual(
      onShard.map((w) => [w.name, w.streams.map((s) => s.shard)]),
      [['commerce2customer', ['80-']]],
    );
    assert.deepEqual(
      (await client.getWorkflows('customer', { activeOnly: true })).map((w) => w.name),
      ['commerce2customer'],
    );
    assert.deepEqual(await client.getWorkflows('commerce'), []);
    const req = fake.calls.filter((c) => c.rpc === 'GetWorkflows')[0]?.request as {
      include_logs: boolean;
      active_only: boolean;
    };
    assert.deepEqual([req.include_logs, req.active_only], [false, false]);
  });

  test('getFullStatus: a record, a tablet error, an unknown tablet, a malformed alias', async () => {
    assert.deepEqual(await client.getFullStatus('zone1-0000000100'), cluster.fullStatus['zone1-0000000100']);
    assert.deepEqual(await client.getFullStatus('zone1-100'), cluster.fullStatus['zone1-0000000100'], 'unpadded alias');
    await rejectsWith(client.getFullStatus('zone1-0000000200'), {
      kind: 'rpc',
      code: 'UNAVAILABLE',
      message: `GetFullStatus failed at vtctld ${fake.address}: UNAVAILABLE: rpc error: code = Unavailable desc = connection refused`,
    });
    await rejectsWith(client.getFullStatus('zone1-0000000300'), {
      kind: 'rpc',
      code: 'DEADLINE_EXCEEDED',
      timedOut: true,
    });
    await rejectsWith(client.getFullStatus('zone1-0000000999'), {
      kind: 'rpc',
      code: 'NOT_FOUND',
      message: /tablets\/zone1-0000000999\/Tablet/,
    });
    const before = fake.calls.length;
    await rejectsWith(client.getFullStatus('zone1'), {
      kind: 'invalid',
      code: 'INVALID_ARGUMENT',
      message: /invalid tablet alias "zone1"/,
    });
    assert.equal(fake.calls.length, before, 'nothing sent');
  });

  test('getSrvKeyspaces: derived from serving shards, by cell', async () => {
    const srv = await client.getSrvKeyspaces('customer');
    assert.deepEqual(Object.keys(srv), ['zone1', 'zone2']);
    assert.deepEqual(
      srv['zone1']?.partitions.map((p) => p.servedType),
      ['PRIMARY', 'REPLICA', 'RDONLY'],
    );
    assert.deepEqual(srv['zone1']?.partitions[0]?.shards, [
      { name: '-80', keyRange: { start: '', end: '80' } },
      { name: '80-', keyRange: { start: '80', end: '' } },
    ]);
    assert.deepEqual(Object.keys(await client.getSrvKeyspaces('customer', ['zone2'])), ['zone2']);
  });

  test('executeFetchAsDBA decodes rows: NULL vs empty, raw bytes of binary cells', async () => {
    const r = await client.executeFetchAsDBA(
      'zone1-0000000200',
      '/* vtpreflight */ select id, workflow, pos, message from _vt.vreplication',
    );
    assert.deepEqual(r.fields, ['id', 'workflow', 'pos', 'message']);
    assert.deepEqual(r.fieldTypes, ['INT32', 'VARBINARY', 'VARBINARY', 'VARBINARY']);
    assert.deepEqual(r.rows[0], ['1', 'zone1-0000000200', 'MySQL56/x:1-5', '']);
    assert.deepEqual([r.rows[1]?.[1], r.rows[1]?.[3]], [null, null]);
    assert.ok(r.rawRows[1]?.[2]?.equals(rawPos), 'raw bytes preserved');
    const req = fake.calls.filter((c) => c.rpc === 'ExecuteFetchAsDBA').at(-1)?.request as {
      max_rows: string;
      tablet_alias: unknown;
    };
    assert.equal(req.max_rows, '10000');
    assert.deepEqual(req.tablet_alias, { cell: 'zone1', uid: 200 });
    await rejectsWith(client.executeFetchAsDBA('zone1-0000000200', 'select boom'), {
      kind: 'rpc',
      code: 'INVALID_ARGUMENT',
      message: /Unknown column 'boom'/,
    });
    await rejectsWith(client.executeFetchAsDBA('zone9-0000000001', 'select 1'), {
      kind: 'rpc',
      code: 'NOT_FOUND',
      readErrorKind: 'not-found',
    });
    // The kind comes from the gRPC status and the MySQL errno Vitess relays, not from the message's words.
    await rejectsWith(client.executeFetchAsDBA('zone1-0000000200', 'select nosuch'), {
      kind: 'rpc',
      code: 'UNKNOWN',
      readErrorKind: 'missing-table',
      message: /doesn't exist \(errno 1146\) \(sqlstate 42S02\)/,
    });
  });

  test('executeFetchAsDBA refuses anything but one SELECT/SHOW, and sends nothing', async () => {
    const before = fake.calls.length;
    for (const sql of [
      'delete from _vt.vreplication',
      'select 1; drop table t',
      'select * from t into outfile "/x"',
      'select 1 for update',
      '/*!50000 drop table t */ select 1',
    ]) {
      await rejectsWith(client.executeFetchAsDBA('zone1-0000000200', sql), {
        kind: 'invalid',
        code: 'INVALID_ARGUMENT',
        rpc: 'ExecuteFetchAsDBA',
        message:
          /^ExecuteFetchAsDBA refused by vtpreflight: only a single SELECT or SHOW statement may be sent \(.+\)$/,
      });
    }
    assert.equal(fake.calls.length, before);
  });

  test('every call the fake received was read-only', () => {
    assert.ok(fake.calls.length > 20);
    assertReadOnly(fake);
  });
});

describe('vtctld client errors', () => {
  test('a deadline above the latency is a one-line timedOut error', async () => {
    const fake = await startFakeVtctld(cluster, { latencyMs: 1500 });
    const client = createVtctldClient({ address: fake.address, timeoutMs: 150 });
    try {
      await client.checkReachable();
      const started = Date.now();
      await rejectsWith(client.getTablets(), {
        kind: 'timeout',
        code: 'DEADLINE_EXCEEDED',
        timedOut: true,
        message: `GetTablets failed at vtctld ${fake.address}: timed out after 150ms`,
      });
      assert.ok(Date.now() - started < 1200, 'the client gave up at its deadline, before the answer');
      fake.setLatency(0);
      assert.equal((await client.getTablets()).length, tablets.length, 'the same client works again');
    } finally {
      client.close();
      await fake.stop();
    }
  });

  test('nothing listening: checkReachable gives the CLI line, RPCs are classified unreachable', async () => {
    const port = await freePort();
    const address = `127.0.0.1:${port}`;
    const client = createVtctldClient({ address, timeoutMs: 5000 });
    try {
      const started = Date.now();
      const err = await rejectsWith(client.checkReachable(), {
        kind: 'unreachable',
        message: `cannot reach vtctld at ${address} within 5s: check --vtctld and network access`,
      });
      assert.ok(Date.now() - started < 3000, 'a refused connection fails fast, not at the deadline');
      assert.match(err.details, /ECONNREFUSED/);
      assert.ok(isVtctldUnreachable(err));
      const rpcErr = await rejectsWith(client.getTablets(), {
        kind: 'unreachable',
        code: 'UNAVAILABLE',
        rpc: 'GetTablets',
        message: `GetTablets failed at vtctld ${address}: UNAVAILABLE: connect ECONNREFUSED ${address}`,
      });
      assert.equal(rpcErr.unreachable, true);
    } finally {
      client.close();
    }
  });

  test('vtctld going away mid-run turns later calls unreachable', async () => {
    const fake = await startFakeVtctld(cluster);
    const client = createVtctldClient({ address: fake.address, timeoutMs: 2000 });
    try {
      assert.equal((await client.getKeyspaces()).length, 2);
      await fake.stop();
      await rejectsWith(client.getKeyspaces(), { kind: 'unreachable', code: 'UNAVAILABLE' });
    } finally {
      client.close();
    }
  });

  test('an injected RPC failure is an rpc error with its status code (not "unreachable")', async () => {
    const fake = await startFakeVtctld({
      ...cluster,
      failRpcs: { GetTablets: 'UNAVAILABLE: topo is down', GetVSchema: 'boom' },
    });
    const client = createVtctldClient({ address: fake.address, timeoutMs: 2000 });
    try {
      await rejectsWith(client.getTablets(), {
        kind: 'rpc',
        code: 'UNAVAILABLE',
        rpc: 'GetTablets',
        timedOut: false,
        message: `GetTablets failed at vtctld ${fake.address}: UNAVAILABLE: topo is down`,
      });
      await rejectsWith(client.getVSchema('customer'), { kind: 'rpc', code: 'UNKNOWN', message: /: UNKNOWN: boom$/ });
      assert.equal((await client.getKeyspaces()).length, 2, 'other RPCs still answer');
      fake.setCluster(cluster);
      assert.equal((await client.getTablets()).length, tablets.length, 'setCluster replaces the injected failures');
    } finally {
      client.close();
      await fake.stop();
    }
  });

  test('a response above maxReceiveMessageBytes is RESOURCE_EXHAUSTED', async () => {
    const fake = await startFakeVtctld(cluster);
    const client = createVtctldClient({ address: fake.address, timeoutMs: 2000, maxReceiveMessageBytes: 200 });
    try {
      await rejectsWith(client.getTablets(), { kind: 'rpc', code: 'RESOURCE_EXHAUSTED' });
    } finally {
      client.close();
      await fake.stop();
    }
  });

  test('malformed options are refused before any I/O', () => {
    assert.throws(
      () => createVtctldClient({ address: 'vtctld', timeoutMs: 1000 }),
      (e: unknown) =>
        e instanceof VtctldError &&
        e.kind === 'invalid' &&
        e.message === 'invalid vtctld address "vtctld": expected HOST:PORT',
    );
    assert.throws(() => createVtctldClient({ address: 'vtctld:15999', timeoutMs: 0 }), /invalid vtctld timeout/);
    assert.throws(
      () => createVtctldClient({ address: 'vtctld:15999', timeoutMs: 1000, tls: { caFile: '/nonexistent/ca.pem' } }),
      (e: unknown) =>
        e instanceof VtctldError &&
        e.kind === 'invalid' &&
        e.message === 'cannot read vtctld TLS CA file /nonexistent/ca.pem: ENOENT',
    );
    assert.throws(
      () => createVtctldClient({ address: 'vtctld:15999', timeoutMs: 1000, tls: { cert: 'x' } }),
      /certificate and key must be given together/,
    );
    // Accepted forms.
    createVtctldClient({ address: '[::1]:15999', timeoutMs: 1000 }).close();
    createVtctldClient({ address: 'vtctld.example.com:15999', timeoutMs: 1000 }).close();
  });
});

describe('vtctld static auth', () => {
  const auth = { username: 'vtpreflight', password: 's3cret-password' };
  let fake: FakeVtctld;
  before(async () => {
    fake = await startFakeVtctld(cluster, { auth });
  });
  after(() => fake.stop());

  test('correct username/password metadata is accepted', async () => {
    const client = createVtctldClient({ address: fake.address, timeoutMs: 2000, auth });
    try {
      assert.equal((await client.getKeyspaces()).length, 2);
    } finally {
      client.close();
    }
  });

  test('no credentials: UNAUTHENTICATED, as Vitess answers', async () => {
    const client = createVtctldClient({ address: fake.address, timeoutMs: 2000 });
    try {
      await rejectsWith(client.getKeyspaces(), {
        kind: 'rpc',
        code: 'UNAUTHENTICATED',
        message: /username and password must be provided/,
      });
    } finally {
      client.close();
    }
  });

  test('wrong password: PERMISSION_DENIED, and no secret in the message', async () => {
    const client = createVtctldClient({
      address: fake.address,
      timeoutMs: 2000,
      auth: { username: 'vtpreflight', password: 'wrong-password' },
    });
    try {
      const err = await rejectsWith(client.getKeyspaces(), {
        kind: 'rpc',
        code: 'PERMISSION_DENIED',
        message: /caller "vtpreflight" provided invalid credentials/,
      });
      assert.ok(!err.message.includes('wrong-password') && !err.details.includes('wrong-password'));
    } finally {
      client.close();
    }
  });
});

// ---------------------------------------------------------------------------------------------------------
// TLS and mTLS with throwaway certificates.

interface Pki {
  readonly dir: string;
  readonly ca: Buffer;
  readonly serverKey: Buffer;
  readonly serverCert: Buffer;
  readonly clientKey: Buffer;
  readonly clientCert: Buffer;
  readonly otherCa: Buffer;
}

function makePki(): Pki {
  const made = makeTestPki([
    { name: 'server', usage: 'server', san: ['DNS:vtctld.test', 'DNS:localhost', 'IP:127.0.0.1'] },
    { name: 'client', usage: 'client' },
  ]);
  return {
    dir: made.dir,
    ca: made.read('ca.crt'),
    serverKey: made.read('server.key'),
    serverCert: made.read('server.crt'),
    clientKey: made.read('client.key'),
    clientCert: made.read('client.crt'),
    otherCa: made.read('other-ca.crt'),
  };
}

describe('vtctld TLS and mTLS', { skip: hasOpenssl ? false : 'the openssl CLI is not installed' }, () => {
  let pki: Pki;
  let tlsFake: FakeVtctld;
  let mtlsFake: FakeVtctld;
  before(async () => {
    pki = makePki();
    tlsFake = await startFakeVtctld(cluster, { tls: { key: pki.serverKey, cert: pki.serverCert } });
    mtlsFake = await startFakeVtctld(cluster, {
      tls: { key: pki.serverKey, cert: pki.serverCert, ca: pki.ca, requireClientCert: true },
    });
  });
  after(async () => {
    await tlsFake?.stop();
    await mtlsFake?.stop();
    if (pki !== undefined) rmSync(pki.dir, { recursive: true, force: true });
  });

  const withClient = async (opts: VtctldClientOptions, f: (c: VtctldClient) => Promise<void>): Promise<void> => {
    const c = createVtctldClient(opts);
    try {
      await f(c);
    } finally {
      c.close();
    }
  };

  test('TLS: CA as contents, the IP in the certificate', async () => {
    await withClient({ address: tlsFake.address, timeoutMs: 3000, tls: { ca: pki.ca } }, async (c) => {
      await c.checkReachable();
      assert.equal((await c.getKeyspaces()).length, 2);
    });
  });

  test('TLS: CA as a file, serverName override', async () => {
    await withClient(
      {
        address: tlsFake.address,
        timeoutMs: 3000,
        tls: { caFile: join(pki.dir, 'ca.crt'), serverName: 'vtctld.test' },
      },
      async (c) => assert.equal((await c.getTablets()).length, tablets.length),
    );
  });

  test('TLS: a wrong serverName fails the handshake and says so', async () => {
    await withClient(
      { address: tlsFake.address, timeoutMs: 3000, tls: { ca: pki.ca, serverName: 'other.test' } },
      async (c) => {
        await rejectsWith(c.checkReachable(), {
          kind: 'unreachable',
          message: /^cannot reach vtctld at .*: TLS handshake failed \(.+\): check --vtctld-tls-ca/,
        });
      },
    );
  });

  test('TLS: an untrusted CA fails the handshake and says so', async () => {
    await withClient({ address: tlsFake.address, timeoutMs: 3000, tls: { ca: pki.otherCa } }, async (c) => {
      await rejectsWith(c.checkReachable(), { kind: 'unreachable', message: /TLS handshake failed/ });
      await rejectsWith(c.getKeyspaces(), {
        kind: 'unreachable',
        code: 'UNAVAILABLE',
        message: /^GetKeyspaces failed at vtctld .*: TLS handshake failed: UNAVAILABLE: /,
      });
    });
  });

  test('plaintext client against a TLS vtctld is unreachable', async () => {
    await withClient({ address: tlsFake.address, timeoutMs: 1500 }, async (c) => {
      await rejectsWith(c.getKeyspaces(), { kind: 'unreachable' });
    });
  });

  test('mTLS: with the client certificate (files)', async () => {
    await withClient(
      {
        address: mtlsFake.address,
        timeoutMs: 3000,
        tls: {
          caFile: join(pki.dir, 'ca.crt'),
          certFile: join(pki.dir, 'client.crt'),
          keyFile: join(pki.dir, 'client.key'),
        },
      },
      async (c) => {
        await c.checkReachable();
        assert.deepEqual(await c.getKeyspace('commerce'), keyspaces[0]);
      },
    );
  });

  test('mTLS: without a client certificate the server refuses', async () => {
    await withClient({ address: mtlsFake.address, timeoutMs: 2000, tls: { ca: pki.ca } }, async (c) => {
      const err = await c.getKeyspaces().then(
        () => assert.fail('expected a rejection'),
        (e: unknown) => e,
      );
      assert.ok(err instanceof VtctldError);
      assert.equal(err.code, 'UNAVAILABLE');
      assert.ok(!err.message.includes('\n'));
    });
  });
});

// ---------------------------------------------------------------------------------------------------------

describe('vtctld at scale: 1,024 shards, 4,096 tablets', () => {
  test('topology calls stay fast', async (t) => {
    const n = 1024;
    const hex = (i: number): string => (i === 0 || i === n ? '' : (i * (65536 / n)).toString(16).padStart(4, '0'));
    const bigShards: ShardRecord[] = [];
    const bigTablets: TabletRecord[] = [];
    for (let i = 0; i < n; i++) {
      const name = `${hex(i)}-${hex(i + 1)}`;
      const uid = 1000 + i * 4;
      bigShards.push({
        keyspace: 'big',
        name,
        keyRange: { start: hex(i), end: hex(i + 1) },
        primaryAlias: `zone1-${String(uid).padStart(10, '0')}`,
        isPrimaryServing: true,
        tabletControls: [],
      });
      for (let r = 0; r < 4; r++) bigTablets.push(tablet(uid + r, 'big', name, r === 0 ? 'PRIMARY' : 'REPLICA'));
    }
    const big: FakeVtctldCluster = {
      ...cluster,
      keyspaces: [
        ...keyspaces,
        { name: 'big', keyspaceType: 'NORMAL', baseKeyspace: '', durabilityPolicy: 'none', sidecarDbName: '_vt' },
      ],
      shards: [...shards, ...bigShards],
      tablets: [...tablets, ...bigTablets],
    };
    const started = Date.now();
    const fake = await startFakeVtctld(big);
    const client = createVtctldClient({ address: fake.address, timeoutMs: 10_000 });
    try {
      const [all, bigShardList, one] = await Promise.all([
        client.getTablets(),
        client.findAllShardsInKeyspace('big'),
        client.getTablets({ keyspace: 'big', shard: bigShards[500]?.name as string }),
      ]);
      assert.equal(all.length, tablets.length + 4 * n);
      assert.equal(bigShardList.length, n);
      assert.deepEqual(
        bigShardList.map((s) => s.name),
        [...bigShards.map((s) => s.name)].sort(),
      );
      assert.equal(one.length, 4);
      const primaries = await Promise.all(
        bigShards.slice(0, 64).map((s) => client.getTablets({ keyspace: 'big', shard: s.name, tabletType: 'PRIMARY' })),
      );
      assert.ok(primaries.every((p) => p.length === 1));
      t.diagnostic(`1,024 shards: start + calls took ${Date.now() - started}ms`);
      // Generous: CI machines are shared; this catches quadratic behaviour, not milliseconds.
      assert.ok(Date.now() - started < 15_000, `took ${Date.now() - started}ms`);
    } finally {
      client.close();
      await fake.stop();
    }
  });
});
