/**
 * The CI and Kubernetes examples under `examples/`: each YAML parses, its vtpreflight command is
 * accepted by the CLI's own commander program (parsed, not run), the reports it writes are the ones the CI uploads,
 * and no secret is inline: credentials come from the CI's secrets or a Kubernetes Secret.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import type { Command } from 'commander';
import { parse } from 'yaml';
import { buildProgram } from '../src/cli.js';
import { repoRoot } from './helpers/paths.js';

const read = (rel: string) => readFileSync(join(repoRoot, 'examples', rel), 'utf8');

/** Splits a shell command line (single and double quotes, no expansion), `$VAR` and `${{ x }}` kept as words. */
function shellWords(line: string): string[] {
  const out: string[] = [];
  const re = /"([^"]*)"|'([^']*)'|(\$\{\{[^}]*\}\}|[^\s"']+)/g;
  for (let m = re.exec(line); m !== null; m = re.exec(line)) out.push(m[1] ?? m[2] ?? m[3]!);
  return out;
}

/** Parses `argv` with the CLI's program, the check action replaced: the options it would run with. */
async function parsedCheck(argv: string[]): Promise<Record<string, unknown>> {
  const errors: string[] = [];
  const program = buildProgram({
    stdout: () => {},
    stderr: (t) => errors.push(t),
    env: {},
    stdoutIsTTY: false,
    stderrIsTTY: false,
  });
  const check = program.commands.find((c: Command) => c.name() === 'check')!;
  let seen: Record<string, unknown> | undefined;
  check.action((opts: Record<string, unknown>) => {
    seen = opts;
  });
  try {
    await program.parseAsync(argv, { from: 'user' });
  } catch (e) {
    assert.fail(`vtpreflight rejects ${JSON.stringify(argv)}: ${(e as Error).message} ${errors.join('')}`);
  }
  assert.ok(seen, 'the check action was not reached');
  return seen;
}

// A password written out: `password: hunter2`, `password=hunter2`; a variable, a CI expression or `<password>` is fine.
const SECRETISH = /password\s*[:=]\s*["']?(?![<$]|\{\{)[^\s"'$]{3,}/i;

describe('examples', () => {
  test('GitHub Actions: the gate, JUnit as a test report, HTML as an artifact, credentials from secrets', async () => {
    const text = read('github-actions/vtpreflight.yml');
    const wf = parse(text) as {
      jobs: Record<
        string,
        {
          steps: {
            run?: string;
            uses?: string;
            with?: Record<string, string>;
            if?: string;
            env?: Record<string, string>;
          }[];
        }
      >;
    };
    const steps = Object.values(wf.jobs).flatMap((j) => j.steps);
    const run = steps.find((s) => s.run?.includes('cli.js check'))!;
    const argv = shellWords(run.run!).slice(shellWords(run.run!).indexOf('check'));
    const opts = await parsedCheck(argv);
    assert.deepEqual(opts.format, ['junit', 'html', 'text']);
    assert.deepEqual(opts.output, ['vtpreflight.xml', 'vtpreflight.html']);
    assert.equal(opts.mysqlPassword, undefined);
    // Credentials from secrets; the workflow's inputs through the environment, never spliced into the script.
    for (const [k, v] of Object.entries(run.env ?? {}))
      assert.match(v, k.startsWith('VTPREFLIGHT_') ? /^\$\{\{ secrets\.\w+ \}\}$/ : /^\$\{\{ inputs\.\w+ \}\}$/, k);
    assert.doesNotMatch(run.run!, /\$\{\{/);
    const junit = steps.find((s) => s.uses?.startsWith('mikepenz/action-junit-report'))!;
    assert.equal(junit.with?.report_paths, 'vtpreflight.xml');
    assert.equal(junit.if, 'always()');
    const artifact = steps.find((s) => s.uses?.startsWith('actions/upload-artifact'))!;
    assert.match(artifact.with?.path ?? '', /vtpreflight\.html/);
    assert.equal(artifact.if, 'always()');
    assert.doesNotMatch(text, SECRETISH);
  });

  test('GitLab CI: the job fails on the exit code, JUnit in reports, HTML kept always', async () => {
    const text = read('gitlab-ci/.gitlab-ci.yml');
    const ci = parse(text) as Record<
      string,
      { script?: string[]; artifacts?: { when: string; paths: string[]; reports: { junit: string } } }
    >;
    const job = ci.vtpreflight!;
    const line = job.script!.find((s) => s.includes('cli.js check'))!;
    const words = shellWords(line);
    const opts = await parsedCheck(words.slice(words.indexOf('check')));
    assert.deepEqual(opts.output, ['vtpreflight.xml', 'vtpreflight.html']);
    assert.equal(opts.vtctld, '$VTCTLD_ADDRESS');
    assert.equal(job.artifacts!.reports.junit, 'vtpreflight.xml');
    assert.ok(job.artifacts!.paths.includes('vtpreflight.html'));
    assert.equal(job.artifacts!.when, 'always');
    assert.doesNotMatch(text, SECRETISH);
  });

  test('Kubernetes Job for vitess-operator: vtctld service, credentials from a Secret, SELECT grants', async () => {
    const text = read('kubernetes/vtpreflight-job.yaml');
    const job = parse(text) as {
      kind: string;
      spec: {
        template: {
          spec: {
            restartPolicy: string;
            containers: {
              args: string[];
              env: { name: string; value?: string; valueFrom?: { secretKeyRef: object } }[];
            }[];
          };
        };
      };
    };
    assert.equal(job.kind, 'Job');
    const c = job.spec.template.spec.containers[0]!;
    const opts = await parsedCheck(c.args);
    assert.match(String(opts.vtctld), /^[a-z0-9-]+-vtctld-[0-9a-f]+:15999$/);
    for (const name of ['VTPREFLIGHT_MYSQL_USER', 'VTPREFLIGHT_MYSQL_PASSWORD']) {
      const e = c.env.find((v) => v.name === name)!;
      assert.ok(e.valueFrom?.secretKeyRef, `${name} comes from a Secret`);
      assert.equal(e.value, undefined);
    }
    // The grants documented for the read-only user give SELECT, and PROCESS to see open transactions.
    const grants = text.match(/GRANT [^;]+;/g) ?? [];
    assert.ok(grants.length > 0);
    // PROCESS only shows other sessions (open transactions): it grants no write.
    for (const g of grants) assert.match(g, /^GRANT (SELECT ON |PROCESS ON \*\.\* )/);
    assert.doesNotMatch(text, SECRETISH);
  });

  test('the README points at the examples', () => {
    const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');
    for (const p of [
      'examples/github-actions/vtpreflight.yml',
      'examples/gitlab-ci/.gitlab-ci.yml',
      'examples/kubernetes/vtpreflight-job.yaml',
    ])
      assert.ok(readme.includes(p), p);
  });
});
