import type { DetectorClass } from '../core/secrets.ts';
import { redactedTextOf } from './capture-checks.ts';
import type { AepEvent } from './event.ts';

/**
 * Each class of `classes` in the gated text of `ev` at capture `redacted`, once per string (`full` is verbatim); the
 * one classifier of src/core/secrets.ts, so `aep redact` and these rules agree.
 */
export function forEachLeak(
  ev: AepEvent,
  classes: readonly DetectorClass[],
  found: (pointer: string, cls: DetectorClass) => void,
): void {
  if (ev.capture !== 'redacted') return;
  const leaks = redactedTextOf(ev).leaks;
  for (let i = 0; i < leaks.length; i += 2) {
    const cls = leaks[i + 1] as DetectorClass;
    if (classes.includes(cls)) found(leaks[i]!, cls);
  }
}
