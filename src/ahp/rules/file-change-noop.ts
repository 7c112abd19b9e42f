import { defineEventRule } from '../../core/engine.ts';
import { isObj } from '../../core/value.ts';
import type { AhpMessage } from '../message.ts';

/**
 * Whether `a` and `b` are the same JSON value, object members in any order (as the maintainers' checker compares);
 * past 1,000 levels, not the same (no finding rather than a guess).
 */
function sameValue(a: unknown, b: unknown, depth = 0): boolean {
  if (a === b) return true;
  if (depth > 1000) return false;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const l = b as unknown[];
    return a.length === l.length && a.every((x, i) => sameValue(x, l[i], depth + 1));
  }
  const oa = a as Record<string, unknown>;
  const ob = b as Record<string, unknown>;
  const ka = Object.keys(oa);
  if (ka.length !== Object.keys(ob).length) return false;
  return ka.every((k) => Object.hasOwn(ob, k) && sameValue(oa[k], ob[k], depth + 1));
}

/** `ahp/file-change-noop`: a `file.changed` update whose `before` and `after` snapshots are the same part. */
export const fileChangeNoop = defineEventRule({
  id: 'ahp/file-change-noop',
  severity: 'error',
  description: 'A file.changed `update` whose `before` and `after` snapshots are the same part reports no change.',
  detail:
    'The same part: the same JSON value, members in any order. No sentence of task-workspace-lineage.md decides; the maintainers\' lineage checker (interop/task_lineage.py, which the section describes) rejects such an update ("file update reports identical before/after references"), so it is an error (README §Decisions on JSON edge cases). Snapshots that differ in any member (their part ids, a selection, a size) are not compared by content: the checker accepts them. Also cited: §Lineage and actual changes.',
  spec: 'AHP task-workspace-lineage.md §Payloads',
  messages: {
    same: "This file update's `before` and `after` snapshots are the same part, so the update reports no change; the protocol's lineage check rejects identical before/after snapshots.",
  },
  types: ['file.changed'],
  check(msg: AhpMessage, ctx) {
    const ev = msg.event;
    if (msg.eventPointer === undefined || !ev || ev.type !== 'file.changed' || !Array.isArray(ev.changes)) return;
    for (let i = 0; i < ev.changes.length; i++) {
      const c: unknown = ev.changes[i];
      if (!isObj(c) || c.operation !== 'update' || !Object.hasOwn(c, 'before') || !Object.hasOwn(c, 'after')) continue;
      if (!sameValue(c.before, c.after)) continue;
      ctx.report({ pointer: `${msg.eventPointer}/changes/${i}/after`, messageId: 'same' });
    }
  },
});
