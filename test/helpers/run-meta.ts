/** The run metadata a test passes to the runner (`runModelChecks`, `runCheck`): fixed values, so reports compare. */
import type { FailOn } from '../../src/engine/run.js';

export const runMeta = (failOn: FailOn = 'error') => ({
  toolVersion: '0.0.0',
  snapshot: null,
  startedAt: '2026-01-01T00:00:00.000Z',
  elapsedMs: 0,
  failOn,
});
