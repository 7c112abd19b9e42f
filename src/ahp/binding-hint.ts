/**
 * Which `--binding` reads an input its name's binding could not: stdio one message per line (base/transports/stdio
 * §Framing), HTTP one per body.
 */
import type { AhpBinding } from './driver.ts';

/** The non-blank lines of `text` (a CR before the LF is not part of a line). */
function lines(text: string): string[] {
  return text
    .split('\n')
    .map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l))
    .filter((l) => l.trim() !== '');
}

function isObject(s: string): boolean {
  try {
    const v: unknown = JSON.parse(s);
    return typeof v === 'object' && v !== null && !Array.isArray(v);
  } catch {
    return false;
  }
}

/** The sentence for the parse finding of `text` read as `binding` when the other binding reads it, else `undefined`. */
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
