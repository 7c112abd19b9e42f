import { defineEventRule } from '../../core/engine.ts';
import { CLASS_DESCRIPTIONS, HARDENING_SECRET_CLASSES } from '../../core/secrets.ts';
import type { AepEvent } from '../event.ts';
import { forEachLeak } from '../leaks.ts';

/** `aep/redaction-leak-provider`: a provider token shape beyond the rule (a) floor left in gated text. */
export const redactionLeakProvider = defineEventRule<AepEvent, 'aep/redaction-leak-provider'>({
  id: 'aep/redaction-leak-provider',
  severity: 'warning',
  description:
    'At capture "redacted", redacted-gated free text holds no provider access token (GitHub, GitLab, Slack, OpenAI/Anthropic sk-, Stripe, Google AIza shapes), which aep redact removes and the AHP credential rules flag. A warning: these shapes are hardening beyond the AEP-0003 §9.4 rule (a) floor ("adapters MAY redact more"), which aep/redaction-leak enforces as an error.',
  spec: 'AEP-0003 §9 item 4 ("The pipeline is a floor, not a ceiling: adapters MAY redact more"); AEP-0002 §5.1',
  messages: {
    leak: 'Field {field} is redacted-gated text at capture "redacted" but still holds {secret}, a credential shape beyond the AEP-0003 §9.4 rule (a) floor that redaction should remove.',
  },
  check(ev, ctx) {
    forEachLeak(ev, HARDENING_SECRET_CLASSES, (field, cls) =>
      ctx.report({ pointer: field, args: { field, class: cls, secret: CLASS_DESCRIPTIONS[cls] } }),
    );
  },
});
