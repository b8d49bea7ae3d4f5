/**
 * The real-Vitess suite's table of states, in the order they run on one cluster per release (each state starts
 * from where the previous one left the cluster). A state is produced with real Vitess commands (vtctldclient) or
 * SQL on a tablet; then the suite runs vtpreflight for `action` and the real action (`real`), and compares them
 * (test/real-vitess/compare.ts). `reproduces` names the check reasons whose refusal the state exists to show;
 * `reproducedReasons()` exports them for the fidelity table (scripts/gen-readme.ts).
 */
import { alias, type Cluster } from './cluster.js';

export interface Reproduces {
  readonly check: string;
  readonly reason: string;
  readonly from?: number;
  readonly until?: number;
}

/** The declared reasons that hold on `release`. */
export function reproducesOn(s: State, release: number): readonly Reproduces[] {
  return s.reproduces.filter((r) => holdsOn(r, release));
}

/** Whether a declaration's releases (`from`…`until`, both inclusive, default all) include `release`. */
export function holdsOn(r: Pick<Reproduces, 'from' | 'until'>, release: number): boolean {
  return release >= (r.from ?? 0) && release <= (r.until ?? Number.MAX_SAFE_INTEGER);
}

export type Action = 'switch' | 'reverse' | 'complete' | 'cancel' | 'externalize' | 'mirror' | 'create';

export interface State {
  readonly id: string;
  /** What the cluster looks like, in one line. */
  readonly title: string;
  readonly action: Action;
  readonly keyspace: string;
  readonly workflow: string;
  /**
   * `check › reason` pairs this state reproduces (the refusal vtpreflight quotes), each on the releases `from`…`until`
   * (both inclusive, default all) when releases word or judge it differently; [] for a state Vitess runs.
   */
  readonly reproduces: readonly Reproduces[];
  /**
   * Vitess performs the action and it breaks serving or loses data, so vtpreflight must say `blocked` without a quoted
   * text (there is none) on the releases `from`…`until`, with this reason in its evidence; `observe` looks at the
   * cluster after the real action and says, in one line, the breakage it saw (undefined: nothing broke, which is a
   * disagreement).
   */
  readonly breaks?: Reproduces & { readonly observe: (c: Cluster) => string | undefined };
  /** Why the release cannot express this state (it is then skipped, with the reason). */
  readonly unsupported?: (release: number) => string | undefined;
  /** Brings the cluster to this state (after the previous state). */
  readonly setup?: (c: Cluster) => Promise<void>;
  /** vtpreflight arguments besides --action, --keyspace and --workflow. */
  readonly pf?: readonly string[];
  /** The real action, as vtctldclient arguments. */
  readonly real: (c: Cluster) => readonly string[];
  /** Runs after the comparison, whatever its outcome: leaves the cluster for the next state. */
  readonly after?: (c: Cluster, realOk: boolean) => Promise<void>;
}

const MT = ['MoveTables', '--workflow', 'c2c', '--target-keyspace', 'customer'] as const;

/**
 * A state made by one SQL edit on the primary `uid` that a Running stream never reads again (its message, a copy_state
 * row), judged and dry-run as `verb` on the MoveTables c2c, then undone.
 */
function editState(o: {
  readonly id: string;
  readonly title: string;
  readonly action: Action;
  readonly uid: number;
  readonly edit: string;
  readonly undo: string;
  readonly verb: string;
  readonly reproduces: readonly Reproduces[];
}): State {
  return {
    id: o.id,
    title: o.title,
    action: o.action,
    keyspace: 'customer',
    workflow: 'c2c',
    reproduces: o.reproduces,
    setup: async (c) => {
      c.sql(o.uid, o.edit);
    },
    real: () => [...MT, o.verb, '--dry-run'],
    after: async (c) => {
      c.sql(o.uid, o.undo);
    },
  };
}

/** {@link editState} writing `message` into the streams of workflow `stream`, then clearing it. */
function messageState(
  o: Omit<Parameters<typeof editState>[0], 'edit' | 'undo'> & { readonly stream: string; readonly message: string },
): State {
  const set = (m: string) => `UPDATE _vt.vreplication SET message = '${m}' WHERE workflow = '${o.stream}'`;
  return editState({ ...o, edit: set(o.message), undo: set('') });
}

/** {@link editState} adding a copy_state row for the streams of workflow `stream`, then deleting it. */
function copyStateRowState(
  o: Omit<Parameters<typeof editState>[0], 'edit' | 'undo'> & { readonly stream: string },
): State {
  const ids = `SELECT id FROM _vt.vreplication WHERE workflow = '${o.stream}'`;
  return editState({
    ...o,
    edit: `INSERT INTO _vt.copy_state (vrepl_id, table_name) SELECT id, 'customer' FROM _vt.vreplication WHERE workflow = '${o.stream}'`,
    undo: `DELETE FROM _vt.copy_state WHERE vrepl_id IN (${ids})`,
  });
}
/** A MoveTables create state's action, names and both command lines (vtpreflight's and vtctldclient's) from one set. */
const moveTablesCreate = (workflow: string, target: string, source: string, tables: string) => ({
  action: 'create' as const,
  keyspace: target,
  workflow,
  pf: ['--target-keyspace', target, '--source-keyspace', source, '--tables', tables],
  real: () => [
    ...['MoveTables', '--workflow', workflow, '--target-keyspace', target, 'create'],
    ...['--source-keyspace', source, '--tables', tables],
  ],
});
const CREATE_C2C = [...MT, 'create', '--source-keyspace', 'commerce', '--tables', 'customer,corder'] as const;
const PF_CREATE_C2C = ['--target-keyspace', 'customer', '--source-keyspace', 'commerce', '--tables', 'customer,corder'];
const RS = ['Reshard', '--workflow', 'cust2one', '--target-keyspace', 'customer'] as const;
const CREATE_RS = [...RS, 'create', '--source-shards', '-80,80-', '--target-shards', '0'] as const;
const LV = ['LookupVindex', '--name', 'corder_sku_vdx', '--table-keyspace', 'commerce'] as const;
const LV2 = ['LookupVindex', '--name', 'customer_email_vdx', '--table-keyspace', 'commerce'] as const;
const noMirror = (r: number) =>
  r < 21 ? `MirrorTraffic exists from v21 (vtctldclient v${r} has no mirrortraffic)` : undefined;

/**
 * customer's vschema as scripts/vitess-cluster.sh applies it (compose/schema/customer-vschema.json), with customer's
 * ids drawn from `sequence` and corder's auto_increment kept or dropped.
 */
const customerVSchema = (sequence: string, corderSequence: boolean) => {
  const hash = [{ column: 'customer_id', name: 'hash' }];
  return {
    sharded: true,
    vindexes: { hash: { type: 'hash' } },
    tables: {
      customer: { column_vindexes: hash, auto_increment: { column: 'customer_id', sequence } },
      corder: {
        column_vindexes: hash,
        ...(corderSequence ? { auto_increment: { column: 'order_id', sequence: 'corder_seq' } } : {}),
      },
    },
  };
};

/** The target primaries of customer's two shards (scripts/vitess-cluster.sh). */
const TARGETS = [200, 300] as const;

/**
 * Saves one column of a workflow's `_vt.vreplication` rows on a tablet into a table outside Vitess's databases
 * (binlogs off, so no stream sees it), so that a state can edit it and `restoreColumn` can put it back.
 */
function saveColumn(c: Cluster, uid: number, workflow: string, column: string): void {
  const dba = (q: string) => c.must(['ExecuteFetchAsDBA', '--disable-binlogs', alias(uid), q]);
  dba('CREATE DATABASE IF NOT EXISTS rv_saved');
  dba(`DROP TABLE IF EXISTS rv_saved.${column}`);
  dba(`CREATE TABLE rv_saved.${column} AS SELECT id, ${column} FROM _vt.vreplication WHERE workflow = '${workflow}'`);
}

function restoreColumn(c: Cluster, uid: number, column: string): void {
  c.sql(uid, `UPDATE _vt.vreplication v JOIN rv_saved.${column} s ON v.id = s.id SET v.${column} = s.${column}`);
  c.must(['ExecuteFetchAsDBA', '--disable-binlogs', alias(uid), 'DROP DATABASE rv_saved']);
}

/**
 * A state that edits one column of a workflow's streams on some tablets (`sql` is the new value, an SQL expression
 * over it) while they run (a running stream never reads its `source`, `tablet_types` or `message` again), and puts
 * the column back after the real action.
 */
function editColumn(
  uids: readonly number[],
  workflow: string,
  column: 'source' | 'tablet_types' | 'pos',
  sql: string,
): Pick<State, 'setup' | 'after'> {
  return {
    setup: async (c) => {
      for (const uid of uids) {
        saveColumn(c, uid, workflow, column);
        c.sql(uid, `UPDATE _vt.vreplication SET ${column} = ${sql} WHERE workflow = '${workflow}'`);
      }
    },
    after: async (c) => {
      for (const uid of uids) restoreColumn(c, uid, column);
    },
  };
}

const POS_EDIT = editColumn([200], 'c2c', 'pos', "'MySQL56/garbage'");

const editSources = (uids: readonly number[], workflow: string, sql: string) =>
  editColumn(uids, workflow, 'source', sql);

/** A Materialize in customer (corder → corder_copy) whose streams run on -80 and 80-, the Reshard's source shards. */
async function ensureCorderCopy(c: Cluster): Promise<void> {
  if (c.streams('customer', 'corder_copy').length > 0) return;
  c.must([
    'ApplyVSchema',
    '--sql',
    'alter vschema on customer.corder_copy add vindex hash(customer_id) using hash',
    'customer',
  ]);
  c.must([
    'Materialize',
    '--workflow',
    'corder_copy',
    '--target-keyspace',
    'customer',
    'create',
    '--source-keyspace',
    'customer',
    '--table-settings',
    JSON.stringify([
      {
        target_table: 'corder_copy',
        create_ddl:
          'create table corder_copy (order_id bigint not null, customer_id bigint, sku varbinary(128), price bigint, primary key (order_id))',
        source_expression: 'select order_id, customer_id, sku, price from corder',
      },
    ]),
  ]);
  await c.waitStreams('customer', 'corder_copy', 'Running');
}

/**
 * Reshard SwitchTraffic --dry-run with the rule filter of corder_copy's streams on both source shards replaced by
 * `filter` (null: removed), which the stream migrator cannot template.
 */
function templateState(id: string, what: string, reason: string, filter: string | null): State {
  const rule = String.raw`'\s*filter:"select[^"]*"'`;
  const edit = editSources(
    TARGETS,
    'corder_copy',
    `REGEXP_REPLACE(source, ${rule}, '${filter === null ? '' : ` filter:"${filter.replaceAll("'", "''")}"`}')`,
  );
  return {
    id,
    title: `the Materialize corder_copy's rule on -80 and 80- edited to ${what}: Reshard SwitchTraffic --dry-run`,
    action: 'switch',
    keyspace: 'customer',
    workflow: 'cust2one',
    reproduces: [{ check: 'stream-template-invalid', reason }],
    setup: async (c) => {
      await ensureCorderCopy(c);
      await edit.setup?.(c);
    },
    real: () => [...RS, 'switchtraffic', '--dry-run'],
    ...(edit.after !== undefined ? { after: edit.after } : {}),
  };
}

export const STATES: readonly State[] = [
  {
    id: 'create-new',
    title: 'MoveTables create of a new workflow commerce → customer (customer, corder)',
    action: 'create',
    keyspace: 'customer',
    workflow: 'c2c',
    reproduces: [],
    pf: PF_CREATE_C2C,
    real: () => CREATE_C2C,
    after: async (c, ok) => {
      if (ok) await c.waitStreams('customer', 'c2c', 'Running');
    },
  },
  {
    id: 'create-name-exists',
    title: 'MoveTables create with the name of a workflow that exists',
    action: 'create',
    keyspace: 'customer',
    workflow: 'c2c',
    // Each release words it its own way: v19 prefixes the call and prints the tablet alias as a struct, v20 drops the
    // prefix, v21 and later print the alias as zone1-0000000200.
    reproduces: [
      { check: 'create-workflow', reason: 'workflowExistsV19', until: 19 },
      { check: 'create-workflow', reason: 'workflowExistsV20', from: 20, until: 20 },
      { check: 'create-workflow', reason: 'workflowExists', from: 21 },
    ],
    pf: PF_CREATE_C2C,
    real: () => CREATE_C2C,
  },
  {
    id: 'create-table-not-in-vschema',
    title: 'MoveTables create of a table the sharded target vschema lacks (product)',
    ...moveTablesCreate('p2c', 'customer', 'commerce', 'product'),
    reproduces: [{ check: 'create-workflow', reason: 'tableNotInVSchema' }],
  },
  {
    // moveTablesCreate reads the target's vschema first (server.go:1127-1130 @v0.24.4, :1376-1379 @v0.19.10); a
    // keyspace created with --allow-empty-vschema has no vschema node (server.go:973-977 @v0.24.4).
    id: 'create-target-no-vschema',
    title: 'MoveTables create into a keyspace created with --allow-empty-vschema (no vschema node)',
    ...moveTablesCreate('c2nv', 'novschema', 'commerce', 'customer'),
    reproduces: [{ check: 'create-workflow', reason: 'targetVSchemaMissing' }],
    setup: async (c) => {
      c.must(['CreateKeyspace', '--allow-empty-vschema', 'novschema']);
    },
    after: async (c) => {
      c.must(['DeleteKeyspace', '--recursive', 'novschema']);
    },
  },
  {
    id: 'create-source-table-missing',
    title: 'MoveTables create of a table the source keyspace lacks (nosuch)',
    ...moveTablesCreate('n2c', 'customer', 'commerce', 'nosuch'),
    reproduces: [{ check: 'create-workflow', reason: 'sourceTableMissing' }],
  },
  {
    id: 'create-same-keyspace',
    title: 'MoveTables create with --source-keyspace equal to --target-keyspace (commerce → commerce)',
    ...moveTablesCreate('c2self', 'commerce', 'commerce', 'customer'),
    reproduces: [{ check: 'same-keyspace-movetables', reason: 'sourceIsTargetAtCreate', from: 24 }],
    // Older releases create it (and copy the tables onto themselves), which the later states do not expect.
    unsupported: (r) => (r < 24 ? `v${r} creates a same-keyspace MoveTables (the refusal is v24's)` : undefined),
  },
  {
    id: 'complete-before-switch',
    title: 'MoveTables complete before any traffic is switched',
    action: 'complete',
    keyspace: 'customer',
    workflow: 'c2c',
    reproduces: [{ check: 'complete-workflow', reason: 'notFullySwitched' }],
    real: () => [...MT, 'complete'],
  },
  {
    id: 'cancel-healthy',
    title: 'healthy MoveTables, nothing switched: cancel for real (then created again)',
    action: 'cancel',
    keyspace: 'customer',
    workflow: 'c2c',
    reproduces: [],
    real: () => [...MT, 'cancel'],
    after: async (c, ok) => {
      if (!ok) return;
      await c.waitGone('customer', 'c2c');
      c.must(CREATE_C2C);
      await c.waitStreams('customer', 'c2c', 'Running');
    },
  },
  {
    id: 'switch-healthy-dry-run',
    title: 'healthy MoveTables, copy done, streams Running: SwitchTraffic --dry-run',
    action: 'switch',
    keyspace: 'customer',
    workflow: 'c2c',
    reproduces: [],
    real: () => [...MT, 'switchtraffic', '--dry-run'],
  },
  {
    id: 'switch-srv-vschema-missing',
    title: "the cell's SrvVSchema deleted (DeleteSrvVSchema zone1): SwitchTraffic --dry-run",
    action: 'switch',
    keyspace: 'customer',
    workflow: 'c2c',
    // getWorkflowState reads every cell's SrvVSchema; vtctld answers the same topo error (UNKNOWN) to vtpreflight.
    reproduces: [{ check: 'serving-graph-missing', reason: 'srvVSchemaMissing' }],
    setup: async (c) => {
      c.must(['DeleteSrvVSchema', 'zone1']);
    },
    real: () => [...MT, 'switchtraffic', '--dry-run'],
    after: async (c) => {
      c.must(['RebuildVSchemaGraph']);
    },
  },
  {
    id: 'stopped-within-max-lag',
    title: 'streams stopped with Workflow stop, just now (inside --max-lag 30s)',
    action: 'switch',
    keyspace: 'customer',
    workflow: 'c2c',
    reproduces: [],
    setup: async (c) => {
      c.must(['Workflow', '--keyspace', 'customer', 'stop', '--workflow', 'c2c']);
      await c.waitStreams('customer', 'c2c', 'Stopped', 30);
    },
    pf: ['--max-lag', '30s'],
    real: () => [...MT, 'switchtraffic', '--dry-run', '--max-replication-lag-allowed', '30s'],
  },
  {
    id: 'stopped-past-max-lag',
    title: 'streams stopped for longer than --max-lag (2s)',
    action: 'switch',
    keyspace: 'customer',
    workflow: 'c2c',
    reproduces: [{ check: 'replication-lag', reason: 'transactionLag' }],
    setup: async () => {
      await new Promise((r) => setTimeout(r, 5000));
    },
    pf: ['--max-lag', '2s'],
    real: () => [...MT, 'switchtraffic', '--dry-run', '--max-replication-lag-allowed', '2s'],
    after: async (c) => {
      c.must(['Workflow', '--keyspace', 'customer', 'start', '--workflow', 'c2c']);
      await c.waitStreams('customer', 'c2c', 'Running', 60);
    },
  },
  {
    id: 'extra-non-serving-shard',
    title: 'the target keyspace has an extra non-serving shard (customer/0, as a Reshard would add)',
    action: 'switch',
    keyspace: 'customer',
    workflow: 'c2c',
    reproduces: [{ check: 'shard-set-mismatch', reason: 'targetShardsWithoutStreams' }],
    setup: async (c) => {
      c.startTablet('customer', '0', 400);
    },
    real: () => [...MT, 'switchtraffic', '--dry-run'],
    after: async (c) => {
      c.stopTablet(400);
      c.must(['DeleteShards', '--recursive', '--even-if-serving', 'customer/0']);
    },
  },
  {
    id: 'hand-edited-source',
    title: 'the streams had their source keyspace and shard removed by hand (then Workflow stop/start)',
    action: 'switch',
    keyspace: 'customer',
    workflow: 'c2c',
    reproduces: [{ check: 'missing-source', reason: 'emptySourceName' }],
    setup: async (c) => {
      // Every stream is edited: vtctld refuses to start a workflow whose streams name different source keyspaces
      // ("multiple source keyspaces for a single workflow"), even with --shards.
      c.must(['Workflow', '--keyspace', 'customer', 'stop', '--workflow', 'c2c']);
      for (const uid of TARGETS) {
        c.sql(
          uid,
          // The source is protobuf text, whose spacing Go varies on purpose: match any run of blanks.
          'UPDATE _vt.vreplication SET source = ' +
            String.raw`REGEXP_REPLACE(source, 'keyspace:"commerce"\\s+shard:"[^"]*"\\s+', '') WHERE workflow = 'c2c'`,
        );
      }
      // v24 starts them (and they fail to pick a tablet); v19 refuses to start them ("Missing required field(s)
      // for tablet picker: Keyspace, Shard"), which leaves them Stopped: either is the state, as that release makes it.
      c.vtctl(['Workflow', '--keyspace', 'customer', 'start', '--workflow', 'c2c']);
      await new Promise((r) => setTimeout(r, 3000));
    },
    real: () => [...MT, 'switchtraffic', '--dry-run'],
    after: async (c) => {
      c.must(['Workflow', '--keyspace', 'customer', 'stop', '--workflow', 'c2c']);
      for (const uid of TARGETS) {
        c.sql(
          uid,
          `UPDATE _vt.vreplication SET source = CONCAT('keyspace:"commerce" shard:"0" ', source) WHERE workflow = 'c2c' AND source NOT LIKE 'keyspace:%'`,
        );
      }
      c.must(['Workflow', '--keyspace', 'customer', 'start', '--workflow', 'c2c']);
      await c.waitStreams('customer', 'c2c', 'Running', 60);
    },
  },
  {
    id: 'stream-error',
    title: 'a stream in error: the target table lost a column the source still writes',
    action: 'switch',
    keyspace: 'customer',
    workflow: 'c2c',
    reproduces: [{ check: 'stream-error', reason: 'stateError' }],
    setup: async (c) => {
      for (const uid of TARGETS) c.sql(uid, 'ALTER TABLE vt_customer.customer DROP COLUMN email');
      c.sql(
        100,
        "INSERT INTO vt_commerce.customer (customer_id, email) VALUES (6, 'frank@example.com'), (7, 'gina@example.com')",
      );
      const deadline = Date.now() + 60_000;
      while (!c.streams('customer', 'c2c').some((s) => s.state === 'Error' || /error/i.test(s.message))) {
        if (Date.now() > deadline) throw new Error('no stream went into error within 60 s');
        await new Promise((r) => setTimeout(r, 1000));
      }
    },
    real: () => [...MT, 'switchtraffic', '--dry-run'],
    after: async (c) => {
      for (const uid of TARGETS) c.sql(uid, 'ALTER TABLE vt_customer.customer ADD COLUMN email VARBINARY(128)');
      c.must(['Workflow', '--keyspace', 'customer', 'stop', '--workflow', 'c2c']);
      c.must(['Workflow', '--keyspace', 'customer', 'start', '--workflow', 'c2c']);
      await c.waitStreams('customer', 'c2c', 'Running', 90);
    },
  },
  copyStateRowState({
    id: 'copy-state-row',
    title: "a _vt.copy_state row added for c2c's Running stream on -80 (GetWorkflow shows it Copying)",
    action: 'switch',
    uid: 200,
    stream: 'c2c',
    verb: 'switchtraffic',
    reproduces: [{ check: 'copy-incomplete', reason: 'stillCopying' }],
  }),
  messageState({
    id: 'message-error',
    title: "c2c's Running stream on -80 with an error in its message (GetWorkflow shows it as Error)",
    action: 'switch',
    uid: 200,
    stream: 'c2c',
    message: 'rv: injected error',
    verb: 'switchtraffic',
    reproduces: [{ check: 'stream-error', reason: 'messageError' }],
  }),
  messageState({
    id: 'frozen-message',
    title: "c2c's Running stream on -80 marked FROZEN by hand, nothing switched",
    action: 'switch',
    uid: 200,
    stream: 'c2c',
    message: 'FROZEN',
    verb: 'switchtraffic',
    reproduces: [{ check: 'frozen-workflow', reason: 'frozen' }],
  }),
  {
    id: 'filters-removed',
    title: "the BinlogSource filter of c2c's streams on both target shards emptied (filter:{})",
    action: 'switch',
    keyspace: 'customer',
    workflow: 'c2c',
    // v22 checks each stream's filter while building the traffic switcher; v19 to v21 find no table first. Emptied,
    // not removed: before v22 a source without a filter makes vtctld panic (table-list-mismatch › nilFilterPanics).
    reproduces: [
      { check: 'table-list-mismatch', reason: 'noTables', until: 21 },
      { check: 'table-list-mismatch', reason: 'missingFilters', from: 22 },
    ],
    ...editSources(TARGETS, 'c2c', String.raw`REGEXP_REPLACE(source, 'filter:\\s*\\{.*\\}', 'filter:{}')`),
    real: () => [...MT, 'switchtraffic', '--dry-run'],
  },
  {
    id: 'tablet-types-blank',
    title: "c2c's stream on -80 with tablet_types 'PRIMARY, REPLICA' (a blank after the comma)",
    action: 'switch',
    keyspace: 'customer',
    workflow: 'c2c',
    // Go trims no name: ' REPLICA' is no tablet type (topoproto.ParseTabletType, go/vt/topo/topoproto/tablet.go:177
    // @v0.24.4), which vtpreflight read as REPLICA until this state.
    reproduces: [{ check: 'missing-source', reason: 'invalidTabletTypes' }],
    ...editColumn([200], 'c2c', 'tablet_types', "'PRIMARY, REPLICA'"),
    real: () => [...MT, 'switchtraffic', '--dry-run'],
  },
  {
    id: 'create-target-not-empty',
    title: 'a second MoveTables create of customer while c2c has copied its rows into the target (c2c2)',
    action: 'create',
    keyspace: 'customer',
    workflow: 'c2c2',
    // v19 to v21 create it (vtpreflight warns: targetTableNotEmptyBefore22), and it is cancelled again.
    reproduces: [{ check: 'create-workflow', reason: 'targetTableNotEmpty', from: 22 }],
    pf: ['--target-keyspace', 'customer', '--source-keyspace', 'commerce', '--tables', 'customer'],
    real: () => [
      'MoveTables',
      '--workflow',
      'c2c2',
      '--target-keyspace',
      'customer',
      'create',
      '--source-keyspace',
      'commerce',
      '--tables',
      'customer',
    ],
    after: async (c, ok) => {
      if (!ok) return;
      c.must(['MoveTables', '--workflow', 'c2c2', '--target-keyspace', 'customer', 'cancel', '--keep-data']);
      await c.waitGone('customer', 'c2c2');
    },
  },
  {
    id: 'position-not-gtid-set',
    title: "c2c's stream on -80 stopped, its pos replaced by MySQL56/garbage",
    action: 'switch',
    keyspace: 'customer',
    workflow: 'c2c',
    reproduces: [{ check: 'position-drift', reason: 'positionNotGtidSet' }],
    setup: async (c) => {
      // Stopped first: a running stream writes its position back.
      c.must(['Workflow', '--keyspace', 'customer', 'stop', '--workflow', 'c2c', '--shards', '-80']);
      await POS_EDIT.setup?.(c);
    },
    real: () => [...MT, 'switchtraffic', '--dry-run'],
    after: async (c) => {
      await POS_EDIT.after?.(c, true);
      c.must(['Workflow', '--keyspace', 'customer', 'start', '--workflow', 'c2c', '--shards', '-80']);
      await c.waitStreams('customer', 'c2c', 'Running', 60);
    },
  },
  {
    id: 'mirror-healthy',
    title: 'healthy MoveTables: MirrorTraffic of 10% before any switch',
    action: 'mirror',
    keyspace: 'customer',
    workflow: 'c2c',
    reproduces: [],
    unsupported: noMirror,
    real: () => [...MT, 'mirrortraffic', '--percent', '10'],
    after: async (c, ok) => {
      if (ok) c.must([...MT, 'mirrortraffic', '--percent', '0']);
    },
  },
  {
    id: 'switch-sequence-not-found',
    title:
      'customer.customer takes its ids from a sequence no keyspace defines: SwitchTraffic --dry-run --initialize-target-sequences',
    action: 'switch',
    keyspace: 'customer',
    workflow: 'c2c',
    reproduces: [
      { check: 'target-sequences', reason: 'sequenceNotFoundV20', from: 20, until: 20 },
      { check: 'target-sequences', reason: 'sequenceNotFound', from: 21 },
    ],
    // v19 refuses too, but prints its sequence metadata map, whose values are Go pointers: no text to compare.
    unsupported: (r) =>
      r < 20 ? 'v19 prints the sequence metadata as Go pointers (traffic_switcher.go:1376 @v0.19.10)' : undefined,
    setup: async (c) => {
      // One sequence only: Vitess lists the backing tables in map order.
      c.must(['ApplyVSchema', '--vschema', JSON.stringify(customerVSchema('nosuch_seq', false)), 'customer']);
    },
    pf: ['--initialize-target-sequences'],
    real: () => [...MT, 'switchtraffic', '--dry-run', '--initialize-target-sequences'],
    after: async (c) => {
      c.must(['ApplyVSchema', '--vschema', JSON.stringify(customerVSchema('customer_seq', true)), 'customer']);
    },
  },
  {
    id: 'reverse-replica-nothing-switched',
    title: 'ReverseTraffic --tablet-types replica before anything was switched',
    action: 'reverse',
    keyspace: 'customer',
    workflow: 'c2c',
    // v21 and later reverse reads alone without the reverse workflow (server.go WorkflowSwitchTraffic
    // onlySwitchingReads @v0.21.5); v19 and v20 look the reverse workflow up first, and there is none.
    reproduces: [{ check: 'reverse-traffic', reason: 'replicaReadsNotSwitched', from: 21 }],
    pf: ['--tablet-types', 'replica'],
    real: () => [...MT, 'reversetraffic', '--tablet-types', 'replica'],
  },
  {
    id: 'reverse-rdonly-nothing-switched',
    title: 'ReverseTraffic --tablet-types rdonly before anything was switched',
    action: 'reverse',
    keyspace: 'customer',
    workflow: 'c2c',
    // Nothing switched rather than REPLICA alone: with no RDONLY tablet in the cells, switching REPLICA reads
    // switches RDONLY too (server.go:3005-3013 @v0.24.4). v22 renamed the RDONLY text (server.go:2744 @v0.22.4;
    // SwitchReads in server.go:3333 @v0.21.5).
    reproduces: [
      { check: 'reverse-traffic', reason: 'rdonlyReadsNotSwitchedBeforeV22', from: 21, until: 21 },
      { check: 'reverse-traffic', reason: 'rdonlyReadsNotSwitched', from: 22 },
    ],
    pf: ['--tablet-types', 'rdonly'],
    real: () => [...MT, 'reversetraffic', '--tablet-types', 'rdonly'],
  },
  {
    id: 'switch-healthy',
    title: 'healthy MoveTables: SwitchTraffic for real',
    action: 'switch',
    keyspace: 'customer',
    workflow: 'c2c',
    reproduces: [],
    real: () => [...MT, 'switchtraffic'],
  },
  {
    id: 'frozen-after-switch',
    title: 'SwitchTraffic again after every type was switched (streams FROZEN)',
    action: 'switch',
    keyspace: 'customer',
    workflow: 'c2c',
    reproduces: [],
    real: () => [...MT, 'switchtraffic'],
  },
  {
    id: 'mirror-after-switch',
    title: 'MirrorTraffic after every type was switched',
    action: 'mirror',
    keyspace: 'customer',
    workflow: 'c2c',
    reproduces: [{ check: 'mirror-traffic', reason: 'typesSwitched' }],
    unsupported: noMirror,
    real: () => [...MT, 'mirrortraffic', '--percent', '10'],
  },
  {
    id: 'mirror-reverse-workflow',
    title: 'MirrorTraffic on the reverse workflow (commerce.c2c_reverse) after every type was switched',
    action: 'mirror',
    keyspace: 'commerce',
    workflow: 'c2c_reverse',
    reproduces: [{ check: 'mirror-traffic', reason: 'reverseWorkflow' }],
    unsupported: noMirror,
    real: () => [
      'MoveTables',
      '--workflow',
      'c2c_reverse',
      '--target-keyspace',
      'commerce',
      'mirrortraffic',
      '--percent',
      '10',
    ],
  },
  {
    id: 'cancel-after-writes-switched',
    title: 'MoveTables cancel after writes were switched',
    action: 'cancel',
    keyspace: 'customer',
    workflow: 'c2c',
    // v19 to v21 refuse with their own text (server.go's dropTargets/cancel checks of those releases).
    reproduces: [
      { check: 'cancel-workflow', reason: 'trafficSwitchedBeforeV22', until: 21 },
      { check: 'cancel-workflow', reason: 'writesSwitched', from: 22 },
    ],
    real: () => [...MT, 'cancel'],
  },
  copyStateRowState({
    id: 'reverse-copy-state-row',
    title:
      "a _vt.copy_state row added for the reverse workflow's Running stream (commerce.c2c_reverse): ReverseTraffic --dry-run",
    action: 'reverse',
    uid: 100,
    stream: 'c2c_reverse',
    verb: 'reversetraffic',
    reproduces: [{ check: 'reverse-traffic', reason: 'reverseCopying' }],
  }),
  messageState({
    id: 'reverse-message-error',
    title: "the reverse workflow's Running stream with an error in its message: ReverseTraffic --dry-run",
    action: 'reverse',
    uid: 100,
    stream: 'c2c_reverse',
    message: 'rv: injected error',
    verb: 'reversetraffic',
    reproduces: [{ check: 'reverse-traffic', reason: 'reverseErrors' }],
  }),
  messageState({
    id: 'reverse-frozen-message',
    title: "the reverse workflow's Running stream marked FROZEN by hand: ReverseTraffic --dry-run",
    action: 'reverse',
    uid: 100,
    stream: 'c2c_reverse',
    message: 'FROZEN',
    verb: 'reversetraffic',
    reproduces: [{ check: 'reverse-traffic', reason: 'reverseFrozen' }],
  }),
  {
    id: 'reverse-stopped-past-max-lag',
    title: 'the reverse workflow stopped for longer than --max-lag (2s): ReverseTraffic --dry-run',
    action: 'reverse',
    keyspace: 'customer',
    workflow: 'c2c',
    reproduces: [{ check: 'reverse-traffic', reason: 'reverseLag' }],
    setup: async (c) => {
      c.must(['Workflow', '--keyspace', 'commerce', 'stop', '--workflow', 'c2c_reverse']);
      await new Promise((r) => setTimeout(r, 4000));
    },
    pf: ['--max-lag', '2s'],
    real: () => [...MT, 'reversetraffic', '--dry-run', '--max-replication-lag-allowed', '2s'],
    after: async (c) => {
      c.must(['Workflow', '--keyspace', 'commerce', 'start', '--workflow', 'c2c_reverse']);
      await c.waitStreams('commerce', 'c2c_reverse', 'Running', 60);
    },
  },
  {
    id: 'reverse-healthy',
    title: 'switched MoveTables: ReverseTraffic for real',
    action: 'reverse',
    keyspace: 'customer',
    workflow: 'c2c',
    reproduces: [],
    real: () => [...MT, 'reversetraffic'],
  },
  {
    id: 'switch-after-reverse',
    title: 'reversed MoveTables: SwitchTraffic for real again',
    action: 'switch',
    keyspace: 'customer',
    workflow: 'c2c',
    reproduces: [],
    real: () => [...MT, 'switchtraffic'],
  },
  {
    id: 'complete-not-frozen',
    title: 'switched MoveTables whose stream on -80 lost its FROZEN message: complete --dry-run',
    action: 'complete',
    keyspace: 'customer',
    workflow: 'c2c',
    reproduces: [{ check: 'complete-workflow', reason: 'streamsNotFrozen' }],
    setup: async (c) => {
      c.sql(200, "UPDATE _vt.vreplication SET message = '' WHERE workflow = 'c2c'");
    },
    real: () => [...MT, 'complete', '--dry-run'],
    after: async (c) => {
      c.sql(200, "UPDATE _vt.vreplication SET message = 'FROZEN' WHERE workflow = 'c2c'");
    },
  },
  {
    id: 'complete-routing-left',
    title: 'switched MoveTables with one more routing rule to commerce.customer (rvstale): complete --dry-run',
    action: 'complete',
    keyspace: 'customer',
    workflow: 'c2c',
    reproduces: [{ check: 'complete-workflow', reason: 'routingStillExists' }],
    setup: async (c) => {
      const rules = JSON.parse(c.must(['GetRoutingRules']) || '{}') as { rules?: unknown[] };
      const more = [...(rules.rules ?? []), { from_table: 'rvstale', to_tables: ['commerce.customer'] }];
      c.must(['ApplyRoutingRules', '--rules', JSON.stringify({ rules: more })]);
    },
    real: () => [...MT, 'complete', '--dry-run'],
    after: async (c) => {
      const rules = JSON.parse(c.must(['GetRoutingRules']) || '{}') as { rules?: { from_table: string }[] };
      const kept = (rules.rules ?? []).filter((r) => r.from_table !== 'rvstale');
      c.must(['ApplyRoutingRules', '--rules', JSON.stringify({ rules: kept })]);
    },
  },
  {
    id: 'complete-healthy',
    title: 'switched MoveTables: complete for real',
    action: 'complete',
    keyspace: 'customer',
    workflow: 'c2c',
    reproduces: [],
    real: () => [...MT, 'complete'],
  },
  {
    id: 'reshard-create',
    title: 'Reshard create customer -80,80- → 0 (a new shard 0 with its primary)',
    action: 'create',
    keyspace: 'customer',
    workflow: 'cust2one',
    reproduces: [],
    setup: async (c) => {
      c.startTablet('customer', '0', 410);
    },
    pf: ['--target-keyspace', 'customer', '--source-shards', '-80,80-', '--target-shards', '0'],
    // Created stopped, so that the next states see a copy that has not finished.
    real: () => [...CREATE_RS, '--auto-start=false'],
  },
  {
    id: 'reshard-create-streams-exist',
    title: 'Reshard create again: streams already exist on the target shard',
    action: 'create',
    keyspace: 'customer',
    workflow: 'cust2one',
    reproduces: [{ check: 'create-workflow', reason: 'reshardTargetStreams' }],
    pf: ['--target-keyspace', 'customer', '--source-shards', '-80,80-', '--target-shards', '0'],
    real: () => CREATE_RS,
  },
  {
    id: 'reshard-create-ranges-differ',
    title: 'Reshard create of -80 alone into 0: the source and target key ranges differ',
    action: 'create',
    keyspace: 'customer',
    workflow: 'cust_half',
    reproduces: [{ check: 'create-workflow', reason: 'reshardKeyRangesDiffer' }],
    pf: ['--target-keyspace', 'customer', '--source-shards', '-80', '--target-shards', '0'],
    real: () => [
      'Reshard',
      '--workflow',
      'cust_half',
      '--target-keyspace',
      'customer',
      'create',
      '--source-shards',
      '-80',
      '--target-shards',
      '0',
    ],
  },
  {
    id: 'reshard-copy-not-started',
    title: 'Reshard created with --auto-start=false: its copy has not run (streams Stopped, copy_state rows left)',
    action: 'switch',
    keyspace: 'customer',
    workflow: 'cust2one',
    reproduces: [],
    real: () => [...RS, 'switchtraffic', '--dry-run'],
    after: async (c) => {
      c.must(['Workflow', '--keyspace', 'customer', 'start', '--workflow', 'cust2one']);
      await c.waitStreams('customer', 'cust2one', 'Running');
    },
  },
  {
    id: 'reshard-switch-dry-run',
    title: 'healthy Reshard: SwitchTraffic --dry-run',
    action: 'switch',
    keyspace: 'customer',
    workflow: 'cust2one',
    reproduces: [],
    real: () => [...RS, 'switchtraffic', '--dry-run'],
  },
  {
    id: 'reshard-mirror',
    title: 'MirrorTraffic on the Reshard (MoveTables mirrortraffic --workflow cust2one)',
    action: 'mirror',
    keyspace: 'customer',
    workflow: 'cust2one',
    reproduces: [{ check: 'mirror-traffic', reason: 'notMoveTables' }],
    unsupported: noMirror,
    real: () => [...RS.map((a) => (a === 'Reshard' ? 'MoveTables' : a)), 'mirrortraffic', '--percent', '10'],
  },
  templateState('reshard-template-exclude', 'an exclude rule', 'excludeRule', 'exclude'),
  templateState('reshard-template-no-select', 'a rule without a filter', 'noSelectExpression', null),
  templateState('reshard-template-not-select', 'a DELETE for filter', 'notASelect', 'delete from corder'),
  templateState(
    'reshard-template-in-keyrange',
    'an in_keyrange() with two arguments',
    'inKeyrangeParameters',
    "select order_id, customer_id, sku, price from corder where in_keyrange(customer_id, 'hash')",
  ),
  templateState(
    'reshard-template-brace',
    "'{{' in the filter",
    'braceInQuery',
    "select order_id, customer_id, sku, price from corder where in_keyrange('-80') and sku != '{{'",
  ),
  {
    id: 'reshard-unnamed-stream',
    title:
      "the Materialize corder_copy's stream on -80 renamed to '' (an unnamed stream): Reshard SwitchTraffic --dry-run",
    action: 'switch',
    keyspace: 'customer',
    workflow: 'cust2one',
    // v19 names the stream too (stream_migrator.go:250 @v0.19.10).
    reproduces: [
      { check: 'stream-set-mismatch', reason: 'unnamedStreamV19', until: 19 },
      { check: 'stream-set-mismatch', reason: 'unnamedStream', from: 20 },
    ],
    setup: async (c) => {
      await ensureCorderCopy(c);
      c.sql(200, "UPDATE _vt.vreplication SET workflow = '' WHERE workflow = 'corder_copy'");
    },
    real: () => [...RS, 'switchtraffic', '--dry-run'],
    after: async (c) => {
      c.sql(
        200,
        "UPDATE _vt.vreplication SET workflow = 'corder_copy' WHERE workflow = '' AND source LIKE '%corder_copy%'",
      );
    },
  },
  {
    id: 'reshard-other-streams-stopped',
    title:
      "another workflow's streams on the Reshard's source shards (a Materialize in customer) deleted on 80- (v24 leaves -80's Stopped): Reshard SwitchTraffic --dry-run",
    action: 'switch',
    keyspace: 'customer',
    workflow: 'cust2one',
    // v19 to v21 leave -80's streams Running after the partial delete, and both proceed (the real-Vitess runs of
    // v19.0.10, v20.0.8 and v21.0.5): only v22 and later reproduce the refusal.
    reproduces: [{ check: 'source-streams-not-running', reason: 'stoppedStream', from: 22 }],
    setup: async (c) => {
      await ensureCorderCopy(c);
      // --keep-data: the table stays on every shard (releases differ in which shards' tables a partial delete drops).
      c.must([
        'Workflow',
        '--keyspace',
        'customer',
        'delete',
        '--workflow',
        'corder_copy',
        '--shards',
        '80-',
        '--keep-data',
      ]);
    },
    real: () => [...RS, 'switchtraffic', '--dry-run'],
    after: async (c) => {
      c.must(['Workflow', '--keyspace', 'customer', 'start', '--workflow', 'corder_copy', '--shards', '-80']);
      await c.waitStreams('customer', 'corder_copy', 'Running', 60);
    },
  },
  {
    id: 'reshard-stream-sets-differ',
    title: "that Materialize's streams running on -80 only (none on 80-): Reshard SwitchTraffic --dry-run",
    action: 'switch',
    keyspace: 'customer',
    workflow: 'cust2one',
    reproduces: [],
    real: () => [...RS, 'switchtraffic', '--dry-run'],
    after: async (c) => {
      c.must(['Workflow', '--keyspace', 'customer', 'delete', '--workflow', 'corder_copy', '--keep-data']);
      await c.waitGone('customer', 'corder_copy');
    },
  },
  {
    id: 'reshard-reverse-nothing-switched',
    title: 'Reshard ReverseTraffic before anything was switched',
    action: 'reverse',
    keyspace: 'customer',
    workflow: 'cust2one',
    reproduces: [{ check: 'reverse-traffic', reason: 'noReverseWorkflow' }],
    real: () => [...RS, 'reversetraffic'],
  },
  {
    id: 'reshard-cancel-after-reads',
    title: 'Reshard cancel after reads (replica, rdonly) were switched, writes not',
    action: 'cancel',
    keyspace: 'customer',
    workflow: 'cust2one',
    // v19 to v21 refuse (reads switched count); v22 and later cancel.
    reproduces: [{ check: 'cancel-workflow', reason: 'trafficSwitchedBeforeV22', until: 21 }],
    // v22 and later cancel: the target shard's tables are dropped while the SrvKeyspace still sends REPLICA and
    // RDONLY reads of customer to it (server.go WorkflowDelete refuses only switched writes, then dropTargets).
    breaks: {
      check: 'cancel-workflow',
      reason: 'reshardReadsOnDroppedTargets',
      from: 22,
      observe: (c) => {
        const srv = c.must(['GetSrvKeyspaces', 'customer']);
        const replicaOnZero = /"served_type":\s*"?(REPLICA|2)"?[\s\S]*?"name":\s*"0"/.test(srv);
        const tables = c.must(['ExecuteFetchAsDBA', 'zone1-410', 'show tables']);
        return replicaOnZero && !/customer/.test(tables)
          ? 'after the cancel the SrvKeyspace still serves REPLICA reads from customer/0, whose tables are gone'
          : undefined;
      },
    },
    setup: async (c) => {
      c.must([...RS, 'switchtraffic', '--tablet-types', 'replica,rdonly']);
    },
    real: () => [...RS, 'cancel'],
    after: async (c, ok) => {
      if (!ok) {
        // The release refused (v19, v21): reads cannot be reversed before the reverse workflow exists, so the
        // Reshard is finished instead, and customer is served by shard 0 from here on.
        c.must([...RS, 'switchtraffic']);
        c.must([...RS, 'complete']);
        await c.waitGone('customer', 'cust2one');
        return;
      }
      await c.waitGone('customer', 'cust2one');
      c.stopTablet(410);
      c.must(['DeleteShards', '--recursive', '--even-if-serving', 'customer/0']);
    },
  },
  {
    id: 'lookup-create',
    title: 'LookupVindex create of a consistent_lookup on corder.sku, lookup table in commerce',
    action: 'externalize',
    keyspace: 'commerce',
    workflow: 'corder_sku_vdx',
    reproduces: [],
    setup: async (c) => {
      c.must([
        ...LV,
        'create',
        '--keyspace',
        'customer',
        '--type',
        'consistent_lookup',
        '--table-owner',
        'corder',
        '--table-owner-columns',
        'sku',
        '--tablet-types',
        'PRIMARY',
      ]);
      await c.waitStreams('commerce', 'corder_sku_vdx', 'Running');
    },
    real: () => [...LV, 'externalize', '--keyspace', 'customer'],
  },
  {
    id: 'externalize-after-stopped',
    title: 'a second LookupVindex (customer.email) whose backfill was stopped with Workflow stop: externalize',
    action: 'externalize',
    keyspace: 'commerce',
    workflow: 'customer_email_vdx',
    reproduces: [],
    setup: async (c) => {
      c.must([
        ...LV2,
        'create',
        '--keyspace',
        'customer',
        '--type',
        'consistent_lookup_unique',
        '--table-owner',
        'customer',
        '--table-owner-columns',
        'email',
        '--tablet-types',
        'PRIMARY',
      ]);
      await c.waitStreams('commerce', 'customer_email_vdx', 'Running');
      c.must(['Workflow', '--keyspace', 'commerce', 'stop', '--workflow', 'customer_email_vdx']);
      await c.waitStreams('commerce', 'customer_email_vdx', 'Stopped', 30);
    },
    real: () => [...LV2, 'externalize', '--keyspace', 'customer'],
  },
];

/** `check › reason` → the releases (19…24) on which a state of the table reproduces it (not skipped there). */
export function reproducedReasons(releases: readonly number[] = [19, 20, 21, 22, 23, 24]): Map<string, number[]> {
  const out = new Map<string, number[]>();
  for (const s of STATES) {
    for (const rel of releases) {
      if (s.unsupported?.(rel) !== undefined) continue;
      for (const r of reproducesOn(s, rel)) {
        const key = `${r.check} › ${r.reason}`;
        out.set(
          key,
          [...new Set([...(out.get(key) ?? []), rel])].sort((a, b) => a - b),
        );
      }
    }
  }
  return out;
}
