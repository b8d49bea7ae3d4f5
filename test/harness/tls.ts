/**
 * Throwaway certificates for TLS tests, made with the `openssl` CLI at test time (nothing is committed): a CA the
 * client trusts, a second CA it does not, and leaf certificates signed by either, each with the subjectAltName
 * entries the test asks for. EC P-256 keys keep generation to a few milliseconds per certificate.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** True when the `openssl` CLI can be run (TLS tests skip without it). */
export const hasOpenssl = spawnSync('openssl', ['version']).status === 0;

/** One leaf certificate to make. */
export interface LeafSpec {
  /** File stem: `<name>.crt`, `<name>.key`. */
  readonly name: string;
  /** `serverAuth` or `clientAuth`. */
  readonly usage: 'server' | 'client';
  /** subjectAltName entries, e.g. `['DNS:db.other.example', 'IP:127.0.0.1']`; none for a client. */
  readonly san?: readonly string[];
  /** Sign with the untrusted CA (`other-ca`) instead of `ca`. */
  readonly untrusted?: boolean;
}

/** The files made, by stem; paths are absolute. */
export interface TestPki {
  readonly dir: string;
  /** The CA the client is given (`ca.crt`). */
  readonly caFile: string;
  /** A CA that signed nothing the client should accept (`other-ca.crt`). */
  readonly otherCaFile: string;
  /** `<dir>/<stem>`. */
  file(stem: string): string;
  read(stem: string): Buffer;
  /** Removes the directory. */
  remove(): void;
}

/** Makes a CA, an untrusted CA and the given leaves in a fresh temporary directory. Throws on openssl failure. */
export function makeTestPki(leaves: readonly LeafSpec[]): TestPki {
  const dir = mkdtempSync(join(tmpdir(), 'vtpreflight-pki-'));
  const run = (args: string[]): void => {
    const r = spawnSync('openssl', args, { cwd: dir, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`openssl ${args.join(' ')} failed: ${r.stderr}`);
  };
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  for (const ca of ['ca', 'other-ca']) {
    run([
      'req',
      '-x509',
      ...ec,
      '-keyout',
      `${ca}.key`,
      '-out',
      `${ca}.crt`,
      '-days',
      '2',
      '-subj',
      `/CN=vtpreflight test ${ca}`,
      '-addext',
      'basicConstraints=critical,CA:TRUE',
      '-addext',
      'keyUsage=critical,keyCertSign,cRLSign',
    ]);
  }
  for (const leaf of leaves) {
    const ext = [
      `extendedKeyUsage=${leaf.usage === 'server' ? 'serverAuth' : 'clientAuth'}`,
      ...(leaf.san && leaf.san.length > 0 ? [`subjectAltName=${leaf.san.join(',')}`] : []),
    ];
    writeFileSync(join(dir, `${leaf.name}.ext`), `${ext.join('\n')}\n`);
    const cn = leaf.san?.[0]?.replace(/^[A-Z]+:/, '') ?? leaf.name;
    run(['req', ...ec, '-keyout', `${leaf.name}.key`, '-out', `${leaf.name}.csr`, '-subj', `/CN=${cn}`]);
    const ca = leaf.untrusted ? 'other-ca' : 'ca';
    run([
      'x509',
      '-req',
      '-in',
      `${leaf.name}.csr`,
      '-CA',
      `${ca}.crt`,
      '-CAkey',
      `${ca}.key`,
      '-CAcreateserial',
      '-out',
      `${leaf.name}.crt`,
      '-days',
      '2',
      '-extfile',
      `${leaf.name}.ext`,
    ]);
  }
  const file = (stem: string) => join(dir, stem);
  return {
    dir,
    caFile: file('ca.crt'),
    otherCaFile: file('other-ca.crt'),
    file,
    read: (stem) => readFileSync(file(stem)),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
