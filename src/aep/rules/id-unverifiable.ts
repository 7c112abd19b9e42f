import { defineStreamRule } from '../../core/engine.ts';
import { markLocation } from '../../core/mark.ts';
import type { AepFacts } from '../analyzers/model.ts';

/** "Cannot verify": a re-emitter may redact beyond the floor (AEP-0003 §9 item 4), a file read back may change. */
export const idUnverifiable = defineStreamRule({
  id: 'aep/id-unverifiable',
  severity: 'warning',
  description:
    'A repeated (source, id) whose first line cannot be read back, or a redacted copy of a full or redacted event (either first) redacted beyond AEP-0003 §9.4, is not classified as redelivery or collision.',
  spec: 'AEP-0001 §5.1 #2, §7.4, §8.2(e)',
  messages: {
    reread:
      'Event id {id:json} was already used by this source at {prior}, but that line could not be read back as it was to compare them (the file changed while it was checked); this event is not deduplicated.',
    redaction:
      "Event id {id:json} was already used by this source at {prior} for a {from} event; this redacted copy matches it at metadata, but its free text is not what the AEP-0003 §9.4 pipeline gives (a pipeline may redact more), so whether it is a redelivery cannot be decided; it is not checked as a second event, as its envelope is that event's.",
    redactionFirst:
      "Event id {id:json} was already used by this source at {prior} for a redacted event that matches this full one at metadata, but whose free text is not what the AEP-0003 §9.4 pipeline gives this one (a pipeline may redact more), so whether it is a redelivery cannot be decided; this event is not checked as a second event, as its envelope is that event's.",
  },
  on: ['unverifiable'],
  onEvent(f: AepFacts, ctx) {
    if (!f.unverifiable || f.unverifiableWhy === 'withheld') return;
    const prior = markLocation(f.unverifiable, '/id');
    ctx.report({
      pointer: '/id',
      messageId:
        f.unverifiableWhy !== 'redaction' ? 'reread' : f.redactedCopy === 'first' ? 'redactionFirst' : 'redaction',
      args: { id: String(f.ev.value.id), prior, from: f.redactedFrom ?? 'full' },
      related: [prior],
    });
  },
});
