/** A command awaiting its ack, and an ack decision kept apart from its command (the control analyzer, control.ts). */
import type { Hash64 } from '../../core/canonical.ts';
import type { Mark } from '../../core/mark.ts';
import { attr, type AepEvent } from '../event.ts';
import type { TextAnswer } from '../text-answer.ts';

/** A command (AEP-0004 §2) awaiting its ack. */
export interface PendingCommand {
  at: Mark;
  type: string;
  id: string;
  source: string;
  session: string;
  /** `subject` of a `control.attention.respond`. */
  subject?: string;
  /** The run a `control.cancel` with scope "run" names (`''`: the session). */
  cancels?: string;
  /** A text-only answer's verdict against the request's options. */
  text?: TextAnswer;
  /** Reported by aep/ack-overdue: its target emitted past the window without acking. */
  overdue?: boolean;
  /** `time` in ms since the epoch, when it parses. */
  timeMs: number | undefined;
  /** True when an emitter of the addressed session had been seen when the command came. */
  targetSeen: boolean;
  /** A `control.attention.respond` whose values fail its form, not yet answered (AEP-0002 §5.3 MUST-reject). */
  invalid?: boolean;
  /** The `session.ended` of the addressed session name that came before the command. */
  afterEnd?: Mark;
  /** Repeated in the input before its ack: a retry (AEP-0004 §2.3) whose send time the stream does not hold. */
  retried?: boolean;
  /** An ack earlier in the input may have answered it and been forgotten under the memory budget: no absence verdict. */
  ackForgotten?: boolean;
}

/** What an ack decision says of its command: its type, id and (rejected) reason, known when its payload passed. */
export interface AckDecision {
  type: string;
  id: string;
  reason?: unknown;
  reasonKnown: boolean;
}

/** An ack kept apart from its command: its decision, where it is, its emitter's source key and its `time` in ms. */
export interface EarlyAck extends AckDecision {
  at: Mark;
  source: Hash64;
  timeMs: number | undefined;
  /** The emitter's own event its cause names, when it came before the ack. */
  own?: Mark;
  /** The identity key of `(source, cause)` when {@link own} is not set: looked up again at the end of input. */
  ownKey?: Hash64;
}

/** An event's `time` in ms since the epoch, or `undefined` when it does not parse (leap seconds, lowercase forms). */
export function timeOf(ev: AepEvent): number | undefined {
  const t = attr(ev, 'time');
  const ms = t === undefined ? NaN : Date.parse(t);
  return Number.isNaN(ms) ? undefined : ms;
}

/** The ack decision of the ack event `ev`. */
export function ackOf(ev: AepEvent): AckDecision {
  const a: AckDecision = { type: ev.type, id: attr(ev, 'id')!, reasonKnown: ev.payloadValid };
  if (ev.type === 'control.rejected' && ev.payloadValid)
    a.reason = (ev.value.data as { reason?: unknown } | undefined)?.reason;
  return a;
}
