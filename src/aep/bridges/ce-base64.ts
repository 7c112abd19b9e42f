/** Why a CloudEvents `data_base64` gives no JSON payload (JSON format §3.1.2; RFC 4648 as CloudEvents cites it). */
import { parseJsonText } from '../../core/json.ts';

/**
 * Why a `data_base64` string gives no JSON payload, for the message (never its content: a class of character and its
 * place): RFC 4648 §4 alphabet and §3.2 padding first, then what the bytes decode to. `undefined` when it gives one.
 */
export function base64Fault(b: string): string | undefined {
  const at = (m: RegExpExecArray) => `at character ${m.index + 1}`;
  if (b === '') return 'it is empty, and no JSON text is';
  const ws = /\s/.exec(b);
  if (ws) return `it holds white space ${at(ws)}, outside the alphabet (RFC 4648 §3.3)`;
  const url = /[-_]/.exec(b);
  if (url) return `it uses the URL-safe alphabet ("-" or "_" ${at(url)}, RFC 4648 §5), not that of §4`;
  const other = /[^A-Za-z0-9+/=]/.exec(b);
  if (other) return `a character ${at(other)} is outside the alphabet`;
  const pad = /=(?!={0,1}$)/.exec(b);
  if (pad) return `"=" ${at(pad)} is not final padding (RFC 4648 §3.2: at most two, at the end)`;
  if (b.length % 4 !== 0)
    return `its length, ${b.length}, is not a multiple of 4: the padding is missing (RFC 4648 §3.2)`;
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(Buffer.from(b, 'base64'));
  } catch {
    return 'it decodes to bytes that are not UTF-8';
  }
  const r = parseJsonText(text);
  if (!r.ok) return 'it decodes to text that is not JSON';
  return r.duplicates.length > 0 || r.duplicatesOmitted > 0
    ? 'it decodes to JSON with a repeated member name'
    : undefined;
}
