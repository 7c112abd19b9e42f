import { defineEventRule } from '../../core/engine.ts';
import type { AepEvent } from '../event.ts';
import { gatedFindings } from '../capture-checks.ts';

/** An error: rule (c) is in the AEP-0003 §9.4 "normative minimum"; every home prefix counts (see `detail`). */
export const redactionHomePath = defineEventRule({
  id: 'aep/redaction-home-path',
  severity: 'error',
  description:
    'At capture "redacted", redacted-gated free text holds no user home directory prefix (/home/<user>, /Users/<user>, C:\\Users\\<user>).',
  detail:
    'AEP-0003 §9.4 rule (c) replaces it with "~". Whose home it is cannot be told from the stream, so every such prefix counts.',
  spec: 'AEP-0003 §9 item 4 (c)',
  messages: {
    home: 'Field {field} is redacted-gated text at capture "redacted" but still holds a user home directory path; AEP-0003 §9.4 rule (c) replaces the home prefix with "~".',
  },
  check(ev: AepEvent, ctx) {
    for (const f of gatedFindings(ev))
      if (f.what === 'home') ctx.report({ pointer: f.pointer, args: { field: f.pointer } });
  },
});
