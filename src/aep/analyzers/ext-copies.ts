/**
 * Copies apart by extension attributes only (AEP-0001 §4.2 MAY add, §5.4 MUST preserve; §7 rule 2: any order): either
 * copy may carry ones the other lacks; one both carry with different values was altered (a collision).
 */
import { canonicalJson, textKey, type Hash64 } from '../../core/canonical.ts';
import { parseJsonText } from '../../core/json.ts';
import { escapeToken } from '../../core/pointer.ts';
import type { ParsedEvent } from '../../core/rule.ts';
import { SpillTable } from '../../core/spill-table.ts';
import { eventText } from './canonical.ts';
import { CORE_NAMES, MAX_ADDED_TRIED } from './downlevel-copies.ts';

/** Side-table columns of a first copy's signature: its attribute count, core digest, then name and pair digests. */
export const EXT_U32 = { count: 0, core: 1, slots: 3, width: 3 + 4 * MAX_ADDED_TRIED } as const;

/** An event's content without its extension attributes, and each of them by name and by name and value. */
export interface ExtSignature {
  core: Hash64;
  names: Hash64[];
  pairs: Hash64[];
}

/** Whether `value` carries an extension attribute (a member that is no core attribute). */
export function carriesExtension(value: Record<string, unknown>): boolean {
  for (const k in value) if (!CORE_NAMES.has(k)) return true;
  return false;
}

/** The signature of an event's value; `undefined` with more than {@link MAX_ADDED_TRIED} extension attributes. */
export function extSignature(
  value: Record<string, unknown>,
  bigIntegers: ParsedEvent['bigIntegers'],
): ExtSignature | undefined {
  const names: string[] = [];
  for (const k in value) if (!CORE_NAMES.has(k)) names.push(k);
  if (names.length > MAX_ADDED_TRIED) return undefined;
  const core: Record<string, unknown> = {};
  for (const k in value) if (CORE_NAMES.has(k)) core[k] = value[k];
  const tops = new Set(names.map((n) => '/' + escapeToken(n)));
  const coreBigs = bigIntegers.filter((b) => !tops.has(b.pointer));
  return {
    core: textKey(eventText(core, coreBigs)),
    names: names.map((n) => textKey(n)),
    pairs: names.map((n) => {
      const at = '/' + escapeToken(n);
      return textKey(n + '\u0000' + canonicalJson({ value: value[n], bigIntegers }, at));
    }),
  };
}

/** The signature of a first copy read back from its line (`undefined` when it is no JSON object). */
export function lineSignature(line: string): ExtSignature | undefined {
  const parsed = parseJsonText(line, Number.MAX_SAFE_INTEGER);
  if (!parsed.ok || parsed.value === null || typeof parsed.value !== 'object' || Array.isArray(parsed.value)) return;
  return extSignature(parsed.value as Record<string, unknown>, parsed.bigIntegers);
}

const same = (a: Hash64, b: Hash64): boolean => a.hi === b.hi && a.lo === b.lo;

/**
 * How many extension attributes only `first` and only `copy` carry, when all else and every shared one agree and
 * `first` carries one `copy` lacks (the other order is tried by the identity analyzer); `undefined` otherwise.
 */
export function extensionsApart(first: ExtSignature, copy: ExtSignature): { first: number; copy: number } | undefined {
  if (!same(first.core, copy.core)) return undefined;
  let shared = 0;
  for (let i = 0; i < first.names.length; i++) {
    const j = copy.names.findIndex((n) => same(n, first.names[i]!));
    if (j < 0) continue;
    if (!same(copy.pairs[j]!, first.pairs[i]!)) return undefined;
    shared++;
  }
  const onFirst = first.names.length - shared;
  return onFirst > 0 ? { first: onFirst, copy: copy.names.length - shared } : undefined;
}

/** First copies' signatures for digest entries (a line entry's first copy is read back instead). */
export class ExtCopies {
  private readonly table: SpillTable;

  constructor(cap: number, memRows?: number) {
    this.table = new SpillTable({ u32: EXT_U32.width, f64: 0, cap, forget: 'half', memRows });
  }

  /** Keep the signature of a digest entry's first copy that carries extension attributes; else clear a stale row. */
  keep(key: Hash64, sig: ExtSignature | undefined): void {
    const t = this.table;
    if (!sig || sig.names.length === 0) {
      if (t.size > 0 && t.slot(key) !== undefined) t.delete(key);
      return;
    }
    const s = t.slot(key) ?? t.add(key);
    t.setU(s, EXT_U32.count, sig.names.length);
    t.setU(s, EXT_U32.core, sig.core.hi);
    t.setU(s, EXT_U32.core + 1, sig.core.lo);
    for (let i = 0; i < sig.names.length; i++) {
      const at = EXT_U32.slots + 4 * i;
      t.setU(s, at, sig.names[i]!.hi);
      t.setU(s, at + 1, sig.names[i]!.lo);
      t.setU(s, at + 2, sig.pairs[i]!.hi);
      t.setU(s, at + 3, sig.pairs[i]!.lo);
    }
  }

  /** The kept signature of `key`'s first copy, if any. */
  get(key: Hash64): ExtSignature | undefined {
    const t = this.table;
    const s = t.slot(key);
    if (s === undefined) return undefined;
    const n = t.getU(s, EXT_U32.count);
    const word = (at: number): Hash64 => ({ hi: t.getU(s, at), lo: t.getU(s, at + 1) });
    const sig: ExtSignature = { core: word(EXT_U32.core), names: [], pairs: [] };
    for (let i = 0; i < n; i++) {
      sig.names.push(word(EXT_U32.slots + 4 * i));
      sig.pairs.push(word(EXT_U32.slots + 4 * i + 2));
    }
    return sig;
  }
}
