/**
 * The check contract (STYLE.md §2): a check is a pure, synchronous function of the model and options.
 * The runner stamps `check`, the default `severity` and `predicts` on every finding it returns.
 */
import type { ClusterModel, Stream } from '../model/types.js';
import type { ReadoutPart } from '../readout.js';
import type { CheckOptions } from './options.js';

import type { Severity } from './severity.js';

export { SEVERITIES, type Severity } from './severity.js';

/** A finding as a check returns it: location and evidence; the runner adds the rest. */
export interface CheckFinding {
  readonly message: string;
  /** Only to deviate from the check's default severity. */
  readonly severity?: Severity;
  readonly keyspace?: string;
  readonly shard?: string;
  readonly workflow?: string;
  readonly streamId?: number;
  readonly tablet?: string;
  /** Evidence; `reason` (camelCase) names the failure mode when a check has several. */
  readonly details?: Readonly<Record<string, unknown>>;
}

/** A finding in the report (DESIGN.md JSON contract). */
export interface Finding extends CheckFinding {
  readonly check: string;
  readonly severity: Severity;
  readonly predicts?: string;
}

export interface Check {
  /** kebab-case, stable forever. */
  readonly id: string;
  readonly title: string;
  readonly severity: Severity;
  /** The Vitess error text this check predicts, if any. */
  readonly predicts?: string;
  /** Markdown: why it matters, which Vitess error it predicts, with the upstream file. */
  readonly description: string;
  /** Markdown: what to do, in full sentences ending with a period. */
  readonly remediation: string;
  /**
   * The readout parts the check cannot judge without (absent = none beyond the streams). The runner skips the
   * check, with a reason, when the readout lacks one of them (e.g. `check --workflows-json`).
   */
  readonly needs?: readonly ReadoutPart[];
  run(model: ClusterModel, options: CheckOptions): readonly CheckFinding[];
}

/** Every location field of a finding about one stream: where the row lives and whose it is. */
export function streamLocation(
  s: Stream,
): Required<Pick<CheckFinding, 'keyspace' | 'shard' | 'workflow' | 'streamId' | 'tablet'>> {
  return { keyspace: s.keyspace, shard: s.shard, workflow: s.workflow, streamId: s.id, tablet: s.tablet };
}

/** Identity helper that only supplies types. */
export function defineCheck(check: Check): Check {
  return check;
}
