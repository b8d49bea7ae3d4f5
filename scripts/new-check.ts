/**
 * `npm run new-check -- <id>`: the scaffold of a new check (knip's `create-new-plugin`, Biome's rule template).
 *
 * Writes `checks/<id>.ts` (a working example check with one declared reason, placeholders saying what good text
 * looks like), `test/checks/<id>.test.ts` (its table: a valid case, a "not read" valid case, a near miss and an
 * invalid case), the registry line in `checks/index.ts` and an end-to-end scenario in `test/e2e/scenarios.ts`, both in
 * sorted position, then regenerates docs/checks.md and docs/fidelity.md. The result passes the meta-tests as
 * generated (test/scripts/new-check.test.ts proves it on a copy of the repository); replace the example detection
 * with yours.
 *
 * Exit codes: 0 written; 2 bad id or the check exists (one line on stderr, nothing written).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** kebab-case ids only: they are file names, registry keys and a JSON contract. */
const ID = /^[a-z]+(?:-[a-z]+)*$/;

/** `stream-gone-missing` → `streamGoneMissing`. */
export function camelOf(id: string): string {
  return id.replace(/-([a-z])/g, (_m, c: string) => c.toUpperCase());
}

/** The check module: an example check that works, with every text field saying what belongs there. */
export function checkModule(id: string): string {
  return `/**
 * ${id}
 *
 * TODO one paragraph: what this check finds, and which Vitess function refuses or goes wrong because of it
 * (\`vitessio/vitess:go/vt/…/file.go\` \`FunctionName\`: read upstream first). List the failure modes (reasons) here.
 *
 * The detection below is an EXAMPLE (a stream stopped by hand, with no message): replace it, its reason and its
 * tests. The check contract and how to declare a reason: src/engine/check.ts.
 */
import { defineCheck, streamLocation } from '../src/engine/check.js';
import type { Stream } from '../src/model/types.js';

// Wording first, detection below. A message is one sentence naming the object and the exact values, no period.
const stoppedByHand = (s: Stream) =>
  \`stream \${s.id} of \${s.workflow} on \${s.keyspace}/\${s.shard} is Stopped without a message\`;

export default defineCheck({
  id: '${id}',
  // What holds when the check passes, as a short sentence without a period.
  title: 'TODO: what holds when this check passes',
  reasons: {
    // A reason Vitess reports itself takes \`vitess: { template, file, line, versions }\` instead of \`heuristic\`;
    // see src/engine/check.ts. One severity per reason.
    stoppedByHand: {
      severity: 'info',
      step: 'can-switch-streams',
      heuristic: true,
      rationale: 'TODO one sentence: why this matters although Vitess itself says nothing.',
    },
  },
  description:
    'TODO Markdown: why it matters, which Vitess error it predicts and where upstream raises it (\`vitessio/vitess:go/vt/…\`), and what the check does not judge (data it could not read).',
  remediation:
    'TODO Markdown: the command to run, in full sentences: \`vtctldclient Workflow --keyspace <keyspace> show --workflow <workflow>\`. Then run vtpreflight again.',
  run(model) {
    // Pure and synchronous: no clock (use model.readAt), no I/O. Streams of shards that were not read are absent.
    return model
      .streams()
      .filter((s) => s.state === 'Stopped' && s.message === '')
      .map((s) => ({
        reason: 'stoppedByHand' as const,
        message: stoppedByHand(s),
        ...streamLocation(s),
        details: { state: s.state },
      }));
  },
});
`;
}

/** Its table test: every declared reason needs an invalid case producing it and a valid near miss naming it. */
export function checkTest(id: string): string {
  return `import check from '../../checks/${id}.js';
import { checkTester } from '../helpers/check-tester.js';
import { moveTablesScenario } from '../helpers/reshard-scenario.js';

// commerce/0 → customer -80 (primary zone1-0000000110), 80- (…120): MoveTables commerce2customer, stream 1 per shard.
const moveTables = () => moveTablesScenario(['customer']);

checkTester(check, {
  valid: [
    { name: 'a healthy MoveTables', model: moveTables() },
    {
      name: 'a stream stopped after its copy says so in its message',
      model: moveTables().patchStream('customer', '-80', 1, { state: 'Stopped', message: 'Stopped after copy.' }),
      reasons: ['stoppedByHand'],
    },
    {
      name: 'a primary whose streams could not be read is not judged (unreachable reports it)',
      model: moveTables()
        .patchStream('customer', '-80', 1, { state: 'Stopped', message: '' })
        .unreadable('customer', '-80'),
      reasons: ['stoppedByHand'],
    },
  ],
  invalid: [
    {
      name: 'a stream stopped by hand',
      model: moveTables().patchStream('customer', '-80', 1, { state: 'Stopped', message: '' }),
      findings: [
        {
          reason: 'stoppedByHand',
          severity: 'info',
          keyspace: 'customer',
          shard: '-80',
          workflow: 'commerce2customer',
          streamId: 1,
          message: 'stream 1 of commerce2customer on customer/-80 is Stopped without a message',
        },
      ],
    },
  ],
});
`;
}

/** The end-to-end scenario (replayed on real MariaDB behind a real gRPC vtctld by test/e2e/checks.test.ts). */
export function scenarioEntry(id: string): string {
  return `  {
    check: '${id}',
    name: 'a stream stopped by hand (scaffold example: replace it with a representative invalid case)',
    build: () => moveTables().patchStream('customer', '-80', 1, { state: 'Stopped', message: '' }),
    expect: (r) =>
      assertFindings(r, '${id}', [
        { severity: 'info', keyspace: 'customer', shard: '-80', streamId: 1, details: { reason: 'stoppedByHand' } },
      ]),
  },
`;
}

/** `checks/index.ts` with the import and the array entry of `id` in sorted position. */
export function withRegistryLine(index: string, id: string): string {
  const name = camelOf(id);
  const imports = [...index.matchAll(/^import (\w+) from '\.\/([a-z-]+)\.js';\n/gm)];
  if (imports.length === 0) throw new Error('checks/index.ts: no check imports found');
  const after = imports.find((m) => m[2]! > id);
  const importLine = `import ${name} from './${id}.js';\n`;
  let out =
    after !== undefined
      ? index.slice(0, after.index) + importLine + index.slice(after.index)
      : (() => {
          const last = imports[imports.length - 1]!;
          const at = last.index + last[0].length;
          return index.slice(0, at) + importLine + index.slice(at);
        })();
  const start = out.indexOf('Object.freeze([');
  const end = out.indexOf(']);', start);
  if (start < 0 || end < 0) throw new Error('checks/index.ts: no `Object.freeze([ … ])` registry array found');
  const entries = [...out.slice(start, end).matchAll(/^ {2}(\w+),\n/gm)].map((m) => m[1]!);
  const ids = new Map(imports.map((m) => [m[1]!, m[2]!]));
  const next = entries.find((e) => (ids.get(e) ?? '') > id);
  if (next !== undefined) {
    const at = out.indexOf(`  ${next},\n`, start);
    out = `${out.slice(0, at)}  ${name},\n${out.slice(at)}`;
  } else out = `${out.slice(0, end)}  ${name},\n${out.slice(end)}`;
  return out;
}

/** `test/e2e/scenarios.ts` with the scenario of `id` in `PER_CHECK`, in id order. */
export function withScenario(scenarios: string, id: string): string {
  const start = scenarios.indexOf('export const PER_CHECK');
  if (start < 0) throw new Error('test/e2e/scenarios.ts: no PER_CHECK list found');
  const end = scenarios.indexOf('\n];\n', start);
  const entries = [...scenarios.slice(start, end).matchAll(/^ {2}\{\n(?: *\/\/.*\n)* {4}check: '([a-z-]+)',/gm)];
  const next = entries.find((m) => m[1]! > id);
  const at = next !== undefined ? start + next.index : end + 1;
  return scenarios.slice(0, at) + scenarioEntry(id) + scenarios.slice(at);
}

/** Writes the scaffold into the repository at `root`; returns the files written, repository-relative. */
export function scaffold(root: string, id: string): string[] {
  if (!ID.test(id)) throw new Error(`invalid check id "${id}": use kebab-case (lower-case words joined by -)`);
  const module = join(root, 'checks', `${id}.ts`);
  const test = join(root, 'test', 'checks', `${id}.test.ts`);
  if (existsSync(module) || existsSync(test)) throw new Error(`check ${id} exists: checks/${id}.ts or its test`);
  const index = join(root, 'checks', 'index.ts');
  const scenarios = join(root, 'test', 'e2e', 'scenarios.ts');
  const nextIndex = withRegistryLine(readFileSync(index, 'utf8'), id);
  const nextScenarios = withScenario(readFileSync(scenarios, 'utf8'), id);
  writeFileSync(module, checkModule(id));
  writeFileSync(test, checkTest(id));
  writeFileSync(index, nextIndex);
  writeFileSync(scenarios, nextScenarios);
  return [`checks/${id}.ts`, `test/checks/${id}.test.ts`, 'checks/index.ts', 'test/e2e/scenarios.ts'];
}

const isMain = process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
  const id = process.argv[2] ?? '';
  try {
    const written = scaffold(root, id);
    // Compile with the new files, then regenerate the generated docs from the registry.
    execFileSync(join(root, 'node_modules', '.bin', 'tsc'), ['-p', join(root, 'tsconfig.json')], { stdio: 'inherit' });
    execFileSync(process.execPath, [join(root, 'dist', 'scripts', 'gen-readme.js')], { stdio: 'inherit' });
    process.stdout.write(
      `wrote ${written.join(', ')} and regenerated docs/checks.md and docs/fidelity.md.\n` +
        `Next: replace the example detection in checks/${id}.ts and its cases in test/checks/${id}.test.ts, then\n` +
        `  npm run build && node dist/test/run.js dist/test/checks/${id}.test.js dist/test/checks/registry.test.js\n` +
        '  node dist/scripts/gen-readme.js   # after changing title, description or reasons\n',
    );
  } catch (e) {
    process.stderr.write(`new-check: ${(e instanceof Error ? e.message : String(e)).split('\n')[0]}\n`);
    process.exit(2);
  }
}
