/**
 * aep/open-at-end (info): at the end of input, attention requests without a terminal and
 * runs started without a terminal, summarised once per `(source, session)` (lifecycle.ts
 * `openSessions`). Legal: an emitter closes them "eventually", which a capture may not
 * include. AEP-0002 §7.2, §2 convention 5 (zero terminals stay legal).
 */
import { defineStreamRule } from '../../core/engine.ts';
import { markLocation, type Mark } from '../../core/mark.ts';
import type { AepStreamState } from '../analyzers/model.ts';

/** Most related locations listed on one finding. */
const MAX_RELATED = 20;

/** The `aep/open-at-end` rule, as described in the module comment above. */
export const openAtEnd = defineStreamRule({
  id: 'aep/open-at-end',
  severity: 'info',
  description: 'Attention requests and runs still open at the end of input are summarised (legal, not an error).',
  spec: 'AEP-0002 §7.2, §2 convention 5',
  onEnd(state: AepStreamState, ctx) {
    for (const { rec, runs, requests } of state.lifecycle.openSessions()) {
      const marks: Mark[] = [...requests.map((r) => r.at), ...runs.map(([, m]) => m)];
      const first = marks.reduce((a, b) => (b.line < a.line ? b : a));
      const parts: string[] = [];
      if (requests.length) parts.push(`${requests.length} open attention request${requests.length === 1 ? '' : 's'}`);
      if (runs.length) parts.push(`${runs.length} open run${runs.length === 1 ? '' : 's'}`);
      ctx.report({
        at: markLocation(first),
        message: `Input ends with ${parts.join(' and ')} in session ${JSON.stringify(rec.session)} of ${rec.source}; legal, but nothing in the input closed ${marks.length === 1 ? 'it' : 'them'}.`,
        data: { requests: requests.length, runs: runs.length },
        related: marks.slice(0, MAX_RELATED).map((m) => markLocation(m)),
      });
    }
  },
});
