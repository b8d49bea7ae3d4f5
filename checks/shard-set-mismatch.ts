// PLACEHOLDER until implemented: runs as status "error" so nobody mistakes it for a pass.
import { defineCheck } from '../src/engine/check.js';

export default defineCheck({
  id: 'shard-set-mismatch',
  title: 'shard-set-mismatch',
  severity: 'error',
  description: 'Not implemented yet.',
  remediation: 'Not implemented yet.',
  run() {
    throw new Error('check shard-set-mismatch is not implemented yet');
  },
});
