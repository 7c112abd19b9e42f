import { exactIntegerOfLiteral, type BigIntegerLiteral } from '../../core/json.ts';
import type { MessageArgs } from '../../core/message.ts';
import { childPointer, escapeToken } from '../../core/pointer.ts';
import { isObj, type Obj } from '../../core/value.ts';
import { isInt64 } from './numbers.ts';
import { MAX_FIXED64 } from './otlp.ts';
import { OTLP_RULES as R } from './rules.ts';
import { kindOf, type BridgeIssue } from './types.ts';

/** One AnyValue read back as JSON, with the input pointer of every member under it. */
export interface ReadValue {
  value: unknown;
  ok: boolean;
}

/** The members of an AnyValue (OTLP common/v1). */
export const ANY_KEYS = [
  'stringValue',
  'boolValue',
  'intValue',
  'doubleValue',
  'arrayValue',
  'kvlistValue',
  'bytesValue',
];

/**
 * The integer a string holds for an integer field of the protobuf JSON mapping: decimal digits with an optional
 * minus (`"007"`, `"-0"`), or a JSON number literal denoting an integer (`"1.7960292e18"`, `"1e2"`, `"9.0"`): the
 * mapping accepts numbers or strings and "Exponent notation (such as 1e2) is accepted in both quoted and unquoted
 * forms". `'fraction'` or `'too-large'` (an exponent past the bigint bound) say why a number literal is refused.
 */
export function integerOfString(s: string): bigint | 'fraction' | 'too-large' | undefined {
  return /^-?\d+$/.test(s) ? BigInt(s) : exactIntegerOfLiteral(s);
}

/** A fixed32 given as a string (OTLP `flags`), read as {@link integerOfString} reads one; NaN when it holds none. */
export function fixed32OfString(s: string): number {
  const n = integerOfString(s);
  return typeof n === 'bigint' && n >= 0n && n <= 0xffffffffn ? Number(n) : NaN;
}

/**
 * An integer of the protobuf JSON mapping (a number, or a string per {@link integerOfString}), exact. A number
 * JSON.parse cannot hold exactly is read from its literal in `big` (by pointer), so `1.7960292e18` is the integer
 * it denotes and `1796029200000000000.5` is no integer, though both parse to one double.
 */
export function int64Of(v: unknown, p: string, big: ReadonlyMap<string, string>): bigint | undefined {
  if (typeof v === 'number') {
    const lit = big.get(p);
    if (lit !== undefined) {
      const exact = exactIntegerOfLiteral(lit);
      return typeof exact === 'bigint' ? exact : undefined;
    }
    return Number.isSafeInteger(v) ? BigInt(v) : undefined;
  }
  if (typeof v !== 'string') return undefined;
  const n = integerOfString(v);
  return typeof n === 'bigint' ? n : undefined;
}

/**
 * The sign of an integer literal {@link int64Of} refused for its size alone (an exponent past the exact bound:
 * `"1e5000"`, `-1e5000`): a range fault, told as one, not a form fault; `undefined` for any other refusal.
 */
export function hugeIntegerSign(v: unknown, p: string, big: ReadonlyMap<string, string>): 1 | -1 | undefined {
  const lit = typeof v === 'string' ? v : typeof v === 'number' ? big.get(p) : undefined;
  if (lit === undefined || integerOfString(lit) !== 'too-large') return undefined;
  return lit.startsWith('-') ? -1 : 1;
}

/** What a value {@link int64Of} refused is, for a message: its literal shows a fraction the double rounded away. */
export function int64KindOf(v: unknown, p: string, big: ReadonlyMap<string, string>): string {
  if (typeof v === 'string') {
    const n = integerOfString(v);
    if (n === 'fraction') return 'a string holding a number with a fraction';
    return v === '' ? 'an empty string' : 'a string that is no number literal';
  }
  if (typeof v !== 'number') return kindOf(v);
  const lit = big.get(p);
  if (lit !== undefined) return exactIntegerOfLiteral(lit) === 'fraction' ? 'a number with a fraction' : kindOf(v);
  // an object given to the library holds only the double: its digits past 2^53 are lost already
  return Number.isInteger(v) && !Number.isSafeInteger(v)
    ? 'an integer beyond 2^53 given as a JavaScript number, so not exact'
    : kindOf(v);
}

/** The JSON value of an AnyValue at `p` (reports shape issues); integers beyond 2^53 go to `bigs`. */
export function readAny(
  v: unknown,
  p: string,
  issues: BridgeIssue[],
  big: ReadonlyMap<string, string>,
  aepPointer: string,
  bigs: BigIntegerLiteral[],
): ReadValue {
  const bad = (messageId: string, args: MessageArgs = {}): ReadValue => {
    issues.push({ ruleId: R.shape.id, pointer: p, messageId, args });
    return { value: undefined, ok: false };
  };
  if (!isObj(v)) return bad('any-not-object', { kind: kindOf(v) });
  const keys = Object.keys(v).filter((k) => ANY_KEYS.includes(k) && v[k] !== undefined && v[k] !== null);
  if (keys.length === 0) return { value: null, ok: true };
  if (keys.length > 1) return bad('any-members', { count: keys.length, members: keys.join(', ') });
  const k = keys[0]!;
  const x = v[k];
  const at = childPointer(p, k);
  const notA = (expected: string) => bad('any-type', { member: k, kind: kindOf(x), expected });
  switch (k) {
    case 'stringValue':
      return typeof x === 'string' ? { value: x, ok: true } : notA('a string');
    case 'bytesValue':
      return typeof x === 'string' ? { value: x, ok: true } : notA('a base64 string');
    case 'boolValue':
      return typeof x === 'boolean' ? { value: x, ok: true } : notA('a boolean');
    case 'doubleValue':
      return typeof x === 'number'
        ? { value: x, ok: true }
        : typeof x === 'string' && /^(NaN|-?Infinity)$/.test(x)
          ? bad('double-infinite')
          : typeof x === 'string' && x.trim() !== '' && Number.isFinite(Number(x))
            ? { value: Number(x), ok: true }
            : notA('a number');
    case 'intValue': {
      const n = int64Of(x, at, big);
      if (n === undefined && hugeIntegerSign(x, at, big) !== undefined) return bad('int-range');
      if (n === undefined) return bad(typeof x === 'string' ? 'int-string' : 'int', { kind: int64KindOf(x, at, big) });
      // common.proto: int_value is an int64; a wider integer is no AnyValue
      if (!isInt64(n)) return bad('int-range');
      if (n > BigInt(Number.MAX_SAFE_INTEGER) || n < BigInt(Number.MIN_SAFE_INTEGER))
        bigs.push({ pointer: aepPointer, text: n.toString(), index: 0 });
      return { value: Number(n), ok: true };
    }
    case 'arrayValue': {
      if (!isObj(x)) return notA('an object');
      const vals = x.values === undefined ? [] : x.values;
      if (!Array.isArray(vals)) return bad('values-not-array', { member: 'arrayValue' });
      const out: unknown[] = [];
      let ok = true;
      vals.forEach((y, i) => {
        const r = readAny(y, `${at}/values/${i}`, issues, big, `${aepPointer}/${i}`, bigs);
        ok &&= r.ok;
        out.push(r.value);
      });
      return { value: out, ok };
    }
    default: {
      const r = readKvList(x, at, issues, big, aepPointer, bigs);
      return r ? { value: r, ok: true } : { value: undefined, ok: false };
    }
  }
}

/** A KeyValueList (`{values: [{key, value}]}`) at `p` as a JSON object, or `undefined` when malformed. */
export function readKvList(
  x: unknown,
  p: string,
  issues: BridgeIssue[],
  big: ReadonlyMap<string, string>,
  aepPointer: string,
  bigs: BigIntegerLiteral[],
): Obj | undefined {
  if (!isObj(x)) {
    issues.push({
      ruleId: R.shape.id,
      pointer: p,
      messageId: 'any-type',
      args: { member: 'kvlistValue', kind: kindOf(x), expected: 'an object' },
    });
    return undefined;
  }
  const vals = x.values === undefined ? [] : x.values;
  if (!Array.isArray(vals)) {
    issues.push({
      ruleId: R.shape.id,
      pointer: p + '/values',
      messageId: 'values-not-array',
      args: { member: 'kvlistValue' },
    });
    return undefined;
  }
  const o: Obj = {};
  let ok = true;
  const seen = new Set<string>();
  vals.forEach((kv, i) => {
    const q = `${p}/values/${i}`;
    if (!isObj(kv) || typeof kv.key !== 'string') {
      ok = false;
      issues.push({ ruleId: R.shape.id, pointer: q, messageId: 'key-value', args: {} });
      return;
    }
    // common.proto KeyValueList: "The keys MUST be unique"; which value counts is undefined, as for a repeated member
    if (seen.has(kv.key)) {
      ok = false;
      issues.push({
        ruleId: R.shape.id,
        pointer: q + '/key',
        messageId: 'kv-repeat',
        args: { key: kv.key.slice(0, 60) },
      });
      return;
    }
    seen.add(kv.key);
    const r = readAny(kv.value ?? {}, q + '/value', issues, big, `${aepPointer}/${escapeToken(kv.key)}`, bigs);
    ok &&= r.ok;
    Object.defineProperty(o, kv.key, { value: r.value, enumerable: true, writable: true, configurable: true });
  });
  return ok ? o : undefined;
}

/** The input pointer under an AnyValue at `p` for the AEP tokens `toks` (best effort). */
export function anyPointer(v: unknown, p: string, toks: string[]): string {
  let cur = v;
  let at = p;
  for (const t of toks) {
    if (!isObj(cur)) break;
    if (isObj(cur.kvlistValue) && Array.isArray(cur.kvlistValue.values)) {
      const i = cur.kvlistValue.values.findIndex((kv) => isObj(kv) && kv.key === t);
      if (i === -1) break;
      at = `${at}/kvlistValue/values/${i}/value`;
      cur = (cur.kvlistValue.values[i] as Obj).value;
    } else if (
      isObj(cur.arrayValue) &&
      Array.isArray(cur.arrayValue.values) &&
      /^\d+$/.test(t) &&
      +t < cur.arrayValue.values.length
    ) {
      at = `${at}/arrayValue/values/${t}`;
      cur = cur.arrayValue.values[+t];
    } else break;
  }
  return at;
}

/** An RFC 6901 reference token unescaped. */
export const unescapeToken = (t: string): string => t.replace(/~1/g, '/').replace(/~0/g, '~');

/**
 * The `aep/otlp-time` fault of the time field read (`t`, its integer `tn`), `undefined` when it gives a time:
 * logs.proto types it fixed64 (0 to 2^64 - 1 ns, 2554-07-21T23:34:33.709551615Z) and makes 0 unknown time.
 */
export function timeFault(t: unknown, tn: bigint | undefined, huge: 1 | -1 | undefined): string | undefined {
  if (t === undefined) return 'absent';
  if (tn === undefined)
    return huge === 1 ? 'too-late' : huge === -1 ? 'negative' : typeof t === 'string' ? 'string' : 'kind';
  if (tn === 0n) return 'zero';
  if (tn < 0n) return 'negative';
  return tn > MAX_FIXED64 ? 'too-late' : undefined;
}

/** What a `flags` value is, for a message: a string or number as written (cut at 40 characters), else its kind. */
export function foundOf(v: unknown, p: string, big: ReadonlyMap<string, string>): string {
  if (typeof v === 'string') return `the string ${JSON.stringify(v.slice(0, 40))}`;
  if (typeof v === 'number') return (big.get(p) ?? String(v)).slice(0, 40);
  return kindOf(v);
}
