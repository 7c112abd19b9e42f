import { defineEventRule } from '../../core/engine.ts';
import { isObj } from '../../core/value.ts';
import type { AepEvent } from '../event.ts';

/** RFC 6902 §4: the operations, each with the members it requires beyond `op` and `path`. */
const OPERATIONS: Readonly<Record<string, 'value' | 'from' | undefined>> = {
  add: 'value',
  remove: undefined,
  replace: 'value',
  move: 'from',
  copy: 'from',
  test: 'value',
};

/** An RFC 6901 JSON Pointer: empty, or `/`-prefixed tokens in which `~` is only `~0` or `~1`. */
const POINTER = /^(?:\/(?:[^~/]|~[01])*)*$/;

/**
 * `aep/state-delta-patch`: the payload schema (like upstream's) takes any object as an item; AEP-0002 §5.4 names the
 * array an RFC 6902 JSON-Patch, so each item is judged as an operation object. Members an operation does not define
 * are ignored (RFC 6902 §4), and values are not applied: there is no snapshot to apply them to.
 */
export const stateDeltaPatch = defineEventRule({
  id: 'aep/state-delta-patch',
  severity: 'error',
  description:
    'Each state.delta `delta` item is an RFC 6902 operation: `op` one of add, remove, replace, move, copy, test; `path` (and `from` for move and copy) a JSON Pointer; `value` for add, replace and test.',
  spec: 'AEP-0002 §5.4 state.delta; RFC 6902 §4',
  quote: '`delta?: array [redacted]` (an RFC 6902 JSON-Patch operations array',
  messages: {
    op: 'delta[{i}] has op {op:json}, not one of add, remove, replace, move, copy, test (RFC 6902 §4).',
    noOp: 'delta[{i}] has no string `op` member; every RFC 6902 operation object has one (§4).',
    pointer:
      'delta[{i}].{member} ({got}) is not a JSON Pointer (RFC 6901: empty, or "/"-prefixed tokens with ~ only as ~0 or ~1).',
    missing: 'delta[{i}] is an operation {op:json} without `{member}` (RFC 6902 §4).',
  },
  types: ['state.delta'],
  check(ev: AepEvent, ctx) {
    if (ev.type !== 'state.delta') return;
    const data = ev.value.data;
    const delta = isObj(data) ? data.delta : undefined;
    if (!Array.isArray(delta)) return;
    for (let i = 0; i < delta.length; i++) {
      const item: unknown = delta[i];
      if (!isObj(item)) continue; // the payload schema reports it
      const at = `/data/delta/${i}`;
      const op = item.op;
      if (typeof op !== 'string') {
        ctx.report({ pointer: at, messageId: 'noOp', args: { i } });
        continue;
      }
      if (!Object.hasOwn(OPERATIONS, op)) {
        ctx.report({ pointer: `${at}/op`, messageId: 'op', args: { i, op } });
        continue;
      }
      const need = OPERATIONS[op];
      for (const member of need === 'from' ? ['path', 'from'] : ['path']) {
        const v = item[member];
        if (v === undefined) ctx.report({ pointer: at, messageId: 'missing', args: { i, op, member } });
        else if (typeof v !== 'string' || !POINTER.test(v))
          ctx.report({
            pointer: `${at}/${member}`,
            messageId: 'pointer',
            args: { i, member, got: v === null ? 'null' : `a ${typeof v}` },
          });
      }
      if (need === 'value' && !Object.hasOwn(item, 'value'))
        ctx.report({ pointer: at, messageId: 'missing', args: { i, op, member: 'value' } });
    }
  },
});
