import { findSecrets, type DetectorClass } from '../core/secrets.ts';
import { forEachGatedString } from './capture.ts';
import type { AepEvent } from './event.ts';
import { captureTreeFor } from './schema/validators.ts';

/**
 * Each class of `classes` in the gated text of `ev` at capture `redacted`, once per string (`full` is verbatim); the
 * one
 * classifier of src/core/secrets.ts, so `aep redact` and these rules agree.
 */
export function forEachLeak(
  ev: AepEvent,
  classes: readonly DetectorClass[],
  found: (pointer: string, cls: DetectorClass) => void,
): void {
  if (ev.capture !== 'redacted') return;
  const data = ev.value.data;
  if (data === null || typeof data !== 'object') return;
  const tree = captureTreeFor(ev.type);
  if (!tree) return; // vendor or schema-less type: no member is marked redacted (AEP-0002 §5.1 rule 2)
  forEachGatedString(data, tree, (pointer, text) => {
    const seen = new Set<DetectorClass>();
    for (const m of findSecrets(text, { classes })) {
      if (seen.has(m.class)) continue;
      seen.add(m.class);
      found(pointer, m.class);
    }
  });
}
