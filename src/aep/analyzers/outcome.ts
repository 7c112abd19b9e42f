/** The outcome Event of a command (AEP-0004 §6): what the control analyzer tells the outcome and text-answer rules. */
import type { Mark } from '../../core/mark.ts';
import type { TextAnswer } from '../text-answer.ts';

/** The outcome Event of an accepted command (AEP-0004 §6), found on `attention.answered` and `run.cancelled`. */
export interface OutcomeFact {
  command: Mark;
  commandType: string;
  /** `cause` names the command or its ack. */
  causeLinked: boolean;
  /** The command's text-only answer, when it had one. */
  text?: TextAnswer;
  option?: string;
  /** `answer.text` is present on the `attention.answered`. */
  textKept: boolean;
}

/** The outcome fact of the command `e` for the payload `data` of its `attention.answered` or `run.cancelled`. */
export function outcomeOf(
  data: Record<string, unknown> | undefined,
  e: { command: Mark; type: string; text?: TextAnswer },
  causeLinked: boolean,
): OutcomeFact {
  const answer = data?.answer as { option?: unknown; text?: unknown } | undefined;
  const o: OutcomeFact = {
    command: e.command,
    commandType: e.type,
    causeLinked,
    textKept: typeof answer?.text === 'string',
  };
  if (typeof answer?.option === 'string') o.option = answer.option;
  if (e.text) o.text = e.text;
  return o;
}
