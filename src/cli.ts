#!/usr/bin/env node
/**
 * The `vtpreflight` executable (package.json "bin", the Docker entrypoint): runs the CLI of `src/cli/` with the
 * process's arguments. Also the CLI's import path for scripts and tests (`main`, `buildProgram`).
 */
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { main } from './cli/main.js';
import { oneLine } from './text.js';
import { redactSecrets } from './secrets.js';

export type { CliIo } from './cli/io.js';
export { buildProgram, main } from './cli/main.js';

function isEntryPoint(): boolean {
  try {
    return process.argv[1] !== undefined && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url);
  } catch {
    return false;
  }
}

if (isEntryPoint()) {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
      // Stopped by a signal (--wait wrote its report first): end now, not when an abandoned read times out.
      if (code === 130 || code === 143) process.exit(code);
    },
    (e) => {
      process.stderr.write(`vtpreflight: internal error: ${redactSecrets(oneLine(e))}\n`);
      process.exitCode = 2;
    },
  );
}
