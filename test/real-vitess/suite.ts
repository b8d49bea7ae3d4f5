/**
 * The real-Vitess suite: `npm run test:real-vitess -- --release 24|19|…|all`.
 *
 * For each release: builds it (or reuses the cache), starts a local cluster (scripts/vitess-cluster.sh), then runs
 * the table of states (test/real-vitess/states.ts) in order. For each state it runs the built vtpreflight for the
 * state's action and then the real action with vtctldclient, and compares them (test/real-vitess/compare.ts).
 * The cluster is stopped by pid at the end, also on failure. The last line per release is its summary; the exit
 * code is 1 on any disagreement (or a state that could not be produced), 0 otherwise.
 *
 * Not part of `npm test` (its files are not `*.test.ts`): it needs Go, MariaDB and etcd.
 */
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Cluster, readClusterEnv } from './cluster.js';
import { judge } from './compare.js';
import { holdsOn, reproducesOn, STATES, type State } from './states.js';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const ALL = [19, 20, 21, 22, 23, 24] as const;

interface Tally {
  states: number;
  agree: number;
  disagree: number;
  skipped: number;
  broken: number;
  templates: Set<string>;
}

function parseArgs(argv: readonly string[]): { releases: number[]; only: string[]; keep: boolean } {
  let releases: number[] = [24];
  const only: string[] = [];
  let keep = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--release') {
      const v = argv[++i] ?? '';
      releases =
        v === 'all' ? [...ALL] : v.split(',').map((x) => Number(x.replace(/^v/, '').replace(/^0\./, '').split('.')[0]));
      for (const r of releases) if (!ALL.includes(r as (typeof ALL)[number])) throw new Error(`unknown release ${v}`);
    } else if (a === '--state') only.push(...(argv[++i] ?? '').split(','));
    else if (a === '--keep') keep = true;
    else throw new Error(`unknown argument ${a} (use --release 19..24|all, --state ID, --keep)`);
  }
  return { releases, only, keep };
}

const line = (s: string) => process.stdout.write(`${s}\n`);

async function runState(c: Cluster, s: State, t: Tally): Promise<void> {
  const skip = s.unsupported?.(c.release);
  if (skip !== undefined) {
    t.skipped++;
    line(`  skip  ${s.id}: ${skip}`);
    return;
  }
  t.states++;
  let realOk = false;
  // Each state's cost (setup, both judgements and cleanup) goes on its first line, so that what a state adds to a
  // release's run is seen: the lines are held until the cleanup has run.
  const started = Date.now();
  const said: string[] = [];
  const hold = (l: string) => said.push(l);
  const took = '\u0000took';
  try {
    await s.setup?.(c);
    const { report } = c.vtpreflight([
      '--action',
      s.action,
      '--keyspace',
      s.keyspace,
      '--workflow',
      s.workflow,
      ...(s.pf ?? []),
    ]);
    const row = report.workflows.find((w) => w.keyspace === s.keyspace && w.workflow === s.workflow);
    if (row === undefined) throw new Error(`vtpreflight's report has no row for ${s.keyspace}.${s.workflow}`);
    const realArgs = s.real(c);
    const out = c.vtctl(realArgs);
    realOk = out.code === 0;
    const breaks = s.breaks !== undefined && holdsOn(s.breaks, c.release);
    let j = judge(row.verdict, row.vitessWouldSay, out, breaks);
    if (breaks && j.agree && s.breaks !== undefined) {
      // Vitess proceeded as vtpreflight said it would; the breakage must be there, and be vtpreflight's reason.
      const seen = s.breaks.observe(c);
      const named = (row.evidence ?? []).some((e) => e.check === s.breaks?.check && e.reason === s.breaks?.reason);
      j =
        seen === undefined || !named
          ? {
              agree: false,
              textReproduced: false,
              why:
                seen === undefined
                  ? 'Vitess proceeded but the breakage vtpreflight predicted was not seen'
                  : `vtpreflight blocked, but not by ${s.breaks.check} › ${s.breaks.reason}`,
            }
          : { ...j, why: `${j.why}: ${seen}` };
    }
    const why =
      row.verdict === 'unverified'
        ? ` [unverifiedBy: ${row.unverifiedBy.map((u) => `${u.check}: ${u.why}`).join('; ')}]`
        : '';
    const by = row.blockedBy.length > 0 ? ` [blockedBy: ${row.blockedBy.join(', ')}]` : '';
    // An at-risk verdict names its warnings, so a warning on a healthy state is seen in the log.
    const warned = (row.evidence ?? []).filter((e) => e.severity === 'warning').map((e) => `${e.check} › ${e.reason}`);
    const warns =
      row.verdict === 'at-risk' && warned.length > 0 ? ` [warnings: ${[...new Set(warned)].join(', ')}]` : '';
    if (j.agree) {
      t.agree++;
      if (j.textReproduced) t.templates.add(`${row.blockedBy.join(',')}|${row.vitessWouldSay}`);
      hold(`  agree ${s.id}${took}: ${j.why}${by}${warns}`);
      const declared = reproducesOn(s, c.release);
      if (j.textReproduced && declared.length > 0) {
        // The table's declaration feeds the fidelity table's real Vitess column: it must name what vtpreflight
        // really judged by.
        const ev = new Set((row.evidence ?? []).map((e) => `${e.check} › ${e.reason}`));
        const missing = declared.filter((r) => !ev.has(`${r.check} › ${r.reason}`));
        if (missing.length > 0) {
          t.broken++;
          hold(
            `  BROKEN ${s.id}: declares ${missing.map((m) => `${m.check} › ${m.reason}`).join(', ')}, but vtpreflight's evidence is ${[...ev].join(', ')}`,
          );
        }
      } else if (!j.textReproduced && declared.length > 0) {
        // Both agreeing without a shared refusal reproduces nothing: the declaration would claim a release it does not.
        t.broken++;
        hold(
          `  BROKEN ${s.id}: declares ${declared.map((m) => `${m.check} › ${m.reason}`).join(', ')} on v${c.release}, but no refusal was reproduced there`,
        );
      }
    } else {
      t.disagree++;
      hold(`  DISAGREE ${s.id}${took} (${s.title}): ${j.why}${by}${why}`);
      hold(
        `        vtctldclient ${realArgs.join(' ')} → exit ${out.code}: ` +
          (out.stderr || out.stdout).trim().split('\n').slice(-3).join(' | '),
      );
    }
  } catch (e) {
    t.broken++;
    hold(`  BROKEN ${s.id}: the state could not be produced or judged: ${(e as Error).message}`);
  }
  try {
    await s.after?.(c, realOk);
  } catch (e) {
    t.broken++;
    hold(`  BROKEN ${s.id} (cleanup): ${(e as Error).message}`);
  }
  const secs = ` (${((Date.now() - started) / 1000).toFixed(1)} s)`;
  for (const l of said) process.stdout.write(`${l.replace(took, secs)}\n`);
}

async function runRelease(
  release: number,
  only: readonly string[],
  keep: boolean,
): Promise<Tally & { version: string }> {
  const dir = process.env.VTPREFLIGHT_VITESS_DIR ?? `/tmp/vtpreflight-vitess-v${release}`;
  const script = join(repo, 'scripts/vitess-cluster.sh');
  const t: Tally = { states: 0, agree: 0, disagree: 0, skipped: 0, broken: 0, templates: new Set() };
  const started = Date.now();
  const up = spawnSync(script, ['up', '--release', String(release), '--dir', dir], {
    stdio: ['ignore', 'inherit', 'inherit'],
    timeout: 40 * 60_000,
  });
  if (up.status !== 0) {
    spawnSync(script, ['down', '--dir', dir], { stdio: 'inherit', timeout: 120_000 });
    t.broken++;
    return { ...t, version: `v${release}` };
  }
  const c = new Cluster(readClusterEnv(dir), repo);
  const onSignal = (sig: NodeJS.Signals) => {
    spawnSync(script, ['down', '--dir', dir], { stdio: 'inherit', timeout: 120_000 });
    process.exit(sig === 'SIGINT' ? 130 : 143);
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    line(
      `real vitess v${c.env.version}: cluster up in ${Math.round((Date.now() - started) / 1000)} s at ${c.env.vtctld}`,
    );
    for (const s of STATES) {
      if (only.length > 0 && !only.includes(s.id)) continue;
      await runState(c, s, t);
    }
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    if (!keep) {
      const down = spawnSync(script, ['down', '--dir', dir], { stdio: 'inherit', timeout: 120_000 });
      // The cluster's data (about 0.6 GB) goes with it once every process has stopped.
      if (down.status === 0) rmSync(dir, { recursive: true, force: true });
    }
  }
  return { ...t, version: `v${c.env.version}` };
}

async function main(): Promise<number> {
  const { releases, only, keep } = parseArgs(process.argv.slice(2));
  const results: (Tally & { version: string })[] = [];
  for (const r of releases) results.push(await runRelease(r, only, keep));
  let failed = false;
  for (const t of results) {
    if (t.disagree > 0 || t.broken > 0) failed = true;
    const broken = t.broken > 0 ? `, ${t.broken} broken` : '';
    line(
      `real vitess ${t.version}: ${t.states} states, ${t.agree} agree, ${t.disagree} disagree, ${t.skipped} skipped${broken}; ${t.templates.size} quoted templates reproduced`,
    );
  }
  return failed ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    process.stderr.write(`real vitess: ${(e as Error).stack ?? String(e)}\n`);
    process.exit(2);
  },
);
