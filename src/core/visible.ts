/**
 * The one escaping of the message layer: invisible and control characters (BOM, zero-width, bidi, controls, lone
 * surrogates) are written `U+XXXX`; visibleFinding runs on every finding leaving the pipeline and the library session.
 */
import type { Finding } from './finding.ts';

/** Written as `U+XXXX`: Cc, Cf, Zs other than space, Zl, Zp, Co, Cn, lone surrogates. */
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Co}\p{Cn}]|(?! )\p{Zs}|\p{Cs}/gu;

/** `U+FEFF` for a code point (at least four upper-case hex digits). */
export function codePointName(cp: number): string {
  return `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;
}

/** `text` with every invisible or control character as `U+XXXX` (idempotent), or `name(codePoint)` when given. */
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
