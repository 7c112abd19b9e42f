#!/usr/bin/env node
// Starts the `aep` CLI (Agent Event Protocol). TypeScript sources run through tsx.
import { register } from 'tsx/esm/api';

register();
const { run } = await import('../src/cli/aep.ts');
process.exitCode = await run(process.argv);
