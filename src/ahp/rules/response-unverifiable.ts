import { markLocation } from '../../core/mark.ts';
import { defineAhpStreamRule } from '../analyzers/model.ts';

/**
 * `ahp/response-unverifiable`: what would be ahp/response-unmatched or ahp/response-duplicate after a line of the
 * stream that gave no message (README §Decisions on unreadable lines): that line may have held the request or a retry.
 */
export const responseUnverifiable = defineAhpStreamRule({
  id: 'ahp/response-unverifiable',
  severity: 'info',
  description:
    'A response whose request (or a retry of it) is not in the stream comes after a line that gave no AHP message (unreadable, or an invalid JSON-RPC shape), which may have held it (not verified).',
  detail:
    'Any earlier unreadable line of the stream counts (invalid JSON, over --max-line-bytes, too deep, not an object, invalid UTF-8, a cut gzip stream, or a message whose JSON-RPC shape is invalid, so its ids are not trusted): its id is unknown, so no response after it is called unmatched or a duplicate. The framing finding at that line is the error. Also cited: base/failure.md §Duplicate delivery and retries.',
  spec: 'AHP base/events.md §Common message envelope (AHP-RPC-002)',
  messages: {
    unmatched:
      'No request of the input awaits a response with this id, but {unreadable} could not be read as an AHP message and may have held it; correlation is not verified.',
    duplicate:
      'The request with this id was already answered, but {unreadable} could not be read as an AHP message and may have held a retry of it; correlation is not verified.',
  },
  on: ['response'],
  onEvent(facts, ctx) {
    const link = facts.response?.link;
    if (link?.status !== 'unverifiable') return;
    const unreadable = markLocation(link.unreadable);
    ctx.report({ pointer: '/id', messageId: link.of, args: { unreadable }, related: [unreadable] });
  },
});
