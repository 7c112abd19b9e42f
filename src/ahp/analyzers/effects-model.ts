import type { MessageArgs } from '../../core/message.ts';
import { isObj, own, type Obj } from '../../core/value.ts';
import { mapAjvErrors } from '../schema/issues.ts';
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
 * `pointer` is relative to the effect list (`/0/value/name`); `messageId` and `args` word it
 * with a template of the rule that reports the code (`ahp/effect`, `ahp/effect-not-advertised`,
 * `ahp/return-invalid`, else `ahp/modify-invalid`), never echoing a content value.
 */
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

/** Schema sentences of `value` against `ref` (pointers relative to `value`, prefixed by `base`), continued after a colon (lower-case first letter). */
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
    ? mapped.map((m) => ({ pointer: m.pointer, sentence: lcFirst(m.message) }))
    : [{ pointer: base, sentence: 'the value does not match its schema.' }];
}

const lcFirst = (m: string): string => (/^[A-Z](?![A-Z])/.test(m) ? m.charAt(0).toLowerCase() + m.slice(1) : m);
