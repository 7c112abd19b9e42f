/**
 * The event-identity analyzer: a compact row per `(source, id)`, and whether a repeat is a retry or another view
 * (base/failure.md
 * §Duplicate delivery and retries) or a reuse. Names interned (at most MAX_NAMES); over `--max-events` the oldest row
 * goes.
 */
import { lineFingerprint, pairKeyUnder, pairSourceWords, sameAsReadBack } from '../../core/canonical.ts';
import type { Mark } from '../../core/mark.ts';
import type { AhpMessage } from '../message.ts';
import type { BudgetHolder, EventBudget } from './budget.ts';
import type { Hash64 } from '../../core/canonical.ts';
import { KeyScreen } from '../../core/key-screen.ts';
import { CompactTable } from '../../core/table.ts';
import { Interner } from './budget.ts';
import { digestWords, valueDigest } from './digest.ts';

import { parseJsonText } from '../../core/json.ts';
import { getAt } from '../../core/pointer.ts';
import { isObj, type Obj } from '../../core/value.ts';
import {
  CONTROL_FIELDS,
  controlDigest,
  controlPrint,
  controlPrintInto,
  EVENT_F64,
  EVENT_FLAG,
  EVENT_PTR,
  EVENT_U32,
  eventKey,
  EXTRA_U32,
  FORM_SHIFT,
  FORMS,
  MAX_NAMES,
  RARE_F64,
  RARE_U32,
  TYPE_FP,
  TYPE_SHIFT,
  typeFp,
  WIDE_U32,
  type ControlPrint,
  type FormVerdict,
} from './identity-rows.ts';

const SESSION_FIELD = CONTROL_FIELDS.indexOf('session.id');
/** Bits of the rows that have an extra row: a `session.id` fingerprint or a recorded form ({@link FORM_SHIFT}). */
const EXTRA_BITS = EVENT_FLAG.session | (7 << FORM_SHIFT);

/**
 * Estimated bytes of one event's state on any transport: an event row with its wide row (an input that cannot be read
 * back) is about this much, a row alone 67 (about 34 now: event rows keep no order links, line, file or type
 * columns, and a parent's key is in its own table; the figure stays, so the budget forgets where it did). One figure
 * for every input, so the memory budget forgets at the same event whether a file or a pipe is read
 * (test/invariants/); the extra rows of the few events that have one are not counted.
 */
const EVENT_BYTES = 147;

export {
  CONTROL_FIELDS,
  EVENT_PTR,
  eventKey,
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
  /** The first occurrence of its `(source, id)` (in the rows held). */
  first: boolean;
  reuse?: ReuseFacts;
}

/** The event-identity analyzer */
export class EventIdentity implements BudgetHolder {
  private readonly rows = new CompactTable({ u32: EVENT_U32.count, f64: EVENT_F64.count, fifo: true, load: 2 });
  /** Most events are a first occurrence: the screen answers them without the table's random reads. */
  private readonly seen = new KeyScreen();
  /** The parent's key (hi, lo) of the events that name one ({@link EVENT_FLAG.hasParent}); goes with its event row. */
  private readonly parents = new CompactTable({ u32: 2, f64: 0, fifo: true, load: 2 });
  /** Extra rows by event key: elicitation requests. */
  private readonly extras = new CompactTable({ u32: EXTRA_U32.count, f64: 0, load: 2 });
  /** The 64-bit digest of the last elicitation answer checked against the form ({@link EVENT_FLAG.answerChecked}). */
  private readonly answers = new CompactTable({ u32: 2, f64: 0, load: 2 });
  /** Rare rows by event key ({@link EVENT_FLAG.rare}): denials, 64-bit intercept digests, types without a name code. */
  private readonly rare = new CompactTable({ u32: RARE_U32.count, f64: RARE_F64.count });
  /** The control fingerprints of rows whose first occurrence cannot be read back ({@link EVENT_FLAG.wide}). */
  private readonly wide = new CompactTable({ u32: WIDE_U32.count, f64: 0 });
  private readonly rereaders = new Map<number, (byteOffset: number) => string | undefined>();
  /** The input code and re-reader last set in {@link rereaders} (most events come from the input before them). */
  private lastFile = -1;
  private lastReread: ((byteOffset: number) => string | undefined) | undefined;
  private readonly names = new Interner(MAX_NAMES);
  /** The type fingerprint of each name code ({@link typeFp}), computed once. */
  private readonly typeFps: number[] = [];
  /** Key and row of the event of the message being observed (row undefined: not kept, the budget was full). */
  currentKey: Hash64 = { hi: 0, lo: 0 };
  currentSlot: number | undefined;
  /** The key of the parent the event being observed names (undefined: no string `parentEventId`). */
  currentParentKey: Hash64 | undefined;
  /** The event being observed (whose keys these are). */
  private currentEvent: Obj | undefined;
  /** The row of {@link currentParentKey}, once asked for (rows change only in observe and forgetOldest). */
  private parentRow: number | undefined;
  private parentAsked = false;
  /** Control-metadata fingerprints of the event being observed (reused from message to message), mask and digest. */
  private readonly currentFp = new Uint32Array(CONTROL_FIELDS.length);
  private currentMask = 0;
  private currentDigest = 0;
  /** Called with the key of a row forgotten for the budget (analyzers keyed by events drop their entry). */
  onForget: (key: Hash64) => void = () => {};

  constructor(readonly budget: EventBudget) {}

  held(): number {
    return this.rows.size;
  }

  /** Rows allocated: the high-water mark of events held at once (rounded up to whole chunks of rows). */
  get allocated(): number {
    return this.rows.allocated;
  }

  /** The memory budget's measure: {@link EVENT_BYTES} per event, the same whatever the transport (see there). */
  bytes(): number {
    return this.rows.size * EVENT_BYTES;
  }

  forgetOldest(): boolean {
    const s = this.rows.oldest();
    if (s === undefined) return false;
    const k = this.rows.keyAt(s);
    const flags = this.rows.getU(s, EVENT_U32.flags);
    this.rows.deleteSlot(s);
    this.parentAsked = false;
    if (flags & EVENT_FLAG.hasParent) this.parents.forgetOldest();
    if (flags & EXTRA_BITS) this.extras.delete(k);
    if (flags & EVENT_FLAG.answerChecked) this.answers.delete(k);
    if (flags & EVENT_FLAG.rare) this.rare.delete(k);
    if (flags & EVENT_FLAG.wide) this.wide.delete(k);
    this.onForget(k);
    return true;
  }

  slot(key: Hash64): number | undefined {
    return this.seen.mayHold(key) ? this.rows.slot(key) : undefined;
  }

  markAt(s: number): Mark {
    return this.budget.markAt(this.rows.getF(s, EVENT_F64.pos));
  }

  /** The type name of row `s` (past {@link MAX_NAMES} distinct names: a placeholder). */
  typeName(s: number): string {
    return this.names.name(this.rows.getU(s, EVENT_U32.flags) >>> TYPE_SHIFT) ?? '(unrecorded type)';
  }

  /** Whether row `s` is an event of type `t` (by its type fingerprint). */
  isType(s: number, t: keyof typeof TYPE_FP): boolean {
    return this.typeFpOf(s, this.rows.getU(s, EVENT_U32.flags)) === TYPE_FP[t];
  }

  /** The type fingerprint of row `s` (flags `flags`): its name code's, else the one kept in its rare row. */
  private typeFpOf(s: number, flags: number): number {
    const c = flags >>> TYPE_SHIFT;
    if (c === 0) return this.rare.getU(this.rare.slot(this.rows.keyAt(s))!, RARE_U32.typeFp);
    const fp = this.typeFps[c];
    return fp ?? (this.typeFps[c] = typeFp(this.names.name(c)!));
  }

  parentKey(s: number): Hash64 | undefined {
    if (!this.hasFlag(s, EVENT_FLAG.hasParent)) return undefined;
    const x = this.parents.slot(this.rows.keyAt(s))!;
    return { hi: this.parents.getU(x, 0), lo: this.parents.getU(x, 1) };
  }

  /** The fingerprint of `session.id` of row `s`'s first occurrence (undefined: none, or `s` is no elicitation request). */
  sessionPrint(s: number): number | undefined {
    if (!this.hasFlag(s, EVENT_FLAG.session)) return undefined;
    const x = this.extras.slot(this.rows.keyAt(s));
    return x === undefined ? undefined : this.extras.getU(x, EXTRA_U32.sessionFp);
  }

  /** The form verdict kept for the elicitation request of row `s` (undefined: none recorded). */
  formOf(s: number): FormVerdict | undefined {
    return FORMS[(this.rows.getU(s, EVENT_U32.flags) >>> FORM_SHIFT) & 7];
  }

  /** The elicitation server and mode kept for row `s` (undefined: not recorded). */
  elicitServerMode(s: number): { server: string | undefined; mode: string | undefined } {
    const x = this.extras.slot(this.rows.keyAt(s));
    const codes = x === undefined ? 0 : this.extras.getU(x, EXTRA_U32.elicitNames);
    return { server: this.names.name(codes & 0xffff), mode: this.names.name(codes >>> 16) };
  }

  /** Record the elicitation request verdict of row `s`: its form, server and mode (non-strings are not recorded). */
  setElicitRequest(s: number, form: FormVerdict, server: unknown, mode: unknown): void {
    const r = this.rows;
    const flags = r.getU(s, EVENT_U32.flags);
    r.setU(s, EVENT_U32.flags, (flags & ~(7 << FORM_SHIFT)) | (FORMS.indexOf(form) << FORM_SHIFT));
    const codes =
      (typeof server === 'string' ? this.names.code(server) : 0) |
      ((typeof mode === 'string' ? this.names.code(mode) : 0) << 16);
    this.extras.setU(this.extraOf(s, flags), EXTRA_U32.elicitNames, codes >>> 0);
  }

  modeReported(s: number): boolean {
    return this.hasFlag(s, EVENT_FLAG.modeReported);
  }

  setModeReported(s: number): void {
    this.setFlag(s, EVENT_FLAG.modeReported);
  }

  answerCheckedIs(s: number, digest: readonly [number, number]): boolean {
    if (!this.hasFlag(s, EVENT_FLAG.answerChecked)) return false;
    const x = this.answers.slot(this.rows.keyAt(s));
    return x !== undefined && this.answers.getU(x, 0) === digest[0] && this.answers.getU(x, 1) === digest[1];
  }

  setAnswerChecked(s: number, digest: readonly [number, number]): void {
    this.setFlag(s, EVENT_FLAG.answerChecked);
    const k = this.rows.keyAt(s);
    const x = this.answers.slot(k) ?? this.answers.add(k);
    this.answers.setU(x, 0, digest[0]);
    this.answers.setU(x, 1, digest[1]);
  }

  /** Record where the event of row `s` was denied (the first denial wins). */
  setDenied(s: number, at: Mark): void {
    if (this.hasFlag(s, EVENT_FLAG.denied)) return;
    this.setFlag(s, EVENT_FLAG.denied);
    const x = this.rareOf(s);
    this.rare.setF(x, RARE_F64.deniedPos, this.budget.pos(at));
  }

  deniedAt(s: number): Mark | undefined {
    if (!this.hasFlag(s, EVENT_FLAG.denied)) return undefined;
    const x = this.rare.slot(this.rows.keyAt(s))!;
    return this.budget.markAt(this.rare.getF(x, RARE_F64.deniedPos));
  }

  /** Record where an intercept request of the event of row `s` met an operational failure (the first one wins). */
  setFailed(s: number, at: Mark): void {
    if (this.hasFlag(s, EVENT_FLAG.failed)) return;
    this.setFlag(s, EVENT_FLAG.failed);
    const x = this.rareOf(s);
    this.rare.setF(x, RARE_F64.failedPos, this.budget.pos(at));
  }

  /** A `hook.failure` named the fail-open policy for the event of row `s`: its operational failure is explained. */
  clearFailed(s: number): void {
    this.rows.setU(s, EVENT_U32.flags, (this.rows.getU(s, EVENT_U32.flags) & ~EVENT_FLAG.failed) >>> 0);
  }

  failedAt(s: number): Mark | undefined {
    if (!this.hasFlag(s, EVENT_FLAG.failed)) return undefined;
    const x = this.rare.slot(this.rows.keyAt(s))!;
    return this.budget.markAt(this.rare.getF(x, RARE_F64.failedPos));
  }

  /**
   * The identity facts of the event `ev` of `msg` (at `at`) against the rows before it, into `facts`; its key, row,
   * parent key and control print become the current ones.
   */
  observe(msg: AhpMessage, ev: Obj, at: Mark, facts: IdentityFacts): void {
    const source = ev.source as string;
    const id = ev.id as string;
    const intercepted = msg.kind === 'intercept-request';
    const words = pairSourceWords(source);
    const key = pairKeyUnder(words, source, id);
    const parentId = ev.parentEventId;
    const parentKey = typeof parentId === 'string' ? pairKeyUnder(words, source, parentId) : undefined;
    const fp = this.currentFp;
    const mask = controlPrintInto(ev, fp);
    const digest = controlDigest(mask, fp);
    this.currentEvent = ev;
    this.currentKey = key;
    this.currentParentKey = parentKey;
    this.currentMask = mask;
    this.currentDigest = digest;
    facts.first = false;
    const r = this.rows;
    let s = this.seen.mayHold(key) ? r.slot(key) : undefined;
    if (s !== undefined) {
      const flags = r.getU(s, EVENT_U32.flags);
      const typeDiffers = this.typeFpOf(s, flags) !== fp[0];
      const differs = r.getU(s, EVENT_U32.control) !== digest;
      if (differs || typeDiffers) {
        const prior = this.markAt(s);
        const priorVia = flags & EVENT_FLAG.observed ? 'observe' : 'intercept';
        // a first line that cannot be read back as it was cannot name the fields, but the digest still tells
        const fields = this.differingFields(s) ?? (typeDiffers ? ['type'] : []);
        const same = intercepted && flags & EVENT_FLAG.intercepted ? this.sameIntercepted(s, flags, msg, ev) : true;
        if (typeDiffers) facts.reuse = { prior, priorVia, kind: 'type', fields };
        else if (same === false) facts.reuse = { prior, priorVia, kind: 'retry', fields };
        else facts.reuse = { prior, priorVia, kind: 'metadata', fields };
      } else if (intercepted && flags & EVENT_FLAG.intercepted) {
        const same = this.sameIntercepted(s, flags, msg, ev);
        if (same !== true) {
          const prior = this.markAt(s);
          const priorVia = flags & EVENT_FLAG.observed ? 'observe' : 'intercept';
          facts.reuse = { prior, priorVia, kind: same === false ? 'retry' : 'unverifiable', fields: [] };
        }
      }
      if (intercepted && !(flags & EVENT_FLAG.intercepted)) {
        // first intercepted after an observation: the row's offset is the observation's, so keep a digest
        this.setInterceptDigest(s, digestWords(valueDigest(ev, msg.bigIntegers, EVENT_PTR)));
        this.setFlag(s, EVENT_FLAG.intercepted);
      }
    } else {
      facts.first = true;
      if (this.budget.makeRoom(at)) {
        this.seen.add(key, r.size);
        s = r.add(key);
        const pos = this.budget.pos(at);
        r.setF(s, EVENT_F64.pos, pos);
        r.setU(s, EVENT_U32.control, digest);
        const code = this.names.code(ev.type as string);
        let flags = (code << TYPE_SHIFT) | (intercepted ? 0 : EVENT_FLAG.observed);
        if (code === 0) {
          flags |= EVENT_FLAG.rare;
          this.rare.setU(this.rare.add(key), RARE_U32.typeFp, fp[0]!);
        }
        const rereadable = msg.reread !== undefined && at.byteOffset !== undefined;
        if (rereadable) {
          const fileCode = this.budget.posFile(pos);
          if (fileCode !== this.lastFile || msg.reread !== this.lastReread) {
            this.rereaders.set(fileCode, msg.reread!);
            this.lastFile = fileCode;
            this.lastReread = msg.reread;
          }
        } else {
          flags |= EVENT_FLAG.wide;
          const w = this.wide.add(key);
          for (let i = 0; i < fp.length; i++) this.wide.setU(w, WIDE_U32.control + i, fp[i]!);
          this.wide.setU(w, WIDE_U32.mask, mask);
        }
        if (parentKey !== undefined) {
          flags |= EVENT_FLAG.hasParent;
          const x = this.parents.add(key);
          this.parents.setU(x, 0, parentKey.hi);
          this.parents.setU(x, 1, parentKey.lo);
        }
        r.setU(s, EVENT_U32.flags, flags >>> 0);
        if (intercepted) {
          // a re-readable line keeps only its fingerprint (lineFingerprint): a re-sent
          // request reads it back and compares exactly; other inputs keep a digest
          if (rereadable) r.setU(s, EVENT_U32.interceptDigest, lineFingerprint(msg.text));
          else this.setInterceptDigest(s, digestWords(valueDigest(ev, msg.bigIntegers, EVENT_PTR)));
          this.setFlag(s, EVENT_FLAG.intercepted | (rereadable ? EVENT_FLAG.rereadable : 0));
        }
        if ((mask >>> SESSION_FIELD) & 1 && fp[0] === TYPE_FP['user.elicitation.request']) {
          this.setFlag(s, EVENT_FLAG.session);
          // a new row has no extra row (the last one of its key went with that key's row)
          this.extras.setU(this.extras.add(key), EXTRA_U32.sessionFp, fp[SESSION_FIELD]!);
        }
      }
    }
    this.currentSlot = s;
    this.parentAsked = false;
  }

  /**
   * The row of the parent the event `ev` names (undefined: it names none, or none is held); for the event being
   * observed, looked up once however many analyzers ask.
   */
  parentSlotOf(ev: Obj): number | undefined {
    if (ev !== this.currentEvent) {
      const k = this.parentKeyOf(ev);
      return k === undefined ? undefined : this.slot(k);
    }
    if (!this.parentAsked) {
      this.parentRow = this.currentParentKey === undefined ? undefined : this.slot(this.currentParentKey);
      this.parentAsked = true;
    }
    return this.parentRow;
  }

  /** The key of the parent `ev` names (`(source, parentEventId)`; undefined: either is not a string). */
  parentKeyOf(ev: Obj): Hash64 | undefined {
    if (ev === this.currentEvent) return this.currentParentKey;
    return typeof ev.source === 'string' && typeof ev.parentEventId === 'string'
      ? eventKey(ev.source, ev.parentEventId)
      : undefined;
  }

  /** The fingerprint of `session.id` of the event being observed (undefined: none). */
  get currentSessionPrint(): number | undefined {
    return (this.currentMask >>> SESSION_FIELD) & 1 ? this.currentFp[SESSION_FIELD] : undefined;
  }

  private hasFlag(s: number, flag: number): boolean {
    return (this.rows.getU(s, EVENT_U32.flags) & flag) !== 0;
  }

  private setFlag(s: number, flag: number): void {
    this.rows.setU(s, EVENT_U32.flags, (this.rows.getU(s, EVENT_U32.flags) | flag) >>> 0);
  }

  /** The extra row of row `s` (`flags`: its flags before the change; none without EXTRA_BITS), added if none. */
  private extraOf(s: number, flags: number): number {
    const k = this.rows.keyAt(s);
    return (flags & EXTRA_BITS ? this.extras.slot(k) : undefined) ?? this.extras.add(k);
  }

  /** The rare row of row `s`, added (and flagged) when it has none. */
  private rareOf(s: number): number {
    const k = this.rows.keyAt(s);
    if (this.hasFlag(s, EVENT_FLAG.rare)) return this.rare.slot(k)!;
    this.setFlag(s, EVENT_FLAG.rare);
    return this.rare.add(k);
  }

  private setInterceptDigest(s: number, d: readonly [number, number]): void {
    this.rows.setU(s, EVENT_U32.interceptDigest, d[1]);
    this.rare.setU(this.rareOf(s), RARE_U32.interceptHi, d[0]);
  }

  /**
   * The control fingerprints of row `s`'s first occurrence: from the wide table, else its line read back (undefined
   * when that line is not what it was: its digest differs from the row's).
   */
  private controlOf(s: number): ControlPrint | undefined {
    const r = this.rows;
    if (this.hasFlag(s, EVENT_FLAG.wide)) {
      const w = this.wide.slot(r.keyAt(s))!;
      const fp = new Array<number>(CONTROL_FIELDS.length);
      for (let i = 0; i < fp.length; i++) fp[i] = this.wide.getU(w, WIDE_U32.control + i);
      return { fp, mask: this.wide.getU(w, WIDE_U32.mask) };
    }
    const pos = r.getF(s, EVENT_F64.pos);
    const reread = this.rereaders.get(this.budget.posFile(pos));
    const off = this.budget.posOffset(pos);
    const line = reread && !Number.isNaN(off) ? reread(off) : undefined;
    if (line === undefined) return undefined;
    const parsed = parseJsonText(line, Number.MAX_SAFE_INTEGER);
    const ev = parsed.ok ? getAt(parsed.value, EVENT_PTR) : undefined;
    if (!isObj(ev)) return undefined;
    const c = controlPrint(ev);
    return controlDigest(c.mask, c.fp) === r.getU(s, EVENT_U32.control) ? c : undefined;
  }

  /** Which of `fields` differ between row `s` and the event being observed. */
  differsFromCurrent(s: number, fields: readonly (typeof CONTROL_FIELDS)[number][]): string[] {
    if (this.rows.getU(s, EVENT_U32.control) === this.currentDigest) return [];
    const first = this.controlOf(s);
    if (first === undefined) return [];
    return fields.filter((f) => this.differsAt(first, CONTROL_FIELDS.indexOf(f)));
  }

  /** The control fields that differ between row `s` and the event being observed (undefined: not read back). */
  private differingFields(s: number): string[] | undefined {
    if (this.rows.getU(s, EVENT_U32.control) === this.currentDigest) return [];
    const first = this.controlOf(s);
    if (first === undefined) return undefined;
    return CONTROL_FIELDS.filter((_, i) => this.differsAt(first, i));
  }

  /** Whether control field `i` differs between `first` and the event being observed. */
  private differsAt(first: ControlPrint, i: number): boolean {
    return ((first.mask >>> i) & 1) !== ((this.currentMask >>> i) & 1) || first.fp[i] !== this.currentFp[i];
  }

  /** Whether the intercepted event `ev` equals the first intercepted copy kept in row `s` (the same JSON value). */
  private sameIntercepted(s: number, flags: number, msg: AhpMessage, ev: Obj): boolean | undefined {
    const r = this.rows;
    if (!(flags & EVENT_FLAG.rereadable)) {
      const d = digestWords(valueDigest(ev, msg.bigIntegers, EVENT_PTR));
      const x = this.rare.slot(r.keyAt(s));
      return (
        x !== undefined &&
        d[0] === this.rare.getU(x, RARE_U32.interceptHi) &&
        d[1] === r.getU(s, EVENT_U32.interceptDigest)
      );
    }
    const pos = r.getF(s, EVENT_F64.pos);
    const reread = this.rereaders.get(this.budget.posFile(pos));
    const off = this.budget.posOffset(pos);
    return sameAsReadBack(
      reread && !Number.isNaN(off) ? reread(off) : undefined,
      r.getU(s, EVENT_U32.interceptDigest),
      msg,
      EVENT_PTR,
    );
  }
}
