/**
 * The upstream Vitess lines kept as fixtures in test/checks/upstream/ (one `<path with / as __>.lines` file per
 * upstream file: `# vitessio/vitess <path> @ <commit>`, then `<line>: <text>` copied verbatim). Read by the fidelity
 * meta-test (test/checks/reasons.test.ts) and by the README generator.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface UpstreamFixture {
  readonly commit: string;
  readonly lines: ReadonlyMap<number, string>;
}

/**
 * The fixture of one upstream file, or null when none is kept; throws on a malformed fixture. With `release` (a Go
 * module version such as `v0.19.10`): the lines of that release, kept in test/checks/upstream/<release>/ with
 * `# vitessio/vitess <path> @ <release>` as their first line.
 */
export function upstreamFixture(root: string, file: string, release?: string): UpstreamFixture | null {
  const dir = join(root, 'test', 'checks', 'upstream', ...(release === undefined ? [] : [release]));
  const path = join(dir, `${file.replaceAll('/', '__')}.lines`);
  if (!existsSync(path)) return null;
  const text = readFileSync(path, 'utf8').split('\n');
  const head = /^# vitessio\/vitess (\S+) @ ([0-9a-f]{40}|v0\.[0-9]+\.[0-9]+)$/.exec(text[0] ?? '');
  const at = release ?? '<commit>';
  if (!head || head[1] !== file || (release !== undefined && head[2] !== release))
    throw new Error(`${path}: first line must be "# vitessio/vitess ${file} @ ${at}"`);
  if (release === undefined && !/^[0-9a-f]{40}$/.test(head[2]!))
    throw new Error(`${path}: a fixture outside a release directory names a commit`);
  const lines = new Map<number, string>();
  for (const l of text.slice(1)) {
    if (l === '' || l.startsWith('#')) continue;
    const m = /^(\d+): (.*)$/.exec(l);
    if (!m) throw new Error(`${path}: not "<line>: <text>": ${l}`);
    lines.set(Number(m[1]), m[2]!);
  }
  return { commit: head[2]!, lines };
}

/** `(file, line, release?) → copied?` over the fixtures under `root`. */
export function copiedUpstream(root: string): (file: string, line: number, release?: string) => boolean {
  return (file, line, release) => upstreamFixture(root, file, release)?.lines.has(line) === true;
}
