/**
 * Lints the Dockerfile without building it (there is no Docker engine on our machines): a small parser
 * turns it into instructions grouped by stage, and the tests assert the properties a production image needs:
 * multi-stage, a non-root runtime user, production-only dependencies, pinned base images, no secrets, an
 * exec-form entrypoint to the compiled CLI, and a .dockerignore that keeps node_modules, .git, dist and
 * .env out of the build context.
 */
import { strict as assert } from 'node:assert';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

interface Instruction {
  /** Upper-case keyword: FROM, RUN, COPY, ... */
  keyword: string;
  /** Everything after the keyword, continuation lines joined with a space. */
  args: string;
  /** 1-based line of the keyword. */
  line: number;
}

interface Stage {
  /** The FROM argument, with ${ARG} references resolved from global ARG defaults. */
  image: string;
  /** `AS name`, lower-cased; '' when unnamed. */
  name: string;
  instructions: Instruction[];
}

interface Dockerfile {
  /** ARG instructions before the first FROM, with their defaults. */
  globalArgs: Map<string, string>;
  stages: Stage[];
}

/**
 * Parses Dockerfile text: comments and blank lines dropped (parser directives such as `# syntax=` are
 * comments here), backslash continuations joined (comment lines inside a continuation are skipped, as
 * Docker does), instructions grouped under the FROM that starts each stage.
 */
export function parseDockerfile(text: string): Dockerfile {
  const instructions: Instruction[] = [];
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const first = lines[i]!.trim();
    if (first === '' || first.startsWith('#')) continue;
    const start = i;
    let body = first;
    while (body.endsWith('\\') && i + 1 < lines.length) {
      body = body.slice(0, -1).trimEnd();
      i++;
      const next = lines[i]!.trim();
      if (next.startsWith('#')) {
        body += ' \\'; // a comment inside a continuation does not end it
        continue;
      }
      body += ` ${next}`;
    }
    const m = /^(\S+)\s*(.*)$/.exec(body);
    assert.ok(m, `cannot parse line ${start + 1}: ${body}`);
    instructions.push({ keyword: m[1]!.toUpperCase(), args: m[2]!.trim(), line: start + 1 });
  }

  const globalArgs = new Map<string, string>();
  const stages: Stage[] = [];
  for (const ins of instructions) {
    if (ins.keyword === 'FROM') {
      const m = /^(?:--platform=\S+\s+)?(\S+)(?:\s+AS\s+(\S+))?$/i.exec(ins.args);
      assert.ok(m, `line ${ins.line}: cannot parse FROM ${ins.args}`);
      const image = m[1]!.replace(/\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?/g, (_, name: string) => globalArgs.get(name) ?? '');
      stages.push({ image, name: (m[2] ?? '').toLowerCase(), instructions: [] });
    } else if (stages.length === 0) {
      assert.equal(ins.keyword, 'ARG', `line ${ins.line}: only ARG may precede the first FROM`);
      const [name, value] = splitAssignment(ins.args);
      globalArgs.set(name, value);
    } else {
      stages[stages.length - 1]!.instructions.push(ins);
    }
  }
  return { globalArgs, stages };
}

/** `NAME=value`, `NAME="value"` or `NAME value` (legacy ENV form) → [name, value]. */
function splitAssignment(args: string): [string, string] {
  const m = /^([A-Za-z_][A-Za-z0-9_]*)(?:=|\s+)?(.*)$/.exec(args);
  assert.ok(m, `cannot parse assignment ${args}`);
  return [m[1]!, m[2]!.replace(/^"(.*)"$/, '$1')];
}

/** Every NAME=value pair of an ENV or ARG instruction (ENV may set several). */
function assignments(ins: Instruction): [string, string][] {
  if (ins.keyword === 'ARG' || !ins.args.includes('=')) return [splitAssignment(ins.args)];
  return [...ins.args.matchAll(/([A-Za-z_][A-Za-z0-9_]*)=("(?:[^"\\]|\\.)*"|\S*)/g)].map((m) => [
    m[1]!,
    m[2]!.replace(/^"(.*)"$/, '$1'),
  ]);
}

const SECRET_NAME = /pass(word)?|secret|token|api[_-]?key|private[_-]?key|credential|auth/i;
const SECRET_VALUE =
  /-----BEGIN|ghp_[A-Za-z0-9]{20,}|AKIA[0-9A-Z]{16}|xox[bp]-|npm_[A-Za-z0-9]{20,}|:\/\/[^/\s:]+:[^@\s]+@/;

const dockerfileText = readFileSync(join(repoRoot, 'Dockerfile'), 'utf8');
const dockerfile = parseDockerfile(dockerfileText);
const finalStage = dockerfile.stages[dockerfile.stages.length - 1]!;
const runs = (stage: Stage) => stage.instructions.filter((i) => i.keyword === 'RUN').map((i) => i.args);

describe('the Dockerfile parser', () => {
  it('joins continuations, skips comments and groups instructions by stage', () => {
    const df = parseDockerfile(
      [
        '# syntax=docker/dockerfile:1',
        'ARG BASE=node:20.1.0-slim',
        // biome-ignore lint/suspicious/noTemplateCurlyInString: a Dockerfile line, not a template
        'FROM ${BASE} AS build',
        'RUN a \\',
        '  # a comment inside',
        '  && b',
        'env A=1 B="two words"',
        '',
        'FROM --platform=linux/amd64 $BASE',
        'USER 1000:1000',
      ].join('\n'),
    );
    assert.deepEqual(df.globalArgs, new Map([['BASE', 'node:20.1.0-slim']]));
    assert.deepEqual(
      df.stages.map((s) => [s.image, s.name]),
      [
        ['node:20.1.0-slim', 'build'],
        ['node:20.1.0-slim', ''],
      ],
    );
    assert.deepEqual(
      df.stages[0]!.instructions.map((i) => [i.keyword, i.args, i.line]),
      [
        ['RUN', 'a && b', 4],
        ['ENV', 'A=1 B="two words"', 7],
      ],
    );
    assert.deepEqual(assignments(df.stages[0]!.instructions[1]!), [
      ['A', '1'],
      ['B', 'two words'],
    ]);
    assert.deepEqual(
      df.stages[1]!.instructions.map((i) => i.keyword),
      ['USER'],
    );
  });
});

describe('Dockerfile', () => {
  it('is multi-stage: a build stage and a runtime stage that copies from it', () => {
    assert.ok(dockerfile.stages.length >= 2, 'expected at least two stages');
    const build = dockerfile.stages.find((s) => s.name === 'build');
    assert.ok(build, 'expected a stage named build');
    assert.ok(
      runs(build).some((r) => /^npm ci\b/.test(r) && !r.includes('--omit=dev')),
      'the build stage installs all dependencies (npm ci)',
    );
    assert.ok(
      runs(build).some((r) => /\bnpm run build\b/.test(r)),
      'the build stage runs npm run build',
    );
    const copies = finalStage.instructions.filter((i) => i.keyword === 'COPY').map((i) => i.args);
    assert.ok(copies.includes('--from=build /app/dist ./dist'), 'the runtime stage copies dist/ from the build stage');
    assert.ok(copies.includes('protos ./protos'), 'the runtime stage copies protos/ (loaded at run time)');
  });

  it('pins every base image to a version tag', () => {
    for (const stage of dockerfile.stages) {
      const [repo, tag = ''] = stage.image.split('@')[0]!.split(':');
      assert.ok(repo, `a FROM has no image (${stage.image})`);
      assert.match(tag, /^\d+\.\d+\.\d+/, `FROM ${stage.image} must carry a full version tag`);
    }
  });

  it('installs only production dependencies in the runtime stage', () => {
    const ci = runs(finalStage).filter((r) => /\bnpm ci\b/.test(r));
    assert.equal(ci.length, 1, 'one npm ci in the runtime stage');
    assert.match(ci[0]!, /\bnpm ci --omit=dev\b/);
    assert.ok(!runs(finalStage).some((r) => /\bnpm (install|i)\b/.test(r)), 'no npm install in the runtime stage');
  });

  it('runs as a non-root user in the final stage', () => {
    const users = finalStage.instructions.filter((i) => i.keyword === 'USER');
    assert.ok(users.length > 0, 'the final stage sets USER');
    const last = users[users.length - 1]!;
    const user = last.args.split(':')[0]!;
    assert.ok(!['root', '0', ''].includes(user), `the final USER is ${last.args}`);
    // Nothing after USER may need root again.
    const after = finalStage.instructions.filter((i) => i.line > last.line).map((i) => i.keyword);
    assert.ok(!after.includes('USER'), 'USER is not switched back');
  });

  it('starts the compiled CLI with an exec-form entrypoint', () => {
    const entry = finalStage.instructions.filter((i) => i.keyword === 'ENTRYPOINT');
    assert.equal(entry.length, 1);
    assert.deepEqual(JSON.parse(entry[0]!.args), ['node', '/app/dist/src/cli.js']);
    assert.equal(JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')).bin.vtpreflight, 'dist/src/cli.js');
  });

  it('bakes in no secrets', () => {
    for (const stage of dockerfile.stages) {
      for (const ins of stage.instructions.filter((i) => i.keyword === 'ENV' || i.keyword === 'ARG')) {
        for (const [name, value] of assignments(ins)) {
          assert.ok(!SECRET_NAME.test(name), `line ${ins.line}: ${ins.keyword} ${name} looks like a secret`);
          assert.ok(!SECRET_VALUE.test(value), `line ${ins.line}: the value of ${name} looks like a secret`);
        }
      }
      for (const ins of stage.instructions) {
        assert.ok(!SECRET_VALUE.test(ins.args), `line ${ins.line}: ${ins.keyword} contains what looks like a secret`);
        if (ins.keyword === 'COPY' || ins.keyword === 'ADD') {
          assert.ok(
            !/(^|\s|\/)\.env(\s|$)|\.npmrc|id_rsa|\.pem\b/.test(ins.args),
            `line ${ins.line}: copies a credentials file`,
          );
        }
      }
    }
    for (const [name] of dockerfile.globalArgs) assert.ok(!SECRET_NAME.test(name), `ARG ${name} looks like a secret`);
  });

  it('copies only files that exist', () => {
    for (const stage of dockerfile.stages) {
      for (const ins of stage.instructions.filter((i) => i.keyword === 'COPY' && !i.args.startsWith('--from='))) {
        const parts = ins.args.split(/\s+/).filter((p) => !p.startsWith('--'));
        for (const source of parts.slice(0, -1)) {
          assert.ok(existsSync(join(repoRoot, source)), `line ${ins.line}: COPY ${source} does not exist`);
        }
      }
    }
  });
});

describe('.dockerignore', () => {
  const patterns = readFileSync(join(repoRoot, '.dockerignore'), 'utf8')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#'));

  it('keeps node_modules, .git, dist and .env out of the build context', () => {
    for (const p of ['node_modules', '.git', 'dist', '.env'])
      assert.ok(patterns.includes(p), `.dockerignore must list ${p}`);
  });

  it('does not exclude what the Dockerfile copies', () => {
    for (const needed of ['package.json', 'package-lock.json', 'tsconfig.json', 'src', 'checks', 'protos']) {
      assert.ok(!patterns.some((p) => p === needed || p === `${needed}/`), `.dockerignore excludes ${needed}`);
    }
  });
});
