/**
 * The AHP binding of an input from its name, shared by the `ahp` CLI and the library API.
 * AHP base/transports/stdio.md (JSONL), base/transports/http.md (one message per body),
 * AHP registration (portable registration documents).
 */
import type { AhpBinding } from './message.ts';

/**
 * The binding of an input name when no binding is given: a `.json` file named
 * `*.registration.json` or inside a folder named `registration` is a registration document,
 * any other `.json` one HTTP message, anything else (and stdin, `-`) stdio JSONL; a trailing
 * `.gz` is ignored (src/core/gzip.ts reads the input decompressed).
 */
export function bindingByName(path: string): AhpBinding {
  // a gzip-compressed input (`msg.json.gz`) has the binding of its decompressed name
  const p = path.toLowerCase().replace(/\\/g, '/').replace(/\.gz$/, '');
  if (p === '-' || !p.endsWith('.json')) return 'stdio';
  return p.endsWith('.registration.json') || p.startsWith('registration/') || p.includes('/registration/')
    ? 'registration'
    : 'http';
}
