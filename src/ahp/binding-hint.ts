/**
 * Which `--binding` would read an input that failed to parse as the binding its name chose:
 * the stdio binding carries one JSON-RPC message per line (AHP base/transports/stdio §Framing),
 * the HTTP binding one message per body, pretty-printing allowed (AHP base/transports/http).
 * A capture saved as `.json` fails as one body; a pretty-printed body on stdin fails line by line.
 */
import type { AhpBinding } from './driver.ts';

/** The non-blank lines of `text` (a CR before the LF is not part of a line). */
function lines(text: string): string[] {
  return text
    .split('\n')
    .map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l))
    .filter((l) => l.trim() !== '');
}

/** True when `s` is JSON text of an object. */
function isObject(s: string): boolean {
  try {
    const v: unknown = JSON.parse(s);
    return typeof v === 'object' && v !== null && !Array.isArray(v);
  } catch {
    return false;
  }
}

/**
 * The sentence to add to the parse finding of `text` read as `binding` when the other binding
 * would read it, else `undefined`: several lines that are each one JSON object, read as one
 * document, are a stdio capture; several lines that together are one JSON object, read as
 * stdio, are one pretty-printed HTTP body.
 */
export function bindingHint(text: string, binding: AhpBinding): string | undefined {
  const ls = lines(text);
  if (ls.length < 2) return undefined;
  if (binding === 'stdio') {
    return isObject(text)
      ? `The ${ls.length} lines are one pretty-printed JSON message, as an HTTP body is: read it with \`--binding http\` (the other lines are not reported one by one).`
      : undefined;
  }
  return ls.every(isObject)
    ? `The input holds ${ls.length} JSON messages, one per line, as a stdio capture does: read it with \`--binding stdio\`.`
    : undefined;
}
