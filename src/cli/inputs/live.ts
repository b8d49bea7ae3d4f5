/** The default input: the live cluster, read through vtctld and the primaries (`src/sources/collect.ts`). */
import { collect } from '../../sources/collect.js';
import { collectOptions } from '../options.js';
import type { InputSource } from './types.js';

export const liveInput: InputSource = {
  name: 'live',
  open(_value, s) {
    const copts = collectOptions(s);
    return {
      snapshot: null,
      startsAtCapture: false,
      lacksSource: 'this readout',
      read: ({ progress, round }) =>
        progress.step(round === null ? 'Reading the cluster' : `Reading the cluster (run ${round})`, (onProgress) =>
          // The checks read no log row, only whether the log could be read: the newest row per stream is enough.
          collect({ ...copts, logRowsPerStream: 1, onProgress }),
        ),
    };
  },
};
