/**
 * aep/redaction-leak and aep/redaction-leak-provider: at capture `redacted`, the
 * `redacted`-gated free text (members annotated `redacted` and the `[metadata*]` exceptions)
 * has passed the AEP-0003 §9.4 pipeline, so no secret the pipeline removes is left in it. Both
 * read the one classification of src/core/secrets.ts that `aep redact` applies and the AHP
 * credential rules read, so the same string gets the same verdict everywhere; the tier decides
 * the rule: the rule (a) floor (PEM blocks, `AKIA[0-9A-Z]{16}`, `Bearer` tokens,
 * `password|passwd|secret|api[_-]?key|token` assignment values, JWT-shaped strings) is
 * `aep/redaction-leak`, an error ("Rule (a) and (b) failures discovered post-emission are
 * security incidents", AEP-0003 §9 item 4); the provider token shapes beyond the floor ("the
 * pipeline is a floor, not a ceiling: adapters MAY redact more") are
 * `aep/redaction-leak-provider`, a warning, since the floor does not require their removal.
 * A value that is a redaction marker (`token=[REDACTED:secret]`) is what the pipeline leaves
 * and is no leak. AEP-0002 §5.1 rule 2; AEP-0001 §8.2(e). The message names the field and the
 * class, never the matched text. Not checked at `full` (verbatim by definition).
 */
import type { EventRule, RuleContext } from '../../core/rule.ts';
import {
  CLASS_DESCRIPTIONS,
  findSecrets,
  FLOOR_SECRET_CLASSES,
  HARDENING_SECRET_CLASSES,
  type DetectorClass,
} from '../../core/secrets.ts';
import { captureTreeFor } from '../payload.ts';
import { forEachGatedString } from '../capture.ts';
import type { AepEvent } from '../event.ts';

/** Report each class of `classes` found in the gated text of `ev` at capture `redacted`. */
function reportLeaks(
  ev: AepEvent,
  ctx: RuleContext,
  classes: readonly DetectorClass[],
  say: (pointer: string, cls: DetectorClass) => string,
): void {
  if (ev.capture !== 'redacted') return;
  const data = ev.value.data;
  if (data === null || typeof data !== 'object') return;
  const tree = captureTreeFor(ev.type);
  if (!tree) return; // vendor or schema-less type: no member is marked redacted (AEP-0002 §5.1 rule 2)
  forEachGatedString(data, tree, (pointer, text) => {
    const seen = new Set<DetectorClass>();
    for (const m of findSecrets(text, { classes })) {
      if (seen.has(m.class)) continue;
      seen.add(m.class);
      ctx.report({ pointer, message: say(pointer, m.class), data: { class: m.class } });
    }
  });
}

/** The `aep/redaction-leak` rule: a rule (a) floor match left in gated text (see the module comment). */
export const redactionLeak: EventRule<AepEvent> = {
  id: 'aep/redaction-leak',
  severity: 'error',
  description:
    'At capture "redacted", redacted-gated free text holds no secret or credential left by the AEP-0003 §9.4 rule (a) patterns.',
  spec: 'AEP-0003 §9 item 4; AEP-0002 §5.1',
  check(ev, ctx) {
    reportLeaks(
      ev,
      ctx,
      FLOOR_SECRET_CLASSES,
      (pointer, cls) =>
        `Field ${pointer} is redacted-gated text at capture "redacted" but still holds ${CLASS_DESCRIPTIONS[cls]} (AEP-0003 §9.4 rule a); a secret left after redaction is a security incident.`,
    );
  },
};

/** The `aep/redaction-leak-provider` rule: a provider token shape beyond the floor left in gated text. */
export const redactionLeakProvider: EventRule<AepEvent> = {
  id: 'aep/redaction-leak-provider',
  severity: 'warning',
  description:
    'At capture "redacted", redacted-gated free text holds no provider access token (GitHub, GitLab, Slack, OpenAI/Anthropic sk-, Stripe, Google AIza shapes), which aep redact removes and the AHP credential rules flag. A warning: these shapes are hardening beyond the AEP-0003 §9.4 rule (a) floor ("adapters MAY redact more"), which aep/redaction-leak enforces as an error.',
  spec: 'AEP-0003 §9 item 4 ("The pipeline is a floor, not a ceiling: adapters MAY redact more"); AEP-0002 §5.1',
  check(ev, ctx) {
    reportLeaks(
      ev,
      ctx,
      HARDENING_SECRET_CLASSES,
      (pointer, cls) =>
        `Field ${pointer} is redacted-gated text at capture "redacted" but still holds ${CLASS_DESCRIPTIONS[cls]}, a credential shape beyond the AEP-0003 §9.4 rule (a) floor that redaction should remove.`,
    );
  },
};
