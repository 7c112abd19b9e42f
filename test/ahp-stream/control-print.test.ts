/**
 * controlPrint (src/ahp/analyzers/identity-rows.ts) reads each control field by name: held here to the walk of the
 * `CONTROL_FIELDS` paths it replaced, over every event of the conformance cases and one-member changes of them.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CONTROL_FIELDS, controlPrint } from '../../src/ahp/analyzers/identity-rows.ts';
import { fnv32, valueDigest } from '../../src/ahp/analyzers/digest.ts';
import { isObj, type Obj } from '../../src/core/value.ts';
import { filesUnder, jsonValuesOf, REPO_DIR } from '../ahp/helpers.ts';

/** The print by walking each field's dotted path (the definition). */
function walked(ev: Obj): { fp: number[]; mask: number } {
  const fp: number[] = [];
  let mask = 0;
  NAMED.forEach((f, i) => {
    let cur: unknown = ev;
    for (const k of f.split('.')) cur = isObj(cur) ? cur[k] : undefined;
    if (cur === undefined) {
      fp.push(0);
      return;
    }
    mask |= 1 << i;
    fp.push(
      fnv32(
        typeof cur === 'string'
          ? 's' + cur
          : isObj(cur) || Array.isArray(cur)
            ? 'o' + valueDigest(cur)
            : typeof cur + String(cur),
      ),
    );
  });
  return { fp, mask };
}

/** The control fields read by path (the last, `rest of the event`, is the print of the other members). */
const NAMED = CONTROL_FIELDS.slice(0, -1);
/** The print's named fields only. */
const named = (p: { fp: number[]; mask: number }) => ({
  fp: p.fp.slice(0, NAMED.length),
  mask: p.mask & ((1 << NAMED.length) - 1),
});

const OTHERS: unknown[] = [null, 0, 1.5, true, 'x', '', [], ['a'], {}, { id: 'x' }];

test('controlPrint equals the walk of CONTROL_FIELDS on every conformance event and its one-member changes', () => {
  let events = 0;
  for (const file of filesUnder(`${REPO_DIR}conformance/ahp`)) {
    if (!file.endsWith('.jsonl') && !file.endsWith('.json')) continue;
    for (const v of jsonValuesOf(file)) {
      const params = isObj(v) && isObj(v.params) ? v.params : undefined;
      const ev = params && isObj(params.event) ? params.event : undefined;
      if (!ev) continue;
      events++;
      assert.deepEqual(named(controlPrint(ev)), walked(ev));
      // each control field and its parent object: deleted, or replaced by other values
      for (const f of NAMED) {
        const [head, tail] = f.split('.') as [string, string | undefined];
        const holder = tail === undefined ? ev : ev[head];
        const key = tail ?? head;
        for (const [o, k] of [
          [ev, head],
          [holder, key],
        ] as const) {
          if (!isObj(o)) continue;
          const had = Object.hasOwn(o, k);
          const was = o[k];
          for (const r of [undefined, ...OTHERS]) {
            if (r === undefined) delete o[k];
            else o[k] = r;
            assert.deepEqual(named(controlPrint(ev)), walked(ev), `${f} as ${JSON.stringify(r)}`);
          }
          if (had) o[k] = was;
          else delete o[k];
        }
      }
    }
  }
  assert.ok(events > 100, `only ${events} events read`);
});

const ev = (o: Obj): Obj => ({ id: 'e', source: 's', type: 'tool.after', session: { id: 'a' }, ...o });
const rest = (o: Obj): number => controlPrint(ev(o)).fp[NAMED.length]!;

test('the rest of the event: views may differ only in content, native, input and modify targets; all else counts', () => {
  const base = { tool: { name: 'Bash', input: { c: 1 }, origin: 'native' }, outcome: 'ok', items: [], path: 'native' };
  const same = rest(base);
  assert.equal(rest({ ...base, tool: { name: 'Bash', input: { c: 2 }, origin: 'native' } }), same);
  assert.equal(rest({ ...base, items: [{ kind: 'text', selection: 'omit' }], native: { x: 1 } }), same);
  assert.equal(rest({ path: 'native', items: [], outcome: 'ok', tool: { origin: 'native', name: 'Bash' } }), same);
  assert.equal(rest({ ...base, session: { id: 'b' } }), same, 'session.id is a field of its own');
  assert.notEqual(rest({ ...base, tool: { name: 'Write', input: { c: 1 }, origin: 'native' } }), same);
  assert.notEqual(rest({ ...base, outcome: 'denied' }), same);
  assert.notEqual(rest({ ...base, path: 'mcp' }), same);
  assert.notEqual(rest({ ...base, execution: { status: 'skipped' } }), same);
  const attention = (t: unknown[]) => rest({ type: 'user.attention', attention: { kind: 'k', title: t } });
  assert.equal(
    attention([{ kind: 'text', selection: 'body', text: 'a' }]),
    attention([{ kind: 'text', selection: 'omit' }]),
  );
});
