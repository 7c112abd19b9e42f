/** RFC 6901 JSON Pointer helpers. */

/** Escape one reference token (`~` -> `~0`, `/` -> `~1`). RFC 6901 §3. */
export function escapeToken(token: string | number): string {
  const s = String(token);
  return s.includes('~') || s.includes('/') ? s.replace(/~/g, '~0').replace(/\//g, '~1') : s;
}

/** Build a pointer from tokens: `pointerOf(['data', 'fields', 0])` -> `/data/fields/0`. */
export function pointerOf(tokens: ReadonlyArray<string | number>): string {
  let out = '';
  for (const t of tokens) out += '/' + escapeToken(t);
  return out;
}

/** Append one token to a pointer. */
export function childPointer(parent: string, token: string | number): string {
  return parent + '/' + escapeToken(token);
}

/** Unescaped tokens of `pointer` (`""` -> `[]`); @throws Error unless it is empty or starts with `/`. */
function parsePointer(pointer: string): string[] {
  if (pointer === '') return [];
  if (pointer[0] !== '/') throw new Error(`invalid JSON Pointer: ${JSON.stringify(pointer)}`);
  return pointer
    .slice(1)
    .split('/')
    .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** Resolve a pointer against a parsed value; `undefined` when it names nothing (own properties only). */
export function getAt(value: unknown, pointer: string): unknown {
  let cur: unknown = value;
  for (const tok of parsePointer(pointer)) {
    if (Array.isArray(cur)) {
      if (!/^(0|[1-9][0-9]*)$/.test(tok)) return undefined;
      cur = cur[Number(tok)];
    } else if (cur !== null && typeof cur === 'object') {
      if (!Object.hasOwn(cur, tok)) return undefined;
      cur = (cur as Record<string, unknown>)[tok];
    } else return undefined;
  }
  return cur;
}
