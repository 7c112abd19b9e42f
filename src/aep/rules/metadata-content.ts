import { defineEventRule } from '../../core/engine.ts';
import { CLASS_DESCRIPTIONS } from '../../core/secrets.ts';
import type { AepEvent } from '../event.ts';
import { forEachMetadataContent } from '../capture-checks.ts';

/** An error: "Adapters MUST NOT smuggle content through metadata-level fields" (AEP-0003 §9 item 2). */
export const metadataContent = defineEventRule({
  id: 'aep/metadata-content',
  severity: 'error',
  description:
    'At capture "metadata" or "redacted", no metadata-level payload member (annotated metadata, or unannotated) holds a secret, credential, email address or phone number: metadata carries structure, never content (AEP-0001 §8.2; AEP-0003 §9 item 2). A type without capture annotations is all metadata-level at capture "metadata". In assessment.* payloads only secrets count: AEP-0009 makes identifying content in their metadata tokens a SHOULD (aep/assessment-label-text, a warning).',
  spec: 'AEP-0003 §9 item 2; AEP-0001 §8.2',
  messages: {
    content:
      'Field {field} is a metadata-level member but holds {found}; adapters must not smuggle content through metadata-level fields (AEP-0003 §9.2).',
  },
  check(ev: AepEvent, ctx) {
    forEachMetadataContent(ev, (field, cls) =>
      ctx.report({ pointer: field, args: { field, found: CLASS_DESCRIPTIONS[cls] } }),
    );
  },
});
