/**
 * The event-identity analyzer: whether a repeat of `(source, id)` is a retry or another view of the event
 * (base/failure.md §Duplicate delivery and retries) or a reuse. Its part of an event row (event-rows.ts): the type's
 * name code, the control digest (of a re-readable line: the line's fingerprint, its print made only if it repeats), the
 * first intercepted copy, the parent's key; names interned (at most MAX_NAMES).
 */
import { lineFingerprint, sameAsReadBack, type Hash64 } from '../../core/canonical.ts';
import type { Mark } from '../../core/mark.ts';
import { CompactTable } from '../../core/table.ts';
import type { Obj } from '../../core/value.ts';
import { Interner } from './budget.ts';
import { digestWords, valueDigest } from './digest.ts';
import type { EventRows } from './event-rows.ts';
import {
  CONTROL_FIELDS,
  controlDigest,
  controlPrint,
  differsAt,
  EVENT_PTR,
  EVENT_U32,
  fieldPointer,
  fieldsDiffering,
  firstDifference,
  type IdentityFacts,
  isViewMember,
  MAX_NAMES,
  RARE_F64,
  RARE_U32,
  eventKey,
  TYPE_FP,
  typeFp,
  WIDE_U32,
  type ControlPrint,
  type ReuseFacts,
} from './identity-rows.ts';
import { eventOfLine, RecentEvents, Rereaders } from './identity-reread.ts';
import type { MessageScope } from './scope.ts';

export {
  CONTROL_FIELDS,
  EVENT_PTR,
  eventKey,
  type ControlPrint,
  type IdentityFacts,
  type ReuseFacts,
} from './identity-rows.ts';

/** Most distinct notification sources a response id is looked up under ({@link EventIdentity.notifiedAt}). */
const MAX_NOTIFIED_SOURCES = 8;

/** The event-identity analyzer */
export class EventIdentity {
  /** The first occurrence was an observation (else an intercept request). */
  readonly observed: number;
  /** The row holds the first intercepted copy ({@link EVENT_U32.interceptDigest}). */
  readonly intercepted: number;
  /** The intercepted copy is a line fingerprint: read the line back to compare. */
  private readonly rereadable: number;
  private readonly hasParent: number;
  /**
   * Its print is in `wide` and its digest in the control column. Without it (a re-readable line) the control column
   * holds the line's fingerprint, and the print is made from the line read back if the event repeats (most never do).
   */
  private readonly hasWide: number;
  private readonly hasRare: number;
  /** The type's name code: 16 bits of the flags word from here. */
  private readonly typeShift: number;
  /** The parent's key (hi, lo) of the events that name one; goes with its event row, in row order. */
  private readonly parents: CompactTable;
  /** The control fingerprints of rows whose first occurrence cannot be read back. */
  private readonly wide: CompactTable;
  /** 64-bit intercept digests' high words and types without a name code. */
  private readonly rare: CompactTable;
  private readonly rereaders: Rereaders;
  private readonly names = new Interner(MAX_NAMES);
  /** The type fingerprint of each name code ({@link typeFp}), computed once. */
  private readonly typeFps: number[] = [];
  /** The latest distinct sources of notified events, newest last (at most {@link MAX_NOTIFIED_SOURCES}). */
  private readonly notifiedSources: string[] = [];
  /** A repeat close behind (a retry, the next interceptor's delivery) is printed from its first event, not read back. */
  private readonly recent = new RecentEvents();

  constructor(readonly rows: EventRows) {
    const bit = () => 1 << rows.claim();
    this.observed = bit();
    this.intercepted = bit();
    this.rereadable = bit();
    this.hasParent = bit();
    this.hasWide = bit();
    this.hasRare = bit();
    this.typeShift = rows.claim(16);
    this.parents = rows.attach(new CompactTable({ u32: 2, f64: 0, fifo: true, load: 2 }), this.hasParent, true);
    this.wide = rows.attach(new CompactTable({ u32: WIDE_U32.count, f64: 0 }), this.hasWide);
    this.rare = rows.attach(new CompactTable({ u32: RARE_U32.count, f64: RARE_F64.count }), this.hasRare);
    this.rereaders = new Rereaders(rows.budget);
  }

  /** The name code of `name` (0: the names are full), shared by the analyzers that keep names in rows. */
  nameCode(name: string): number {
    return this.names.code(name);
  }

  /** The name of code `c` (undefined for 0). */
  nameOf(c: number): string | undefined {
    return this.names.name(c);
  }

  /** The type name of row `s` (past {@link MAX_NAMES} distinct names: a placeholder). */
  typeName(s: number): string {
    return this.names.name((this.rows.flags(s) >>> this.typeShift) & 0xffff) ?? '(unrecorded type)';
  }

  /** Whether row `s` is an event of type `t` (by its type fingerprint). */
  isType(s: number, t: keyof typeof TYPE_FP): boolean {
    return this.typeFpOf(s, this.rows.flags(s)) === TYPE_FP[t];
  }

  /** The type fingerprint of row `s` (flags `flags`): its name code's, else the one kept in its rare row. */
  private typeFpOf(s: number, flags: number): number {
    const c = (flags >>> this.typeShift) & 0xffff;
    if (c === 0) return this.rare.getU(this.rare.slot(this.rows.keyAt(s))!, RARE_U32.typeFp);
    const fp = this.typeFps[c];
    return fp ?? (this.typeFps[c] = typeFp(this.names.name(c)!));
  }

  parentKey(s: number): Hash64 | undefined {
    if (!this.rows.has(s, this.hasParent)) return undefined;
    const x = this.parents.slot(this.rows.keyAt(s))!;
    return { hi: this.parents.getU(x, 0), lo: this.parents.getU(x, 1) };
  }

  /** Where a notification (no intercept request) carried an event `id` of a recent notification's source. */
  notifiedAt(id: string): Mark | undefined {
    const r = this.rows;
    const l = this.notifiedSources;
    for (let i = l.length - 1; i >= 0; i--) {
      const s = r.peek(eventKey(l[i]!, id));
      if (s !== undefined && r.has(s, this.observed) && !r.has(s, this.intercepted)) return r.markAt(s);
    }
    return undefined;
  }

  /** Keep `source`, a notified event's, as the newest of {@link notifiedSources}. */
  private notifiedSource(source: string): void {
    const l = this.notifiedSources;
    if (l[l.length - 1] === source) return;
    const i = l.indexOf(source);
    if (i >= 0) l.splice(i, 1);
    else if (l.length === MAX_NOTIFIED_SOURCES) l.shift();
    l.push(source);
  }

  /**
   * The identity facts of the event of `scope` against the rows before it; its row goes into the scope. `retry`: an
   * intercept request of this id still awaits its response, so this one re-sends it (base/failure.md: exact). After
   * a response the same event goes on to the next interceptor with the effective value and that subscription's
   * projection (base/composition.md §Interceptor order), another view of it.
   */
  observe(scope: MessageScope, facts: IdentityFacts, retry: boolean): void {
    const { msg, ev, at, key } = scope;
    const intercepted = msg.kind === 'intercept-request';
    if (!intercepted) this.notifiedSource(ev.source as string);
    facts.first = false;
    const r = this.rows;
    let s = r.slot(key);
    if (s !== undefined) {
      const flags = r.flags(s);
      const fp = scope.print().fp;
      const typeDiffers = this.typeFpOf(s, flags) !== fp[0];
      // a first line that cannot be read back as it was names no field and tells no difference but its type's
      const first = this.firstPrint(s, flags, true);
      const differs = first !== undefined && controlDigest(first.mask, first.fp) !== scope.digest;
      const prior = flags & this.observed ? 'observe' : 'intercept';
      const same = retry && flags & this.intercepted ? this.sameIntercepted(s, flags, scope) : true;
      if (same === false && !typeDiffers) {
        // a retry is compared with the copy it re-sends (the latest delivery), so the finding names that line and
        // the first member that differs from it (base/failure.md §Duplicate delivery and retries)
        facts.reuse = this.retryFacts(s, flags, scope, first);
      } else if (differs || typeDiffers) {
        const fields = first !== undefined ? fieldsDiffering(first, scope) : typeDiffers ? ['type'] : [];
        const kind = typeDiffers ? 'type' : 'metadata';
        facts.reuse = {
          prior: r.markAt(s),
          priorVia: prior,
          kind,
          fields,
          pointer: this.metadataPointer(s, scope, fields, first),
        };
      } else if (same === undefined)
        facts.reuse = {
          prior: r.budget.markAt(this.interceptPos(s, flags)),
          priorVia: prior,
          kind: 'unverifiable',
          fields: [],
        };
      // first intercepted after an observation, or the next interceptor's delivery, which a later retry re-sends
      if (intercepted && (!(flags & this.intercepted) || !retry)) this.keepDelivery(s, scope);
    } else {
      facts.first = true;
      s = r.add(key, at);
      if (s !== undefined) this.firstRow(scope, s, intercepted);
    }
    scope.slot = s;
    scope.first = facts.first;
  }

  /** Fill the new row `s` of the event of `scope`. */
  private firstRow(scope: MessageScope, s: number, intercepted: boolean): void {
    const { msg, ev, at, key, parentKey } = scope;
    const r = this.rows;
    const code = this.names.code(ev.type as string);
    let flags = r.flags(s) | (code << this.typeShift) | (intercepted ? 0 : this.observed);
    if (code === 0) {
      flags |= this.hasRare;
      this.rare.setU(this.rare.add(key), RARE_U32.typeFp, typeFp(ev.type as string));
    }
    const rereadable = msg.reread !== undefined && at.byteOffset !== undefined;
    // a re-readable line keeps its fingerprint: its print is made if it repeats (firstPrint)
    const lineFp = rereadable ? lineFingerprint(msg.text) : 0;
    if (rereadable) {
      r.setU(s, EVENT_U32.control, lineFp);
      this.recent.add(key, ev);
      this.rereaders.note(r.pos(s), msg.reread!);
    } else {
      flags |= this.hasWide;
      this.keepWide(key, scope.print());
      r.setU(s, EVENT_U32.control, scope.digest);
    }
    if (parentKey !== undefined) {
      flags |= this.hasParent;
      const x = this.parents.add(key);
      this.parents.setU(x, 0, parentKey.hi);
      this.parents.setU(x, 1, parentKey.lo);
    }
    r.set(s, flags);
    if (intercepted) {
      // a re-readable line keeps only its fingerprint (lineFingerprint): a re-sent
      // request reads it back and compares exactly; other inputs keep a digest
      if (rereadable) r.setU(s, EVENT_U32.interceptDigest, lineFp);
      else this.setInterceptDigest(s, digestWords(valueDigest(ev, msg.bigIntegers, EVENT_PTR)));
      r.set(s, this.intercepted | (rereadable ? this.rereadable : 0));
    }
  }

  /**
   * Keep the intercept request of `scope` as row `s`'s intercepted copy, a later line than the row's own: its place
   * in the rare row and, as for a first line, its fingerprint when it can be read back, else a digest of its event.
   */
  private keepDelivery(s: number, scope: MessageScope): void {
    const { msg, ev, at } = scope;
    const r = this.rows;
    const pos = r.budget.pos(at);
    this.rare.setF(this.rareOf(s), RARE_F64.deliveryPos, pos + 1);
    if (msg.reread !== undefined && at.byteOffset !== undefined) {
      this.rereaders.note(pos, msg.reread);
      r.setU(s, EVENT_U32.interceptDigest, lineFingerprint(msg.text));
      r.set(s, this.rereadable);
    } else {
      this.setInterceptDigest(s, digestWords(valueDigest(ev, msg.bigIntegers, EVENT_PTR)));
      r.clear(s, this.rereadable);
    }
    r.set(s, this.intercepted);
  }

  /** The place of row `s`'s latest delivery kept as its intercepted copy (undefined: the copy is its first line). */
  private deliveryPos(s: number, flags: number): number | undefined {
    if (!(flags & this.hasRare)) return undefined;
    const p = this.rare.getF(this.rare.slot(this.rows.keyAt(s))!, RARE_F64.deliveryPos);
    return p === 0 ? undefined : p - 1;
  }

  /** The place of row `s`'s intercepted copy: its latest delivery, else its first line. */
  private interceptPos(s: number, flags: number): number {
    return this.deliveryPos(s, flags) ?? this.rows.pos(s);
  }

  /**
   * The facts of a retry of row `s` that differs from its intercepted copy: that copy's line and, when it can be read
   * back, the control fields that differ from it and the first differing member.
   */
  private retryFacts(s: number, flags: number, scope: MessageScope, first?: ControlPrint): ReuseFacts {
    const priorVia = flags & this.observed ? 'observe' : 'intercept';
    const prior = this.rows.budget.markAt(this.interceptPos(s, flags));
    const ev = flags & this.rereadable ? eventOfLine(this.rereaders.lineAt(this.interceptPos(s, flags))) : undefined;
    if (ev === undefined) {
      const fields =
        this.deliveryPos(s, flags) !== undefined || first === undefined ? [] : fieldsDiffering(first, scope);
      return { prior, priorVia, kind: 'retry', fields, pointer: fieldPointer(fields) };
    }
    const fields = fieldsDiffering(controlPrint(ev), scope);
    return { prior, priorVia, kind: 'retry', fields, pointer: firstDifference(ev, scope.ev, EVENT_PTR) };
  }

  /**
   * Where the metadata of the event of `scope` differs from row `s`'s first occurrence (print `first`): the first
   * differing control field's member, else (only the rest differs) the first differing member outside what views change.
   */
  private metadataPointer(s: number, scope: MessageScope, fields: readonly string[], first?: ControlPrint) {
    const p = fieldPointer(fields);
    if (p !== undefined || fields.length === 0 || first === undefined) return p;
    // the recent event, else the line read back while it still has the print the fields were told from
    let ev = this.recent.get(this.rows.keyAt(s));
    if (ev === undefined) {
      const read = eventOfLine(this.lineOf(s));
      const c = read && controlPrint(read);
      ev = c && controlDigest(c.mask, c.fp) === controlDigest(first.mask, first.fp) ? read : undefined;
    }
    return ev === undefined ? undefined : firstDifference(ev, scope.ev, EVENT_PTR, isViewMember);
  }

  /** The rare row of row `s`, added (and flagged) when it has none. */
  private rareOf(s: number): number {
    const k = this.rows.keyAt(s);
    if (this.rows.has(s, this.hasRare)) return this.rare.slot(k)!;
    this.rows.set(s, this.hasRare);
    return this.rare.add(k);
  }

  private setInterceptDigest(s: number, d: readonly [number, number]): void {
    this.rows.setU(s, EVENT_U32.interceptDigest, d[1]);
    this.rare.setU(this.rareOf(s), RARE_U32.interceptHi, d[0]);
  }

  /** The line of row `s`'s first occurrence read back (undefined: its input cannot be read back). */
  private lineOf(s: number): string | undefined {
    return this.rereaders.lineAt(this.rows.pos(s));
  }

  /** Keep control print `c` (a {@link ControlPrint}, or a scope's print) in the wide table under `key`. */
  private keepWide(key: Hash64, c: { fp: ArrayLike<number>; mask: number }): void {
    const w = this.wide.add(key);
    for (let i = 0; i < c.fp.length; i++) this.wide.setU(w, WIDE_U32.control + i, c.fp[i]!);
    this.wide.setU(w, WIDE_U32.mask, c.mask);
  }

  /**
   * The control print of row `s`'s first occurrence (flags `flags`): kept, or made from its line read back (undefined
   * when that line cannot be read back as it was). With `keep` (a repeat: a repeated event often repeats again, the next
   * interceptor's delivery) a print made from the line is kept from then on, so that line is read back once.
   */
  private firstPrint(s: number, flags: number, keep: boolean): ControlPrint | undefined {
    const r = this.rows;
    if (flags & this.hasWide) {
      const w = this.wide.slot(r.keyAt(s))!;
      const fp = new Array<number>(CONTROL_FIELDS.length);
      for (let i = 0; i < fp.length; i++) fp[i] = this.wide.getU(w, WIDE_U32.control + i);
      return { fp, mask: this.wide.getU(w, WIDE_U32.mask) };
    }
    const ev = this.recent.get(r.keyAt(s)) ?? this.eventReadBack(s);
    if (ev === undefined) return undefined;
    const c = controlPrint(ev);
    if (!keep) return c;
    this.keepWide(r.keyAt(s), c);
    r.setU(s, EVENT_U32.control, controlDigest(c.mask, c.fp));
    r.set(s, this.hasWide);
    return c;
  }

  /** The event of row `s`'s first occurrence read back (undefined when its line cannot be read back as it was). */
  private eventReadBack(s: number): Obj | undefined {
    const line = this.lineOf(s);
    if (line === undefined || lineFingerprint(line) !== this.rows.getU(s, EVENT_U32.control)) return undefined;
    return eventOfLine(line);
  }

  /** Which of `fields` differ between row `s` and the event of `scope`. */
  differs(s: number, scope: MessageScope, fields: readonly (typeof CONTROL_FIELDS)[number][]): string[] {
    const first = this.firstPrint(s, this.rows.flags(s), false);
    if (first === undefined) return [];
    scope.print();
    return fields.filter((f) => differsAt(first, CONTROL_FIELDS.indexOf(f), scope));
  }

  /** Whether the intercepted event of `scope` equals the first intercepted copy kept in row `s` (the same JSON value). */
  private sameIntercepted(s: number, flags: number, scope: MessageScope): boolean | undefined {
    const r = this.rows;
    const msg = scope.msg;
    if (!(flags & this.rereadable)) {
      const d = digestWords(valueDigest(scope.ev, msg.bigIntegers, EVENT_PTR));
      const x = this.rare.slot(r.keyAt(s));
      return (
        x !== undefined &&
        d[0] === this.rare.getU(x, RARE_U32.interceptHi) &&
        d[1] === r.getU(s, EVENT_U32.interceptDigest)
      );
    }
    return sameAsReadBack(
      this.rereaders.lineAt(this.interceptPos(s, flags)),
      r.getU(s, EVENT_U32.interceptDigest),
      msg,
      EVENT_PTR,
    );
  }
}
