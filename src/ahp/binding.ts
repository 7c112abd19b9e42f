/** The AHP binding of an input from its name, shared by the `ahp` CLI and the library API. */
import type { AhpBinding } from './message.ts';

/** The binding of an input name when no binding is given. */
export function bindingByName(path: string): AhpBinding {
  // a gzip-compressed input (`msg.json.gz`) has the binding of its decompressed name
  const p = path.toLowerCase().replace(/\\/g, '/').replace(/\.gz$/, '');
  if (p === '-' || !p.endsWith('.json')) return 'stdio';
  return p.endsWith('.registration.json') || p.startsWith('registration/') || p.includes('/registration/')
    ? 'registration'
    : 'http';
}
