/** The package version (package.json `version`), read once relative to this module (src/ or dist/). */
import { readFileSync } from 'node:fs';

/** Package version, as in package.json. */
export const VERSION: string = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
