import { canonicalJson } from '../../core/canonical.ts';
import { defineEventRule } from '../../core/engine.ts';
import { childPointer } from '../../core/pointer.ts';
import { isObj, type Obj } from '../../core/value.ts';
import type { AhpMessage } from '../message.ts';

/** Whether every member of `change` is in `prior` with the same JSON value (canonical JSON, exact big integers). */
function sameAsPrior(msg: AhpMessage, change: Obj, prior: Obj, pointer: string): boolean {
  const keys = Object.keys(change);
  if (keys.length === 0) return false;
  const eq = (k: string) =>
    canonicalJson({ value: change[k], bigIntegers: msg.bigIntegers }, childPointer(`${pointer}/change`, k)) ===
    canonicalJson({ value: prior[k], bigIntegers: msg.bigIntegers }, childPointer(`${pointer}/prior`, k));
  return keys.every((k) => Object.hasOwn(prior, k) && eq(k));
}

/** `ahp/change-after-noop`: a task or workspace after event whose every changed field repeats its prior value. */
export const changeAfterNoop = defineEventRule({
  id: 'ahp/change-after-noop',
  severity: 'error',
  description:
    'A task.change.after (update) or workspace.change.after reports an actual change: when every field of its `change` equals the same field of its `prior`, it is an explicit no-op and no after event represents it. Fields absent from `prior` are unknown, not unchanged; create and remove operations are not compared.',
  spec: 'AHP task-workspace-lineage.md §Lineage and actual changes ("A denied proposal with no actual change produces no after event"; the lineage check rejects "explicit no-op actual task/workspace updates"); §Payloads',
  messages: {
    noop: 'This {type} changes nothing: every field of `{member}.change` equals the same field of `{member}.prior`; an after event reports an actual change, and no after event represents an unchanged proposal.',
  },
  types: ['task.change.after', 'workspace.change.after'],
  check(msg: AhpMessage, ctx) {
    const ev = msg.event;
    if (msg.eventPointer === undefined || !ev) return;
    const member =
      ev.type === 'task.change.after' ? 'task' : ev.type === 'workspace.change.after' ? 'workspace' : undefined;
    if (!member) return;
    const o = ev[member];
    if (!isObj(o) || !isObj(o.change) || !isObj(o.prior)) return;
    if (member === 'task' && o.operation !== 'update') return;
    const pointer = `${msg.eventPointer}/${member}`;
    if (sameAsPrior(msg, o.change, o.prior, pointer))
      ctx.report({ pointer: `${pointer}/change`, args: { type: ev.type as string, member } });
  },
});
