/**
 * CLI hygiene: no arguments is a usage error with the help on stderr; an unknown check id gets a
 * did-you-mean; user mistakes (a zero timeout, a port above 65535) are one-line usage errors, never "internal
 * error … please report this".
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { closestName } from '../../src/cli/suggest.js';
import { hasOpenssl, makeTestPki } from '../harness/tls.js';
import { runCli, joinRegExp } from './helpers.js';

const usage = (r: { code: number; stdout: string; stderr: string }, line: RegExp) => {
  assert.deepEqual([r.code, r.stdout], [2, '']);
  assert.match(r.stderr, line);
  assert.doesNotMatch(r.stderr, /internal error|please report/);
};

describe('CLI hygiene', () => {
  test('no arguments: the help on stderr, nothing on stdout, exit 2; asked-for help is exit 0 on stdout', async () => {
    const none = await runCli([]);
    usage(none, /^Usage: vtpreflight \[options\] \[command\]/);
    const help = await runCli(['--help']);
    assert.equal(help.code, 0);
    assert.match(help.stdout, /^Usage: vtpreflight/);
  });

  test('an unknown check id: did you mean, for `checks ID`, --only, --skip and --severity', async () => {
    usage(
      await runCli(['checks', 'stream-eror']),
      joinRegExp(
        /^vtpreflight: unknown check id "stream-eror": did you mean /,
        /"stream-error"\? \(run "vtpreflight checks" for the list\)\n$/,
      ),
    );
    usage(
      await runCli(['check', '--snapshot', 'x.json', '--only', 'copy-incompete']),
      /^vtpreflight: unknown check id "copy-incompete" in --only: did you mean "copy-incomplete"\?/,
    );
    usage(
      await runCli(['check', '--snapshot', 'x.json', '--severity', 'replication-lags=warning']),
      /^vtpreflight: unknown check id "replication-lags" in --severity: did you mean "replication-lag"\?/,
    );
    usage(
      await runCli(['checks', 'zzzz']),
      /^vtpreflight: unknown check id "zzzz": run "vtpreflight checks" for the list\n$/,
    );
    assert.equal(closestName('lag', ['replication-lag', 'copy-incomplete']), undefined);
  });

  test('a zero --timeout and a port above 65535 are usage errors', async () => {
    usage(
      await runCli(['check', '--vtctld', 'h:1', '--timeout', '0s']),
      /^vtpreflight: invalid --timeout "0s": use a duration above zero, e\.g\. 10s\n$/,
    );
    usage(
      await runCli(['check', '--vtctld', 'vtctld:99999']),
      /^vtpreflight: invalid --vtctld "vtctld:99999": port 99999 is not a TCP port \(1-65535\)\n$/,
    );
  });

  test('a TLS certificate and key that do not match, or files that are not PEM: one usage line', {
    skip: !hasOpenssl && 'no openssl CLI',
  }, async () => {
    const pki = makeTestPki([
      { name: 'one', usage: 'client' },
      { name: 'two', usage: 'client' },
    ]);
    try {
      for (const side of ['vtctld', 'mysql']) {
        const base = ['check', '--vtctld', '127.0.0.1:1', `--${side}-tls-ca`, pki.caFile];
        usage(
          await runCli([...base, `--${side}-tls-cert`, pki.file('one.crt'), `--${side}-tls-key`, pki.file('two.key')]),
          new RegExp(
            `^vtpreflight: --${side}-tls-cert and --${side}-tls-key do not match: the key is not the certificate's private key\n$`,
          ),
        );
        usage(
          await runCli([...base, `--${side}-tls-cert`, pki.file('one.key'), `--${side}-tls-key`, pki.file('one.key')]),
          new RegExp(`^vtpreflight: --${side}-tls-cert is not a usable PEM certificate: .+\n$`),
        );
        usage(
          await runCli([...base, `--${side}-tls-cert`, pki.file('one.crt'), `--${side}-tls-key`, pki.file('one.crt')]),
          new RegExp(`^vtpreflight: --${side}-tls-key is not a usable PEM private key: .+\n$`),
        );
      }
    } finally {
      pki.remove();
    }
  });
});
