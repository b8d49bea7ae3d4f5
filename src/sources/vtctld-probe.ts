/**
 * Why `--vtctld` did not answer as vtctld: run once, after the first call failed, to turn "cannot reach" into one
 * line that says which of the usual mistakes it was: an unknown host, a refused port, no TCP connection before the
 * deadline, a MySQL port (MySQL speaks first: its greeting names the server), an HTTP/1 server (vtctld's web port,
 * 15000, instead of its gRPC port, 15999), a server that wants TLS, or a server that accepts and never answers.
 * Read-only: it sends at most one HTTP/1 `GET /` and reads the reply; it never logs in anywhere.
 */
import { lookup } from 'node:dns/promises';
import net from 'node:net';
import tls from 'node:tls';
import { formatTimeout } from './vtctld.js';

/** What the probe found, as the end of a sentence: `connection refused`, `a MySQL server (…)` … */
export interface ProbeVerdict {
  /** The one-line reason, without the address. */
  readonly reason: string;
  /** True when the server is up but is not vtctld (the address points at the wrong thing). */
  readonly notVtctld: boolean;
}

const splitAddress = (address: string): { host: string; port: number } => {
  const m = /^\[?([^\]]*?)\]?:(\d+)$/.exec(address);
  return m ? { host: m[1]!, port: Number(m[2]) } : { host: address, port: 0 };
};

/** The server name in a MySQL initial handshake packet (protocol 10), or an error packet's message; else null. */
export function mysqlGreeting(data: Buffer): string | null {
  if (data.length < 6 || data[3] !== 0) return null;
  if (data[4] === 0x0a) {
    const end = data.indexOf(0, 5);
    const version = data.subarray(5, end < 0 ? Math.min(data.length, 60) : end).toString('latin1');
    return /^\d+\.\d+/.test(version) ? version : null;
  }
  if (data[4] === 0xff && data.length > 7)
    return `refused us: ${data
      .subarray(7)
      .toString('utf8')
      .replace(/^#\w{5}/, '')}`;
  return null;
}

/**
 * Probes `address` for at most `budgetMs` (plus the DNS lookup). `tls`: whether vtpreflight was told to use TLS
 * (then a plaintext HTTP/1 reply is not a TLS hint).
 */
export async function probeVtctld(
  address: string,
  o: { budgetMs: number; tls: boolean; waitedMs?: number },
): Promise<ProbeVerdict> {
  const { host, port } = splitAddress(address);
  let ip: string;
  try {
    ip = (await lookup(host)).address;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code ?? 'lookup failed';
    return { reason: `unknown host ${host} (${code})`, notVtctld: false };
  }
  const t0 = performance.now();
  return new Promise<ProbeVerdict>((resolve) => {
    const socket = net.connect({ host: ip, port });
    let connected = false;
    let sent = false;
    let received = Buffer.alloc(0);
    let settled = false;
    const done = (v: ProbeVerdict) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(v);
    };
    const judgeReply = (): ProbeVerdict | null => {
      const text = received.toString('latin1');
      const greeting = mysqlGreeting(received);
      if (greeting !== null) return { reason: `it is a MySQL server (${greeting})`, notVtctld: true };
      if (received[0] === 0x15 && received[1] === 0x03)
        return {
          reason: 'the server wants TLS (it answered with a TLS alert): give --vtctld-tls-ca',
          notVtctld: false,
        };
      if (text.startsWith('HTTP/1.')) {
        if (/HTTPS server|plain HTTP request was sent to HTTPS port/i.test(text))
          return {
            reason: 'the server wants TLS: give --vtctld-tls-ca (and --vtctld-tls-server-name)',
            notVtctld: false,
          };
        const statusLine = text.split('\r\n')[0]!;
        return {
          reason: `it is an HTTP/1 server (${statusLine}), not a gRPC port (vtctld serves gRPC on --grpc_port, 15999 by default, and web pages on --port, 15000)`,
          notVtctld: true,
        };
      }
      return null;
    };
    // Servers that speak first (MySQL) have done so by then; the others get one HTTP/1 request.
    const speakFirstMs = Math.min(500, o.budgetMs / 2);
    const timer = setTimeout(() => {
      const elapsed = formatTimeout(performance.now() - t0 + (o.waitedMs ?? 0));
      if (!connected)
        done({ reason: `no TCP connection within ${elapsed}: check the address and the network`, notVtctld: false });
      else
        done({
          reason: `the server accepts connections but answered nothing within ${elapsed}: not a gRPC server, or a hung one`,
          notVtctld: true,
        });
    }, o.budgetMs);
    socket.on('connect', () => {
      connected = true;
      setTimeout(() => {
        if (settled || received.length > 0) return;
        sent = true;
        socket.write(`GET / HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`);
      }, speakFirstMs);
    });
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]).subarray(0, 4096);
      const v = judgeReply();
      if (v !== null) done(v);
      else if (received.length >= 64) done({ reason: 'the server speaks a protocol other than gRPC', notVtctld: true });
    });
    socket.on('end', () => {
      const v = judgeReply();
      if (v !== null) return done(v);
      if (received.length > 0) return done({ reason: 'the server speaks a protocol other than gRPC', notVtctld: true });
      // Closed without a word: a TLS server does that to plaintext. Ask it for a TLS handshake (nothing verified,
      // nothing sent after it) to tell.
      if (o.tls || settled)
        return done({ reason: 'the server closed the connection without answering', notVtctld: true });
      wantsTls(ip, port, host, 1000).then((yes) =>
        done(
          yes
            ? {
                reason:
                  'the server wants TLS (it completed a TLS handshake): give --vtctld-tls-ca (and --vtctld-tls-server-name)',
                notVtctld: false,
              }
            : {
                reason: `the server closed the connection without answering${sent ? ' an HTTP/1 request' : ''}`,
                notVtctld: true,
              },
        ),
      );
    });
    socket.on('error', (e: NodeJS.ErrnoException) => {
      const elapsed = formatTimeout(performance.now() - t0 + (o.waitedMs ?? 0));
      if (e.code === 'ECONNREFUSED')
        return done({
          reason: `connection refused after ${elapsed}: nothing listens on ${host} port ${port}`,
          notVtctld: false,
        });
      if (e.code === 'EHOSTUNREACH' || e.code === 'ENETUNREACH')
        return done({ reason: `host unreachable (${e.code}) after ${elapsed}`, notVtctld: false });
      if (connected) {
        const v = judgeReply();
        if (v !== null) return done(v);
        return done({ reason: `the server reset the connection (${e.code ?? e.message})`, notVtctld: true });
      }
      done({ reason: `${e.code ?? e.message} after ${elapsed}`, notVtctld: false });
    });
  });
}

/** True when `ip:port` completes a TLS handshake within `ms` (the certificate is not checked: only the protocol). */
function wantsTls(ip: string, port: number, host: string, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    // No SNI for an IP address (Node deprecates it: DEP0123).
    const s = tls.connect({
      host: ip,
      port,
      rejectUnauthorized: false,
      ...(net.isIP(host) ? {} : { servername: host }),
    });
    const finish = (yes: boolean) => {
      clearTimeout(timer);
      s.destroy();
      resolve(yes);
    };
    const timer = setTimeout(() => finish(false), ms);
    s.on('secureConnect', () => finish(true));
    s.on('error', () => finish(false));
  });
}
