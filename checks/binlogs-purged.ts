// PLACEHOLDER until implemented: runs as status "error" so nobody mistakes it for a pass.
import { defineCheck } from '../src/engine/check.js';

export default defineCheck({
  id: 'binlogs-purged',
  title: 'binlogs-purged',
  severity: 'error',
  description: 'Not implemented yet.',
  remediation: 'Not implemented yet.',
  run() {
    throw new Error('check binlogs-purged is not implemented yet');
  },
});
