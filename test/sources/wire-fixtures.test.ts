/**
 * Proof of wire compatibility with real Vitess: every golden vtctld response in `test/fixtures/vtctld/`
 * (protobuf bytes encoded with the upstream `.proto` files, see its README) is decoded with OUR `protos/`
 * subset, exactly as the vtctld client decodes it, and compared with the upstream protojson of the same
 * message (`.full.json`), projected onto the fields our subset declares. Then the same decoded responses go
 * through the record conversion and key values are checked.

 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { decodeMessage, messageSchema, vtctldServiceDefinition, type FieldSchema } from '../../src/sources/protos.js';
import {
  toFetchResult,
  toKeyspaceRecord,
  toRoutingRuleRecords,
  toShardRecord,
  toShardRoutingRuleRecords,
  toTabletRecord,
  toVSchemaRecord,
  toWorkflowRecord,
  type PbKeyspace,
  type PbQueryResult,
  type PbRoutingRules,
  type PbShard,
  type PbShardRoutingRules,
  type PbTablet,
  type PbVSchema,
  type PbWorkflow,
} from '../../src/sources/vtctld-records.js';

/** dist/test/sources/ → repo root. */
const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
const fixturesDir = join(repoRoot, 'test', 'fixtures', 'vtctld');

interface ManifestEntry {
  readonly name: string;
  readonly rpc: string;
  readonly type: string;
  readonly files: { readonly bin: string; readonly json: string; readonly full: string };
  readonly bin_sha256: string;
  readonly bin_length: number;
}

if (!existsSync(join(fixturesDir, 'manifest.json'))) {
  throw new Error(`vtctld wire fixtures missing: ${fixturesDir}/manifest.json (restore them from git)`);
}
const manifest = JSON.parse(readFileSync(join(fixturesDir, 'manifest.json'), 'utf8')) as { fixtures: ManifestEntry[] };
const fixture = (name: string): ManifestEntry => {
  const f = manifest.fixtures.find((x) => x.name === name);
  assert.ok(f, `fixture ${name} is in the manifest`);
  return f;
};
const bin = (f: ManifestEntry): Buffer => readFileSync(join(fixturesDir, f.files.bin));
const decoded = <T>(name: string): T => {
  const f = fixture(name);
  return decodeMessage<T>(f.type, bin(f));
};
const readJson = (file: string): unknown => JSON.parse(readFileSync(join(fixturesDir, file), 'utf8'));

// ---------------------------------------------------------------------------------------------------------
// protojson normalization and projection, driven by our schema.

const INT64_KINDS = new Set(['int64', 'uint64', 'sint64', 'fixed64', 'sfixed64']);

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

/** A decoded value in protojson conventions (int64 as strings, bytes base64, unset messages null). */
function decodedToProtoJson(field: FieldSchema, value: unknown): Json {
  if (field.kind === 'map') {
    const out: Record<string, Json> = {};
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) out[k] = singleToProtoJson(field.value, v);
    return out;
  }
  if (field.repeated) return (value as unknown[]).map((v) => singleToProtoJson(field, v));
  return singleToProtoJson(field, value);
}

function singleToProtoJson(field: FieldSchema, value: unknown): Json {
  switch (field.kind) {
    case 'message':
      return value === null ? null : messageToProtoJson(field.typeName, value as Record<string, unknown>);
    case 'enum':
      return value as string;
    case 'scalar':
      if (field.scalar === 'bytes') return (value as Buffer).toString('base64');
      if (INT64_KINDS.has(field.scalar)) return String(value);
      return value as Json;
    case 'map':
      return decodedToProtoJson(field, value);
  }
}

function messageToProtoJson(typeName: string, obj: Record<string, unknown>): Record<string, Json> {
  const out: Record<string, Json> = {};
  for (const f of messageSchema(typeName).fields) {
    assert.ok(f.name in obj, `decoded ${typeName} has field ${f.name}`);
    out[f.name] = decodedToProtoJson(f, obj[f.name]);
  }
  return out;
}

/** Projects upstream protojson onto our schema; records declared fields the JSON lacks (= a schema mistake). */
function projectProtoJson(
  typeName: string,
  json: Record<string, Json>,
  path: string,
  missing: string[],
): Record<string, Json> {
  const out: Record<string, Json> = {};
  for (const f of messageSchema(typeName).fields) {
    if (!(f.name in json)) {
      missing.push(`${path}.${f.name}`);
      continue;
    }
    out[f.name] = projectField(f, json[f.name] as Json, `${path}.${f.name}`, missing);
  }
  return out;
}

function projectField(field: FieldSchema, value: Json, path: string, missing: string[]): Json {
  if (field.kind === 'map') {
    const out: Record<string, Json> = {};
    for (const [k, v] of Object.entries(value as Record<string, Json>))
      out[k] = projectSingle(field.value, v, `${path}[${k}]`, missing);
    return out;
  }
  if (field.repeated) return (value as Json[]).map((v, i) => projectSingle(field, v, `${path}[${i}]`, missing));
  return projectSingle(field, value, path, missing);
}

function projectSingle(field: FieldSchema, value: Json, path: string, missing: string[]): Json {
  if (field.kind === 'message')
    return value === null ? null : projectProtoJson(field.typeName, value as Record<string, Json>, path, missing);
  if (field.kind === 'map') return projectField(field, value, path, missing);
  return value;
}

// ---------------------------------------------------------------------------------------------------------

describe('vtctld wire fixtures', () => {
  test('the manifest lists every .bin, with matching sha256 and length', () => {
    const bins = readdirSync(fixturesDir)
      .filter((f) => f.endsWith('.bin'))
      .sort();
    assert.deepEqual(manifest.fixtures.map((f) => f.files.bin).sort(), bins);
    for (const f of manifest.fixtures) {
      const bytes = bin(f);
      assert.equal(bytes.length, f.bin_length, `${f.name} length`);
      assert.equal(createHash('sha256').update(bytes).digest('hex'), f.bin_sha256, `${f.name} sha256`);
    }
  });

  test('every fixture is the response type of its RPC in our service', () => {
    const service = vtctldServiceDefinition();
    for (const f of manifest.fixtures) {
      const method = Object.values(service).find((m) => m.path === f.rpc);
      assert.ok(method, `${f.rpc} is declared in protos/vtctlservice.proto`);
      const responseType = (method as unknown as { responseType: { type: { name: string } } }).responseType.type.name;
      assert.equal(`vtctldata.${responseType}`, f.type);
    }
  });

  for (const f of manifest.fixtures) {
    test(`${f.name}: decodes with our protos to the upstream protojson, on every field we declare`, () => {
      const value = decodeMessage<Record<string, unknown>>(f.type, bin(f));
      const ours = messageToProtoJson(f.type, value);
      const missing: string[] = [];
      const upstream = projectProtoJson(f.type, readJson(f.files.full) as Record<string, Json>, f.type, missing);
      assert.deepEqual(missing, [], 'every field we declare exists upstream (protojson emits unpopulated fields)');
      assert.deepStrictEqual(ours, upstream);
    });
  }
});

describe('vtctld fixtures → readout records', () => {
  test('GetKeyspacesResponse → KeyspaceRecord[]', () => {
    const res = decoded<{ keyspaces: PbKeyspace[] }>('GetKeyspacesResponse');
    assert.deepEqual(res.keyspaces.map(toKeyspaceRecord), [
      {
        name: 'commerce',
        keyspaceType: 'NORMAL',
        baseKeyspace: '',
        durabilityPolicy: 'semi_sync',
        sidecarDbName: '_vt',
      },
      {
        name: 'customer',
        keyspaceType: 'NORMAL',
        baseKeyspace: '',
        durabilityPolicy: 'semi_sync',
        sidecarDbName: '_vt',
      },
    ]);
  });

  test('FindAllShardsInKeyspaceResponse → ShardRecord[] with hex key ranges and aliases', () => {
    const customer = decoded<{ shards: Record<string, PbShard> }>('FindAllShardsInKeyspaceResponse.customer');
    assert.deepEqual(customer.shards['-80'] && toShardRecord(customer.shards['-80']), {
      keyspace: 'customer',
      name: '-80',
      keyRange: { start: '', end: '80' },
      primaryAlias: 'zone1-0000000200',
      isPrimaryServing: true,
      tabletControls: [],
    });
    assert.deepEqual(customer.shards['80-'] && toShardRecord(customer.shards['80-']).keyRange, {
      start: '80',
      end: '',
    });
    const commerce = decoded<{ shards: Record<string, PbShard> }>('FindAllShardsInKeyspaceResponse.commerce');
    const zero = commerce.shards['0'];
    assert.ok(zero);
    assert.equal(toShardRecord(zero).keyRange, null, 'an unsharded shard has no key range');
    assert.equal(toShardRecord(zero).primaryAlias, 'zone1-0000000100');
  });

  test('GetTabletsResponse → TabletRecord[]', () => {
    const res = decoded<{ tablets: PbTablet[] }>('GetTabletsResponse');
    const tablets = res.tablets.map(toTabletRecord);
    assert.deepEqual(
      tablets.map((t) => [t.alias, t.keyspace, t.shard, t.type, t.mysqlPort]),
      [
        ['zone1-0000000100', 'commerce', '0', 'PRIMARY', 17100],
        ['zone1-0000000101', 'commerce', '0', 'REPLICA', 17101],
        ['zone1-0000000200', 'customer', '-80', 'PRIMARY', 17200],
        ['zone1-0000000201', 'customer', '-80', 'REPLICA', 17201],
        ['zone1-0000000300', 'customer', '80-', 'PRIMARY', 17300],
        ['zone1-0000000301', 'customer', '80-', 'REPLICA', 17301],
      ],
    );
    assert.deepEqual(tablets[2], {
      alias: 'zone1-0000000200',
      cell: 'zone1',
      uid: 200,
      hostname: 'localhost',
      keyspace: 'customer',
      shard: '-80',
      type: 'PRIMARY',
      dbNameOverride: '',
      mysqlHostname: '127.0.0.1',
      mysqlPort: 17200,
      portMap: { grpc: 16200, vt: 15200 },
    });
    // The JSON vtctldclient prints (Go encoding/json: numeric enums) agrees.
    const printed = readJson('GetTabletsResponse.json') as { type: number; mysql_port: number }[];
    assert.deepEqual(
      printed.map((t) => t.mysql_port),
      tablets.map((t) => t.mysqlPort),
    );
    assert.deepEqual(
      printed.map((t) => (t.type === 1 ? 'PRIMARY' : 'REPLICA')),
      tablets.map((t) => t.type),
    );
  });

  test('GetWorkflowsResponse → VtctldWorkflowRecord[]', () => {
    const res = decoded<{ workflows: PbWorkflow[] }>('GetWorkflowsResponse');
    assert.equal(res.workflows.length, 1);
    const w = toWorkflowRecord(res.workflows[0] as PbWorkflow);
    assert.deepEqual(
      { ...w, streams: undefined },
      {
        name: 'commerce2customer',
        sourceKeyspace: 'commerce',
        sourceShards: ['0'],
        targetKeyspace: 'customer',
        targetShards: ['-80', '80-'],
        workflowType: 'MoveTables',
        workflowSubType: 'None',
        maxVReplicationLag: 1,
        maxVReplicationTransactionLag: 1,
        streams: undefined,
      },
    );
    assert.deepEqual(w.streams, [
      {
        id: 1,
        shard: '-80',
        tablet: 'zone1-0000000200',
        sourceKeyspace: 'commerce',
        sourceShard: '0',
        position: '6f1e9a8c-3b2d-11ef-a5c1-0242ac120064:1-1234',
        stopPosition: '',
        state: 'Running',
        message: '',
        timeUpdated: 1767225601,
        transactionTimestamp: 1767225600,
        copyStateTables: [],
      },
      {
        id: 1,
        shard: '80-',
        tablet: 'zone1-0000000300',
        sourceKeyspace: 'commerce',
        sourceShard: '0',
        position: '6f1e9a8c-3b2d-11ef-a5c1-0242ac120064:1-1233',
        stopPosition: '',
        state: 'Running',
        message: '',
        timeUpdated: 1767225601,
        transactionTimestamp: 1767225600,
        copyStateTables: [],
      },
    ]);
  });

  test('GetVSchemaResponse → VSchemaRecord (owned lookup vindex, multi-column vindex)', () => {
    const res = decoded<{ v_schema: PbVSchema | null }>('GetVSchemaResponse');
    const v = toVSchemaRecord(res.v_schema);
    assert.equal(v.sharded, true);
    assert.deepEqual(v.vindexes['customer_email_idx'], {
      type: 'consistent_lookup',
      params: { from: 'email,customer_id', table: 'customer.customer_email_idx', to: 'keyspace_id' },
      owner: 'customer',
    });
    assert.deepEqual(v.tables['customer']?.columnVindexes, [
      { name: 'hash', columns: ['customer_id'] },
      { name: 'customer_email_idx', columns: ['email', 'customer_id'] },
    ]);
    assert.deepEqual(Object.keys(v.tables).sort(), ['corder', 'customer', 'customer_email_idx']);
  });

  test('GetRoutingRulesResponse / GetShardRoutingRulesResponse → rule records', () => {
    const rules = toRoutingRuleRecords(
      decoded<{ routing_rules: PbRoutingRules | null }>('GetRoutingRulesResponse').routing_rules,
    );
    assert.equal(rules.length, 12);
    assert.ok(
      rules.every((r) => r.toTables.length === 1 && r.toTables[0]?.startsWith('commerce.')),
      'nothing switched yet',
    );
    assert.deepEqual(
      rules.find((r) => r.fromTable === 'customer.customer@replica'),
      {
        fromTable: 'customer.customer@replica',
        toTables: ['commerce.customer'],
      },
    );
    const shardRules = decoded<{ shard_routing_rules: PbShardRoutingRules | null }>('GetShardRoutingRulesResponse');
    assert.notEqual(shardRules.shard_routing_rules, null, 'an empty message (0a 00) decodes as present');
    assert.deepEqual(toShardRoutingRuleRecords(shardRules.shard_routing_rules), []);
  });

  test('ExecuteFetchAsDBAResponse → FetchResult (NULL vs empty, raw bytes)', () => {
    const res = decoded<{ result: PbQueryResult | null }>('ExecuteFetchAsDBAResponse');
    const r = toFetchResult(res.result);
    assert.deepEqual(r.fields, ['id', 'workflow', 'source', 'pos', 'state', 'message']);
    assert.deepEqual(r.fieldTypes, ['INT32', 'VARBINARY', 'BLOB', 'VARBINARY', 'VARBINARY', 'VARBINARY']);
    // vtctldclient --json prints the same rows (numbers bare, NULL as null).
    const printed = readJson('ExecuteFetchAsDBAResponse.json') as { rows: (string | number | null)[][] };
    assert.deepEqual(
      r.rows,
      printed.rows.map((row) => row.map((c) => (c === null ? null : String(c)))),
    );
    assert.equal(r.rows[0]?.[5], '', 'empty message is not NULL');
    assert.equal(r.rows[1]?.[5], null, 'NULL message');
    assert.ok(r.rawRows[0]?.[3]?.equals(Buffer.from('MySQL56/6f1e9a8c-3b2d-11ef-a5c1-0242ac120064:1-1234')));
    assert.equal(r.rawRows[1]?.[5], null);
  });
});
