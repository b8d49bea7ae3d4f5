/**
 * `ReadError.kind`: snapshots written before it existed still load, and get the kind their fields say; a kind that
 * is not one of READ_ERROR_KINDS is refused. (Kinds produced by real failures: test/sources/sidecar.test.ts,
 * vtctld-client.test.ts, test/faults/stall.test.ts.)
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import check from '../../checks/unreachable.js';
import { runChecks } from '../../src/index.js';
import { buildModel } from '../../src/model/build.js';
import type { Read, Readout } from '../../src/readout.js';
import { grpcErrorKind, legacyReadErrorKind, sqlErrorKind } from '../../src/sources/read-kind.js';
import { parseSnapshot } from '../../src/sources/snapshot.js';
import { cluster } from '../helpers/cluster.js';
import { moveTablesScenario } from '../helpers/reshard-scenario.js';

const base = () =>
  cluster()
    .keyspace('customer', { shards: ['0', '-80', '80-'], notServing: ['-80', '80-'] })
    .reshard('cust2cust', { keyspace: 'customer', from: ['0'], to: ['-80', '80-'] });

const errorOf = (r: Read<unknown> | undefined) => {
  assert.ok(r !== undefined && !r.ok, 'a failed read');
  return r.error;
};

describe('an older snapshot (no kind) loads with kinds derived from what it recorded', () => {
  const b = base();
  const replica = b.replica('customer', '-80');
  const other = b.replica('customer', '80-');
  const older: Readout = b
    .fullStatusOf(replica, { error: 'UNAVAILABLE: connection error: dial tcp 10.0.0.11:16111: connect refused' })
    .fullStatusOf(other, { error: 'context deadline exceeded', timedOut: true })
    .unreadable('customer', '80-', 'cannot connect to 127.0.0.1:17120: Too many connections (ER_CON_COUNT_ERROR 1040)')
    .copyStateUnreadable('customer', '-80', "Table '_vt.copy_state' doesn't exist (ER_NO_SUCH_TABLE 1146)")
    .readout();
  const text = JSON.stringify(older);

  test('the file has no kind at all (as an older vtpreflight wrote it)', () => {
    assert.doesNotMatch(text, /"kind"/);
  });

  test('each failure gets its kind, and an older gRPC reason its code', () => {
    const loaded = parseSnapshot(text, 'older.json');
    const fs = errorOf(loaded.fullStatus[replica]);
    assert.equal(fs.kind, 'unavailable');
    assert.equal(fs.code, 'UNAVAILABLE');
    assert.equal(errorOf(loaded.fullStatus[other]).kind, 'timeout');
    const primary = loaded.sidecars.find((s) => s.shard === '80-');
    assert.equal(errorOf(primary?.vreplication).kind, 'too-many-connections');
    const left = loaded.sidecars.find((s) => s.shard === '-80');
    assert.equal(errorOf(left?.copyState).kind, 'missing-table');
  });

  test('the unreachable check judges the loaded snapshot by those kinds', () => {
    const model = buildModel(parseSnapshot(text, 'older.json'));
    const findings = check.run(model, {} as never);
    const byTablet = new Map(findings.map((f) => [f.tablet, f]));
    assert.equal(byTablet.get(replica)?.reason, 'tabletUnreachable');
    assert.equal(byTablet.get(other)?.reason, 'tabletStatusFailed');
  });

  test('a kind that is not one of READ_ERROR_KINDS is refused, naming where', () => {
    const bad = JSON.parse(text) as { fullStatus: Record<string, { error: { kind?: string } }> };
    (bad.fullStatus[replica] as { error: { kind?: string } }).error.kind = 'exploded';
    assert.throws(
      () => parseSnapshot(JSON.stringify(bad), 'bad.json'),
      /fullStatus\["?zone1-0000000111"?\]\.error\.kind: expected one of connect-refused, /,
    );
  });
});

describe('runChecks (the library) on a readout without kinds judges as on one with them', () => {
  test('GetFullStatus UNAVAILABLE predicts the refresh refusal; SrvVSchema NoNode is missing', () => {
    const b = moveTablesScenario(['customer']).servingGraph({
      extraCells: ['zone2'],
      missing: { srvVSchema: ['zone2'] },
    });
    const replica = b.replica('customer', '-80');
    const readout = b.fullStatusOf(replica, { error: 'UNAVAILABLE: connection refused' }).readout();
    assert.doesNotMatch(JSON.stringify(readout), /"kind"/);
    const report = runChecks(readout);
    const reasons = report.findings.map((f) => `${f.check} ${f.details?.reason}`);
    assert.ok(reasons.includes('unreachable tabletUnreachable'), reasons.join(', '));
    assert.ok(reasons.includes('serving-graph-missing srvVSchemaMissing'), reasons.join(', '));
  });
});

describe('kinds come from codes, not from words', () => {
  test('mysql2 codes and server errnos', () => {
    assert.equal(sqlErrorKind({ code: 'ECONNREFUSED', errno: -111 }), 'connect-refused');
    assert.equal(sqlErrorKind({ code: 'ER_ACCESS_DENIED_ERROR', errno: 1045, message: 'anything' }), 'auth');
    assert.equal(sqlErrorKind({ code: 'ER_TABLEACCESS_DENIED_ERROR', errno: 1142 }), 'privilege');
    assert.equal(sqlErrorKind({ code: 'PROTOCOL_SEQUENCE_TIMEOUT' }), 'timeout');
    assert.equal(sqlErrorKind({ code: 'HANDSHAKE_NO_SSL_SUPPORT' }), 'tls');
    assert.equal(sqlErrorKind(new Error('Too many connections')), 'other', 'the words alone decide nothing');
  });

  test('gRPC statuses, and the MySQL errno Vitess relays under UNKNOWN', () => {
    assert.equal(grpcErrorKind('UNAVAILABLE', 'x'), 'unavailable');
    assert.equal(grpcErrorKind('UNAVAILABLE', 'x', true), 'timeout');
    assert.equal(grpcErrorKind('DEADLINE_EXCEEDED', 'x'), 'timeout');
    assert.equal(
      grpcErrorKind('UNKNOWN', 'Too many connections (errno 1040) (sqlstate 08004)'),
      'too-many-connections',
    );
    assert.equal(grpcErrorKind('UNKNOWN', 'Too many connections'), 'rpc-error');
  });

  test("the topo's NoNode text under UNKNOWN (vtctld returns topo errors as they are) is a record that does not exist", () => {
    assert.equal(grpcErrorKind('UNKNOWN', "node doesn't exist: /vitess/zone2/SrvVSchema"), 'not-found');
    assert.equal(
      legacyReadErrorKind({ what: 'w', where: 'x', reason: "UNKNOWN: node doesn't exist: /vitess/zone2/SrvVSchema" }),
      'not-found',
    );
    assert.equal(grpcErrorKind('UNKNOWN', 'deadline exceeded: /vitess/zone2/SrvVSchema'), 'rpc-error');
    assert.equal(grpcErrorKind('UNKNOWN', "SrvVSchema unmarshal failed: node doesn't exist: x"), 'rpc-error');
  });

  test('a kind recorded is kept as it is', () => {
    assert.equal(
      legacyReadErrorKind({ what: 'w', where: 'x', reason: 'UNAVAILABLE: y', kind: 'privilege' }),
      'privilege',
    );
  });
});
