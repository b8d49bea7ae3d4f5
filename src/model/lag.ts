/**
 * Stream lag by Vitess's rules. Newest: `vitessio/vitess:go/vt/vtctl/workflow/workflows.go`
 * `getVReplicationTrxLag` (PR #17616): `now − t`, `t = transaction_timestamp`, replaced by `time_updated` when 0 or
 * older; a stream stored as Copying counts as infinite (null here). v17–v20: `now − time_updated`.
 */
import type { Stream } from './types.js';

/** The newest rule's lag in seconds, or null for a stream stored as Copying (Vitess's MaxInt64). */
export function transactionLagSeconds(s: Stream, nowSeconds: number): number | null {
  if (s.state === 'Copying') return null;
  let t = s.transactionTimestamp;
  if (t === 0 || s.timeUpdated > t) t = s.timeUpdated;
  return nowSeconds - t;
}

/** The v17–v20 rule's lag in seconds. */
export function timeUpdatedLagSeconds(s: Stream, nowSeconds: number): number {
  return nowSeconds - s.timeUpdated;
}
