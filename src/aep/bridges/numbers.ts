/**
 * Numbers and strings a bridge cannot carry as written (issue 37 item 5): a JSON number whose double is not its literal
 * (1e400, 1e-400, integers beyond 2^53), and strings that are not valid Unicode or not a CloudEvents String.
 */
import { type BigIntegerLiteral, exactIntegerOfLiteral, numberLiteralAt } from '../../core/json.ts';
import { childPointer } from '../../core/pointer.ts';
import type { ParsedEvent } from '../../core/rule.ts';

const TWO_53 = 2 ** 53;
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** True when `n` fits a protobuf int64 (OTLP `intValue`). */
export function isInt64(n: bigint): boolean {
  return n >= INT64_MIN && n <= INT64_MAX;
}

/**
 * The literal text of every number of `ev` that JSON.parse may have changed, by pointer in the event: non-finite,
 * integral at or beyond 2^53, or zero where the line has an exponent that underflows. Most events have none.
 */
export function numberLiterals(ev: Pick<ParsedEvent, 'text' | 'value' | 'bigIntegers'>): Map<string, string> {
  const out = new Map<string, string>();
  for (const b of ev.bigIntegers) out.set(b.pointer, b.text);
  const zeros = /[eE]-\d{3}|0{300}/.test(ev.text);
  const walk = (v: unknown, p: string): void => {
    if (typeof v === 'number') {
      const suspect = !Number.isFinite(v) || (Number.isInteger(v) && Math.abs(v) >= TWO_53) || (zeros && v === 0);
      if (suspect && !out.has(p)) {
        const lit = numberLiteralAt(ev.text, p);
        if (lit !== undefined) out.set(p, lit);
      }
    } else if (Array.isArray(v)) {
      for (const [i, x] of v.entries()) walk(x, childPointer(p, i));
    } else if (v !== null && typeof v === 'object') for (const [k, x] of Object.entries(v)) walk(x, childPointer(p, k));
  };
  // the cheap screen: only a line with a long digit run or an exponent can hold such a number
  if (out.size > 0 || /\d{16}|[eE][+-]?\d{2}/.test(ev.text)) walk(ev.value, '');
  return out;
}

/**
 * {@link numberLiterals} as the literal list `decodeOtlp` takes: a 64-bit field is read from its digits (the OTLP spec
 * accepts numbers and strings alike when decoding), so `1.7960292e18` is exact and a rounded-away fraction is seen.
 */
export function otlpLiterals(ev: Pick<ParsedEvent, 'text' | 'value' | 'bigIntegers'>): BigIntegerLiteral[] {
  return [...numberLiterals(ev)].map(([pointer, text]) => ({ pointer, text, index: 0 }));
}

/** How an OTLP AnyValue holds one JSON number, or why none does exactly. */
export type OtlpNumber =
  | { intValue: string }
  | { doubleValue: number }
  | { refused: 'non-finite' | 'beyond-int64' | 'underflow' };

/** The AnyValue of a JSON number (OTLP common/v1), refused when none holds it as written (AEP-0005 §2 rule 1). */
export function otlpNumberOf(value: number, literal?: string): OtlpNumber {
  if (literal === undefined) {
    if (!Number.isFinite(value)) return { refused: 'non-finite' };
    if (Number.isInteger(value) && isInt64(BigInt(value))) return { intValue: BigInt(value).toString() };
    return { doubleValue: value };
  }
  const exact = exactIntegerOfLiteral(literal);
  if (typeof exact === 'bigint') {
    if (isInt64(exact)) return { intValue: exact.toString() };
    if (!Number.isFinite(value)) return { refused: 'non-finite' };
    // an integer literal beyond int64 would round as a double; one written as a real is a double already
    return /[.eE]/.test(literal) && Number.isFinite(value) ? { doubleValue: value } : { refused: 'beyond-int64' };
  }
  if (!Number.isFinite(value)) return { refused: 'non-finite' };
  if (value === 0 && /[1-9]/.test(literal.replace(/[eE].*$/, ''))) return { refused: 'underflow' };
  return { doubleValue: value };
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** True when `s` holds an unpaired surrogate (not valid Unicode: proto3 JSON strings and CloudEvents Strings are). */
export function hasLoneSurrogate(s: string): boolean {
  return LONE_SURROGATE.test(s);
}

// CloudEvents 1.0 §3.1.1 String: no control characters, no noncharacters, surrogates only in pairs
const CE_DISALLOWED =
  /[\u0000-\u001F\u007F-\u009F\uFDD0-\uFDEF\uFFFE\uFFFF]|[\uD83F\uD87F\uD8BF\uD8FF\uD93F\uD97F\uD9BF\uD9FF\uDA3F\uDA7F\uDABF\uDAFF\uDB3F\uDB7F\uDBBF\uDBFF][\uDFFE\uDFFF]/;

// the same two patterns, global, for ceStringPart
const CE_DISALLOWED_ALL = new RegExp(CE_DISALLOWED.source, 'g');
const LONE_SURROGATE_ALL = new RegExp(LONE_SURROGATE.source, 'g');

/** True when `s` is not a CloudEvents String: a control character, a noncharacter or an unpaired surrogate. */
export function notCeString(s: string): boolean {
  return CE_DISALLOWED.test(s) || LONE_SURROGATE.test(s);
}

/** `s` without the characters a CloudEvents String disallows: what is left to judge once that fault is told. */
export function ceStringPart(s: string): string {
  return s.replace(CE_DISALLOWED_ALL, '').replace(LONE_SURROGATE_ALL, '');
}
