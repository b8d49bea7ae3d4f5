/** `check --snapshot FILE`: a readout written by `vtpreflight snapshot`, checked offline. */
import { Option } from 'commander';
import { get } from '../../config/settings.js';
import { UsageError } from '../../errors.js';
import { readSnapshot } from '../../sources/snapshot.js';
import type { InputSource } from './types.js';

export const snapshotInput: InputSource = {
  name: 'snapshot',
  option: () => new Option('--snapshot <file>', 'check a snapshot file offline instead of a live cluster'),
  validate(_value, s) {
    if (get<number>(s, 'wait') !== undefined)
      throw new UsageError('--wait needs a live cluster: a --snapshot never changes');
  },
  open(value, s) {
    const file = value as string;
    return {
      snapshot: file,
      startsAtCapture: true,
      lacksSource: 'this readout',
      async read() {
        const readout = await readSnapshot(file);
        // Narrow an offline check with --keyspace/--workflow like a live one.
        const keyspaces = get<string[]>(s, 'keyspaces') ?? [];
        const workflows = get<string[]>(s, 'workflows') ?? [];
        if (keyspaces.length === 0 && workflows.length === 0) return readout;
        return {
          ...readout,
          target: {
            ...readout.target,
            keyspaces: keyspaces.length > 0 ? keyspaces : readout.target.keyspaces,
            workflows: workflows.length > 0 ? workflows : readout.target.workflows,
          },
        };
      },
    };
  },
};
