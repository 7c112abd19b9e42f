import { markLocation } from '../../core/mark.ts';
import { defineAhpStreamRule } from '../analyzers/model.ts';

const MAX_RELATED = 20;

/** One finding at the first open request; HTTP-body requests are answered by the HTTP response (AHP-HTTP-001). */
export const openAtEnd = defineAhpStreamRule({
  id: 'ahp/open-at-end',
  severity: 'info',
  description:
    'Requests still awaiting a response at the end of input are summarised (legal in a capture, not an error).',
  detail: 'A request read from an HTTP body is not listed, since its response is the HTTP response to that POST.',
  spec: 'AHP base/failure.md §Deadlines; base/transports/stdio.md §Persistent lifecycle',
  messages: {
    interceptOne:
      'Input ends with 1 hooks/intercept request that got no response; legal in a capture, but nothing in the input answered it.',
    intercept:
      'Input ends with {intercept} hooks/intercept requests that got no response; legal in a capture, but nothing in the input answered them.',
    capabilitiesOne:
      'Input ends with 1 hooks/capabilities request that got no response; legal in a capture, but nothing in the input answered it.',
    capabilities:
      'Input ends with {capabilities} hooks/capabilities requests that got no response; legal in a capture, but nothing in the input answered them.',
    both: 'Input ends with {intercept} hooks/intercept request{intercept:s} and {capabilities} hooks/capabilities request{capabilities:s} that got no response; legal in a capture, but nothing in the input answered them.',
  },
  onEnd(state, ctx) {
    const open = state.correlation.openRequests().filter((r) => !r.http);
    if (!open.length) return;
    const intercept = open.filter((r) => r.method === 'hooks/intercept').length;
    const capabilities = open.filter((r) => r.method === 'hooks/capabilities').length;
    const one = open.length === 1 ? 'One' : '';
    ctx.report({
      at: markLocation(open[0]!.at, '/id'),
      messageId: intercept && capabilities ? 'both' : intercept ? `intercept${one}` : `capabilities${one}`,
      args: { open: open.length, intercept, capabilities },
      related: open.slice(0, MAX_RELATED).map((r) => markLocation(r.at, '/id')),
    });
  },
});
