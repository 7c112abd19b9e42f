/**
 * Which `--binding` reads an input its name's binding could not: stdio one message per line (base/transports/stdio
 * §Framing), HTTP one per body, registration one document (base/registration.md).
 */
import { prettyObjects } from '../core/pretty-values.ts';
import type { AhpBinding } from './driver.ts';

/** The non-blank lines of `text` (a CR before the LF is not part of a line). */
function lines(text: string): string[] {
  return text
    .split('\n')
    .map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l))
    .filter((l) => l.trim() !== '');
}

/** `s` parsed when it is one JSON object, else `undefined`. */
function objectOf(s: string): Record<string, unknown> | undefined {
  try {
    const v: unknown = JSON.parse(s);
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

const isObject = (s: string): boolean => objectOf(s) !== undefined;

/**
 * True for an object the registration binding reads: one with `hooks`, the member only a registration document has
 * (base/registration.md §Document shape, AHP-REG-001), and no `jsonrpc` (a wire message, base/versioning.md).
 */
function isRegistration(v: Record<string, unknown>): boolean {
  return Object.hasOwn(v, 'hooks') && !Object.hasOwn(v, 'jsonrpc');
}

/** The sentence for the parse finding of `text` read as `binding` when the other binding reads it, else `undefined`. */
export function bindingHint(text: string, binding: AhpBinding): string | undefined {
  const ls = lines(text);
  if (ls.length < 2) return undefined;
  if (binding === 'stdio') {
    const v = objectOf(text);
    if (v === undefined) return severalHint(text, ls.length);
    return isRegistration(v)
      ? `The ${ls.length} lines are one pretty-printed registration document: read it with \`--binding registration\` (library: \`binding: 'registration'\`; the other lines are not reported one by one).`
      : `The ${ls.length} lines are one pretty-printed JSON message, as an HTTP body is: read it with \`--binding http\` (library: \`binding: 'http'\`; the other lines are not reported one by one).`;
  }
  return ls.every(isObject)
    ? `The input holds ${ls.length} JSON messages, one per line, as a stdio capture does: read it with \`--binding stdio\` (library: \`binding: 'stdio'\`).`
    : undefined;
}

/**
 * The sentence for several messages pretty-printed one after another (`jq . capture.jsonl`): no other binding reads
 * them (HTTP and registration read one document), so it names the stdio framing itself (AHP-STDIO-001: no literal
 * newline inside a message). A registration document among them is no capture: no hint.
 */
function severalHint(text: string, lineCount: number): string | undefined {
  const parts = prettyObjects(text);
  if (parts === undefined || parts.some(isRegistration)) return undefined;
  return `The ${lineCount} lines are ${parts.length} pretty-printed JSON messages: the stdio binding carries one message per line, with no newline inside it (\`jq -c\` writes them so; the other lines are not reported one by one).`;
}
