import { defineStreamRule } from '../../core/engine.ts';
import { markLocation } from '../../core/mark.ts';
import type { AepFacts } from '../analyzers/model.ts';

/** `aep/stream-id-reused`: under `--profile aep-0007` only; keyed within the emitter session, all epochs. */
export const streamIdReused = defineStreamRule({
  id: 'aep/stream-id-reused',
  severity: 'error',
  description:
    'With --profile aep-0007: a stream id names one production of content, so no second stream.started reuses the subject of a stream already started or finished.',
  detail:
    'AEP-0007 §3 item 1 makes the stream id "an emitter-unique identifier for one production of content". Judged within the emitter session (source, session), across epochs; a redelivery or another copy under the first event\'s own (source, id) is one event (aep/redelivery, aep/id-collision).',
  spec: 'AEP-0007 §3 item 1',
  quote: 'an emitter-unique identifier for one production of content',
  messages: {
    reused:
      'Stream id {key:json} was already used at {prior} ({priorType}); this stream.started begins a second production under it, but a stream id names one production of content.',
  },
  on: ['streamReused'],
  onEvent(f: AepFacts, ctx) {
    const r = f.streamReused;
    if (!r) return;
    const prior = markLocation(r.prior);
    ctx.report({
      pointer: '/subject',
      messageId: 'reused',
      args: { key: r.key, prior, priorType: r.priorType },
      related: [prior],
    });
  },
});
