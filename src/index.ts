/**
 * The library entry (docs/design.md "The library"): the pure Vitess primitives and `runChecks`.
 * Semantics, string forms and equality are exactly Vitess's; invalid input throws an `Error` with a one-line message.
 */
import { CHECKS } from '../checks/index.js';
import type { Report } from './engine/report.js';
import { withDefaults, type CheckOptions } from './engine/options.js';
import { runModelChecks, sweepChecks, type FailOn } from './engine/run.js';
import { buildModel } from './model/build.js';
import type { Readout } from './readout.js';
import { withReadErrorKinds } from './sources/read-kind.js';
import { VERSION } from './version.js';

export { parseBinlogSource, binlogSourceToText } from './vitess/binlog-source.js';
export type { BinlogSource, Filter, Rule, OnDdlAction } from './vitess/binlog-source.js';
export { parseGtidSet, parsePosition } from './vitess/position.js';
export type { GtidSet, Position, GtidFlavor } from './vitess/position.js';
export {
  parseKeyRange,
  keyRangesIntersect,
  keyRangeContains,
  keyRangeEqual,
  keyRangeString,
} from './vitess/keyrange.js';
export type { KeyRange } from './vitess/keyrange.js';
export type { Readout } from './readout.js';
export type { Report, CheckResult, WorkflowVerdict } from './engine/report.js';
export type { Finding, Severity, Check } from './engine/check.js';
export type { CheckOptions } from './engine/options.js';
export { CHECKS } from '../checks/index.js';

/** Options of {@link runChecks}: check options plus the `--fail-on` level that decides the exit code. */
export interface RunChecksOptions extends Partial<CheckOptions> {
  readonly failOn?: FailOn;
}

/**
 * Checks a readout (from `vtpreflight snapshot` or a live collection) with every registered check and returns
 * the JSON report object. Pure: same readout and options, same report (but for `durationMs`).
 */
export function runChecks(readout: Readout, options: RunChecksOptions = {}): Report {
  const t0 = performance.now();
  // A readout older than `ReadError.kind` (or made by hand) gets the kinds its failures' fields say, like a snapshot.
  const model = buildModel(withReadErrorKinds(readout));
  const { failOn = 'error', ...rest } = options;
  // `sweep: true` is `vtpreflight sweep`: the leftovers group over every keyspace, no per-workflow verdicts.
  return runModelChecks(model, rest.sweep ? sweepChecks(CHECKS) : CHECKS, withDefaults(rest), {
    ...(rest.sweep ? { sweep: true } : {}),
    toolVersion: VERSION,
    snapshot: null,
    startedAt: readout.capturedAt,
    elapsedMs: performance.now() - t0,
    failOn,
  });
}
