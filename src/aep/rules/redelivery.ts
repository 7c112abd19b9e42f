import { defineStreamRule } from '../../core/engine.ts';
import { markLocation } from '../../core/mark.ts';
import type { AepFacts } from '../analyzers/model.ts';

/** Legal at-least-once delivery (AEP-0001 §7 rule 2: "legal: dedupe on (source, id)"): an info. Nothing after identity runs. */
export const redelivery = defineStreamRule({
  id: 'aep/redelivery',
  severity: 'info',
  description:
    'An event repeated under the same (source, id), exactly or down-leveled (in either order), with or without extension attributes a relay added to either copy, is redelivery: reported, not checked again.',
  detail:
    'Copies are compared with the stated defaults applied (AEP-0001 §5.1: epoch 0, severity info, capture metadata written out or left out), member order and whitespace aside. A copy may arrive after its down-leveled copy (AEP-0001 §7 rule 2: a second relay, a buffered replay). AEP-0001 §4.2: a relay "MAY add extension attributes" and preserves the ones it got; so either copy may carry ones the other lacks (copies arrive in any order), while one both carry with different values is a collision.',
  spec: 'AEP-0001 §7.4, §8.2(b); AEP-0002 §2 convention 5; AEP-0004 §3',
  messages: {
    exact:
      'This event repeats the event at {prior} exactly (same source and id {id:json}, same canonical content): a redelivery, not a second event (the stream rules check the first copy only).',
    downleveled:
      "This event repeats the event at {prior} down-leveled from {from} to {capture} (same source, id and envelope; the content is that event's at this capture): a redelivery, not a second event (the stream rules check the first copy only).",
    extended:
      'This event repeats the event at {prior} with {added} extension attribute{added:s} added (same source and id {id:json}; AEP-0001 §4.2: a relay MAY add extension attributes): a redelivery, not a second event (the stream rules check the first copy only).',
    extendedFirst:
      'This event repeats the event at {prior} apart from extension attributes, {first} carried only by that copy and {added} only by this one (same source and id {id:json}, all else equal; AEP-0001 §4.2: a relay MAY add extension attributes, and copies arrive in any order): a redelivery, not a second event (the stream rules check the first copy only).',
    upleveled:
      'This event is the event at {prior} at a higher capture: that copy is this one down-leveled from {capture} to {to} (same source, id and envelope; AEP-0001 §8.2(b): copies may arrive in any order): a redelivery, not a second event (the stream rules check the first copy only).',
    extendedDownleveled:
      'This event repeats the event at {prior} down-leveled from {from} to {capture} with {added} extension attribute{added:s} added (AEP-0001 §4.2, §8.2(b)): a redelivery, not a second event (the stream rules check the first copy only).',
  },
  on: ['redelivery'],
  onEvent(f: AepFacts, ctx) {
    if (!f.redelivery) return;
    const prior = markLocation(f.redelivery);
    ctx.report({
      messageId: f.extensionsOnFirst
        ? 'extendedFirst'
        : f.downleveledTo
          ? 'upleveled'
          : f.extensionsAdded
            ? f.downleveledFrom
              ? 'extendedDownleveled'
              : 'extended'
            : f.downleveledFrom
              ? 'downleveled'
              : 'exact',
      args: {
        prior,
        id: String(f.ev.value.id),
        from: f.downleveledFrom,
        capture: f.ev.capture,
        to: f.downleveledTo,
        added: f.extensionsAdded ?? 0,
        first: f.extensionsOnFirst ?? 0,
      },
      related: [prior],
    });
  },
});
