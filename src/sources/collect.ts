/**
 * Collection: all of vtpreflight's I/O, in one parallel wave per dependency level, bounded by `--concurrency`,
 * with a deadline on every call. Failures are recorded in the readout (what, where, why); only an unreachable
 * vtctld stops the run (CollectError → exit 2).
 *
 * Waves: (1) GetKeyspaces, GetTablets, routing rules → (2) per keyspace FindAllShardsInKeyspace, GetVSchema →
 * (3) per in-scope primary the sidecar reads (one MySQL login and one multi-statement query, or vtctld
 * ExecuteFetchAsDBA
 * with `--via vtctld`), each followed
 * at once by (4) GetFullStatus of every tablet of the shards it makes participating (its own shard when it holds
 * streams or could not be read, and the source shards its streams read), which is also how we learn which tablets
 * answer at all. Nothing waits on a whole level
 * after wave 2, and nothing depends on one response holding every shard: GetWorkflows (Vitess's own view, one
 * all-or-nothing answer per keyspace) is read only when a sidecar schema lacks `workflow_type`, in chunks of shards.
 */
import { UNIT_READ_IDS } from '../reads/units/index.js';
import { CollectError } from '../errors.js';
import { oneLine } from '../text.js';
import { probeVtctld } from './vtctld-probe.js';
import {
  READOUT_VERSION,
  type FullStatusRecord,
  type KeyspaceRecord,
  type KeyspaceRoutingRuleRecord,
  type MirrorRuleRecord,
  type Read,
  type ReadError,
  type ReadErrorKind,
  type Readout,
  type ShardRecord,
  type SrvKeyspaceRecord,
  type SrvVSchemaRecord,
  type TabletBuildRecord,
  type TabletRecord,
  type TabletSidecarRead,
  type VSchemaRecord,
  type VtctldWorkflowRecord,
} from '../readout.js';
import { VERSION } from '../version.js';
import { missingTopoNode } from './read-kind.js';
import { createHostGate, createLimiter, type HostGate } from './limit.js';
import { isConnectionLimitRefusal, readSidecar, type MysqlConnectOptions } from './mysql.js';
import {
  failedSidecarRead,
  readFilteredUserGrantsWith,
  sidecarWhere,
  formatSql,
  readSidecarWith,
  type ReadSidecarOptions,
  type SqlExecutor,
  type SqlResult,
} from './sidecar.js';
import {
  createVtctldClient,
  isVtctldUnimplemented,
  isVtctldUnreachable,
  unreachableMessage,
  VtctldError,
  type VtctldClient,
  type VtctldClientOptions,
} from './vtctld.js';
import { parseBinlogSource } from '../vitess/binlog-source.js';
import { byCodeUnit } from '../text.js';
import { compareShardNames } from '../vitess/keyrange.js';

export interface CollectOptions {
  readonly vtctld: VtctldClientOptions;
  readonly keyspaces: readonly string[];
  readonly workflows: readonly string[];
  readonly concurrency: number;
  readonly timeoutMs: number;
  /**
   * Bound of the whole collection (`--deadline`), in milliseconds: no call outlasts it, and what was not read by then
   * is
   * recorded as not read (timed out), so the report says what is missing. Absent: unbounded.
   */
  readonly deadlineMs?: number;
  readonly via: 'mysql' | 'vtctld';
  readonly mysql: Omit<MysqlConnectOptions, 'host' | 'port' | 'timeoutMs'>;
  /**
   * `check --action create --tables …`: the tables whose emptiness MoveTables create validates, probed on every
   * primary of `keyspace` (the target) in its one batch. Absent: no probe.
   */
  readonly probeTables?: { readonly keyspace: string; readonly tables: readonly string[] };
  /** The tablets' `--db_filtered_user`, whose grants each primary's batch reads (default `vt_filtered`). */
  readonly filteredUser?: string;
  /**
   * `--grants-via-vtctld` (with `--via mysql`): the filtered user's grant rows are read through vtctld's
   * ExecuteFetchAsDBA (the tablet's DBA user) instead of the MySQL user, which then needs no grant on `mysql.*`.
   */
  readonly grantsViaVtctld?: boolean;
  /**
   * Newest `vreplication_log` rows read per stream (default: the reader's, 20). `check` and `sweep` ask for 1: no
   * check reads a log row (only whether the log could be read), and at 65,536 streams the 262,144 rows of the default
   * were about a tenth of the run's CPU. A snapshot keeps the default.
   */
  readonly logRowsPerStream?: number;
  /** Progress callback: a phase name and counts; the progress adapter renders it. */
  readonly onProgress?: (e: ProgressEvent) => void;
  /** Clock, injectable for tests. */
  readonly now?: () => Date;
}

export interface ProgressEvent {
  readonly phase: 'topology' | 'shards' | 'sidecars' | 'status';
  readonly done: number;
  readonly total: number;
}

const ok = <T>(value: T): Read<T> => ({ ok: true, value });

/** Collects a readout from a live cluster. Throws CollectError only when vtctld itself cannot be reached. */
export async function collect(opts: CollectOptions): Promise<Readout> {
  const capturedAt = (opts.now ?? (() => new Date()))().toISOString();
  const deadlineAt = opts.deadlineMs === undefined ? Number.POSITIVE_INFINITY : Date.now() + opts.deadlineMs;
  const client = createVtctldClient({ ...opts.vtctld, timeoutMs: opts.timeoutMs, deadlineAt });
  const limit = createLimiter(opts.concurrency);
  const hosts = createHostGate();
  const where = `vtctld ${opts.vtctld.address}`;
  const progress = opts.onProgress ?? (() => {});
  try {
    const vtctldErrors = new Map<string, VtctldError>();
    const asRead = async <T>(what: string, fn: () => Promise<T>): Promise<Read<T>> => {
      try {
        return ok(await limit(fn));
      } catch (e) {
        if (e instanceof VtctldError) vtctldErrors.set(what, e);
        return { ok: false, error: toReadError(what, where, e, deadlineAt) };
      }
    };

    // Optional RPCs (older supported releases lack them): what vtctld answered, for the readout's `rpcs` (version
    // inference) and so that an UNIMPLEMENTED answer is recorded as "not available on this vtctld", never as a failure.
    const rpcs: Record<string, boolean> = {};
    const optional = async <T>(what: string, rpc: string, fn: () => Promise<T>): Promise<Read<T>> => {
      const r = await asRead(what, fn);
      if (r.ok) rpcs[rpc] ??= true;
      else if (r.error.unavailable === true) rpcs[rpc] = false;
      return r;
    };

    // Wave 1.
    const wave1At = performance.now();
    progress({ phase: 'topology', done: 0, total: 4 });
    const [keyspaces, tablets, routingRules, shardRoutingRules, keyspaceRoutingRules, cells, mirrorRules] =
      await Promise.all([
        asRead<readonly KeyspaceRecord[]>('GetKeyspaces', () => client.getKeyspaces()),
        asRead<readonly TabletRecord[]>('GetTablets', () => client.getTablets()),
        asRead('GetRoutingRules', () => client.getRoutingRules()),
        asRead('GetShardRoutingRules', () => client.getShardRoutingRules()),
        optional<readonly KeyspaceRoutingRuleRecord[]>('GetKeyspaceRoutingRules', 'GetKeyspaceRoutingRules', () =>
          client.getKeyspaceRoutingRules(),
        ),
        asRead<readonly string[]>('GetCellInfoNames', () => client.getCellInfoNames()),
        // v21+: whether it answers is version evidence; the rules are what the leftovers sweep judges.
        optional<readonly MirrorRuleRecord[]>('GetMirrorRules', 'GetMirrorRules', () => client.getMirrorRules()),
      ]);
    const first = vtctldErrors.get('GetKeyspaces');
    if (!keyspaces.ok && first !== undefined) {
      // Without the keyspace list nothing can be checked: say why in one line and exit 2.
      if (first.kind === 'unreachable' && !/TLS/.test(first.message)) {
        const v = await probeVtctld(opts.vtctld.address, {
          // After a gRPC deadline the server has had its chance: a short look is enough.
          budgetMs: first.timedOut ? 1500 : Math.min(opts.timeoutMs, 3000),
          tls: opts.vtctld.tls !== undefined,
          waitedMs: performance.now() - wave1At,
        });
        throw new CollectError(
          v.notVtctld
            ? `${opts.vtctld.address} is not vtctld: ${v.reason}: check --vtctld`
            : `cannot reach vtctld at ${opts.vtctld.address}: ${v.reason}: check --vtctld and network access`,
        );
      }
      if (first.kind === 'unimplemented') {
        const http = /HTTP status code (\d+)/.exec(first.details);
        throw new CollectError(
          `${opts.vtctld.address} is not vtctld: it answers ${http ? `HTTP/2 with status ${http[1]}` : 'gRPC but not'} to GetKeyspaces (UNIMPLEMENTED): is it vtgate's or a vttablet's port? vtctld serves gRPC on --grpc_port, 15999 by default: check --vtctld`,
        );
      }
      if (first.kind === 'unreachable') {
        throw new CollectError(
          /TLS/.test(first.message)
            ? `cannot reach vtctld at ${opts.vtctld.address}: ${reasonOf(first)}: check --vtctld-tls-ca, --vtctld-tls-cert/--vtctld-tls-key and --vtctld-tls-server-name`
            : unreachableMessage(opts.vtctld.address, opts.timeoutMs),
        );
      }
      if (first.kind === 'timeout') {
        // Connected, but not one answer to the first call: nothing can be read, as when vtctld is not there at all.
        throw new CollectError(
          `vtctld at ${opts.vtctld.address} accepted the connection but did not answer GetKeyspaces within --timeout ${Math.round(opts.timeoutMs / 100) / 10}s: check that vtctld and its topology server are healthy`,
        );
      }
      if (first.code === 'UNAUTHENTICATED' || first.code === 'PERMISSION_DENIED') {
        throw new CollectError(
          `vtctld at ${opts.vtctld.address} refused the credentials (${first.code}): check --grpc-auth-static-client-creds or the config's vtctld auth`,
        );
      }
    }
    progress({ phase: 'topology', done: 4, total: 4 });
    const ksNames = keyspaces.ok ? keyspaces.value.map((k) => k.name) : [];
    for (const k of opts.keyspaces) {
      if (keyspaces.ok && !ksNames.includes(k)) {
        throw new CollectError(
          `keyspace ${k} not found in vtctld ${opts.vtctld.address} (keyspaces: ${ksNames.join(', ') || 'none'})`,
        );
      }
    }

    // Wave 2. SwitchTraffic reads every cell's SrvVSchema (MoveTables) or SrvKeyspace (Reshard) in getWorkflowState
    // (vitessio/vitess:go/vt/vtctl/workflow/server.go GetCellsWithTableReadsSwitched / GetCellsWithShardReadsSwitched).
    const shards: Record<string, Read<readonly ShardRecord[]>> = {};
    const vschemas: Record<string, Read<VSchemaRecord>> = {};
    const srvVSchemas: Record<string, Read<SrvVSchemaRecord>> = {};
    const srvKeyspaces: Record<string, Read<Readonly<Record<string, SrvKeyspaceRecord>>>> = {};
    let done2 = 0;
    const servingJobs = [
      ...(cells.ok ? cells.value : []).map((cell) =>
        asRead(`GetSrvVSchema ${cell}`, () => client.getSrvVSchema(cell)).then((r) => {
          srvVSchemas[cell] = r;
        }),
      ),
      ...ksNames.map((ks) =>
        asRead(`GetSrvKeyspaces ${ks}`, () => client.getSrvKeyspaces(ks)).then((r) => {
          srvKeyspaces[ks] = r;
        }),
      ),
    ];
    await Promise.all(
      ksNames.flatMap((ks) => [
        asRead(`FindAllShardsInKeyspace ${ks}`, () => client.findAllShardsInKeyspace(ks)).then((r) => {
          shards[ks] = r;
          progress({ phase: 'shards', done: ++done2, total: ksNames.length * 2 });
        }),
        asRead(`GetVSchema ${ks}`, () => client.getVSchema(ks)).then((r) => {
          vschemas[ks] = r;
          progress({ phase: 'shards', done: ++done2, total: ksNames.length * 2 });
        }),
      ]),
    );

    // Waves 3 and 4, per item rather than per level: each primary's sidecar read, and, as soon as a read names its
    // shard or a stream's source shard as participating, GetFullStatus of every tablet of that shard. The limiter is
    // FIFO, so status reads queue behind the sidecar reads already waiting and fill the tail of the sidecar phase
    // instead of waiting for its slowest primary.
    const targetKeyspaces = opts.keyspaces.length > 0 ? [...opts.keyspaces] : ksNames;
    const tabletByAlias = new Map((tablets.ok ? tablets.value : []).map((t) => [t.alias, t] as const));
    const tabletsByShard = new Map<string, TabletRecord[]>();
    for (const t of tablets.ok ? tablets.value : []) {
      const key = `${t.keyspace}/${t.shard}`;
      const list = tabletsByShard.get(key);
      if (list === undefined) tabletsByShard.set(key, [t]);
      else list.push(t);
    }
    const ksRecord = new Map((keyspaces.ok ? keyspaces.value : []).map((k) => [k.name, k] as const));
    const fullStatus: Record<string, Read<FullStatusRecord>> = {};
    const participating = new Set<string>();
    const statusJobs: Promise<void>[] = [];
    let done4 = 0;
    // The status total is only known once every sidecar is read; until then no status progress is reported.
    let statusTotalKnown = false;
    const statusProgress = () => {
      if (statusTotalKnown) progress({ phase: 'status', done: done4, total: statusJobs.length });
    };
    const asked = new Set<string>();
    const askStatus = (alias: string): void => {
      if (alias === '' || asked.has(alias)) return;
      asked.add(alias);
      statusJobs.push(
        asRead(`GetFullStatus ${alias}`, () => client.getFullStatus(alias)).then((r) => {
          fullStatus[alias] = r;
          done4 += 1;
          statusProgress();
        }),
      );
    };
    const participate = (keyspace: string, shard: string): void => {
      const key = `${keyspace}/${shard}`;
      if (participating.has(key)) return;
      participating.add(key);
      for (const t of tabletsByShard.get(key) ?? []) askStatus(t.alias);
    };
    // --via vtctld: whether this vtctld has ExecuteMultiFetchAsDBA (v20+), learnt from the first answer; recorded in
    // the readout's `rpcs` like the other optional RPCs.
    const multiFetch: MultiFetchState = {
      available: undefined,
      learnt: (available) => {
        multiFetch.available = available;
        rpcs.ExecuteMultiFetchAsDBA = available;
      },
    };
    const sidecarJobs: Promise<TabletSidecarRead>[] = [];
    for (const ks of targetKeyspaces) {
      const sr = shards[ks];
      if (!sr?.ok) continue;
      const sidecarDb = ksRecord.get(ks)?.sidecarDbName || '_vt';
      for (const shard of sr.value) {
        sidecarJobs.push(
          limit(() =>
            readShardSidecar(opts, client, hosts, deadlineAt, shard, sidecarDb, tabletByAlias, tablets.ok, multiFetch, {
              ...sequenceReadsOf(vschemas[ks]),
            }),
          ),
        );
      }
    }
    // Source primaries outside the selected keyspaces are read too (once each): the resharding journal of a
    // MoveTables lives there, and SwitchTraffic needs them. They add no workflows to the selection.
    const readShards = new Set(
      targetKeyspaces.flatMap((ks) => (shards[ks]?.ok ? shards[ks].value.map((sh) => `${ks}/${sh.name}`) : [])),
    );
    const sourceJobs: Promise<TabletSidecarRead>[] = [];
    const readSource = (keyspace: string, shard: string): void => {
      const key = `${keyspace}/${shard}`;
      if (readShards.has(key)) return;
      readShards.add(key);
      const rec = shards[keyspace]?.ok ? shards[keyspace].value.find((sh) => sh.name === shard) : undefined;
      if (rec === undefined) return; // a source that is not in the topology is the model's finding to make
      const sidecarDb = ksRecord.get(keyspace)?.sidecarDbName || '_vt';
      sourceJobs.push(
        limit(() =>
          readShardSidecar(opts, client, hosts, deadlineAt, rec, sidecarDb, tabletByAlias, tablets.ok, multiFetch, {
            ...sequenceReadsOf(vschemas[keyspace]),
          }),
        ),
      );
    };
    // GetVersion of every primary read: its build facts are version evidence and show a mixed cluster.
    const tabletBuilds: Record<string, Read<TabletBuildRecord>> = {};
    const versionJobs: Promise<void>[] = [];
    const readVersion = (alias: string): void => {
      if (alias === '' || alias in tabletBuilds) return;
      tabletBuilds[alias] = { ok: false, error: { what: `GetVersion ${alias}`, where, reason: 'pending' } };
      versionJobs.push(
        optional(`GetVersion ${alias}`, 'GetVersion', () => client.getVersion(alias)).then((r) => {
          tabletBuilds[alias] = r;
        }),
      );
    };
    let done3 = 0;
    const sidecars = await Promise.all(
      sidecarJobs.map((p) =>
        p.then((sc) => {
          progress({ phase: 'sidecars', done: ++done3, total: sidecarJobs.length });
          if (sc.columns.ok) readVersion(sc.alias);
          // A shard's own tablets are asked only when it holds streams (or they could not be read): SwitchTraffic
          // refreshes only the target shards with the workflow's streams (`canSwitch`, `ts.TargetShards()`), and no
          // check reads the replicas' status of a shard that neither holds streams nor feeds one.
          // Its primary is still asked: BuildTargets calls ReadVReplicationWorkflow on every target-keyspace primary's
          // tablet manager, which a MySQL read (--via mysql) does not reach.
          if (!sc.vreplication.ok || sc.vreplication.value.length > 0) participate(sc.keyspace, sc.shard);
          else askStatus(sc.alias);
          for (const { keyspace, shard } of streamSources(sc)) {
            participate(keyspace, shard);
            readSource(keyspace, shard);
          }
          return sc;
        }),
      ),
    );
    // Every readSource() call ran in a continuation above: sourceJobs is complete here.
    sidecars.push(...(await Promise.all(sourceJobs)));
    statusTotalKnown = true;
    statusProgress();

    // Vitess's own view (GetWorkflows) is off the critical path: no check needs it, and at 1,024 shards one
    // all-or-nothing response per keyspace is megabytes that vtctld gathers from every primary again (and that fails
    // whole when one primary does not answer). It is read only where the model needs it, for the workflow type of
    // rows from sidecar schemas without `workflow_type`, and then in chunks of shards (its `shards` filter).
    const workflows: Record<string, Read<readonly VtctldWorkflowRecord[]>> = {};
    const workflowJobs = workflowViewsNeeded(sidecars).map(({ keyspace, shards: wanted }) =>
      readWorkflowsInChunks(client, keyspace, wanted, asRead).then((r) => {
        workflows[keyspace] = r;
      }),
    );
    // Every participate() call ran in a sidecar read's continuation, above: statusJobs is complete here.
    await Promise.all([...statusJobs, ...workflowJobs, ...versionJobs, ...servingJobs]);

    return {
      version: READOUT_VERSION,
      tool: { name: 'vtpreflight', version: VERSION },
      capturedAt,
      target: {
        vtctld: opts.vtctld.address,
        keyspaces: [...opts.keyspaces],
        workflows: [...opts.workflows],
        via: opts.via,
      },
      topology: { keyspaces, shards, tablets, vschemas, routingRules, shardRoutingRules },
      workflows: sortKeys(workflows),
      sidecars: sidecars.sort((a, b) => byCodeUnit(a.keyspace, b.keyspace) || compareShardNames(a.shard, b.shard)),
      fullStatus: sortKeys(fullStatus),
      rpcs: sortKeys(rpcs),
      tabletBuilds: sortKeys(tabletBuilds),
      keyspaceRoutingRules,
      mirrorRules,
      cells,
      srvVSchemas: sortKeys(srvVSchemas),
      srvKeyspaces: sortKeys(srvKeyspaces),
    };
  } finally {
    client.close();
  }
}

/**
 * The leading `keyspace:"…" shard:"…"` of a BinlogSource as Go's prototext prints it (fields in number order, so these
 * two come first; Go varies the whitespace). Only plain values: anything escaped goes to the full parser.
 */
const SOURCE_PREFIX = /^keyspace:\s*"([^"\\]*)"\s+shard:\s*"([^"\\]*)"/;

/**
 * The upstream (keyspace, shard) of a stream's `source`, or null when it names none or does not parse (the model's
 * to report). A fast path reads the prefix Vitess writes; text that names either field again after it (which the
 * parser refuses) or is shaped otherwise takes the full parser, so both always agree.
 */
export function sourceShardOf(source: string): { keyspace: string; shard: string } | null {
  const m = SOURCE_PREFIX.exec(source);
  if (m !== null) {
    const rest = source.slice(m[0].length);
    if (!rest.includes('keyspace') && !rest.includes('shard:')) {
      return m[1] && m[2] ? { keyspace: m[1], shard: m[2] } : null;
    }
  }
  try {
    const bls = parseBinlogSource(source);
    return bls.keyspace && bls.shard ? { keyspace: bls.keyspace, shard: bls.shard } : null;
  } catch {
    return null;
  }
}

/** The (keyspace, shard) every stream row of a sidecar read names as its source. */
function streamSources(sc: TabletSidecarRead): { keyspace: string; shard: string }[] {
  if (!sc.vreplication.ok) return [];
  const out: { keyspace: string; shard: string }[] = [];
  for (const row of sc.vreplication.value) {
    const source = sourceShardOf(row.source);
    if (source !== null) out.push(source);
  }
  return out;
}

/**
 * Shards per GetWorkflows call: bounded responses, and one unreachable primary fails only its chunk's call in vtctld.
 */
export const WORKFLOWS_SHARD_CHUNK = 64;

/** Target keyspaces (and their shards) whose sidecar schema lacks `workflow_type`, so the model needs vtctld's type. */
function workflowViewsNeeded(sidecars: readonly TabletSidecarRead[]): { keyspace: string; shards: string[] }[] {
  const byKeyspace = new Map<string, string[]>();
  for (const sc of sidecars) {
    if (!sc.columns.ok || sc.columns.value.some((c) => c.toLowerCase() === 'workflow_type')) continue;
    if (!sc.vreplication.ok || sc.vreplication.value.length === 0) continue;
    const list = byKeyspace.get(sc.keyspace);
    if (list === undefined) byKeyspace.set(sc.keyspace, [sc.shard]);
    else list.push(sc.shard);
  }
  return [...byKeyspace.entries()].map(([keyspace, shards]) => ({ keyspace, shards }));
}

/**
 * GetWorkflows of one keyspace, `WORKFLOWS_SHARD_CHUNK` target shards per call, merged by workflow name (streams
 * concatenated, shard lists united, lags maximised). Any failed chunk fails the keyspace's Read, naming the chunk.
 */
async function readWorkflowsInChunks(
  client: VtctldClient,
  keyspace: string,
  shards: readonly string[],
  asRead: <T>(what: string, fn: () => Promise<T>) => Promise<Read<T>>,
): Promise<Read<readonly VtctldWorkflowRecord[]>> {
  const chunks: string[][] = [];
  for (let i = 0; i < shards.length; i += WORKFLOWS_SHARD_CHUNK)
    chunks.push(shards.slice(i, i + WORKFLOWS_SHARD_CHUNK));
  const reads = await Promise.all(
    chunks.map((chunk) =>
      asRead(`GetWorkflows ${keyspace} (shards ${chunk[0]}…${chunk[chunk.length - 1]})`, () =>
        client.getWorkflows(keyspace, { activeOnly: false, shards: chunk }),
      ),
    ),
  );
  const failed = reads.find((r) => !r.ok);
  if (failed !== undefined && !failed.ok) return failed;
  const merged = new Map<string, VtctldWorkflowRecord>();
  for (const r of reads) {
    if (!r.ok) continue;
    for (const w of r.value) {
      const prev = merged.get(w.name);
      merged.set(
        w.name,
        prev === undefined
          ? w
          : {
              ...prev,
              sourceShards: [...new Set([...prev.sourceShards, ...w.sourceShards])],
              targetShards: [...new Set([...prev.targetShards, ...w.targetShards])],
              maxVReplicationLag: maxOrNull(prev.maxVReplicationLag, w.maxVReplicationLag),
              maxVReplicationTransactionLag: maxOrNull(
                prev.maxVReplicationTransactionLag,
                w.maxVReplicationTransactionLag,
              ),
              streams: [...prev.streams, ...w.streams],
            },
      );
    }
  }
  return { ok: true, value: [...merged.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)) };
}

function maxOrNull(a: number | null, b: number | null): number | null {
  return a === null ? b : b === null ? a : Math.max(a, b);
}

function sortKeys<T>(o: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(o).sort(([a], [b]) => byCodeUnit(a, b)));
}

/** A vtctld error's reason without the "<rpc> failed at vtctld <address>: " prefix (the ReadError has what/where). */
function reasonOf(e: VtctldError): string {
  const msg = oneLine(e);
  const prefix = `${e.rpc} failed at vtctld ${e.address}: `;
  return msg.startsWith(prefix) ? msg.slice(prefix.length) : msg;
}

function toReadError(what: string, where: string, e: unknown, deadlineAt: number): ReadError {
  if (e instanceof VtctldError && e.kind === 'unimplemented')
    return {
      what,
      where,
      reason: 'not available on this vtctld (UNIMPLEMENTED)',
      unavailable: true,
      kind: 'unimplemented',
    };
  if (e instanceof VtctldError) {
    const cause = causeOf(e, deadlineAt);
    const node = e.readErrorKind === 'not-found' ? missingTopoNode(e.details) : null;
    return {
      what,
      where,
      reason: reasonOf(e),
      ...(e.code !== '' ? { code: e.code } : {}),
      ...(e.timedOut ? { timedOut: true } : {}),
      ...(cause !== undefined ? { cause } : {}),
      kind: e.readErrorKind,
      ...(node !== null ? { node } : {}),
    };
  }
  return { what, where, reason: oneLine(e), kind: 'other' };
}

/** Whose failure a vtctld call's is: the run's deadline, the path to vtctld, or (undefined) the part asked. */
function causeOf(e: VtctldError, deadlineAt: number): ReadError['cause'] {
  if (e.readErrorKind === 'not-attempted' || (e.timedOut && Date.now() >= deadlineAt - 50)) return 'deadline';
  if (e.kind === 'unreachable') return 'vtctld';
  return undefined;
}

/**
 * Marks the failed parts of a sidecar read that the run's deadline ended or never let start (`cause: 'deadline'`),
 * or, read through vtctld, that failed because vtctld itself did (`cause: 'vtctld'`).
 */
function withCauses(read: TabletSidecarRead, deadlineAt: number, vtctldDown: boolean): TabletSidecarRead {
  const over = Date.now() >= deadlineAt - 50;
  const mark = <T>(r: Read<T>): Read<T> => {
    if (r.ok || r.error.cause !== undefined) return r;
    const byDeadline =
      // Never attempted for the deadline (the reads that depend on such a read carry its kind).
      r.error.kind === 'not-attempted' ||
      ((r.error.timedOut === true || r.error.reason.startsWith('not read because')) && over);
    const cause = byDeadline ? 'deadline' : vtctldDown ? 'vtctld' : undefined;
    return cause === undefined ? r : { ok: false, error: { ...r.error, cause } };
  };
  return {
    ...read,
    columns: mark(read.columns),
    vreplication: mark(read.vreplication),
    copyState: mark(read.copyState),
    vreplicationLog: mark(read.vreplicationLog),
    reshardingJournal: mark(read.reshardingJournal),
    ...(read.positionColumns !== undefined ? { positionColumns: mark(read.positionColumns) } : {}),
    ...(read.transactions !== undefined ? { transactions: mark(read.transactions) } : {}),
    ...(read.metadataLocks !== undefined ? { metadataLocks: mark(read.metadataLocks) } : {}),
    ...(read.tableKeys !== undefined ? { tableKeys: mark(read.tableKeys) } : {}),
    ...(read.tableProbes !== undefined ? { tableProbes: mark(read.tableProbes) } : {}),
    ...(read.sequenceValues !== undefined ? { sequenceValues: mark(read.sequenceValues) } : {}),
    ...(read.autoIncrementMax !== undefined ? { autoIncrementMax: mark(read.autoIncrementMax) } : {}),
    ...(read.vdiffs !== undefined ? { vdiffs: mark(read.vdiffs) } : {}),
    ...(read.foreignKeys !== undefined ? { foreignKeys: mark(read.foreignKeys) } : {}),
    ...Object.fromEntries(
      UNIT_READ_IDS.flatMap((id) => {
        const r: Read<unknown> | undefined = read[id];
        return r === undefined ? [] : [[id, mark(r)]];
      }),
    ),
    ...(read.filteredUserGrants !== undefined ? { filteredUserGrants: mark(read.filteredUserGrants) } : {}),
  };
}

/** Reads one shard's primary sidecar; never throws. */
async function readShardSidecar(
  opts: CollectOptions,
  client: VtctldClient,
  hosts: HostGate,
  deadlineAt: number,
  shard: ShardRecord,
  sidecarDb: string,
  tabletByAlias: ReadonlyMap<string, TabletRecord>,
  tabletsRead: boolean,
  multiFetch: MultiFetchState,
  fieldReads: ReadSidecarOptions = {},
): Promise<TabletSidecarRead> {
  const alias = shard.primaryAlias;
  const tablet = alias ? tabletByAlias.get(alias) : undefined;
  const failed = (what: string, reason: string, kind: ReadErrorKind, endpoint = ''): TabletSidecarRead =>
    failedSidecarRead(
      { alias: alias ?? '', keyspace: shard.keyspace, shard: shard.name, endpoint, sidecarDb, dbName: '' },
      { what, where: `${alias ?? `${shard.keyspace}/${shard.name}`}${endpoint ? ` (${endpoint})` : ''}`, reason, kind },
    );
  if (!alias) return failed('find primary', `shard ${shard.keyspace}/${shard.name} has no primary`, 'not-found');
  if (!tablet)
    return tabletsRead
      ? failed('find primary', `primary ${alias} has no tablet record`, 'not-found')
      : failed('find primary', 'GetTablets failed', 'other');
  const dbName = tablet.dbNameOverride || `vt_${tablet.keyspace}`;
  const readOpts: ReadSidecarOptions = {
    ...(opts.probeTables !== undefined && opts.probeTables.keyspace === shard.keyspace
      ? { ...fieldReads, probeTables: opts.probeTables.tables }
      : fieldReads),
    ...(opts.filteredUser !== undefined ? { filteredUser: opts.filteredUser } : {}),
    ...(opts.logRowsPerStream !== undefined ? { logLimitPerStream: opts.logRowsPerStream } : {}),
    // Over MySQL with --grants-via-vtctld the MySQL user does not read the grant tables (vtctld does, below).
    ...(opts.grantsViaVtctld === true && opts.via !== 'vtctld' ? { skipFilteredUserGrants: true } : {}),
  };
  if (opts.via === 'vtctld') {
    // One deadline per primary (its --timeout, cut to the run's): a stalled primary costs one timeout, not one per
    // statement, since every later statement of its read fails at once.
    const exec = vtctldExecutor(client, alias, Math.min(Date.now() + opts.timeoutMs, deadlineAt), multiFetch);
    const read = await readSidecarWith(
      exec,
      { alias, keyspace: shard.keyspace, shard: shard.name, endpoint: 'vtctld ExecuteFetchAsDBA', sidecarDb, dbName },
      readOpts,
    );
    return withCauses(read, deadlineAt, exec.vtctldDown());
  }
  if (!tablet.mysqlHostname || !tablet.mysqlPort) {
    return failed('connect', `tablet record has no mysql_hostname/mysql_port; use --via vtctld`, 'not-found');
  }
  const endpoint = `${tablet.mysqlHostname}:${tablet.mysqlPort}`;
  const target = { alias, keyspace: shard.keyspace, shard: shard.name, endpoint, sidecarDb, dbName };
  const conn = {
    ...opts.mysql,
    host: tablet.mysqlHostname,
    port: tablet.mysqlPort,
    timeoutMs: opts.timeoutMs,
    deadlineAt,
  };
  // A server at its connection limit (1040) refuses for now, not for good: retry with fewer connections to it (the
  // gate lowers its limit to what it accepted), backing off, while the deadline leaves time; then report. The backoff
  // is the host's, not each read's: after its first refusal no read connects to that server before the wait is over,
  // and once it has refused at every step none tries again (a server already full takes a handful of attempts per
  // run, not one ladder per primary placed on it).
  const refusedHere = (answer: TabletSidecarRead): TabletSidecarRead =>
    answer.alias === alias
      ? answer
      : failedSidecarRead(
          target,
          answer.columns.ok
            ? { what: 'connect', where: endpoint, reason: 'refused' }
            : {
                ...answer.columns.error,
                where: sidecarWhere(target),
              },
        );
  for (;;) {
    const given = hosts.refusedFor(endpoint);
    if (given !== null) return withCauses(refusedHere(given as TabletSidecarRead), deadlineAt, false);
    const wait = hosts.waitMs(endpoint);
    if (wait > 0) {
      if (Date.now() + wait + 100 >= deadlineAt) {
        const last = hosts.lastRefusal(endpoint);
        if (last !== null) return withCauses(refusedHere(last as TabletSidecarRead), deadlineAt, false);
      }
      await new Promise((r) => setTimeout(r, wait));
      continue;
    }
    const read = await hosts.run(endpoint, async () => {
      // Reads queued for a slot while the host refused wait their turn again: the wait is the host's.
      if (hosts.waitMs(endpoint) > 0 || hosts.refusedFor(endpoint) !== null) return null;
      const r = await readSidecar(target, conn, readOpts);
      if (isConnectionLimitRefusal(r)) {
        hosts.lower(endpoint);
        hosts.refused(endpoint, r, CONNECTION_LIMIT_BACKOFF_MS);
      } else if (r.columns.ok || r.columns.error.what !== 'connect') hosts.accepted(endpoint);
      return r;
    });
    if (read !== null && !isConnectionLimitRefusal(read)) {
      if (opts.grantsViaVtctld !== true || read.filteredUserGrants !== undefined)
        return withCauses(read, deadlineAt, false);
      // The grant rows, asked of the tablet's DBA user through vtctld (one ExecuteMultiFetchAsDBA).
      const exec = vtctldExecutor(client, alias, Math.min(Date.now() + opts.timeoutMs, deadlineAt), multiFetch);
      const filteredUserGrants = await readFilteredUserGrantsWith(
        exec,
        { ...target, endpoint: 'vtctld ExecuteFetchAsDBA' },
        readOpts.filteredUser,
      );
      return withCauses({ ...read, filteredUserGrants }, deadlineAt, exec.vtctldDown());
    }
  }
}

/**
 * Waits before each retry of a connection refused for the server's connection limit: about 6 s in all at most, and
 * never past the run's deadline.
 */
export const CONNECTION_LIMIT_BACKOFF_MS: readonly number[] = [50, 100, 200, 400, 800, 1600, 1600];

/** Whether vtctld has ExecuteMultiFetchAsDBA: unknown until its first answer. */
interface MultiFetchState {
  available: boolean | undefined;
  /** The first call, while it is under way: the others wait for it rather than all asking an older vtctld. */
  probe?: Promise<unknown>;
  learnt(available: boolean): void;
}

/**
 * An SqlExecutor over vtctld (no placeholders there: parameters are inlined, escaped): one ExecuteMultiFetchAsDBA per
 * primary for the reader's batch where vtctld has it (v20+), ExecuteFetchAsDBA per statement where it answers
 * UNIMPLEMENTED (`vitessio/vitess:proto/vtctlservice.proto`; upstream runs the statements on one DBA connection and
 * answers one error for the call, `go/vt/vttablet/tabletmanager/rpc_query.go` `ExecuteMultiFetchAsDba`).
 */
function vtctldExecutor(
  client: VtctldClient,
  alias: string,
  deadlineAt: number,
  multiFetch: MultiFetchState,
): SqlExecutor & { vtctldDown(): boolean } {
  let down = false;
  const noteDown = (err: unknown): void => {
    if (isVtctldUnreachable(err)) down = true;
  };
  const asResult = (res: {
    fields: readonly string[];
    rawRows: readonly (readonly (Buffer | null)[])[];
  }): SqlResult => ({
    columns: [...res.fields],
    rows: res.rawRows.map((r) => [...r]),
  });
  const one = async (sql: string): Promise<SqlResult> => {
    try {
      return asResult(await client.executeFetchAsDBA(alias, sql, 10_000, { deadlineAt }));
    } catch (err) {
      noteDown(err);
      throw err;
    }
  };
  return {
    query: (sql, params) => one(formatSql(sql, params)),
    async batch(statements) {
      const texts = statements.map((st) => formatSql(st.sql, st.params));
      while (multiFetch.available === undefined && multiFetch.probe !== undefined) await multiFetch.probe;
      if (multiFetch.available !== false) {
        const call = client.executeMultiFetchAsDBA(alias, texts, 10_000, { deadlineAt });
        if (multiFetch.available === undefined) {
          // The first caller probes; its answer (or any failure) ends the wait of the others.
          const probe: Promise<unknown> = call.then(
            () => multiFetch.learnt(true),
            (err) => {
              if (isVtctldUnimplemented(err)) multiFetch.learnt(false);
            },
          );
          multiFetch.probe = probe;
          void probe.then(() => {
            if (multiFetch.probe === probe) multiFetch.probe = undefined;
          });
        }
        try {
          return { results: (await call).map(asResult) };
        } catch (err) {
          noteDown(err);
          // vtctld itself gone: nothing is re-sent (every read fails with it); otherwise the reader re-sends each.
          if (isVtctldUnreachable(err)) throw err;
          if (!isVtctldUnimplemented(err)) return { results: [], error: { cause: err } };
        }
      }
      // An older vtctld: one ExecuteFetchAsDBA per statement, stopping at the first failure like a batch.
      const results: SqlResult[] = [];
      for (let i = 0; i < texts.length; i++) {
        try {
          results.push(await one(texts[i] as string));
        } catch (err) {
          return { results, error: { at: i, cause: err } };
        }
      }
      return { results };
    },
    async close() {},
    vtctldDown: () => down,
  };
}

/** A vschema name without its backticks (`sqlescape.UnescapeID`, for the plain case). */
const unescapeId = (name: string): string =>
  name.length >= 2 && name.startsWith('`') && name.endsWith('`') ? name.slice(1, -1).replace(/``/g, '`') : name;

/**
 * what a keyspace's primaries read for sequences, from its vschema alone (no answer of the
 * same batch needed): the sequence tables an unsharded keyspace declares (`type: sequence`), and the `auto_increment`
 * columns of its tables (their `MAX`, as `--initialize-target-sequences` reads it on every target primary).
 */
export function sequenceReadsOf(vschema: Read<VSchemaRecord> | undefined): ReadSidecarOptions {
  if (!vschema?.ok) return {};
  const entries = Object.entries(vschema.value.tables).sort(([a], [b]) => byCodeUnit(a, b));
  const sequenceTables = vschema.value.sharded
    ? []
    : entries.filter(([, t]) => t.type === 'sequence').map(([name]) => unescapeId(name));
  const autoIncrementColumns = entries.flatMap(([name, t]) =>
    t.autoIncrement !== undefined && t.autoIncrement.column !== '' && t.type === ''
      ? [{ table: unescapeId(name), column: unescapeId(t.autoIncrement.column) }]
      : [],
  );
  return {
    ...(sequenceTables.length > 0 ? { sequenceTables } : {}),
    ...(autoIncrementColumns.length > 0 ? { autoIncrementColumns } : {}),
  };
}
