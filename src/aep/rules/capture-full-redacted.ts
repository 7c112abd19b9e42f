import { defineEventRule } from '../../core/engine.ts';
import { GatedPath } from '../capture.ts';
import { PII_MARK, SECRET_MARK } from '../../core/secrets.ts';
import type { AepEvent } from '../event.ts';

/** Members named `*_redacted` carry the redacted form by definition (e.g. tool.completed `result_redacted`). */
const REDACTED_SUFFIX = '_redacted';

/** A warning: verbatim content may quote a §9.4 marker (AEP-0003 §9 item 5; see `detail`). */
export const captureFullRedacted = defineEventRule({
  id: 'aep/capture-full-redacted',
  severity: 'warning',
  description:
    'An event at capture "full" (verbatim content) holds no §9.4 redaction marker ([REDACTED:secret], [REDACTED:pii]) outside a *_redacted member.',
  detail:
    'Redacted content is capture "redacted", the level actually honoured (AEP-0003 §9 item 5; AEP-0001 §8.2). A warning: verbatim content may quote a marker, which the stream cannot tell apart.',
  spec: 'AEP-0003 §9 item 5; AEP-0001 §8.2',
  messages: {
    marker:
      'Field {field} holds a redaction marker although the event declares capture "full" (verbatim content); an adapter sets capture to the level actually honoured, "redacted" (AEP-0003 §9.5).',
  },
  check(ev: AepEvent, ctx) {
    // an unknown capture level gates nothing, and claims nothing either
    if (ev.untrusted?.has('capture')) return;
    if (ev.capture !== 'full') return;
    const data = ev.value.data;
    if (data === null || typeof data !== 'object') return;
    marked = undefined;
    walkMarked(data, 0);
    const found = marked as string[] | undefined;
    marked = undefined;
    if (found) for (const ptr of found) ctx.report({ pointer: ptr, args: { field: ptr } });
  },
});

// the walk's state (it runs synchronously): no closure and no path object an event
const at = new GatedPath('/data');
let marked: string[] | undefined;

/** Push the pointer of each string under `v` holding a marker outside a `*_redacted` member to `marked`. */
function walkMarked(v: unknown, depth: number): void {
  if (typeof v === 'string') {
    // a string's pointer is built only when it holds a marker (most hold none)
    if (!v.includes(SECRET_MARK) && !v.includes(PII_MARK)) return;
    at.depth = depth;
    (marked ??= []).push(at.pointer());
    return;
  }
  if (v === null || typeof v !== 'object' || depth > 64) return;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      at.keys[depth] = i;
      walkMarked(v[i], depth + 1);
    }
    return;
  }
  for (const k in v as Record<string, unknown>)
    if (!k.endsWith(REDACTED_SUFFIX)) {
      at.keys[depth] = k;
      walkMarked((v as Record<string, unknown>)[k], depth + 1);
    }
}
