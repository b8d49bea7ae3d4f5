/**
 * A real gRPC server speaking `vtctlservice.Vtctld` (from `protos/`), serving a cluster described as plain
 * readout records. Tests, the end-to-end harness, the built-in demo and the benchmarks use it to play vtctld.
 *
 * It converts the records back to proto objects once per {@link FakeVtctld.setCluster} and indexes them, so
 * every call is linear in what it returns (1,024 shards and ~4,000 tablets stay fast). It behaves like Vitess
 * where vtpreflight can tell: NOT_FOUND for unknown keyspaces and tablets, static auth
 * (`go/vt/servenv/grpc_server_auth_static.go`: UNAUTHENTICATED without credentials, PERMISSION_DENIED with
 * wrong ones), TLS and mTLS. It records every call (RPC name and decoded request) so a test can assert
 * that vtpreflight only ever called read-only RPCs.
 */
import {
  Server,
  ServerCredentials,
  status,
  type Metadata,
  type ServerUnaryCall,
  type ServiceDefinition,
  type UntypedServiceImplementation,
  type sendUnaryData,
} from '@grpc/grpc-js';
import type {
  FullStatusRecord,
  KeyspaceRecord,
  KeyspaceRoutingRuleRecord,
  MirrorRuleRecord,
  RoutingRuleRecord,
  SrvVSchemaRecord,
  TabletBuildRecord,
  ShardRecord,
  ShardRoutingRuleRecord,
  TabletRecord,
  VSchemaRecord,
  VtctldWorkflowRecord,
} from '../readout.js';
import { vtctldServiceDefinition } from '../sources/protos.js';
import {
  formatTabletAlias,
  type PbFullStatus,
  type PbKeyspace,
  type PbRoutingRules,
  type PbShard,
  type PbShardRoutingRules,
  type PbShardStream,
  type PbSrvKeyspace,
  type PbTablet,
  type PbTabletAlias,
  type PbVSchema,
  type PbWorkflow,
  type SrvKeyspaceRecord,
} from '../sources/vtctld-records.js';
import {
  toPbFullStatus,
  toPbKeyRange,
  toPbKeyspace,
  toPbQueryResult,
  toPbRoutingRules,
  toPbShard,
  toPbShardRoutingRules,
  toPbTablet,
  toPbVSchema,
  toPbWorkflow,
  type FetchFieldInput,
} from './to-pb.js';

/** The cluster the fake vtctld serves, in readout record shapes. */
export interface FakeVtctldCluster {
  readonly keyspaces: readonly KeyspaceRecord[];
  readonly shards: readonly ShardRecord[];
  readonly tablets: readonly TabletRecord[];
  /** By keyspace name; a keyspace without an entry answers GetVSchema with NOT_FOUND, as Vitess does. */
  readonly vschemas: Readonly<Record<string, VSchemaRecord>>;
  readonly routingRules: readonly RoutingRuleRecord[];
  readonly shardRoutingRules: readonly ShardRoutingRuleRecord[];
  /** By tablet alias. `{ error }` makes GetFullStatus fail (UNAVAILABLE unless the text starts with a status name). */
  readonly fullStatus: Readonly<Record<string, FullStatusRecord | { readonly error: string }>>;
  /** By **target** keyspace. */
  readonly workflows?: Readonly<Record<string, readonly VtctldWorkflowRecord[]>>;
  /** By cell, then keyspace. When absent, derived from the shard records (every serving shard, every tablet type). */
  readonly srvKeyspaces?: Readonly<Record<string, Readonly<Record<string, SrvKeyspaceRecord>>>>;
  /**
   * RPC name → error text, to inject failures: `'UNAVAILABLE: topo is down'` answers with that status and
   * details; text without a leading status name answers UNKNOWN.
   */
  readonly failRpcs?: Readonly<Record<string, string>>;
  /**
   * RPCs this vtctld does not have, answered UNIMPLEMENTED as an older Vitess release does (e.g.
   * `['GetKeyspaceRoutingRules', 'GetMirrorRules']` for a v19 vtctld).
   */
  readonly unimplemented?: readonly string[];
  /**
   * GetVersion by tablet alias: the build facts, or `{ error }`. A tablet without an entry answers a build without a
   * time (`{sim vtpreflight 0 sim}`), so unconfigured clusters show one build and no version bound.
   */
  readonly builds?: Readonly<Record<string, TabletBuildRecord | { readonly error: string }>>;
  /**
   * By cell: what GetSrvVSchema answers; a cell of {@link cells} without an entry answers UNKNOWN, as Vitess does
   * for a cell whose SrvVSchema was never built. When absent, every cell has one, built from the vschemas and the
   * routing rules.
   */
  readonly srvVSchemas?: Readonly<Record<string, SrvVSchemaRecord>>;
  /** GetCellInfoNames (default: the cells of the tablets). */
  readonly cells?: readonly string[];
  /** GetKeyspaceRoutingRules (default none). */
  readonly keyspaceRoutingRules?: readonly KeyspaceRoutingRuleRecord[];
  /** GetMirrorRules (default none). */
  readonly mirrorRules?: readonly MirrorRuleRecord[];
}

/** A result the `executeFetchAsDBA` hook returns: columns and rows (strings are UTF-8, `null` is SQL NULL). */
export interface FakeFetchResult {
  readonly fields: readonly FetchFieldInput[];
  readonly rows: readonly (readonly (string | Buffer | null)[])[];
}

/** Options of {@link startFakeVtctld}. */
export interface FakeVtctldOptions {
  /** Default `127.0.0.1`. */
  readonly host?: string;
  /** Default 0: a free port. */
  readonly port?: number;
  /** Serve TLS; with `requireClientCert` (needs `ca`), mTLS. PEM contents. */
  readonly tls?: {
    readonly key: Buffer | string;
    readonly cert: Buffer | string;
    readonly ca?: Buffer | string;
    readonly requireClientCert?: boolean;
  };
  /** Require Vitess static auth metadata on every call. */
  readonly auth?: { readonly username: string; readonly password: string };
  /** Delay before every answer, to model a network (default 0). */
  readonly latencyMs?: number;
  /** Extra random delay in [0, jitterMs) (default 0). */
  readonly jitterMs?: number;
  /**
   * Answers ExecuteFetchAsDBA for an existing tablet. A thrown Error answers UNKNOWN with its message (or the
   * status named by its `code` property). Without a hook, ExecuteFetchAsDBA answers UNIMPLEMENTED.
   */
  readonly executeFetchAsDBA?: (alias: string, query: string) => Promise<FakeFetchResult> | FakeFetchResult;
  /** Record calls in {@link FakeVtctld.calls} (default true; benchmarks may turn it off). */
  readonly recordCalls?: boolean;
}

/** One call the fake vtctld received: the RPC name and the request as decoded with our protos. */
export interface FakeVtctldCall {
  readonly rpc: string;
  readonly request: unknown;
}

/** A running fake vtctld. */
export interface FakeVtctld {
  /** `host:port` to give the client. */
  readonly address: string;
  readonly port: number;
  /** Every call received, in arrival order (including rejected ones). */
  readonly calls: FakeVtctldCall[];
  /** Replaces the served cluster (takes effect for the next call). */
  setCluster(cluster: FakeVtctldCluster): void;
  /** Changes the simulated latency. */
  setLatency(latencyMs: number, jitterMs?: number): void;
  /** Stops serving: pending delayed answers are dropped, connections closed. */
  stop(): Promise<void>;
}

class RpcFailure extends Error {
  constructor(
    readonly code: number,
    readonly details: string,
  ) {
    super(details);
  }
}

const notFound = (path: string): RpcFailure => new RpcFailure(status.NOT_FOUND, `node doesn't exist: ${path}`);

/** `'UNAVAILABLE: text'` → that status and text; other text → UNKNOWN. */
function parseInjected(text: string, fallback: number): RpcFailure {
  const m = /^([A-Z_]+):\s*(.*)$/s.exec(text);
  const code = m === null ? undefined : (status as unknown as Record<string, number>)[m[1] as string];
  return code === undefined || m === null ? new RpcFailure(fallback, text) : new RpcFailure(code, m[2] as string);
}

interface TabletEntry {
  readonly record: TabletRecord;
  readonly pb: PbTablet;
}

interface ClusterIndex {
  readonly keyspaces: readonly PbKeyspace[];
  readonly keyspaceByName: ReadonlyMap<string, PbKeyspace>;
  /** keyspace → shard name → shard. */
  readonly shards: ReadonlyMap<string, ReadonlyMap<string, PbShard>>;
  readonly shardRecords: ReadonlyMap<string, ShardRecord>;
  /** All tablets, sorted by alias. */
  readonly tablets: readonly TabletEntry[];
  readonly tabletByAlias: ReadonlyMap<string, TabletEntry>;
  readonly tabletsByKeyspace: ReadonlyMap<string, readonly TabletEntry[]>;
  readonly tabletsByShard: ReadonlyMap<string, readonly TabletEntry[]>;
  readonly vschemas: ReadonlyMap<string, PbVSchema>;
  readonly routingRules: PbRoutingRules;
  readonly shardRoutingRules: PbShardRoutingRules;
  readonly fullStatus: ReadonlyMap<string, PbFullStatus | RpcFailure>;
  readonly workflows: ReadonlyMap<string, readonly PbWorkflow[]>;
  /** Per workflow: target shard → its `shard_streams` entries, so a `shards` filter costs only what it returns. */
  readonly workflowShards: ReadonlyMap<PbWorkflow, ReadonlyMap<string, readonly (readonly [string, PbShardStream])[]>>;
  /** keyspace → cell → SrvKeyspace. */
  readonly srvKeyspaces: ReadonlyMap<string, ReadonlyMap<string, PbSrvKeyspace>>;
  readonly failRpcs: ReadonlyMap<string, RpcFailure>;
  readonly cells: readonly string[];
  /** cell → SrvVSchema (absent cell: UNKNOWN `node doesn't exist: …`, as vtctld answers). */
  readonly srvVSchemas: ReadonlyMap<string, object>;
  readonly keyspaceRoutingRules: object;
  readonly mirrorRules: object;
  readonly builds: ReadonlyMap<string, string | RpcFailure>;
}

const shardKey = (keyspace: string, shard: string): string => `${keyspace}/${shard}`;

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list === undefined) map.set(key, [value]);
  else list.push(value);
}

function deriveSrvKeyspace(shards: readonly ShardRecord[]): PbSrvKeyspace {
  const serving = shards.filter((s) => s.isPrimaryServing);
  return {
    partitions: ['PRIMARY', 'REPLICA', 'RDONLY'].map((servedType) => ({
      served_type: servedType,
      shard_references: serving.map((s) => ({ name: s.name, key_range: toPbKeyRange(s.keyRange) })),
      shard_tablet_controls: [],
    })),
  };
}

function toPbSrvKeyspace(rec: SrvKeyspaceRecord): PbSrvKeyspace {
  return {
    partitions: rec.partitions.map((p) => ({
      served_type: p.servedType,
      shard_references: p.shards.map((s) => ({ name: s.name, key_range: toPbKeyRange(s.keyRange) })),
      shard_tablet_controls: p.shardTabletControls.map((c) => ({
        name: c.name,
        key_range: toPbKeyRange(c.keyRange),
        query_service_disabled: c.queryServiceDisabled,
      })),
    })),
  };
}

const byName = (a: { name: string }, b: { name: string }): number => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

function buildIndex(c: FakeVtctldCluster): ClusterIndex {
  const keyspaces = c.keyspaces.map(toPbKeyspace);
  const keyspaceByName = new Map(keyspaces.map((k) => [k.name, k]));

  const shards = new Map<string, Map<string, PbShard>>();
  const shardRecords = new Map<string, ShardRecord>();
  const shardRecordsByKeyspace = new Map<string, ShardRecord[]>();
  for (const s of c.shards) {
    let m = shards.get(s.keyspace);
    if (m === undefined) shards.set(s.keyspace, (m = new Map()));
    m.set(s.name, toPbShard(s));
    shardRecords.set(shardKey(s.keyspace, s.name), s);
    push(shardRecordsByKeyspace, s.keyspace, s);
  }

  const tablets = c.tablets
    .map((record) => ({
      record,
      pb: toPbTablet(record, shardRecords.get(shardKey(record.keyspace, record.shard))?.keyRange ?? null),
    }))
    .sort((a, b) =>
      a.record.cell < b.record.cell ? -1 : a.record.cell > b.record.cell ? 1 : a.record.uid - b.record.uid,
    );
  const tabletByAlias = new Map<string, TabletEntry>();
  const tabletsByKeyspace = new Map<string, TabletEntry[]>();
  const tabletsByShard = new Map<string, TabletEntry[]>();
  const cellsByKeyspace = new Map<string, Set<string>>();
  for (const t of tablets) {
    tabletByAlias.set(formatTabletAlias({ cell: t.record.cell, uid: t.record.uid }), t);
    push(tabletsByKeyspace, t.record.keyspace, t);
    push(tabletsByShard, shardKey(t.record.keyspace, t.record.shard), t);
    let cells = cellsByKeyspace.get(t.record.keyspace);
    if (cells === undefined) cellsByKeyspace.set(t.record.keyspace, (cells = new Set()));
    cells.add(t.record.cell);
  }

  const vschemas = new Map(Object.entries(c.vschemas).map(([ks, v]) => [ks, toPbVSchema(v)]));

  const fullStatus = new Map<string, PbFullStatus | RpcFailure>();
  for (const [alias, fs] of Object.entries(c.fullStatus)) {
    fullStatus.set(alias, 'error' in fs ? parseInjected(fs.error, status.UNAVAILABLE) : toPbFullStatus(fs));
  }

  const workflows = new Map<string, PbWorkflow[]>();
  for (const [keyspace, list] of Object.entries(c.workflows ?? {})) {
    workflows.set(
      keyspace,
      [...list].sort(byName).map((w) =>
        toPbWorkflow(w, (shard) => {
          const s = shardRecords.get(shardKey(w.targetKeyspace, shard));
          const primary =
            s?.primaryAlias === null || s === undefined ? undefined : tabletByAlias.get(s.primaryAlias)?.record;
          return {
            tabletControls: s?.tabletControls ?? [],
            isPrimaryServing: s?.isPrimaryServing ?? true,
            dbName:
              primary !== undefined && primary.dbNameOverride !== ''
                ? primary.dbNameOverride
                : `vt_${w.targetKeyspace}`,
          };
        }),
      ),
    );
  }

  const workflowShards = new Map<PbWorkflow, Map<string, (readonly [string, PbShardStream])[]>>();
  for (const list of workflows.values()) {
    for (const w of list) {
      const byShard = new Map<string, (readonly [string, PbShardStream])[]>();
      for (const [key, ss] of Object.entries(w.shard_streams))
        push(byShard, key.slice(0, key.indexOf('/')), [key, ss] as const);
      workflowShards.set(w, byShard);
    }
  }

  const srvKeyspaces = new Map<string, Map<string, PbSrvKeyspace>>();
  if (c.srvKeyspaces !== undefined) {
    for (const [cell, byKeyspace] of Object.entries(c.srvKeyspaces)) {
      for (const [ks, rec] of Object.entries(byKeyspace)) {
        let m = srvKeyspaces.get(ks);
        if (m === undefined) srvKeyspaces.set(ks, (m = new Map()));
        m.set(cell, toPbSrvKeyspace(rec));
      }
    }
  } else {
    for (const ks of keyspaceByName.keys()) {
      const derived = deriveSrvKeyspace([...(shardRecordsByKeyspace.get(ks) ?? [])].sort(byName));
      srvKeyspaces.set(ks, new Map([...(cellsByKeyspace.get(ks) ?? [])].sort().map((cell) => [cell, derived])));
    }
  }

  const failRpcs = new Map(
    Object.entries(c.failRpcs ?? {}).map(([rpc, text]) => [rpc, parseInjected(text, status.UNKNOWN)]),
  );
  for (const rpc of c.unimplemented ?? [])
    failRpcs.set(rpc, new RpcFailure(status.UNIMPLEMENTED, `unknown method ${rpc} for service vtctlservice.Vtctld`));

  const cells = [...(c.cells ?? new Set(c.tablets.map((t) => t.cell)))].sort();
  const pbKeyspaceRoutingRules = {
    rules: (c.keyspaceRoutingRules ?? []).map((r) => ({ from_keyspace: r.fromKeyspace, to_keyspace: r.toKeyspace })),
  };
  const srvVSchemas = new Map<string, object>();
  const toPbSrvVSchema = (rec: SrvVSchemaRecord): object => ({
    keyspaces: Object.fromEntries(
      rec.keyspaces.map((ks) => [ks, vschemas.get(ks) ?? { sharded: false, vindexes: {}, tables: {} }]),
    ),
    routing_rules: toPbRoutingRules(rec.routingRules),
    keyspace_routing_rules: {
      rules: rec.keyspaceRoutingRules.map((r) => ({ from_keyspace: r.fromKeyspace, to_keyspace: r.toKeyspace })),
    },
  });
  if (c.srvVSchemas !== undefined) {
    for (const [cell, rec] of Object.entries(c.srvVSchemas)) srvVSchemas.set(cell, toPbSrvVSchema(rec));
  } else {
    const rollUp: SrvVSchemaRecord = {
      keyspaces: [...vschemas.keys()].sort(),
      routingRules: c.routingRules,
      keyspaceRoutingRules: c.keyspaceRoutingRules ?? [],
    };
    for (const cell of cells) srvVSchemas.set(cell, toPbSrvVSchema(rollUp));
  }
  // vtctld prints Go's %v of {BuildHost BuildUser BuildTimestamp BuildGitRev} (grpcvtctldserver/server.go).
  const builds = new Map<string, string | RpcFailure>();
  for (const [alias, b] of Object.entries(c.builds ?? {}))
    builds.set(
      alias,
      'error' in b ? parseInjected(b.error, status.UNKNOWN) : `{sim vtpreflight ${b.buildTimestamp} ${b.gitRev}}`,
    );

  return {
    keyspaces,
    keyspaceByName,
    shards,
    shardRecords,
    tablets,
    tabletByAlias,
    tabletsByKeyspace,
    tabletsByShard,
    vschemas,
    routingRules: toPbRoutingRules(c.routingRules),
    shardRoutingRules: toPbShardRoutingRules(c.shardRoutingRules),
    fullStatus,
    workflows,
    workflowShards,
    srvKeyspaces,
    failRpcs,
    cells,
    srvVSchemas,
    keyspaceRoutingRules: pbKeyspaceRoutingRules,
    mirrorRules: {
      rules: (c.mirrorRules ?? []).map((r) => ({ from_table: r.fromTable, to_table: r.toTable, percent: r.percent })),
    },
    builds,
  };
}

const aliasText = (a: PbTabletAlias | null | undefined): string =>
  a === null || a === undefined ? '' : formatTabletAlias(a);

function tabletOrThrow(ix: ClusterIndex, alias: PbTabletAlias | null | undefined): TabletEntry {
  const text = aliasText(alias);
  const t = ix.tabletByAlias.get(text);
  if (t === undefined) throw notFound(`tablets/${text}/Tablet`);
  return t;
}

type Handler = (request: Record<string, unknown>, ix: ClusterIndex) => Promise<object> | object;

/** The RPC implementations, over an index. Requests arrive decoded with our protos (defaults filled in). */
function handlers(opts: FakeVtctldOptions): Record<string, Handler> {
  return {
    GetKeyspaces: (_req, ix) => ({ keyspaces: ix.keyspaces }),

    GetKeyspace: (req, ix) => {
      const ks = ix.keyspaceByName.get(req.keyspace as string);
      if (ks === undefined) throw notFound(`keyspaces/${req.keyspace as string}/Keyspace`);
      return { keyspace: ks };
    },

    FindAllShardsInKeyspace: (req, ix) => {
      const name = req.keyspace as string;
      if (!ix.keyspaceByName.has(name)) throw notFound(`keyspaces/${name}/shards`);
      return { shards: Object.fromEntries(ix.shards.get(name) ?? []) };
    },

    GetTablets: (req, ix) => {
      const keyspace = req.keyspace as string;
      const shard = req.shard as string;
      const cells = req.cells as string[];
      const tabletType = req.tablet_type as string;
      const aliases = req.tablet_aliases as PbTabletAlias[];
      let list: readonly TabletEntry[];
      if (aliases.length > 0) {
        list = aliases.map((a) => tabletOrThrow(ix, a));
      } else if (keyspace !== '' && shard !== '') {
        if (!ix.shardRecords.has(shardKey(keyspace, shard)))
          throw notFound(`keyspaces/${keyspace}/shards/${shard}/Shard`);
        list = ix.tabletsByShard.get(shardKey(keyspace, shard)) ?? [];
      } else if (keyspace !== '') {
        list = ix.tabletsByKeyspace.get(keyspace) ?? [];
      } else {
        list = ix.tablets;
      }
      const cellSet = aliases.length === 0 && cells.length > 0 ? new Set(cells) : null;
      const typed = tabletType !== 'UNKNOWN' && tabletType !== '';
      return {
        tablets: list
          .filter((t) => (cellSet === null || cellSet.has(t.record.cell)) && (!typed || t.record.type === tabletType))
          .map((t) => t.pb),
      };
    },

    GetVSchema: (req, ix) => {
      const name = req.keyspace as string;
      const v = ix.vschemas.get(name);
      if (v === undefined) throw notFound(`keyspaces/${name}/VSchema`);
      return { v_schema: v };
    },

    GetRoutingRules: (_req, ix) => ({ routing_rules: ix.routingRules }),

    GetShardRoutingRules: (_req, ix) => ({ shard_routing_rules: ix.shardRoutingRules }),

    GetWorkflows: (req, ix) => {
      const keyspace = req.keyspace as string;
      if (!ix.keyspaceByName.has(keyspace)) throw notFound(`keyspaces/${keyspace}/shards`);
      const name = req.workflow as string;
      const shards = req.shards as string[];
      const shardSet = shards.length > 0 ? new Set(shards) : null;
      const activeOnly = req.active_only as boolean;
      const out: object[] = [];
      for (const w of ix.workflows.get(keyspace) ?? []) {
        if (name !== '' && w.name !== name) continue;
        if (req.name_only as boolean) {
          out.push({ name: w.name });
          continue;
        }
        if (shardSet === null && !activeOnly) {
          out.push(w);
          continue;
        }
        const entries =
          shardSet === null
            ? Object.entries(w.shard_streams)
            : [...shardSet].flatMap((shard) => ix.workflowShards.get(w)?.get(shard) ?? []);
        const shardStreams: Record<string, object> = {};
        for (const [key, ss] of entries) {
          const streams = activeOnly ? ss.streams.filter((s) => s.state !== 'Stopped') : ss.streams;
          if (streams.length > 0) shardStreams[key] = { ...ss, streams };
        }
        if (Object.keys(shardStreams).length > 0) out.push({ ...w, shard_streams: shardStreams });
      }
      return { workflows: out };
    },

    GetFullStatus: (req, ix) => {
      const t = tabletOrThrow(ix, req.tablet_alias as PbTabletAlias | null);
      const alias = formatTabletAlias({ cell: t.record.cell, uid: t.record.uid });
      const fs = ix.fullStatus.get(alias);
      if (fs === undefined) throw new RpcFailure(status.UNAVAILABLE, `tablet ${alias} did not answer FullStatus`);
      if (fs instanceof RpcFailure) throw fs;
      return { status: fs };
    },

    GetSrvKeyspaces: (req, ix) => {
      const keyspace = req.keyspace as string;
      const byCell = ix.srvKeyspaces.get(keyspace);
      if (byCell === undefined && !ix.keyspaceByName.has(keyspace)) throw notFound(`keyspaces/${keyspace}/Keyspace`);
      const cells = req.cells as string[];
      const out: Record<string, PbSrvKeyspace> = {};
      for (const [cell, sk] of byCell ?? []) if (cells.length === 0 || cells.includes(cell)) out[cell] = sk;
      return { srv_keyspaces: out };
    },

    GetVersion: (req, ix) => {
      const t = tabletOrThrow(ix, req.tablet_alias as PbTabletAlias | null);
      const b = ix.builds.get(formatTabletAlias({ cell: t.record.cell, uid: t.record.uid }));
      if (b instanceof RpcFailure) throw b;
      return { version: b ?? '{sim vtpreflight 0 sim}' };
    },

    GetCellInfoNames: (_req, ix) => ({ names: ix.cells }),

    GetSrvVSchema: (req, ix) => {
      const cell = req.cell as string;
      const v = ix.srvVSchemas.get(cell);
      // vtctld returns the topo's NoNode error as is: grpc-go sends it as UNKNOWN (grpcvtctldserver/server.go:2195-2197
      // @v0.24.4; a topo.Error has no gRPC status).
      if (v === undefined) throw new RpcFailure(status.UNKNOWN, `node doesn't exist: ${cell}/SrvVSchema`);
      return { srv_v_schema: v };
    },

    GetKeyspaceRoutingRules: (_req, ix) => ({ keyspace_routing_rules: ix.keyspaceRoutingRules }),

    GetMirrorRules: (_req, ix) => ({ mirror_rules: ix.mirrorRules }),

    ExecuteMultiFetchAsDBA: async (req, ix) => {
      const t = tabletOrThrow(ix, req.tablet_alias as PbTabletAlias | null);
      if (opts.executeFetchAsDBA === undefined) {
        throw new RpcFailure(status.UNIMPLEMENTED, 'ExecuteMultiFetchAsDBA is not configured on this fake vtctld');
      }
      const alias = formatTabletAlias({ cell: t.record.cell, uid: t.record.uid });
      const results: object[] = [];
      for (const statement of splitStatements(req.sql as string)) {
        let result: FakeFetchResult;
        try {
          result = await opts.executeFetchAsDBA(alias, statement);
        } catch (err) {
          throw fetchFailure(err);
        }
        results.push(toPbQueryResult(result.fields, result.rows));
      }
      return { results };
    },

    ExecuteFetchAsDBA: async (req, ix) => {
      const t = tabletOrThrow(ix, req.tablet_alias as PbTabletAlias | null);
      if (opts.executeFetchAsDBA === undefined) {
        throw new RpcFailure(status.UNIMPLEMENTED, 'ExecuteFetchAsDBA is not configured on this fake vtctld');
      }
      const alias = formatTabletAlias({ cell: t.record.cell, uid: t.record.uid });
      let result: FakeFetchResult;
      try {
        result = await opts.executeFetchAsDBA(alias, req.query as string);
      } catch (err) {
        throw fetchFailure(err);
      }
      return { result: toPbQueryResult(result.fields, result.rows) };
    },
  };
}

/**
 * The gRPC failure of an ExecuteFetchAsDBA hook's error: a gRPC code it names (`code: 'NOT_FOUND'` or a number), else
 * UNKNOWN; a MySQL error (a mysql2 error's `errno` and `sqlState`) in Vitess's words, `<message> (errno <n>) (sqlstate
 * <s>)` (`vitessio/vitess:go/mysql/sqlerror/sql_error.go:58-62` @0147a052 `SQLError.Error`).
 */
function fetchFailure(err: unknown): RpcFailure {
  const e = err as { code?: unknown; message?: string; sqlMessage?: unknown; errno?: unknown; sqlState?: unknown };
  const named = typeof e.code === 'string' ? (status as unknown as Record<string, number>)[e.code] : undefined;
  const code = typeof e.code === 'number' ? e.code : (named ?? status.UNKNOWN);
  const text = typeof e.sqlMessage === 'string' ? e.sqlMessage : (e.message ?? '');
  const sql =
    typeof e.errno === 'number' && e.errno > 0 && typeof e.sqlState === 'string'
      ? `${text} (errno ${e.errno}) (sqlstate ${e.sqlState})`
      : undefined;
  return new RpcFailure(code, sql ?? e.message ?? String(err));
}

/** Splits `;`-separated SQL outside quotes and comments (what vtctld's parser does for ExecuteMultiFetchAsDBA). */
export function splitStatements(sql: string): string[] {
  const out: string[] = [];
  let start = 0;
  let quote: string | null = null;
  for (let i = 0; i < sql.length; i++) {
    const ch = sql[i]!;
    if (quote !== null) {
      if (ch === '\\') i++;
      else if (ch === quote) quote = null;
    } else if (ch === "'" || ch === '"' || ch === '`') quote = ch;
    else if (ch === '/' && sql[i + 1] === '*') {
      const end = sql.indexOf('*/', i + 2);
      i = end < 0 ? sql.length : end + 1;
    } else if (ch === ';') {
      if (sql.slice(start, i).trim() !== '') out.push(sql.slice(start, i).trim());
      start = i + 1;
    }
  }
  if (sql.slice(start).trim() !== '') out.push(sql.slice(start).trim());
  return out;
}

function checkAuth(md: Metadata, auth: FakeVtctldOptions['auth']): RpcFailure | null {
  if (auth === undefined) return null;
  const username = md.get('username')[0];
  const password = md.get('password')[0];
  if (username === undefined || password === undefined || username === '' || password === '') {
    return new RpcFailure(status.UNAUTHENTICATED, 'username and password must be provided');
  }
  if (String(username) !== auth.username || String(password) !== auth.password) {
    return new RpcFailure(
      status.PERMISSION_DENIED,
      `auth failure: caller "${String(username)}" provided invalid credentials`,
    );
  }
  return null;
}

const formatHostPort = (host: string, port: number): string =>
  host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;

/**
 * Starts a fake vtctld on `host:port` (default a free loopback port) serving `cluster`.
 * Resolves once it listens; stop it with {@link FakeVtctld.stop}.
 */
export async function startFakeVtctld(cluster: FakeVtctldCluster, opts: FakeVtctldOptions = {}): Promise<FakeVtctld> {
  let index = buildIndex(cluster);
  let latencyMs = opts.latencyMs ?? 0;
  let jitterMs = opts.jitterMs ?? 0;
  const record = opts.recordCalls ?? true;
  const calls: FakeVtctldCall[] = [];
  const timers = new Set<NodeJS.Timeout>();
  let stopped = false;
  const impl = handlers(opts);

  const delay = (): Promise<void> => {
    const ms = latencyMs + (jitterMs > 0 ? Math.random() * jitterMs : 0);
    if (ms <= 0) return Promise.resolve();
    return new Promise((resolve) => {
      const t = setTimeout(() => {
        timers.delete(t);
        resolve();
      }, ms);
      timers.add(t);
    });
  };

  // Answers are deterministic for a given cluster, so encoded responses are cached per request until the next
  // setCluster: repeated runs (benchmarks, --wait) then cost a copy, not a protobuf encode.
  const base = vtctldServiceDefinition();
  const service: ServiceDefinition = Object.fromEntries(
    Object.entries(base).map(([rpc, m]) => [
      rpc,
      { ...m, responseSerialize: (v: unknown) => (Buffer.isBuffer(v) ? v : m.responseSerialize(v)) },
    ]),
  );
  // Replaced (never cleared in place) by setCluster, so an answer computed from the old cluster lands in the old map.
  let cache = new Map<string, Buffer>();
  const cached = (rpc: string, request: unknown, produce: () => Promise<object>): Promise<object> => {
    if (rpc === 'ExecuteFetchAsDBA' || rpc === 'ExecuteMultiFetchAsDBA') return produce();
    const key = `${rpc} ${JSON.stringify(request)}`;
    const generation = cache;
    const hit = generation.get(key);
    if (hit !== undefined) return Promise.resolve(hit);
    return produce().then((value) => {
      const bytes = (base[rpc] as ServiceDefinition[string]).responseSerialize(value);
      if (generation.size >= 20_000) generation.clear();
      generation.set(key, bytes);
      return bytes;
    });
  };
  const implementation: UntypedServiceImplementation = {};
  for (const rpc of Object.keys(service)) {
    const handler = impl[rpc];
    implementation[rpc] = (call: ServerUnaryCall<Record<string, unknown>, object>, callback: sendUnaryData<object>) => {
      if (record) calls.push({ rpc, request: call.request });
      const ix = index;
      const answer = async (): Promise<object> => {
        const authFailure = checkAuth(call.metadata, opts.auth);
        if (authFailure !== null) throw authFailure;
        const injected = ix.failRpcs.get(rpc);
        if (injected !== undefined) throw injected;
        if (handler === undefined)
          throw new RpcFailure(status.UNIMPLEMENTED, `${rpc} is not implemented by the fake vtctld`);
        return cached(rpc, call.request, async () => handler(call.request, ix));
      };
      void (async () => {
        let result: object | undefined;
        let failure: RpcFailure | undefined;
        try {
          result = await answer();
        } catch (err) {
          failure = err instanceof RpcFailure ? err : new RpcFailure(status.INTERNAL, (err as Error).message);
        }
        await delay();
        if (stopped) return;
        if (failure !== undefined) {
          callback(Object.assign(new Error(failure.details), { code: failure.code, details: failure.details }), null);
        } else {
          callback(null, result);
        }
      })();
    };
  }

  const server = new Server({ 'grpc.max_send_message_length': -1, 'grpc.max_receive_message_length': -1 });
  server.addService(service, implementation);
  const creds =
    opts.tls === undefined
      ? ServerCredentials.createInsecure()
      : ServerCredentials.createSsl(
          opts.tls.ca === undefined ? null : Buffer.from(opts.tls.ca),
          [{ private_key: Buffer.from(opts.tls.key), cert_chain: Buffer.from(opts.tls.cert) }],
          opts.tls.requireClientCert ?? false,
        );
  const host = opts.host ?? '127.0.0.1';
  const port = await new Promise<number>((resolve, reject) => {
    server.bindAsync(formatHostPort(host, opts.port ?? 0), creds, (err, p) =>
      err !== null ? reject(err) : resolve(p),
    );
  });

  return {
    address: formatHostPort(host, port),
    port,
    calls,
    setCluster(c) {
      index = buildIndex(c);
      cache = new Map();
    },
    setLatency(ms, jitter = 0) {
      latencyMs = ms;
      jitterMs = jitter;
    },
    stop() {
      stopped = true;
      for (const t of timers) clearTimeout(t);
      timers.clear();
      return new Promise<void>((resolve) => {
        const force = setTimeout(() => {
          server.forceShutdown();
          resolve();
        }, 500);
        server.tryShutdown(() => {
          clearTimeout(force);
          resolve();
        });
      });
    },
  };
}
