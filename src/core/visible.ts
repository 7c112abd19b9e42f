/**
 * The one escaping of the message layer: invisible and control characters (BOM, zero-width, bidi, controls, lone
 * surrogates) are written `U+XXXX`; visibleFinding runs on every finding leaving the pipeline and the library session.
 */
// no import of finding.ts: it renders messages through message.ts, which quotes values with visibleJson

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

const SHORT_ESCAPES: Readonly<Record<string, number>> = { b: 8, t: 9, n: 10, f: 12, r: 13 };

/** `\uXXXX` (and with `short`, `\n` ...) of JSON text as `U+XXXX` when it escapes an invisible character; `\\` kept. */
function escapesVisible(json: string, short: boolean): string {
  if (!json.includes('\\')) return json;
  return json.replace(/\\(\\|[btnfr]|u([0-9a-fA-F]{4}))/g, (m, e: string, hex: string | undefined) => {
    const cp = hex !== undefined ? Number.parseInt(hex, 16) : short ? SHORT_ESCAPES[e] : undefined;
    if (cp === undefined) return m;
    const name = codePointName(cp);
    return visible(String.fromCharCode(cp)) === name ? name : m;
  });
}

/**
 * `v` as JSON for a message, its invisible characters as `U+XXXX` rather than JSON escapes (`\u001b`, `\n`), so a
 * quoted value writes them as every other message does.
 */
export function visibleJson(v: unknown): string {
  return escapesVisible(visible(JSON.stringify(v) ?? String(v)), true);
}

/**
 * `f` itself when its message and text arguments are already visible, else a copy with {@link visible} applied; a
 * `\u001b` a message got from JSON.stringify is written `U+001B` too, as the character itself would be.
 */
export function visibleFinding<F extends { message: string; args?: Readonly<Record<string, unknown>> }>(f: F): F {
  const m = escapesVisible(visible(f.message), false);
  let args = f.args;
  for (const [k, v] of Object.entries(f.args ?? {})) {
    if (typeof v !== 'string') continue;
    const seen = visible(v);
    if (seen !== v) args = { ...args, [k]: seen };
  }
  return m === f.message && args === f.args ? f : { ...f, message: m, ...(args ? { args } : {}) };
}
