// PLACEHOLDER until implemented: runs as status "error" so nobody mistakes it for a pass.
import { defineCheck } from '../src/engine/check.js';

export default defineCheck({
  id: 'stream-set-mismatch',
  title: 'stream-set-mismatch',
  severity: 'error',
  description: 'Not implemented yet.',
  remediation: 'Not implemented yet.',
  run() {
    throw new Error('check stream-set-mismatch is not implemented yet');
  },
});
