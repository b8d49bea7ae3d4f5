/**
 * The inputs of `check`, as a registry: a new input source is one file in this directory and one line here. The
 * first input whose flag is given is read; with none, the live cluster. Two inputs' flags at once are a usage error.
 */
import type { Command } from 'commander';
import type { Settings } from '../../config/settings.js';
import { UsageError } from '../../errors.js';
import { liveInput } from './live.js';
import { snapshotInput } from './snapshot.js';
import type { InputSource } from './types.js';
import { workflowsJsonInput } from './workflows-json.js';

export type { InputSource, OpenInput, ReadContext } from './types.js';

/** Every input, those selected by a flag first (in the order their clashes are reported), the default last. */
export const INPUTS: readonly InputSource[] = [workflowsJsonInput, snapshotInput, liveInput];

/** Adds each input's selecting flag to `cmd`. */
export function addInputOptions(cmd: Command): Command {
  for (const input of INPUTS) if (input.option) cmd.addOption(input.option());
  return cmd;
}

/** The input a parsed command selects, and its flag value; validated against the settings (UsageError). */
export function selectInput(cmd: Command, s: Settings): { input: InputSource; value: unknown } {
  const opts = cmd.opts() as Record<string, unknown>;
  const given = INPUTS.flatMap((input) => {
    const o = input.option?.();
    if (o === undefined) return [];
    const value = opts[o.attributeName()];
    return value === undefined ? [] : [{ input, value, flag: o.long! }];
  });
  if (given.length > 1)
    throw new UsageError(`${given[0]!.flag} cannot be combined with ${given[1]!.flag}: it checks a file offline`);
  const chosen = given[0] ?? { input: INPUTS.find((i) => i.option === undefined)!, value: undefined };
  chosen.input.validate?.(chosen.value, s);
  return { input: chosen.input, value: chosen.value };
}
