/**
 * The vtctld gRPC client: the read-only `vtctlservice.Vtctld` RPCs vtpreflight calls, each with a deadline,
 * over plaintext, TLS or mTLS, optionally with Vitess static auth.
 *
 * Every method returns readout records (`src/readout.ts`); proto objects never leave `src/sources`. Every
 * failure is a {@link VtctldError} with a one-line, credential-free message whose `kind` tells the collector
 * what happened: an RPC answered with an error, a deadline, vtctld not reachable at all, or a request the
 * client refused to send. Wire facts: `vitessio/vitess:proto/vtctlservice.proto` and `proto/vtctldata.proto`.
 */
import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import {
  Client,
  Metadata,
  connectivityState,
  credentials,
  status,
  type ChannelCredentials,
  type ChannelOptions,
  type ServiceDefinition,
  type ServiceError,
} from '@grpc/grpc-js';
import type {
  FullStatusRecord,
  KeyspaceRecord,
  KeyspaceRoutingRuleRecord,
  MirrorRuleRecord,
  ReadErrorKind,
  SrvVSchemaRecord,
  TabletBuildRecord,
  RoutingRuleRecord,
  ShardRecord,
  ShardRoutingRuleRecord,
  TabletRecord,
  VSchemaRecord,
  VtctldWorkflowRecord,
} from '../readout.js';
import { vtctldServiceDefinition } from './protos.js';
import { grpcErrorKind } from './read-kind.js';
import { checkReadOnlyStatement } from './read-only-sql.js';
import {
  parseTabletAlias,
  parseTabletBuild,
  toFetchResult,
  toFullStatusRecord,
  toKeyspaceRecord,
  toKeyspaceRoutingRuleRecords,
  toSrvVSchemaRecord,
  toRoutingRuleRecords,
  toShardRecord,
  toShardRoutingRuleRecords,
  toSrvKeyspaceRecord,
  toTabletRecord,
  toVSchemaRecord,
  toWorkflowRecord,
  type FetchResult,
  type PbFullStatus,
  type PbKeyspace,
  type PbKeyspaceRoutingRules,
  type PbMirrorRules,
  type PbQueryResult,
  type PbSrvVSchema,
  type PbRoutingRules,
  type PbShard,
  type PbShardRoutingRules,
  type PbSrvKeyspace,
  type PbTablet,
  type PbTabletAlias,
  type PbVSchema,
  type PbWorkflow,
  type SrvKeyspaceRecord,
} from './vtctld-records.js';

export type { FetchResult, SrvKeyspaceRecord, SrvKeyspacePartitionRecord } from './vtctld-records.js';

/** Default cap on one response (`GetWorkflows` of a big keyspace is one all-or-nothing message). */
export const DEFAULT_MAX_RECEIVE_MESSAGE_BYTES = 64 * 1024 * 1024;

/** Default `max_rows` of {@link VtctldClient.executeFetchAsDBA}. */
export const DEFAULT_FETCH_MAX_ROWS = 10_000;

/**
 * TLS settings. Give the PEM contents (`ca`, `cert`, `key`) or file paths (`caFile` …); contents win.
 * With neither `ca` nor `caFile`, the system roots are used. `cert` and `key` (mTLS) go together.
 */
export interface VtctldTlsOptions {
  readonly ca?: Buffer | string;
  readonly caFile?: string;
  readonly cert?: Buffer | string;
  readonly certFile?: string;
  readonly key?: Buffer | string;
  readonly keyFile?: string;
  /** Name to verify the server certificate against (and to send as :authority), when it differs from the host. */
  readonly serverName?: string;
}

/** Vitess static gRPC auth: sent as per-call metadata `username` / `password` (`grpcclient.StaticAuthClientCreds`). */
export interface VtctldAuth {
  readonly username: string;
  readonly password: string;
}

/** How to reach vtctld. */
export interface VtctldClientOptions {
  /** `host:port` (IPv6 as `[::1]:15999`). */
  readonly address: string;
  /** Deadline of every call, in milliseconds. */
  readonly timeoutMs: number;
  /**
   * Epoch milliseconds no call may outlast (the run's `--deadline`): a call's deadline is the earlier of `timeoutMs`
   * from its start and this, and a call that would start after it fails at once (`kind: 'timeout'`), unsent.
   */
  readonly deadlineAt?: number;
  /** Absent = plaintext. `{}` = TLS with the system roots. */
  readonly tls?: VtctldTlsOptions;
  readonly auth?: VtctldAuth;
  /** Largest response accepted, in bytes (default {@link DEFAULT_MAX_RECEIVE_MESSAGE_BYTES}). */
  readonly maxReceiveMessageBytes?: number;
}

/** Which tablets {@link VtctldClient.getTablets} returns. Applied by the server and again by the client. */
export interface TabletFilter {
  readonly keyspace?: string;
  /** Only with `keyspace` on the server side (Vitess ignores it otherwise); always applied client-side. */
  readonly shard?: string;
  readonly cells?: readonly string[];
  /** A `topodata.TabletType` name such as `PRIMARY`. */
  readonly tabletType?: string;
  /**
   * Fail the whole call when any cell's topo fails (default `true`). Vitess's default (`false`) silently
   * returns the other cells' tablets, and a missing tablet must never look like a healthy cluster.
   */
  readonly strict?: boolean;
}

/** Options of {@link VtctldClient.getWorkflows}. */
export interface GetWorkflowsOptions {
  /** Only this workflow (also filtered client-side: older vtctlds ignore the request field). */
  readonly workflow?: string;
  /** Only streams on these target shards (also filtered client-side). */
  readonly shards?: readonly string[];
  /** Ask vtctld to leave out Stopped streams (default `false`: vtpreflight wants to see them). */
  readonly activeOnly?: boolean;
}

/** What went wrong, for the collector: see {@link VtctldError}. */
export type VtctldErrorKind = 'rpc' | 'timeout' | 'unreachable' | 'invalid' | 'unimplemented';

/**
 * A failed vtctld call, with a one-line message that never contains credentials.
 *
 * - `kind: 'unreachable'`: no connection to vtctld (refused, DNS, TLS handshake, nothing answered before the
 *   deadline). The CLI turns this into `cannot reach vtctld at …` and exit 2.
 * - `kind: 'timeout'`: connected, but the call's own deadline passed.
 * - `kind: 'rpc'`: vtctld answered with an error status (NOT_FOUND, a tablet it could not reach …).
 * - `kind: 'invalid'`: the client refused to send the request (non-read-only SQL, malformed alias).
 * - `kind: 'unimplemented'`: vtctld answered UNIMPLEMENTED: the RPC is newer than this vtctld (GetVersion,
 *   GetKeyspaceRoutingRules, GetMirrorRules, ExecuteMultiFetchAsDBA … on older supported releases). The collector
 *   records it as "not available on this vtctld", never as an unreachable cluster.
 */
export class VtctldError extends Error {
  override readonly name = 'VtctldError';
  /** gRPC status name, e.g. `UNAVAILABLE`, `NOT_FOUND`, `DEADLINE_EXCEEDED`; `INVALID_ARGUMENT` for refusals. */
  readonly code: string;
  /** The RPC, e.g. `GetTablets`. */
  readonly rpc: string;
  /** The vtctld address called. */
  readonly address: string;
  readonly kind: VtctldErrorKind;
  /** True for any deadline, ours (`kind: 'timeout'` or `'unreachable'`) or one vtctld hit downstream. */
  readonly timedOut: boolean;
  /** The status details (or transport error) on one line, credentials removed. */
  readonly details: string;

  constructor(init: {
    message: string;
    code: string;
    rpc: string;
    address: string;
    kind: VtctldErrorKind;
    timedOut: boolean;
    details: string;
  }) {
    super(init.message);
    this.code = init.code;
    this.rpc = init.rpc;
    this.address = init.address;
    this.kind = init.kind;
    this.timedOut = init.timedOut;
    this.details = init.details;
    this.readErrorKind = vtctldErrorKind(init);
  }

  /** What kind of read failure this is (`ReadError.kind`), from the gRPC status (`src/sources/read-kind.ts`). */
  readonly readErrorKind: ReadErrorKind;

  /** True when vtctld itself could not be reached (as opposed to answering with an error). */
  get unreachable(): boolean {
    return this.kind === 'unreachable';
  }
}

/** {@link VtctldError.readErrorKind}: the gRPC status, or what vtpreflight itself did (refused, never sent). */
function vtctldErrorKind(e: {
  code: string;
  kind: VtctldErrorKind;
  timedOut: boolean;
  details: string;
}): ReadErrorKind {
  if (e.details === RUN_DEADLINE_PASSED) return 'not-attempted';
  switch (e.kind) {
    case 'invalid':
      return 'refused';
    case 'unimplemented':
      return 'unimplemented';
    case 'timeout':
      return 'timeout';
    case 'unreachable':
      return e.timedOut ? 'timeout' : 'unavailable';
    case 'rpc':
      return grpcErrorKind(e.code, e.details, e.timedOut);
  }
}

/** Type guard: vtctld answered UNIMPLEMENTED (the RPC is newer than this vtctld). */
export function isVtctldUnimplemented(err: unknown): err is VtctldError {
  return err instanceof VtctldError && err.kind === 'unimplemented';
}

/** Type guard: a {@link VtctldError} meaning vtctld could not be reached at all. */
export function isVtctldUnreachable(err: unknown): err is VtctldError {
  return err instanceof VtctldError && err.kind === 'unreachable';
}

/** `10000` → `10s`, `1500` → `1.5s`, `250` → `250ms`. */
export function formatTimeout(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)}ms`;
  const s = ms / 1000;
  return Number.isInteger(s) ? `${s}s` : `${Number(s.toFixed(1))}s`;
}

/** The CLI's one line for an unreachable vtctld (one line: what, where, what to do). */
export function unreachableMessage(address: string, timeoutMs: number): string {
  return `cannot reach vtctld at ${address} within ${formatTimeout(timeoutMs)}: check --vtctld and network access`;
}

/** The read-only vtctld client. Create with {@link createVtctldClient}; call {@link close} when done. */
export interface VtctldClient {
  /** The `host:port` this client calls. */
  readonly address: string;
  /**
   * Resolves once a connection to vtctld is up (TCP, TLS, HTTP/2), without sending any RPC. Rejects with a
   * `kind: 'unreachable'` {@link VtctldError} whose message is {@link unreachableMessage} (or, for a TLS
   * handshake failure, says so) as soon as a connection attempt fails or the deadline passes.
   */
  checkReachable(): Promise<void>;
  /** `GetKeyspaces`: every keyspace, in vtctld's order. */
  getKeyspaces(): Promise<KeyspaceRecord[]>;
  /** `GetKeyspace`. */
  getKeyspace(name: string): Promise<KeyspaceRecord>;
  /** `FindAllShardsInKeyspace`: every shard record incl. non-serving ones, sorted by name. */
  findAllShardsInKeyspace(keyspace: string): Promise<ShardRecord[]>;
  /** `GetTablets`, filtered by the server and again here, sorted by alias. */
  getTablets(filter?: TabletFilter): Promise<TabletRecord[]>;
  /** `GetVSchema`. */
  getVSchema(keyspace: string): Promise<VSchemaRecord>;
  /** `GetRoutingRules` (an empty message reads as no rules). */
  getRoutingRules(): Promise<RoutingRuleRecord[]>;
  /** `GetShardRoutingRules` (an empty message reads as no rules). */
  getShardRoutingRules(): Promise<ShardRoutingRuleRecord[]>;
  /** `GetWorkflows` of a target keyspace, without logs; workflows sorted by name, streams by (shard, tablet, id). */
  getWorkflows(keyspace: string, options?: GetWorkflowsOptions): Promise<VtctldWorkflowRecord[]>;
  /** `GetFullStatus` of one tablet (`zone1-0000000100`). */
  getFullStatus(alias: string): Promise<FullStatusRecord>;
  /** `GetSrvKeyspaces`: what vtgates serve, by cell (empty `cells` = all cells). */
  getSrvKeyspaces(keyspace: string, cells?: readonly string[]): Promise<Record<string, SrvKeyspaceRecord>>;
  /**
   * `ExecuteFetchAsDBA` on one tablet. Refuses (`kind: 'invalid'`, nothing sent) anything but a single
   * SELECT or SHOW statement, because vtctld runs it with DBA privileges. Rows come back twice: as UTF-8
   * text (`rows`) and as exact bytes (`rawRows`, for binary columns such as a compressed `pos`).
   */
  executeFetchAsDBA(alias: string, query: string, maxRows?: number, call?: CallOptions): Promise<FetchResult>;
  /**
   * `ExecuteMultiFetchAsDBA` (newer vtctlds; older ones answer UNIMPLEMENTED): several statements in one round trip.
   * Each statement is checked like {@link executeFetchAsDBA}'s (a single SELECT or SHOW, no `;` inside) before the
   * client joins them with `;`; one result per statement, in order.
   */
  executeMultiFetchAsDBA(
    alias: string,
    statements: readonly string[],
    maxRows?: number,
    call?: CallOptions,
  ): Promise<FetchResult[]>;
  /** `GetVersion` of one tablet: its build facts (vtctld reads the tablet's /debug/vars; no release number). */
  getVersion(alias: string): Promise<TabletBuildRecord>;
  /** `GetCellInfoNames`: every cell of the topology, sorted. */
  getCellInfoNames(): Promise<string[]>;
  /** `GetSrvVSchema` of one cell (UNKNOWN `node doesn't exist: …` when the cell has none). */
  getSrvVSchema(cell: string): Promise<SrvVSchemaRecord>;
  /** `GetKeyspaceRoutingRules` (v20+; older vtctlds answer UNIMPLEMENTED). */
  getKeyspaceRoutingRules(): Promise<KeyspaceRoutingRuleRecord[]>;
  /** `GetMirrorRules` (v21+; older vtctlds answer UNIMPLEMENTED): `from_table → to_table` with a percentage. */
  getMirrorRules(): Promise<MirrorRuleRecord[]>;
  /** Closes the channel; pending calls fail. */
  close(): void;
}

/** Per-call options. */
export interface CallOptions {
  /** An earlier deadline for this call (epoch ms), e.g. one shared by every statement read from one primary. */
  readonly deadlineAt?: number;
}

/**
 * Retries of a call that vtctld itself turned away for now: `RESOURCE_EXHAUSTED` (a server shedding load; never the
 * client's own "message larger than max", which a retry cannot change), or `UNAVAILABLE` of a topology read while the
 * connection to vtctld is up (the topo server blinked). Not retried: a dead vtctld (`unreachable` at once), and
 * `UNAVAILABLE` of a call to one tablet (ExecuteFetchAsDBA, GetFullStatus), which is how vtctld says that tablet is
 * down.
 * Every call is a read, so a retry is safe; it waits `RETRY_BACKOFF_MS[i]` (plus jitter), only when the deadline leaves
 * time for it.
 */
export const RETRY_BACKOFF_MS: readonly number[] = [100, 300];

/** The reason of a call the run's deadline left no time for. */
export const RUN_DEADLINE_PASSED = 'not sent: the run deadline (--deadline) had passed';

type RpcName =
  | 'ExecuteFetchAsDBA'
  | 'ExecuteMultiFetchAsDBA'
  | 'FindAllShardsInKeyspace'
  | 'GetCellInfoNames'
  | 'GetFullStatus'
  | 'GetKeyspaces'
  | 'GetKeyspace'
  | 'GetKeyspaceRoutingRules'
  | 'GetMirrorRules'
  | 'GetRoutingRules'
  | 'GetShardRoutingRules'
  | 'GetSrvKeyspaces'
  | 'GetSrvVSchema'
  | 'GetTablets'
  | 'GetVersion'
  | 'GetVSchema'
  | 'GetWorkflows';

const statusName = (code: number): string => (status as unknown as Record<number, string>)[code] ?? `CODE_${code}`;

const TLS_FAILURE =
  /certificate|ssl|tls|handshake|alert|altname|self[- ]signed|unable to (get|verify)|wrong version number/i;

function readPem(
  address: string,
  label: string,
  content: Buffer | string | undefined,
  file: string | undefined,
): Buffer | null {
  if (content !== undefined) return typeof content === 'string' ? Buffer.from(content) : content;
  if (file === undefined) return null;
  try {
    return readFileSync(file);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? 'error';
    throw invalid('connect', address, `cannot read vtctld TLS ${label} file ${file}: ${code}`);
  }
}

function invalid(rpc: string, address: string, message: string): VtctldError {
  return new VtctldError({
    message,
    code: 'INVALID_ARGUMENT',
    rpc,
    address,
    kind: 'invalid',
    timedOut: false,
    details: message,
  });
}

function validateAddress(address: string): void {
  if (!/^(?:\[[0-9a-fA-F:.]+\]|[^:\s[\]]+):\d{1,5}$/.test(address)) {
    throw invalid('connect', address, `invalid vtctld address "${address}": expected HOST:PORT`);
  }
}

function channelCredentials(address: string, tls: VtctldTlsOptions | undefined): ChannelCredentials {
  if (tls === undefined) return credentials.createInsecure();
  const ca = readPem(address, 'CA', tls.ca, tls.caFile);
  const cert = readPem(address, 'certificate', tls.cert, tls.certFile);
  const key = readPem(address, 'key', tls.key, tls.keyFile);
  if ((cert === null) !== (key === null)) {
    throw invalid('connect', address, 'vtctld TLS client certificate and key must be given together');
  }
  return withoutIpServerName(credentials.createSsl(ca, key, cert));
}

/**
 * grpc-js sends the target's host as the TLS server name (SNI) even when it is an IP address, which RFC 6066 forbids
 * and Node answers with a DEP0123 deprecation warning on the user's terminal. For an IP target (and no
 * `--vtctld-tls-server-name`), this sends no server name, as Node's own `tls.connect` does for an IP: the server's
 * identity is still checked, against the IP address (`checkServerIdentity` falls back to the connection's host).
 * The hook is grpc-js's connector factory (`_createSecureConnector`, grpc-js 1.14); test/cli/tls-ip.test.ts fails if
 * a grpc-js upgrade bypasses it (the warning comes back).
 */
function withoutIpServerName(creds: ChannelCredentials): ChannelCredentials {
  type Connector = { connectionOptions?: { servername?: string } };
  const hooked = creds as unknown as { _createSecureConnector?: (...args: unknown[]) => Connector };
  const create = hooked._createSecureConnector?.bind(creds);
  if (create === undefined) return creds;
  hooked._createSecureConnector = (...args: unknown[]) => {
    const connector = create(...args);
    const o = connector.connectionOptions;
    if (o !== undefined && typeof o.servername === 'string' && isIP(o.servername) !== 0) delete o.servername;
    return connector;
  };
  return creds;
}

/** Collapses a transport/status text to one line, without grpc-js's boilerplate or a secret. */
function transportText(details: string, secret: string | undefined): string {
  let text = details
    .replace(/^No connection established\.\s*Last error:\s*/i, '')
    .replace(/^Error:\s*/, '')
    .replace(/\.?\s*Resolution note:\s*$/, '')
    .replace(/\s*\(\d{4}-\d\d-\d\dT[^)]*\)\s*$/, '')
    .replace(/\s+/g, ' ')
    .trim();
  if (secret !== undefined && secret.length >= 4) text = text.split(secret).join('***');
  return text === '' ? 'no details' : text;
}

/**
 * Creates a client. Nothing is dialed until the first call (or {@link VtctldClient.checkReachable}).
 * Throws a `kind: 'invalid'` {@link VtctldError} for a malformed address or an unreadable TLS file.
 */
export function createVtctldClient(options: VtctldClientOptions): VtctldClient {
  const { address, timeoutMs } = options;
  validateAddress(address);
  if (!(timeoutMs > 0)) throw invalid('connect', address, `invalid vtctld timeout ${timeoutMs}ms: must be positive`);
  const channelOptions: ChannelOptions = {
    'grpc.max_receive_message_length': options.maxReceiveMessageBytes ?? DEFAULT_MAX_RECEIVE_MESSAGE_BYTES,
    'grpc.primary_user_agent': 'vtpreflight',
  };
  if (options.tls?.serverName !== undefined) {
    channelOptions['grpc.ssl_target_name_override'] = options.tls.serverName;
    channelOptions['grpc.default_authority'] = options.tls.serverName;
  }
  const client = new Client(address, channelCredentials(address, options.tls), channelOptions);
  const service: ServiceDefinition = vtctldServiceDefinition();
  const secret = options.auth?.password;

  const callMetadata = (): Metadata => {
    const md = new Metadata();
    if (options.auth !== undefined) {
      md.set('username', options.auth.username);
      md.set('password', options.auth.password);
    }
    return md;
  };

  const channelReady = (): boolean => client.getChannel().getConnectivityState(false) === connectivityState.READY;

  const toError = (rpc: string, err: ServiceError, elapsedMs: number, budgetMs: number): VtctldError => {
    const code = statusName(err.code);
    const details = transportText(err.details ?? err.message, secret);
    const ready = channelReady();
    const deadline = err.code === status.DEADLINE_EXCEEDED;
    // A local deadline fires at ~timeoutMs; an earlier DEADLINE_EXCEEDED is vtctld's own (e.g. a tablet call).
    const ourDeadline = deadline && elapsedMs >= budgetMs - 50;
    // vtpreflight never cancels a call: CANCELLED with the connection gone is vtctld going away mid-call.
    const transport = (err.code === status.UNAVAILABLE || err.code === status.CANCELLED || ourDeadline) && !ready;
    if (transport) {
      const tlsFailure = TLS_FAILURE.test(details);
      const reason = ourDeadline ? `no connection within ${formatTimeout(budgetMs)}` : details;
      return new VtctldError({
        message: `${rpc} failed at vtctld ${address}: ${tlsFailure ? 'TLS handshake failed: ' : ''}${code}: ${reason}`,
        code,
        rpc,
        address,
        kind: 'unreachable',
        timedOut: ourDeadline,
        details,
      });
    }
    if (ourDeadline) {
      return new VtctldError({
        message: `${rpc} failed at vtctld ${address}: timed out after ${formatTimeout(budgetMs)}`,
        code,
        rpc,
        address,
        kind: 'timeout',
        timedOut: true,
        details,
      });
    }
    if (err.code === status.UNIMPLEMENTED) {
      return new VtctldError({
        message: `${rpc} is not available on this vtctld (${address}): UNIMPLEMENTED: ${details}`,
        code,
        rpc,
        address,
        kind: 'unimplemented',
        timedOut: false,
        details,
      });
    }
    return new VtctldError({
      message: `${rpc} failed at vtctld ${address}: ${code}: ${details}`,
      code,
      rpc,
      address,
      kind: 'rpc',
      timedOut: deadline,
      details,
    });
  };

  /** One attempt of a call, with a deadline of `timeoutMs` cut to `deadlineAt`. */
  function attempt<Res>(rpc: RpcName, request: object, deadlineAt: number): Promise<Res> {
    const method = service[rpc];
    if (method === undefined) return Promise.reject(new Error(`${rpc} is missing from the vtctld proto subset`));
    const started = Date.now();
    const until = Math.min(started + timeoutMs, deadlineAt);
    if (until <= started) {
      return Promise.reject(
        new VtctldError({
          message: `${rpc} at vtctld ${address}: ${RUN_DEADLINE_PASSED}`,
          code: 'DEADLINE_EXCEEDED',
          rpc,
          address,
          kind: 'timeout',
          timedOut: true,
          details: RUN_DEADLINE_PASSED,
        }),
      );
    }
    return new Promise<Res>((resolve, reject) => {
      client.makeUnaryRequest<object, Res>(
        method.path,
        method.requestSerialize as (value: object) => Buffer,
        method.responseDeserialize as (bytes: Buffer) => Res,
        request,
        callMetadata(),
        { deadline: until },
        (err, value) => {
          if (err !== null)
            reject(
              Object.assign(toError(rpc, err, Date.now() - started, until - started), { retry: retryable(rpc, err) }),
            );
          else if (value === undefined) {
            reject(
              new VtctldError({
                message: `${rpc} failed at vtctld ${address}: INTERNAL: no response message`,
                code: 'INTERNAL',
                rpc,
                address,
                kind: 'rpc',
                timedOut: false,
                details: 'no response message',
              }),
            );
          } else resolve(value);
        },
      );
    });
  }

  /** Whether a failed attempt is worth another: see {@link RETRY_BACKOFF_MS}. */
  const retryable = (rpc: RpcName, err: ServiceError): boolean =>
    (err.code === status.RESOURCE_EXHAUSTED && !/larger than max/i.test(err.details ?? err.message)) ||
    (err.code === status.UNAVAILABLE &&
      channelReady() &&
      !['ExecuteFetchAsDBA', 'ExecuteMultiFetchAsDBA', 'GetFullStatus', 'GetVersion'].includes(rpc));

  async function call<Res>(rpc: RpcName, request: object, opts: CallOptions = {}): Promise<Res> {
    const deadlineAt = Math.min(
      options.deadlineAt ?? Number.POSITIVE_INFINITY,
      opts.deadlineAt ?? Number.POSITIVE_INFINITY,
    );
    for (let i = 0; ; i += 1) {
      try {
        return await attempt<Res>(rpc, request, deadlineAt);
      } catch (err) {
        const backoff = RETRY_BACKOFF_MS[i];
        if (!(err as { retry?: boolean }).retry || backoff === undefined) throw err;
        const wait = backoff + Math.floor(Math.random() * backoff);
        // Only when the deadline leaves room for the wait and a meaningful attempt after it.
        if (Date.now() + wait + 100 >= deadlineAt) throw err;
        await new Promise((r) => setTimeout(r, wait));
      }
    }
  }

  /** Wraps a conversion so that a malformed response is a one-line VtctldError too. */
  const convert = <T>(rpc: string, f: () => T): T => {
    try {
      return f();
    } catch (err) {
      const details = transportText((err as Error).message, secret);
      throw new VtctldError({
        message: `${rpc} failed at vtctld ${address}: malformed response: ${details}`,
        code: 'INTERNAL',
        rpc,
        address,
        kind: 'rpc',
        timedOut: false,
        details,
      });
    }
  };

  const aliasOrThrow = (rpc: string, alias: string): PbTabletAlias => {
    try {
      return parseTabletAlias(alias);
    } catch (err) {
      throw invalid(rpc, address, `${rpc} refused by vtpreflight: ${(err as Error).message}`);
    }
  };

  const checkReachable = (): Promise<void> => {
    const channel = client.getChannel();
    const deadline = Date.now() + timeoutMs;
    const unreachable = (detail: string, timedOut: boolean): VtctldError => {
      const tlsFailure = TLS_FAILURE.test(detail);
      return new VtctldError({
        message: tlsFailure
          ? `cannot reach vtctld at ${address}: TLS handshake failed (${detail}): check --vtctld-tls-ca, --vtctld-tls-cert, --vtctld-tls-key and --vtctld-tls-server-name`
          : unreachableMessage(address, timeoutMs),
        code: timedOut ? 'DEADLINE_EXCEEDED' : 'UNAVAILABLE',
        rpc: 'connect',
        address,
        kind: 'unreachable',
        timedOut,
        details: detail,
      });
    };
    return new Promise<void>((resolve, reject) => {
      const step = (): void => {
        const state = channel.getConnectivityState(true);
        if (state === connectivityState.READY) {
          resolve();
          return;
        }
        if (state === connectivityState.TRANSIENT_FAILURE || state === connectivityState.SHUTDOWN) {
          // Learn why: a unary call on a failed channel fails at once with the last connection error,
          // without reaching any server.
          const method = service.GetKeyspaces;
          if (method === undefined || state === connectivityState.SHUTDOWN) {
            reject(unreachable('channel closed', false));
            return;
          }
          client.makeUnaryRequest(
            method.path,
            method.requestSerialize as (value: object) => Buffer,
            method.responseDeserialize as (bytes: Buffer) => unknown,
            {},
            new Metadata(),
            { deadline: Math.min(deadline, Date.now() + 1000) },
            (err) => {
              if (err === null) return resolve();
              reject(unreachable(transportText(err.details ?? err.message, secret), false));
            },
          );
          return;
        }
        if (Date.now() >= deadline) {
          reject(unreachable(`no connection within ${formatTimeout(timeoutMs)}`, true));
          return;
        }
        channel.watchConnectivityState(state, deadline, (err) => {
          if (err !== undefined) return reject(unreachable(`no connection within ${formatTimeout(timeoutMs)}`, true));
          step();
        });
      };
      step();
    });
  };

  return {
    address,
    checkReachable,

    async getKeyspaces() {
      const res = await call<{ keyspaces: PbKeyspace[] }>('GetKeyspaces', {});
      return convert('GetKeyspaces', () => res.keyspaces.map(toKeyspaceRecord));
    },

    async getKeyspace(name) {
      const res = await call<{ keyspace: PbKeyspace | null }>('GetKeyspace', { keyspace: name });
      return convert('GetKeyspace', () => {
        if (res.keyspace === null) throw new Error(`no keyspace record for ${name}`);
        return toKeyspaceRecord(res.keyspace);
      });
    },

    async findAllShardsInKeyspace(keyspace) {
      const res = await call<{ shards: Record<string, PbShard> }>('FindAllShardsInKeyspace', { keyspace });
      return convert('FindAllShardsInKeyspace', () =>
        Object.entries(res.shards)
          // Old servers may leave the wrapper's names empty; the map key is the shard name.
          .map(([name, s]) => toShardRecord({ ...s, keyspace: s.keyspace || keyspace, name: s.name || name }))
          .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)),
      );
    },

    async getTablets(filter = {}) {
      const request = {
        keyspace: filter.keyspace ?? '',
        shard: filter.keyspace !== undefined ? (filter.shard ?? '') : '',
        cells: [...(filter.cells ?? [])],
        strict: filter.strict ?? true,
        tablet_type: filter.tabletType ?? 'UNKNOWN',
      };
      const res = await call<{ tablets: PbTablet[] }>('GetTablets', request);
      return convert('GetTablets', () => {
        const cells = filter.cells !== undefined && filter.cells.length > 0 ? new Set(filter.cells) : null;
        return res.tablets
          .map(toTabletRecord)
          .filter(
            (t) =>
              (filter.keyspace === undefined || t.keyspace === filter.keyspace) &&
              (filter.shard === undefined || t.shard === filter.shard) &&
              (cells === null || cells.has(t.cell)) &&
              (filter.tabletType === undefined || filter.tabletType === 'UNKNOWN' || t.type === filter.tabletType),
          )
          .sort((a, b) => (a.cell < b.cell ? -1 : a.cell > b.cell ? 1 : a.uid - b.uid));
      });
    },

    async getVSchema(keyspace) {
      const res = await call<{ v_schema: PbVSchema | null }>('GetVSchema', { keyspace });
      return convert('GetVSchema', () => toVSchemaRecord(res.v_schema));
    },

    async getRoutingRules() {
      const res = await call<{ routing_rules: PbRoutingRules | null }>('GetRoutingRules', {});
      return convert('GetRoutingRules', () => toRoutingRuleRecords(res.routing_rules));
    },

    async getShardRoutingRules() {
      const res = await call<{ shard_routing_rules: PbShardRoutingRules | null }>('GetShardRoutingRules', {});
      return convert('GetShardRoutingRules', () => toShardRoutingRuleRecords(res.shard_routing_rules));
    },

    async getWorkflows(keyspace, opts = {}) {
      const request = {
        keyspace,
        active_only: opts.activeOnly ?? false,
        name_only: false,
        workflow: opts.workflow ?? '',
        include_logs: false,
        shards: [...(opts.shards ?? [])],
      };
      const res = await call<{ workflows: PbWorkflow[] }>('GetWorkflows', request);
      return convert('GetWorkflows', () => {
        const shards = opts.shards !== undefined && opts.shards.length > 0 ? new Set(opts.shards) : null;
        const out: VtctldWorkflowRecord[] = [];
        for (const pb of res.workflows) {
          if (opts.workflow !== undefined && opts.workflow !== '' && pb.name !== opts.workflow) continue;
          const rec = toWorkflowRecord(pb);
          if (shards === null) {
            out.push(rec);
            continue;
          }
          const streams = rec.streams.filter((s) => shards.has(s.shard));
          if (streams.length > 0) out.push({ ...rec, streams });
        }
        return out.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      });
    },

    async getFullStatus(alias) {
      const tabletAlias = aliasOrThrow('GetFullStatus', alias);
      const res = await call<{ status: PbFullStatus | null }>('GetFullStatus', { tablet_alias: tabletAlias });
      return convert('GetFullStatus', () => toFullStatusRecord(res.status));
    },

    async getSrvKeyspaces(keyspace, cells = []) {
      const res = await call<{ srv_keyspaces: Record<string, PbSrvKeyspace> }>('GetSrvKeyspaces', {
        keyspace,
        cells: [...cells],
      });
      return convert('GetSrvKeyspaces', () => {
        const out: Record<string, SrvKeyspaceRecord> = {};
        for (const cell of Object.keys(res.srv_keyspaces).sort())
          out[cell] = toSrvKeyspaceRecord(res.srv_keyspaces[cell] as PbSrvKeyspace);
        return out;
      });
    },

    async executeFetchAsDBA(alias, query, maxRows = DEFAULT_FETCH_MAX_ROWS, callOpts = {}) {
      const verdict = checkReadOnlyStatement(query);
      if (!verdict.ok) {
        throw invalid(
          'ExecuteFetchAsDBA',
          address,
          `ExecuteFetchAsDBA refused by vtpreflight: only a single SELECT or SHOW statement may be sent (${verdict.reason})`,
        );
      }
      const tabletAlias = aliasOrThrow('ExecuteFetchAsDBA', alias);
      const res = await call<{ result: PbQueryResult | null }>(
        'ExecuteFetchAsDBA',
        { tablet_alias: tabletAlias, query, max_rows: maxRows },
        callOpts,
      );
      return convert('ExecuteFetchAsDBA', () => toFetchResult(res.result));
    },

    async executeMultiFetchAsDBA(alias, statements, maxRows = DEFAULT_FETCH_MAX_ROWS, callOpts = {}) {
      for (const statement of statements) {
        const verdict = checkReadOnlyStatement(statement);
        if (!verdict.ok) {
          throw invalid(
            'ExecuteMultiFetchAsDBA',
            address,
            `ExecuteMultiFetchAsDBA refused by vtpreflight: only SELECT or SHOW statements may be sent (${verdict.reason})`,
          );
        }
      }
      if (statements.length === 0) return [];
      const tabletAlias = aliasOrThrow('ExecuteMultiFetchAsDBA', alias);
      const res = await call<{ results: PbQueryResult[] }>(
        'ExecuteMultiFetchAsDBA',
        { tablet_alias: tabletAlias, sql: statements.join(';'), max_rows: maxRows },
        callOpts,
      );
      return convert('ExecuteMultiFetchAsDBA', () => {
        if (res.results.length !== statements.length)
          throw new Error(`${res.results.length} results for ${statements.length} statements`);
        return res.results.map((r) => toFetchResult(r));
      });
    },

    async getVersion(alias) {
      const tabletAlias = aliasOrThrow('GetVersion', alias);
      const res = await call<{ version: string }>('GetVersion', { tablet_alias: tabletAlias });
      return convert('GetVersion', () => parseTabletBuild(res.version));
    },

    async getCellInfoNames() {
      const res = await call<{ names: string[] }>('GetCellInfoNames', {});
      return convert('GetCellInfoNames', () => [...res.names].sort());
    },

    async getSrvVSchema(cell) {
      const res = await call<{ srv_v_schema: PbSrvVSchema | null }>('GetSrvVSchema', { cell });
      return convert('GetSrvVSchema', () => toSrvVSchemaRecord(res.srv_v_schema));
    },

    async getKeyspaceRoutingRules() {
      const res = await call<{ keyspace_routing_rules: PbKeyspaceRoutingRules | null }>('GetKeyspaceRoutingRules', {});
      return convert('GetKeyspaceRoutingRules', () => toKeyspaceRoutingRuleRecords(res.keyspace_routing_rules));
    },

    async getMirrorRules() {
      const res = await call<{ mirror_rules: PbMirrorRules | null }>('GetMirrorRules', {});
      return convert('GetMirrorRules', () =>
        (res.mirror_rules?.rules ?? []).map((r) => ({
          fromTable: r.from_table,
          toTable: r.to_table,
          percent: r.percent,
        })),
      );
    },

    close() {
      client.close();
    },
  };
}
