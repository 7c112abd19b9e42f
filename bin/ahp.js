#!/usr/bin/env node
// Starts the `ahp` CLI (Agent Hooks Protocol) from the build in dist/ (`npm ci` or `npm run build` makes it).
import module from 'node:module';

// Node 22.1+ keeps compiled code between runs (on Node 20 the build's code caches stand in)
module.enableCompileCache?.();
let cli;
try {
  cli = await import('../dist/cli/ahp.js');
} catch (e) {
  // no build yet, or dependencies not installed: one line, not a stack trace
  if (e?.code !== 'ERR_MODULE_NOT_FOUND') throw e;
  process.stderr.write(`ahp: cannot load the build (${e.message.split('\n')[0]}): run npm ci (or npm run build) first\n`);
  process.exit(2);
}
process.exitCode = await cli.run(process.argv);
