/** The AEP event as rules see it: a parsed line plus the envelope facts every rule needs (AEP-0001 §5). */
import { exactIntegerOfLiteral, numberLiteralAt } from '../core/json.ts';
import type { ParsedEvent } from '../core/rule.ts';
import type { AepCaptureLevel } from './schema/registry.ts';
import type { AepTypeInfo } from './schema/type-info.ts';

export { CAPTURE_RANK, scopeOf, type AepScope } from './levels.ts';

/** An envelope-valid AEP event (all stream rules see); `capture` defaulted to `metadata` (AEP-0001 §5.1). */
export interface AepEvent extends ParsedEvent {
  type: string;
  capture: AepCaptureLevel;
  /** True when `data` is absent or validated against the type's payload schema. */
  payloadValid: boolean;
  registered: boolean;
  /** Refused by the schema stage but with a trustworthy `(source, id)`: only the identity analyzer sees it. */
  rejected?: true;
  /** What is known of `type` (set by the schema stage for an accepted event; src/aep/schema/type-info.ts). */
  info?: AepTypeInfo;
  /** A `message.*` or `stream.*` event checked under `--profile aep-0007` (src/aep/subprofile.ts): its rules judge it. */
  subprofile?: true;
  /**
   * Envelope members that failed the schema stage while the event's position, type and links held (README §Decisions
   * on a partly broken envelope): {@link attr} reads them as absent, an unknown `capture` is `full` (it gates nothing)
   * and an unknown `data` makes `payloadValid` false.
   */
  untrusted?: ReadonlySet<string>;
  /** Read from a bridge that withheld its payload at its ceiling: the capture declared (src/aep/bridges/types.ts). */
  withheld?: 'metadata' | 'redacted' | 'full';
}

/** Envelope attribute accessors with the right types (envelope already validated). */
export function attr(
  ev: AepEvent,
  name: 'id' | 'type' | 'source' | 'agent' | 'session' | 'run' | 'step' | 'subject' | 'cause' | 'time',
): string | undefined {
  // named loads: inlined with a constant name, the switch folds to one; `ev.value[name]` stayed a keyed load, whose
  // shared feedback went megamorphic (about 2.5 times a named load's instructions; docs/benchmarks.md)
  const o = ev.value;
  let v: unknown;
  switch (name) {
    case 'session':
      v = o.session;
      break;
    case 'source':
      v = o.source;
      break;
    case 'id':
      v = o.id;
      break;
    case 'run':
      v = o.run;
      break;
    case 'subject':
      v = o.subject;
      break;
    case 'cause':
      v = o.cause;
      break;
    case 'time':
      v = o.time;
      break;
    case 'type':
      v = o.type;
      break;
    case 'agent':
      v = o.agent;
      break;
    case 'step':
      v = o.step;
      break;
    default:
      v = o[name];
  }
  return typeof v === 'string' && (ev.untrusted === undefined || !ev.untrusted.has(name)) ? v : undefined;
}

const SMALL_BIGINTS: readonly bigint[] = Array.from({ length: 1024 }, (_, i) => BigInt(i));

/**
 * An exact integer as a number when it is a safe one, else a bigint: `===` and `<` between two are exact, and most
 * need no BigInt operation (a runtime call in V8; docs/benchmarks.md §Profile figures behind the code).
 */
export type Counter = number | bigint;

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/** The {@link Counter} of `exact`; `plain`: the member's parsed value when the line has no big integer literal. */
export function counterOf(exact: bigint, plain?: unknown): Counter {
  if (typeof plain === 'number' && Number.isSafeInteger(plain)) return plain; // `exact` is that number then
  return exact >= -MAX_SAFE && exact <= MAX_SAFE ? Number(exact) : exact;
}

/** The counter after `c` (a session's next expected seq, lifecycle.ts). */
export function nextCounter(c: Counter): Counter {
  return typeof c === 'number' && c < Number.MAX_SAFE_INTEGER ? c + 1 : counterOf(BigInt(c) + 1n);
}

/**
 * The exact integer `seq` / `epoch` from the line's literal (beyond 2^53, `1e400`, `…3.0`); `undefined` when absent or
 * not a whole number that expands (reported by `aep/seq-epoch`).
 */
export function exactInteger(ev: ParsedEvent, pointer: '/seq' | '/epoch'): bigint | undefined {
  const bigs = ev.bigIntegers;
  for (let i = 0; i < bigs.length; i++) if (bigs[i]!.pointer === pointer) return BigInt(bigs[i]!.text);
  // named reads: a keyed read by a sliced name was two megamorphic keyed loads an event (docs/benchmarks.md)
  const v = pointer === '/seq' ? ev.value.seq : ev.value.epoch;
  if (typeof v !== 'number') return undefined;
  // seq and epoch are mostly small: shared bigints rather than one allocation per read
  if (v >= 0 && v < SMALL_BIGINTS.length && (v | 0) === v) return SMALL_BIGINTS[v];
  if (Number.isSafeInteger(v)) return BigInt(v);
  const lit = numberLiteralAt(ev.text, pointer);
  const exact = lit === undefined ? undefined : exactIntegerOfLiteral(lit);
  return typeof exact === 'bigint' ? exact : undefined;
}
