/**
 * MySQL-protocol tablets over real loopback sockets: one listening port per simulated primary, each connection a
 * mysql2 server-side connection (mysql2's server API: `serverHandshake` and the `query` events, as
 * `mysql2.createServer` sets them up), answering exactly the statements vtpreflight's sidecar reader sends
 * (`sidecar-sql.ts`).
 *
 * Ports. Each primary listens on its own port, written into its tablet record's `mysql_port` (`mysql_hostname`
 * `127.0.0.1`). A single port multiplexing tablets by user or database was considered and rejected: vtpreflight
 * connects to `mysql_hostname:mysql_port` with one `--mysql-user` for the whole cluster and no database
 * (`src/sources/mysql.ts`), as it must against real mysqlds, so a connection carries nothing that names its tablet
 * except the address it dialed. Distinct loopback addresses (127.x.y.z) would route too, but only Linux answers on
 * all of 127/8 without configuration. Distinct ports cost one listening socket per primary: 3,072 for a 1,024 → 2,048
 * Reshard, well inside Linux's default descriptor limit (macOS's default `ulimit -n` of 256 needs raising for the
 * largest benchmarks). Tablets that are not primaries point at one shared port whose server refuses every login
 * (vtpreflight never reads replicas); unreachable primaries point at a port nobody listens on, so connecting fails
 * with ECONNREFUSED like a dead mysqld.
 *
 * Latency. `rttMs` (+ uniform `[0, jitterMs)`) is added once per round trip the client waits for: the server
 * greeting (TCP connect), the login reply, and each statement's answer — the same model as the fake vtctld's
 * per-call delay, so gRPC and MySQL see the same network.
 */
import { createHash } from 'node:crypto';
import net from 'node:net';
import mysql from 'mysql2';
import { errPacket, okPacket, response, resultSet } from './mysql-protocol.js';
import { answerQuery, answerSql, type SessionState, type SqlAnswer } from './sidecar-sql.js';
import type { SimSidecar } from './types.js';

/** Options of {@link startSimTablets}. */
export interface SimTabletsOptions {
  /** Default `127.0.0.1`. */
  readonly host?: string;
  /** Delay per round trip (default 0). */
  readonly rttMs?: number;
  /** Extra uniform random delay in `[0, jitterMs)` (default 0). */
  readonly jitterMs?: number;
  /** Record every connection and statement in {@link SimTablets.connections} (default false). */
  readonly record?: boolean;
  /** Require these credentials (mysql_native_password); default: any user and password are accepted. */
  readonly auth?: { readonly user: string; readonly password: string };
  /** Keep each encoded answer for repeated statements (default true; answers are deterministic per cluster). */
  readonly cacheAnswers?: boolean;
}

/** One client connection a simulated tablet received, with the statements in arrival order. */
export interface TabletConnection {
  readonly alias: string;
  readonly port: number;
  readonly statements: string[];
}

/** Running simulated tablets. */
export interface SimTablets {
  readonly host: string;
  /** Listening port by primary alias (unreachable primaries excluded). */
  readonly ports: ReadonlyMap<string, number>;
  /** The port of unreachable primaries: nothing listens there. */
  readonly refusedPort: number;
  /** The shared port of non-primary tablets: every login is refused. */
  readonly replicaPort: number;
  /** Recorded connections (with `record`), in connection order. */
  readonly connections: TabletConnection[];
  /**
   * Client connections accepted by primaries so far, and the most sessions open at once (from the login to COM_QUIT
   * or close: a client frees its own concurrency slot as it sends COM_QUIT, before the server has read it).
   */
  readonly stats: { readonly accepted: number; readonly maxOpen: number };
  setLatency(rttMs: number, jitterMs?: number): void;
  /** Drops the cached answers: the next statements are answered from the sidecars as they are now. */
  forgetAnswers(): void;
  /** Closes every listener and every open connection. */
  stop(): Promise<void>;
}

/**
 * The server capabilities advertised: CLIENT_LONG_PASSWORD … CLIENT_SECURE_CONNECTION, PLUGIN_AUTH; no SSL, no
 * compression, classic EOF.
 */
const CAPABILITIES = 0x1 | 0x4 | 0x8 | 0x200 | 0x2000 | 0x8000 | 0x10000 | 0x20000 | 0x80000 | 0x100000;

/** `mysql_native_password`: SHA1(pw) XOR SHA1(scramble + SHA1(SHA1(pw))). */
function nativePasswordToken(password: string, scramble: Buffer): Buffer {
  if (password === '') return Buffer.alloc(0);
  const sha1 = (b: Buffer) => createHash('sha1').update(b).digest();
  const stage1 = sha1(Buffer.from(password, 'utf8'));
  const stage2 = sha1(stage1);
  const mix = sha1(Buffer.concat([scramble, stage2]));
  return Buffer.from(stage1.map((x, i) => x ^ (mix[i] ?? 0)));
}

/** An encoded answer and the session's read-only state after it (a batch may start with the read-only SET). */
interface CachedAnswer {
  readonly bytes: Buffer;
  readonly readOnlyAfter: boolean;
}

/** The client capability that allows several statements in one COM_QUERY. */
const CLIENT_MULTI_STATEMENTS = 0x10000;

interface ServerConnection {
  stream: net.Socket;
  clientHelloReply?: { clientFlags?: number };
  sequenceId: number;
  serverHandshake(args: Record<string, unknown>): void;
  on(event: string, listener: (...args: unknown[]) => void): void;
  write(b: Buffer): void;
}

function listen(server: net.Server, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, () => {
      server.off('error', reject);
      resolve((server.address() as net.AddressInfo).port);
    });
  });
}

/** Starts one MySQL-protocol tablet per sidecar (except the unreachable ones) on loopback ports. */
export async function startSimTablets(
  sidecars: Readonly<Record<string, SimSidecar>>,
  unreachable: readonly string[],
  opts: SimTabletsOptions = {},
): Promise<SimTablets> {
  const host = opts.host ?? '127.0.0.1';
  let rttMs = opts.rttMs ?? 0;
  let jitterMs = opts.jitterMs ?? 0;
  const record = opts.record ?? false;
  const cache = opts.cacheAnswers ?? true;
  const connections: TabletConnection[] = [];
  const sockets = new Set<net.Socket>();
  const timers = new Set<NodeJS.Timeout>();
  const closers: (() => Promise<void>)[] = [];
  const answerCaches: Map<string, CachedAnswer>[] = [];
  let stopped = false;
  let connectionId = 1;
  const stats = { accepted: 0, maxOpen: 0 };
  let open = 0;

  const later = (fn: () => void): void => {
    const ms = rttMs + (jitterMs > 0 ? Math.random() * jitterMs : 0);
    if (ms <= 0) return void setImmediate(() => !stopped && fn());
    const t = setTimeout(() => {
      timers.delete(t);
      if (!stopped) fn();
    }, ms);
    timers.add(t);
  };

  const encode = (a: SqlAnswer): Buffer =>
    a.kind === 'ok'
      ? okPacket()
      : a.kind === 'error'
        ? errPacket(a.errno, a.sqlState, a.message)
        : resultSet(a.columns, a.rows);

  const track = (socket: net.Socket): void => {
    sockets.add(socket);
    // Answers are a few small writes; Nagle's algorithm would hold them back for the client's delayed ACK.
    socket.setNoDelay(true);
    socket.once('close', () => sockets.delete(socket));
    // A client that goes away mid-answer is not the server's problem.
    socket.on('error', () => {});
  };

  const serve = (alias: string, sidecar: SimSidecar, port: () => number) => {
    // Per tablet, not per connection: every run sends the same statements to the same tablet.
    const answers = new Map<string, CachedAnswer>();
    answerCaches.push(answers);
    return (c: unknown) => serveConnection(alias, sidecar, port, answers, c);
  };

  const serveConnection = (
    alias: string,
    sidecar: SimSidecar,
    port: () => number,
    answers: Map<string, CachedAnswer>,
    c: unknown,
  ): void => {
    const conn = c as ServerConnection;
    track(conn.stream);
    stats.accepted += 1;
    let inSession = false;
    const endSession = (): void => {
      if (inSession) open -= 1;
      inSession = false;
    };
    conn.stream.once('close', endSession);
    conn.on('quit', () => {
      endSession();
      conn.stream.end();
    });
    const session: SessionState = { readOnly: false };
    const log: TabletConnection | null = record ? { alias, port: port(), statements: [] } : null;
    if (log !== null) connections.push(log);
    const reply = (b: Buffer): void => {
      later(() => {
        conn.write(b);
        // The answer's packets carried their own sequence ids; the next command starts a new sequence at 0.
        conn.sequenceId = 0;
      });
    };
    const onStatement = (sql: string, prepared: boolean): void => {
      log?.statements.push(sql);
      if (prepared) {
        // COM_STMT_PREPARE (or a SET/PREPARE/EXECUTE text statement, which mysql2's server routes the same way):
        // vtpreflight never prepares, so refuse; a SET still gets the read-only refusal MySQL would give.
        const a = answerSql(sidecar, sql, session);
        reply(
          encode(
            a.kind === 'error'
              ? a
              : {
                  kind: 'error',
                  errno: 1295,
                  sqlState: 'HY000',
                  message: 'This command is not supported in the prepared statement protocol yet',
                },
          ),
        );
        return;
      }
      // An answer depends on the text, the session's read-only state before it and whether the client may batch.
      const multi = ((conn.clientHelloReply?.clientFlags ?? 0) & CLIENT_MULTI_STATEMENTS) !== 0;
      const key = `${multi ? 'm' : 's'}${session.readOnly ? 'r' : 'w'}${sql}`;
      let hit = cache ? answers.get(key) : undefined;
      if (hit === undefined) {
        const parts = answerQuery(sidecar, sql, session, multi);
        hit = { bytes: response(parts), readOnlyAfter: session.readOnly };
        if (cache && answers.size < 100_000) answers.set(key, hit);
      }
      session.readOnly = hit.readOnlyAfter;
      reply(hit.bytes);
    };
    conn.on('error', () => {});
    conn.on('query', (sql) => onStatement(String(sql), false));
    conn.on('stmt_prepare', (sql) => onStatement(String(sql), true));
    conn.on('stmt_execute', () =>
      reply(errPacket(1243, 'HY000', 'Unknown prepared statement handler given to mysqld_stmt_execute')),
    );
    conn.on('field_list', () =>
      reply(
        errPacket(
          1235,
          '42000',
          "This version of MySQL doesn't yet support 'COM_FIELD_LIST on a simulated vtpreflight tablet'",
        ),
      ),
    );
    // Commands mysql2's server does not know would otherwise be logged to stdout and left unanswered.
    conn.on('packet', (_packet, known) => {
      if (known === false) reply(errPacket(1047, '08S01', 'Unknown command'));
    });
    later(() =>
      conn.serverHandshake({
        protocolVersion: 10,
        serverVersion: '8.0.40-vtpreflight-sim',
        connectionId: connectionId++,
        statusFlags: 2,
        characterSet: 255,
        capabilityFlags: CAPABILITIES,
        authCallback: (
          p: { user: string; authToken: Buffer; authPluginData1: Buffer; authPluginData2: Buffer },
          cb: (err: Error | null, mysqlError?: { message: string; code: number }) => void,
        ) => {
          let refusal: { message: string; code: number } | undefined;
          if (opts.auth !== undefined) {
            const expected = nativePasswordToken(
              opts.auth.password,
              Buffer.concat([p.authPluginData1, p.authPluginData2]),
            );
            if (p.user !== opts.auth.user || !expected.equals(p.authToken ?? Buffer.alloc(0))) {
              refusal = {
                code: 1045,
                message: `Access denied for user '${p.user}'@'${host}' (using password: ${p.authToken?.length ? 'YES' : 'NO'})`,
              };
            }
          }
          later(() => {
            cb(null, refusal);
            conn.sequenceId = 0;
            if (refusal === undefined && !conn.stream.destroyed) {
              inSession = true;
              stats.maxOpen = Math.max(stats.maxOpen, ++open);
            }
          });
        },
      }),
    );
  };

  const ports = new Map<string, number>();
  const down = new Set(unreachable);
  for (const [alias, sidecar] of Object.entries(sidecars)) {
    if (down.has(alias)) continue;
    let port = 0;
    const handle = serve(alias, sidecar, () => port);
    // What mysql2.createServer() does per connection, plus `maxPreparedStatements: 1`: mysql2 otherwise allocates a
    // 16,000-entry prepared-statement cache per connection, which the simulator never uses and the garbage collector
    // pays for thousands of times per benchmark run.
    const server = net.createServer((socket) =>
      handle(
        new mysql.Connection({
          config: new (mysql as unknown as { ConnectionConfig: new (o: unknown) => unknown }).ConnectionConfig({
            stream: socket,
            isServer: true,
            maxPreparedStatements: 1,
          } as never),
        } as never),
      ),
    );
    port = await listen(server, host);
    ports.set(alias, port);
    closers.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  }

  // Non-primary tablets: the greeting is an ERR packet, as a mysqld refusing the host sends it.
  const replicaServer = net.createServer((socket) => {
    track(socket);
    later(() =>
      socket.end(
        errPacket(
          1130,
          'HY000',
          `Host '${host}' is not allowed to connect: the vtpreflight simulator serves SQL on primary tablets only`,
          0,
        ),
      ),
    );
  });
  const replicaPort = await listen(replicaServer, host);
  closers.push(() => new Promise<void>((resolve) => replicaServer.close(() => resolve())));

  // Unreachable primaries: a port that was free a moment ago and that nothing listens on now.
  const probe = net.createServer();
  const refusedPort = await listen(probe, host);
  await new Promise<void>((resolve) => probe.close(() => resolve()));

  return {
    host,
    ports,
    refusedPort,
    replicaPort,
    connections,
    stats,
    setLatency(rtt, jitter = 0) {
      rttMs = rtt;
      jitterMs = jitter;
    },
    forgetAnswers() {
      for (const m of answerCaches) m.clear();
    },
    async stop() {
      stopped = true;
      for (const t of timers) clearTimeout(t);
      timers.clear();
      for (const s of sockets) s.destroy();
      await Promise.all(closers.map((c) => c()));
    },
  };
}
