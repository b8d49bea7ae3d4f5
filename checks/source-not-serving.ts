// PLACEHOLDER until implemented: runs as status "error" so nobody mistakes it for a pass.
import { defineCheck } from '../src/engine/check.js';

export default defineCheck({
  id: 'source-not-serving',
  title: 'source-not-serving',
  severity: 'error',
  description: 'Not implemented yet.',
  remediation: 'Not implemented yet.',
  run() {
    throw new Error('check source-not-serving is not implemented yet');
  },
});
