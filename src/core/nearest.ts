/** The nearest known word to a rejected one, by edit distance (messages that say which known name was likely meant). */

/** Levenshtein distance between `a` and `b` (insertions, deletions and substitutions cost 1). */
export function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++)
      cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = cur;
  }
  return prev[b.length]!;
}

/** Words longer than this get no suggestion (the distance costs their length times each candidate's). */
export const NEAREST_MAX_LENGTH = 128;

/** The candidate nearest to `word`; `undefined` past {@link NEAREST_MAX_LENGTH} or, with `close`, too far. */
export function nearestWord(word: string, candidates: Iterable<string>, close = false): string | undefined {
  if (word.length > NEAREST_MAX_LENGTH) return undefined;
  let best: string | undefined;
  let bestD = Number.POSITIVE_INFINITY;
  for (const c of candidates) {
    if (c === word) continue;
    const d = editDistance(word, c);
    if (d < bestD) {
      bestD = d;
      best = c;
    }
  }
  if (close && bestD > Math.max(2, Math.floor(word.length / 3))) return undefined;
  return best;
}
