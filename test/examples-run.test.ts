/**
 * The examples under `examples/`, run as written: each example's shell steps execute, in order, with bash, in an
 * empty job directory, against `vtpreflight demo --serve` (a simulated cluster on loopback); the CI's secrets and
 * inputs are the demo's address and workflow. Only the install step is replaced: instead of fetching and building a
 * pinned checkout, the job directory's `.vtpreflight` links to the checkout under test (already built). The exit code
 * is the gate; the JUnit and HTML files the CI keeps are read back.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { DOMParser } from '@xmldom/xmldom';
import { parse } from 'yaml';
import { runDemo } from '../src/cli/commands/demo.js';
import { tempDir } from './cli/helpers.js';
import { repoRoot } from './helpers/paths.js';

const read = (rel: string) => readFileSync(join(repoRoot, 'examples', rel), 'utf8');

/** A `demo --serve` cluster for the length of a describe block. */
interface Served {
  readonly address: string;
  stop(): Promise<void>;
}

async function serveDemo(scenario: string): Promise<Served> {
  let release = () => {};
  const until = new Promise<void>((r) => (release = r));
  let out = '';
  let addressed = (_: string) => {};
  const address = new Promise<string>((r) => (addressed = r));
  const running = runDemo({
    scenario,
    shards: 2,
    serve: { until: () => until },
    io: {
      stdout: (s) => {
        out += s;
        if (out.includes('\n')) addressed(out.trim());
      },
      stderr: () => {},
      env: {},
      stdoutIsTTY: false,
      stderrIsTTY: false,
    },
  });
  return {
    address: await address,
    async stop() {
      release();
      assert.equal(await running, 0);
    },
  };
}

/** Runs one shell step with bash as the CI does (`-e`, pipefail as on GitHub): its exit code and output. */
function bash(
  script: string,
  cwd: string,
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', script], {
      cwd,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: cwd, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Replaces `${{ secrets.X }}` and `${{ inputs.x }}` as GitHub Actions does before the shell sees them. */
function githubExpand(text: string, ctx: Record<string, Record<string, string>>): string {
  return text.replace(/\$\{\{\s*(\w+)\.(\w+)\s*\}\}/g, (whole, scope: string, name: string) => {
    const v = ctx[scope]?.[name];
    assert.ok(v !== undefined, `the example uses ${whole}, which the test does not provide`);
    return v;
  });
}

/** The JUnit file's test cases and the check ids (classnames) of the failing ones, read with an XML parser. */
function junitOf(path: string): { tests: number; failures: number; failing: string[] } {
  const doc = new DOMParser().parseFromString(readFileSync(path, 'utf8'), 'text/xml');
  const cases = Array.from(doc.getElementsByTagName('testcase'));
  const failing = cases
    .filter((c) => c.getElementsByTagName('failure').length > 0 || c.getElementsByTagName('error').length > 0)
    .map((c) => c.getAttribute('classname') ?? '');
  return { tests: cases.length, failures: failing.length, failing };
}

/** The install step must build a pinned checkout of this repository, and nothing from a registry. */
function assertPinnedInstall(script: string): void {
  assert.doesNotMatch(script, /\bnpx\b|npm (install|i) (-g )?vtpreflight\b/);
  assert.match(script, /\$VTPREFLIGHT_REF\b/);
  assert.match(script, /rev-parse HEAD\)" = "\$VTPREFLIGHT_REF"/, 'the checkout is verified against the pinned commit');
  assert.match(script, /npm ci\b/);
  assert.match(script, /npm run build\b/);
}

const SECRETS = {
  VTPREFLIGHT_MYSQL_USER: 'vtpreflight-demo',
  VTPREFLIGHT_MYSQL_PASSWORD: 'not-a-real-password',
};

describe('the GitHub Actions example, run against demo --serve', () => {
  let served: Served;
  before(async () => {
    served = await serveDemo('movetables');
  });
  after(async () => {
    await served.stop();
  });

  test('a healthy MoveTables: exit 0, a JUnit report without failures, the HTML report', async () => {
    const wf = parse(read('github-actions/vtpreflight.yml')) as {
      env?: Record<string, string>;
      jobs: Record<string, { steps: { name?: string; run?: string; env?: Record<string, string> }[] }>;
    };
    const steps = Object.values(wf.jobs).flatMap((j) => j.steps);
    const install = steps.filter((s) => s.name === 'install vtpreflight');
    assert.equal(install.length, 1, 'one step installs vtpreflight');
    assertPinnedInstall(install[0]!.run!);
    assert.match(wf.env?.VTPREFLIGHT_REF ?? '', /^[0-9a-f]{40}$/, 'the ref is pinned to a full commit id');

    const job = tempDir('vtpreflight-gha-');
    try {
      const ctx = {
        secrets: { ...SECRETS, VTCTLD_ADDRESS: served.address },
        inputs: { keyspace: 'customer', workflow: 'commerce2customer' },
      };
      let ran = 0;
      for (const step of steps) {
        if (step.run === undefined) continue;
        if (step === install[0]) {
          symlinkSync(repoRoot, join(job.dir, '.vtpreflight'));
          continue;
        }
        const env = Object.fromEntries(
          Object.entries({ ...wf.env, ...step.env }).map(([k, v]) => [k, githubExpand(String(v), ctx)]),
        );
        const r = await bash(githubExpand(step.run, ctx), job.dir, env);
        assert.equal(r.code, 0, `step "${step.name}" exited ${r.code}\n${r.stdout}${r.stderr}`);
        assert.match(r.stdout, /^ready +customer\.commerce2customer \(MoveTables\)/);
        ran++;
      }
      assert.equal(ran, 1, 'the check step ran');
      const junit = junitOf(job.path('vtpreflight.xml'));
      assert.ok(junit.tests > 0);
      assert.deepEqual(junit.failing, []);
      const html = readFileSync(job.path('vtpreflight.html'), 'utf8');
      assert.match(html, /^<!doctype html>/i);
      assert.match(html, /commerce2customer/);
    } finally {
      job.cleanup();
    }
  });
});

describe('the GitLab CI example, run against demo --serve', () => {
  let served: Served;
  before(async () => {
    served = await serveDemo('stream-error');
  });
  after(async () => {
    await served.stop();
  });

  test('a Reshard with an errored stream: the job fails (exit 1), JUnit names stream-error, HTML kept', async () => {
    const ci = parse(read('gitlab-ci/.gitlab-ci.yml')) as Record<
      string,
      { variables?: Record<string, string>; before_script?: string[]; script?: string[] }
    >;
    const job = ci.vtpreflight!;
    assertPinnedInstall(job.before_script!.join('\n'));
    assert.match(job.variables?.VTPREFLIGHT_REF ?? '', /^[0-9a-f]{40}$/, 'the ref is pinned to a full commit id');
    const dir = tempDir('vtpreflight-gitlab-');
    try {
      symlinkSync(repoRoot, join(dir.dir, '.vtpreflight'));
      // CI/CD variables (masked) and the pipeline's choice of workflow beat the job's defaults.
      const env = {
        ...job.variables,
        ...SECRETS,
        VTCTLD_ADDRESS: served.address,
        KEYSPACE: 'customer',
        WORKFLOW: 'cust2cust',
      };
      let last = { code: 0 as number | null, stdout: '', stderr: '' };
      for (const line of job.script!) {
        last = await bash(line, dir.dir, env);
        if (last.code !== 0) break;
      }
      assert.equal(last.code, 1, last.stdout + last.stderr);
      assert.match(last.stdout, /^blocked +customer\.cust2cust \(Reshard\)/);
      const junit = junitOf(dir.path('vtpreflight.xml'));
      assert.ok(
        junit.failing.some((n) => n.includes('stream-error')),
        junit.failing.join(', '),
      );
      assert.match(readFileSync(dir.path('vtpreflight.html'), 'utf8'), /^<!doctype html>/i);
    } finally {
      dir.cleanup();
    }
  });
});

describe('the Kubernetes Job example', () => {
  const text = read('kubernetes/vtpreflight-job.yaml');
  const manifest = parse(text) as {
    spec: {
      template: {
        spec: {
          securityContext?: { runAsUser?: unknown; runAsNonRoot?: boolean };
          containers: {
            image: string;
            args: string[];
            env: { name: string; valueFrom?: { secretKeyRef: { name: string; key: string } } }[];
            securityContext?: { runAsUser?: unknown; runAsGroup?: unknown; runAsNonRoot?: boolean };
          }[];
        };
      };
    };
  };
  const container = manifest.spec.template.spec.containers[0]!;

  test('runs as a numeric non-root user, the same the Dockerfile sets', () => {
    const sc = { ...manifest.spec.template.spec.securityContext, ...container.securityContext };
    assert.equal(sc.runAsNonRoot, true);
    // The kubelet verifies runAsNonRoot only against a number: the Job's runAsUser or the image's numeric USER.
    assert.ok(Number.isInteger(sc.runAsUser) && (sc.runAsUser as number) > 0, `runAsUser ${String(sc.runAsUser)}`);
    const dockerfile = readFileSync(join(repoRoot, 'Dockerfile'), 'utf8');
    const users = [...dockerfile.matchAll(/^USER\s+(\S+)\s*$/gm)].map((m) => m[1]!);
    const final = users.at(-1) ?? '';
    assert.match(final, /^[1-9]\d*(:\d+)?$/, `the Dockerfile's final USER ${final} is numeric and not root`);
    assert.equal(Number(final.split(':')[0]), sc.runAsUser);
  });

  test('its image is one the reader builds and pushes: <registry>/vtpreflight:<tag>, the step documented', () => {
    assert.equal(container.image, '<registry>/vtpreflight:<tag>');
    assert.match(text, /docker build -t <registry>\/vtpreflight:<tag> \. && docker push <registry>\/vtpreflight:<tag>/);
  });

  test('its container arguments, run against demo --serve with the Secret as environment, exit 0', async () => {
    const served = await serveDemo('movetables');
    const dir = tempDir('vtpreflight-job-');
    try {
      const args = container.args.map((a, i) =>
        container.args[i - 1] === '--vtctld'
          ? served.address
          : container.args[i - 1] === '--workflow'
            ? 'commerce2customer'
            : a,
      );
      assert.ok(args.includes(served.address), 'the Job names vtctld with --vtctld');
      const secret: Record<string, string> = { user: 'vtpreflight-demo', password: 'not-a-real-password' };
      const env = Object.fromEntries(
        container.env.map((e) => [e.name, secret[e.valueFrom!.secretKeyRef.key]!] as const),
      );
      // The image's entrypoint is `node /app/dist/src/cli.js`: here, the checkout under test.
      const quoted = args.map((a) => `'${a.replaceAll("'", `'\\''`)}'`).join(' ');
      const r = await bash(`node '${join(repoRoot, 'dist/src/cli.js')}' ${quoted}`, dir.dir, env);
      assert.equal(r.code, 0, r.stdout + r.stderr);
      assert.match(r.stdout, /^ready +customer\.commerce2customer \(MoveTables\)/);
      assert.ok(!existsSync(dir.path('vtpreflight.xml')), 'the Job writes no file (read-only root filesystem)');
    } finally {
      dir.cleanup();
      await served.stop();
    }
  });
});
