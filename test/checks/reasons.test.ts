/**
 * The declared failure modes against upstream Vitess: every reason a check declares either names the exact Vitess
 * error template it predicts, found as a literal string at the upstream file and line it cites, or is heuristic with
 * one sentence of rationale; and every step is one of Vitess's steps.
 *
 * The cited upstream lines are kept as fixtures in test/checks/upstream/<path with / as __>.lines, copied verbatim
 * with their line numbers and the commit they were read at (`# vitessio/vitess <path> @ <commit>` on the first
 * line). A citation whose line is not copied yet is reported as a todo naming what to copy, never as a pass; a
 * copied line that does not hold the template fails.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { CHECKS } from '../../checks/index.js';
import type { Reason, VitessText, VitessWrap } from '../../src/engine/check.js';
import { ACTION_STEPS, VITESS_STEPS } from '../../src/engine/steps.js';
import { upstreamFixture } from '../../scripts/upstream-fixtures.js';
import { repoRoot } from '../helpers/paths.js';

/** The fixture of one upstream file (scripts/upstream-fixtures.ts). */
const fixture = (file: string, release?: string) => upstreamFixture(repoRoot, file, release);

/** How Go writes `s` in an interpreted string literal (the escapes upstream templates use). */
const goLiteral = (s: string): string =>
  `"${s.replaceAll('\\', '\\\\').replaceAll('"', '\\"').replaceAll('\n', '\\n')}"`;

/** Asserts that `literal` is a Go string literal on `file:line`; returns false when the file has no fixture yet. */
function assertLiteralAt(literal: string, file: string, line: number, what: string, release?: string): boolean {
  const f = fixture(file, release);
  if (f === null) return false;
  const text = f.lines.get(line);
  assert.ok(text !== undefined, `${what}: ${file}:${line} is not in its fixture (copy the line from @${f.commit})`);
  assert.ok(
    text.includes(goLiteral(literal)) || text.includes(`\`${literal}\``),
    `${what}: ${file}:${line} does not hold the literal ${goLiteral(literal)}:\n  ${text}`,
  );
  return true;
}

/** The outer literal of a wrapped template: the template with the sentinel's text replaced by a verb. */
function outerLiteral(v: Pick<VitessText, 'template' | 'wraps'>): string[] {
  if (v.wraps === undefined) return [v.template];
  const i = v.template.indexOf(v.wraps.literal);
  assert.ok(i >= 0, `template ${JSON.stringify(v.template)} does not contain its wrapped ${v.wraps.literal}`);
  return ['%w', '%v', '%s'].map(
    (verb) => v.template.slice(0, i) + verb + v.template.slice(i + v.wraps!.literal.length),
  );
}

/**
 * True when `text` is a `vterrors.Wrap(err, "P")` / `Wrapf(err, "P")` and `template` is `P: <inner>`: vterrors prints
 * a wrap as `P: <err>` (go/vt/vterrors/errors.go, Wrap), so the wrapper's literal holds no verb. `inner` is the wrapped
 * literal, or `%v` when the wrapped error is not Vitess's own text (a Go library error). `switchWrites`' own
 * `handleError("P", err)` / `handleError(fmt.Sprintf("P", …), err)` counts too: it is `vterrors.Wrap(err, message)`
 * (`go/vt/vtctl/workflow/server.go:3072` @006b7393, copied in the fixture).
 */
function wrapsWithPrefix(template: string, inner: string, text: string): boolean {
  if (!template.endsWith(`: ${inner}`)) return false;
  const prefix = template.slice(0, template.length - inner.length - 2);
  const escaped = goLiteral(prefix).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return (
    // The wrapped error is a variable, or an error made of a message built earlier (`fmt.Errorf(validation.msg)`).
    new RegExp(`\\bWrapf?\\((?:\\w+|fmt\\.Errorf\\([\\w.]+\\)), ${escaped}\\)`).test(text) ||
    // Wrapf with the prefix's own arguments after it (on the same or the next line).
    (/%[svdq]/.test(prefix) && new RegExp(`\\bWrapf\\(\\w+, ${escaped},`).test(text)) ||
    new RegExp(`\\bhandleError\\((?:fmt\\.Sprintf\\()?${escaped}[,)]`).test(text) ||
    // defaultErrorHandler(logger, message, err) is vterrors.Wrap(err, message) (utils.go:985 @v0.24.4).
    new RegExp(`\\bdefaultErrorHandler\\([\\w.()]+, (?:fmt\\.Sprintf\\()?${escaped}[,)]`).test(text)
  );
}

/** Asserts that a wrapped level's literal is at its line, directly or as a Wrap prefix around its own `wraps`. */
function assertWrapHeld(w: VitessWrap, what: string, release?: string): void {
  const f = fixture(w.file, release);
  const text = f?.lines.get(w.line);
  assert.ok(text !== undefined, `${what}: ${w.file}:${w.line} is not in its fixture`);
  if (text.includes(goLiteral(w.literal)) || text.includes(`\`${w.literal}\``)) return;
  // A level that formats its inner text with a verb (`Errorf("P: %s", res.GetError())`), like a reason's outer line.
  if (
    w.wraps !== undefined &&
    outerLiteral({ template: w.literal, wraps: w.wraps }).some((o) => text.includes(goLiteral(o)))
  ) {
    assertWrapHeld(w.wraps, what, release);
    return;
  }
  assert.ok(
    wrapsWithPrefix(w.literal, w.wraps?.literal ?? '%v', text),
    `${what}: ${w.file}:${w.line} does not hold ${goLiteral(w.literal)} (nor a Wrap prefix of it):\n  ${text}`,
  );
  if (w.wraps !== undefined) assertWrapHeld(w.wraps, what, release);
}

/** Every place a reason cites (its line, then each wrapped level's). */
function citedPlaces(v: VitessText): { file: string; line: number }[] {
  const out = [{ file: v.file, line: v.line }];
  for (let w = v.wraps; w !== undefined; w = w.wraps) out.push({ file: w.file, line: w.line });
  return out;
}

describe('declared reasons', () => {
  for (const check of CHECKS) {
    for (const [id, r] of Object.entries(check.reasons) as [string, Reason][]) {
      const what = `${check.id} › ${id}`;
      const v = r.vitess;
      const copied = (file: string, line: number) => fixture(file, v?.release)?.lines.has(line) === true;
      const pending = v !== undefined && citedPlaces(v).some((p) => !copied(p.file, p.line));
      it(
        what,
        pending
          ? { todo: `copy ${v!.file}:${v!.line} into test/checks/upstream/${v!.release ?? ''} (not copied yet)` }
          : {},
        () => {
          assert.ok((VITESS_STEPS as readonly string[]).includes(r.step), `${what}: unknown step ${r.step}`);
          for (const a of r.actions ?? [])
            assert.ok(
              ACTION_STEPS[a].includes(r.step),
              `${what}: lists --action ${a}, which never runs its step ${r.step} (src/engine/steps.ts ACTION_STEPS)`,
            );
          assert.match(id, /^[a-z][a-zA-Z0-9]*$/, `${what}: reason ids are camelCase`);
          if (v === undefined) {
            assert.equal(r.heuristic, true, `${what}: a reason without a Vitess template must be heuristic`);
            assert.match(r.rationale, /^\S.*\.$/s, `${what}: the rationale is one sentence ending with a period`);
            assert.ok(!/\.\s+[A-Z]/.test(r.rationale.slice(0, -1)), `${what}: the rationale is one sentence`);
            return;
          }
          assert.ok(v.versions.from >= 1 && (v.versions.to === undefined || v.versions.to >= v.versions.from));
          if (pending) return; // reported as todo above: nothing copied to compare with
          if (v.wraps !== undefined) assertWrapHeld(v.wraps, `${what} (wrapped)`, v.release);
          const outers = outerLiteral(v);
          const f = fixture(v.file, v.release)!;
          const text = f.lines.get(v.line);
          assert.ok(
            text !== undefined,
            `${what}: ${v.file}:${v.line} is not in its fixture (copy it from @${f.commit})`,
          );
          assert.ok(
            outers.some((o) => text.includes(goLiteral(o))) ||
              wrapsWithPrefix(v.template, v.wraps?.literal ?? '%v', text),
            `${what}: ${v.file}:${v.line} does not hold ${outers.map(goLiteral).join(' or ')}:\n  ${text}`,
          );
        },
      );
    }
  }
});

describe('the check tester asserts the templates', () => {
  it('a template that is not the cited literal fails (the meta-test can fail)', () => {
    assert.throws(() => assertLiteralAt('copy is NOT in progress', 'go/vt/vtctl/workflow/server.go', 102, 'probe'));
    assert.throws(() => assertLiteralAt('copy is still in progress', 'go/vt/vtctl/workflow/server.go', 101, 'probe'));
    assert.equal(assertLiteralAt('copy is still in progress', 'go/vt/vtctl/workflow/server.go', 102, 'probe'), true);
  });
  it("a release's text is read from that release's lines, and only from them", () => {
    const old = 'cannot cancel workflow because you have already switched some or all read and write traffic';
    assert.equal(assertLiteralAt(old, 'go/vt/vtctl/workflow/server.go', 151, 'probe', 'v0.21.5'), true);
    assert.throws(() => assertLiteralAt(old, 'go/vt/vtctl/workflow/server.go', 138, 'probe', 'v0.21.5'));
    assert.throws(() => assertLiteralAt(old, 'go/vt/vtctl/workflow/server.go', 151, 'probe'));
    assert.equal(assertLiteralAt(old, 'go/vt/vtctl/workflow/server.go', 138, 'probe', 'v0.19.10'), true);
  });
  it('a Wrap prefix matches only the template that starts with it', () => {
    const line = '\t\t\treturn nil, vterrors.Wrap(err, "blsIsReference")';
    const inner = 'table %v not found in vschema';
    assert.equal(wrapsWithPrefix('blsIsReference: table %v not found in vschema', inner, line), true);
    assert.equal(wrapsWithPrefix('blsIsRef: table %v not found in vschema', inner, line), false);
    assert.equal(wrapsWithPrefix('blsIsReference table %v not found in vschema', inner, line), false);
    assert.equal(wrapsWithPrefix('blsIsReference: table %v not found', inner, line), false);
  });
  it('defaultErrorHandler(logger, P, err) and Wrapf(err, P, args) are Wrap prefixes, of their own literal only', () => {
    const inner = 'keyspace partition for %v in cell %v does not start with min key';
    const deh = '\t\treturn defaultErrorHandler(ts.Logger(), "failed to switch read traffic for the shards", err)';
    assert.equal(wrapsWithPrefix(`failed to switch read traffic for the shards: ${inner}`, inner, deh), true);
    assert.equal(wrapsWithPrefix(`failed to switch read traffic for the tables: ${inner}`, inner, deh), false);
    const wf =
      '\t\terr2 := vterrors.Wrapf(err, "Before switching shard reads, found SrvKeyspace for %s is corrupt in cell %s",';
    const t = `Before switching shard reads, found SrvKeyspace for %s is corrupt in cell %s: ${inner}`;
    assert.equal(wrapsWithPrefix(t, inner, wf), true);
    assert.equal(wrapsWithPrefix(t.replace('cell %s', 'cells %s'), inner, wf), false);
  });
  it("switchWrites' handleError(fmt.Sprintf(P, …), err) is a Wrap prefix too, of its own literal only", () => {
    const line =
      '\t\t\treturn handleError(fmt.Sprintf("no tablets were available to stream from in the %s keyspace", ts.TargetKeyspaceName()), err)';
    const inner = 'no tablet found to source data in keyspace %s, shard %s';
    const ok = `no tablets were available to stream from in the %s keyspace: ${inner}`;
    assert.equal(wrapsWithPrefix(ok, inner, line), true);
    assert.equal(wrapsWithPrefix(`no tablets were available in the %s keyspace: ${inner}`, inner, line), false);
    assert.equal(
      wrapsWithPrefix(
        ok,
        inner,
        '\t\treturn other(fmt.Sprintf("no tablets were available to stream from in the %s keyspace"), err)',
      ),
      false,
    );
  });
  it('a level that formats its inner text with a verb holds only its own literal', () => {
    const inner = {
      literal: 'user %s does not have %s permission on %s.vreplication table on tablet %s: %v',
      file: 'go/vt/vttablet/tabletmanager/rpc_vreplication.go',
      line: 990,
    };
    const level = (literal: string): VitessWrap => ({
      literal: `${literal}: ${inner.literal}`,
      file: 'go/vt/vtctl/workflow/server.go',
      line: 3801,
      wraps: inner,
    });
    assert.doesNotThrow(() =>
      assertWrapHeld(level('failed to validate required vreplication metadata permissions'), 'probe', 'v0.24.4'),
    );
    assert.throws(() => assertWrapHeld(level('failed to validate vreplication permissions'), 'probe', 'v0.24.4'));
  });
  it('a wrapped level that is not at its line fails', () => {
    const w = (line: number): VitessWrap => ({
      literal: 'failed to read workflow options: inconsistent workflow options on target shard %s/%s',
      file: 'go/vt/vtctl/workflow/lookup_vindex.go',
      line: 740,
      wraps: {
        literal: 'inconsistent workflow options on target shard %s/%s',
        file: 'go/vt/vtctl/workflow/lookup_vindex.go',
        line,
      },
    });
    assert.doesNotThrow(() => assertWrapHeld(w(733), 'probe'));
    assert.throws(() => assertWrapHeld(w(744), 'probe'));
  });
});
