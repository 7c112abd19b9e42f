/**
 * The elicitation analyzer's part of an event row (event-rows.ts): a request's form verdict, server and mode and the
 * `session.id` print of its first occurrence; whether an event's mode was reported; the digest of the last answer
 * checked against the form. Bits of the flags word and two tables keyed by the event, forgotten with its row.
 */
import type { Mark } from '../../core/mark.ts';
import { CompactTable } from '../../core/table.ts';
import type { FormVerdict } from './elicitation-facts.ts';
import type { EventRows } from './event-rows.ts';
import type { EventIdentity } from './identity.ts';
import type { MessageScope } from './scope.ts';

/** Form verdicts by code (0: none recorded). */
const FORMS = [undefined, 'parsed', 'url', 'view', 'invalid', 'absent'] as const;
/** The columns of a request's extra row. */
const SESSION_FP = 0;
/** The elicitation server's name code (bits 0-15) and mode's (bits 16-31). */
const NAMES = 1;

/** The fingerprint of `session.id` of the event of `scope` (undefined: none). */
export function sessionPrintOf(scope: MessageScope): number | undefined {
  return scope.sessionPrint();
}

/** The elicitation columns of the event rows (see the module comment). */
export class ElicitationRows {
  private readonly rows: EventRows;
  private readonly formShift: number;
  private readonly modeReported: number;
  private readonly answerChecked: number;
  /** The first occurrence had a `session.id` (its print is in the extra row). */
  private readonly session: number;
  /** Bits of the rows that have an extra row: a `session.id` print or a recorded form. */
  private readonly extraBits: number;
  private readonly extras: CompactTable;
  /** The 64-bit digest of the last answer checked against the form. */
  private readonly answers: CompactTable;
  /** A request's first result: its ElicitResult's digest (0, 0: not parsed), its action's name code, and its place. */
  private readonly answered: number;
  private readonly firsts: CompactTable;

  constructor(private readonly identity: EventIdentity) {
    const rows = (this.rows = identity.rows);
    this.formShift = rows.claim(3);
    this.modeReported = 1 << rows.claim();
    this.answerChecked = 1 << rows.claim();
    this.session = 1 << rows.claim();
    this.extraBits = this.session | (7 << this.formShift);
    this.extras = rows.attach(new CompactTable({ u32: 2, f64: 0, load: 2 }), this.extraBits);
    this.answers = rows.attach(new CompactTable({ u32: 2, f64: 0, load: 2 }), this.answerChecked);
    this.answered = 1 << rows.claim();
    this.firsts = rows.attach(new CompactTable({ u32: 3, f64: 1 }), this.answered);
  }

  /**
   * The first result `r` of the request of row `s` when it is another answer than `r` (another action, or another parsed
   * ElicitResult); the first result is recorded when none is.
   */
  otherAnswer(s: number, r: { body?: readonly [number, number]; action: unknown; at: Mark }): Mark | undefined {
    const t = this.firsts;
    const k = this.rows.keyAt(s);
    const action = typeof r.action === 'string' ? this.identity.nameCode(r.action) : 0;
    if (!this.rows.has(s, this.answered)) {
      this.rows.set(s, this.answered);
      const x = t.add(k);
      t.setU(x, 0, r.body?.[0] ?? 0);
      t.setU(x, 1, r.body?.[1] ?? 0);
      t.setU(x, 2, action);
      t.setF(x, 0, this.rows.budget.pos(r.at));
      return undefined;
    }
    const x = t.slot(k)!;
    const a = t.getU(x, 2);
    const hi = t.getU(x, 0);
    const lo = t.getU(x, 1);
    const otherAction = a !== 0 && action !== 0 && a !== action;
    const otherBody = r.body !== undefined && (hi | lo) !== 0 && (hi !== r.body[0] || lo !== r.body[1]);
    return otherAction || otherBody ? this.rows.budget.markAt(t.getF(x, 0)) : undefined;
  }

  /** The form verdict kept for the elicitation request of row `s` (undefined: none recorded). */
  formOf(s: number): FormVerdict | undefined {
    return FORMS[(this.rows.flags(s) >>> this.formShift) & 7];
  }

  /** The elicitation server and mode kept for row `s` (undefined: not recorded). */
  serverMode(s: number): { server: string | undefined; mode: string | undefined } {
    const x = this.extras.slot(this.rows.keyAt(s));
    const codes = x === undefined ? 0 : this.extras.getU(x, NAMES);
    return { server: this.identity.nameOf(codes & 0xffff), mode: this.identity.nameOf(codes >>> 16) };
  }

  /** Record the request verdict of row `s`: its form, server and mode (non-strings are not recorded). */
  setRequest(s: number, form: FormVerdict, server: unknown, mode: unknown): void {
    const r = this.rows;
    const flags = r.flags(s);
    r.clear(s, 7 << this.formShift);
    r.set(s, FORMS.indexOf(form) << this.formShift);
    const codes =
      (typeof server === 'string' ? this.identity.nameCode(server) : 0) |
      ((typeof mode === 'string' ? this.identity.nameCode(mode) : 0) << 16);
    this.extras.setU(this.extraOf(s, flags), NAMES, codes >>> 0);
  }

  /** Record the `session.id` print of the first occurrence of a request, new row `s` (none: nothing recorded). */
  setSession(s: number, scope: MessageScope): void {
    const fp = sessionPrintOf(scope);
    if (fp === undefined) return;
    this.rows.set(s, this.session);
    // a new row has no extra row (the last one of its key went with that key's row)
    this.extras.setU(this.extras.add(this.rows.keyAt(s)), SESSION_FP, fp);
  }

  /** The `session.id` print of row `s`'s first occurrence (undefined: none, or `s` is no elicitation request). */
  sessionPrint(s: number): number | undefined {
    if (!this.rows.has(s, this.session)) return undefined;
    const x = this.extras.slot(this.rows.keyAt(s));
    return x === undefined ? undefined : this.extras.getU(x, SESSION_FP);
  }

  isModeReported(s: number): boolean {
    return this.rows.has(s, this.modeReported);
  }

  setModeReported(s: number): void {
    this.rows.set(s, this.modeReported);
  }

  answerCheckedIs(s: number, digest: readonly [number, number]): boolean {
    if (!this.rows.has(s, this.answerChecked)) return false;
    const x = this.answers.slot(this.rows.keyAt(s));
    return x !== undefined && this.answers.getU(x, 0) === digest[0] && this.answers.getU(x, 1) === digest[1];
  }

  setAnswerChecked(s: number, digest: readonly [number, number]): void {
    this.rows.set(s, this.answerChecked);
    const k = this.rows.keyAt(s);
    const x = this.answers.slot(k) ?? this.answers.add(k);
    this.answers.setU(x, 0, digest[0]);
    this.answers.setU(x, 1, digest[1]);
  }

  /** The extra row of row `s` (`flags`: its flags before the change; none without extra bits), added if none. */
  private extraOf(s: number, flags: number): number {
    const k = this.rows.keyAt(s);
    return (flags & this.extraBits ? this.extras.slot(k) : undefined) ?? this.extras.add(k);
  }
}
