/**
 * MySQL TLS verifies the server's identity, against a real MariaDB started with TLS: a certificate
 * issued for another name is refused in one line, `servername` (`--mysql-tls-server-name`) sets the name checked,
 * an untrusted CA is refused, and a server without TLS fails closed when TLS is asked for. The certificates are made
 * with openssl at test time (test/harness/tls.ts).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { MysqlConnectError, openMysqlExecutor, type MysqlConnectOptions } from '../../src/sources/mysql.js';
import { toText } from '../../src/sources/sidecar.js';
import { privateServer, testPool, type PrivateServer } from '../harness/env.js';
import type { MariaDbInstance } from '../harness/mariadb.js';
import { hasOpenssl, makeTestPki, type TestPki } from '../harness/tls.js';
import { joinRegExp } from '../helpers/regexp.js';

const pool = await testPool();

describe('MySQL TLS identity', { skip: hasOpenssl ? false : 'the openssl CLI is not installed' }, () => {
  let pki: TestPki;
  let server: PrivateServer;
  let byIp: PrivateServer;
  before(async () => {
    pki = makeTestPki([
      { name: 'db', usage: 'server', san: ['DNS:db.other.example'] },
      { name: 'db-ip', usage: 'server', san: ['IP:127.0.0.1'] },
      { name: 'client', usage: 'client' },
    ]);
    const tlsArgs = (stem: string) => [
      `--ssl-ca=${pki.caFile}`,
      `--ssl-cert=${pki.file(`${stem}.crt`)}`,
      `--ssl-key=${pki.file(`${stem}.key`)}`,
    ];
    [server, byIp] = await Promise.all([privateServer(tlsArgs('db')), privateServer(tlsArgs('db-ip'))]);
  });
  after(async () => {
    await Promise.all([server?.stop(), byIp?.stop()]);
    pki?.remove();
  });

  const conn = (inst: MariaDbInstance, ssl: MysqlConnectOptions['ssl']): MysqlConnectOptions => ({
    host: inst.host,
    port: inst.port,
    user: inst.reader.user,
    password: inst.reader.password,
    timeoutMs: 5000,
    ...(ssl ? { ssl } : {}),
  });

  const refused = async (opts: MysqlConnectOptions, pattern: RegExp): Promise<string> => {
    const err = await openMysqlExecutor(opts).then(
      async (e) => {
        await e.close();
        return null;
      },
      (e: unknown) => e,
    );
    assert.ok(err instanceof MysqlConnectError, `expected a refusal, got ${String(err)}`);
    assert.match(err.message, pattern);
    assert.doesNotMatch(err.message, /\n/);
    assert.ok(!err.message.includes(opts.password), 'password in the error');
    return err.message;
  };

  test('a certificate for another name is refused when dialing 127.0.0.1', async () => {
    const msg = await refused(
      conn(server.instance, { ca: pki.read('ca.crt') }),
      joinRegExp(
        /^cannot connect to 127\.0\.0\.1:\d+: TLS: the server certificate does not name 127\.0\.0\.1 /,
        /\(ERR_TLS_CERT_ALTNAME_INVALID\): give the name it carries with --mysql-tls-server-name$/,
      ),
    );
    assert.ok(msg.length < 200);
  });

  test('servername sets the name checked: the right name connects over TLS', async () => {
    const exec = await openMysqlExecutor(
      conn(server.instance, { ca: pki.read('ca.crt'), servername: 'db.other.example' }),
    );
    try {
      const r = await exec.query("/* vtpreflight */ SHOW SESSION STATUS LIKE 'Ssl_version'", []);
      assert.match(toText(r.rows[0]?.[1] ?? null), /^TLSv1\.[23]$/);
    } finally {
      await exec.close();
    }
  });

  test('a certificate for the IP address dialed is accepted (its IP subjectAltName is checked)', async () => {
    const exec = await openMysqlExecutor(conn(byIp.instance, { ca: pki.read('ca.crt') }));
    await exec.close();
    await refused(
      conn(byIp.instance, { ca: pki.read('ca.crt'), servername: 'db.other.example' }),
      /does not name db\.other\.example/,
    );
  });

  test('servername sets the name checked: a wrong name is refused', async () => {
    await refused(
      conn(server.instance, { ca: pki.read('ca.crt'), servername: 'db.wrong.example' }),
      /TLS: the server certificate does not name db\.wrong\.example \(ERR_TLS_CERT_ALTNAME_INVALID\)/,
    );
  });

  test('a server certificate from another CA is refused', async () => {
    await refused(
      conn(server.instance, { ca: pki.read('other-ca.crt'), servername: 'db.other.example' }),
      /TLS: the server certificate is not signed by the given CA \([A-Z_]+\): check --mysql-tls-ca$/,
    );
  });

  test('a client certificate can be presented (mTLS)', async () => {
    const exec = await openMysqlExecutor(
      conn(server.instance, {
        ca: pki.read('ca.crt'),
        cert: pki.read('client.crt'),
        key: pki.read('client.key'),
        servername: 'db.other.example',
      }),
    );
    await exec.close();
  });

  test('a server without TLS fails closed when TLS is asked for', async () => {
    await refused(
      conn(pool.instance(0), { ca: pki.read('ca.crt') }),
      joinRegExp(
        /^cannot connect to 127\.0\.0\.1:\d+: TLS: the server does not /,
        /offer TLS, which was asked for \(HANDSHAKE_NO_SSL_SUPPORT\)/,
      ),
    );
  });
});
