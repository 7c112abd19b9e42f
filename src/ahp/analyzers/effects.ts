/**
 * Atomic effect acceptance (AHP base/composition.md §Atomic effect acceptance): each effect validated, checked against
 * the granted capabilities and staged over detached copies; any invalid effect rejects the whole response ("do not
 * salvage even a valid deny from an invalid list").
 */
import { describeValue } from '../../core/finding.ts';
import type { MessageArgs } from '../../core/message.ts';
import { isObj, type Obj } from '../../core/value.ts';
import { mapAjvErrors } from '../schema/issues.ts';
import { ahpSchemas } from '../schema/schemas.ts';
import {
  answerListEffects,
  type EffectRejection,
  type EffectsOutcome,
  type HostContext,
  insideValue,
  type TargetPermission,
} from './effects-model.ts';
import { stageModify } from './effects-modify.ts';
import { returnProblems } from './effects-return.ts';
import { extraDenies } from '../schema/deny-count.ts';

export {
  MODIFY_TARGETS,
  type EffectRejection,
  type EffectsOutcome,
  type HostContext,
  type ModifyTarget,
  type RejectionCode,
  type TargetPermission,
} from './effects-model.ts';
export { returnContractEvents } from './effects-return.ts';

const EFFECT_REF = 'effects.schema.json#/$defs/effect';

/** Schema problems of one effect (pointers relative to the list). */
function schemaProblems(effect: unknown, index: number): EffectRejection[] {
  const reg = ahpSchemas();
  if (reg.check(EFFECT_REF)(effect)) return [];
  const v = reg.validator(EFFECT_REF);
  v(effect);
  const mapped = mapAjvErrors(v.errors, effect, `/${index}`);
  if (!mapped.length) return [{ code: 'malformed', index, pointer: `/${index}`, messageId: 'noShape' }];
  return mapped.map((i) => ({
    code: 'malformed',
    index,
    pointer: i.pointer,
    messageId: i.messageId,
    args: i.args,
  }));
}

/** The advertised effect types of a capabilities object (its `effects` list), or undefined when it has none to check. */
function advertisedEffects(caps: unknown): readonly unknown[] | undefined {
  return isObj(caps) && Array.isArray(caps.effects) ? caps.effects : undefined;
}

function capabilityProblems(
  effect: Obj,
  index: number,
  caps: Obj,
  effects: readonly unknown[],
  state: { continueSeen: boolean },
): readonly EffectRejection[] {
  const type = effect.type as string;
  // an effect's type is a string (the effect schema passed), so `includes` finds only an advertised string
  if (!effects.includes(type)) return notAdvertised(index, 'type', 'effect', { type });
  if (type === 'modify') {
    const target = effect.target as string;
    const op = effect.operation as string;
    const block = isObj(caps.modify) ? caps.modify[target] : undefined;
    if (!isObj(block)) return notAdvertised(index, 'target', 'target', { target });
    if (block[op] !== true) return notAdvertised(index, 'operation', 'operation', { operation: op, target });
  } else if (type === 'flow') {
    const op = effect.operation as string;
    const ops = isObj(caps.flow) && Array.isArray(caps.flow.operations) ? caps.flow.operations : [];
    if (!ops.includes(op)) return notAdvertised(index, 'operation', 'flow', { operation: op });
    if (op === 'continue' && !state.continueSeen) {
      state.continueSeen = true;
      const left = isObj(caps.flow) ? caps.flow.remainingContinuations : undefined;
      if (typeof left === 'number' && left <= 0) return notAdvertised(index, 'operation', 'continuations', {});
    }
  } else if (type === 'inject') {
    const when = effect.deliverAt;
    const ctx = isObj(caps.inject) && isObj(caps.inject.context) ? caps.inject.context : undefined;
    const allowed = ctx && Array.isArray(ctx.deliverAt) ? ctx.deliverAt : [];
    if (!allowed.includes(when)) return notAdvertised(index, 'deliverAt', 'inject', { deliverAt: String(when) });
  }
  return NONE;
}

const NONE: readonly EffectRejection[] = [];

function notAdvertised(index: number, member: string, messageId: string, args: MessageArgs): EffectRejection[] {
  return [{ code: 'not-advertised', index, pointer: `/${index}/${member}`, messageId, args }];
}

/** A deep copy: `structuredClone`, or an explicit stack beyond the call stack's depth. */
function detach<T>(value: T): T {
  try {
    return structuredClone(value);
  } catch (e) {
    if (!(e instanceof RangeError)) throw e;
  }
  const copy = (v: unknown): unknown => (Array.isArray(v) ? new Array(v.length) : isObj(v) ? {} : v);
  const root = copy(value);
  const todo: Array<[unknown, unknown]> = [[value, root]];
  while (todo.length) {
    const [from, to] = todo.pop()!;
    if (Array.isArray(from)) {
      from.forEach((x, i) => {
        const c = copy(x);
        (to as unknown[])[i] = c;
        if (c !== x) todo.push([x, c]);
      });
    } else if (isObj(from)) {
      for (const [k, x] of Object.entries(from)) {
        const c = copy(x);
        Object.defineProperty(to, k, { value: c, enumerable: true, writable: true, configurable: true });
        if (c !== x) todo.push([x, c]);
      }
    }
  }
  return root as T;
}

/** Validate, check and stage `effects` over shallow copies of the current values (nothing in `ctx` is changed). */
function stage(
  effects: unknown,
  ctx: HostContext,
): { reasons: EffectRejection[]; values: Record<string, unknown>; changed: string[] } {
  const reasons: EffectRejection[] = [];
  const values: Record<string, unknown> = { ...(ctx.current ?? {}) };
  const changed: string[] = [];
  if (!Array.isArray(effects)) {
    reasons.push({
      code: 'malformed',
      index: -1,
      pointer: '',
      messageId: 'notList',
      args: { found: describeValue(effects) },
    });
    return { reasons, values, changed };
  }
  // a second deny rejects the response whole, as any invalid effect does (base/composition.md §Atomic effect acceptance)
  for (const index of extraDenies(effects))
    reasons.push({ code: 'malformed', index, pointer: `/${index}`, messageId: 'denyMultiple' });
  const advertised = advertisedEffects(ctx.capabilities);
  const flowState = { continueSeen: false };
  const answerLists = answerListEffects(effects, ctx.event);
  for (let index = 0; index < effects.length; index++) {
    // a hole is skipped, as forEach did: a list handed to applyEffects may have one, JSON never makes one
    if (!(index in effects)) continue;
    const effect: unknown = effects[index];
    let bad = schemaProblems(effect, index);
    // a list at the elicitation answer is rejected as a list (stageModify), not item by item
    if (bad.length && answerLists.has(index)) bad = bad.filter((r) => !insideValue(r.pointer, index));
    if (bad.length) {
      reasons.push(...bad);
      continue;
    }
    const e = effect as Obj;
    const caps = advertised ? capabilityProblems(e, index, ctx.capabilities as Obj, advertised, flowState) : NONE;
    if (caps.length) reasons.push(...caps);
    // an unadvertised return is ahp/effect-not-advertised's alone; an advertised one is judged by its boundary contract
    if (e.type === 'return' && caps.length === 0) reasons.push(...returnProblems(e, index, ctx));
    if (e.type === 'modify') {
      // staging builds new values (spread copies, or the effect's value); it never writes into ctx
      const found = stageModify(e, index, ctx, values);
      if (found.length) reasons.push(...found);
      else if (!changed.includes(e.target as string)) changed.push(e.target as string);
    }
  }
  return { reasons, values, changed };
}

/** Apply `effects` (a response's `result.effects`) in `ctx`. */
export function applyEffects(effects: unknown, ctx: HostContext): EffectsOutcome {
  const { reasons, values, changed } = stage(effects, ctx);
  if (reasons.length) return { accepted: false, reasons };
  return { accepted: true, values: detach(values), changed };
}

/** The verdict of {@link checkEffects}: accepted, or every reason for rejecting the response. */
export interface EffectsVerdict {
  accepted: boolean;
  reasons: EffectRejection[];
}

/** The verdict on an empty effect list (shared: verdicts are read, never changed). */
const NO_EFFECT: EffectsVerdict = { accepted: true, reasons: [] };

/** The verdict of {@link applyEffects} without building the effective values (what a stream checker needs). */
export function checkEffects(effects: unknown, ctx: HostContext): EffectsVerdict {
  // no effect (most responses): nothing to validate, check or stage
  if (Array.isArray(effects) && effects.length === 0) return NO_EFFECT;
  const { reasons } = stage(effects, ctx);
  return { accepted: reasons.length === 0, reasons };
}

/** The host context of a manifest `editContext` (`{event, current, mode, action}`), every target granted. */
export function hostContextOf(editContext: unknown): HostContext | undefined {
  if (!isObj(editContext) || typeof editContext.event !== 'string' || !isObj(editContext.current)) return undefined;
  const targets = Object.keys(editContext.current);
  const modify: Record<string, { replace: boolean; merge: boolean }> = {};
  const selection: Record<string, string> = {};
  const permissions: Record<string, TargetPermission> = {};
  // own data properties: a target named `__proto__` stays a key, never a prototype
  const put = (o: object, k: string, v: unknown) =>
    Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
  for (const t of targets) {
    put(modify, t, { replace: true, merge: true });
    put(selection, t, 'body');
    put(permissions, t, { read: true, write: true });
  }
  return {
    event: editContext.event,
    current: editContext.current,
    mode: typeof editContext.mode === 'string' ? editContext.mode : '',
    action: typeof editContext.action === 'string' ? editContext.action : '',
    capabilities: { effects: targets.length ? ['modify'] : [], ...(targets.length ? { modify } : {}) },
    selection,
    permissions,
  };
}
