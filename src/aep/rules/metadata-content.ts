import { defineEventRule } from '../../core/engine.ts';
import { CLASS_DESCRIPTIONS } from '../../core/secrets.ts';
import type { DetectorClass } from '../../core/secrets.ts';
import type { AepEvent } from '../event.ts';
import { envelopeContentOf, metadataContentOf } from '../capture-checks.ts';

/** An error: "Adapters MUST NOT smuggle content through metadata-level fields" (AEP-0003 §9 item 2). */
export const metadataContent = defineEventRule({
  id: 'aep/metadata-content',
  severity: 'error',
  description:
    'At capture "metadata" or "redacted", no metadata-level payload member, and up to "redacted" no subject or extension attribute, holds a secret, credential, email address or phone number.',
  detail:
    'A secret or credential is any class of the one detector, the §9.4(a) floor and the hardening shapes beyond it (provider tokens, other AWS key ids, Authorization credentials, unsigned JWTs, URL userinfo passwords, PINs, values of well-known secret names), and a string read with the name of its member ("password": "<value>"): the classes `aep redact` replaces in these members, so the rule and the verb agree on every string. Metadata-level means annotated metadata, or unannotated: metadata carries structure, never content (AEP-0001 §8.2; AEP-0003 §9 item 2). A type without capture annotations is all metadata-level at capture "metadata"; at "redacted" its strings hold no secret either (whatever the own schema of a vendor annotates a member, a secret there breaks a MUST: metadata, §9 item 2; redacted, AEP-0002 §5.1 rule 2 and §9.4(a); full, rule 1), while PII there is left to rule (d), which is operator-disableable. The [metadata*] members (prompt, labels, values) are metadata-level at capture "metadata" too: below redacted they are structural stand-ins (AEP-0002 §5.3). The envelope travels at every capture (AEP-0001 §8.2), so subject and extension attributes (§5.4) are metadata-level at none too; the other core attributes are identifiers and are not screened. In assessment.* payloads only secrets count: AEP-0009 makes identifying content in their metadata tokens a SHOULD (aep/assessment-label-text, a warning).',
  spec: 'AEP-0003 §9 item 2; AEP-0001 §8.2',
  messages: {
    content:
      'Field {field} is a metadata-level member but holds {found}; adapters must not smuggle content through metadata-level fields (AEP-0003 §9.2).',
    envelope:
      'Envelope attribute {field} travels at every capture level but holds {found}; adapters must not smuggle content through metadata-level fields (AEP-0003 §9.2).',
  },
  check(ev: AepEvent, ctx) {
    const content = metadataContentOf(ev);
    const envelope = envelopeContentOf(ev);
    for (let n = 0; n < 2; n++) {
      const found = n === 0 ? content : envelope;
      for (let i = 0; i < found.length; i += 2) {
        const field = found[i]!;
        ctx.report({
          pointer: field,
          messageId: n === 0 ? 'content' : 'envelope',
          args: { field, found: CLASS_DESCRIPTIONS[found[i + 1] as DetectorClass] },
        });
      }
    }
  },
});
