/**
 * The control analyzer (AEP-0004 §2-§7): unacked and overdue commands, the first ack decision per `(ack source, cause)`,
 * a command's first target (§4.5) and expected outcome (§6), text answers (AEP-0008); an ack of no command in the input
 * is no finding (a command is a foreign event, §2.2) unless its cause names the emitter's own event (at the end: an ack
 * may come before its command in the input, early-acks.ts).
 */
import { textKey, type Hash64 } from '../../core/canonical.ts';
import type { Mark } from '../../core/mark.ts';
import type { StateHolder } from '../../core/state-budget.ts';
import { ReplacingSpillTable } from '../../core/spill-replacing.ts';
import { attr, scopeOf, type AepEvent, type AepScope } from '../event.ts';
import { textAnswerOf, type TextAnswer } from '../text-answer.ts';
import type { AttentionFacts } from './attention.ts';
import type { OpenBudget } from './budget.ts';
import { CommandIndex } from './command-index.ts';
import type { ControlFacts, EarlyJudgement } from './control-facts.ts';
import type { FormFacts } from './form-values.ts';
import { HeldResponds } from './held-responds.ts';
import { outcomeOf } from './outcome.ts';
import { EarlyAcks, ownMark } from './early-acks.ts';
import { ackOf, timeOf, type AckDecision, type EarlyAck, type PendingCommand } from './pending-command.ts';
import type { LifecycleAnalyzer, LifecycleFacts } from './lifecycle.ts';
import type { AepIdTable } from './id-table.ts';
import { copiesAt, type IdentityFacts } from './identity-facts.ts';
import type { SessionRecord } from './session.ts';
import type { CompletionMarks } from './markers.ts';

export type { PendingCommand } from './pending-command.ts';
export type { ControlFacts, EarlyJudgement } from './control-facts.ts';

/** Ack decisions (AEP-0004 §3). */
export const ACKS: ReadonlySet<string> = new Set(['control.accepted', 'control.rejected']);

/** An accepted command whose outcome Event is expected (AEP-0004 §5-§6). */
interface Expected {
  /** The command ids and their ack ids an outcome may name in `cause` (several accepted commands of one subject). */
  ids: string[];
  command: Mark;
  type: string;
  text?: TextAnswer;
}

/** The command map key of `(session, id)`: `<session length>:<session><id>` (injective; cheaper than JSON). */
const key2 = (a: string, b: string) => a.length + ':' + a + b;

/** Estimated bytes of one expected-outcome entry (key, strings, record, marks): measured 314, docs/benchmarks.md. */
const ENTRY_BYTES = 320;
/** The u32 columns of a first target: its source's key, then the ack's and the command's line and input index. */
const TARGET_U32 = {
  sourceHi: 0,
  sourceLo: 1,
  atLine: 2,
  atFile: 3,
  commandLine: 4,
  commandFile: 5,
  count: 6,
} as const;
/** The f64 columns of a first target: the ack's and the command's byte offset (NaN: not kept). */
const TARGET_F64 = { atByte: 0, commandByte: 1, count: 2 } as const;

/**
 * Commands and their acks for one run; a StateHolder of the memory budget for what it keeps of completed commands (the
 * first targets, then the expected outcomes), never for pending commands (open work, counted by `maxOpen`).
 */
export class ControlAnalyzer implements StateHolder {
  private readonly commands = new Map<string, PendingCommand>();
  /** Pending commands per session name not yet reported overdue, so most events skip the overdue check with one lookup. */
  private readonly pendingBySession = new Map<string, number>();
  /** Keyed `(session, command id)` -> the first target that acked it: its source's key, the ack's and command's marks. */
  private readonly targets: ReplacingSpillTable;
  /** `a(session, subject)` for an accepted respond, `c(session, run)` for an accepted cancel. */
  private readonly expected = new Map<string, Expected>();
  /** Sessions with an event that may have been an ack of unknown cause (a failed `cause` or `type`); kept to the end. */
  private readonly unknownAcks = new Set<string>();
  /** Acks whose cause named no command yet, by `(session, cause)` (early-acks.ts). */
  private readonly earlyAcks = new EarlyAcks();
  /** Commands by bare id and ended session names. */
  private readonly index: CommandIndex;
  /** The values issues of pending invalid responds (a StateHolder of its own). */
  readonly held = new HeldResponds();

  constructor(
    readonly ackWindowMs: number,
    private readonly lifecycle: LifecycleAnalyzer,
    private readonly budget: OpenBudget,
    private readonly marks: CompletionMarks,
    private readonly names: AepIdTable,
    spillRows?: number,
  ) {
    this.targets = new ReplacingSpillTable({ u32: TARGET_U32.count, f64: TARGET_F64.count, memRows: spillRows });
    this.index = new CommandIndex(names, spillRows);
  }

  get size(): number {
    return this.commands.size;
  }

  bytes(): number {
    return this.targets.bytes() + this.expected.size * ENTRY_BYTES + this.earlyAcks.bytes() + this.index.bytes();
  }

  forgetOldest(): boolean {
    if (this.targets.forgetOldest()) return true;
    const first = this.expected.keys().next();
    if (!first.done) return this.expected.delete(first.value);
    return this.earlyAcks.forgetOldest() || this.index.forgetOldest();
  }

  /** The acks no command matched that name the emitter's own event or a command to another session (early-acks.ts). */
  unmatchedAcks(): ReturnType<EarlyAcks['unmatched']> {
    return this.earlyAcks.unmatched(this.index, this.names);
  }

  /** True when an event of `session` may have acked any of its commands (README §Decisions on a partly broken envelope). */
  mayBeAcked(session: string): boolean {
    return this.unknownAcks.has(session);
  }

  pendingCommands(): IterableIterator<PendingCommand> {
    return this.commands.values();
  }

  /**
   * An ack under the `(source, id)` of the earlier ack of its own command with other content (a re-emit that is not
   * byte-identical, AEP-0004 §3): its prior decision, for aep/ack-exclusive; nothing is recorded.
   */
  ackCopy(ev: AepEvent, facts: ControlFacts & IdentityFacts, rec: SessionRecord): void {
    const cause = ACKS.has(ev.type) ? attr(ev, 'cause') : undefined;
    const prior = cause === undefined ? undefined : this.marks.get(rec.idKey('a' + cause));
    if (prior && copiesAt(facts, prior.at)) facts.ack = { cause, prior };
  }

  /** Record a command; decide an ack; link an answer to the respond that caused it. */
  observe(
    ev: AepEvent,
    facts: ControlFacts & FormFacts & AttentionFacts & Pick<LifecycleFacts, 'session'> & { scope: AepScope; at: Mark },
  ): void {
    const type = ev.type;
    if (facts.scope === 'foreign' && type !== 'attention.routed') {
      const session = attr(ev, 'session');
      if (session !== undefined) this.command(ev, session, facts);
    }
    // the command this event answers (an ack, or an attention.answered caused by a respond)
    const rec = facts.session;
    if (!rec) return;
    if (type === 'session.ended') this.index.sessionEnded(rec.session, facts.at);
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
        else this.marks.add(k, facts.at, type, ev);
      }
      if (cmd) {
        this.commands.delete(ck!);
        if (!cmd.overdue) this.unpend(cmd.session);
        this.budget.release(undefined);
        ack.command = { at: cmd.at, type: cmd.type };
        const t = timeOf(ev);
        if (t !== undefined && cmd.timeMs !== undefined && !cmd.retried && t - cmd.timeMs > this.ackWindowMs)
          ack.command.lateByMs = t - cmd.timeMs - this.ackWindowMs;
        this.rememberTarget(textKey(ck!), rec.sourceKey(), facts.at, cmd.at);
        this.decided(ackOf(ev), cmd, facts);
      } else if (ck !== undefined) {
        const t = this.targets;
        const s = t.size > 0 ? t.slot(textKey(ck)) : undefined;
        const src = rec.sourceKey();
        if (s !== undefined && (t.getU(s, TARGET_U32.sourceHi) !== src.hi || t.getU(s, TARGET_U32.sourceLo) !== src.lo))
          facts.secondTarget = {
            first: this.markAt(s, TARGET_U32.atLine, TARGET_U32.atFile, TARGET_F64.atByte),
            command: this.markAt(s, TARGET_U32.commandLine, TARGET_U32.commandFile, TARGET_F64.commandByte),
          };
        if (s === undefined && !ack.prior) {
          // its command may come later in the input: aep/ack-cause-not-command waits for the end (unmatchedAcks)
          const early: EarlyAck = { ...ackOf(ev), at: facts.at, source: src, timeMs: timeOf(ev) };
          early.ownKey = rec.idKey(cause!); // looked up again at the end: the own event may come later in the input
          const own = ownMark(this.names, early.ownKey);
          if (own) early.own = own;
          this.earlyAcks.keep(ck, early, cause!, rec.session);
        }
      }
    }
    if (cmd?.invalid) {
      // the first answer to an invalid respond decides: accepted or answered endorses it
      cmd.invalid = false;
      if (type !== 'control.rejected') facts.endorsesInvalid = cmd.at;
      facts.respondIssues = this.held.decide(ck!, ev);
    }
    if (type === 'attention.answered' || type === 'run.cancelled') this.outcome(ev, rec.session, facts, cmd);
    if (this.pendingBySession.size > 0 && this.pendingBySession.has(rec.session)) this.overdue(ev, rec.session, facts);
  }

  /** An ack decided `cmd`: an accepted respond or cancel expects its outcome; a rejected text answer is judged. */
  private decided(ack: AckDecision, cmd: PendingCommand, facts: Pick<ControlFacts, 'rejectedMatched'>): void {
    const ackId = ack.id;
    if (ack.type === 'control.rejected') {
      const reason = ack.reason;
      const m = cmd.text?.match;
      if (reason === 'invalid' && m?.status === 'matched' && cmd.text!.requestOpen)
        facts.rejectedMatched = { command: cmd.at, option: m.option };
      return;
    }
    let k: string | undefined;
    if (cmd.subject !== undefined) k = 'a' + key2(cmd.session, cmd.subject);
    else if (cmd.cancels !== undefined) k = 'c' + key2(cmd.session, cmd.cancels);
    if (k === undefined) return;
    const prior = this.expected.get(k);
    if (prior) prior.ids.push(cmd.id, ackId);
    else {
      const e: Expected = { ids: [cmd.id, ackId], command: cmd.at, type: cmd.type };
      if (cmd.text) e.text = cmd.text;
      this.expected.set(k, e); // absent: set as the newest entry (the memory budget forgets the oldest first)
    }
  }

  /** An `attention.answered` or `run.cancelled{by:"control"}` that is the outcome of an accepted command. */
  private outcome(ev: AepEvent, session: string, facts: ControlFacts, pending?: PendingCommand): void {
    const data = ev.payloadValid ? (ev.value.data as Record<string, unknown> | undefined) : undefined;
    let k: string | undefined;
    if (ev.type === 'run.cancelled') {
      if (data?.by !== 'control') return;
      const run = attr(ev, 'run');
      k =
        run !== undefined && this.expected.has('c' + key2(session, run))
          ? 'c' + key2(session, run)
          : 'c' + key2(session, '');
    } else {
      const subject = attr(ev, 'subject');
      if (subject === undefined) return;
      k = 'a' + key2(session, subject);
    }
    const e = this.expected.get(k);
    if (!e) {
      // an answer caused by a text answer still awaiting its ack applied it all the same (AEP-0008 §1)
      if (pending?.text && ev.type === 'attention.answered' && pending.subject === attr(ev, 'subject'))
        facts.outcome = outcomeOf(data, { command: pending.at, type: pending.type, text: pending.text }, true);
      return;
    }
    this.expected.delete(k);
    const cause = attr(ev, 'cause');
    const causeLinked = cause !== undefined && e.ids.includes(cause);
    // an answer that came out of band is not this command's outcome
    if (!causeLinked && data?.via === 'oob') return;
    facts.outcome = outcomeOf(data, e, causeLinked);
  }

  /**
   * A repeat of a pending command under its `(source, id)`: a retry (AEP-0004 §2.3), sent whole again, so its `time` is
   * the first send's and the window of the delivery the target answers is not in the stream.
   */
  retried(ev: AepEvent): void {
    if ((ev.info?.scope ?? scopeOf(ev.type)) !== 'foreign' || ev.type === 'attention.routed') return;
    const session = attr(ev, 'session');
    const cmd = session === undefined ? undefined : this.commands.get(key2(session, attr(ev, 'id')!));
    if (cmd) cmd.retried = true;
  }

  /** Commands to `session` whose window this event of its target has passed, each reported once. */
  private overdue(ev: AepEvent, session: string, facts: ControlFacts): void {
    const t = timeOf(ev);
    // an event of the session whose type or cause failed may have been the ack: overdue is then not known
    if (t === undefined || this.unknownAcks.has(session)) return;
    let late: PendingCommand[] | undefined;
    for (const cmd of this.commands.values()) {
      if (cmd.session !== session || cmd.overdue || cmd.retried || cmd.ackForgotten || cmd.timeMs === undefined)
        continue;
      if (t - cmd.timeMs <= this.ackWindowMs) continue;
      cmd.overdue = true;
      this.unpend(session);
      (late ??= []).push(cmd);
    }
    if (late) facts.overdue = late;
  }

  /** Remember the first target of a command (`key`), its source's key, the ack's and the command's marks: the newest row. */
  private rememberTarget(key: Hash64, source: Hash64, at: Mark, command: Mark): void {
    const t = this.targets;
    const s = t.put(key);
    t.setU(s, TARGET_U32.sourceHi, source.hi);
    t.setU(s, TARGET_U32.sourceLo, source.lo);
    t.setU(s, TARGET_U32.atLine, at.line);
    t.setU(s, TARGET_U32.atFile, this.names.fileIndex(at.file));
    t.setF(s, TARGET_F64.atByte, at.byteOffset ?? NaN);
    t.setU(s, TARGET_U32.commandLine, command.line);
    t.setU(s, TARGET_U32.commandFile, this.names.fileIndex(command.file));
    t.setF(s, TARGET_F64.commandByte, command.byteOffset ?? NaN);
  }

  /** The mark kept in row `s` of the first targets at the given columns. */
  private markAt(s: number, line: number, file: number, byte: number): Mark {
    const t = this.targets;
    const m: Mark = { file: this.names.fileName(t.getU(s, file)), line: t.getU(s, line) };
    const b = t.getF(s, byte);
    if (!Number.isNaN(b)) m.byteOffset = b;
    return m;
  }

  private unpend(session: string): void {
    const n = (this.pendingBySession.get(session) ?? 1) - 1;
    if (n <= 0) this.pendingBySession.delete(session);
    else this.pendingBySession.set(session, n);
  }

  /** A command to `session`: pending until its ack (a `maxOpen` slot); an invalid respond is flagged. */
  private command(
    ev: AepEvent,
    session: string,
    facts: ControlFacts & FormFacts & AttentionFacts & { at: Mark },
  ): void {
    const id = attr(ev, 'id')!;
    const k = key2(session, id);
    this.index.command(id, session, facts.at);
    // a command under an id already acked starts over: its first target is not this one's
    if (this.targets.size > 0) this.targets.delete(textKey(k));
    let cmd = this.commands.get(k);
    const early = cmd ? undefined : this.earlyAcks.take(k);
    if (!cmd && (early !== undefined || this.budget.admit(undefined, ev))) {
      cmd = {
        at: facts.at,
        type: ev.type,
        id,
        source: attr(ev, 'source')!,
        session,
        timeMs: timeOf(ev),
        targetSeen: this.lifecycle.emittersOf(session) !== undefined,
      };
      let live = false; // an emitter of the session name that has not ended
      for (let r = this.lifecycle.emittersOf(session); r && !live; r = r.nextEmitter) live = !r.ended;
      const ended = live ? undefined : this.index.endedAt(session);
      if (ended) {
        cmd.afterEnd = ended;
        cmd.targetSeen = true;
      }
      const data = ev.payloadValid ? (ev.value.data as Record<string, unknown> | undefined) : undefined;
      if (ev.type === 'control.attention.respond') {
        const subject = attr(ev, 'subject');
        if (subject !== undefined) cmd.subject = subject;
        const link = facts.attention?.link;
        const text = textAnswerOf(data, link?.status === 'found' ? link.request : undefined);
        if (text) cmd.text = text;
      } else if (ev.type === 'control.cancel' && data) {
        const run = attr(ev, 'run');
        cmd.cancels = data.scope === 'run' && run !== undefined ? run : '';
      }
      if (early) {
        this.earlyDecided(ev, k, early, cmd, facts);
        return;
      }
      if (this.earlyAcks.mayHaveForgotten(k)) cmd.ackForgotten = true;
      this.commands.set(k, cmd);
      this.pendingBySession.set(session, (this.pendingBySession.get(session) ?? 0) + 1);
    }
    if (cmd && ev.type === 'control.attention.respond' && facts.form && this.held.hold(k, session, ev, facts.form))
      cmd.invalid = true;
  }

  /**
   * `cmd` (key `k`) arrives after its acks: decided, never pending, and judged as the same acks after it would be (the
   * window by the two times, the first target, an invalid or text answer's decision), reported at the acks' lines.
   */
  private earlyDecided(
    ev: AepEvent,
    k: string,
    acks: EarlyAck[],
    cmd: PendingCommand,
    facts: ControlFacts & FormFacts,
  ): void {
    const first = acks[0]!;
    const j: EarlyJudgement = { at: first.at, type: first.type };
    if (first.timeMs !== undefined && cmd.timeMs !== undefined && first.timeMs - cmd.timeMs > this.ackWindowMs)
      j.lateByMs = first.timeMs - cmd.timeMs - this.ackWindowMs;
    this.rememberTarget(textKey(k), first.source, first.at, cmd.at);
    for (const a of acks)
      if (a.source.hi !== first.source.hi || a.source.lo !== first.source.lo)
        (j.second ??= []).push({ at: a.at, type: a.type });
    const r: Pick<ControlFacts, 'rejectedMatched'> = {};
    this.decided(first, cmd, r);
    if (r.rejectedMatched) j.rejectedMatched = { option: r.rejectedMatched.option };
    if (ev.type === 'control.attention.respond' && facts.form && this.held.hold(k, cmd.session, ev, facts.form)) {
      if (first.type !== 'control.rejected') j.endorsesInvalid = true;
      const issues = this.held.decide(k, first);
      if (issues) facts.respondIssues = issues;
    }
    facts.earlyAck = j;
  }
}
