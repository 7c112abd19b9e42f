/** The facts of the control analyzer (control.ts) about one event. */
import type { Mark } from '../../core/mark.ts';
import type { Completion } from './markers.ts';
import type { HeldIssue } from './held-responds.ts';
import type { OutcomeFact } from './outcome.ts';
import type { PendingCommand } from './pending-command.ts';

/** What the control analyzer found about one event. */
export interface ControlFacts {
  /** An ack from a second target of one command: where the first target acked, and the command (AEP-0004 §4.5). */
  secondTarget?: { first: Mark; command: Mark };
  /** The outcome of an accepted command (an `attention.answered` or a `run.cancelled`). */
  outcome?: OutcomeFact;
  /** A `control.rejected{reason:"invalid"}` of a text answer that names an option of the open request (AEP-0008). */
  rejectedMatched?: { command: Mark; option: string };
  /** Commands to this event's session still unacked although this event of the target is past their ack window. */
  overdue?: PendingCommand[];
  /** `lateByMs`: past the ack window, when both times parse. */
  ack?: {
    cause: string | undefined;
    prior?: Completion;
    command?: { at: Mark; type: string; lateByMs?: number };
  };
  /** An invalid `control.attention.respond` that this `control.accepted` or `attention.answered` goes along with. */
  endorsesInvalid?: Mark;
  /** The values issues of an invalid respond this event decided other than by rejecting it as `invalid`. */
  respondIssues?: HeldIssue[];
  /** On a command: the acks of it earlier in the input, judged as they would be after it and reported at their lines. */
  earlyAck?: EarlyJudgement;
}

/**
 * What the acks kept before their command say once it arrives (copies and events arrive in any order, AEP-0001 §7.2):
 * the first decides, and is judged as an ack after the command would be; another source's is a second target.
 */
export interface EarlyJudgement {
  /** The deciding ack: its mark and type. */
  at: Mark;
  type: string;
  /** Past the ack window by the two `time` attributes (ms), as for an ack after its command. */
  lateByMs?: number;
  /** Acks of the command from another source than the first (AEP-0004 §4.5). */
  second?: { at: Mark; type: string }[];
  /** The deciding ack accepts an invalid `control.attention.respond` (AEP-0006 MUST-reject). */
  endorsesInvalid?: boolean;
  /** The deciding ack rejects as invalid a text answer naming an option of the open request (AEP-0008). */
  rejectedMatched?: { option: string };
}
