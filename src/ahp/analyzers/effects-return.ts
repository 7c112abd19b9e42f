import type { MessageArgs } from '../../core/message.ts';
import { isObj, own, type Obj } from '../../core/value.ts';
import { ahpSchemas } from '../schema/schemas.ts';
import { deepEqual, partsOf, schemaSentences, type EffectRejection, type HostContext } from './effects-model.ts';
import { answerField, answerPhrase, answerShapeProblems, fieldArgs, formAnswerProblems } from './form-answer.ts';

const RETURN_TABLE = 'effects.schema.json#/$defs/returnContracts/$defs';

let returnEvents: readonly string[] | undefined;

/** The events whose `return` has a contract, in `effects.schema.json#/$defs/returnContracts` order. */
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

/** Problems of one well-formed `return` effect at `ctx.event`. */
export function returnProblems(effect: Obj, index: number, ctx: HostContext): EffectRejection[] {
  const out: EffectRejection[] = [];
  const at = `/${index}/value`;
  const value = effect.value;
  const p = (pointer: string, messageId: string, args: MessageArgs = {}) =>
    out.push({ code: 'return', index, pointer, messageId, args: { event: ctx.event, ...args } });
  const events = returnContractEvents();
  if (!events.includes(ctx.event)) {
    p(`/${index}/type`, 'unbounded', { events: events.join(', ') });
    return out;
  }
  const found = schemaSentences(`${RETURN_TABLE}/${ctx.event}`, value, at);
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
      p(`${at}/${i}`, wantsMessages ? 'bareParts' : 'messageItem', { item: i });
    }
    // an answer field of the wrong shape: one sentence (the pinned answer shape), not one per union branch
    const fields =
      ctx.event === 'user.elicitation.request' && isObj(value) && isObj(value.content)
        ? answerShapeProblems(value.content)
        : [];
    for (const a of fields)
      p(`${at}/content${a.pointer}`, 'answerShape', { field: answerField(a), problem: answerPhrase(a) });
    const skip = (ptr: string) =>
      swapped.some((i) => ptr === `${at}/${i}` || ptr.startsWith(`${at}/${i}/`)) ||
      fields.some((a) => ptr === `${at}/content${a.pointer}` || ptr.startsWith(`${at}/content${a.pointer}/`));
    for (const f of found) if (!skip(f.pointer)) p(f.pointer, 'contract', { sentence: f.sentence });
    return out;
  }
  // content duties (no views, no substituted attachments) hold only where the contract is a content list
  if (Array.isArray(value) && ctx.event !== 'tool.before' && ctx.event !== 'user.elicitation.request') {
    const existing: Obj[] = [];
    for (const v of Object.values(ctx.current ?? {}))
      for (const q of partsOf(v)) if (q.kind === 'attachment') existing.push(q);
    for (const [part, ptr] of partsWithPointer(value, at)) {
      if (part.selection === 'metadata' || part.selection === 'omit' || own(part, 'gap')) {
        p(ptr, own(part, 'gap') ? 'gap' : part.selection === 'omit' ? 'omitView' : 'metadataView');
      } else if (part.kind === 'attachment' && own(part, 'body') && !existing.some((q) => deepEqual(part, q))) {
        p(`${ptr}/body`, 'attachment');
      }
    }
  }
  if (ctx.event === 'user.elicitation.request' && isObj(value) && ctx.elicitation) {
    const { mode, requestedSchema } = ctx.elicitation;
    const action = value.action;
    const has = own(value, 'content');
    if (has && mode === 'url') p(`${at}/content`, 'urlContent');
    else if (has && action !== 'accept') p(`${at}/content`, 'contentNotAccepted', { action: String(action) });
    else if (mode === 'form' && action === 'accept' && requestedSchema !== undefined) {
      for (const f of formAnswerProblems(has ? value.content : {}, requestedSchema)) {
        const where = has ? `${at}/content${f.pointer}` : at;
        const field = f.pointer !== '' && f.keyword !== 'required';
        const args = fieldArgs(f);
        const item = has && field && args.item !== undefined ? 'Item' : '';
        p(where, `${has ? 'form' : 'formNoContent'}${field ? 'Field' : ''}${item}`, {
          ...args,
          problem: answerPhrase(f),
          keyword: f.keyword,
        });
      }
    }
  }
  return out;
}
