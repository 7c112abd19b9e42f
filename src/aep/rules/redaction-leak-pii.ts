import { defineEventRule } from '../../core/engine.ts';
import { CLASS_DESCRIPTIONS } from '../../core/secrets.ts';
import type { AepEvent } from '../event.ts';
import { gatedFindings } from '../capture-checks.ts';

/** A warning: AEP-0003 §9.4 rule (d) is "operator-disableable", which the stream does not show. */
export const redactionLeakPii = defineEventRule({
  id: 'aep/redaction-leak-pii',
  severity: 'warning',
  description: 'At capture "redacted", redacted-gated free text holds no email address or phone number.',
  detail:
    'AEP-0003 §9.4 rule (d) replaces them with [REDACTED:pii] by default. A warning: the operator may disable rule (d), which the stream does not show. An address followed by ":" (user@host:port in a URL, git@host:path) is a host, not a mailbox, and not reported.',
  spec: 'AEP-0003 §9 item 4 (d)',
  messages: {
    pii: 'Field {field} is redacted-gated text at capture "redacted" but still holds {pii}; AEP-0003 §9.4 rule (d) replaces PII with [REDACTED:pii] unless the operator disabled it.',
  },
  check(ev: AepEvent, ctx) {
    for (const f of gatedFindings(ev))
      if (f.what !== 'home')
        ctx.report({ pointer: f.pointer, args: { field: f.pointer, pii: CLASS_DESCRIPTIONS[f.what] } });
  },
});
