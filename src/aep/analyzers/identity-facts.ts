/** The facts the identity analyzer (identity.ts) finds about one event, and whether two events are copies. */
import type { Mark } from '../../core/mark.ts';
import type { AepCaptureLevel } from '../schema/registry.ts';

/** What the identity analyzer found about one event. */
export interface IdentityFacts {
  /** The first occurrence, when this event repeats it (exactly, or down-leveled): then no other fact is set. */
  redelivery?: Mark;
  /** With `redelivery`: the first copy's capture, when this repeat is that copy down-leveled to its own capture. */
  downleveledFrom?: AepCaptureLevel;
  /** With `redelivery`: the first copy's capture, when it is this one down-leveled (AEP-0001 §7 rule 2: any order). */
  downleveledTo?: AepCaptureLevel;
  /** With `redelivery` (or a `redaction` unverifiable): how many extension attributes a relay added to the first copy (AEP-0001 §4.2). */
  extensionsAdded?: number;
  /** With `redelivery`: how many extension attributes only the first copy carries (a relay added them to it, §4.2). */
  extensionsOnFirst?: number;
  /** The first occurrence, when this event reuses its `(source, id)` with other content. */
  collision?: Mark;
  /** The first occurrence, when this event repeats its `(source, id)` but whether it is the same event cannot be decided. */
  unverifiable?: Mark;
  /**
   * With `unverifiable`: `read-back` (the first line could not be read back as it was), `redaction` (a `redacted` copy
   * of a `full` event whose free text another pipeline redacted) or `withheld` (a bridge withheld a copy's payload at
   * its ceiling, AEP-0005 §3.3: the envelopes agree, the contents cannot be compared).
   */
  unverifiableWhy?: 'read-back' | 'redaction' | 'withheld';
  /** With `redaction`: the first copy's capture (`full` or `redacted`). */
  redactedFrom?: AepCaptureLevel;
  /** With `redaction`: `first` when the first copy is the redacted one (this one `full`), the other order. */
  redactedCopy?: 'first';
  /** With `withheld`: whose payload was withheld. */
  withheldCopy?: 'this' | 'first' | 'both';
}

/** Whether this event is another copy under the `(source, id)` of the event at `at`: one event to a consumer that dedupes (AEP-0001 §7 rule 4). */
export function copiesAt(facts: IdentityFacts, at: Mark): boolean {
  const first = facts.collision ?? facts.unverifiable;
  return first !== undefined && first.line === at.line && first.file === at.file;
}
