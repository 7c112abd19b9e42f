/**
 * aep/redaction-leak: at capture `redacted`, the `redacted`-gated free text (members annotated
 * `redacted` and the `[metadata*]` exceptions) has passed the AEP-0003 §9.4 pipeline, so no
 * rule (a) pattern is left in it: PEM blocks, `AKIA[0-9A-Z]{16}`, `Bearer` tokens,
 * `password|passwd|secret|api[_-]?key|token` assignments, JWT-shaped strings (the detector of
 * src/core/secrets.ts, shared with `aep redact`). A value that is a redaction marker
 * (`token=[REDACTED:secret]`) is what the pipeline leaves and is no leak. Only the floor
 * classes count; the hardening classes of `aep redact` are not a conformance verdict.
 * "Rule (a) and (b) failures discovered post-emission are security incidents" (AEP-0003 §9
 * item 4); AEP-0002 §5.1 rule 2; AEP-0001 §8.2(e). The message names the field and the
 * class, never the matched text. Not checked at `full` (verbatim by definition).
 */
import type { EventRule } from '../../core/rule.ts';
import { CLASS_DESCRIPTIONS, findSecrets, FLOOR_SECRET_CLASSES, type DetectorClass } from '../../core/secrets.ts';
import { captureTreeFor } from '../payload.ts';
import { forEachGatedString } from '../capture.ts';
import type { AepEvent } from '../event.ts';

/** The `aep/redaction-leak` rule, as described in the module comment above. */
export const redactionLeak: EventRule<AepEvent> = {
  id: 'aep/redaction-leak',
  severity: 'error',
  description: 'At capture "redacted", redacted-gated free text holds no secret or credential left by the AEP-0003 §9.4 rule (a) patterns.',
  spec: 'AEP-0003 §9 item 4; AEP-0002 §5.1',
  check(ev, ctx) {
    if (ev.capture !== 'redacted') return;
    const data = ev.value.data;
    if (data === null || typeof data !== 'object') return;
    const tree = captureTreeFor(ev.type);
    if (!tree) return; // vendor or schema-less type: nothing is gated (AEP-0002 §5.1 rule 4)
    forEachGatedString(data, tree, (pointer, text) => {
      const seen = new Set<DetectorClass>();
      for (const m of findSecrets(text, { classes: FLOOR_SECRET_CLASSES })) {
        if (seen.has(m.class)) continue;
        seen.add(m.class);
        ctx.report({
          pointer,
          message: `Field ${pointer} is redacted-gated text at capture "redacted" but still holds ${CLASS_DESCRIPTIONS[m.class]} (AEP-0003 §9.4 rule a); a secret left after redaction is a security incident.`,
          data: { class: m.class },
        });
      }
    });
  },
};
