/**
 * Known error kinds and their exit codes. Any other error is a bug: one line, "please report", exit 2.
 */

/** A bad flag, config value or check id: exit 2, before any I/O. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** The tool could not collect at all (vtctld unreachable, unreadable snapshot): exit 2. */
export class CollectError extends Error {
  override readonly name = 'CollectError';
}
