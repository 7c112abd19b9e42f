import { defineEventRule } from '../../core/engine.ts';
import type { AepEvent } from '../event.ts';

/** The members AEP-0002 §5.3 calls tokens, by type: a token is one word, so text with whitespace is prose. */
const TOKEN_MEMBERS: Readonly<Record<string, readonly string[]>> = {
  'run.failed': ['reason'],
  'run.step.finished': ['status'],
  'progress.status': ['phase'],
  'delegation.subagent.stopped': ['status'],
  'attention.routed': ['to', 'via'],
  'agent.idle': ['reason'],
  'error.raised': ['code'],
  'resource.retrieval.requested': ['corpus'],
  'resource.retrieval.returned': ['corpus'],
  'resource.retrieval.reranked': ['model'],
  // assessment tokens (evaluator, labels): aep/assessment-label-text (AEP-0009)
};

const PROSE = /\S\s+\S/;

/** A warning: a token with a space in it is a sign of content, not proof (AEP-0003 §9 item 2). */
export const metadataProse = defineEventRule({
  id: 'aep/metadata-prose',
  severity: 'warning',
  description: 'A payload member AEP-0002 §5.3 defines as a machine or structural token is one word, not prose.',
  detail:
    "The tokens: run.failed reason, agent.idle reason, error.raised code, the outcome status of run.step.finished and delegation.subagent.stopped, progress.status phase, attention.routed to/via, retrieval corpus, reranker model; assessment tokens are aep/assessment-label-text's. Metadata-level fields carry no content (AEP-0003 §9 item 2). A warning: whitespace in a token is a heuristic sign of content, not proof.",
  spec: 'AEP-0003 §9 item 2; AEP-0002 §5.3',
  messages: {
    prose:
      'Field /data/{member} of {type} is a token (AEP-0002 §5.3) but holds {words} whitespace-separated words ({length} char{length:s}); metadata-level fields carry no free text (AEP-0003 §9.2).',
  },
  check(ev: AepEvent, ctx) {
    const members = TOKEN_MEMBERS[ev.type];
    if (members === undefined) return;
    const data = ev.value.data;
    if (data === null || typeof data !== 'object' || Array.isArray(data)) return;
    for (const member of members) {
      const v = (data as Record<string, unknown>)[member];
      if (typeof v !== 'string' || !PROSE.test(v)) continue;
      ctx.report({
        pointer: `/data/${member}`,
        args: { member, type: ev.type, words: v.trim().split(/\s+/).length, length: [...v].length },
      });
    }
  },
});
