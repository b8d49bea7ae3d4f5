/**
 * No secret in any line the tool writes: a secret is planted in every input that takes one (a flag, the environment,
 * the config file, a `passwordEnv` variable, a credentials file, a `user:password@host` address) and, in the same
 * run, echoed back by the cluster itself (a stream's error message quoting it). Every report format, stdout and
 * stderr (errors, warnings, notes) must be free of it. Then the error paths that used to quote input: a secret of
 * the wrong type in the config, a config, snapshot or credentials file that is not valid JSON around the password.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { readFileSync } from 'node:fs';
import { FORMATS } from '../../src/report/index.js';
import { jsonErrorText, redactSecrets } from '../../src/secrets.js';
import { runCli, snapshotFile, tempDir } from '../cli/helpers.js';
import { cluster } from '../helpers/cluster.js';

/** One way a secret reaches the tool: argv, environment and files, given the secret and a temp dir. */
interface Input {
  readonly name: string;
  readonly given: (
    secret: string,
    dir: ReturnType<typeof tempDir>,
  ) => { argv: readonly string[]; env?: NodeJS.ProcessEnv };
}

const INPUTS: readonly Input[] = [
  { name: 'flag --mysql-password', given: (s) => ({ argv: ['--mysql-password', s] }) },
  { name: 'env VTPREFLIGHT_MYSQL_PASSWORD', given: (s) => ({ argv: [], env: { VTPREFLIGHT_MYSQL_PASSWORD: s } }) },
  {
    name: 'config mysql.password',
    given: (s, d) => ({ argv: ['--config', d.write('c.yaml', `mysql:\n  password: "${s}"\n`)] }),
  },
  {
    name: 'config mysql.passwordEnv',
    given: (s, d) => ({
      argv: ['--config', d.write('e.yaml', 'mysql:\n  passwordEnv: DB_PASS\n')],
      env: { DB_PASS: s },
    }),
  },
  {
    name: 'env VTPREFLIGHT_VTCTLD_PASSWORD',
    given: (s) => ({ argv: [], env: { VTPREFLIGHT_VTCTLD_USERNAME: 'ops', VTPREFLIGHT_VTCTLD_PASSWORD: s } }),
  },
  {
    name: 'credentials file',
    given: (s, d) => ({
      argv: [
        '--grpc-auth-static-client-creds',
        d.write('creds.json', JSON.stringify({ Username: 'ops', Password: s })),
      ],
    }),
  },
];

/** Each case's own secret, so that a leak names its input. */
const secretOf = (i: number) => `Pl4nted-Secret-${i}-x9`;

/** A MoveTables whose stream on -80 failed with a message quoting the secret (as a hostile or careless row would). */
function leakyCluster(secret: string) {
  return cluster()
    .keyspace('commerce', { shards: ['0'], tables: { customer: {} } })
    .keyspace('customer', {
      shards: ['-80', '80-'],
      tables: { customer: { columnVindexes: [{ name: 'hash', columns: ['customer_id'] }] } },
    })
    .moveTables('commerce2customer', { from: 'commerce', to: 'customer', tables: ['customer'], column: 'customer_id' })
    .patchStream('customer', '-80', 1, {
      state: 'Error',
      message: `dial ops:${secret}@db-7:3306 failed; retry with ${secret}`,
    });
}

function assertClean(what: string, text: string, secret: string): void {
  assert.ok(
    !text.includes(secret),
    `${what} carries the secret: ${text.slice(Math.max(0, text.indexOf(secret) - 200), text.indexOf(secret) + 100)}`,
  );
}

describe('a planted secret, in every input and every format', () => {
  let dir: ReturnType<typeof tempDir>;
  before(() => {
    dir = tempDir('vtpreflight-secrets-');
  });
  after(() => dir.cleanup());

  INPUTS.forEach((input, i) => {
    test(`${input.name}: no report format, stdout or stderr carries it`, async () => {
      const secret = secretOf(i);
      const snap = await snapshotFile(leakyCluster(secret), dir.path(`snap-${i}.json`));
      const { argv, env } = input.given(secret, dir);
      for (const format of FORMATS) {
        const out = dir.path(`report-${i}.${format}`);
        const run = await runCli(
          ['check', '--snapshot', snap, ...argv, '--format', format, '--output', out, '--verbose'],
          env ? { env } : {},
        );
        assert.equal(run.code, 1, `${format}: ${run.stderr}`);
        assertClean(`${format} report`, readFileSync(out, 'utf8'), secret);
        assertClean(`${format} stderr`, run.stderr, secret);
        const toStdout = await runCli(['check', '--snapshot', snap, ...argv, '--format', format], env ? { env } : {});
        assertClean(`${format} stdout`, toStdout.stdout, secret);
        // The stream's message is still reported, only without the secret.
        if (format === 'json')
          assert.match(toStdout.stdout, /dial ops:<redacted>@db-7:3306 failed; retry with <redacted>/);
      }
      // The same inputs against a vtctld that is not there: the error line.
      const down = await runCli(['check', '--vtctld', '127.0.0.1:1', '--timeout', '1s', ...argv], env ? { env } : {});
      assert.equal(down.code, 2);
      assertClean('error line', down.stderr + down.stdout, secret);
    });
  });

  test('a user:password@host address (flag, env, config) is refused without echoing it', async () => {
    const secret = 'Dsn-Secret-77';
    const runs = [
      await runCli(['check', '--vtctld', `ops:${secret}@127.0.0.1:15999`]),
      await runCli(['check', '--vtctld', `grpc://ops:${secret}@127.0.0.1:15999`]),
      await runCli(['check'], { env: { VTPREFLIGHT_VTCTLD: `ops:${secret}@127.0.0.1:15999` } }),
      await runCli([
        'check',
        '--config',
        dir.write('dsn.yaml', `vtctld:\n  address: "ops:${secret}@127.0.0.1:15999"\n`),
      ]),
      await runCli(['check', '--vtctld', `${secret}@127.0.0.1:15999`]),
    ];
    for (const run of runs) {
      assert.equal(run.code, 2, run.stderr);
      assert.match(run.stderr, /without credentials/);
      assertClean('DSN error', run.stderr, secret);
    }
  });

  test('a secret of the wrong type in the config is not echoed', async () => {
    for (const [name, yaml] of [
      ['list', 'mysql:\n  password: [Wrong-Type-Secret]\n'],
      ['map', 'mysql:\n  password: {k: Wrong-Type-Secret}\n'],
      ['vtctld auth', 'vtctld:\n  auth:\n    username: ops\n    password: [Wrong-Type-Secret]\n'],
    ] as const) {
      const run = await runCli(['check', '--config', dir.write(`wrong-${name}.yaml`, yaml), '--vtctld', '127.0.0.1:1']);
      assert.equal(run.code, 2, name);
      assertClean(`wrong type (${name})`, run.stderr, 'Wrong-Type-Secret');
    }
  });

  test('JSON that breaks around a password (config, snapshot, credentials file) is named, not quoted', async () => {
    const secret = 'Json-Secret-31';
    const broken = [
      `{"mysql": {"password": ${secret}}}`,
      `{"Username": "ops", "Password": "${secret}`,
      `{"Password": ${secret}`,
    ];
    for (const [k, text] of broken.entries()) {
      const file = dir.write(`broken-${k}.json`, text);
      for (const argv of [
        ['check', '--config', file, '--vtctld', '127.0.0.1:1'],
        ['check', '--snapshot', file],
        ['check', '--grpc-auth-static-client-creds', file, '--vtctld', '127.0.0.1:1'],
      ]) {
        const run = await runCli(argv);
        assert.equal(run.code, 2, `${argv.join(' ')}: ${run.stderr}`);
        assert.match(run.stderr, /not valid JSON/);
        assertClean(`${argv.join(' ')}`, run.stderr, secret);
        // Not even a fragment: Node quotes the text around the error, which may begin inside the secret.
        assertClean(`${argv.join(' ')}`, run.stderr, secret.slice(2, 10));
      }
    }
  });
});

test('redactSecrets: userinfo, secret-looking keys; MySQL access-denied text and ordinary lines unchanged', () => {
  assert.equal(redactSecrets('at grpc://a:b1@h:1 and c:d2@h2'), 'at grpc://a:<redacted>@h:1 and c:<redacted>@h2');
  assert.equal(
    redactSecrets('x password=hunter22 "Password": "p1" token: t1'),
    'x password=<redacted> "Password": "<redacted>" token: <redacted>',
  );
  const denied = "Access denied for user 'vt'@'10.0.0.1' (using password: YES)";
  assert.equal(redactSecrets(denied), denied);
  const plain = 'shard customer/-80 primary zone1-0000000100 at 127.0.0.1:3306: lag 12s';
  assert.equal(redactSecrets(plain), plain);
});

test('jsonErrorText drops the text JSON.parse quotes', () => {
  for (const text of ['{"a": S3cretZZ}', '{"a": "S3cretZZ', '{"a": 1,, "S3cretZZ"}', 'S3cretZZ']) {
    let message = '';
    try {
      JSON.parse(text);
    } catch (e) {
      message = jsonErrorText(e);
    }
    assert.ok(message !== '' && !message.includes('S3cretZZ') && !message.includes('S3cr'), message);
  }
});
