#!/usr/bin/env node
// Starts the `ahp` CLI (Agent Hooks Protocol). TypeScript sources run through tsx.
import { register } from 'tsx/esm/api';

register();
const { run } = await import('../src/cli/ahp.ts');
process.exitCode = await run(process.argv);
