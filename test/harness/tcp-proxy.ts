/**
 * A TCP proxy in front of a real MariaDB for fault tests: it forwards bytes both ways until a client connection has
 * sent `stallAfterStatements` statements, then holds that connection's next statement forever (the server never sees
 * it, the client never hears back; the sockets stay open), like a primary that stops answering in the middle of a
 * read. It can also refuse nothing and stall nothing (`Infinity`), or stall every connection at once (`0`: the
 * statement after the login, as a server frozen before the read).
 *
 * Statements are counted from the MySQL wire framing of the client's bytes (3-byte length, 1-byte sequence id):
 * a packet with sequence id 0 whose first payload byte is `COM_QUERY` (0x03) is one statement. Login packets have
 * sequence ids above 0, so they are never counted. Plaintext only (a TLS session cannot be parsed). Loopback only.
 */
import { createServer, connect, type Server, type Socket } from 'node:net';

/** Options of {@link startStallingProxy}. */
export interface StallingProxyOptions {
  /** Where the real server listens. */
  readonly targetHost: string;
  readonly targetPort: number;
  /** Statements each connection may send before the next one is held (default Infinity: never stall). */
  readonly stallAfterStatements?: number;
}

/** A running proxy. */
export interface StallingProxy {
  readonly host: string;
  readonly port: number;
  /** Statements forwarded so far, all connections together, and the text of each (for assertions). */
  readonly forwarded: string[];
  /** Statements held (never forwarded). */
  readonly held: string[];
  /** Connections accepted so far. */
  connections(): number;
  /** Changes the threshold for connections accepted from now on. */
  setStallAfter(n: number): void;
  /** Closes every connection and the listener. */
  stop(): Promise<void>;
}

const COM_QUERY = 0x03;

/** Starts a proxy on a free loopback port. */
export async function startStallingProxy(opts: StallingProxyOptions): Promise<StallingProxy> {
  let stallAfter = opts.stallAfterStatements ?? Number.POSITIVE_INFINITY;
  const sockets = new Set<Socket>();
  const forwarded: string[] = [];
  const held: string[] = [];
  let accepted = 0;

  const server: Server = createServer((client) => {
    accepted += 1;
    const limit = stallAfter;
    const upstream = connect({ host: opts.targetHost, port: opts.targetPort });
    sockets.add(client);
    sockets.add(upstream);
    const drop = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('error', drop);
    upstream.on('error', drop);
    client.on('close', drop);
    upstream.on('close', drop);
    upstream.on('data', (d) => client.write(d));

    let buffered = Buffer.alloc(0);
    let statements = 0;
    let stalled = false;
    client.on('data', (d) => {
      if (stalled) return; // held: nothing more reaches the server
      buffered = Buffer.concat([buffered, d]);
      // Forward whole packets only, so a held statement is never half-sent.
      while (buffered.length >= 4) {
        const len = buffered.readUIntLE(0, 3);
        if (buffered.length < 4 + len) break;
        const packet = buffered.subarray(0, 4 + len);
        const seq = packet[3];
        const isStatement = seq === 0 && packet[4] === COM_QUERY;
        if (isStatement) {
          const text = packet.subarray(5).toString('utf8');
          if (statements >= limit) {
            stalled = true;
            held.push(text);
            return;
          }
          statements += 1;
          forwarded.push(text);
        }
        upstream.write(packet);
        buffered = buffered.subarray(4 + len);
      }
    });
  });
  const port = await new Promise<number>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const a = server.address();
      resolve(typeof a === 'object' && a !== null ? a.port : 0);
    });
  });
  return {
    host: '127.0.0.1',
    port,
    forwarded,
    held,
    connections: () => accepted,
    setStallAfter(n) {
      stallAfter = n;
    },
    stop() {
      for (const s of sockets) s.destroy();
      sockets.clear();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
