import { defineEventRule } from '../../core/engine.ts';
import { ASSESSMENT_TYPES, isAssessment, metadataTokens } from '../assessment.ts';
import type { AepEvent } from '../event.ts';

/** Longest metadata token taken for a token (longer is prose). */
const MAX_TOKEN = 64;
const EMAIL = /[^\s@]+@[^\s@]+\.[a-z]{2,}/i;

/** `aep/assessment-label-text`: a SHOULD, hence a warning; free text read from the token's shape (a heuristic). */
export const assessmentLabelText = defineEventRule({
  id: 'aep/assessment-label-text',
  severity: 'warning',
  description:
    'The metadata tokens of an assessment hold no free text or identifying content, which belongs in the redacted fields.',
  detail:
    'The tokens: evaluation name, score label and evaluator; feedback label and source; guardrail category names and detector name and version (AEP-0009 Security considerations: emitters SHOULD keep free-text or identifying content out of them). Heuristic: a token of four words or more, longer than 64 characters, or holding an e-mail address is free text.',
  spec: 'AEP-0009 §5, Security considerations',
  messages: {
    words:
      'The metadata token at this pointer is {words} words long; free text belongs in the redacted fields, and metadata tokens should stay short labels.',
    long: 'The metadata token at this pointer is {length} character{length:s} long; free text belongs in the redacted fields, and metadata tokens should stay short labels.',
    email:
      'The metadata token at this pointer holds an e-mail address; identifying content belongs in the redacted fields, not in metadata tokens.',
  },
  types: ASSESSMENT_TYPES,
  check(ev: AepEvent, ctx) {
    if (!isAssessment(ev.type)) return;
    for (const [pointer, v] of metadataTokens(ev.type, ev.value.data)) {
      const words = v
        .trim()
        .split(/\s+/)
        .filter((w) => w !== '').length;
      if (EMAIL.test(v)) ctx.report({ pointer, messageId: 'email' });
      else if (words >= 4) ctx.report({ pointer, messageId: 'words', args: { words } });
      else if ([...v].length > MAX_TOKEN) ctx.report({ pointer, messageId: 'long', args: { length: [...v].length } });
    }
  },
});
