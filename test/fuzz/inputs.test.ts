/**
 * Fuzz: the readers of input files never throw anything but their own one-line error, and never
 * print a raw control character: the snapshot reader (`check --snapshot`), the GetWorkflows JSON reader
 * (`check --workflows-json`) and the config loader (`--config`). Inputs: random text, byte-level mutations of a
 * valid file, and valid files with one JSON subtree replaced by a random value. A snapshot that passes the reader must
 * also build a model without throwing (the builder relies on the shape the reader checked).
 *
 * VTPREFLIGHT_FUZZ_RUNS inputs per generator (default 2000, as in CI; `npm run fuzz` sets 100000).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { CONFIG_SHAPE } from '../../src/config/settings.js';
import { parseConfigText } from '../../src/config/load.js';
import { CollectError, UsageError } from '../../src/errors.js';
import { buildModel } from '../../src/model/build.js';
import { parseSnapshot, serializeReadout } from '../../src/sources/snapshot.js';
import { parseWorkflowsJson, WorkflowsJsonError, workflowsJsonToReadout } from '../../src/sources/workflows-json.js';
import { unshardedToSharded } from '../e2e/scenarios.js';
import { repoRoot } from '../helpers/paths.js';

const RUNS = Number(process.env.VTPREFLIGHT_FUZZ_RUNS ?? 2000);

/** Thrown errors: only `kind`, one line, bounded, no raw control character. */
function assertCleanError(e: unknown, kind: new (...a: never[]) => Error, input: string): void {
  const where = JSON.stringify(input.slice(0, 200));
  assert.ok(e instanceof kind, `${(e as Error)?.constructor?.name ?? typeof e} thrown for ${where}: ${String(e)}`);
  assert.doesNotMatch(e.message, /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/, `raw control character for ${where}`);
  assert.ok(e.message.length < 800, `overlong message for ${where}`);
}

/** A JSON value with one subtree (chosen by `pick`) replaced by `replacement`. */
function replaceAt(value: unknown, pick: number, replacement: unknown): unknown {
  const nodes: { parent: Record<string, unknown> | unknown[]; key: string | number }[] = [];
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) {
      v.forEach((x, i) => {
        nodes.push({ parent: v, key: i });
        walk(x);
      });
    } else if (v !== null && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) {
        nodes.push({ parent: v as Record<string, unknown>, key: k });
        walk(x);
      }
    }
  };
  const copy = structuredClone(value);
  walk(copy);
  if (nodes.length === 0) return replacement;
  const n = nodes[pick % nodes.length]!;
  (n.parent as Record<string | number, unknown>)[n.key] = replacement;
  return copy;
}

/** Text with some of its characters replaced, deleted or duplicated (control characters included). */
const mutatedText = (text: string) =>
  fc
    .array(
      fc.tuple(
        fc.nat(),
        fc.constantFrom('replace', 'delete', 'insert'),
        fc.string({ unit: 'binary', minLength: 1, maxLength: 3 }),
      ),
      { minLength: 1, maxLength: 6 },
    )
    .map((edits) => {
      let t = text;
      for (const [at, op, s] of edits) {
        const i = at % Math.max(1, t.length);
        t =
          op === 'delete'
            ? t.slice(0, i) + t.slice(i + 1)
            : op === 'insert'
              ? t.slice(0, i) + s + t.slice(i)
              : t.slice(0, i) + s + t.slice(i + 1);
      }
      return t;
    });

/** A valid JSON document with one subtree replaced by any JSON value. */
const mutatedJson = (doc: unknown) =>
  fc.tuple(fc.nat(), fc.jsonValue({ maxDepth: 2 })).map(([pick, v]) => JSON.stringify(replaceAt(doc, pick, v)));

const anyText = fc.oneof(fc.string({ unit: 'binary', maxLength: 200 }), fc.json({ maxDepth: 3 }));

describe('fuzz: snapshot reader', () => {
  const valid = serializeReadout(unshardedToSharded().readout());
  const check = (text: string): void => {
    let readout: ReturnType<typeof parseSnapshot>;
    try {
      readout = parseSnapshot(text, 'fuzz.json');
    } catch (e) {
      assertCleanError(e, CollectError, text);
      return;
    }
    buildModel(readout);
  };
  it('random text', () =>
    fc.assert(
      fc.property(anyText, (t) => check(t)),
      { numRuns: RUNS },
    ));
  it('mutated bytes of a valid snapshot', () =>
    fc.assert(
      fc.property(mutatedText(valid), (t) => check(t)),
      { numRuns: RUNS },
    ));
  it('a valid snapshot with one subtree replaced', () =>
    fc.assert(
      fc.property(mutatedJson(JSON.parse(valid)), (t) => check(t)),
      { numRuns: RUNS },
    ));
});

describe('fuzz: GetWorkflows JSON reader', () => {
  const valid = readFileSync(join(repoRoot, 'test', 'fixtures', 'vtctld', 'GetWorkflowsResponse.json'), 'utf8');
  const check = (text: string): void => {
    try {
      workflowsJsonToReadout([parseWorkflowsJson(text, 'fuzz.json')], {
        now: '2026-01-01T00:00:00.000Z',
        toolVersion: '0',
      });
    } catch (e) {
      assertCleanError(e, WorkflowsJsonError, text);
    }
  };
  it('random text', () =>
    fc.assert(
      fc.property(anyText, (t) => check(t)),
      { numRuns: RUNS },
    ));
  it('mutated bytes of a valid file', () =>
    fc.assert(
      fc.property(mutatedText(valid), (t) => check(t)),
      { numRuns: RUNS },
    ));
  it('a valid file with one subtree replaced', () =>
    fc.assert(
      fc.property(mutatedJson(JSON.parse(valid)), (t) => check(t)),
      { numRuns: RUNS },
    ));
});

describe('fuzz: config loader', () => {
  const yaml =
    'vtctld:\n  address: vtctld:15999\n  tls:\n    ca: ca.pem\nconcurrency: 8\nkeyspaces: [customer]\nseverities:\n  replication-lag: warning\n';
  const json = JSON.stringify({ vtctld: { address: 'vtctld:15999' }, concurrency: 8, keyspaces: ['customer'] });
  const check = (file: string, text: string): void => {
    try {
      parseConfigText(file, text, CONFIG_SHAPE);
    } catch (e) {
      assertCleanError(e, UsageError, text);
    }
  };
  it('random text as YAML and as JSON', () =>
    fc.assert(
      fc.property(anyText, fc.boolean(), (t, asJson) => check(asJson ? 'c.json' : 'c.yaml', t)),
      { numRuns: RUNS },
    ));
  it('mutated bytes of a valid YAML config', () =>
    fc.assert(
      fc.property(mutatedText(yaml), (t) => check('c.yaml', t)),
      { numRuns: RUNS },
    ));
  it('a valid JSON config with one subtree replaced', () =>
    fc.assert(
      fc.property(mutatedJson(JSON.parse(json)), (t) => check('c.json', t)),
      { numRuns: RUNS },
    ));
});
