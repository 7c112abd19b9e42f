/**
 * ahp/open-at-end (info): at the end of input, requests still awaiting a response, summarised
 * in one finding at the first of them (related: up to 20 of them). Legal in a capture (the
 * deadline may have expired, which the harness treats as an operational failure, or the capture
 * simply ends), but nothing in the input answered them. A request read from an HTTP body is not
 * listed: its response is the HTTP response to that POST (base/transports/http.md AHP-HTTP-001),
 * which an input of request bodies does not hold. AHP base/failure.md §Deadlines;
 * base/transports/stdio.md §Persistent lifecycle.
 */
import { markLocation } from '../../core/mark.ts';
import { defineAhpStreamRule } from '../analyzers/model.ts';

/** Most related locations listed on the finding. */
const MAX_RELATED = 20;

/** The `ahp/open-at-end` rule, as described in the module comment above. */
export const openAtEnd = defineAhpStreamRule({
  id: 'ahp/open-at-end',
  severity: 'info',
  description:
    'Requests still awaiting a response at the end of input are summarised (legal in a capture, not an error); a request read from an HTTP body is not listed, since its response is the HTTP response to that POST.',
  spec: 'AHP base/failure.md §Deadlines; base/transports/stdio.md §Persistent lifecycle',
  onEnd(state, ctx) {
    const open = state.correlation.openRequests().filter((r) => !r.http);
    if (!open.length) return;
    const n = (m: string) => open.filter((r) => r.method === m).length;
    const parts = [
      n('hooks/intercept')
        ? `${n('hooks/intercept')} hooks/intercept request${n('hooks/intercept') === 1 ? '' : 's'}`
        : '',
      n('hooks/capabilities')
        ? `${n('hooks/capabilities')} hooks/capabilities request${n('hooks/capabilities') === 1 ? '' : 's'}`
        : '',
    ].filter(Boolean);
    ctx.report({
      at: markLocation(open[0]!.at, '/id'),
      message: `Input ends with ${parts.join(' and ')} that got no response; legal in a capture, but nothing in the input answered ${open.length === 1 ? 'it' : 'them'}.`,
      data: { open: open.length },
      related: open.slice(0, MAX_RELATED).map((r) => markLocation(r.at, '/id')),
    });
  },
});
