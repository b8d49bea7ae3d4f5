/**
 * `vtpreflight config print`: the effective settings as a YAML config file, each value commented with where it
 * came from (flag, environment variable, config line, credentials file or default). Secrets are masked as
 * `********` and never printed; the output is otherwise a config file `--config` accepts.
 */
import { stringify } from 'yaml';
import { CONFIG_SHAPE, describeSource, SETTINGS, type Settings, type Source } from './settings.js';
import type { Shape } from './load.js';

/** What a secret is printed as. */
export const MASK = '********';

const DURATION_KEYS = new Set(SETTINGS.filter((d) => d.kind === 'duration').map((d) => d.key));
const SECRET_KEYS = new Set(SETTINGS.filter((d) => d.secret).map((d) => d.key));

/** Milliseconds as an exact duration the CLI parses back: `1m30s`, `1s500ms`, `0s`. */
export function exactDuration(ms: number): string {
  if (ms === 0) return '0s';
  const parts: string[] = [];
  let rest = ms;
  for (const [unit, size] of [
    ['h', 3_600_000],
    ['m', 60_000],
    ['s', 1000],
    ['ms', 1],
  ] as const) {
    const n = Math.floor(rest / size);
    if (n > 0) parts.push(`${n}${unit}`);
    rest -= n * size;
  }
  return parts.join('');
}

const scalar = (v: unknown): string => stringify(v, { lineWidth: 0 }).trimEnd();

function yamlValue(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(scalar).join(', ')}]`;
  return scalar(v);
}

function comment(s: Source): string {
  switch (s.kind) {
    case 'flag':
      return `flag ${s.name}`;
    case 'env':
      return `env ${s.name}`;
    case 'config':
      return `config ${s.file}:${s.line}`;
    case 'credentials':
      return `credentials file (${describeSource(s.from)})`;
    case 'default':
      return 'default';
  }
}

/** Renders the effective settings (see the module comment). */
export function renderConfig(settings: Settings): string {
  const lines: string[] = [
    '# vtpreflight effective configuration: flags > environment > config file > defaults; secrets masked',
  ];
  if (settings.configFile)
    lines.push(`# config file: ${settings.configFile.value} (${comment(settings.configFile.source)})`);
  const line = (indent: number, key: string, value: string, src: string) => {
    const text = `${'  '.repeat(indent)}${key}: ${value}`;
    lines.push(`${text.padEnd(44)} # ${src}`);
  };
  const walk = (shape: Shape, prefix: string, indent: number): void => {
    for (const [key, sub] of Object.entries(shape)) {
      const path = prefix === '' ? key : `${prefix}.${key}`;
      const at = lines.length;
      if (sub === 'map') {
        for (const [id, s] of settings.severities) line(indent + 1, id, s.value, comment(s.source));
      } else if (sub !== 'leaf') {
        walk(sub, path, indent + 1);
      } else if (path.startsWith('vtctld.auth.')) {
        const a = settings.auth;
        if (a === null) continue;
        if (a.source.kind === 'credentials') {
          if (key === 'credentialsFile')
            line(indent, key, scalar(a.source.file), `${comment(a.source.from)}; username ${a.username}`);
        } else if (key === 'username') {
          line(indent, key, scalar(a.username), comment(a.source));
        } else if (key === 'password') {
          line(indent, key, scalar(MASK), comment(a.source));
        }
        continue;
      } else if (path.endsWith('.passwordEnv')) {
        continue; // shown as the password's source
      } else {
        const s = settings.values.get(path);
        if (s === undefined) continue;
        let v: unknown = s.value;
        if (DURATION_KEYS.has(path) && typeof v === 'number') v = exactDuration(v);
        if (SECRET_KEYS.has(path) && v !== '') v = MASK;
        line(indent, key, yamlValue(v), comment(s.source));
        continue;
      }
      if (lines.length > at || sub === 'map')
        lines.splice(at, 0, `${'  '.repeat(indent)}${key}:${lines.length > at ? '' : ' {}'}`);
    }
  };
  walk(CONFIG_SHAPE, '', 0);
  return `${lines.join('\n')}\n`;
}
