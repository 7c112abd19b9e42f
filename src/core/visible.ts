/**
 * The one escaping function of the message layer: a finding's message never carries raw
 * invisible or control characters (a BOM, a zero-width space, a bidi override, a C0/C1 control,
 * an odd space, a lone surrogate), which would hide or reorder what a reader sees on a terminal
 * or in a CI log. Each such character is written as `U+XXXX` instead.
 *
 * {@link visibleFinding} is applied to every finding on its way out of the pipeline
 * (src/core/pipeline.ts `runPipeline`) and the library session (src/api/session.ts), so this is
 * a property of every message, not a habit of each rule; a message quoting input may also call
 * {@link visible} itself where it builds its words (the JSON scanner's "found ..." does).
 */
import type { Finding } from './finding.ts';

/**
 * Characters a message writes as `U+XXXX`: controls (Cc, including tab and line breaks: a
 * finding is one line), format characters (Cf: U+FEFF, U+200B-U+200F, U+202A-U+202E,
 * U+2066-U+2069, U+00AD, ...), separators other than the ASCII space (Zs, Zl, Zp: U+00A0,
 * U+2003, U+2028, ...), private-use and unassigned code points, lone surrogates and the
 * noncharacters U+FFFE/U+FFFF.
 */
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Co}\p{Cn}]|(?! )\p{Zs}|\p{Cs}/gu;

/** `U+FEFF` for a code point (at least four upper-case hex digits). */
export function codePointName(cp: number): string {
  return `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;
}

/**
 * `text` with every invisible or control character written as `U+XXXX` (idempotent), or as
 * `name(codePoint)` when given (e.g. `<U+FEFF>` in a case listing).
 */
export function visible(text: string, name: (cp: number) => string = codePointName): string {
  INVISIBLE.lastIndex = 0;
  if (!INVISIBLE.test(text)) return text;
  INVISIBLE.lastIndex = 0;
  return text.replace(INVISIBLE, (c) => name(c.codePointAt(0)!));
}

/** `f` itself when its message and text arguments are already visible, else a copy with {@link visible} applied. */
export function visibleFinding(f: Finding): Finding {
  const m = visible(f.message);
  let args = f.args;
  for (const [k, v] of Object.entries(f.args ?? {})) {
    if (typeof v !== 'string') continue;
    const seen = visible(v);
    if (seen !== v) args = { ...args, [k]: seen };
  }
  return m === f.message && args === f.args ? f : { ...f, message: m, ...(args ? { args } : {}) };
}
