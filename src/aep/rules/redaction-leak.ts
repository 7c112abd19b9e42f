import { defineEventRule } from '../../core/engine.ts';
import { CLASS_DESCRIPTIONS, FLOOR_SECRET_CLASSES } from '../../core/secrets.ts';
import type { AepEvent } from '../event.ts';
import { forEachLeak } from '../leaks.ts';

/** An error: "Rule (a) and (b) failures discovered post-emission are security incidents" (AEP-0003 §9 item 4). */
export const redactionLeak = defineEventRule({
  id: 'aep/redaction-leak',
  severity: 'error',
  description:
    'At capture "redacted", redacted-gated free text holds no secret or credential left by the AEP-0003 §9.4 rule (a) patterns.',
  spec: 'AEP-0003 §9 item 4; AEP-0002 §5.1',
  messages: {
    leak: 'Field {field} is redacted-gated text at capture "redacted" but still holds {secret} (AEP-0003 §9.4 rule a); a secret left after redaction is a security incident.',
  },
  check(ev: AepEvent, ctx) {
    forEachLeak(ev, FLOOR_SECRET_CLASSES, (field, cls) =>
      ctx.report({ pointer: field, args: { field, class: cls, secret: CLASS_DESCRIPTIONS[cls] } }),
    );
  },
});
