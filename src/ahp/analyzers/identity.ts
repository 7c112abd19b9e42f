/**
 * The event-identity analyzer: a compact row per `(source, id)`, and whether a repeat is a retry or another view
 * (base/failure.md
 * §Duplicate delivery and retries) or a reuse. Names interned (at most MAX_NAMES); over `--max-events` the oldest row
 * goes.
 */
import { lineFingerprint, sameAsReadBack } from '../../core/canonical.ts';
import type { Mark } from '../../core/mark.ts';
import type { AhpMessage } from '../message.ts';
import type { BudgetHolder, EventBudget } from './budget.ts';
import type { Hash64 } from '../../core/canonical.ts';
import { CompactTable } from '../../core/table.ts';
import { Interner } from './budget.ts';
import { digestWords, valueDigest } from './digest.ts';
import type { Obj } from '../../core/value.ts';

import {
  CONTROL_FIELDS,
  CONTROL_MASK,
  CONTROL_PRESENT_SHIFT,
  controlPrint,
  EVENT_F64,
  EVENT_FLAG,
  EVENT_PTR,
  EVENT_U32,
  eventKey,
  FORM_SHIFT,
  FORMS,
  MAX_NAMES,
  TYPE_FP,
  type ControlPrint,
  type FormVerdict,
} from './identity-rows.ts';

export {
  CONTROL_FIELDS,
  EVENT_PTR,
  eventKey,
  sessionPrintOf,
  type ControlPrint,
  type FormVerdict,
} from './identity-rows.ts';

/** An event id reused by the same source in a way a retry or another view of the event cannot explain. */
export interface ReuseFacts {
  prior: Mark;
  priorVia: 'intercept' | 'observe';
  /** `type`: another event type; `retry`: a re-sent intercept request whose event differs. */
  kind: 'type' | 'retry' | 'metadata' | 'unverifiable';
  /** The differing control fields (may be empty for `retry`: then only content differs). */
  fields: string[];
}

/** What the event-identity analyzer says about the event of a message. */
export interface IdentityFacts {
  source: string;
  id: string;
  type: string;
  via: 'intercept' | 'observe';
  first: boolean;
  reuse?: ReuseFacts;
}

/** The event-identity analyzer */
export class EventIdentity implements BudgetHolder {
  private readonly rows = new CompactTable({ u32: EVENT_U32.count, f64: EVENT_F64.count });
  private readonly rereaders = new Map<number, (byteOffset: number) => string | undefined>();
  private readonly names = new Interner(MAX_NAMES);
  /** Key and row of the event of the message being observed (row undefined: not kept, the budget was full). */
  currentKey: Hash64 = { hi: 0, lo: 0 };
  /** Control-metadata fingerprints of the event of the message being observed. */
  currentControl: ControlPrint = { fp: [], mask: 0 };
  currentSlot: number | undefined;
  /** Called with the key of a row forgotten for the budget (analyzers keyed by events drop their entry). */
  onForget: (key: Hash64) => void = () => {};

  constructor(private readonly budget: EventBudget) {}

  held(): number {
    return this.rows.size;
  }

  /** Rows allocated: the high-water mark of events held at once (rounded up to whole chunks of rows). */
  get allocated(): number {
    return this.rows.allocated;
  }

  bytes(): number {
    return this.rows.bytes();
  }

  forgetOldest(): boolean {
    const s = this.rows.oldest();
    if (s === undefined) return false;
    const k = this.rows.keyAt(s);
    this.rows.deleteSlot(s);
    this.onForget(k);
    return true;
  }

  slot(key: Hash64): number | undefined {
    return this.rows.slot(key);
  }

  markAt(s: number): Mark {
    const r = this.rows;
    return this.budget.mark(r.getU(s, EVENT_U32.file), r.getU(s, EVENT_U32.line), r.getF(s, EVENT_F64.byteOffset));
  }

  /** The type name of row `s` (past {@link MAX_NAMES} distinct names: a placeholder). */
  typeName(s: number): string {
    return this.names.name(this.rows.getU(s, EVENT_U32.type)) ?? '(unrecorded type)';
  }

  /** Whether row `s` is an event of type `t` (by its type fingerprint). */
  isType(s: number, t: keyof typeof TYPE_FP): boolean {
    return (this.rows.getU(s, EVENT_U32.flags) >>> CONTROL_PRESENT_SHIFT) & 1
      ? this.rows.getU(s, EVENT_U32.control) === TYPE_FP[t]
      : false;
  }

  parentKey(s: number): Hash64 | undefined {
    return this.hasFlag(s, EVENT_FLAG.hasParent)
      ? { hi: this.rows.getU(s, EVENT_U32.parentKey), lo: this.rows.getU(s, EVENT_U32.parentKey + 1) }
      : undefined;
  }

  /** The fingerprint of `session.id` of row `s`'s first occurrence (undefined: it had none). */
  sessionPrint(s: number): number | undefined {
    const i = CONTROL_FIELDS.indexOf('session.id');
    return ((this.rows.getU(s, EVENT_U32.flags) >>> CONTROL_PRESENT_SHIFT) >>> i) & 1
      ? this.rows.getU(s, EVENT_U32.control + i)
      : undefined;
  }

  /** The form verdict kept for the elicitation request of row `s` (undefined: none recorded). */
  formOf(s: number): FormVerdict | undefined {
    return FORMS[(this.rows.getU(s, EVENT_U32.flags) >>> FORM_SHIFT) & 7];
  }

  /** The elicitation server and mode kept for row `s` (undefined: not recorded). */
  elicitServerMode(s: number): { server: string | undefined; mode: string | undefined } {
    return {
      server: this.names.name(this.rows.getU(s, EVENT_U32.elicitServer)),
      mode: this.names.name(this.rows.getU(s, EVENT_U32.elicitMode)),
    };
  }

  /** Record the elicitation request verdict of row `s`: its form, server and mode (non-strings are not recorded). */
  setElicitRequest(s: number, form: FormVerdict, server: unknown, mode: unknown): void {
    const r = this.rows;
    r.setU(s, EVENT_U32.flags, (r.getU(s, EVENT_U32.flags) & ~(7 << FORM_SHIFT)) | (FORMS.indexOf(form) << FORM_SHIFT));
    r.setU(s, EVENT_U32.elicitServer, typeof server === 'string' ? this.names.code(server) : 0);
    r.setU(s, EVENT_U32.elicitMode, typeof mode === 'string' ? this.names.code(mode) : 0);
  }

  modeReported(s: number): boolean {
    return this.hasFlag(s, EVENT_FLAG.modeReported);
  }

  setModeReported(s: number): void {
    this.setFlag(s, EVENT_FLAG.modeReported);
  }

  answerCheckedIs(s: number, digest: readonly [number, number]): boolean {
    const r = this.rows;
    return (
      this.hasFlag(s, EVENT_FLAG.answerChecked) &&
      r.getU(s, EVENT_U32.answerDigest) === digest[0] &&
      r.getU(s, EVENT_U32.answerDigest + 1) === digest[1]
    );
  }

  setAnswerChecked(s: number, digest: readonly [number, number]): void {
    this.setFlag(s, EVENT_FLAG.answerChecked);
    this.rows.setU(s, EVENT_U32.answerDigest, digest[0]);
    this.rows.setU(s, EVENT_U32.answerDigest + 1, digest[1]);
  }

  /** Record where the config.change.before of row `s` was denied (the first denial wins). */
  setDenied(s: number, at: Mark): void {
    if (this.hasFlag(s, EVENT_FLAG.denied)) return;
    this.setFlag(s, EVENT_FLAG.denied);
    this.rows.setU(s, EVENT_U32.deniedFile, this.budget.fileCode(at));
    this.rows.setU(s, EVENT_U32.deniedLine, at.line);
    this.rows.setF(s, EVENT_F64.deniedByteOffset, at.byteOffset ?? NaN);
  }

  deniedAt(s: number): Mark | undefined {
    const r = this.rows;
    if (!this.hasFlag(s, EVENT_FLAG.denied)) return undefined;
    return this.budget.mark(
      r.getU(s, EVENT_U32.deniedFile),
      r.getU(s, EVENT_U32.deniedLine),
      r.getF(s, EVENT_F64.deniedByteOffset),
    );
  }

  /** The identity facts of the event `ev` of `msg` (at `at`) against the rows before it. */
  observe(msg: AhpMessage, ev: Obj, at: Mark): IdentityFacts {
    const source = ev.source as string;
    const id = ev.id as string;
    const type = ev.type as string;
    const via = msg.kind === 'intercept-request' ? 'intercept' : 'observe';
    const key = eventKey(source, id);
    const intercepted = via === 'intercept';
    const control = controlPrint(ev);
    const facts: IdentityFacts = { source, id, type, via, first: false };
    const r = this.rows;
    let s = r.slot(key);
    if (s !== undefined) {
      const flags = r.getU(s, EVENT_U32.flags);
      const prior = this.markAt(s);
      const priorVia = flags & EVENT_FLAG.observed ? 'observe' : 'intercept';
      const fields = this.differingFields(s, control);
      const same = intercepted && flags & EVENT_FLAG.intercepted ? this.sameIntercepted(s, flags, msg, ev) : true;
      if (fields[0] === 'type') facts.reuse = { prior, priorVia, kind: 'type', fields };
      else if (same === false) facts.reuse = { prior, priorVia, kind: 'retry', fields };
      else if (fields.length) facts.reuse = { prior, priorVia, kind: 'metadata', fields };
      else if (same === undefined) facts.reuse = { prior, priorVia, kind: 'unverifiable', fields };
      if (intercepted && !(flags & EVENT_FLAG.intercepted)) {
        // first intercepted after an observation: the row's offset is the observation's, so keep a digest
        const digest = digestWords(valueDigest(ev, msg.bigIntegers, EVENT_PTR));
        r.setU(s, EVENT_U32.interceptDigest, digest[0]);
        r.setU(s, EVENT_U32.interceptDigest + 1, digest[1]);
        this.setFlag(s, EVENT_FLAG.intercepted);
      }
    } else {
      facts.first = true;
      if (this.budget.makeRoom(at)) {
        s = r.add(key);
        const fileCode = this.budget.fileCode(at);
        r.setU(s, EVENT_U32.file, fileCode);
        r.setU(s, EVENT_U32.line, at.line);
        r.setF(s, EVENT_F64.byteOffset, at.byteOffset ?? NaN);
        r.setU(s, EVENT_U32.type, this.names.code(type));
        let flags = (control.mask << CONTROL_PRESENT_SHIFT) | (via === 'observe' ? EVENT_FLAG.observed : 0);
        for (let i = 0; i < control.fp.length; i++) r.setU(s, EVENT_U32.control + i, control.fp[i]!);
        if (intercepted) {
          // a re-readable line keeps only its fingerprint (lineFingerprint): a re-sent
          // request reads it back and compares exactly; other inputs keep a digest
          const rereadable = msg.reread !== undefined && at.byteOffset !== undefined;
          if (rereadable) this.rereaders.set(fileCode, msg.reread!);
          const words = rereadable
            ? [lineFingerprint(msg.text), 0]
            : digestWords(valueDigest(ev, msg.bigIntegers, EVENT_PTR));
          flags |= EVENT_FLAG.intercepted | (rereadable ? EVENT_FLAG.rereadable : 0);
          r.setU(s, EVENT_U32.interceptDigest, words[0]!);
          r.setU(s, EVENT_U32.interceptDigest + 1, words[1]!);
        }
        if (typeof ev.parentEventId === 'string') {
          flags |= EVENT_FLAG.hasParent;
          const pk = eventKey(source, ev.parentEventId);
          r.setU(s, EVENT_U32.parentKey, pk.hi);
          r.setU(s, EVENT_U32.parentKey + 1, pk.lo);
        }
        r.setU(s, EVENT_U32.flags, flags);
      }
    }
    this.currentKey = key;
    this.currentSlot = s;
    this.currentControl = control;
    return facts;
  }

  private hasFlag(s: number, flag: number): boolean {
    return (this.rows.getU(s, EVENT_U32.flags) & flag) !== 0;
  }

  private setFlag(s: number, flag: number): void {
    this.rows.setU(s, EVENT_U32.flags, this.rows.getU(s, EVENT_U32.flags) | flag);
  }

  /** Which of `fields` differ between row `s` and the event being observed ({@link currentControl}). */
  differsFromCurrent(s: number, fields: readonly (typeof CONTROL_FIELDS)[number][]): string[] {
    const c = this.currentControl;
    const mask = (this.rows.getU(s, EVENT_U32.flags) >>> CONTROL_PRESENT_SHIFT) & CONTROL_MASK;
    return fields.filter((f) => {
      const i = CONTROL_FIELDS.indexOf(f);
      return ((mask >>> i) & 1) !== ((c.mask >>> i) & 1) || this.rows.getU(s, EVENT_U32.control + i) !== c.fp[i];
    });
  }

  private differingFields(s: number, c: ControlPrint): string[] {
    const mask = (this.rows.getU(s, EVENT_U32.flags) >>> CONTROL_PRESENT_SHIFT) & CONTROL_MASK;
    return CONTROL_FIELDS.filter(
      (_, i) => ((mask >>> i) & 1) !== ((c.mask >>> i) & 1) || this.rows.getU(s, EVENT_U32.control + i) !== c.fp[i],
    );
  }

  /** Whether the intercepted event `ev` equals the first intercepted copy kept in row `s` (the same JSON value). */
  private sameIntercepted(s: number, flags: number, msg: AhpMessage, ev: Obj): boolean | undefined {
    const r = this.rows;
    if (!(flags & EVENT_FLAG.rereadable)) {
      const d = digestWords(valueDigest(ev, msg.bigIntegers, EVENT_PTR));
      return d[0] === r.getU(s, EVENT_U32.interceptDigest) && d[1] === r.getU(s, EVENT_U32.interceptDigest + 1);
    }
    const reread = this.rereaders.get(r.getU(s, EVENT_U32.file));
    const off = r.getF(s, EVENT_F64.byteOffset);
    return sameAsReadBack(
      reread && !Number.isNaN(off) ? reread(off) : undefined,
      r.getU(s, EVENT_U32.interceptDigest),
      msg,
      EVENT_PTR,
    );
  }
}
