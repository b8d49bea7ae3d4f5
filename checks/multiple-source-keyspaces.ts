// PLACEHOLDER until implemented: runs as status "error" so nobody mistakes it for a pass.
import { defineCheck } from '../src/engine/check.js';

export default defineCheck({
  id: 'multiple-source-keyspaces',
  title: 'multiple-source-keyspaces',
  severity: 'error',
  description: 'Not implemented yet.',
  remediation: 'Not implemented yet.',
  run() {
    throw new Error('check multiple-source-keyspaces is not implemented yet');
  },
});
