/**
 * The pattern engine of the generated verdict code (tools/gen-validators.ts passes it to ajv as
 * `code.regExp`; src/core/schema/generated.ts hands it to the verdict modules): a pattern's
 * RegExp behind a memo of its verdicts, since most strings a pattern sees recur on every event
 * (member names, event types, method names). A pattern whose strings do not recur (ids) switches
 * its memo off after {@link MEMO_LIMIT} misses with fewer than three hits each; at most
 * {@link MEMO_LIMIT} strings of at most {@link MEMO_MAX_LENGTH} code units are held per pattern.
 * The verdicts are the RegExp's own (ajv's flags have no `g`/`y`: `test` keeps no state). The
 * diagnostic code keeps plain RegExps.
 */

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
  let memo: Map<string, boolean> | undefined = new Map();
  let misses = 0;
  let hits = 0;
  return {
    test(s: string): boolean {
      if (memo === undefined || s.length > MEMO_MAX_LENGTH) return re.test(s);
      const known = memo.get(s);
      if (known !== undefined) {
        hits++;
        return known;
      }
      const verdict = re.test(s);
      if (memo.size >= MEMO_LIMIT) memo.clear();
      memo.set(s, verdict);
      if (++misses === MEMO_LIMIT) {
        if (hits < 3 * misses) memo = undefined;
        else misses = hits = 0;
      }
      return verdict;
    },
  };
}
