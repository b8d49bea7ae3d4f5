/**
 * The layer rule (docs/design.md, "One direction of flow"), enforced over the import graph of `src/` and `checks/`:
 *
 *   src/sources ─▶ readout ─▶ src/model ─▶ checks/ ─▶ src/engine ─▶ src/report ─▶ src/cli
 *   (I/O)          (records)  (immutable)  (pure)     (report obj)  (pure)        (composition root)
 *
 * Read as "may import": `src/vitess` imports nothing of ours; `src/model` may use `src/vitess` and the readout
 * types; checks use the model and the engine's check types; reporters use the engine's report types;
 * `src/sources` produces the readout and never sees the model; only `src/cli`, `src/cli.ts` and `src/index.ts`
 * (the composition roots) may import anything. Only `src/sources`, `src/sim`, `src/config` and the roots may
 * import I/O packages (mysql2, grpc-js, `node:fs`, listr2, commander …). No file is part of an import cycle,
 * type-only imports included.
 *
 * The sources are read as text (comments stripped), so `import type`, re-exports and dynamic `import()` count.
 * Every failure names the file to edit.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, posix } from 'node:path';
import { repoRoot } from './helpers/paths.js';

/** A floor of the house: which files it holds and what they may import. */
interface Layer {
  readonly name: string;
  /** Path prefixes (`src/model/`) or exact files (`src/readout.ts`), relative to the repository root. */
  readonly files: readonly string[];
  /** What its files may import of ours (same kind of entries); `*` = anything. */
  readonly may: readonly string[];
  /** npm packages and `node:` modules it may import; `*` = any. */
  readonly packages: readonly string[];
}

/** Pure modules may use these built-ins: no I/O, no process state. */
const PURE_BUILTINS = ['node:buffer', 'node:zlib'];

/** Leaf helpers every layer above the Vitess primitives may use (`src/text.ts`: code-unit order, plural …). */
const SHARED = ['src/text.ts', 'src/secrets.ts'];

/** The layer table. A file belongs to the first layer with a matching entry. Edit here to change the rule. */
export const LAYERS: readonly Layer[] = [
  { name: 'Vitess primitives', files: ['src/vitess/'], may: ['src/vitess/'], packages: PURE_BUILTINS },
  {
    name: 'leaf modules',
    files: [
      'src/readout.ts',
      'src/errors.ts',
      'src/duration.ts',
      'src/version.ts',
      'src/engine/severity.ts',
      ...SHARED,
    ],
    may: [],
    packages: [],
  },
  {
    name: 'read declarations',
    files: ['src/reads/'],
    may: ['src/reads/', 'src/readout.ts', ...SHARED],
    packages: PURE_BUILTINS,
  },
  {
    name: 'model',
    files: ['src/model/'],
    may: ['src/model/', 'src/vitess/', 'src/readout.ts', 'src/reads/', ...SHARED],
    packages: PURE_BUILTINS,
  },
  {
    name: 'checks',
    files: ['checks/'],
    may: [
      'checks/',
      'src/engine/check.ts',
      'src/engine/options.ts',
      'src/engine/severity.ts',
      'src/model/',
      'src/vitess/',
      'src/reads/',
      ...SHARED,
    ],
    packages: [],
  },
  {
    name: 'engine',
    files: ['src/engine/'],
    may: [
      'src/engine/',
      'src/model/',
      'src/vitess/',
      'src/readout.ts',
      'src/reads/',
      'src/errors.ts',
      'src/duration.ts',
      ...SHARED,
    ],
    packages: [],
  },
  {
    name: 'reporters',
    files: ['src/report/'],
    may: [
      'src/report/',
      'src/engine/check.ts',
      'src/engine/options.ts',
      'src/engine/report.ts',
      'src/engine/severity.ts',
      'src/vitess/keyrange.ts',
      'src/duration.ts',
      ...SHARED,
    ],
    packages: [],
  },
  { name: 'catalog', files: ['src/catalog.ts'], may: ['src/engine/check.ts', ...SHARED], packages: [] },
  {
    name: 'sources',
    files: ['src/sources/'],
    may: [
      'src/sources/',
      'src/reads/',
      'src/readout.ts',
      'src/vitess/',
      'src/errors.ts',
      'src/version.ts',
      'src/duration.ts',
      ...SHARED,
    ],
    packages: ['*'],
  },
  {
    name: 'simulator',
    files: ['src/sim/'],
    may: ['src/sim/', 'src/sources/', 'src/reads/', 'src/readout.ts', 'src/vitess/', 'src/errors.ts', ...SHARED],
    packages: ['*'],
  },
  {
    name: 'configuration',
    files: ['src/config/'],
    may: [
      'src/config/',
      'src/engine/',
      'src/report/index.ts',
      'src/vitess/',
      'src/duration.ts',
      'src/errors.ts',
      ...SHARED,
    ],
    packages: ['node:fs', 'node:path', 'yaml'],
  },
  { name: 'composition roots', files: ['src/cli/', 'src/cli.ts', 'src/index.ts'], may: ['*'], packages: ['*'] },
];

const HERE = 'test/layers.test.ts';

/** An import edge: `from` imports `spec`, resolved to `to` (a repository path, or the package name). */
interface Edge {
  readonly from: string;
  readonly to: string;
  readonly local: boolean;
  readonly line: number;
}

function sourceFiles(): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const name of readdirSync(join(repoRoot, dir)).sort()) {
      const rel = `${dir}/${name}`;
      if (statSync(join(repoRoot, rel)).isDirectory()) walk(rel);
      else if (rel.endsWith('.ts') && !rel.endsWith('.d.ts')) out.push(rel);
    }
  };
  walk('src');
  walk('checks');
  return out;
}

/** Comments blanked out (newlines kept, so line numbers hold); strings are left alone. */
function stripComments(text: string): string {
  return text
    .replace(/\/\*[\s\S]*?\*\//g, (c) => c.replace(/[^\n]/g, ' '))
    .replace(/^(\s*)\/\/.*$/gm, (_c, indent: string) => indent);
}

/** `import … from '…'` and `export … from '…'`: the clause between is names, braces, commas and `*` only. */
const STATEMENT = /^[ \t]*(?:import|export)\s+[\w$*{},\s]*?\bfrom\s*['"]([^'"]+)['"]/gm;
const BARE = /^[ \t]*import\s*['"]([^'"]+)['"]/gm;
const DYNAMIC = /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g;

/** The imports of one file, in text order. */
export function importsOf(file: string, text: string): Edge[] {
  const code = stripComments(text);
  const found: { spec: string; at: number }[] = [];
  for (const re of [STATEMENT, BARE, DYNAMIC])
    for (const m of code.matchAll(re)) found.push({ spec: m[1]!, at: m.index + m[0].length });
  found.sort((a, b) => a.at - b.at);
  return found.map(({ spec, at }) => {
    const line = code.slice(0, at).split('\n').length;
    if (!spec.startsWith('.')) {
      const pkg = spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!;
      return { from: file, to: pkg, local: false, line };
    }
    const to = posix.normalize(posix.join(posix.dirname(file), spec)).replace(/\.js$/, '.ts');
    return { from: file, to, local: true, line };
  });
}

const matches = (entries: readonly string[], path: string): boolean =>
  entries.some((e) => e === '*' || (e.endsWith('/') ? path.startsWith(e) : path === e));

export function layerOf(file: string): Layer | undefined {
  return LAYERS.find((l) => matches(l.files, file));
}

/** Every rule broken by `edges`, one line each, naming the file to edit. */
export function layerViolations(files: readonly string[], edges: readonly Edge[]): string[] {
  const out: string[] = [];
  for (const f of files)
    if (layerOf(f) === undefined)
      out.push(`${f} belongs to no layer: add its folder to LAYERS in ${HERE} with what it may import`);
  for (const e of edges) {
    const layer = layerOf(e.from);
    if (layer === undefined) continue;
    if (e.local) {
      if (!files.includes(e.to)) {
        out.push(`${e.from}:${e.line} imports ${e.to}, which is not a source file: edit ${e.from}`);
        continue;
      }
      if (!matches(layer.may, e.to)) {
        const target = layerOf(e.to)?.name ?? 'no layer';
        out.push(
          `${e.from}:${e.line} imports ${e.to} (${target}), but the ${layer.name} may import only ${layer.may.length === 0 ? 'nothing of ours' : layer.may.join(', ')}: edit ${e.from} (move what it needs down a layer), or change the rule in LAYERS in ${HERE}`,
        );
      }
    } else {
      const pkg = e.to.replace(/^node:/, '');
      const allowed = layer.packages.some((p) => p === '*' || p === e.to || p.replace(/^node:/, '') === pkg);
      if (!allowed)
        out.push(
          `${e.from}:${e.line} imports the package ${e.to}, but the ${layer.name} may import ${layer.packages.length === 0 ? 'no package' : layer.packages.join(', ')}: edit ${e.from} (I/O belongs in src/sources, src/sim or src/cli), or change the rule in LAYERS in ${HERE}`,
        );
    }
  }
  return out;
}

/** Every import cycle (strongly connected component of more than one file, or a file importing itself). */
export function importCycles(edges: readonly Edge[]): string[][] {
  const next = new Map<string, string[]>();
  for (const e of edges) if (e.local) next.set(e.from, [...(next.get(e.from) ?? []), e.to]);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  let counter = 0;
  const visit = (v: string): void => {
    index.set(v, counter);
    low.set(v, counter++);
    stack.push(v);
    onStack.add(v);
    for (const w of next.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const scc: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        scc.push(w);
      } while (w !== v);
      if (scc.length > 1 || (next.get(v) ?? []).includes(v)) out.push(scc.sort());
    }
  };
  for (const v of [...next.keys()].sort()) if (!index.has(v)) visit(v);
  return out;
}

/** One concrete circle through `scc`, starting at its first file: `a → b → a`. */
function circleIn(scc: readonly string[], edges: readonly Edge[]): string[] {
  const inScc = new Set(scc);
  const start = scc[0]!;
  const prev = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const v = queue.shift()!;
    for (const e of edges) {
      if (e.from !== v || !e.local || !inScc.has(e.to)) continue;
      if (e.to === start) {
        const path = [start];
        for (let u = v; u !== start; u = prev.get(u)!) path.splice(1, 0, u);
        return [...path, start];
      }
      if (!prev.has(e.to)) {
        prev.set(e.to, v);
        queue.push(e.to);
      }
    }
  }
  return [...scc, start];
}

function graph(): { files: string[]; edges: Edge[] } {
  const files = sourceFiles();
  const edges = files.flatMap((f) => importsOf(f, readFileSync(join(repoRoot, f), 'utf8')));
  return { files, edges };
}

test('every import follows the layer rule (the message names the file to edit)', () => {
  const { files, edges } = graph();
  assert.ok(files.length > 100 && edges.length > 300, `read ${files.length} files and ${edges.length} imports`);
  const problems = layerViolations(files, edges);
  assert.deepEqual(problems, [], `\n${problems.join('\n')}\n`);
});

test('no import cycles, type-only imports included', () => {
  const { edges } = graph();
  const cycles = importCycles(edges).map((scc) => {
    const circle = circleIn(scc, edges);
    return `import cycle ${circle.join(' → ')}: edit one of ${scc.join(', ')} so that it no longer imports the other (move what both need into a module that imports neither, as src/engine/severity.ts does for src/engine/check.ts and src/engine/options.ts)`;
  });
  assert.deepEqual(cycles, [], `\n${cycles.join('\n')}\n`);
});

test('the rule catches a wrong arrow, a forbidden package, a file outside every layer and a cycle', () => {
  const files = ['src/vitess/a.ts', 'src/model/b.ts', 'checks/c.ts', 'src/report/d.ts', 'src/newfolder/e.ts'];
  const edges: Edge[] = [
    ...importsOf('src/vitess/a.ts', "// import { x } from '../model/b.js';\nimport type { B } from '../model/b.js';\n"),
    ...importsOf('src/model/b.ts', "import { A } from '../vitess/a.js';\nconst m = await import('mysql2');\n"),
    ...importsOf('checks/c.ts', "export {\n  b,\n} from '../src/model/b.js';\nimport '../src/report/d.js';\n"),
    ...importsOf('src/report/d.ts', "import { readFileSync } from 'node:fs';\n"),
  ];
  assert.deepEqual(
    edges.map((e) => `${e.from}:${e.line} ${e.to}`),
    [
      'src/vitess/a.ts:2 src/model/b.ts',
      'src/model/b.ts:1 src/vitess/a.ts',
      'src/model/b.ts:2 mysql2',
      'checks/c.ts:3 src/model/b.ts',
      'checks/c.ts:4 src/report/d.ts',
      'src/report/d.ts:1 node:fs',
    ],
  );
  const problems = layerViolations(files, edges);
  assert.equal(problems.length, 5, problems.join('\n'));
  assert.match(problems[0]!, /^src\/newfolder\/e\.ts belongs to no layer: add its folder to LAYERS/);
  assert.match(problems[1]!, /^src\/vitess\/a\.ts:2 imports src\/model\/b\.ts \(model\), .*: edit src\/vitess\/a\.ts/);
  assert.match(problems[2]!, /^src\/model\/b\.ts:2 imports the package mysql2, .*: edit src\/model\/b\.ts/);
  assert.match(problems[3]!, /^checks\/c\.ts:4 imports src\/report\/d\.ts \(reporters\), .*: edit checks\/c\.ts/);
  assert.match(problems[4]!, /^src\/report\/d\.ts:1 imports the package node:fs, .*: edit src\/report\/d\.ts/);
  assert.deepEqual(importCycles(edges), [['src/model/b.ts', 'src/vitess/a.ts']]);
  assert.deepEqual(circleIn(['src/model/b.ts', 'src/vitess/a.ts'], edges), [
    'src/model/b.ts',
    'src/vitess/a.ts',
    'src/model/b.ts',
  ]);
});

test('the layer table names only paths that exist', () => {
  for (const l of LAYERS)
    for (const p of [...l.files, ...l.may].filter((x) => x !== '*'))
      assert.ok(existsSync(join(repoRoot, p)), `${p} in LAYERS (${l.name}) does not exist: edit ${HERE}`);
  assert.ok(dirname(HERE) === 'test');
});
