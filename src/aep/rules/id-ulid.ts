import { defineEventRule } from '../../core/engine.ts';
import type { AepEvent } from '../event.ts';

/** A ULID: 26 Crockford base32 characters, the first at most 7 (a 48-bit time, then 80 random bits); either case. */
const ULID = /^[0-7][0-9A-HJKMNP-TV-Z]{25}$/i;

/** A warning under `--forms recommended` only: AEP-0001 §5.1 #2 RECOMMENDS a ULID but requires uniqueness. */
export const idUlid = defineEventRule({
  id: 'aep/id-ulid',
  severity: 'warning',
  description:
    'With --forms recommended: an event id is a ULID (26 Crockford base32 characters, time-sortable), the form AEP-0001 §5.1 #2 RECOMMENDS.',
  detail: 'Off by default: only uniqueness per source is required, and the upstream golden stream uses other ids.',
  spec: 'AEP-0001 §5.1 #2',
  messages: {
    ulid: 'Event id is a string of {length} char{length:s}, not a ULID (26 Crockford base32 characters, time-sortable), which AEP-0001 §5.1 recommends.',
  },
  check(ev: AepEvent, ctx) {
    const id = ev.value.id;
    if (typeof id === 'string' && !ULID.test(id)) ctx.report({ pointer: '/id', args: { length: [...id].length } });
  },
});
