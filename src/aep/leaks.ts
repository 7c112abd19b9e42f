import { findSecrets, FLOOR_SECRET_CLASSES, HARDENING_SECRET_CLASSES, type DetectorClass } from '../core/secrets.ts';
import { forEachGatedString } from './capture.ts';
import type { AepEvent } from './event.ts';
import { captureTreeFor } from './schema/validators.ts';

/** Every class the leak rules ask for: one walk and one scan per string serve both rules. */
const LEAK_CLASSES: readonly DetectorClass[] = [...FLOOR_SECRET_CLASSES, ...HARDENING_SECRET_CLASSES];
const LEAK_OPTIONS = { classes: LEAK_CLASSES };
const NONE: readonly (string | DetectorClass)[] = [];

// the leaks of the last event asked about, as pointer, class pairs (the two rules run on the same event in turn)
let lastEvent: AepEvent | undefined;
let lastLeaks: readonly (string | DetectorClass)[] = NONE;

/** Pointer, class pairs: each class of {@link LEAK_CLASSES} once per gated string, in the order findSecrets finds them. */
function leaksOf(ev: AepEvent): readonly (string | DetectorClass)[] {
  if (ev === lastEvent) return lastLeaks;
  let out: (string | DetectorClass)[] | undefined;
  const data = ev.value.data;
  const tree =
    data !== null && typeof data === 'object' ? (ev.info?.captureTree ?? captureTreeFor(ev.type)) : undefined;
  // no tree: a vendor or schema-less type, where no member is marked redacted (AEP-0002 §5.1 rule 2)
  if (tree)
    forEachGatedString(data, tree, (text, at) => {
      const matches = findSecrets(text, LEAK_OPTIONS);
      if (matches.length === 0) return;
      const pointer = at.pointer();
      for (let i = 0; i < matches.length; i++) {
        const cls = matches[i]!.class;
        let seen = false;
        for (let j = 0; j < i && !seen; j++) seen = matches[j]!.class === cls;
        if (!seen) (out ??= []).push(pointer, cls);
      }
    });
  lastEvent = ev;
  lastLeaks = out ?? NONE;
  return lastLeaks;
}

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
  const leaks = leaksOf(ev);
  for (let i = 0; i < leaks.length; i += 2) {
    const cls = leaks[i + 1] as DetectorClass;
    if (classes.includes(cls)) found(leaks[i]!, cls);
  }
}
