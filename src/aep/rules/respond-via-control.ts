import { defineStreamRule } from '../../core/engine.ts';
import { markLocation } from '../../core/mark.ts';
import type { AepFacts } from '../analyzers/model.ts';

/**
 * `aep/respond-via-control`. The SHOULD binds the consumer that sends the command, hence a
 * warning; the request is the one `subject` names (any emitter of that session, as for the other
 * followers of a foreign command), and its channels are those of a payload that passed its schema.
 */
export const respondViaControl = defineStreamRule({
  id: 'aep/respond-via-control',
  severity: 'warning',
  description: 'A control.attention.respond answers only a request whose respond_via, when present, lists "control".',
  detail:
    'A request that declares other channels only (e.g. ["oob"]) is informational on the bus, and consumers should offer control delivery only if "control" is listed.',
  spec: 'AEP-0002 §5.3 respond_via; AEP-0008',
  messages: {
    informational:
      'This control.attention.respond answers the attention request at {request}, whose respond_via {via} does not list "control": that request is informational on the bus and its answer arrives by the declared channel; consumers should offer control delivery only if "control" is listed.',
  },
  on: ['attention'],
  onEvent(f: AepFacts, ctx) {
    const link = f.attention?.link;
    if (f.ev.type !== 'control.attention.respond' || (link?.status !== 'found' && link?.status !== 'closed')) return;
    const via = link.request.noControl;
    if (!via) return;
    const request = markLocation(link.request.at, '/data/respond_via');
    ctx.report({
      pointer: '/subject',
      messageId: 'informational',
      args: { request, via: JSON.stringify(via) },
      related: [request],
    });
  },
});
