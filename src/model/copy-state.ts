/** What a stream's `_vt.copy_state` rows say, with "not read" kept apart from "no rows". */
import type { Stream } from './types.js';

/**
 * The tables the stream still copies: `[]` when copy_state was read and has no row for it, null when copy_state could
 * not be read (`unreachable` reports that read; a check must not take it for "done copying").
 */
export function copyTablesLeft(s: Stream): readonly string[] | null {
  return s.copyTables.ok ? s.copyTables.value : null;
}

/** Still copying as far as was read: stored state `Copying`, or copy_state rows left. Unknown rows count as none. */
export function isCopyingAsRead(s: Stream): boolean {
  return s.state === 'Copying' || (copyTablesLeft(s)?.length ?? 0) > 0;
}
