import type { MessageArgs } from '../../core/message.ts';
import { isObj, own, type Obj } from '../../core/value.ts';
import { schemaSentence } from '../../core/schema/findings.ts';
import { AHP_WORDING, mapAjvErrors } from '../schema/issues.ts';
import { ahpSchemas } from '../schema/schemas.ts';

/** The modify targets of the draft (base/composition.md). */
export const MODIFY_TARGETS = [
  'input',
  'output',
  'prompt',
  'request',
  'response',
  'content',
  'instructions',
  'summary',
  'workspace',
] as const;
/** One modify target. */
export type ModifyTarget = (typeof MODIFY_TARGETS)[number];

/** Why a response is rejected; each code is reported under one rule (see {@link EffectRejection}). */
export type RejectionCode =
  | 'malformed'
  | 'not-advertised'
  | 'unavailable'
  | 'value'
  | 'answer'
  | 'form'
  | 'current'
  | 'hidden-text'
  | 'attachment'
  | 'return';

/** A reason to reject a response: effect `index` (-1: the list), `pointer` in the list, a template of `code`'s rule. */
export interface EffectRejection {
  code: RejectionCode;
  index: number;
  pointer: string;
  messageId: string;
  args?: MessageArgs;
}

/** Read and write permission of one target. */
export interface TargetPermission {
  read: boolean;
  write: boolean;
}

/** What the host knows when applying a response; checks needing an absent member are skipped. */
export interface HostContext {
  event: string;
  current?: Readonly<Record<string, unknown>>;
  mode?: string;
  action?: string;
  capabilities?: unknown;
  selection?: Readonly<Record<string, string>>;
  permissions?: Readonly<Record<string, TargetPermission>>;
  requestedSchema?: unknown;
  elicitation?: { mode: string; requestedSchema?: unknown };
}

/** The outcome of {@link applyEffects}. */
export type EffectsOutcome =
  /** Accepted: the effective value of every target in `current` or changed, and the targets changed. */
  | { accepted: true; values: Record<string, unknown>; changed: string[] }
  | { accepted: false; reasons: EffectRejection[] };

/** Text parts of a list (messages' parts, or bare parts). */
export function* partsOf(list: unknown): Generator<Obj> {
  if (!Array.isArray(list)) return;
  for (const x of list) {
    if (!isObj(x)) continue;
    if (Array.isArray(x.parts)) {
      for (const p of x.parts) if (isObj(p)) yield p;
    } else if (typeof x.kind === 'string') yield x;
  }
}

/** Structural equality of two JSON values (own members only). */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((x, i) => deepEqual(x, b[i]));
  if (isObj(a) && isObj(b)) {
    const ka = Object.keys(a);
    if (ka.length !== Object.keys(b).length) return false;
    return ka.every((k) => own(b, k) && deepEqual(a[k], b[k]));
  }
  return false;
}

/** Schema sentences of `value` against `ref` (pointers under `base`), lower-case, to follow a colon. */
export function schemaSentences(
  ref: string,
  value: unknown,
  base: string,
): Array<{ pointer: string; sentence: string }> {
  const reg = ahpSchemas();
  if (reg.check(ref)(value)) return [];
  const v = reg.validator(ref);
  v(value);
  const mapped = mapAjvErrors(v.errors, value, base);
  return mapped.length
    ? mapped.map((m) => ({ pointer: m.pointer, sentence: lcFirst(schemaSentence(AHP_WORDING, m)) }))
    : [{ pointer: base, sentence: 'the value does not match its schema.' }];
}

const lcFirst = (m: string): string => (/^[A-Z](?![A-Z])/.test(m) ? m.charAt(0).toLowerCase() + m.slice(1) : m);

/**
 * The effects of `effects` whose list value is at the elicitation answer (`modify(content)` at user.elicitation.result):
 * there "a list here MUST be rejected" whatever it holds (interaction-payloads.md §Elicitation modification target), so
 * its items are not judged as the message list `content` is at user.message.outbound.
 */
export function answerListEffects(effects: unknown, event: string): ReadonlySet<number> {
  if (event !== 'user.elicitation.result' || !Array.isArray(effects)) return NO_INDEXES;
  let out: Set<number> | undefined;
  effects.forEach((e, i) => {
    if (isObj(e) && e.type === 'modify' && e.target === 'content' && Array.isArray(e.value)) (out ??= new Set()).add(i);
  });
  return out ?? NO_INDEXES;
}

const NO_INDEXES: ReadonlySet<number> = new Set();

/** True when `pointer` (relative to the effect list) is inside the value of effect `index`, not at it. */
export const insideValue = (pointer: string, index: number): boolean => pointer.startsWith(`/${index}/value/`);
