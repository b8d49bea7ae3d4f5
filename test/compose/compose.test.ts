/**
 * Validates docker-compose.yml without a Docker engine: the file is resolved by the real
 * Compose implementation (`docker compose config`, or Debian's `docker-compose config`) with the values
 * of .env.example, and the resolved model is checked: pinned images, one Vitess tag variable, a health
 * check or a completion condition for every service, host ports for vtctld and vtgate only, no secret on
 * a command line, and a vtpreflight command that our own commander program accepts.
 *
 * Compose is required: CI installs it (`apt-get install -y docker-compose`). Without it these tests
 * fail with that instruction rather than skip, so a green run always means the file was validated.
 */
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const composeFile = join(repoRoot, 'docker-compose.yml');
const envExample = join(repoRoot, '.env.example');

/** Services that run once and exit: they have no health to poll, their dependents wait for completion. */
const ONE_SHOT = ['init-cluster', 'init-topo', 'vtpreflight'];
/** The only services allowed to publish a host port, and the container port each publishes. */
const PUBLISHED = new Map([
  ['vtctld', 15999],
  ['vtgate', 15306],
]);
const TABLETS = ['vttablet100', 'vttablet101', 'vttablet300', 'vttablet301', 'vttablet400', 'vttablet401'];
const MYSQLS = ['mysql100', 'mysql101', 'mysql300', 'mysql301', 'mysql400', 'mysql401'];

interface Port {
  hostIp: string;
  published: string;
  target: number;
}

interface Service {
  image?: string;
  build?: unknown;
  pull_policy?: string;
  restart?: string;
  command?: string[] | string;
  entrypoint?: string[] | string;
  environment?: Record<string, string | null>;
  healthcheck?: { test?: string[] | string; disable?: boolean };
  depends_on?: Record<string, { condition?: string }> | string[];
  ports?: unknown[];
  volumes?: unknown[];
}

interface ComposeModel {
  services: Record<string, Service>;
}

interface ComposeTool {
  /** How to name it in messages. */
  label: string;
  /** Runs `config` on docker-compose.yml with ENV_FILE; returns the parsed model or the error text. */
  config(envFile: string): { ok: true; model: ComposeModel } | { ok: false; stderr: string };
}

const INSTALL_HINT =
  'neither "docker compose" nor "docker-compose" is installed; install Debian\'s package: apt-get install -y docker-compose';

/** A minimal environment, so variables of the machine running the test cannot leak into the resolution. */
function cleanEnv(): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? tmpdir(), LANG: 'C.UTF-8' };
}

function run(cmd: string, args: string[], input?: string) {
  return spawnSync(cmd, args, { cwd: repoRoot, env: cleanEnv(), encoding: 'utf8', input, timeout: 60_000 });
}

/** Finds a Compose implementation: the v2 plugin (JSON output) or Debian's docker-compose (YAML output). */
function findComposeTool(): ComposeTool | undefined {
  if (run('docker', ['compose', 'version']).status === 0) {
    return {
      label: 'docker compose',
      config(envFile) {
        const r = run('docker', ['compose', '--env-file', envFile, '-f', composeFile, 'config', '--format', 'json']);
        if (r.status !== 0) return { ok: false, stderr: `${r.stderr}${r.error?.message ?? ''}` };
        return { ok: true, model: JSON.parse(r.stdout) as ComposeModel };
      },
    };
  }
  if (run('docker-compose', ['version']).status === 0) {
    return {
      label: 'docker-compose',
      config(envFile) {
        const r = run('docker-compose', ['--env-file', envFile, '-f', composeFile, 'config']);
        if (r.status !== 0) return { ok: false, stderr: `${r.stderr}${r.error?.message ?? ''}` };
        // Debian's docker-compose is Python and depends on PyYAML: use it to turn its YAML into JSON.
        const j = run(
          'python3',
          ['-c', 'import json, sys, yaml; json.dump(yaml.safe_load(sys.stdin), sys.stdout)'],
          r.stdout,
        );
        if (j.status !== 0)
          return { ok: false, stderr: `cannot convert docker-compose config output to JSON: ${j.stderr}` };
        return { ok: true, model: JSON.parse(j.stdout) as ComposeModel };
      },
    };
  }
  return undefined;
}

/** KEY=VALUE lines of an env file (comments and blank lines skipped). */
function readEnvFile(path: string): Map<string, string> {
  const vars = new Map<string, string>();
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    const m = /^([A-Z_][A-Z0-9_]*)=(.*)$/.exec(line.trim());
    if (m) vars.set(m[1]!, m[2]!);
  }
  return vars;
}

/** Long (v2 JSON) or short (v1 `host_ip:published:target/proto`) port syntax, normalized. */
function parsePort(p: unknown): Port {
  if (typeof p === 'string') {
    const m = /^(?:(\d+\.\d+\.\d+\.\d+):)?(?:(\d+):)?(\d+)(?:\/\w+)?$/.exec(p);
    assert.ok(m, `unrecognized port syntax ${p}`);
    return { hostIp: m[1] ?? '', published: m[2] ?? '', target: Number(m[3]) };
  }
  const o = p as { host_ip?: string; published?: string | number; target: number };
  return { hostIp: o.host_ip ?? '', published: String(o.published ?? ''), target: Number(o.target) };
}

function asList(v: string[] | string | undefined): string[] {
  if (v === undefined) return [];
  return Array.isArray(v) ? v : [v];
}

function dependsOn(s: Service): Record<string, string> {
  const d = s.depends_on ?? {};
  if (Array.isArray(d)) return Object.fromEntries(d.map((name) => [name, 'service_started']));
  return Object.fromEntries(Object.entries(d).map(([name, v]) => [name, v.condition ?? 'service_started']));
}

/** `repo:tag` / `registry:port/repo:tag@digest` → { repo, tag }. */
function splitImage(image: string): { repo: string; tag: string } {
  const noDigest = image.split('@')[0]!;
  const slash = noDigest.lastIndexOf('/');
  const colon = noDigest.lastIndexOf(':');
  if (colon > slash) return { repo: noDigest.slice(0, colon), tag: noDigest.slice(colon + 1) };
  return { repo: noDigest, tag: '' };
}

let tool: ComposeTool | undefined;
let model: ComposeModel;
let env: Map<string, string>;
let tmp: string;

function services(): [string, Service][] {
  return Object.entries(model.services);
}

function service(name: string): Service {
  const s = model.services[name];
  assert.ok(s, `service ${name} is missing from docker-compose.yml`);
  return s;
}

describe('docker-compose.yml', () => {
  before(() => {
    tmp = mkdtempSync(join(tmpdir(), 'vtpreflight-compose-'));
    env = readEnvFile(envExample);
    tool = findComposeTool();
    if (!tool) return;
    const r = tool.config(envExample);
    assert.ok(r.ok, `${tool.label} config failed with the .env.example values:\n${r.ok ? '' : r.stderr}`);
    model = r.model;
  });
  after(() => rmSync(tmp, { recursive: true, force: true }));

  it('is accepted by Compose with the values of .env.example', () => {
    assert.ok(tool, INSTALL_HINT);
    const names = Object.keys(model.services).sort();
    const expected = [
      'etcd',
      'init-cluster',
      'init-topo',
      'vtctld',
      'vtgate',
      'vtpreflight',
      ...MYSQLS,
      ...TABLETS,
    ].sort();
    assert.deepEqual(names, expected);
  });

  it('refuses to resolve without credentials, naming .env.example', () => {
    assert.ok(tool, INSTALL_HINT);
    const empty = join(tmp, 'empty.env');
    writeFileSync(empty, `VITESS_TAG=${env.get('VITESS_TAG')}\n`);
    const r = tool.config(empty);
    assert.equal(r.ok, false, 'config must fail when the passwords are not set');
    if (!r.ok) assert.match(r.stderr, /cp \.env\.example \.env/);
  });

  it('pins every image to an explicit tag (never latest)', () => {
    assert.ok(tool, INSTALL_HINT);
    for (const [name, s] of services()) {
      assert.ok(s.image, `${name} has no image`);
      const { repo, tag } = splitImage(s.image);
      assert.ok(tag !== '', `${name}: image ${s.image} has no tag`);
      assert.notEqual(tag.toLowerCase(), 'latest', `${name}: image ${s.image} uses latest`);
      assert.ok(repo !== '', `${name}: image ${s.image} has no repository`);
      if (s.build !== undefined) {
        // Built from this repository, never pulled under that name.
        assert.equal(s.pull_policy, 'build', `${name} builds its image and must say pull_policy: build`);
      }
    }
  });

  it('takes the Vitess version from the one variable VITESS_TAG', () => {
    assert.ok(tool, INSTALL_HINT);
    const tag = env.get('VITESS_TAG');
    assert.ok(tag && /^v\d+\.\d+\.\d+$/.test(tag), `.env.example must set VITESS_TAG=vX.Y.Z, got ${tag}`);
    // In the file: every vitess image reference is the variable, with .env.example's value as default.
    const raw = readFileSync(composeFile, 'utf8');
    const refs = [...raw.matchAll(/image:\s*(vitess\/\S+)/g)].map((m) => m[1]);
    assert.ok(refs.length > 0, 'no vitess image in docker-compose.yml');
    for (const ref of refs) assert.equal(ref, `vitess/lite:\${VITESS_TAG:-${tag}}`);
    // Resolved: every Vitess service runs that tag.
    const vitess = services().filter(([, s]) => s.image?.startsWith('vitess/'));
    const expectedVitess = ['init-cluster', 'init-topo', 'vtctld', 'vtgate', ...TABLETS].sort();
    assert.deepEqual(vitess.map(([n]) => n).sort(), expectedVitess);
    for (const [name, s] of vitess) assert.equal(s.image, `vitess/lite:${tag}`, name);
    // And changing the variable changes all of them.
    const other = join(tmp, 'other-tag.env');
    writeFileSync(other, readFileSync(envExample, 'utf8').replace(/^VITESS_TAG=.*$/m, 'VITESS_TAG=v99.0.0'));
    const r = tool.config(other);
    assert.ok(r.ok, r.ok ? '' : r.stderr);
    for (const name of expectedVitess) assert.equal(r.model.services[name]?.image, 'vitess/lite:v99.0.0', name);
  });

  it('gives every long-running service a health check; one-shots are waited for by completion', () => {
    assert.ok(tool, INSTALL_HINT);
    for (const [name, s] of services()) {
      if (ONE_SHOT.includes(name)) {
        // A container that exits has no health state to poll: its exit code is its health.
        assert.equal(s.healthcheck, undefined, `${name} is a one-shot and has no health check`);
        assert.equal(s.restart, 'no', `${name} is a one-shot and must not restart`);
        continue;
      }
      const test = asList(s.healthcheck?.test);
      assert.ok(
        test.length > 0 && test[0] !== 'NONE' && s.healthcheck?.disable !== true,
        `${name} has no health check`,
      );
    }
    // Every dependency waits for health (long-running) or successful completion (one-shot).
    for (const [name, s] of services()) {
      for (const [dep, condition] of Object.entries(dependsOn(s))) {
        assert.ok(model.services[dep], `${name} depends on unknown service ${dep}`);
        const want = ONE_SHOT.includes(dep) ? 'service_completed_successfully' : 'service_healthy';
        assert.equal(condition, want, `${name} → ${dep}`);
      }
    }
    // Nothing depends on vtpreflight: it is the last step.
    for (const [name, s] of services()) assert.ok(!('vtpreflight' in dependsOn(s)), `${name} depends on vtpreflight`);
  });

  it('runs vtpreflight only once the cluster is initialized and vtctld and vtgate are healthy', () => {
    assert.ok(tool, INSTALL_HINT);
    assert.deepEqual(dependsOn(service('vtpreflight')), {
      'init-cluster': 'service_completed_successfully',
      vtctld: 'service_healthy',
      vtgate: 'service_healthy',
    });
    const init = dependsOn(service('init-cluster'));
    for (const t of TABLETS) assert.equal(init[t], 'service_healthy', `init-cluster waits for ${t}`);
    for (const t of [...TABLETS, 'vtgate']) {
      assert.equal(dependsOn(service(t))['init-topo'], 'service_completed_successfully', `${t} starts after init-topo`);
    }
  });

  it('publishes host ports for vtctld (gRPC) and vtgate (MySQL) only, on 127.0.0.1', () => {
    assert.ok(tool, INSTALL_HINT);
    const publishing = services()
      .filter(([, s]) => (s.ports ?? []).length > 0)
      .map(([n]) => n)
      .sort();
    assert.deepEqual(publishing, [...PUBLISHED.keys()].sort());
    for (const [name, target] of PUBLISHED) {
      const ports = (service(name).ports ?? []).map(parsePort);
      assert.equal(ports.length, 1, `${name} publishes one port`);
      assert.equal(ports[0]!.target, target, `${name} publishes container port ${target}`);
      assert.equal(ports[0]!.hostIp, '127.0.0.1', `${name} binds to 127.0.0.1 only`);
    }
  });

  it('keeps secrets off command lines and out of health checks', () => {
    assert.ok(tool, INSTALL_HINT);
    const secrets = [...env].filter(([k]) => /PASSWORD|SECRET|TOKEN/.test(k)).map(([, v]) => v);
    assert.ok(secrets.length >= 4, 'expected the passwords in .env.example');
    for (const [name, s] of services()) {
      const visible = [...asList(s.command), ...asList(s.entrypoint), ...asList(s.healthcheck?.test)].join(' ');
      for (const secret of secrets)
        assert.ok(!visible.includes(secret), `${name} shows a password on its command line`);
    }
  });

  it('registers each tablet with a reachable mysqld of its own', () => {
    assert.ok(tool, INSTALL_HINT);
    const serverIds = new Set<string>();
    const shards = new Map<string, number>();
    for (const name of TABLETS) {
      const e = service(name).environment ?? {};
      const uid = name.replace('vttablet', '');
      assert.equal(e.TABLET_UID, uid, `${name} TABLET_UID`);
      // The tablet record's hostname must be a name other containers resolve: the service name.
      assert.equal(e.TABLET_HOSTNAME, name, `${name} TABLET_HOSTNAME`);
      // mysql_hostname of the tablet record = --db_host = the mysqld service vtpreflight connects to.
      assert.equal(e.DB_HOST, `mysql${uid}`, `${name} DB_HOST`);
      assert.equal(dependsOn(service(name))[`mysql${uid}`], 'service_healthy', `${name} waits for mysql${uid}`);
      const key = `${e.KEYSPACE}/${e.SHARD}`;
      shards.set(key, (shards.get(key) ?? 0) + 1);
    }
    assert.deepEqual(Object.fromEntries(shards), { 'commerce/0': 2, 'customer/-80': 2, 'customer/80-': 2 });
    for (const name of MYSQLS) {
      const e = service(name).environment ?? {};
      assert.equal(e.SERVER_ID, name.replace('mysql', ''), `${name} SERVER_ID`);
      assert.ok(!serverIds.has(String(e.SERVER_ID)), `${name} reuses server id ${e.SERVER_ID}`);
      serverIds.add(String(e.SERVER_ID));
      assert.equal(e.VTPREFLIGHT_MYSQL_USER, env.get('VTPREFLIGHT_MYSQL_USER'), `${name} creates the vtpreflight user`);
    }
  });

  it('mounts only files that exist in the repository', () => {
    assert.ok(tool, INSTALL_HINT);
    for (const [name, s] of services()) {
      for (const v of s.volumes ?? []) {
        const source =
          typeof v === 'string' ? v.split(':')[0]! : ((v as { source?: string; type?: string }).source ?? '');
        if (!source.startsWith('/')) continue; // a named volume
        assert.ok(existsSync(source), `${name} mounts ${source}, which does not exist`);
      }
      // Scripts the services run from the /compose mount.
      for (const arg of [...asList(s.command), ...asList(s.entrypoint)]) {
        if (arg.startsWith('/compose/')) {
          assert.ok(
            existsSync(join(repoRoot, 'compose', arg.slice('/compose/'.length))),
            `${name} runs ${arg}, which does not exist`,
          );
        }
      }
    }
  });

  it("runs a vtpreflight command that the CLI's own commander program accepts", async () => {
    assert.ok(tool, INSTALL_HINT);
    const s = service('vtpreflight');
    const argv = asList(s.command);
    assert.equal(argv[0], 'check', 'the vtpreflight service runs `check`');

    let cli: { buildProgram?: unknown };
    try {
      cli = (await import('../../src/cli.js')) as { buildProgram?: unknown };
    } catch (e) {
      assert.fail(`cannot import src/cli.ts to parse the vtpreflight command: ${(e as Error).message}`);
    }
    assert.equal(
      typeof cli.buildProgram,
      'function',
      'src/cli.ts must export buildProgram() (the commander program, not run) so the compose command can be parsed with it',
    );
    type Cmd = {
      name(): string;
      commands: Cmd[];
      action(fn: (...args: unknown[]) => void): Cmd;
      exitOverride(): Cmd;
      configureOutput(o: object): Cmd;
      parseAsync(argv: string[], o: { from: 'user' }): Promise<unknown>;
    };
    const errors: string[] = [];
    const io = {
      stdout: () => {},
      stderr: (t: string) => errors.push(t),
      env: {},
      stdoutIsTTY: false,
      stderrIsTTY: false,
    };
    const program = (cli.buildProgram as (io: unknown) => Cmd)(io);
    const all = (c: Cmd): Cmd[] => [c, ...c.commands.flatMap(all)];
    for (const c of all(program))
      c.exitOverride().configureOutput({ writeOut: () => {}, writeErr: (t: string) => errors.push(t) });
    const check = program.commands.find((c) => c.name() === 'check');
    assert.ok(check, 'the CLI has no `check` command');
    // Parse only: the real action would dial vtctld.
    const seen: { opts?: Record<string, unknown> } = {};
    check.action((opts: unknown) => {
      seen.opts = opts as Record<string, unknown>;
    });
    try {
      await program.parseAsync(argv, { from: 'user' });
    } catch (e) {
      assert.fail(
        `vtpreflight rejects the compose command ${JSON.stringify(argv)}: ${(e as Error).message} ${errors.join('')}`,
      );
    }
    const parsed = seen.opts;
    assert.ok(parsed, 'the check action was not reached');
    assert.equal(parsed.vtctld, 'vtctld:15999');
    assert.equal(parsed.mysqlUser, env.get('VTPREFLIGHT_MYSQL_USER'));
    assert.deepEqual(parsed.format, ['text']); // --format is repeatable
    assert.deepEqual(parsed.keyspace, ['customer']);
    assert.deepEqual(parsed.workflow, ['commerce2customer']);
    assert.equal(parsed.mysqlPassword, undefined, 'the password must come from VTPREFLIGHT_MYSQL_PASSWORD, not a flag');

    // The password reaches the CLI through the variable it reads (docs/usage.md).
    assert.equal(s.environment?.VTPREFLIGHT_MYSQL_PASSWORD, env.get('VTPREFLIGHT_MYSQL_PASSWORD'));
    // --vtctld names the vtctld service at the gRPC port vtctld listens on.
    const vtctldUp = readFileSync(join(repoRoot, 'compose', 'vitess', 'vtctld-up.sh'), 'utf8');
    assert.match(vtctldUp, /--grpc_port 15999\b/);
    assert.ok(model.services.vtctld);
  });
});

describe('compose/ cluster definition', () => {
  const schemaDir = join(repoRoot, 'compose', 'schema');
  const readJson = (f: string) => JSON.parse(readFileSync(join(schemaDir, f), 'utf8')) as Record<string, unknown>;
  const initCluster = readFileSync(join(repoRoot, 'compose', 'init', 'init-cluster.sh'), 'utf8');

  it('moves tables that exist in commerce and are sharded by customer_id in customer', () => {
    const m = /MoveTables .*create[\s\S]*?--tables (\S+)/.exec(initCluster);
    assert.ok(m, 'init-cluster.sh creates no MoveTables workflow');
    const tables = m[1]!.split(',');
    assert.deepEqual(tables, ['customer', 'corder']);
    assert.match(initCluster, /^workflow=commerce2customer$/m);
    const schema = readFileSync(join(schemaDir, 'commerce.sql'), 'utf8');
    const commerce = readJson('commerce-vschema.json') as { sharded: boolean; tables: Record<string, unknown> };
    const customer = readJson('customer-vschema.json') as {
      sharded: boolean;
      vindexes: Record<string, { type: string }>;
      tables: Record<string, { column_vindexes: { column: string; name: string }[] }>;
    };
    assert.equal(commerce.sharded, false);
    assert.equal(customer.sharded, true);
    for (const t of tables) {
      assert.match(schema, new RegExp(`CREATE TABLE IF NOT EXISTS ${t} \\(`), `${t} in commerce.sql`);
      assert.ok(t in commerce.tables, `${t} in the commerce vschema`);
      const cv = customer.tables[t]?.column_vindexes?.[0];
      assert.ok(cv, `${t} has a column vindex in the customer vschema`);
      assert.equal(cv.column, 'customer_id');
      assert.equal(customer.vindexes[cv.name]?.type, 'hash');
    }
  });

  it('grants the vtpreflight user SELECT only, on _vt and every keyspace database', () => {
    const init = readFileSync(join(repoRoot, 'compose', 'mysql', 'init-vitess-users.sh'), 'utf8');
    const grants = [...init.matchAll(/GRANT (.+?) ON (\S+) TO '\$\{pf_user\}'/g)].map((g) => [g[1], g[2]]);
    assert.deepEqual(grants, [
      ['SELECT', '\\`_vt\\`.*'],
      ['SELECT', '\\`vt_commerce\\`.*'],
      ['SELECT', '\\`vt_customer\\`.*'],
    ]);
    // Users are created outside the binary log, and the GTID history is reset: no errant GTIDs on replicas.
    assert.match(init, /SET SESSION sql_log_bin = 0;/);
    assert.match(init, /RESET MASTER;/);
  });
});

describe('docs/local-vitess.md "Try it on a local Vitess cluster"', () => {
  const doc = readFileSync(join(repoRoot, 'docs', 'local-vitess.md'), 'utf8');

  it('says plainly that the setup was validated but not run here', () => {
    assert.match(doc, /^# Try it on a local Vitess cluster$/m);
    assert.match(doc, /Validated, not run here/);
    assert.match(doc, /no Docker engine/);
  });

  it('covers start, every fault and clean-up, with the pinned Vitess tag', () => {
    assert.match(doc, /cp \.env\.example \.env/);
    assert.match(doc, /docker compose up/);
    assert.match(doc, /docker compose down -v/);
    for (const f of ['stop-stream', 'row-image', 'kill-primary'])
      assert.match(doc, new RegExp(`scripts/compose-fault\\.sh ${f}`));
    const tag = readEnvFile(envExample).get('VITESS_TAG');
    assert.ok(doc.includes(`\`${tag}\``), `docs/local-vitess.md must name the pinned tag ${tag}`);
  });
});
