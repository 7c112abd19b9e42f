/**
 * Applying an intercept response's effects to a host context: the staged, atomic acceptance of
 * AHP base/composition.md §Atomic effect acceptance, with the boundary-specific `modify` values of
 * interaction-payloads.md §Elicitation modification target and the conformance profile base
 * §Canonical content and edit checks.
 *
 * {@link applyEffects} takes `result.effects` and a {@link HostContext} (the pending event type,
 * the current values of its modifiable targets, the elicitation mode/action, the capabilities
 * granted with the request, the content selection and read/write permissions per target and,
 * for an elicitation result, the original `requestedSchema`). It
 * 1. validates every effect against the closed effect schema (`ahp/effect` shapes);
 * 2. checks each effect against the granted capabilities: the effect type is in
 *    `capabilities.effects`, a modify's exact target and operation are advertised
 *    (`modify.<target>.<operation>: true`), a flow operation and an inject `deliverAt` are
 *    advertised, and a continuation allowance is left;
 * 3. stages the modifications serially over detached copies of the current values: replace
 *    substitutes the whole target; merge appends in order for list targets and is shallow for
 *    object targets (nested values are replaced, `null` is a literal value);
 * 4. applies the boundary rules: at `user.elicitation.result` the `content` target is the
 *    parsed MCP answer object, exposed only for an accepted form result, both replace and merge
 *    take objects, and the effective answer must keep the pinned answer shape and satisfy the
 *    original `requestedSchema`; at `user.message.outbound` `content` is an assistant message
 *    list (an object there is rejected); inbound `prompt` messages keep role user; `input` /
 *    `workspace` merges need an object current value; a whole-list replacement over hidden
 *    (metadata / omit / gap) text is rejected; an attachment with a body may only be carried
 *    unchanged from the current value; the effective workspace state at
 *    `workspace.change.before` keeps its closed schema (`cwd` a path string);
 * 4b. checks each advertised `return` against the contract of the boundary it answers, one
 *    schema per event in `effects.schema.json#/$defs/returnContracts` (any JSON value at
 *    tool.before, messages at model.request.before, text parts at context.compact.before, an MCP ElicitResult at
 *    user.elicitation.request that keeps the request's mode and form), a content list with content
 *    rather than views and no substituted attachment reference;
 * 5. accepts the response only when no effect has any problem: any invalid effect rejects the
 *    whole response, even a valid deny ("do not salvage even a valid deny from an invalid list").
 *
 * Non-modify effects change no value here; they are validated and checked against the
 * capabilities like the others (and `return` against its boundary contract). The input context is never changed.
 */
import { describeValue } from '../../core/finding.ts';
import { childPointer } from '../../core/pointer.ts';
import { answerShapeProblems, formAnswerProblems } from './form-answer.ts';
import { mapAjvErrors } from '../schema/issues.ts';
import { ahpSchemas } from '../schema/schemas.ts';
import { EFFECT_NOT_ADVERTISED, MODIFY_INVALID, RETURN_INVALID } from '../stream/ids.ts';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
const own = (o: Obj, k: string): boolean => Object.hasOwn(o, k);

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

/** Targets whose value is a canonical message list. */
const MESSAGE_TARGETS = new Set(['output', 'prompt', 'request', 'response']);
/** Targets whose value is a text-part list. */
const TEXT_PART_TARGETS = new Set(['instructions', 'summary']);
/** Targets whose value is an object. */
const OBJECT_TARGETS = new Set(['input', 'workspace']);

/**
 * Why a response is rejected:
 * - `malformed`: the effect does not match the closed effect schema (the message check reports it
 *   as `ahp/effect`);
 * - `not-advertised`: the effect type, modify target/operation, flow operation, inject delivery or
 *   continuation allowance was not granted with the request;
 * - `unavailable`: the target is not exposed here (selection not `body`, no read and write
 *   permission, an elicitation result that is not an accepted form, `content` at another event);
 * - `value`: the value does not fit the target at this boundary (a list at an elicitation result,
 *   an object at outbound content, a message with the wrong role);
 * - `answer`: the effective elicitation content is not an MCP answer object;
 * - `form`: the effective elicitation content does not satisfy the original `requestedSchema`;
 * - `current`: a merge over a current value that is not an object (object targets);
 * - `hidden-text`: a whole-list replacement over a list holding metadata / omit / gap text;
 * - `attachment`: an attachment with a body that is not an unchanged current descriptor;
 * - `return`: a `return` value that breaks the contract of the boundary it answers (see
 *   {@link returnContractEvents}): the wrong shape, a metadata / omit / gap view, a substituted
 *   attachment, or an elicitation answer that breaks the request's mode or form.
 */
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

/**
 * One reason for rejecting a response. `index` is the effect's position (-1: the list itself);
 * `pointer` is relative to the effect list (`/0/value/name`); `message` is one plain sentence
 * that never echoes a content value.
 */
export interface EffectRejection {
  code: RejectionCode;
  index: number;
  pointer: string;
  message: string;
}

/** Read and write permission of one target. */
export interface TargetPermission {
  read: boolean;
  write: boolean;
}

/**
 * What the host knows when it applies a response.
 * - `event`: the pending event type (`user.elicitation.result`, `tool.after`, ...).
 * - `current`: the current value of each modifiable target, by target name. A target absent here
 *   has an unknown current value: checks that need it (merge base, hidden text, attachments)
 *   are skipped, and a merge starts from an empty value.
 * - `mode`, `action`: the elicitation mode and action of the pending event (`""` or absent when
 *   not applicable).
 * - `capabilities`: the `capabilities` object sent with the request; absent = not known (the
 *   advertisement checks are skipped).
 * - `selection`: the content selection per target (`body`, `metadata`, `omit`); absent = `body`.
 * - `permissions`: read/write permission per target; absent = granted.
 * - `requestedSchema`: the original form of an elicitation result, when known.
 * - `elicitation`: at `user.elicitation.request`, the request's normalized mode (`form` / `url`)
 *   and, for a body-selected form request, its `requestedSchema` (what a supplied `return`
 *   answer must satisfy); absent = not known.
 */
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
  /** Rejected as a whole, with every reason found. */
  | { accepted: false; reasons: EffectRejection[] };

const EFFECT_REF = 'effects.schema.json#/$defs/effect';

/** Schema problems of one effect (pointers relative to the list). */
function schemaProblems(effect: unknown, index: number): EffectRejection[] {
  const reg = ahpSchemas();
  if (reg.check(EFFECT_REF)(effect)) return [];
  const v = reg.validator(EFFECT_REF);
  v(effect);
  const mapped = mapAjvErrors(v.errors, effect, `/${index}`);
  if (!mapped.length)
    return [
      {
        code: 'malformed',
        index,
        pointer: `/${index}`,
        message: 'The effect does not match any closed AHP effect shape.',
      },
    ];
  return mapped.map((i) => ({ code: 'malformed', index, pointer: i.pointer, message: i.message }));
}

/** The advertised effect types of a capabilities object, or undefined when it has none to check. */
function advertisedEffects(caps: unknown): Set<string> | undefined {
  if (!isObj(caps) || !Array.isArray(caps.effects)) return undefined;
  return new Set(caps.effects.filter((x): x is string => typeof x === 'string'));
}

/** Capability problems of one well-formed effect. */
function capabilityProblems(
  effect: Obj,
  index: number,
  caps: Obj,
  effects: Set<string>,
  state: { continueSeen: boolean },
): EffectRejection[] {
  const out: EffectRejection[] = [];
  const at = `/${index}`;
  const type = effect.type as string;
  const no = (pointer: string, message: string) => out.push({ code: 'not-advertised', index, pointer, message });
  if (!effects.has(type)) {
    no(
      `${at}/type`,
      `The \`${type}\` effect was not advertised in the request's \`capabilities.effects\`; an unadvertised effect rejects the whole response.`,
    );
    return out;
  }
  if (type === 'modify') {
    const target = effect.target as string;
    const op = effect.operation as string;
    const block = isObj(caps.modify) ? caps.modify[target] : undefined;
    if (!isObj(block))
      no(
        `${at}/target`,
        `Target \`${target}\` was not advertised in \`capabilities.modify\`; unsupported targets must fail, not be replaced by another.`,
      );
    else if (block[op] !== true)
      no(
        `${at}/operation`,
        `Operation \`${op}\` on target \`${target}\` was not advertised (\`capabilities.modify.${target}.${op}\` is not true); an unadvertised operation is never approximated by another.`,
      );
  } else if (type === 'flow') {
    const op = effect.operation as string;
    const ops = isObj(caps.flow) && Array.isArray(caps.flow.operations) ? caps.flow.operations : [];
    if (!ops.includes(op))
      no(`${at}/operation`, `Flow operation \`${op}\` was not advertised in \`capabilities.flow.operations\`.`);
    else if (op === 'continue' && !state.continueSeen) {
      state.continueSeen = true;
      const left = isObj(caps.flow) ? caps.flow.remainingContinuations : undefined;
      if (typeof left === 'number' && left <= 0)
        no(
          `${at}/operation`,
          'No continuation allowance is left (`capabilities.flow.remainingContinuations` is 0); an exhausted allowance rejects the whole response.',
        );
    }
  } else if (type === 'inject') {
    const when = effect.deliverAt;
    const ctx = isObj(caps.inject) && isObj(caps.inject.context) ? caps.inject.context : undefined;
    const allowed = ctx && Array.isArray(ctx.deliverAt) ? ctx.deliverAt : [];
    if (!allowed.includes(when))
      no(
        `${at}/deliverAt`,
        `Injection delivery \`${String(when)}\` was not advertised in \`capabilities.inject.context.deliverAt\`.`,
      );
  }
  return out;
}

/** Text parts of a list (messages' parts, or bare parts). */
function* partsOf(list: unknown): Generator<Obj> {
  if (!Array.isArray(list)) return;
  for (const x of list) {
    if (!isObj(x)) continue;
    if (Array.isArray(x.parts)) {
      for (const p of x.parts) if (isObj(p)) yield p;
    } else if (typeof x.kind === 'string') yield x;
  }
}

/** True when a part is text hidden from the subscriber (metadata / omit selection, or a gap). */
function isHiddenText(p: Obj): boolean {
  return p.kind === 'text' && (p.selection === 'metadata' || p.selection === 'omit' || own(p, 'gap'));
}

function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((x, i) => deepEqual(x, b[i]));
  if (isObj(a) && isObj(b)) {
    const ka = Object.keys(a);
    if (ka.length !== Object.keys(b).length) return false;
    return ka.every((k) => own(b, k) && deepEqual(a[k], b[k]));
  }
  return false;
}

/** Attachment parts with a body in `list` that are not an unchanged attachment of `current`. */
function newAttachments(list: unknown, current: unknown): Obj[] {
  const existing = [...partsOf(current)].filter((p) => p.kind === 'attachment');
  return [...partsOf(list)].filter(
    (p) => p.kind === 'attachment' && own(p, 'body') && !existing.some((q) => deepEqual(p, q)),
  );
}

/** The role every message of `target` must have at `event`, if the boundary fixes one. */
function requiredRole(event: string, target: string): string | undefined {
  if (event === 'user.message.outbound' && target === 'content') return 'assistant';
  if (event === 'user.message.inbound' && target === 'prompt') return 'user';
  return undefined;
}

/** Stage one well-formed modify over `values`; returns its problems (and changes `values` only when there are none). */
function stageModify(
  effect: Obj,
  index: number,
  ctx: HostContext,
  values: Record<string, unknown>,
  known: Set<string>,
): EffectRejection[] {
  const out: EffectRejection[] = [];
  const at = `/${index}`;
  const target = effect.target as string;
  const op = effect.operation as 'replace' | 'merge';
  const value = effect.value;
  const p = (code: RejectionCode, pointer: string, message: string) => out.push({ code, index, pointer, message });

  const sel = ctx.selection?.[target];
  if (sel !== undefined && sel !== 'body')
    p(
      'unavailable',
      `${at}/target`,
      `Target \`${target}\` is not exposed: its content selection is "${sel}", and only body selection can expose a modification target.`,
    );
  const perm = ctx.permissions?.[target];
  if (perm && !(perm.read && perm.write))
    p(
      'unavailable',
      `${at}/target`,
      `Target \`${target}\` needs both read and write permission; the host grants ${perm.read ? 'read only' : perm.write ? 'write only' : 'neither'}.`,
    );

  const cur = known.has(target) ? values[target] : undefined;
  let next: unknown;
  if (target === 'content' && ctx.event === 'user.elicitation.result') {
    const mode = ctx.mode ?? '';
    const action = ctx.action ?? '';
    if (mode !== 'form' || action !== 'accept') {
      p(
        'unavailable',
        `${at}/target`,
        `\`modify(content)\` at user.elicitation.result is only possible for an accepted form result; this result has mode "${mode}" and action "${action}".`,
      );
    }
    if (!isObj(value)) {
      p(
        'value',
        `${at}/value`,
        `At user.elicitation.result, \`content\` is the MCP answer object, so both replace and merge take an object; found ${describeValue(value)} (a list here must be rejected).`,
      );
    } else {
      for (const a of answerShapeProblems(value))
        p('answer', `${at}/value${a.pointer}`, `The answer field ${a.message}.`);
    }
    if (out.length === 0 && isObj(value)) {
      if (op === 'merge' && cur !== undefined && !isObj(cur))
        p(
          'current',
          `${at}/operation`,
          'A merge needs an object answer to merge into; the current answer is not an object.',
        );
      else {
        next = op === 'replace' ? { ...value } : { ...(isObj(cur) ? cur : {}), ...value };
        for (const a of answerShapeProblems(next))
          p(
            'answer',
            `${at}/value`,
            `The effective answer is not an MCP answer object: ${a.pointer === '' ? '' : `field ${a.pointer.slice(1)} `}${a.message}.`,
          );
        if (ctx.requestedSchema !== undefined) {
          for (const f of formAnswerProblems(next, ctx.requestedSchema)) {
            const fromValue =
              f.pointer !== '' && own(value, f.pointer.slice(1).split('/')[0]!.replace(/~1/g, '/').replace(/~0/g, '~'));
            p(
              'form',
              fromValue ? `${at}/value${f.pointer}` : `${at}/value`,
              `The effective answer does not satisfy the original requested form: ${f.pointer === '' ? '' : `field ${f.pointer.slice(1)} `}${f.message}.`,
            );
          }
        }
      }
    }
  } else if (target === 'content' && ctx.event === 'user.message.outbound') {
    if (!Array.isArray(value))
      p(
        'value',
        `${at}/value`,
        `At user.message.outbound, \`content\` is the canonical message list, so the value must be a list of messages; found ${describeValue(value)} (an object here must be rejected).`,
      );
    else next = op === 'replace' ? value : [...(Array.isArray(cur) ? cur : []), ...value];
  } else if (target === 'content') {
    p(
      'unavailable',
      `${at}/target`,
      `The \`content\` target exists only at user.message.outbound (a message list) and user.elicitation.result (the answer object), not at ${ctx.event}.`,
    );
  } else if (MESSAGE_TARGETS.has(target) || TEXT_PART_TARGETS.has(target)) {
    const what = MESSAGE_TARGETS.has(target) ? 'canonical message list' : 'text-part list';
    if (!Array.isArray(value))
      p('value', `${at}/value`, `The \`${target}\` value is a ${what}; found ${describeValue(value)}.`);
    else next = op === 'replace' ? value : [...(Array.isArray(cur) ? cur : []), ...value];
  } else if (OBJECT_TARGETS.has(target)) {
    if (!isObj(value))
      p('value', `${at}/value`, `The \`${target}\` value is an object; found ${describeValue(value)}.`);
    else if (op === 'merge' && cur !== undefined && !isObj(cur))
      p(
        'current',
        `${at}/operation`,
        `A merge into \`${target}\` needs an object current value; found ${describeValue(cur)}.`,
      );
    else next = op === 'replace' ? { ...value } : { ...(isObj(cur) ? cur : {}), ...value };
    // the effective value keeps the target's schema where the protocol has one (the proposed
    // workspace state at workspace.change.before); a merge over an unknown current is not judged
    if (
      next !== undefined &&
      target === 'workspace' &&
      ctx.event === 'workspace.change.before' &&
      (op === 'replace' || known.has(target))
    ) {
      for (const f of schemaFindings(`${VALUE_TABLE}/workspace`, next, '')) {
        const head = f.pointer.split('/')[1];
        const inValue = head !== undefined && isObj(value) && own(value, head.replace(/~1/g, '/').replace(/~0/g, '~'));
        p(
          'value',
          inValue ? `${at}/value${f.pointer}` : `${at}/value`,
          `The effective workspace state ${op === 'merge' ? 'after this shallow merge ' : ''}breaks its closed schema: ${lcFirst(f.message)}`,
        );
      }
      if (out.length) next = undefined;
    }
  }

  // list-specific checks
  if (Array.isArray(value) && (target === 'content' || MESSAGE_TARGETS.has(target) || TEXT_PART_TARGETS.has(target))) {
    const role = requiredRole(ctx.event, target);
    if (role) {
      value.forEach((m, i) => {
        if (isObj(m) && m.role !== role)
          p('value', `${at}/value/${i}/role`, `Messages of \`${target}\` at ${ctx.event} have role "${role}".`);
      });
    }
    if (op === 'replace' && Array.isArray(cur) && [...partsOf(cur)].some(isHiddenText)) {
      p(
        'hidden-text',
        `${at}/operation`,
        `A whole-list replacement of \`${target}\` is rejected because the current list holds metadata, omitted or gap text; append with merge instead (changing identities must not bypass hidden-text selection).`,
      );
    }
    if (known.has(target)) {
      for (const a of newAttachments(value, cur)) {
        p(
          'attachment',
          `${at}/value`,
          `Attachment part ${describeValue(a.id)} carries a body reference that is not an unchanged, authorized attachment of the current \`${target}\`; attachment bytes and references cannot be edited or substituted.`,
        );
      }
    }
  }
  if (out.length === 0 && next !== undefined) {
    values[target] = next;
    known.add(target);
  }
  return out;
}

const RETURN_TABLE = 'effects.schema.json#/$defs/returnContracts/$defs';
const VALUE_TABLE = 'effects.schema.json#/$defs/modifyValues/$defs';

/** Findings of `value` against the schema `ref` (pointers relative to `value`, prefixed by `base`). */
function schemaFindings(ref: string, value: unknown, base: string): Array<{ pointer: string; message: string }> {
  const reg = ahpSchemas();
  if (reg.check(ref)(value)) return [];
  const v = reg.validator(ref);
  v(value);
  const mapped = mapAjvErrors(v.errors, value, base);
  return mapped.length
    ? mapped.map((m) => ({ pointer: m.pointer, message: m.message }))
    : [{ pointer: base, message: 'The value does not match its schema.' }];
}

/** A mapped schema sentence continued after a colon. */
const lcFirst = (m: string): string => (/^[A-Z](?![A-Z])/.test(m) ? m.charAt(0).toLowerCase() + m.slice(1) : m);

let returnEvents: readonly string[] | undefined;

/**
 * The events whose `return` value has a contract, in the order of the contract table
 * (`effects.schema.json#/$defs/returnContracts`: tool.before, model.request.before,
 * context.compact.before, user.elicitation.request; capability-auth.md §Event-semantic
 * capability bounds: "`return` is bounded to" these four).
 */
export function returnContractEvents(): readonly string[] {
  if (returnEvents) return returnEvents;
  const doc = ahpSchemas().docs.get('effects.schema.json');
  const table =
    isObj(doc?.$defs) && isObj(doc.$defs.returnContracts) && isObj(doc.$defs.returnContracts.$defs)
      ? doc.$defs.returnContracts.$defs
      : {};
  returnEvents = Object.keys(table);
  return returnEvents;
}

/** Parts of a list value with their pointers (`/0/parts/1` in a message list, `/2` in a part list). */
function* partsWithPointer(list: unknown[], base: string): Generator<[Obj, string]> {
  for (let i = 0; i < list.length; i++) {
    const x = list[i];
    if (!isObj(x)) continue;
    if (Array.isArray(x.parts)) {
      for (let j = 0; j < x.parts.length; j++)
        if (isObj(x.parts[j])) yield [x.parts[j] as Obj, `${base}/${i}/parts/${j}`];
    } else yield [x, `${base}/${i}`];
  }
}

/**
 * Problems of one well-formed `return` effect at `ctx.event`: the value must satisfy the
 * boundary's contract (schema table), carry content rather than metadata / omit / gap views,
 * reuse only unchanged attachment descriptors of the event's own content, and, at
 * user.elicitation.request, agree with the request: a URL request and a declined or cancelled
 * answer carry no `content`; an accepted form answer satisfies the request's `requestedSchema`.
 */
function returnProblems(effect: Obj, index: number, ctx: HostContext): EffectRejection[] {
  const out: EffectRejection[] = [];
  const at = `/${index}/value`;
  const value = effect.value;
  const p = (pointer: string, message: string) => out.push({ code: 'return', index, pointer, message });
  const events = returnContractEvents();
  if (!events.includes(ctx.event)) {
    p(
      `/${index}/type`,
      `\`return\` is bounded to ${events.join(', ')}; ${ctx.event} has no return contract, so no result can be supplied here.`,
    );
    return out;
  }
  const found = schemaFindings(`${RETURN_TABLE}/${ctx.event}`, value, at);
  if (found.length) {
    // one sentence per list item of the other list kind (bare parts for messages, messages for
    // text parts) instead of each member the schema misses
    const wantsMessages = ctx.event !== 'context.compact.before' && ctx.event !== 'user.elicitation.request';
    const swapped =
      Array.isArray(value) && ctx.event !== 'user.elicitation.request'
        ? value.flatMap((x, i) =>
            isObj(x) && (wantsMessages ? !own(x, 'parts') && own(x, 'kind') : own(x, 'parts') || own(x, 'role'))
              ? [i]
              : [],
          )
        : [];
    for (const i of swapped) {
      p(
        `${at}/${i}`,
        wantsMessages
          ? `Item ${i} is a bare content part, but the ${ctx.event} return value is a canonical message list: each item is a message that owns its role and ordered parts.`
          : `Item ${i} is a canonical message, but the ${ctx.event} return value (the supplied summary) is a text-part list.`,
      );
    }
    // an answer field of the wrong shape: one sentence (the pinned answer shape), not one per union branch
    const fields =
      ctx.event === 'user.elicitation.request' && isObj(value) && isObj(value.content)
        ? answerShapeProblems(value.content)
        : [];
    for (const a of fields)
      p(
        `${at}/content${a.pointer}`,
        `The supplied answer field ${a.pointer.slice(1)} breaks the pinned MCP answer shape: ${a.message}.`,
      );
    const skip = (ptr: string) =>
      swapped.some((i) => ptr === `${at}/${i}` || ptr.startsWith(`${at}/${i}/`)) ||
      fields.some((a) => ptr === `${at}/content${a.pointer}` || ptr.startsWith(`${at}/content${a.pointer}/`));
    for (const f of found)
      if (!skip(f.pointer))
        p(f.pointer, `The supplied result breaks the ${ctx.event} return contract: ${lcFirst(f.message)}`);
    return out;
  }
  // content duties (no views, no substituted attachments) hold only where the contract is a content list
  if (Array.isArray(value) && ctx.event !== 'tool.before' && ctx.event !== 'user.elicitation.request') {
    const existing: Obj[] = [];
    for (const v of Object.values(ctx.current ?? {}))
      for (const q of partsOf(v)) if (q.kind === 'attachment') existing.push(q);
    for (const [part, ptr] of partsWithPointer(value, at)) {
      if (part.selection === 'metadata' || part.selection === 'omit' || own(part, 'gap')) {
        p(
          ptr,
          `This part is ${own(part, 'gap') ? 'a gap' : part.selection === 'omit' ? 'an omit view' : 'a metadata view'}, not content; a supplied result replaces the operation's result with content (metadata, omit and gap views describe content withheld from a subscriber, and a view is not an executable value).`,
        );
      } else if (part.kind === 'attachment' && own(part, 'body') && !existing.some((q) => deepEqual(part, q))) {
        p(
          `${ptr}/body`,
          'This attachment reference is not an unchanged, authorized attachment of the intercepted event; attachment references cannot be substituted (uploads carry harness-to-subscriber bodies, and an opaque reference grants no access).',
        );
      }
    }
  }
  if (ctx.event === 'user.elicitation.request' && isObj(value) && ctx.elicitation) {
    const { mode, requestedSchema } = ctx.elicitation;
    const action = value.action;
    const has = own(value, 'content');
    if (has && mode === 'url')
      p(
        `${at}/content`,
        'The request is a URL-mode elicitation, whose results omit `content`; a supplied answer cannot carry form data for it.',
      );
    else if (has && action !== 'accept')
      p(
        `${at}/content`,
        `A ${String(action)} result omits \`content\`; content is present only for accepted form data.`,
      );
    else if (mode === 'form' && action === 'accept' && requestedSchema !== undefined) {
      for (const f of formAnswerProblems(has ? value.content : {}, requestedSchema)) {
        const where = has ? `${at}/content${f.pointer}` : at;
        p(
          where,
          `The supplied answer does not satisfy the request's form: ${has ? '' : 'it has no `content`, and '}${f.pointer === '' || f.keyword === 'required' ? '' : `field ${f.pointer.slice(1)} `}${f.message}.`,
        );
      }
    }
  }
  return out;
}

/** A deep copy of a JSON value: `structuredClone`, or an explicit stack when the value nests deeper than the call stack allows. */
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
): { reasons: EffectRejection[]; values: Record<string, unknown>; changed: Set<string> } {
  const reasons: EffectRejection[] = [];
  const values: Record<string, unknown> = { ...(ctx.current ?? {}) };
  const changed = new Set<string>();
  if (!Array.isArray(effects)) {
    reasons.push({
      code: 'malformed',
      index: -1,
      pointer: '',
      message: `\`effects\` is an ordered list of effects; found ${describeValue(effects)}.`,
    });
    return { reasons, values, changed };
  }
  const known = new Set(Object.keys(values));
  const advertised = advertisedEffects(ctx.capabilities);
  const flowState = { continueSeen: false };
  effects.forEach((effect, index) => {
    const bad = schemaProblems(effect, index);
    if (bad.length) {
      reasons.push(...bad);
      return;
    }
    const e = effect as Obj;
    const caps = advertised ? capabilityProblems(e, index, ctx.capabilities as Obj, advertised, flowState) : [];
    reasons.push(...caps);
    // an unadvertised return is ahp/effect-not-advertised's alone; an advertised one is judged by its boundary contract
    if (e.type === 'return' && caps.length === 0) reasons.push(...returnProblems(e, index, ctx));
    if (e.type === 'modify') {
      // staging builds new values (spread copies, or the effect's value); it never writes into ctx
      const found = stageModify(e, index, ctx, values, known);
      if (found.length) reasons.push(...found);
      else changed.add(e.target as string);
    }
  });
  return { reasons, values, changed };
}

/**
 * Apply `effects` (a response's `result.effects`) in `ctx`: validate, check against the granted
 * capabilities, stage every modification serially, and accept all or nothing. Shapes:
 * {@link HostContext}, {@link EffectsOutcome}, {@link EffectRejection}. Never throws and never
 * changes `ctx`; the effective values are detached copies (deep clones).
 */
export function applyEffects(effects: unknown, ctx: HostContext): EffectsOutcome {
  const { reasons, values, changed } = stage(effects, ctx);
  if (reasons.length) return { accepted: false, reasons };
  return { accepted: true, values: detach(values), changed: [...changed] };
}

/** The verdict of {@link checkEffects}: accepted, or every reason for rejecting the response. */
export interface EffectsVerdict {
  accepted: boolean;
  reasons: EffectRejection[];
}

/**
 * The verdict of {@link applyEffects} without building the effective values (what a stream
 * checker needs). Never throws and never changes `ctx`.
 */
export function checkEffects(effects: unknown, ctx: HostContext): EffectsVerdict {
  const { reasons } = stage(effects, ctx);
  return { accepted: reasons.length === 0, reasons };
}

/** An issue of {@link checkEditContext}, shaped like the message validator's issues. */
export interface EditContextIssue {
  /** `ahp/effect` (a malformed effect), ahp/effect-not-advertised, ahp/modify-invalid or ahp/return-invalid. */
  ruleId: string;
  severity: 'error';
  pointer: string;
  message: string;
}

/** The rule id under which a rejection reason is reported. */
function rejectionRule(code: RejectionCode): string {
  return code === 'malformed'
    ? 'ahp/effect'
    : code === 'not-advertised'
      ? EFFECT_NOT_ADVERTISED
      : code === 'return'
        ? RETURN_INVALID
        : MODIFY_INVALID;
}

/**
 * The host context of an upstream manifest `editContext` (`{event, current: {<target>: value},
 * mode, action}`, mode/action `""` when not applicable), as the upstream contextual check
 * synthesizes it: replace and merge capability, body selection and read/write permission for
 * every key of `current`. Returns undefined when `editContext` is not of that shape.
 */
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

/**
 * The contextual `modify` verdict of an upstream fixture manifest case (ahp-rules.md §9.1:
 * `contextualExpectedValid` + `editContext`): apply the response `message`'s `result.effects` in
 * the host context of `editContext` ({@link hostContextOf}). Returns the reasons the edit is
 * rejected as issues (`ahp/modify-invalid`, `ahp/effect-not-advertised`, `ahp/effect`); an
 * empty list means the edit is accepted. Wire validity is not checked here (the caller runs the
 * message validator). Never throws.
 */
export function checkEditContext(message: unknown, editContext: unknown): EditContextIssue[] {
  const ctx = hostContextOf(editContext);
  if (!ctx)
    return [
      {
        ruleId: MODIFY_INVALID,
        severity: 'error',
        pointer: '',
        message: 'The edit context is not an object with an event type and current target values.',
      },
    ];
  const result = isObj(message) && isObj(message.result) ? message.result : undefined;
  if (!result || !own(result, 'effects'))
    return [
      {
        ruleId: MODIFY_INVALID,
        severity: 'error',
        pointer: '/result',
        message: 'The message is not an intercept response with `result.effects`.',
      },
    ];
  const out = checkEffects(result.effects, ctx);
  if (out.accepted) return [];
  return out.reasons.map((r) => ({
    ruleId: rejectionRule(r.code),
    severity: 'error',
    pointer: childPointer('/result', 'effects') + r.pointer,
    message: r.message,
  }));
}
