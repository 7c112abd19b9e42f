/**
 * The identity analyzer (AEP-0001 §5.1 #2, §7.4): every event's `(source, id)` is compared with
 * its first occurrence. A repeat with the same canonical content is a redelivery, and the
 * model then runs no other analyzer on it (model.ts), so it is never counted twice.
 *
 * Keeps: `(source, id)` -> where the first occurrence was, in a compact hash table
 * (id-table.ts; cap `maxIds`, the oldest half forgotten first, noted in the {@link AepCapLog}),
 * with either a 64-bit digest of its canonical content or, when it came from a regular file,
 * only a fingerprint of the line: a repeat then reads the first line back
 * ({@link ParsedEvent.reread}) and compares exactly (same bytes, else same canonical text).
 * Most events never repeat, so this saves canonicalising and hashing every line; standard
 * input and pipes keep the digest. Also keeps the run's input names (shared as
 * {@link InputNames} by the compact tables of the other analyzers). Releases nothing.
 */
import { fnv32, sameAsReadBack } from '../../core/canonical.ts';
import { markOf, type Mark } from '../../core/mark.ts';
import type { ParsedEvent } from '../../core/rule.ts';
import { attr, type AepEvent } from '../event.ts';
import type { AepCapLog } from './budget.ts';
import { contentHash, idKeyHash } from './canonical.ts';
import { AepIdTable, MAX_LINE_FILES, MAX_LINE_OFFSET, type IdEntry } from './id-table.ts';
import type { InputNames } from './markers.ts';

/** What the identity analyzer found about one event. */
export interface IdentityFacts {
  /** The first occurrence, when this event repeats it exactly (canonical content): then no other fact is set. */
  redelivery?: Mark;
  /** The first occurrence, when this event reuses its `(source, id)` with other content. */
  collision?: Mark;
  /** The first occurrence, when this event repeats its `(source, id)` but that line could not be read back to compare. */
  unverifiable?: Mark;
}

/** `(source, id)` identity and dedupe for one run. */
export class IdentityAnalyzer {
  private readonly ids: AepIdTable;
  /** How to read back lines of re-readable inputs, by input index. */
  private readonly rereaders = new Map<number, (byteOffset: number) => string | undefined>();

  constructor(
    private readonly maxIds: number,
    private readonly caps: AepCapLog,
  ) {
    this.ids = new AepIdTable(maxIds);
  }

  /** The run's input names (for the compact tables of the other analyzers). */
  get names(): InputNames {
    return this.ids;
  }

  /** `(source, id)` entries held now. */
  get size(): number {
    return this.ids.size;
  }

  /** Compare `ev` with the first occurrence of its `(source, id)`; true when it is a redelivery. */
  observe(ev: AepEvent, facts: IdentityFacts): boolean {
    const key = idKeyHash(attr(ev, 'source')!, attr(ev, 'id')!);
    const first = this.ids.get(key);
    if (!first) {
      if (this.ids.add(key, this.entry(ev))) this.caps.note('maxIds', this.maxIds, () => markOf(ev));
      return false;
    }
    const firstAt: Mark = { file: this.ids.fileName(first.file), line: first.line };
    const same = this.sameContent(first, ev);
    if (same === true) {
      facts.redelivery = firstAt;
      return true;
    }
    if (same === false) facts.collision = firstAt;
    else facts.unverifiable = firstAt;
    return false;
  }

  /**
   * What the table keeps of a first occurrence. From a regular file: where the line is and
   * its fingerprint, since the line can be read back when its `(source, id)` repeats; otherwise
   * the digest of its canonical content.
   */
  private entry(ev: ParsedEvent): IdEntry {
    const file = this.ids.fileIndex(ev.source);
    if (ev.reread && file < MAX_LINE_FILES && ev.byteOffset < MAX_LINE_OFFSET) {
      this.rereaders.set(file, ev.reread);
      return { kind: 'line', fnv: fnv32(ev.text), byteOffset: ev.byteOffset, line: ev.line, file };
    }
    return { kind: 'digest', content: contentHash(ev), line: ev.line, file };
  }

  /**
   * Whether `ev` has the same canonical content as the first occurrence `first`: compared
   * exactly when the first line can be read back, by digest otherwise. `undefined` when the
   * first line cannot be read back as it was (the file changed while it was checked).
   */
  private sameContent(first: IdEntry, ev: AepEvent): boolean | undefined {
    if (first.kind === 'digest') {
      const c = contentHash(ev);
      return c.hi === first.content.hi && c.lo === first.content.lo;
    }
    return sameAsReadBack(this.rereaders.get(first.file)?.(first.byteOffset), first.fnv, ev);
  }
}
