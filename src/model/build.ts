/**
 * Readout → model. Pure: no I/O, no clock (the capture time comes from the readout).
 *
 * The builder parses every `source`, `pos` and `stop_pos`, derives Vitess's displayed stream state, groups
 * streams into workflows and keeps every failed read, located, so that checks can tell "not read" from "empty".
 */
import { inflateSync } from 'node:zlib';
import type {
  FullStatusRecord,
  Read,
  ReadError,
  Readout,
  ReadoutPart,
  ShardRecord,
  TabletRecord,
  TabletSidecarRead,
  VSchemaRecord,
  VReplicationRow,
} from '../readout.js';
import { parseBinlogSource } from '../vitess/binlog-source.js';
import { WORKFLOW_TYPES, workflowSubTypeName, workflowTypeName } from '../vitess/enums.js';
import { parsePosition, type Position } from '../vitess/position.js';
import { deepFreeze } from './freeze.js';
import { compareShardNames } from '../vitess/keyrange.js';
import type {
  ClusterModel,
  Keyspace,
  ReadFailure,
  ReadPart,
  Shard,
  ShardSidecar,
  UnitReadFields,
  Stream,
  Tablet,
  VSchema,
  Workflow,
  WorkflowSubType,
  WorkflowType,
} from './types.js';
import { byCodeUnit, oneLine } from '../text.js';
import { invisibleSourceSchemas, invisibleTargetSchemas } from './schema-visibility.js';
import { PRIMARY_READS, type PrimaryReadId } from '../reads/registry.js';
import { UNIT_READ_IDS } from '../reads/units/index.js';

/** The sidecar database name Vitess uses when the keyspace record leaves it empty. */
export const DEFAULT_SIDECAR_DB = '_vt';

const ok = <T>(value: T): Read<T> => ({ ok: true, value });

/** Builds the immutable cluster model from a readout. Never throws for data problems: bad rows become stream errors. */
export function buildModel(readout: Readout): ClusterModel {
  const readAt = Date.parse(readout.capturedAt);
  if (!Number.isFinite(readAt))
    throw new Error(`invalid readout: capturedAt "${readout.capturedAt}" is not an ISO-8601 time`);
  const failures: ReadFailure[] = [];
  const fail = (r: Read<unknown>, part: ReadPart, loc: Location = {}, read?: PrimaryReadId) => {
    if (!r.ok) failures.push({ ...located(r.error, part, loc), ...(read !== undefined ? { reads: [read] } : {}) });
  };
  // A part the readout does not carry at all (`readout.lacks`) is not a read failure: checks needing it are skipped.
  const lacks = new Set(readout.lacks ?? []);
  const failUnlessLacking = (lacking: ReadoutPart, r: Read<unknown>, part: ReadPart, loc: Location = {}) => {
    if (!lacks.has(lacking)) fail(r, part, loc);
  };

  // Tablets.
  const topo = readout.topology;
  failUnlessLacking('tablets', topo.tablets, 'topology');
  failUnlessLacking('topology', topo.keyspaces, 'topology');
  const tabletRecords: readonly TabletRecord[] = topo.tablets.ok ? topo.tablets.value : [];
  const tablets = new Map<string, Tablet>();
  for (const t of [...tabletRecords].sort((a, b) => byCodeUnit(a.alias, b.alias))) {
    const fs: Read<FullStatusRecord> | undefined = readout.fullStatus[t.alias];
    // A tablet without a hostname is not running: vtctld cannot dial it, SwitchTraffic's refresh skips it
    // (`vitessio/vitess:go/vt/topotools/keyspace.go` `RefreshTabletsByShard`: `if ti.Hostname == ""` … `continue`) and
    // the tablet picker cannot connect to it. Its failed GetFullStatus is kept on the tablet (the picker checks see
    // it did not answer) but is no gap in what was read.
    if (fs && t.hostname !== '' && !lacks.has('fullStatus') && !fs.ok) {
      const loc = { keyspace: t.keyspace, shard: t.shard, tablet: t.alias };
      const failure = located(fs.error, 'full-status', loc);
      failures.push(statusAnswered(failure) ? { ...failure, notNeeded: true } : failure);
    }
    tablets.set(t.alias, {
      alias: t.alias,
      cell: t.cell,
      keyspace: t.keyspace,
      shard: t.shard,
      type: t.type,
      hostname: t.hostname,
      mysqlHostname: t.mysqlHostname,
      mysqlPort: t.mysqlPort,
      dbName: t.dbNameOverride || `vt_${t.keyspace}`,
      fullStatus: fs,
    });
  }
  const tabletsByShard = new Map<string, Tablet[]>();
  for (const t of tablets.values()) {
    const k = `${t.keyspace}/${t.shard}`;
    let list = tabletsByShard.get(k);
    if (!list) tabletsByShard.set(k, (list = []));
    list.push(t);
  }

  // Sidecar reads by keyspace/shard.
  const sidecarByShard = new Map<string, TabletSidecarRead>();
  for (const s of readout.sidecars) sidecarByShard.set(`${s.keyspace}/${s.shard}`, s);

  // Keyspaces and shards.
  const keyspaces = new Map<string, Keyspace>();
  const keyspaceRecords = topo.keyspaces.ok ? [...topo.keyspaces.value].sort((a, b) => byCodeUnit(a.name, b.name)) : [];
  for (const ks of keyspaceRecords) {
    const sidecarDbName = ks.sidecarDbName || DEFAULT_SIDECAR_DB;
    const shardsRead = topo.shards[ks.name] ?? notCollected(`FindAllShardsInKeyspace ${ks.name}`);
    failUnlessLacking('topology', shardsRead, 'topology', { keyspace: ks.name });
    const vschemaRead = topo.vschemas[ks.name] ?? notCollected(`GetVSchema ${ks.name}`);
    failUnlessLacking('vschema', vschemaRead, 'topology', { keyspace: ks.name });
    let shards: Read<ReadonlyMap<string, Shard>>;
    if (shardsRead.ok) {
      const map = new Map<string, Shard>();
      for (const rec of [...shardsRead.value].sort((a, b) => compareShardNames(a.name, b.name))) {
        map.set(
          rec.name,
          buildShard(
            rec,
            tabletsByShard.get(`${ks.name}/${rec.name}`) ?? [],
            sidecarByShard.get(`${ks.name}/${rec.name}`),
            fail,
          ),
        );
      }
      shards = ok(map);
    } else {
      shards = shardsRead;
    }
    keyspaces.set(ks.name, {
      name: ks.name,
      sidecarDbName,
      keyspaceType: ks.keyspaceType,
      shards,
      vschema: vschemaRead.ok ? ok(buildVSchema(vschemaRead.value)) : vschemaRead,
      durabilityPolicy: ks.durabilityPolicy ?? '',
    });
  }
  // Sidecar reads of shards that are not in any shard record (should not happen) still count as failures.
  for (const s of readout.sidecars) {
    // As for a shard's primary: the other reads narrow the evidence only when the streams were read.
    const rest: ReadPart = s.vreplication.ok ? 'sidecar' : 'streams';
    const parts: [Read<unknown>, ReadPart][] = [
      [s.columns, 'streams'],
      [s.vreplication, 'streams'],
      [s.copyState, rest],
      [s.vreplicationLog, rest],
      [s.reshardingJournal, rest],
    ];
    for (const [r, part] of parts) {
      const ksShards = keyspaces.get(s.keyspace)?.shards;
      if (!ksShards || !ksShards.ok || !ksShards.value.has(s.shard))
        fail(r, part, { keyspace: s.keyspace, shard: s.shard, tablet: s.alias });
    }
  }
  failUnlessLacking('topology', topo.routingRules, 'topology');
  failUnlessLacking('topology', topo.shardRoutingRules, 'topology');
  for (const [ks, r] of Object.entries(readout.workflows)) fail(r, 'workflows', { keyspace: ks });

  // Workflows: group streams of every read primary by (target keyspace, workflow).
  const groups = new Map<string, Stream[]>();
  for (const ks of keyspaces.values()) {
    if (!ks.shards.ok) continue;
    for (const shard of ks.shards.value.values()) {
      if (!shard.sidecar?.ok) continue;
      for (const st of shard.sidecar.value.streams) {
        const key = `${ks.name}\u0000${st.workflow}`;
        let list = groups.get(key);
        if (!list) groups.set(key, (list = []));
        list.push(st);
      }
    }
  }
  const allWorkflows: Workflow[] = [];
  for (const streams of groups.values()) {
    const first = streams[0]!;
    const vtctldRead = readout.workflows[first.keyspace];
    const vtctld = vtctldRead?.ok ? vtctldRead.value.find((w) => w.name === first.workflow) : undefined;
    allWorkflows.push(buildWorkflow(first.keyspace, first.workflow, streams, vtctld));
  }
  allWorkflows.sort((a, b) => byCodeUnit(a.keyspace, b.keyspace) || byCodeUnit(a.name, b.name));

  const selection = { keyspaces: [...readout.target.keyspaces], workflows: [...readout.target.workflows] };
  const workflows = allWorkflows.filter(
    (w) =>
      (selection.keyspaces.length === 0 || selection.keyspaces.includes(w.keyspace)) &&
      (selection.workflows.length === 0 || selection.workflows.includes(w.name)),
  );
  const streamList = workflows.flatMap((w) => w.streams);

  // A MoveTables source (or target) schema listing no table over MySQL was not visible: a read failure
  // (schema-visibility.ts).
  if (readout.target.via !== 'vtctld') {
    const shardOf = (ks: string, name: string) => {
      const k = keyspaces.get(ks);
      return k?.shards.ok ? k.shards.value.get(name) : undefined;
    };
    for (const gap of [...invisibleSourceSchemas(workflows, shardOf), ...invisibleTargetSchemas(workflows, shardOf)]) {
      failures.push(gap.failure);
      const shards = keyspaces.get(gap.shard.keyspace)!.shards as { ok: true; value: Map<string, Shard> };
      shards.value.set(gap.shard.name, gap.shard);
    }
  }

  const routingRules: ClusterModel['routingRules'] = topo.routingRules.ok
    ? ok(new Map(topo.routingRules.value.map((r) => [r.fromTable, [...r.toTables]] as const)))
    : topo.routingRules;
  const shardRoutingRules: ClusterModel['shardRoutingRules'] = topo.shardRoutingRules.ok
    ? ok(topo.shardRoutingRules.value.map((r) => ({ ...r })))
    : topo.shardRoutingRules;

  const model: ClusterModel = {
    readAt,
    vtctld: readout.target.vtctld,
    keyspaces,
    keyspacesRead: topo.keyspaces.ok ? ok(true) : topo.keyspaces,
    tablets,
    tabletsRead: topo.tablets.ok ? ok(true) : topo.tablets,
    routingRules,
    shardRoutingRules,
    selection,
    workflows,
    allWorkflows,
    failures,
    versionEvidence: {
      // A vtctldclient file shows no table's columns: its sidecar reads are synthesized, never evidence.
      sidecarColumns: new Map(
        readout.origin === 'workflows-json'
          ? []
          : readout.sidecars.flatMap((sc) => (sc.columns.ok ? [[sc.alias, [...sc.columns.value]] as const] : [])),
      ),
      vdiffLogIdTypes: new Map(
        readout.origin === 'workflows-json'
          ? []
          : readout.sidecars.flatMap((sc) => {
              const row = sc.positionColumns?.ok
                ? sc.positionColumns.value.find((c) => c.table_name === 'vdiff_log' && c.column_name === 'id')
                : undefined;
              return row !== undefined ? [[sc.alias, row.data_type.toLowerCase()] as const] : [];
            }),
      ),
      hints: (readout.releaseHints ?? []).map((h) => ({ ...h })),
      ...(readout.offline === true ? { offline: true } : {}),
      rpcs: new Map(Object.entries(readout.rpcs ?? {})),
      builds: new Map(
        Object.entries(readout.tabletBuilds ?? {}).flatMap(([alias, r]) =>
          r.ok ? [[alias, { ...r.value }] as const] : [],
        ),
      ),
    },
    ...(readout.copyProgress !== undefined && Object.keys(readout.copyProgress).length > 0
      ? { copyProgress: new Map(Object.entries(readout.copyProgress).map(([k, v]) => [k, v.map((t) => ({ ...t }))])) }
      : {}),
    keyspaceRoutingRules: readout.keyspaceRoutingRules ?? notCollected('GetKeyspaceRoutingRules'),
    mirrorRules: readout.mirrorRules ?? notCollected('GetMirrorRules'),
    serving: {
      cells: readout.cells ?? notCollected('GetCellInfoNames'),
      srvVSchemas: new Map(Object.entries(readout.srvVSchemas ?? {})),
      srvKeyspaces: new Map(Object.entries(readout.srvKeyspaces ?? {})),
    },
    unavailable: unavailableReads(readout),
    streams: () => streamList,
    keyspace: (name) => keyspaces.get(name),
    shard: (ks, name) => {
      const k = keyspaces.get(ks);
      return k?.shards.ok ? k.shards.value.get(name) : undefined;
    },
    tablet: (alias) => tablets.get(alias),
  };
  return deepFreeze(model);
}

/** Every read vtctld answered UNIMPLEMENTED ("not available on this vtctld"), located where it applies. */
function unavailableReads(readout: Readout): ReadFailure[] {
  const out: ReadFailure[] = [];
  const add = (r: Read<unknown> | undefined, loc: Location = {}) => {
    if (r !== undefined && !r.ok && r.error.unavailable === true) out.push(located(r.error, 'topology', loc));
  };
  add(readout.keyspaceRoutingRules);
  add(readout.mirrorRules);
  for (const [alias, r] of Object.entries(readout.tabletBuilds ?? {})) add(r, { tablet: alias });
  return out;
}

type Location = Pick<ReadFailure, 'keyspace' | 'shard' | 'tablet'>;

/**
 * Kinds of a failed GetFullStatus that its tablet manager answered: vtctld reached the tablet, and only the MySQL facts
 * FullStatus gathers were not read (`vitessio/vitess` `go/vt/vttablet/tabletmanager/rpc_replication.go` `FullStatus`
 * @v0.24.4 reads `@@global.super_read_only`, the binlog settings and the positions from mysqld). UNAVAILABLE (the
 * tablet manager could not be reached), a timeout (gone, or only stalled) and reads never sent are not among them.
 */
const ANSWERED_STATUS_KINDS: ReadonlySet<string> = new Set([
  'sql-error',
  'rpc-error',
  'privilege',
  'missing-table',
  'missing-column',
  'bad-answer',
]);

/** True for a failed GetFullStatus that the tablet manager answered (see {@link ANSWERED_STATUS_KINDS}). */
export function statusAnswered(f: ReadFailure): boolean {
  return f.part === 'full-status' && f.cause === undefined && ANSWERED_STATUS_KINDS.has(f.kind);
}

/**
 * A failure as the model keeps it: located, with the part of the readout it was and its kind. A readout older than
 * `ReadError.kind` has none: `other` here; snapshots and `runChecks` give it the kind its fields say first
 * (`withReadErrorKinds`, src/sources/read-kind.ts).
 */
function located(e: ReadError, part: ReadPart, loc: Location): ReadFailure {
  return { ...e, kind: e.kind ?? 'other', part, ...loc };
}

function notCollected<T>(what: string): Read<T> {
  return { ok: false, error: { what, where: 'readout', reason: 'not collected', kind: 'not-collected' } };
}

function buildShard(
  rec: ShardRecord,
  shardTablets: readonly Tablet[],
  sidecar: TabletSidecarRead | undefined,
  fail: (r: Read<unknown>, part: ReadPart, loc?: Location, read?: PrimaryReadId) => void,
): Shard {
  let sidecarRead: Read<ShardSidecar> | undefined;
  if (sidecar) {
    const loc = { keyspace: rec.keyspace, shard: rec.name, tablet: sidecar.alias };
    // The stream rows are what matters; the other reads are recorded as failures but do not hide the streams.
    fail(sidecar.vreplication, 'streams', loc, 'vreplication');
    if (sidecar.vreplication.ok) {
      // Every other read of the primary (src/reads/registry.ts), in readout order: absent ones were not asked for.
      for (const { id } of PRIMARY_READS) {
        if (id === 'columns' || id === 'vreplication') continue;
        const r = sidecar[id];
        if (r !== undefined) fail(r, 'sidecar', loc, id);
      }
      sidecarRead = ok(buildSidecar(sidecar));
    } else {
      sidecarRead = sidecar.vreplication;
    }
  }
  return {
    keyspace: rec.keyspace,
    name: rec.name,
    keyRange: rec.keyRange ? { start: rec.keyRange.start.toLowerCase(), end: rec.keyRange.end.toLowerCase() } : null,
    primaryAlias: rec.primaryAlias,
    isPrimaryServing: rec.isPrimaryServing,
    tabletControls: rec.tabletControls.map((tc) => ({
      ...tc,
      cells: [...tc.cells],
      deniedTables: [...tc.deniedTables],
    })),
    tablets: shardTablets,
    sidecar: sidecarRead,
  };
}

function buildSidecar(s: TabletSidecarRead): ShardSidecar {
  const rows = s.vreplication.ok ? s.vreplication.value : [];
  const copyTables = new Map<number, Set<string>>();
  if (s.copyState.ok) {
    for (const c of s.copyState.value) {
      let set = copyTables.get(c.vrepl_id);
      if (!set) copyTables.set(c.vrepl_id, (set = new Set()));
      set.add(c.table_name);
    }
  }
  const mine = rows
    .filter((r) => r.db_name === s.dbName)
    .map((r) =>
      buildStream(s, r, s.copyState.ok ? ok([...(copyTables.get(r.id) ?? [])].sort(byCodeUnit)) : s.copyState),
    )
    .sort((a, b) => a.id - b.id);
  // Online DDL rows (workflow_type 5) are not workflows an operator cuts over, but the stream migrator reads them
  // (`stream_migrator.go` `readTabletStreams`: no workflow_type predicate), so they are kept apart for it.
  const streams = mine.filter((x) => x.workflowType !== 'OnlineDDL');
  const onlineDdlStreams = mine.filter((x) => x.workflowType === 'OnlineDDL');
  return {
    tablet: s.alias,
    sidecarDb: s.sidecarDb,
    dbName: s.dbName,
    columns: s.columns.ok ? [...s.columns.value] : [],
    streams,
    onlineDdlStreams,
    journals: s.reshardingJournal.ok
      ? ok(s.reshardingJournal.value.map((j) => ({ id: j.id, val: j.val })))
      : s.reshardingJournal,
    logs: s.vreplicationLog,
    copyStateRead: s.copyState.ok ? ok(true) : s.copyState,
    positionColumns:
      s.positionColumns === undefined
        ? undefined
        : s.positionColumns.ok
          ? ok(
              s.positionColumns.value.map((c) => ({
                table: c.table_name,
                column: c.column_name,
                dataType: c.data_type,
                maxLength: c.max_length,
              })),
            )
          : s.positionColumns,
    tables: s.tables === undefined ? undefined : s.tables.ok ? ok([...s.tables.value].sort(byCodeUnit)) : s.tables,
    activity:
      s.transactions === undefined || s.metadataLocks === undefined
        ? undefined
        : {
            transactions: s.transactions.ok
              ? ok(
                  s.transactions.value.map((t) => ({
                    threadId: t.thread_id,
                    user: t.user,
                    command: t.command,
                    ageSeconds: t.trx_seconds,
                    state: t.state,
                    digest: t.digest,
                    rowsModified: t.rows_modified,
                    tablesLocked: t.tables_locked ?? null,
                  })),
                )
              : s.transactions,
            metadataLocks: s.metadataLocks.ok
              ? ok({
                  instrumented: s.metadataLocks.value.instrumented,
                  locks: s.metadataLocks.value.locks.map((l) => ({
                    threadId: l.thread_id,
                    table: l.table_name,
                    lockType: l.lock_type,
                    duration: l.lock_duration,
                    status: l.lock_status,
                    digest: l.digest,
                  })),
                })
              : s.metadataLocks,
          },
    tableKeys:
      s.tableKeys === undefined
        ? undefined
        : s.tableKeys.ok
          ? ok(
              s.tableKeys.value.map((t) => ({
                table: t.table_name,
                primaryKey: t.has_primary_key,
                uniqueNotNull: t.unique_not_null,
                uniqueNullable: [...t.unique_nullable],
              })),
            )
          : s.tableKeys,
    tableProbes:
      s.tableProbes === undefined
        ? undefined
        : s.tableProbes.ok
          ? ok(s.tableProbes.value.map((p) => ({ table: p.table_name, nonEmpty: p.non_empty })))
          : s.tableProbes,
    sequenceValues: s.sequenceValues,
    autoIncrementMax: s.autoIncrementMax,
    vdiffs: s.vdiffs,
    foreignKeys: s.foreignKeys,
    ...unitReadFields(s),
    filteredUserGrants: s.filteredUserGrants,
  };
}

/** The reads declared as units, as read: the model holds their readout values as they are. */
function unitReadFields(s: TabletSidecarRead): UnitReadFields {
  return Object.fromEntries(UNIT_READ_IDS.map((id) => [id, s[id]])) as unknown as UnitReadFields;
}

/** Decodes a `pos`/`stop_pos` value that may be MySQL `COMPRESS()` output (4-byte LE length + zlib). */
export function decodeStoredPosition(text: string, base64?: string): string {
  if (base64 === undefined) return text;
  const buf = Buffer.from(base64, 'base64');
  if (buf.length < 4) throw new Error('compressed position is shorter than its 4-byte length header');
  return inflateSync(buf.subarray(4)).toString('utf8');
}

function parsePos(text: string | null, base64?: string): { pos: Position | null; error: string | null; text: string } {
  if (text === null && base64 === undefined) return { pos: null, error: null, text: '' };
  try {
    const decoded = decodeStoredPosition(text ?? '', base64);
    return { pos: parsePosition(decoded), error: null, text: decoded };
  } catch (e) {
    return { pos: null, error: oneLine(e), text: text ?? '' };
  }
}

function buildStream(s: TabletSidecarRead, r: VReplicationRow, copyTables: Read<readonly string[]>): Stream {
  let source: Stream['source'] = null;
  let sourceError: string | null = null;
  try {
    source = parseBinlogSource(r.source);
  } catch (e) {
    sourceError = oneLine(e);
  }
  const pos = parsePos(r.pos, r.posBase64);
  const stop = r.stop_pos === null || r.stop_pos === '' ? { pos: null, error: null, text: null } : parsePos(r.stop_pos);
  const message = r.message ?? '';
  const tables = source?.filter
    ? [...source.filter.rules.map((x) => x.match)].sort()
    : source
      ? [...source.tables].sort()
      : [];
  return {
    keyspace: s.keyspace,
    shard: s.shard,
    tablet: s.alias,
    id: r.id,
    workflow: r.workflow ?? '',
    rawWorkflow: r.workflow,
    workflowType: workflowTypeName(r.workflow_type),
    workflowSubType: workflowSubTypeName(r.workflow_sub_type),
    sourceText: r.source,
    source,
    sourceError,
    sourceKeyspace: source?.keyspace ?? '',
    sourceShard: source?.shard ?? '',
    tables,
    posText: pos.text,
    pos: pos.pos,
    posError: pos.error,
    stopPosText: stop.text,
    stopPos: stop.pos,
    state: r.state,
    // Without copy_state the displayed state is the stored one (a Running stream may be shown as Copying by Vitess).
    displayState: displayState(r.state, message, copyTables.ok ? copyTables.value.length : 0),
    message,
    rawMessage: r.message,
    options: parseOptions(r.options),
    rawOptions: r.options,
    posCompressed: r.posBase64 !== undefined,
    cell: r.cell ?? '',
    tabletTypes: r.tablet_types ?? '',
    timeUpdated: r.time_updated,
    transactionTimestamp: r.transaction_timestamp,
    timeHeartbeat: r.time_heartbeat ?? null,
    rowsCopied: r.rows_copied ?? null,
    copyTables,
  };
}

/** `WorkflowOptions` JSON as stored (protojson or Go json names); null when absent, empty or unparsable. */
function parseOptions(text: string | null | undefined): Stream['options'] {
  if (!text || text.trim() === '' || text.trim() === '{}') return null;
  let o: unknown;
  try {
    o = JSON.parse(text);
  } catch {
    return null;
  }
  if (o === null || typeof o !== 'object' || Array.isArray(o)) return null;
  const rec = o as Record<string, unknown>;
  const str = (v: unknown) => (typeof v === 'string' ? v : '');
  const list = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
  return {
    tenantId: str(rec.tenant_id ?? rec.tenantId),
    shards: list(rec.shards),
    lookupVindexes: list(rec.lookup_vindexes ?? rec.lookupVindexes),
    globalKeyspace: str(rec.global_keyspace ?? rec.globalKeyspace),
  };
}

/**
 * Vitess's displayed stream state: a message containing "error" (any case) shows as `Error`; a `Running`
 * stream with copy_state rows shows as `Copying`; otherwise the stored state.
 * Upstream: `vitessio/vitess:go/vt/vtctl/workflow/workflows.go` `getStreamState`.
 */
export function displayState(state: string, message: string, copyTables: number): string {
  if (message.toLowerCase().includes('error')) return 'Error';
  if (state === 'Running' && copyTables > 0) return 'Copying';
  return state;
}

function buildWorkflow(keyspace: string, name: string, streams: Stream[], vtctld: Workflow['vtctld']): Workflow {
  streams.sort((a, b) => compareShardNames(a.shard, b.shard) || a.id - b.id);
  const sourceKeyspaces = [...new Set(streams.map((s) => s.sourceKeyspace).filter((k) => k !== ''))].sort();
  const sourceShards = [...new Set(streams.map((s) => s.sourceShard).filter((k) => k !== ''))].sort(compareShardNames);
  const targetShards = [...new Set(streams.map((s) => s.shard))].sort(compareShardNames);
  const typed = streams.find((s) => s.workflowType !== null);
  const type: WorkflowType = typed?.workflowType ?? inferType(keyspace, streams, vtctld?.workflowType);
  const subTyped = streams.find((s) => s.workflowSubType !== null);
  const subType: WorkflowSubType =
    subTyped?.workflowSubType ?? ((vtctld?.workflowSubType as WorkflowSubType | undefined) || 'None');
  return {
    keyspace,
    name,
    type,
    subType,
    streams,
    sourceKeyspaces,
    sourceShards,
    targetShards,
    frozen: streams.some((s) => s.message === 'FROZEN'),
    vtctld,
  };
}

/** For schemas without `workflow_type`: Reshard when the streams read their own keyspace with a `/.*` rule. */
function inferType(keyspace: string, streams: readonly Stream[], fromVtctld: string | undefined): WorkflowType {
  const known: readonly string[] = WORKFLOW_TYPES;
  if (fromVtctld && known.includes(fromVtctld)) return fromVtctld as WorkflowType;
  const s = streams.find((x) => x.source !== null);
  if (!s?.source) return 'Materialize';
  const wildcard = s.source.filter?.rules.some((r) => r.match === '/.*') ?? false;
  if (s.sourceKeyspace === keyspace && wildcard) return 'Reshard';
  if (s.source.externalCluster !== '') return 'Migrate';
  if (s.sourceKeyspace !== keyspace) return 'MoveTables';
  return 'Materialize';
}

function buildVSchema(v: VSchemaRecord): VSchema {
  const vindexes = new Map(
    Object.entries(v.vindexes)
      .sort(([a], [b]) => byCodeUnit(a, b))
      .map(([name, x]) => [name, { name, type: x.type, params: { ...x.params }, owner: x.owner }] as const),
  );
  const tables = new Map(
    Object.entries(v.tables)
      .sort(([a], [b]) => byCodeUnit(a, b))
      .map(
        ([name, t]) =>
          [
            name,
            {
              name,
              type: t.type,
              source: t.source,
              columnVindexes: t.columnVindexes.map((c) => ({ name: c.name, columns: [...c.columns] })),
              autoIncrement: t.autoIncrement ? { ...t.autoIncrement } : null,
            },
          ] as const,
      ),
  );
  return { sharded: v.sharded, vindexes, tables };
}
