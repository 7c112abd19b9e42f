/**
 * The AHP binding of an input from its name, shared by the `ahp` CLI and the library API.
 * AHP base/transports/stdio.md (JSONL), base/transports/http.md (one message per body),
 * AHP registration (portable registration documents).
 */
import type { AhpBinding } from './message.ts';

/**
 * The binding of an input name when no binding is given: a `.json` file named
 * `*.registration.json` or inside a folder named `registration` is a registration document,
 * any other `.json` one HTTP message, anything else (and stdin, `-`) stdio JSONL.
 */
export function bindingByName(path: string): AhpBinding {
  const p = path.toLowerCase().replace(/\\/g, '/');
  if (p === '-' || !p.endsWith('.json')) return 'stdio';
  return p.endsWith('.registration.json') || p.startsWith('registration/') || p.includes('/registration/') ? 'registration' : 'http';
}
