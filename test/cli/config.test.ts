/**
 * `--config FILE`: line-precise validation, precedence (flags > environment > config > defaults), secrets masked
 * by `config print`, paths relative to the config file.
 */
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { parse as parseYaml } from 'yaml';
import { suggest } from '../../src/config/load.js';
import { exactDuration } from '../../src/config/print.js';
import { runCli, tempDir } from './helpers.js';

const tmp = tempDir('vtpreflight-config-');
after(() => tmp.cleanup());

/** Runs `config print` with a config file holding `text`; returns the run. */
const printWith = (name: string, text: string, argv: string[] = [], env: NodeJS.ProcessEnv = {}) =>
  runCli(['config', 'print', '--config', tmp.write(name, text), ...argv], { env });

const oneLineError = (r: { code: number; stderr: string }, re: RegExp) => {
  assert.equal(r.code, 2, r.stderr);
  assert.equal(r.stderr.split('\n').filter(Boolean).length, 1, r.stderr);
  assert.match(r.stderr, re);
};

describe('config file validation', () => {
  test('an unknown key names the file, the line and the likely key', async () => {
    const text = ['vtctld:', '  address: vtctld:15999', 'keyspaces: [customer]', 'concurency: 16', ''].join('\n');
    oneLineError(
      await printWith('c1.yaml', text),
      /^vtpreflight: .*c1\.yaml:4: unknown key "concurency" \(did you mean "concurrency"\?\)$/m,
    );
    const nested = ['vtctld:', '  tls:', '    serverNmae: x', ''].join('\n');
    oneLineError(
      await printWith('c2.yaml', nested),
      /c2\.yaml:3: unknown key "vtctld\.tls\.serverNmae" \(did you mean "vtctld\.tls\.serverName"\?\)/,
    );
    oneLineError(
      await printWith('c3.yaml', 'colour: red\n'),
      /c3\.yaml:1: unknown key "colour" \(known keys: vtctld, mysql, via,/,
    );
  });

  test('bad values: the line of the value, what was given, what to use', async () => {
    oneLineError(
      await printWith('v1.yaml', 'concurrency: -1\n'),
      /v1\.yaml:1: invalid concurrency -1: use a positive integer/,
    );
    oneLineError(
      await printWith('v2.yaml', 'vtctld:\n  address: "vtctld"\n'),
      /v2\.yaml:2: invalid vtctld\.address "vtctld": use HOST:PORT/,
    );
    oneLineError(
      await printWith('v3.yaml', 'thresholds:\n  maxLag: 30\n'),
      /v3\.yaml:2: invalid thresholds\.maxLag 30: use a duration with a unit/,
    );
    oneLineError(
      await printWith('v4.yaml', 'failOn: warnings\n'),
      /v4\.yaml:1: invalid failOn "warnings": use error, warning, info or never/,
    );
    oneLineError(
      await printWith('v5.yaml', 'only:\n  - stream-error\n  - no-such-check\n'),
      /v5\.yaml:3: unknown check id "no-such-check" in only/,
    );
    oneLineError(
      await printWith('v6.yaml', 'severities:\n  replication-lag: warning\n  copy-incomplete: fatal\n'),
      /v6\.yaml:3: invalid severities\.copy-incomplete "fatal": use error, warning or info/,
    );
    oneLineError(
      await printWith('v7.yaml', 'severities:\n  nope: info\n'),
      /v7\.yaml:2: unknown check id "nope" in severities/,
    );
    oneLineError(
      await printWith('v8.yaml', 'vtctld: vtctld:15999\n'),
      /v8\.yaml:1: vtctld must be a map of keys \(address, tls, auth\)/,
    );
  });

  test('syntax errors: YAML and JSON, with lines; duplicate keys', async () => {
    oneLineError(
      await printWith('s1.yaml', 'via: mysql\nkeyspaces: [a, b\nconcurrency: 2\n'),
      /s1\.yaml:\d: not valid YAML: /,
    );
    oneLineError(
      await printWith('s2.yaml', 'via: mysql\nvia: vtctld\n'),
      /s2\.yaml:2: not valid YAML: Map keys must be unique/,
    );
    oneLineError(
      await printWith('s3.json', '{\n  "via": "mysql",\n  "concurrency": 4,\n}\n'),
      /s3\.json:4: not valid JSON/,
    );
    const ok = await printWith('s4.json', '{\n  "via": "vtctld",\n  "concurrency": 4\n}\n');
    assert.equal(ok.code, 0, ok.stderr);
    assert.match(ok.stdout, /^via: vtctld +# config .*s4\.json:2$/m);
    assert.match(ok.stdout, /^concurrency: 4 +# config .*s4\.json:3$/m);
  });

  test('a missing or unreadable config file is exit 2, one line', async () => {
    oneLineError(
      await runCli(['config', 'print', '--config', tmp.path('nope.yaml')]),
      /cannot read --config .*nope\.yaml: ENOENT/,
    );
    oneLineError(
      await runCli(['check', '--snapshot', 'x.json'], { env: { VTPREFLIGHT_CONFIG: tmp.path('nope2.yaml') } }),
      /cannot read --config .*nope2\.yaml/,
    );
  });

  test('suggestions only for near misses', () => {
    assert.equal(suggest('concurency', ['concurrency', 'timeout']), 'concurrency');
    assert.equal(suggest('Timeout', ['concurrency', 'timeout']), 'timeout');
    assert.equal(suggest('colour', ['concurrency', 'timeout']), undefined);
  });
});

describe('precedence and config print', () => {
  const config = [
    'vtctld:',
    '  address: cfg-vtctld:15999',
    '  tls:',
    '    ca: certs/ca.pem',
    'mysql:',
    '  user: cfg-user',
    '  password: cfg-secret-123',
    'via: vtctld',
    'keyspaces: [customer, commerce]',
    'concurrency: 8',
    'timeout: 20s',
    'thresholds:',
    '  maxLag: 1m30s',
    'severities:',
    '  replication-lag: warning',
    'failOn: warning',
    'format: [json, html]',
    'output: [r.json, r.html]',
    '',
  ].join('\n');

  test('flags beat environment beat config beat defaults; every value says where it came from', async () => {
    const r = await printWith('p.yaml', config, ['--concurrency', '4', '--keyspace', 'only-this'], {
      VTPREFLIGHT_CONCURRENCY: '6',
      VTPREFLIGHT_TIMEOUT: '45s',
      VTPREFLIGHT_MYSQL_USER: 'env-user',
    });
    assert.equal(r.code, 0, r.stderr);
    const out = r.stdout;
    assert.match(out, /^concurrency: 4 +# flag --concurrency$/m);
    assert.match(out, /^timeout: 45s +# env VTPREFLIGHT_TIMEOUT$/m);
    assert.match(out, /^ {2}user: env-user +# env VTPREFLIGHT_MYSQL_USER$/m);
    assert.match(out, /^keyspaces: \[only-this\] +# flag --keyspace$/m);
    assert.match(out, /^via: vtctld +# config .*p\.yaml:8$/m);
    assert.match(out, /^ {2}maxLag: 1m30s +# config .*p\.yaml:13$/m);
    assert.match(out, /^ {2}replication-lag: warning +# config .*p\.yaml:15$/m);
    assert.match(out, /^workflows: \[\] +# default$/m);
    assert.match(out, /^interval: 10s +# default$/m);
    // Paths in the config file are relative to the file.
    assert.match(
      out,
      new RegExp(`^    ca: ${tmp.dir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/certs/ca\\.pem +# config`, 'm'),
    );
    // The printed config is YAML a config file can hold.
    const parsed = parseYaml(out) as Record<string, any>;
    assert.equal(parsed.concurrency, 4);
    assert.deepEqual(parsed.format, ['json', 'html']);
  });

  test('secrets are masked wherever they come from, and never printed', async () => {
    const fromConfig = await printWith('s.yaml', config);
    assert.match(fromConfig.stdout, /^ {2}password: "\*\*\*\*\*\*\*\*" +# config .*s\.yaml:7$/m);
    assert.equal(fromConfig.stdout.includes('cfg-secret-123'), false);
    const fromFlag = await printWith('s.yaml', config, ['--mysql-password', 'flag-secret-456']);
    assert.match(fromFlag.stdout, /^ {2}password: "\*\*\*\*\*\*\*\*" +# flag --mysql-password$/m);
    assert.equal(fromFlag.stdout.includes('flag-secret-456'), false);
    const envRef = await printWith(
      'e.yaml',
      'mysql:\n  passwordEnv: DB_PW\nvtctld:\n  auth:\n    username: ci\n    password: vt-secret-789\n',
      [],
      { DB_PW: 'env-secret-000' },
    );
    assert.equal(envRef.code, 0, envRef.stderr);
    assert.match(envRef.stdout, /^ {2}password: "\*\*\*\*\*\*\*\*" +# env DB_PW$/m);
    assert.match(envRef.stdout, /^ {4}username: ci +# config .*e\.yaml:5$/m);
    for (const s of ['env-secret-000', 'vt-secret-789']) assert.equal(envRef.stdout.includes(s), false);
    const creds = tmp.write('creds.json', '{"Username": "bot", "Password": "creds-secret-111"}');
    const fromCreds = await runCli(['config', 'print', '--grpc-auth-static-client-creds', creds]);
    assert.match(
      fromCreds.stdout,
      /credentialsFile: .*creds\.json +# flag --grpc-auth-static-client-creds; username bot/,
    );
    assert.equal(fromCreds.stdout.includes('creds-secret-111'), false);
  });

  test('passwordEnv naming an unset variable, and password plus passwordEnv, are errors', async () => {
    oneLineError(
      await printWith('u.yaml', 'mysql:\n  user: x\n  passwordEnv: NOT_SET_PW\n'),
      /u\.yaml:3: mysql\.passwordEnv names NOT_SET_PW, which is not set in the environment/,
    );
    oneLineError(
      await printWith('b.yaml', 'mysql:\n  password: a\n  passwordEnv: B\n', [], { B: 'x' }),
      /b\.yaml:3: give mysql\.password or mysql\.passwordEnv, not both/,
    );
    oneLineError(
      await printWith('a.yaml', 'vtctld:\n  auth:\n    password: only\n'),
      /a\.yaml:3: vtctld\.auth needs a username/,
    );
    // A flag makes the config's passwordEnv irrelevant: no error then.
    const r = await printWith('u2.yaml', 'mysql:\n  passwordEnv: NOT_SET_PW\n', ['--mysql-password', 'x']);
    assert.equal(r.code, 0, r.stderr);
  });

  test('bad environment values name the variable', async () => {
    oneLineError(
      await runCli(['config', 'print'], { env: { VTPREFLIGHT_TIMEOUT: 'soon' } }),
      /^vtpreflight: invalid VTPREFLIGHT_TIMEOUT "soon": use a number with a unit/,
    );
    oneLineError(
      await runCli(['config', 'print'], { env: { VTPREFLIGHT_VIA: 'ssh' } }),
      /invalid VTPREFLIGHT_VIA "ssh": use mysql or vtctld/,
    );
  });

  test('durations print exactly', () => {
    assert.deepEqual([0, 500, 1500, 90_000, 3_600_000 + 1].map(exactDuration), [
      '0s',
      '500ms',
      '1s500ms',
      '1m30s',
      '1h1ms',
    ]);
  });
});
