/** Exact arithmetic on JSON number literals (RFC 8259 §6), on their text, not on JSON.parse's doubles. */

/** Largest decimal exponent {@link exactIntegerOfLiteral} expands (bounds the bigint's size). */
export const MAX_EXACT_EXPONENT = 4096;

/**
 * Exact integer of a JSON number literal, also in fraction or exponent form (`1e3` -> 1000n); `'fraction'`,
 * `'too-large'` (exponent beyond MAX_EXACT_EXPONENT) or `undefined` (not a number literal).
 */
export function exactIntegerOfLiteral(lit: string): bigint | 'fraction' | 'too-large' | undefined {
  const m = /^(-?)(0|[1-9][0-9]*)(?:\.([0-9]+))?(?:[eE]([+-]?[0-9]+))?$/.exec(lit);
  if (!m) return undefined;
  const [, sign, int, frac = '', expText = '0'] = m;
  const padded = (int + frac).replace(/^0+(?=\d)/, '');
  if (/^0+$/.test(padded)) return 0n;
  // trailing zeros move into the exponent first ("1" + 5000 zeros + "e-4999" is 10): then the bound judges the value,
  // not how it is written, and a negative exponent left means a non-zero last digit after the point, a fraction
  const digits = padded.replace(/0+$/, '');
  const exp = Number(expText) - frac.length + (padded.length - digits.length);
  if (exp < 0) return 'fraction';
  if (!Number.isFinite(exp) || exp > MAX_EXACT_EXPONENT) return 'too-large';
  const v = BigInt(digits) * 10n ** BigInt(exp);
  return sign ? -v : v;
}

/** Exact order of two JSON number literals (-1, 0, 1), also where both round to one double. */
export function compareNumberLiterals(a: string, b: string): -1 | 0 | 1 | undefined {
  const x = decimalOf(a);
  const y = decimalOf(b);
  if (!x || !y) return undefined;
  if (x.sign !== y.sign) return x.sign < y.sign ? -1 : 1;
  if (x.sign === 0) return 0;
  // same sign, both non-zero: compare the magnitudes by the place of their first digit, then digit by digit
  let m: -1 | 0 | 1;
  if (x.top !== y.top) m = x.top < y.top ? -1 : 1;
  else {
    const n = Math.max(x.digits.length, y.digits.length);
    const dx = x.digits.padEnd(n, '0');
    const dy = y.digits.padEnd(n, '0');
    m = dx === dy ? 0 : dx < dy ? -1 : 1;
  }
  return x.sign < 0 ? ((-m || 0) as -1 | 0 | 1) : m;
}

/** A JSON number literal as sign, significant digits (no leading or trailing zeros) and the place of the first one (`12e3`: "12", 5). */
function decimalOf(lit: string): { sign: -1 | 0 | 1; digits: string; top: bigint } | undefined {
  const m = /^(-?)(0|[1-9][0-9]*)(?:\.([0-9]+))?(?:[eE]([+-]?[0-9]+))?$/.exec(lit);
  if (!m) return undefined;
  const [, neg, int, frac = '', expText = '0'] = m;
  const all = int + frac;
  const lead = all.search(/[1-9]/);
  if (lead < 0) return { sign: 0, digits: '', top: 0n };
  const digits = all.slice(lead).replace(/0+$/, '');
  // value = 0.<all> * 10^(int.length + exp); the first non-zero digit sits `lead` places further right
  const top = BigInt(int.length - lead) + BigInt(expText);
  return { sign: neg ? -1 : 1, digits, top };
}
