/** Where the value of an assignment the detector found ends, when it runs past its first word (src/core/secrets.ts). */

const SPACE = /\s/;

/** The end of a YAML block scalar whose key is at `keyAt`: the lines below indented deeper than the key. */
export function blockEnd(text: string, keyAt: number, from: number): number {
  const lineStart = text.lastIndexOf('\n', keyAt) + 1;
  let indent = 0;
  while (text[lineStart + indent] === ' ' || text[lineStart + indent] === '\t') indent++;
  let last = from;
  for (let nl = text.indexOf('\n', from); nl >= 0; ) {
    const ls = nl + 1;
    let q = ls;
    while (q < text.length && (text[q] === ' ' || text[q] === '\t')) q++;
    const next = text.indexOf('\n', ls);
    const le = next < 0 ? text.length : next;
    if (q < le) {
      if (q - ls <= indent) break;
      last = le;
    }
    nl = next;
  }
  return last;
}

// a word that ends the value before it: another key (`user:`, `path=/x`), a comment, a shell separator, a quote, a mark
const PROSE_STOP = /^(?:[^\s]*[:=]|#|&&|\|\|?$|["'`<>([{]|\[REDACTED|\*{3})/i;
// what ends a sentence or clause at the end of a word: its last word is still the value's
const CLAUSE_END = /[.!?,;:]["'`)\]}]*$|["'`)\]}]$/;
/** Most words a prose value runs on for (a passphrase is a few words, not a paragraph). */
const PROSE_WORDS = 12;

/**
 * The end of a value after a colon inside prose (`... with password: correct horse battery staple. Then ...`): the
 * words after the first one on the same line (spaces and tabs between them), up to the end of the sentence or clause
 * (`.`, `!`, `?`, `,`, `;` ending a word, its punctuation and closing quotes not included), the line's end, or a word
 * that starts something else (another key, a comment, a quote); at most {@link PROSE_WORDS} words. `end` is the end of
 * the first word; a first word that ends a clause itself is the whole value (`end` is returned).
 */
export function proseValueEnd(text: string, end: number): number {
  if (CLAUSE_END.test(text.slice(Math.max(0, end - 3), end))) return end;
  let e = end;
  for (let n = 1; n < PROSE_WORDS; n++) {
    let p = e;
    while (text[p] === ' ' || text[p] === '\t') p++;
    if (p === e || p >= text.length || text[p] === '\n' || text[p] === '\r') break;
    let q = p;
    while (q < text.length && !SPACE.test(text[q]!)) q++;
    const w = text.slice(p, q);
    if (PROSE_STOP.test(w)) break;
    const clause = CLAUSE_END.exec(w);
    if (clause) {
      const keep = w.length - clause[0].length;
      return keep > 0 ? p + keep : e;
    }
    e = q;
  }
  return e;
}

/** True when the name whose keyword is at `at` follows a query's `?` or `&` (looked for at most 64 back). */
export function inQuery(text: string, at: number): boolean {
  let i = at - 1;
  while (i >= 0 && at - i <= 64 && QUERY_NAME.test(text[i]!)) i--;
  return i >= 0 && (text[i] === '?' || text[i] === '&');
}
const QUERY_NAME = /[A-Za-z0-9_.~-]/;
