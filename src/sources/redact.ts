/**
 * `snapshot --redact`: a readout with host names, user names and secret-looking values replaced, so that a
 * snapshot can be attached to a public bug report. Pure; deterministic (the same readout gives the same output).
 *
 * What is replaced:
 * - host names and IP addresses: the vtctld address, tablet `hostname` and `mysqlHostname`, the host of every
 *   sidecar `endpoint`, and any of them (or any IPv4 address) inside free text: ReadError `where`/`reason`,
 *   stream and log messages. Each host gets a stable placeholder `host-1`, `host-2` … (numbered in order of first
 *   appearance: vtctld, tablets by alias, endpoints, then addresses found in text); ports are kept;
 * - user names: `external_mysql` in a stream's BinlogSource text, and MySQL's `'user'@'host'` in messages
 *   (`user-1` …);
 * - secret-looking values: `password=…`, `secret: …`, `token …`, `api_key=…` (and `passwd`, `pwd`, `credential`,
 *   `auth`) in free text, the `options` column and vindex params whose name looks like one (`<redacted>`).
 *
 * What is kept, because the checks need it and it is not secret: keyspace, shard, cell and table names, tablet
 * aliases, ports, GTID positions and server UUIDs, filters, states. So the redacted readout checks to the same
 * findings; only host names inside messages differ.
 */
import { UNIT_READ_IDS } from '../reads/units/index.js';
import type {
  ReadError,
  Readout,
  TabletSidecarRead,
  VReplicationLogRow,
  VReplicationRow,
  VSchemaRecord,
} from '../readout.js';
import { byCodeUnit } from '../text.js';
import { statementShape } from '../vitess/sql-shape.js';

/** A statement digest reduced to its shape (literals as `?`, no comments); null stays null. */
const shaped = (digest: string | null): string | null => (digest === null ? null : statementShape(digest).digest);

type Read<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: ReadError };

const SECRET_WORD = '(?:password|passwd|pwd|secret|token|api[_-]?key|credentials?|auth)';
/** `password=x`, `password: x`, `"password":"x"`, `token x`: the value up to a separator. */
const SECRET_VALUE = new RegExp(`(\\b[A-Za-z_-]*${SECRET_WORD}[A-Za-z_-]*"?\\s*[:=]\\s*"?)([^\\s",;&'})\\]]+)`, 'gi');
const SECRET_KEY = new RegExp(SECRET_WORD, 'i');
const IPV4 = /(?<![\w.])(?:\d{1,3}\.){3}\d{1,3}(?![\w.])/g;
const MYSQL_USER = /'([^'@\s]*)'@'([^'\s]*)'/g;
const EXTERNAL_MYSQL = /(external_mysql\s*:\s*)"((?:[^"\\]|\\.)*)"/g;
const REDACTED = '<redacted>';

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Splits `host:port` (or `[v6]:port`); no port → port ''. */
function splitHostPort(address: string): { host: string; port: string } {
  const v6 = /^\[([^\]]+)\](?::(\d+))?$/.exec(address);
  if (v6) return { host: v6[1]!, port: v6[2] ?? '' };
  const m = /^(.*?)(?::(\d+))?$/.exec(address)!;
  return { host: m[1]!, port: m[2] ?? '' };
}

class Redactor {
  private readonly hosts = new Map<string, string>();
  private readonly users = new Map<string, string>();
  private hostPattern: RegExp | null = null;

  host(h: string): string {
    if (h === '') return h;
    let p = this.hosts.get(h);
    if (p === undefined) {
      p = `host-${this.hosts.size + 1}`;
      this.hosts.set(h, p);
      this.hostPattern = null;
    }
    return p;
  }

  user(u: string): string {
    if (u === '') return u;
    let p = this.users.get(u);
    if (p === undefined) this.users.set(u, (p = `user-${this.users.size + 1}`));
    return p;
  }

  address(a: string | null): string | null {
    if (a === null || a === '' || a === 'vtctld') return a;
    const { host, port } = splitHostPort(a);
    return port === '' ? this.host(host) : `${this.host(host)}:${port}`;
  }

  /** Free text: known hosts, IPv4 addresses, MySQL `'user'@'host'`, secret-looking values. */
  text(s: string): string;
  text(s: string | null): string | null;
  text(s: string | null): string | null {
    if (s === null || s === '') return s;
    let out = s.replace(SECRET_VALUE, (_, k: string) => `${k}${REDACTED}`);
    out = out.replace(
      MYSQL_USER,
      (_, u: string, h: string) => `'${this.user(u)}'@'${h === '%' || h === '' ? h : this.host(h)}'`,
    );
    out = out.replace(IPV4, (ip) => this.host(ip));
    const known = [...this.hosts.keys()].filter((h) => !/^host-\d+$/.test(h));
    if (known.length > 0) {
      this.hostPattern ??= new RegExp(
        `(?<![\\w.-])(?:${known
          .sort((a, b) => b.length - a.length)
          .map(escapeRe)
          .join('|')})(?![\\w-]|\\.\\w)`,
        'g',
      );
      out = out.replace(this.hostPattern, (h) => this.hosts.get(h) ?? h);
    }
    return out;
  }

  error(e: ReadError): ReadError {
    return { ...e, where: this.text(e.where), reason: this.text(e.reason) };
  }

  read<T>(r: Read<T>, value: (v: T) => T = (v) => v): Read<T> {
    return r.ok ? { ok: true, value: value(r.value) } : { ok: false, error: this.error(r.error) };
  }

  source(text: string): string {
    return text.replace(EXTERNAL_MYSQL, (_, k: string, u: string) => `${k}"${u === '' ? '' : this.user(u)}"`);
  }

  row(r: VReplicationRow): VReplicationRow {
    return {
      ...r,
      source: this.source(r.source),
      message: this.text(r.message),
      ...(r.options !== undefined ? { options: this.text(r.options) } : {}),
    };
  }

  log(l: VReplicationLogRow): VReplicationLogRow {
    return { ...l, message: this.text(l.message) };
  }

  sidecar(s: TabletSidecarRead): TabletSidecarRead {
    return {
      ...s,
      endpoint: this.address(s.endpoint) ?? '',
      columns: this.read(s.columns),
      vreplication: this.read(s.vreplication, (rows) => rows.map((r) => this.row(r))),
      copyState: this.read(s.copyState),
      vreplicationLog: this.read(s.vreplicationLog, (rows) => rows.map((l) => this.log(l))),
      reshardingJournal: this.read(s.reshardingJournal),
      ...(s.positionColumns !== undefined ? { positionColumns: this.read(s.positionColumns) } : {}),
      ...(s.tables !== undefined ? { tables: this.read(s.tables) } : {}),
      // Other sessions' statements: their shape only (a snapshot from an older reader may carry comments).
      ...(s.transactions !== undefined
        ? { transactions: this.read(s.transactions, (rows) => rows.map((t) => ({ ...t, digest: shaped(t.digest) }))) }
        : {}),
      ...(s.metadataLocks !== undefined
        ? {
            metadataLocks: this.read(s.metadataLocks, (m) => ({
              ...m,
              locks: m.locks.map((l) => ({ ...l, digest: shaped(l.digest) })),
            })),
          }
        : {}),
      ...(s.tableKeys !== undefined ? { tableKeys: this.read(s.tableKeys) } : {}),
      ...(s.tableProbes !== undefined ? { tableProbes: this.read(s.tableProbes) } : {}),
      ...(s.sequenceValues !== undefined ? { sequenceValues: this.read(s.sequenceValues) } : {}),
      ...(s.autoIncrementMax !== undefined ? { autoIncrementMax: this.read(s.autoIncrementMax) } : {}),
      ...(s.foreignKeys !== undefined ? { foreignKeys: this.read(s.foreignKeys) } : {}),
      ...(s.vdiffs !== undefined
        ? { vdiffs: this.read(s.vdiffs, (rows) => rows.map((v) => ({ ...v, last_error: this.text(v.last_error) }))) }
        : {}),
      ...(s.filteredUserGrants !== undefined ? { filteredUserGrants: this.read(s.filteredUserGrants) } : {}),
      // The reads declared as units: a failure's text names the primary's address.
      ...Object.fromEntries(
        UNIT_READ_IDS.flatMap((id) => {
          const r = s[id];
          return r === undefined ? [] : [[id, this.read<unknown>(r)]];
        }),
      ),
    };
  }

  vschema(v: VSchemaRecord): VSchemaRecord {
    return {
      ...v,
      vindexes: Object.fromEntries(
        Object.entries(v.vindexes).map(([name, vi]) => [
          name,
          {
            ...vi,
            params: Object.fromEntries(
              Object.entries(vi.params).map(([k, p]) => [k, SECRET_KEY.test(k) ? REDACTED : p]),
            ),
          },
        ]),
      ),
    };
  }
}

/** The readout with host names, user names and secret-looking values replaced (see the module comment). */
export function redactReadout(readout: Readout): Readout {
  const r = new Redactor();
  // Register the known hosts first, in a stable order, so that free text is redacted whatever order it is met in.
  const vtctld = r.address(readout.target.vtctld);
  const tablets = readout.topology.tablets.ok
    ? [...readout.topology.tablets.value].sort((a, b) => byCodeUnit(a.alias, b.alias))
    : [];
  for (const t of tablets) {
    r.host(t.hostname);
    r.host(t.mysqlHostname);
  }
  for (const s of readout.sidecars) r.address(s.endpoint);
  const topo = readout.topology;
  return {
    ...readout,
    target: { ...readout.target, vtctld },
    topology: {
      keyspaces: r.read(topo.keyspaces),
      shards: Object.fromEntries(Object.entries(topo.shards).map(([k, v]) => [k, r.read(v)])),
      tablets: r.read(topo.tablets, (list) =>
        list.map((t) => ({ ...t, hostname: r.host(t.hostname), mysqlHostname: r.host(t.mysqlHostname) })),
      ),
      vschemas: Object.fromEntries(Object.entries(topo.vschemas).map(([k, v]) => [k, r.read(v, (x) => r.vschema(x))])),
      routingRules: r.read(topo.routingRules),
      shardRoutingRules: r.read(topo.shardRoutingRules),
    },
    workflows: Object.fromEntries(
      Object.entries(readout.workflows).map(([k, v]) => [
        k,
        r.read(v, (list) =>
          list.map((w) => ({ ...w, streams: w.streams.map((s) => ({ ...s, message: r.text(s.message) })) })),
        ),
      ]),
    ),
    sidecars: readout.sidecars.map((s) => r.sidecar(s)),
    fullStatus: Object.fromEntries(Object.entries(readout.fullStatus).map(([k, v]) => [k, r.read(v)])),
  };
}
