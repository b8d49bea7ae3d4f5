/**
 * The contract of a `check` input: where the readout comes from (a live cluster, a snapshot file, vtctldclient JSON).
 * An input declares its flag and turns the settings into a reader; `check` never knows which one it runs.
 */
import type { Option } from 'commander';
import type { Settings } from '../../config/settings.js';
import type { Progress } from '../progress.js';
import type { Readout } from '../../readout.js';

/** What a reader needs at read time. */
export interface ReadContext {
  readonly progress: Progress;
  /** The run number under `--wait` (1 for the first run); `null` without `--wait`. */
  readonly round: number | null;
  /** A warning about the input, one line on stderr (nothing with `--quiet`). */
  readonly warn: (line: string) => void;
}

/** An input ready to read: validated, files such as TLS certificates loaded, no network touched yet. */
export interface OpenInput {
  /** The snapshot file to name in the report's `target.snapshot` (`null`: none). */
  readonly snapshot: string | null;
  /** True when the report's `startedAt` is the readout's capture time (a snapshot), not the start of this run. */
  readonly startsAtCapture: boolean;
  /** How the report names this input when the readout lacks parts (topology, tablets …) the checks need. */
  readonly lacksSource: string;
  read(ctx: ReadContext): Promise<Readout>;
}

/** One input source of `check`. */
export interface InputSource {
  readonly name: string;
  /**
   * The flag that selects this input (its attribute name is the camelCased flag). Absent for the default input,
   * the live cluster, which runs when no other input's flag is given.
   */
  readonly option?: () => Option;
  /** Rejects settings that make no sense with this input (UsageError, before any I/O). */
  validate?(value: unknown, s: Settings): void;
  /** Prepares reading: validates what needs files read (UsageError), touches no network. */
  open(value: unknown, s: Settings): OpenInput;
}
