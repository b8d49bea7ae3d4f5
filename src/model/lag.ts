/**
 * Stream lag by the rules Vitess has used for SwitchTraffic's `replication lag %ds is higher than allowed lag %ds`.
 *
 * - `getVReplicationTrxLag` (PR #17616, merged as 39a0ddde8f with the heartbeat equality, and the same in each
 *   release branch read: `vitessio/vitess` `go/vt/vtctl/workflow/server.go:3913` @v0.19.10, `server.go:4055`
 *   @v0.20.8, `server.go:4530` @v0.21.3, `server.go:4507` @v0.21.4, `workflows.go:658` @v0.22.1): `t =
 *   transaction_timestamp`, replaced by `time_updated` only when it is 0 or when the last update was a heartbeat
 *   (`time_updated == time_heartbeat`) newer than `t`. `GenerateUpdatePos` (`go/vt/binlog/binlogplayer/
 *   binlog_player.go`) bumps `time_updated` on every applied transaction without touching `time_heartbeat`;
 *   `GenerateUpdateHeartbeat` sets both to the same value; `GenerateUpdateTimeThrottled` sets only `time_updated`.
 *   So a stream applying a backlog, or throttled, keeps its transaction lag. A stream whose stored state is Copying
 *   counts as `math.MaxInt64` (null here). v20.0.6 and v20.0.7, the first patch releases of the 20 line with the
 *   backport, cannot be read (the Go module proxy refuses those versions): they are judged by this rule too, the
 *   stricter one (a heartbeat-less form would read a backlogged stream as caught up).
 * - Before the backports (`server.go` `canSwitch` of v17–v20 and the early patch releases): per stream
 *   `now − time_updated`, see `timeUpdatedLagSeconds`.
 */
import type { Stream } from './types.js';

/**
 * The releases of each lag rule, for `pickRule`: before vitessio/vitess#17616's backports `canSwitch` compared each
 * stream's `now − time_updated` (`perStreamTimeUpdated`); from them (backport labels release-19.0, 20.0, 21.0; the
 * patch releases are read from the release changelogs) `getVReplicationTrxLag` with the heartbeat equality
 * (`transaction`), read in every release branch (see the module comment).
 */
export const LAG_RULE_VERSIONS = {
  perStreamTimeUpdated: '<19.0.10 || >=20 <20.0.6 || >=21 <21.0.3',
  transaction: '>=19.0.10 <20 || >=20.0.6 <21 || >=21.0.3',
} as const;

/** The transaction lag in seconds (`getVReplicationTrxLag`), or null for a stream stored as Copying (MaxInt64). */
export function transactionLagSeconds(s: Stream, nowSeconds: number): number | null {
  if (s.state === 'Copying') return null;
  let t = s.transactionTimestamp;
  // `lastTransactionTime == 0 || (lastUpdateTime == lastHeartbeatTime && lastUpdateTime > lastTransactionTime)`.
  // A missing time_heartbeat column reads as 0 (nil vttime.Time).
  const hb = s.timeHeartbeat ?? 0;
  if (t === 0 || (s.timeUpdated === hb && s.timeUpdated > t)) t = s.timeUpdated;
  return int64Lag(nowSeconds, t);
}

/** The pre-PR #17616 rule (`canSwitch`, v17–v20): seconds since the row was last updated. */
export function timeUpdatedLagSeconds(s: Stream, nowSeconds: number): number {
  return int64Lag(nowSeconds, s.timeUpdated);
}

const TWO_63 = 2 ** 63;

/**
 * `now − t` as Vitess computes it: int64 seconds, wrapping on overflow (`float64(now - lastTransactionTime)` in
 * `vitessio/vitess` `go/vt/vtctl/workflow/workflows.go:685 @v0.22.4`), then back to int64 for the comparison, where
 * a float64 of 2^63 or more becomes MinInt64 on amd64. A timestamp far in the past or future (a hostile or corrupt
 * row) thus gives the lag Vitess would compare, not a float beyond int64.
 */
export function int64Lag(nowSeconds: number, t: number): number {
  const plain = nowSeconds - t;
  if (Number.isSafeInteger(nowSeconds) && Number.isSafeInteger(t) && Number.isSafeInteger(plain)) return plain;
  const at = Number.isFinite(t) ? BigInt(Math.trunc(t)) : 0n;
  const wrapped = Number(BigInt.asIntN(64, BigInt(Math.trunc(nowSeconds)) - BigInt.asIntN(64, at)));
  return wrapped >= TWO_63 ? -TWO_63 : wrapped;
}

/** A lag in whole seconds as Go's `%d` prints it: every digit, never `1e+21` or a rounded `…000`. */
export function lagText(seconds: number): string {
  return Number.isSafeInteger(seconds) || !Number.isFinite(seconds)
    ? String(seconds)
    : BigInt(Math.trunc(seconds)).toString();
}
