/**
 * The pattern engine of generated verdict code: each RegExp behind a memo of its verdicts (member names, types recur on
 * every event); a pattern whose strings do not recur (ids) switches its memo off after MEMO_LIMIT misses.
 */

import { STRICT_FORMATS } from './formats.ts';

/** Misses before a pattern decides whether its memo pays, and the most strings it holds. */
export const MEMO_LIMIT = 1024;
/** Longer strings are tested directly. */
export const MEMO_MAX_LENGTH = 64;

/** What ajv's code calls on a pattern. */
export interface PatternTester {
  test(s: string): boolean;
}

/** A memoising tester of the regular expression `source` with `flags`. @throws SyntaxError for an invalid pattern. */
export function memoPattern(source: string, flags: string): PatternTester {
  const re = new RegExp(source, flags);
  return { test: memoPredicate((s) => re.test(s)) };
}

/**
 * `predicate` behind the same memo: strings up to `maxLength` are remembered until the memo holds MEMO_LIMIT, and the
 * memo switches itself off when its strings do not recur. For pure predicates (formats, patterns) only.
 */
export function memoPredicate(predicate: (s: string) => boolean, maxLength = MEMO_MAX_LENGTH): (s: string) => boolean {
  let memo: Map<string, boolean> | undefined = new Map();
  let misses = 0;
  let hits = 0;
  return (s: string): boolean => {
    if (memo === undefined || s.length > maxLength) return predicate(s);
    const known = memo.get(s);
    if (known !== undefined) {
      hits++;
      return known;
    }
    const verdict = predicate(s);
    if (memo.size >= MEMO_LIMIT) memo.clear();
    memo.set(s, verdict);
    if (++misses === MEMO_LIMIT) {
      if (hits < 3 * misses) memo = undefined;
      else misses = hits = 0;
    }
    return verdict;
  };
}

/** The formats as generated code calls them: the URI grammars memoised (`source` recurs), the others as they are. */
export const MEMO_FORMATS: typeof STRICT_FORMATS = Object.freeze({
  ...STRICT_FORMATS,
  uri: memoPredicate(STRICT_FORMATS.uri, 256),
  'absolute-uri': memoPredicate(STRICT_FORMATS['absolute-uri'], 256),
});
