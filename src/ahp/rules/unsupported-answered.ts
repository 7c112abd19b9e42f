import { markLocation } from '../../core/mark.ts';
import { isObj } from '../../core/value.ts';
import { defineAhpStreamRule } from '../analyzers/model.ts';

/** The error code AHP defines for each thing a draft backend cannot process (base/errors.md). */
const DEFINED = { version: -32001, event: -32002 } as const;
const NAMES = { version: 'unsupported_protocol_version', event: 'unsupported_event' } as const;

/**
 * `ahp/unsupported-answered`: judged on the response to a request of the input; an unknown method is already
 * `ahp/method` at the request, which the stream does not track.
 */
export const unsupportedAnswered = defineAhpStreamRule({
  id: 'ahp/unsupported-answered',
  severity: 'error',
  description:
    "A request whose `protocolVersion` is not `draft`, or a hooks/intercept request whose event type is not an interceptable draft event, is answered with AHP's defined JSON-RPC error.",
  detail:
    'The defined errors: -32001 `unsupported_protocol_version`, -32002 `unsupported_event`; never a result or another error. Also cited: base/versioning.md §Versioning (AHP-VER-001); base/errors.md §JSON-RPC errors.',
  spec: 'AHP base/index.md §Base Protocol profile',
  quote: 'Return the defined JSON-RPC error for a request whose protocol version, method, or event it cannot process',
  messages: {
    result:
      'The request at {request} carries {what} a draft backend cannot process, but this response is a result; the defined answer is the JSON-RPC error {code} `{name}`.',
    code: 'The request at {request} carries {what} a draft backend cannot process; the defined answer is the JSON-RPC error {code} `{name}`, not {found}.',
  },
  on: ['response'],
  onEvent(facts, ctx) {
    const link = facts.response?.link;
    if (link?.status !== 'matched' || link.request.unsupported === undefined) return;
    const u = link.request.unsupported;
    const request = markLocation(link.request.at);
    const args = {
      request,
      what: u === 'version' ? 'a protocolVersion' : 'an event type',
      code: DEFINED[u],
      name: NAMES[u],
    };
    const v = facts.msg.value;
    if (facts.msg.kind === 'response')
      ctx.report({ pointer: '/result', messageId: 'result', args, related: [request] });
    else if (isObj(v.error) && v.error.code !== DEFINED[u])
      ctx.report({
        pointer: '/error/code',
        messageId: 'code',
        args: { ...args, found: typeof v.error.code === 'number' ? String(v.error.code) : 'a non-number code' },
        related: [request],
      });
  },
});
