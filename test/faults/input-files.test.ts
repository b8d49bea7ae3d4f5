/**
 * Input files: a snapshot or config with a UTF-8 byte-order mark is accepted; the bytes of a file
 * that is not JSON are never echoed raw to the terminal (control characters escaped); a malformed shape is rejected
 * with the JSON path that is wrong, never read as "no tablets"; every error is one line and exit 2.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { CONFIG_SHAPE } from '../../src/config/settings.js';
import { parseConfigText } from '../../src/config/load.js';
import { PRIMARY_READS } from '../../src/reads/registry.js';
import { parseSnapshot, serializeReadout, validateReadout } from '../../src/sources/snapshot.js';
import { runCli, tempDir } from '../cli/helpers.js';
import { unshardedToSharded } from '../e2e/scenarios.js';

const ESC = '\u001b';
const tmp = tempDir('vtpreflight-faults-in-');
after(() => tmp.cleanup());
const readout = () => JSON.parse(serializeReadout(unshardedToSharded().readout())) as Record<string, unknown>;

/** No control character at all, except the final newline. */
function assertPrintable(text: string): void {
  assert.doesNotMatch(text.replace(/\n$/, ''), /[\u0000-\u001f\u007f-\u009f]/, JSON.stringify(text));
}

describe('snapshot files', () => {
  test('a UTF-8 byte-order mark is accepted', async () => {
    const file = tmp.write('bom.json', `\uFEFF${serializeReadout(unshardedToSharded().readout())}`);
    const r = await runCli(['check', '--snapshot', file, '--format', 'json']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(JSON.parse(r.stdout).version, 1);
  });

  test('a file that is not JSON: its bytes are never echoed raw', async () => {
    const file = tmp.write('evil.json', `${ESC}]0;pwned\u0007${ESC}[2J\u0000not json at all\r\n`);
    const r = await runCli(['check', '--snapshot', file]);
    assert.equal(r.code, 2);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, /^vtpreflight: snapshot .*evil\.json is not valid JSON: /);
    assert.equal(r.stderr.split('\n').length, 2, 'one line');
    assertPrintable(r.stderr);
  });

  test('a file name with control characters is escaped too', async () => {
    const r = await runCli(['check', '--snapshot', join(tmp.dir, `no${ESC}[31mfile`)]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /\\u001b\[31mfile: ENOENT/);
    assertPrintable(r.stderr);
  });

  const cases: [string, (r: Record<string, unknown>) => void, string][] = [
    [
      'tablets not an array',
      (r) => {
        (r.topology as Record<string, unknown>).tablets = { ok: true, value: {} };
      },
      'topology.tablets.value: expected an array',
    ],
    [
      'a tablet without its alias',
      (r) => {
        const t = (r.topology as { tablets: { value: Record<string, unknown>[] } }).tablets.value;
        delete t[1]!.alias;
      },
      'topology.tablets.value[1].alias: missing',
    ],
    [
      'a stream id that is a string',
      (r) => {
        const sc = r.sidecars as { vreplication: { value: Record<string, unknown>[] } }[];
        sc[1]!.vreplication.value[0]!.id = '1';
      },
      'sidecars[1].vreplication.value[0].id: expected a number',
    ],
    [
      'a shard list keyed by an odd keyspace name that is not a read result',
      (r) => {
        (r.topology as { shards: Record<string, unknown> }).shards['we ird'] = [];
      },
      'topology.shards["we ird"]: expected a read result (an object with "ok")',
    ],
    [
      'a failed read without its reason',
      (r) => {
        (r.topology as Record<string, unknown>).keyspaces = { ok: false, error: { what: 'GetKeyspaces', where: 'x' } };
      },
      'topology.keyspaces.error.reason: missing',
    ],
    [
      "a VDiff run's mismatched tables that are not a list (an additive field)",
      (r) => {
        const sc = r.sidecars as Record<string, unknown>[];
        sc[1]!.vdiffs = {
          ok: true,
          value: [
            {
              id: 1,
              vdiff_uuid: 'u',
              workflow: 'w',
              keyspace: 'k',
              shard: '0',
              state: 'completed',
              created_at: null,
              last_error: '',
              mismatched_tables: 'customer',
            },
          ],
        };
      },
      'sidecars[1].vdiffs.value[0].mismatched_tables: expected an array',
    ],
    [
      'a control character in a key is escaped in the path',
      (r) => {
        (r.fullStatus as Record<string, unknown>)[`zone1${ESC}[2J`] = { ok: 'yes' };
      },
      'fullStatus["zone1\\u001b[2J"].ok: expected true or false',
    ],
  ];
  for (const [name, mutate, problem] of cases) {
    test(`malformed shape, named by its JSON path: ${name}`, async () => {
      const r = readout();
      mutate(r);
      assert.equal(validateReadout(r), problem);
      const file = tmp.write(`bad-${name.replace(/\W+/g, '-')}.json`, JSON.stringify(r));
      const run = await runCli(['check', '--snapshot', file]);
      assert.equal(run.code, 2);
      assert.equal(run.stdout, '');
      assert.ok(run.stderr.endsWith(`is not a vtpreflight readout: ${problem}\n`), run.stderr);
      assertPrintable(run.stderr);
    });
  }

  // Every read of the registry is validated the same way (src/sources/read-shapes.ts): a value of the wrong type is
  // refused at its JSON path, a failed read's error without a reason too, whichever read it is.
  for (const r of PRIMARY_READS) {
    test(`a primary's ${r.id} read of the wrong type is refused at its JSON path`, () => {
      const snap = readout();
      const sidecar = (snap.sidecars as Record<string, unknown>[])[0]!;
      sidecar[r.id] = { ok: true, value: 'not a read' };
      assert.equal(
        validateReadout(snap)?.startsWith(`sidecars[0].${r.id}.value: expected `),
        true,
        validateReadout(snap) ?? '',
      );
      sidecar[r.id] = { ok: false, error: { what: 'w', where: 'x' } };
      assert.equal(validateReadout(snap), `sidecars[0].${r.id}.error.reason: missing`);
      if (r.optionalInReadout) {
        delete sidecar[r.id];
        assert.equal(validateReadout(snap), null, `${r.id} may be absent from an older readout`);
      }
    });
  }

  test('the parser never throws anything but its one-line error', () => {
    assert.throws(
      () => parseSnapshot('{"version": 1, "capturedAt": 3}', 'x.json'),
      /^CollectError: snapshot x\.json is not a vtpreflight readout: capturedAt: expected an ISO-8601 time$/,
    );
  });
});

describe('config files', () => {
  test('a UTF-8 byte-order mark is accepted (JSON and YAML)', () => {
    assert.equal(
      parseConfigText('c.json', '\uFEFF{"concurrency": 4}', CONFIG_SHAPE).entries.get('concurrency')?.value,
      4,
    );
    assert.equal(
      parseConfigText('c.yaml', '\uFEFFconcurrency: 4\n', CONFIG_SHAPE).entries.get('concurrency')?.value,
      4,
    );
  });

  test('a config that is not JSON: no raw bytes echoed', async () => {
    const file = tmp.write('c.json', `{"concurrency": ${ESC}[2J}`);
    const r = await runCli(['config', 'print', '--config', file]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /c\.json:1: not valid JSON/);
    assertPrintable(r.stderr);
  });

  test('an unknown key or a bad value with control characters is escaped', async () => {
    const key = tmp.write('k.yaml', `"con${ESC}[2Jcurrency": 4\n`);
    const r1 = await runCli(['config', 'print', '--config', key]);
    assert.equal(r1.code, 2);
    assert.match(r1.stderr, /unknown key "con\\u001b\[2Jcurrency"/);
    assertPrintable(r1.stderr);
    const value = tmp.write('v.yaml', `via: "my${ESC}]0;x\u0007sql"\n`);
    const r2 = await runCli(['config', 'print', '--config', value]);
    assert.equal(r2.code, 2);
    assert.match(r2.stderr, /invalid via "my\\u001b\]0;x\\u0007sql"/);
    assertPrintable(r2.stderr);
  });
});
