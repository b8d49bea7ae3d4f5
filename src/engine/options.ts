/** Check options and their defaults: defaults live here and nowhere else. */
import { DEFAULT_LAG_RULE, type LagRule } from '../model/lag.js';
import type { Severity } from './check.js';

export interface CheckOptions {
  /** `--max-lag` in seconds (SwitchTraffic's `--max-replication-lag-allowed`, default 30s). */
  readonly maxLagSeconds: number;
  /**
   * Which `getVReplicationTrxLag` rule the judged Vitess runs (`src/model/lag.ts`); the newest by default. Set from
   * the Vitess version when it is known.
   */
  readonly lagRule: LagRule;
  /**
   * Which Externalize the judged Vitess runs: `v22` (`release-22.0` `server.go` `LookupVindexExternalize`: one vindex
   * named like the workflow, exactly one filter rule per stream) or `v23` (PR #17566 on `main`: the vindexes of the
   * workflow options, any number of rules). The newest by default; set from the Vitess version when it is known.
   */
  readonly externalizeRule: 'v22' | 'v23';
  /** Severity overrides by check id (`--severity ID=LEVEL`). */
  readonly severities: Readonly<Record<string, Severity>>;
  /** `--only` check ids (empty = all). */
  readonly only: readonly string[];
  /** `--skip` check ids. */
  readonly skip: readonly string[];
}

export const DEFAULT_MAX_LAG_SECONDS = 30;
export const DEFAULT_CONCURRENCY = 32;
export const DEFAULT_TIMEOUT_MS = 10_000;

export const DEFAULT_CHECK_OPTIONS: CheckOptions = Object.freeze({
  maxLagSeconds: DEFAULT_MAX_LAG_SECONDS,
  lagRule: DEFAULT_LAG_RULE,
  externalizeRule: 'v23',
  severities: Object.freeze({}),
  only: Object.freeze([]) as readonly string[],
  skip: Object.freeze([]) as readonly string[],
});

export function withDefaults(partial: Partial<CheckOptions> = {}): CheckOptions {
  return { ...DEFAULT_CHECK_OPTIONS, ...partial };
}
