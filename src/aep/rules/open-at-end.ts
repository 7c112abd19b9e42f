import { defineStreamRule } from '../../core/engine.ts';
import { markLocation, type Mark } from '../../core/mark.ts';
import type { AepStreamState } from '../analyzers/model.ts';

const MAX_RELATED = 20;

const CLOSED = 'legal, but nothing in the input closed';

/** `aep/open-at-end`: once per `(source, session)`; an emitter closes its work "eventually", which a capture may not include. */
export const openAtEnd = defineStreamRule({
  id: 'aep/open-at-end',
  severity: 'info',
  description: 'Attention requests and runs still open at the end of input are summarised (legal, not an error).',
  spec: 'AEP-0002 §7.2, §2 convention 5',
  messages: {
    request: `Input ends with 1 open attention request in session {session:json} of {source}; ${CLOSED} it.`,
    requests: `Input ends with {requests} open attention requests in session {session:json} of {source}; ${CLOSED} them.`,
    run: `Input ends with 1 open run in session {session:json} of {source}; ${CLOSED} it.`,
    runs: `Input ends with {runs} open runs in session {session:json} of {source}; ${CLOSED} them.`,
    both: `Input ends with {requests} open attention request{requests:s} and {runs} open run{runs:s} in session {session:json} of {source}; ${CLOSED} them.`,
  },
  onEnd(state: AepStreamState, ctx) {
    for (const { rec, runs, requests } of state.lifecycle.openSessions()) {
      const marks: Mark[] = [...requests.map((r) => r.at), ...runs.map(([, m]) => m)];
      const first = marks.reduce((a, b) => (b.line < a.line ? b : a));
      const messageId =
        requests.length && runs.length
          ? 'both'
          : requests.length
            ? requests.length === 1
              ? 'request'
              : 'requests'
            : runs.length === 1
              ? 'run'
              : 'runs';
      ctx.report({
        at: markLocation(first),
        messageId,
        args: { requests: requests.length, runs: runs.length, session: rec.session, source: rec.source },
        related: marks.slice(0, MAX_RELATED).map((m) => markLocation(m)),
      });
    }
  },
});
