/**
 * Text that is several JSON objects one after another, some spread over many lines (what `jq .` makes of a JSONL
 * log): each protocol's hint names such an input once rather than one parse finding per line.
 */

/**
 * The objects `text` holds when it is two or more JSON objects one after another (whitespace between them), at least
 * one spread over several lines; `undefined` otherwise.
 */
export function prettyObjects(text: string): Record<string, unknown>[] | undefined {
  const out: Record<string, unknown>[] = [];
  let multiLine = false;
  let i = 0;
  const n = text.length;
  while (i < n) {
    while (i < n && /\s/.test(text[i]!)) i++;
    if (i === n) break;
    if (text[i] !== '{') return undefined;
    const end = objectEnd(text, i);
    if (end < 0) return undefined;
    const part = text.slice(i, end);
    try {
      out.push(JSON.parse(part) as Record<string, unknown>);
    } catch {
      return undefined;
    }
    if (part.includes('\n')) multiLine = true;
    i = end;
  }
  return out.length >= 2 && multiLine ? out : undefined;
}

/** The index after the object that opens at `from` (its braces balanced outside strings), or -1 when it never closes. */
function objectEnd(text: string, from: number): number {
  let depth = 0;
  let inString = false;
  for (let i = from; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{' || c === '[') depth++;
    else if ((c === '}' || c === ']') && --depth === 0) return i + 1;
  }
  return -1;
}
