/**
 * The shell scripts of the compose setup: scripts/compose-fault.sh (its usage contract, without touching
 * Docker) and the scripts the containers run from compose/. All must parse (`bash -n`); shellcheck lints
 * them where it is installed (Debian's `shellcheck` package; CI installs it, the check is skipped
 * elsewhere). The findings the fault script promises must be real check ids.
 */
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { CHECKS } from '../../checks/index.js';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const faultScript = join(repoRoot, 'scripts', 'compose-fault.sh');

/** Every *.sh under compose/, plus the fault script. */
function shellScripts(): string[] {
  const found: string[] = [faultScript];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir)) {
      const path = join(dir, entry);
      if (statSync(path).isDirectory()) walk(path);
      else if (entry.endsWith('.sh')) found.push(path);
    }
  };
  walk(join(repoRoot, 'compose'));
  return found.sort();
}

/** Absolute path of a tool on the test machine's PATH. */
function which(tool: string): string {
  const r = spawnSync('bash', ['-c', `command -v ${tool}`], { encoding: 'utf8' });
  assert.equal(r.status, 0, `${tool} is not installed`);
  return r.stdout.trim();
}

/**
 * A stand-in `docker` for the fault script: it logs every call, says the compose plugin exists, and
 * answers `GetTablets` like vtctldclient does (alias keyspace shard type host:port mysql_host:port ...).
 */
const FAKE_DOCKER = `#!/bin/bash
echo "docker $*" >> "$FAKE_LOG"
case "$*" in
  "compose version") exit 0 ;;
  *"GetTablets --keyspace commerce --shard 0"*)
    echo "zone1-0000000100 commerce 0 primary vttablet100:15000 mysql100:3306 [] 2026-01-01T00:00:00Z"
    echo "zone1-0000000101 commerce 0 replica vttablet101:15000 mysql101:3306 [] <null>" ;;
  *"GetTablets --keyspace customer --shard 80-"*)
    echo "zone1-0000000400 customer 80- primary vttablet400:15000 mysql400:3306 [] 2026-01-01T00:00:00Z"
    echo "zone1-0000000401 customer 80- replica vttablet401:15000 mysql401:3306 [] <null>" ;;
  *"SELECT @@GLOBAL.binlog_row_image"*) echo MINIMAL ;;
esac
exit 0
`;

let tmp: string;
let fakeBin: string;
let bareBin: string;
let log: string;

/** Runs the fault script with the stand-in docker first on PATH (or, with bare, with no docker at all). */
function fault(...args: string[]) {
  return runFault(args, false);
}

function runFault(args: string[], bare: boolean) {
  writeFileSync(log, '');
  const path = bare ? bareBin : `${fakeBin}:${process.env.PATH ?? '/usr/bin:/bin'}`;
  const r = spawnSync(which('bash'), [faultScript, ...args], {
    cwd: tmpdir(), // the script must find the repository by itself
    encoding: 'utf8',
    env: { PATH: path, LANG: 'C.UTF-8', FAKE_LOG: log },
    timeout: 10_000,
  });
  return {
    ...r,
    calls: readFileSync(log, 'utf8')
      .split('\n')
      .filter((l) => l !== ''),
  };
}

const FAULTS = ['stop-stream', 'row-image', 'kill-primary'];
/** What each fault makes vtpreflight report. */
const EXPECTED: Record<string, string[]> = {
  'stop-stream': ['stop-after-copy-state', 'replication-lag'],
  'row-image': ['source-not-serving'],
  'kill-primary': ['unreachable'],
};

describe('shell scripts of the compose setup', () => {
  const scripts = shellScripts();

  it('finds the fault script and the container scripts', () => {
    const names = scripts.map((s) => relative(repoRoot, s));
    for (const expected of [
      'scripts/compose-fault.sh',
      'compose/init/init-cluster.sh',
      'compose/init/init-topo.sh',
      'compose/mysql/init-vitess-users.sh',
      'compose/mysql/mysqld-up.sh',
      'compose/vitess/vttablet-up.sh',
    ]) {
      assert.ok(names.includes(expected), `missing ${expected}`);
    }
  });

  for (const script of scripts) {
    it(`bash -n ${relative(repoRoot, script)}`, () => {
      const r = spawnSync('bash', ['-n', script], { encoding: 'utf8' });
      assert.equal(r.status, 0, r.stderr);
    });
  }

  it('passes shellcheck', (t) => {
    if (spawnSync('shellcheck', ['--version']).status !== 0) {
      t.skip('shellcheck is not installed (apt-get install -y shellcheck)');
      return;
    }
    // -x follows `source` (paths are relative to the repository root, hence the cwd).
    const r = spawnSync('shellcheck', ['-x', ...scripts.map((s) => relative(repoRoot, s))], {
      cwd: repoRoot,
      encoding: 'utf8',
    });
    assert.equal(r.status, 0, r.stdout + r.stderr);
  });
});

describe('scripts/compose-fault.sh', () => {
  before(() => {
    tmp = mkdtempSync(join(tmpdir(), 'vtpreflight-fault-'));
    log = join(tmp, 'calls.log');
    fakeBin = join(tmp, 'bin');
    bareBin = join(tmp, 'bare');
    for (const dir of [fakeBin, bareBin]) spawnSync('mkdir', ['-p', dir]);
    writeFileSync(join(fakeBin, 'docker'), FAKE_DOCKER);
    chmodSync(join(fakeBin, 'docker'), 0o755);
    // The tools the script needs besides Docker, for the run without Docker.
    for (const tool of ['cat', 'awk', 'dirname']) symlinkSync(which(tool), join(bareBin, tool));
  });
  after(() => rmSync(tmp, { recursive: true, force: true }));

  it('prints its usage and exits 2 without a fault name', () => {
    const r = fault();
    assert.equal(r.status, 2);
    assert.match(r.stderr, /missing fault NAME/);
    assert.match(r.stderr, /^Usage: scripts\/compose-fault\.sh \[--undo\] NAME$/m);
    assert.equal(r.stdout, '');
    assert.deepEqual(r.calls, [], 'a usage error must not touch Docker');
  });

  it('prints its usage on stdout and exits 0 with --help', () => {
    for (const flag of ['--help', '-h']) {
      const r = fault(flag);
      assert.equal(r.status, 0, r.stderr);
      assert.match(r.stdout, /^Usage: /);
      assert.match(r.stdout, /docker compose run --rm vtpreflight/);
    }
  });

  it('documents each fault with the findings to expect, all of them real check ids', () => {
    const usage = fault('--help').stdout;
    const ids = new Set(CHECKS.map((c) => c.id));
    for (const name of FAULTS) {
      const section = new RegExp(`^  ${name} [\\s\\S]*?(?=^  \\S|^\\n|^Options)`, 'm').exec(usage)?.[0];
      assert.ok(section, `usage does not describe ${name}`);
      for (const id of EXPECTED[name]!) {
        assert.ok(ids.has(id), `${id} is not a registered check`);
        assert.match(section, new RegExp(`\\b${id}\\b`), `${name} must announce ${id}`);
      }
    }
  });

  it('rejects unknown faults, unknown options and two faults at once (exit 2)', () => {
    for (const args of [['no-such-fault'], ['--force', 'row-image'], ['row-image', 'kill-primary']]) {
      const r = fault(...args);
      assert.equal(r.status, 2, `${args.join(' ')}: ${r.stderr}`);
      assert.match(r.stderr, /^compose-fault\.sh: /);
      assert.deepEqual(r.calls, [], 'a usage error must not touch Docker');
    }
  });

  it('says so when neither docker compose nor docker-compose is installed (exit 1)', () => {
    const r = runFault(['stop-stream'], true);
    assert.equal(r.status, 1);
    assert.match(r.stderr, /neither 'docker compose' nor 'docker-compose' is installed/);
  });

  const vtctl = 'docker compose exec -T vtctld vtctldclient --server localhost:15999';

  it('stop-stream stops the stream of customer/-80 only', () => {
    const r = fault('stop-stream');
    assert.equal(r.status, 0, r.stderr);
    assert.ok(
      r.calls.includes(`${vtctl} Workflow --keyspace customer stop --workflow commerce2customer --shards=-80`),
      r.calls.join('\n'),
    );
    assert.match(r.stdout, /Expect: .*stop-after-copy-state/);
    const undo = fault('--undo', 'stop-stream');
    assert.equal(undo.status, 0, undo.stderr);
    assert.ok(
      undo.calls.includes(`${vtctl} Workflow --keyspace customer start --workflow commerce2customer --shards=-80`),
    );
  });

  it("row-image changes the commerce primary's mysqld, found through the topology", () => {
    const r = fault('row-image');
    assert.equal(r.status, 0, r.stderr);
    assert.ok(r.calls.includes(`${vtctl} GetTablets --keyspace commerce --shard 0`));
    const sql = r.calls.filter((c) => c.startsWith('docker compose exec -T mysql100 sh -c '));
    assert.equal(sql.length, 2, r.calls.join('\n'));
    assert.match(sql[0]!, /SET GLOBAL binlog_row_image = 'MINIMAL'$/);
    assert.match(r.stdout, /binlog_row_image on mysql100: MINIMAL/);
    assert.match(r.stdout, /Expect: +source-not-serving: mysql100/);
    assert.ok(!r.calls.some((c) => c.includes('mysql101')), 'the replica is left alone');
  });

  it("kill-primary stops the customer/80- primary's mysqld container", () => {
    const r = fault('kill-primary');
    assert.equal(r.status, 0, r.stderr);
    assert.ok(r.calls.includes(`${vtctl} GetTablets --keyspace customer --shard 80-`));
    assert.ok(r.calls.includes('docker compose stop mysql400'), r.calls.join('\n'));
    assert.match(r.stdout, /Expect: +unreachable/);
    const undo = fault('--undo', 'kill-primary');
    assert.equal(undo.status, 0, undo.stderr);
    assert.ok(undo.calls.includes('docker compose start mysql400 mysql401'));
  });

  it('names only services that docker-compose.yml defines', () => {
    const compose = readFileSync(join(repoRoot, 'docker-compose.yml'), 'utf8');
    for (const name of ['vtctld', 'mysql100', 'mysql400', 'mysql401']) {
      assert.match(compose, new RegExp(`^  ${name}:$`, 'm'), `docker-compose.yml has no service ${name}`);
    }
  });

  it('is executable and uses strict mode', () => {
    assert.ok((statSync(faultScript).mode & 0o111) !== 0, 'scripts/compose-fault.sh is not executable');
    const r = spawnSync('grep', ['-qx', 'set -euo pipefail', faultScript]);
    assert.equal(r.status, 0, 'scripts/compose-fault.sh must set -euo pipefail');
  });
});
