/** The package version (package.json `version`), read once from the package root (src/core/paths.ts). */
import { readFileSync } from 'node:fs';
import { packageUrl } from '../core/paths.ts';

/** Package version, as in package.json. */
export const VERSION: string = (JSON.parse(readFileSync(packageUrl('package.json'), 'utf8')) as { version: string })
  .version;
