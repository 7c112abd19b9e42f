/**
 * Down-leveled copies for the identity analyzer (AEP-0001 §8.2(b)): the canonical texts of a first copy at each capture
 * below its own, and which repeats may be compared that way.
 */
import type { ParsedEvent } from '../../core/rule.ts';
import { AEP_CORE_ATTRIBUTES } from '../bridges/types.ts';
import { downlevelEvent } from '../downlevel.ts';
import { type AepEvent, CAPTURE_RANK } from '../event.ts';
import type { Redactor } from '../redact.ts';
import type { AepCaptureLevel } from '../schema/registry.ts';
import type { FormFieldSpec } from '../forms.ts';
import { eventText } from './canonical.ts';

/** The core attribute names (AEP-0001 §5.1); any other envelope member is an extension attribute (§5.4). */
export const CORE_NAMES: ReadonlySet<string> = new Set(AEP_CORE_ATTRIBUTES);
/** Most extension attributes of a repeat tried as added by a relay (2^n - 1 subsets). */
export const MAX_ADDED_TRIED = 6;

/** The levels below `full`, highest first (the down-level digests' column order). */
export const LOWER: readonly AepCaptureLevel[] = ['redacted', 'metadata', 'none'];
/** Side-table columns: the first copy's capture rank, then two words per level of {@link LOWER}. */
export const DL_U32 = { rank: 0, digests: 1, count: 7 } as const;
/** The rank column of a first copy whose payload a bridge withheld (no down-level digests: its content is unknown). */
export const WITHHELD_RANK = 0x100;

/**
 * The canonical texts of a first copy down-leveled to each level below its capture; a level is left out when a big
 * integer in the `data` it keeps could move ({@link keptBigIntegers}).
 */
export function downlevelTexts(
  value: Record<string, unknown>,
  bigIntegers: ExactBig,
  redactor: Redactor,
  profile?: string,
): Map<AepCaptureLevel, string> {
  const out = new Map<AepCaptureLevel, string>();
  const capture = (typeof value.capture === 'string' ? value.capture : 'metadata') as AepCaptureLevel;
  const rank = CAPTURE_RANK[capture];
  if (!(rank > 0)) return out;
  for (const level of LOWER) {
    if (CAPTURE_RANK[level] >= rank) continue;
    const r = downlevelEvent(value, level, level === 'redacted' ? { redact: redactor, profile } : { profile });
    const big = r.capture === level ? keptBigIntegers(r.event, bigIntegers) : undefined;
    if (big) out.set(level, eventText(r.event, big));
  }
  return out;
}

/**
 * The big integers of a down-leveled copy: all of them, those outside `data` when the copy has no `data` (`none`, a
 * schema-less payload), or `undefined` when one inside a kept `data` could have moved.
 */
export function keptBigIntegers(copy: Record<string, unknown>, bigIntegers: ExactBig): ExactBig | undefined {
  if (!bigIntegers.some((b) => b.pointer.startsWith('/data/'))) return bigIntegers;
  return 'data' in copy ? undefined : bigIntegers.filter((b) => !b.pointer.startsWith('/data/'));
}

/**
 * The canonical text of a form answer above `metadata` down-leveled to `metadata` by a hop that knew the request's
 * `fields` (AEP-0006 §values gating: closed choice ids, numbers and booleans of the form's fields kept), when that
 * differs from the form-less down-level, which keeps numbers and booleans only (AEP-0006 §Security considerations);
 * `aep downlevel` writes the one or the other as it saw the request or not, so both are down-leveled copies.
 */
export function formCopyText(
  value: Record<string, unknown>,
  bigIntegers: ExactBig,
  form: readonly FormFieldSpec[] | undefined,
  profile?: string,
): string | undefined {
  const capture = (typeof value.capture === 'string' ? value.capture : 'metadata') as AepCaptureLevel;
  if (!form || !(CAPTURE_RANK[capture] > CAPTURE_RANK.metadata)) return undefined;
  if (bigIntegers.some((b) => b.pointer.startsWith('/data/'))) return undefined;
  const withForm = downlevelEvent(value, 'metadata', { form, profile });
  if (withForm.capture !== 'metadata') return undefined;
  const text = eventText(withForm.event, bigIntegers);
  const formless = eventText(downlevelEvent(value, 'metadata', { profile }).event, bigIntegers);
  return text === formless ? undefined : text;
}

type ExactBig = ParsedEvent['bigIntegers'];

/**
 * True when `ev` may be compared as a down-leveled copy: not refused, and its type, capture and payload known (README
 * §Decisions on a partly broken envelope); other events are compared exactly.
 */
export function downlevelable(ev: AepEvent): boolean {
  const u = ev.untrusted;
  return !ev.rejected && (u === undefined || (ev.type !== '' && !u.has('capture') && !u.has('data')));
}

/** The canonical text of a repeat with its defaults applied (AEP-0001 §5.1). */
export function copyText(ev: AepEvent, value: Record<string, unknown> = ev.value): string {
  return eventText(value, ev.bigIntegers);
}
