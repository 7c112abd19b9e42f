/**
 * The identity analyzer (AEP-0001 §5.1 #2, §7.4): each `(source, id)` against its first occurrence, kept as a digest
 * or as a read-back fingerprint (most lines never repeat, so most are never canonicalised). A lower-capture repeat is
 * a redelivery when it is the first copy down-leveled (§8.2(b)); a differing `redacted` copy is unverifiable
 * (AEP-0003 §9 item 4).
 */
import { lineFingerprint, sameAsReadBack, textKey, type Hash64 } from '../../core/canonical.ts';
import { markOf, type Mark } from '../../core/mark.ts';
import { attr, type AepEvent } from '../event.ts';
import type { AepCapLog } from './budget.ts';
import { contentHash, eventText, idKeyHash, withoutDefaults } from './canonical.ts';
import type { InputNames } from './markers.ts';
import type { SessionRecord } from './session.ts';
import { SpillTable } from '../../core/spill-table.ts';
import { parseJsonText } from '../../core/json.ts';
import { downlevelEvent, RequestForms } from '../downlevel.ts';
import { CAPTURE_RANK } from '../event.ts';
import { createRedactor, type Redactor } from '../redact.ts';
import type { AepCaptureLevel } from '../schema/registry.ts';
import {
  copyText,
  CORE_NAMES,
  DL_U32,
  downlevelable,
  downlevelTexts,
  formCopyText,
  keptBigIntegers,
  LOWER,
  MAX_ADDED_TRIED,
  WITHHELD_RANK,
} from './downlevel-copies.ts';
import { AepIdTable, type IdEntry, MAX_LINE_FILES, MAX_LINE_OFFSET } from './id-table.ts';
import { carriesExtension, ExtCopies, extensionsApart, extSignature, lineSignature } from './ext-copies.ts';
import type { IdentityFacts } from './identity-facts.ts';

/** Whether `text` is a copy of an event at `level`. */
type CopyMatch = (level: AepCaptureLevel, text: string) => boolean;

/** `(source, id)` identity and dedupe for one run. */
export class IdentityAnalyzer {
  private readonly ids: AepIdTable;
  private readonly rereaders = new Map<number, (byteOffset: number) => string | undefined>();
  /** Down-level digests of digest entries above `none` ({@link DL_U32}); forgets with the same cap, oldest half first. */
  private readonly lower: SpillTable;
  /** The form-aware `metadata` digest of a digest entry's form answer, where it differs ({@link formCopyText}). */
  private readonly formLower: SpillTable;
  /** Extension-attribute signatures of digest entries' first copies ({@link ExtCopies}). */
  private readonly exts: ExtCopies;
  /** Form requests, so an answer's copy down-leveled by a hop that knew the form is recognised (AEP-0006). */
  private readonly forms = new RequestForms();
  private redactorOnce: Redactor | undefined;
  /** The input of the last first occurrence and its index (inputs change rarely). */
  private lastSource: string | undefined;
  private lastFile = 0;
  /** The first copy's capture of the last `redaction` verdict. */
  private redactedFrom: AepCaptureLevel = 'full';
  /** The extension attributes {@link withAddedExtensions} found added to the event last observed. */
  private added = 0;

  /**
   * `profile`: the sub-profile the run checks (`aep-0007`), so a copy of its types down-leveled by its annotations is
   * recognised; `spillRows`: rows each table keeps in memory before it spills (src/core/spill-table.ts).
   */
  constructor(
    private readonly maxIds: number,
    private readonly caps: AepCapLog,
    private readonly profile?: string,
    spillRows?: number,
  ) {
    this.ids = new AepIdTable(maxIds, spillRows);
    this.lower = new SpillTable({ u32: DL_U32.count, f64: 0, cap: maxIds, forget: 'half', memRows: spillRows });
    this.formLower = new SpillTable({ u32: 2, f64: 0, cap: maxIds, forget: 'half', memRows: spillRows });
    this.exts = new ExtCopies(maxIds, spillRows);
  }

  private get redactor(): Redactor {
    return (this.redactorOnce ??= createRedactor());
  }

  get idTable(): AepIdTable {
    return this.ids;
  }

  /** The run's input names (for the compact tables of the other analyzers). */
  get names(): InputNames {
    return this.ids;
  }

  get size(): number {
    return this.ids.size;
  }

  /** Compare `ev` with the first occurrence of its `(source, id)`; true for a redelivery (or a redacted copy). */
  observe(ev: AepEvent, facts: IdentityFacts, known?: SessionRecord): boolean {
    const key = known ? known.idKey(attr(ev, 'id')!) : idKeyHash(attr(ev, 'source')!, attr(ev, 'id')!);
    const first = this.ids.get(key);
    if (ev.type === 'attention.requested' && downlevelable(ev)) this.forms.note(ev.value);
    if (!first) {
      const digest = this.addFirst(key, ev);
      if (digest) this.keepLower(key, ev);
      return false;
    }
    const firstAt: Mark = { file: this.ids.fileName(first.file), line: first.line };
    let same: boolean | undefined | AepCaptureLevel | 'redaction' = this.sameContent(first, ev);
    if (same === false && downlevelable(ev)) same = this.downleveled(key, first, ev);
    this.added = 0;
    if (same === false && downlevelable(ev)) same = this.withAddedExtensions(key, first, ev);
    let to: AepCaptureLevel | undefined;
    if (same === false && downlevelable(ev) && (to = this.upleveled(first, ev)) !== undefined) same = true;
    let redactedFirst = false;
    if (same === false && downlevelable(ev) && this.redactedBefore(key, first, ev)) {
      [same, redactedFirst] = ['redaction', true];
      this.redactedFrom = 'full';
    }
    const apart = same === false && downlevelable(ev) ? this.extensionsApart(key, first, ev) : undefined;
    if (apart) [same, this.added, facts.extensionsOnFirst] = [true, apart.copy, apart.first];
    if (this.added > 0 && same !== false && same !== undefined) facts.extensionsAdded = this.added;
    const firstWithheld = first.kind === 'digest' && this.firstWithheld(key);
    if ((ev.withheld !== undefined || firstWithheld) && same !== undefined) {
      // a bridge withheld a copy's payload (AEP-0005 §3.3): only the envelopes can be compared, the first copy's
      // against this one down-leveled to `none` (what a withheld copy reads back as)
      if (same === false && firstWithheld) same = this.sameEnvelope(first, ev);
      if (same === false) {
        facts.collision = firstAt;
        return false;
      }
      facts.unverifiable = firstAt;
      facts.unverifiableWhy = 'withheld';
      facts.withheldCopy = ev.withheld === undefined ? 'first' : firstWithheld ? 'both' : 'this';
      return true;
    }
    if (same === true || typeof same === 'string') {
      if (same === 'redaction') {
        // same envelope and position, same content at `metadata`: not a second event, like a redelivery
        facts.unverifiable = firstAt;
        facts.unverifiableWhy = 'redaction';
        facts.redactedFrom = this.redactedFrom;
        if (redactedFirst) facts.redactedCopy = 'first';
        return true;
      }
      facts.redelivery = firstAt;
      if (typeof same === 'string') facts.downleveledFrom = same;
      if (to !== undefined) facts.downleveledTo = to;
      return true;
    }
    if (same === false) facts.collision = firstAt;
    else {
      facts.unverifiable = firstAt;
      facts.unverifiableWhy = 'read-back';
    }
    return false;
  }

  /**
   * `true` (or the first copy's capture) when `ev` is the first copy, as is or down-leveled, with extension attributes
   * added: AEP-0001 §4.2, a relay "MAY add extension attributes" and MUST preserve the ones it got (§5.4), so a copy
   * differing only by added ones is a redelivery. Each non-empty subset of the repeat's extension attributes is tried
   * as the added ones (at most {@link MAX_ADDED_TRIED} of them; repeats are rare), the rest must equal the first copy's.
   */
  private withAddedExtensions(
    key: Hash64,
    first: IdEntry,
    ev: AepEvent,
  ): boolean | AepCaptureLevel | 'redaction' | undefined {
    const ext: string[] = [];
    for (const k in ev.value) if (!CORE_NAMES.has(k)) ext.push(k);
    if (ext.length === 0 || ext.length > MAX_ADDED_TRIED) return false;
    let unknown = false;
    for (let mask = 1; mask < 1 << ext.length; mask++) {
      const value: Record<string, unknown> = {};
      for (const k in ev.value) {
        const i = ext.indexOf(k);
        if (i < 0 || !(mask & (1 << i))) value[k] = ev.value[k];
      }
      const copy: AepEvent = { ...ev, value };
      const same = this.sameContent(first, copy);
      const lower = same === false ? this.downleveled(key, first, copy) : same;
      if (lower === true || typeof lower === 'string') {
        for (let m = mask; m; m &= m - 1) this.added++;
        return lower;
      }
      if (lower === undefined) unknown = true;
    }
    return unknown ? undefined : false;
  }

  /** The extension attributes apart when the first copy carries some `ev` lacks and all else agrees ({@link extensionsApart}). */
  private extensionsApart(key: Hash64, first: IdEntry, ev: AepEvent): { first: number; copy: number } | undefined {
    const line = first.kind === 'line' ? this.rereaders.get(first.file)?.(first.byteOffset) : undefined;
    if (first.kind === 'line' && (line === undefined || lineFingerprint(line) !== first.fingerprint)) return undefined;
    const sig = line === undefined ? this.exts.get(key) : lineSignature(line);
    const copy = sig && sig.names.length > 0 ? extSignature(ev.value, ev.bigIntegers) : undefined;
    return sig && copy ? extensionsApart(sig, copy) : undefined;
  }

  /** The first copy's capture when it is `ev` down-leveled (AEP-0001 §8.2(b)), `ev` arriving second. */
  private upleveled(first: IdEntry, ev: AepEvent): AepCaptureLevel | undefined {
    const rank = CAPTURE_RANK[ev.capture];
    if (!(rank > 0)) return undefined;
    let firstText: string | undefined;
    if (first.kind === 'line') {
      const line = this.rereaders.get(first.file)?.(first.byteOffset);
      if (line === undefined || lineFingerprint(line) !== first.fingerprint) return undefined;
      const parsed = parseJsonText(line, Number.MAX_SAFE_INTEGER);
      if (!parsed.ok || parsed.value === null || typeof parsed.value !== 'object' || Array.isArray(parsed.value))
        return undefined;
      firstText = eventText(parsed.value, parsed.bigIntegers);
    }
    const form = this.forms.formOf(ev.value);
    for (const level of LOWER) {
      if (CAPTURE_RANK[level] >= rank) continue;
      // a hop that knew the answered form kept its closed choice ids at `metadata` (AEP-0006), one that did not, none
      for (const opts of level === 'redacted'
        ? [{ redact: this.redactor, profile: this.profile }]
        : level === 'metadata' && form
          ? [{ profile: this.profile }, { form, profile: this.profile }]
          : [{ profile: this.profile }]) {
        const r = downlevelEvent(ev.value, level, opts);
        const big = r.capture === level ? keptBigIntegers(r.event, ev.bigIntegers) : undefined;
        if (!big) continue;
        const text = eventText(r.event, big);
        if (firstText !== undefined) {
          if (text === firstText) return level;
          continue;
        }
        if (first.kind !== 'digest') continue;
        const h = textKey(text);
        if (h.hi === first.content.hi && h.lo === first.content.lo) return level;
      }
    }
    return undefined;
  }

  /** True when the first copy of `key` (a digest entry) is one whose payload a bridge withheld. */
  private firstWithheld(key: Hash64): boolean {
    const s = this.lower.slot(key);
    return s !== undefined && this.lower.getU(s, DL_U32.rank) === WITHHELD_RANK;
  }

  /** True when `ev` down-leveled to `none` is the first copy (a digest entry of a withheld copy, read as `none`). */
  private sameEnvelope(first: IdEntry, ev: AepEvent): boolean {
    if (first.kind !== 'digest') return false;
    const r = downlevelEvent(ev.value, 'none', { profile: this.profile });
    const bigIntegers = ev.bigIntegers.filter((b) => !b.pointer.startsWith('/data/'));
    const h = textKey(eventText(r.event, bigIntegers));
    return h.hi === first.content.hi && h.lo === first.content.lo;
  }

  /** Keep a digest entry's down-level digests (none at `none` or refused; a stale row of the key is cleared). */
  private keepLower(key: Hash64, ev: AepEvent): void {
    const t = this.lower;
    if (ev.withheld !== undefined) {
      t.setU(t.slot(key) ?? t.add(key), DL_U32.rank, WITHHELD_RANK);
      return;
    }
    if (!downlevelable(ev) || CAPTURE_RANK[ev.capture] === 0) {
      const old = t.slot(key);
      if (old !== undefined) t.setU(old, DL_U32.rank, 0);
      this.keepFormLower(key, undefined);
      return;
    }
    const texts = downlevelTexts(ev.value, ev.bigIntegers, this.redactor, this.profile);
    this.keepFormLower(key, formCopyText(ev.value, ev.bigIntegers, this.forms.formOf(ev.value), this.profile));
    const s = t.slot(key) ?? t.add(key);
    t.setU(s, DL_U32.rank, texts.size === 0 ? 0 : CAPTURE_RANK[ev.capture]);
    LOWER.forEach((level, i) => {
      const text = texts.get(level);
      const h = text === undefined ? { hi: 0, lo: 0 } : textKey(text);
      t.setU(s, DL_U32.digests + 2 * i, h.hi);
      t.setU(s, DL_U32.digests + 2 * i + 1, h.lo);
    });
  }

  /** Keep (or clear) the form-aware `metadata` digest of a digest entry. */
  private keepFormLower(key: Hash64, text: string | undefined): void {
    const t = this.formLower;
    if (text === undefined) {
      if (t.slot(key) !== undefined) t.delete(key);
      return;
    }
    const h = textKey(text);
    const s = t.slot(key) ?? t.add(key);
    t.setU(s, 0, h.hi);
    t.setU(s, 1, h.lo);
  }

  /** The first copy's capture when `ev` is it down-leveled, `'redaction'`, `undefined` (no read-back), else false. */
  private downleveled(key: Hash64, first: IdEntry, ev: AepEvent): AepCaptureLevel | 'redaction' | false | undefined {
    const to = ev.capture;
    let from: AepCaptureLevel;
    let matches: CopyMatch;
    if (first.kind === 'digest') {
      const t = this.lower;
      const s = t.slot(key);
      const rank = s === undefined ? 0 : t.getU(s, DL_U32.rank);
      if (rank === WITHHELD_RANK || rank < CAPTURE_RANK[to] || (rank === CAPTURE_RANK[to] && to !== 'redacted'))
        return false;
      from = (['none', 'metadata', 'redacted', 'full'] as const)[rank]!;
      matches = (level, text) => this.digestMatches(key, s!, level, text);
    } else {
      const r = this.reread(first);
      if (r === undefined) return undefined;
      if (r === null) return false;
      from = (typeof r.capture === 'string' && r.capture in CAPTURE_RANK ? r.capture : 'metadata') as AepCaptureLevel;
      if (CAPTURE_RANK[from] < CAPTURE_RANK[to] || (from === to && to !== 'redacted')) return false;
      matches = r.matches;
    }
    if (from !== to && matches(to, copyText(ev))) return from;
    // a redacting hop may redact a `full` or a `redacted` event beyond our pipeline (AEP-0003 §9 item 4)
    if (to === 'redacted') {
      const projected = downlevelEvent(ev.value, 'metadata', { profile: this.profile });
      if (projected.capture === 'metadata' && matches('metadata', copyText(ev, projected.event))) {
        this.redactedFrom = from;
        return 'redaction';
      }
    }
    return false;
  }

  /** A line entry's first copy read back (undefined: gone or changed; null: no object), its texts made on first ask. */
  private reread(first: IdEntry & { kind: 'line' }): { capture: unknown; matches: CopyMatch } | undefined | null {
    const line = this.rereaders.get(first.file)?.(first.byteOffset);
    if (line === undefined || lineFingerprint(line) !== first.fingerprint) return undefined;
    const parsed = parseJsonText(line, Number.MAX_SAFE_INTEGER);
    if (!parsed.ok || parsed.value === null || typeof parsed.value !== 'object' || Array.isArray(parsed.value))
      return null;
    const v = parsed.value as Record<string, unknown>;
    const bigIntegers = parsed.bigIntegers;
    let texts: Map<string, string> | undefined;
    const form = () => formCopyText(v, bigIntegers, this.forms.formOf(v), this.profile);
    return {
      capture: v.capture,
      matches: (level, text) =>
        (texts ??= downlevelTexts(v, bigIntegers, this.redactor, this.profile)).get(level) === text ||
        (level === 'metadata' && form() === text),
    };
  }

  /**
   * True when `ev` is `full` and the first copy a `redacted` one agreeing with it at `metadata`: {@link downleveled}'s
   * `redaction` in the other order (AEP-0003 §9 item 4; copies arrive in any order, AEP-0001 §7 rule 2).
   */
  private redactedBefore(key: Hash64, first: IdEntry, ev: AepEvent): boolean {
    if (ev.capture !== 'full') return false;
    const projected = downlevelEvent(ev.value, 'metadata', { profile: this.profile });
    if (projected.capture !== 'metadata') return false;
    const text = copyText(ev, projected.event);
    const s = first.kind === 'digest' ? this.lower.slot(key) : undefined;
    if (s !== undefined)
      return this.lower.getU(s, DL_U32.rank) === CAPTURE_RANK.redacted && this.digestMatches(key, s, 'metadata', text);
    if (first.kind === 'digest') return false;
    const r = this.reread(first);
    return r?.capture === 'redacted' && r.matches('metadata', text);
  }

  /** Whether `text` is a digest entry's first copy (row `s` of the down-level digests) down-leveled to `level`. */
  private digestMatches(key: Hash64, s: number, level: AepCaptureLevel, text: string): boolean {
    const t = this.lower;
    const i = DL_U32.digests + 2 * LOWER.indexOf(level);
    const h = textKey(text);
    if (h.hi === 0 && h.lo === 0) return false;
    if (h.hi === t.getU(s, i) && h.lo === t.getU(s, i + 1)) return true;
    const f = level === 'metadata' ? this.formLower.slot(key) : undefined;
    return f !== undefined && h.hi === this.formLower.getU(f, 0) && h.lo === this.formLower.getU(f, 1);
  }

  /** Remember the first occurrence of `ev`: a line place and fingerprint from a regular file, else a digest (true). */
  private addFirst(key: Hash64, ev: AepEvent): boolean {
    const file = ev.source === this.lastSource ? this.lastFile : this.ids.fileIndex(ev.source);
    this.lastSource = ev.source;
    this.lastFile = file;
    let forgot: boolean;
    let digest = false;
    // a refused event keeps a digest: the line read back is only ever down-leveled as a sound event
    if (ev.reread && downlevelable(ev) && file < MAX_LINE_FILES && ev.byteOffset < MAX_LINE_OFFSET) {
      if (this.rereaders.get(file) !== ev.reread) this.rereaders.set(file, ev.reread);
      forgot = this.ids.addLine(key, lineFingerprint(ev.text), ev.byteOffset, ev.line, file);
    } else {
      const c = contentHash(ev);
      forgot = this.ids.addDigest(key, c.hi, c.lo, ev.line, file);
      digest = true;
    }
    const sig =
      digest && downlevelable(ev) && carriesExtension(ev.value) ? extSignature(ev.value, ev.bigIntegers) : undefined;
    this.exts.keep(key, sig);
    if (forgot) this.caps.note('maxIds', this.maxIds, () => markOf(ev));
    return digest;
  }

  /** Same canonical content as `first`; `undefined` when the file changed since. */
  private sameContent(first: IdEntry, ev: AepEvent): boolean | undefined {
    if (first.kind === 'digest') {
      const c = contentHash(ev);
      return c.hi === first.content.hi && c.lo === first.content.lo;
    }
    const line = this.rereaders.get(first.file)?.(first.byteOffset);
    return sameAsReadBack(line, first.fingerprint, ev, '', withoutDefaults);
  }
}
