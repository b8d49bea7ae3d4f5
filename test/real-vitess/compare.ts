/**
 * How the real-Vitess suite compares vtpreflight's verdict with what Vitess did. Pure functions, unit-tested by
 * `test/real-vitess/compare.test.ts` (part of `npm test`, which needs no Go and no Vitess).
 *
 * What is normalised before two refusal texts are compared, and only that:
 * - vtctldclient's wrapper: v19 logs the error in glog form (`E1207 12:00:00.000000 1 main.go:56] rpc error:
 *   code = Unknown desc = …`), v24 as a JSON log line; both end with `desc = ` and Vitess's text, and only the
 *   text after the last `desc = ` is compared (the text itself, when there is no gRPC wrapper).
 * - numbers that change from run to run: durations and lag seconds (`12s`, `1.5s`, `300ms`), GTID positions
 *   (`MariaDB/0-100-5`, `0-100-5,0-200-9`), timestamps, stream ids (`id=3`, `stream 3`);
 * - the order of the items in a Go-printed list (`[-40 40-80]`), which Vitess takes from a map.
 * Nothing else: case, wording and punctuation must match.
 */

export interface RealOutcome {
  /** vtctldclient's exit code (null when it was killed at the time bound). */
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** The refusal text vtctldclient printed: the text after the last `desc = `, else its `Error: ` line, else ''. */
export function refusalText(out: RealOutcome): string {
  const all = `${out.stderr}\n${out.stdout}`;
  const lines = all.split('\n').map((l) => unwrapJsonLog(l.trim()));
  for (let i = lines.length - 1; i >= 0; i--) {
    const l = lines[i] ?? '';
    const at = l.lastIndexOf('desc = ');
    if (at < 0) continue;
    // An aggregated error (vterrors.Aggregate joins its parts with newlines) printed in glog form goes on over the
    // next lines, up to the next log line or the end; a JSON log line carries it whole.
    const rest: string[] = [];
    for (let j = i + 1; j < lines.length; j++) {
      const next = lines[j] ?? '';
      if (next === '' || LOG_LINE.test(next) || next.startsWith('{')) break;
      rest.push(next);
    }
    return [l.slice(at + 'desc = '.length), ...rest].join('\n').trim();
  }
  for (const l of lines) {
    if (l.startsWith('Error: ')) return l.slice('Error: '.length).trim();
  }
  for (const l of lines) {
    const m = /^[EF]\d{4} [\d:.]+\s+\d+ \S+:\d+\] (.*)$/.exec(l);
    if (m?.[1] !== undefined) return m[1].trim();
  }
  return '';
}

/** The start of a glog line (`E1207 12:00:00.000000 4242 main.go:56] `). */
const LOG_LINE = /^[IWEF]\d{4} [\d:.]+\s+\d+ \S+:\d+\] /;

/** A JSON log line's message (`{"level":"error","msg":"…"}`), else the line itself. */
function unwrapJsonLog(line: string): string {
  if (!line.startsWith('{')) return line;
  try {
    const o = JSON.parse(line) as Record<string, unknown>;
    for (const k of ['msg', 'message', 'error', 'err']) {
      const v = o[k];
      if (typeof v === 'string' && v.includes('desc = ')) return v;
    }
    for (const k of ['error', 'err', 'msg', 'message']) {
      const v = o[k];
      if (typeof v === 'string') return v;
    }
  } catch {
    // not JSON after all
  }
  return line;
}

/** The normalised form two texts are compared in (see the file comment for the list). */
export function normalise(text: string): string {
  return text
    .replace(/\b\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d(\.\d+)?( ?[+-]\d{4})?( ?[A-Z]{3}|Z)?/g, '<ts>')
    .replace(/\bMariaDB\/[\d,-]+/g, '<pos>')
    .replace(/\b\d+-\d+-\d+(,\d+-\d+-\d+)*\b/g, '<pos>')
    .replace(/\b\d+(\.\d+)?(ns|µs|us|ms|s|m|h)\b/g, '<dur>')
    .replace(/\b(id=|stream )\d+\b/g, '$1<id>')
    .replace(/\[([^[\]]*)\]/g, (_m, inner: string) => `[${inner.split(/\s+/).filter(Boolean).sort().join(' ')}]`)
    .replace(/\s+/g, ' ')
    .trim();
}

export type Verdict = 'blocked' | 'unverified' | 'at-risk' | 'ready';

export interface Judgement {
  readonly agree: boolean;
  /** Both refused, with the same normalised text: a quoted template reproduced. */
  readonly textReproduced: boolean;
  /** One line: why they agree or not. */
  readonly why: string;
}

/**
 * The suite's rule (`breaks` aside: a state where Vitess proceeds and breaks serving, which vtpreflight must block
 * without a quote): `blocked` ⇔ Vitess refused, and then the quoted text equals Vitess's after {@link normalise};
 * `ready` or `at-risk` (warnings only) ⇒ Vitess proceeded. `unverified` agrees with nothing: on this cluster every
 * part vtpreflight needs is readable by its least-privilege user, so a workflow it cannot judge is a disagreement
 * whichever way Vitess went.
 */
export function judge(verdict: Verdict, quoted: string | null, out: RealOutcome, breaks = false): Judgement {
  const refused = out.code !== 0;
  const said = refusalText(out);
  // A state where Vitess proceeds and breaks serving: vtpreflight must block it without a quote (nothing refuses).
  if (breaks && !refused) {
    return verdict === 'blocked' && quoted === null
      ? { agree: true, textReproduced: false, why: 'Vitess proceeded and broke what vtpreflight said it would' }
      : { agree: false, textReproduced: false, why: `vtpreflight ${verdict}; Vitess proceeded and broke serving` };
  }
  if (verdict === 'unverified') {
    return {
      agree: false,
      textReproduced: false,
      why: `vtpreflight unverified; Vitess ${refused ? `refused: ${said}` : 'proceeded'}`,
    };
  }
  if (verdict === 'blocked' && !refused) {
    return {
      agree: false,
      textReproduced: false,
      why: `vtpreflight blocked (${quoted ?? 'no text'}); Vitess proceeded`,
    };
  }
  if (verdict !== 'blocked' && refused) {
    return { agree: false, textReproduced: false, why: `vtpreflight ${verdict}; Vitess refused: ${said}` };
  }
  if (!refused) return { agree: true, textReproduced: false, why: `both proceed (vtpreflight ${verdict})` };
  if (quoted === null) {
    return { agree: false, textReproduced: false, why: `vtpreflight blocked without a quote; Vitess: ${said}` };
  }
  if (normalise(quoted) !== normalise(said)) {
    return { agree: false, textReproduced: false, why: `texts differ: vtpreflight "${quoted}" / Vitess "${said}"` };
  }
  return { agree: true, textReproduced: true, why: `both refuse: ${said}` };
}
