import { describeValue } from '../../core/finding.ts';
import type { MessageArgs } from '../../core/message.ts';
import { isObj, own, type Obj } from '../../core/value.ts';
import {
  deepEqual,
  partsOf,
  schemaSentences,
  type EffectRejection,
  type HostContext,
  type RejectionCode,
} from './effects-model.ts';
import { answerField, answerPhrase, answerShapeProblems, fieldArgs, formAnswerProblems } from './form-answer.ts';

const MESSAGE_TARGETS = new Set(['output', 'prompt', 'request', 'response']);
const TEXT_PART_TARGETS = new Set(['instructions', 'summary']);
const OBJECT_TARGETS = new Set(['input', 'workspace']);

/** True when a part is text hidden from the subscriber (metadata / omit selection, or a gap). */
function isHiddenText(p: Obj): boolean {
  return p.kind === 'text' && (p.selection === 'metadata' || p.selection === 'omit' || own(p, 'gap'));
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

/**
 * Stage one well-formed modify over `values` (a target is known when it is an own member); returns its problems (and
 * changes `values` only when there are none).
 */
export function stageModify(
  effect: Obj,
  index: number,
  ctx: HostContext,
  values: Record<string, unknown>,
): EffectRejection[] {
  const out: EffectRejection[] = [];
  const at = `/${index}`;
  const target = effect.target as string;
  const op = effect.operation as 'replace' | 'merge';
  const value = effect.value;
  const p = (code: RejectionCode, pointer: string, messageId: string, args: MessageArgs = {}) =>
    out.push({ code, index, pointer, messageId, args: { target, ...args } });

  const sel = ctx.selection?.[target];
  if (sel !== undefined && sel !== 'body') p('unavailable', `${at}/target`, 'selection', { selection: sel });
  const perm = ctx.permissions?.[target];
  if (perm && !(perm.read && perm.write))
    p('unavailable', `${at}/target`, perm.read ? 'readOnly' : perm.write ? 'writeOnly' : 'noPermission');

  const known = own(values, target);
  const cur = known ? values[target] : undefined;
  let next: unknown;
  if (target === 'content' && ctx.event === 'user.elicitation.result') {
    const mode = ctx.mode ?? '';
    const action = ctx.action ?? '';
    if (mode !== 'form' || action !== 'accept') {
      p('unavailable', `${at}/target`, 'notAcceptedForm', { mode, action });
    }
    if (!isObj(value)) {
      p('value', `${at}/value`, 'answerNotObject', { found: describeValue(value) });
    } else {
      for (const a of answerShapeProblems(value))
        p('answer', `${at}/value${a.pointer}`, 'answerField', { field: answerField(a), problem: answerPhrase(a) });
    }
    if (out.length === 0 && isObj(value)) {
      if (op === 'merge' && cur !== undefined && !isObj(cur)) p('current', `${at}/operation`, 'answerMergeBase');
      else {
        next = op === 'replace' ? { ...value } : { ...(isObj(cur) ? cur : {}), ...value };
        for (const a of answerShapeProblems(next))
          p('answer', `${at}/value`, a.pointer === '' ? 'effectiveAnswer' : 'effectiveAnswerField', {
            field: answerField(a),
            problem: answerPhrase(a),
          });
        if (ctx.requestedSchema !== undefined) {
          for (const f of formAnswerProblems(next, ctx.requestedSchema)) {
            // a merge over an answer not known here (an invalid or hidden body) may keep any field: only what the
            // value itself sets is judged, never a required field the unknown answer may well hold
            if (f.keyword === 'required' && op === 'merge' && !known) continue;
            const fromValue = f.pointer !== '' && own(value, answerField(f));
            // a required-field phrase is a whole clause ("the form requires field ..."), not a field's predicate
            const field = f.pointer !== '' && f.keyword !== 'required';
            const args = fieldArgs(f);
            const id = !field ? 'form' : args.item === undefined ? 'formField' : 'formFieldItem';
            p('form', fromValue ? `${at}/value${f.pointer}` : `${at}/value`, id, {
              ...args,
              problem: answerPhrase(f),
              keyword: f.keyword,
            });
          }
        }
      }
    }
  } else if (target === 'content' && ctx.event === 'user.message.outbound') {
    if (!Array.isArray(value)) p('value', `${at}/value`, 'outboundNotList', { found: describeValue(value) });
    else next = op === 'replace' ? value : [...(Array.isArray(cur) ? cur : []), ...value];
  } else if (target === 'content') {
    p('unavailable', `${at}/target`, 'contentElsewhere', { event: ctx.event });
  } else if (MESSAGE_TARGETS.has(target) || TEXT_PART_TARGETS.has(target)) {
    if (!Array.isArray(value))
      p('value', `${at}/value`, MESSAGE_TARGETS.has(target) ? 'notMessageList' : 'notTextPartList', {
        found: describeValue(value),
      });
    else next = op === 'replace' ? value : [...(Array.isArray(cur) ? cur : []), ...value];
  } else if (OBJECT_TARGETS.has(target)) {
    if (!isObj(value)) p('value', `${at}/value`, 'notObject', { found: describeValue(value) });
    else if (op === 'merge' && cur !== undefined && !isObj(cur))
      p('current', `${at}/operation`, 'mergeBase', { found: describeValue(cur) });
    else next = op === 'replace' ? { ...value } : { ...(isObj(cur) ? cur : {}), ...value };
    // the effective value keeps the target's schema where the protocol has one (the proposed
    // workspace state at workspace.change.before); a merge over an unknown current is not judged
    if (
      next !== undefined &&
      target === 'workspace' &&
      ctx.event === 'workspace.change.before' &&
      (op === 'replace' || known)
    ) {
      for (const f of schemaSentences(`${VALUE_TABLE}/workspace`, next, '')) {
        const head = f.pointer.split('/')[1];
        const inValue = head !== undefined && isObj(value) && own(value, head.replace(/~1/g, '/').replace(/~0/g, '~'));
        p(
          'value',
          inValue ? `${at}/value${f.pointer}` : `${at}/value`,
          op === 'merge' ? 'workspaceMerge' : 'workspace',
          {
            sentence: f.sentence,
          },
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
        if (isObj(m) && m.role !== role) p('value', `${at}/value/${i}/role`, 'role', { event: ctx.event, role });
      });
    }
    if (op === 'replace' && Array.isArray(cur) && [...partsOf(cur)].some(isHiddenText)) {
      p('hidden-text', `${at}/operation`, 'hiddenText');
    }
    if (known) {
      for (const a of newAttachments(value, cur)) {
        p('attachment', `${at}/value`, 'attachment', { id: describeValue(a.id) });
      }
    }
  }
  if (out.length === 0 && next !== undefined) {
    values[target] = next;
  }
  return out;
}

const VALUE_TABLE = 'effects.schema.json#/$defs/modifyValues/$defs';
