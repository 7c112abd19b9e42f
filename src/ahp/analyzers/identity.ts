/**
 * The event-identity analyzer: whether a repeat of `(source, id)` is a retry or another view of the event
 * (base/failure.md §Duplicate delivery and retries) or a reuse. Its part of an event row (event-rows.ts): the type's
 * name code, the control digest, the first intercepted copy, the parent's key; names interned (at most MAX_NAMES).
 */
import { lineFingerprint, sameAsReadBack, type Hash64 } from '../../core/canonical.ts';
import { parseJsonText } from '../../core/json.ts';
import type { Mark } from '../../core/mark.ts';
import { getAt } from '../../core/pointer.ts';
import { CompactTable } from '../../core/table.ts';
import { isObj } from '../../core/value.ts';
import { Interner } from './budget.ts';
import { digestWords, valueDigest } from './digest.ts';
import type { EventRows } from './event-rows.ts';
import {
  CONTROL_FIELDS,
  controlDigest,
  controlPrint,
  controlPrintInto,
  differsAt,
  EVENT_PTR,
  EVENT_U32,
  fieldPointer,
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
  private readonly observed: number;
  /** The row holds the first intercepted copy ({@link EVENT_U32.interceptDigest}). */
  private readonly intercepted: number;
  /** The intercepted copy is a line fingerprint: read the line back to compare. */
  private readonly rereadable: number;
  private readonly hasParent: number;
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
  private readonly rereaders = new Map<number, (byteOffset: number) => string | undefined>();
  /** The input code and re-reader last set in {@link rereaders} (most events come from the input before them). */
  private lastFile = -1;
  private lastReread: ((byteOffset: number) => string | undefined) | undefined;
  private readonly names = new Interner(MAX_NAMES);
  /** The type fingerprint of each name code ({@link typeFp}), computed once. */
  private readonly typeFps: number[] = [];
  /** The control print of the event being observed, reused from message to message (the scope points at it). */
  private readonly fp = new Uint32Array(CONTROL_FIELDS.length);
  /** The latest distinct sources of notified events, newest last (at most {@link MAX_NOTIFIED_SOURCES}). */
  private readonly notifiedSources: string[] = [];

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
    const fp = this.fp;
    const mask = controlPrintInto(ev, fp);
    const digest = controlDigest(mask, fp);
    scope.fp = fp;
    scope.mask = mask;
    scope.digest = digest;
    facts.first = false;
    const r = this.rows;
    let s = r.slot(key);
    if (s !== undefined) {
      const flags = r.flags(s);
      const typeDiffers = this.typeFpOf(s, flags) !== fp[0];
      const differs = r.getU(s, EVENT_U32.control) !== digest;
      const prior = flags & this.observed ? 'observe' : 'intercept';
      const same = retry && flags & this.intercepted ? this.sameIntercepted(s, flags, scope) : true;
      if (same === false && !typeDiffers) {
        // a retry is compared with the copy it re-sends (the latest delivery), so the finding names that line and
        // the first member that differs from it (base/failure.md §Duplicate delivery and retries)
        facts.reuse = this.retryFacts(s, flags, scope, prior);
      } else if (differs || typeDiffers) {
        // a first line that cannot be read back as it was cannot name the fields, but the digest still tells
        const fields = this.differingFields(s, scope) ?? (typeDiffers ? ['type'] : []);
        const kind = typeDiffers ? 'type' : 'metadata';
        facts.reuse = {
          prior: r.markAt(s),
          priorVia: prior,
          kind,
          fields,
          pointer: this.metadataPointer(s, scope, fields),
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
    const fp = this.fp;
    r.setU(s, EVENT_U32.control, scope.digest);
    const code = this.names.code(ev.type as string);
    let flags = r.flags(s) | (code << this.typeShift) | (intercepted ? 0 : this.observed);
    if (code === 0) {
      flags |= this.hasRare;
      this.rare.setU(this.rare.add(key), RARE_U32.typeFp, fp[0]!);
    }
    const rereadable = msg.reread !== undefined && at.byteOffset !== undefined;
    if (rereadable) this.noteRereader(r.pos(s), msg.reread!);
    else {
      flags |= this.hasWide;
      const w = this.wide.add(key);
      for (let i = 0; i < fp.length; i++) this.wide.setU(w, WIDE_U32.control + i, fp[i]!);
      this.wide.setU(w, WIDE_U32.mask, scope.mask);
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
      if (rereadable) r.setU(s, EVENT_U32.interceptDigest, lineFingerprint(msg.text));
      else this.setInterceptDigest(s, digestWords(valueDigest(ev, msg.bigIntegers, EVENT_PTR)));
      r.set(s, this.intercepted | (rereadable ? this.rereadable : 0));
    }
  }

  /** Keep `reread` as the re-reader of the input of place `pos`. */
  private noteRereader(pos: number, reread: (byteOffset: number) => string | undefined): void {
    const fileCode = this.rows.budget.posFile(pos);
    if (fileCode !== this.lastFile || reread !== this.lastReread) {
      this.rereaders.set(fileCode, reread);
      this.lastFile = fileCode;
      this.lastReread = reread;
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
      this.noteRereader(pos, msg.reread);
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
  private retryFacts(s: number, flags: number, scope: MessageScope, priorVia: 'intercept' | 'observe'): ReuseFacts {
    const prior = this.rows.budget.markAt(this.interceptPos(s, flags));
    const line = flags & this.rereadable ? this.lineAt(this.interceptPos(s, flags)) : undefined;
    const parsed = line === undefined ? undefined : parseJsonText(line, Number.MAX_SAFE_INTEGER);
    const ev = parsed?.ok ? getAt(parsed.value, EVENT_PTR) : undefined;
    if (!isObj(ev)) {
      const fields = this.deliveryPos(s, flags) !== undefined ? [] : (this.differingFields(s, scope) ?? []);
      return { prior, priorVia, kind: 'retry', fields, pointer: fieldPointer(fields) };
    }
    const c = controlPrint(ev);
    const fields = CONTROL_FIELDS.filter((_, i) => differsAt(c, i, scope));
    return { prior, priorVia, kind: 'retry', fields, pointer: firstDifference(ev, scope.ev, EVENT_PTR) };
  }

  /**
   * Where the metadata of the event of `scope` differs from row `s`'s first line: the first differing control
   * field's member, else (only the rest differs) the first differing member outside what views change.
   */
  private metadataPointer(s: number, scope: MessageScope, fields: readonly string[]): string | undefined {
    const p = fieldPointer(fields);
    if (p !== undefined || fields.length === 0) return p;
    const line = this.lineOf(s);
    const parsed = line === undefined ? undefined : parseJsonText(line, Number.MAX_SAFE_INTEGER);
    const ev = parsed?.ok ? getAt(parsed.value, EVENT_PTR) : undefined;
    return isObj(ev) ? firstDifference(ev, scope.ev, EVENT_PTR, isViewMember) : undefined;
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
    return this.lineAt(this.rows.pos(s));
  }

  /** The line at place `pos` read back (undefined: its input cannot be read back). */
  private lineAt(pos: number): string | undefined {
    const b = this.rows.budget;
    const reread = this.rereaders.get(b.posFile(pos));
    const off = b.posOffset(pos);
    return reread && !Number.isNaN(off) ? reread(off) : undefined;
  }

  /** The control fingerprints of row `s`'s first occurrence (undefined when its line changed). */
  private controlOf(s: number): ControlPrint | undefined {
    const r = this.rows;
    if (r.has(s, this.hasWide)) {
      const w = this.wide.slot(r.keyAt(s))!;
      const fp = new Array<number>(CONTROL_FIELDS.length);
      for (let i = 0; i < fp.length; i++) fp[i] = this.wide.getU(w, WIDE_U32.control + i);
      return { fp, mask: this.wide.getU(w, WIDE_U32.mask) };
    }
    const line = this.lineOf(s);
    if (line === undefined) return undefined;
    const parsed = parseJsonText(line, Number.MAX_SAFE_INTEGER);
    const ev = parsed.ok ? getAt(parsed.value, EVENT_PTR) : undefined;
    if (!isObj(ev)) return undefined;
    const c = controlPrint(ev);
    return controlDigest(c.mask, c.fp) === r.getU(s, EVENT_U32.control) ? c : undefined;
  }

  /** Which of `fields` differ between row `s` and the event of `scope`. */
  differs(s: number, scope: MessageScope, fields: readonly (typeof CONTROL_FIELDS)[number][]): string[] {
    if (this.rows.getU(s, EVENT_U32.control) === scope.digest) return [];
    const first = this.controlOf(s);
    if (first === undefined) return [];
    return fields.filter((f) => differsAt(first, CONTROL_FIELDS.indexOf(f), scope));
  }

  /** The control fields that differ between row `s` and the event of `scope` (undefined: not read back). */
  private differingFields(s: number, scope: MessageScope): string[] | undefined {
    if (this.rows.getU(s, EVENT_U32.control) === scope.digest) return [];
    const first = this.controlOf(s);
    if (first === undefined) return undefined;
    return CONTROL_FIELDS.filter((_, i) => differsAt(first, i, scope));
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
      this.lineAt(this.interceptPos(s, flags)),
      r.getU(s, EVENT_U32.interceptDigest),
      msg,
      EVENT_PTR,
    );
  }
}
