/**
 * The control analyzer (AEP-0004 §2-§3): unacked commands and the first ack decision per `(ack source, cause)`. An ack
 * with
 * no command in the input gets no finding: a command is a foreign event (§2.2), not proven recorded.
 */
import type { Mark } from '../../core/mark.ts';
import { attr, type AepEvent, type AepScope } from '../event.ts';
import type { OpenBudget } from './budget.ts';
import type { FormFacts } from './form-values.ts';
import type { LifecycleAnalyzer, LifecycleFacts } from './lifecycle.ts';
import type { Completion, CompletionMarks } from './markers.ts';

/** Ack decisions (AEP-0004 §3). */
export const ACKS: ReadonlySet<string> = new Set(['control.accepted', 'control.rejected']);

/** A command (AEP-0004 §2) awaiting its ack. */
export interface PendingCommand {
  at: Mark;
  type: string;
  session: string;
  /** `time` in ms since the epoch, when it parses. */
  timeMs: number | undefined;
  /** True when an emitter of the addressed session had been seen when the command came. */
  targetSeen: boolean;
  /** A `control.attention.respond` whose values fail its form, not yet answered (AEP-0002 §5.3 MUST-reject). */
  invalid?: boolean;
}

/** What the control analyzer found about one event. */
export interface ControlFacts {
  /** `lateByMs`: how far past the ack window the ack's `time` is, when both times parse. */
  ack?: { cause: string | undefined; prior?: Completion; command?: { at: Mark; type: string; lateByMs?: number } };
  /** An invalid `control.attention.respond` that this `control.accepted` or `attention.answered` goes along with. */
  endorsesInvalid?: Mark;
}

/** The command map key of `(session, id)`: `<session length>:<session><id>` (injective; cheaper than JSON). */
const key2 = (a: string, b: string) => a.length + ':' + a + b;

/** An event's `time` in ms since the epoch, or `undefined` when it does not parse (leap seconds, lowercase forms). */
function timeOf(ev: AepEvent): number | undefined {
  const t = attr(ev, 'time');
  const ms = t === undefined ? NaN : Date.parse(t);
  return Number.isNaN(ms) ? undefined : ms;
}

/** Commands and their acks for one run. */
export class ControlAnalyzer {
  private readonly commands = new Map<string, PendingCommand>();
  /** Sessions with an event that may have been an ack of unknown cause (a failed `cause` or `type`); kept to the end. */
  private readonly unknownAcks = new Set<string>();

  constructor(
    readonly ackWindowMs: number,
    private readonly lifecycle: LifecycleAnalyzer,
    private readonly budget: OpenBudget,
    private readonly marks: CompletionMarks,
  ) {}

  get size(): number {
    return this.commands.size;
  }

  /** True when an event of `session` may have acked any of its commands (README §Decisions on a partly broken envelope). */
  mayBeAcked(session: string): boolean {
    return this.unknownAcks.has(session);
  }

  /** Commands still awaiting their ack, in arrival order (end of input). */
  pendingCommands(): IterableIterator<PendingCommand> {
    return this.commands.values();
  }

  /** Record a command; decide an ack; link an answer to the respond that caused it. */
  observe(
    ev: AepEvent,
    facts: ControlFacts & FormFacts & Pick<LifecycleFacts, 'session'> & { scope: AepScope; at: Mark },
  ): void {
    const type = ev.type;
    if (facts.scope === 'foreign' && type !== 'attention.routed') {
      const session = attr(ev, 'session');
      if (session !== undefined) this.command(ev, session, facts);
    }
    // the command this event answers (an ack, or an attention.answered caused by a respond)
    const rec = facts.session;
    if (!rec) return;
    const isAck = ACKS.has(type);
    if (ev.untrusted !== undefined && (type === '' || ev.untrusted.has('cause'))) {
      // an ack (or a caused answer) whose command is unknown: no ack decision is recorded or judged
      if (type === '' || isAck) this.unknownAcks.add(rec.session);
      if (type === '' || isAck || type === 'attention.answered') return;
    }
    const cause = isAck || type === 'attention.answered' ? attr(ev, 'cause') : undefined;
    const ck = cause === undefined ? undefined : key2(rec.session, cause);
    const cmd = ck === undefined ? undefined : this.commands.get(ck);
    if (isAck) {
      const ack: NonNullable<ControlFacts['ack']> = { cause };
      facts.ack = ack;
      if (cause !== undefined) {
        const k = rec.idKey('a' + cause);
        const prior = this.marks.get(k);
        if (prior) ack.prior = prior;
        else this.marks.put(k, facts.at, type, ev);
      }
      if (cmd) {
        this.commands.delete(ck!);
        this.budget.release(undefined);
        ack.command = { at: cmd.at, type: cmd.type };
        const t = timeOf(ev);
        if (t !== undefined && cmd.timeMs !== undefined && t - cmd.timeMs > this.ackWindowMs)
          ack.command.lateByMs = t - cmd.timeMs - this.ackWindowMs;
      }
    }
    if (cmd?.invalid) {
      // the first answer to an invalid respond decides: accepted or answered endorses it
      cmd.invalid = false;
      if (type !== 'control.rejected') facts.endorsesInvalid = cmd.at;
    }
  }

  /** A command to `session`: pending until its ack (a `maxOpen` slot); an invalid respond is flagged. */
  private command(ev: AepEvent, session: string, facts: FormFacts & { at: Mark }): void {
    const k = key2(session, attr(ev, 'id')!);
    let cmd = this.commands.get(k);
    if (!cmd && this.budget.admit(undefined, ev)) {
      cmd = {
        at: facts.at,
        type: ev.type,
        session,
        timeMs: timeOf(ev),
        targetSeen: this.lifecycle.emittersOf(session) !== undefined,
      };
      this.commands.set(k, cmd);
    }
    const outcome = facts.form?.outcome;
    if (cmd && ev.type === 'control.attention.respond' && outcome?.kind === 'checked') {
      if (outcome.issues.some((i) => i.kind === 'type' || i.kind === 'required' || i.kind === 'choice'))
        cmd.invalid = true;
    }
  }
}
