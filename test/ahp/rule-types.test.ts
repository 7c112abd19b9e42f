/**
 * AHP per-event rules that name their `types` (src/core/rule.ts) are left out by the Engine for messages whose
 * `ruleType` (src/ahp/message.ts) is another type or none (`Engine.eventRulesOf`): each must report nothing there.
 * Every conformance and example message (and every upstream corpus message) is checked as it is and with its event given
 * each catalogue type and a vendor type in turn; a rule's own types must still find something, so a list cannot be
 * emptied unseen.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { ruleType, type AhpMessage } from '../../src/ahp/message.ts';
import { AHP_EVENT_RULES } from '../../src/ahp/rules/index.ts';
import { ahpEventTypes } from '../../src/ahp/schema/schemas.ts';
import { resolveRoot, schemaStage } from '../../src/ahp/schema/stage.ts';
import { Engine } from '../../src/core/engine.ts';
import { isObj } from '../../src/core/value.ts';
import { filesUnder, jsonValuesOf, REPO_DIR } from './helpers.ts';
import { optionalShared, SHARED } from '../shared.ts';

/** The message `value` as the schema stage leaves it for the per-event rules. */
function staged(value: Record<string, unknown>): AhpMessage {
  const ev = {
    source: 'rule-types.jsonl',
    line: 1,
    byteOffset: 0,
    text: JSON.stringify(value),
    value,
    duplicates: [],
    bigIntegers: [],
  };
  schemaStage(ev, resolveRoot('message'));
  return ev as unknown as AhpMessage;
}

/** The same message with its event's type set to `type` (a copy). */
function withType(value: Record<string, unknown>, type: string): Record<string, unknown> | undefined {
  const copy = structuredClone(value);
  const params = copy.params;
  if (!isObj(params) || !isObj(params.event)) return undefined;
  params.event.type = type;
  return copy;
}

test('AHP per-event rule types: a rule reports nothing for a message of another type or none, and something for its own', (t) => {
  const gated = AHP_EVENT_RULES.filter((r) => r.types !== undefined);
  assert.ok(gated.length >= 11, `${gated.length} rules name types`);
  const upstream = optionalShared(t, SHARED.ahpCorpus);
  const dirs = [join(REPO_DIR, 'conformance/ahp'), join(REPO_DIR, 'examples/ahp'), ...(upstream ? [upstream] : [])];
  const values = dirs
    .flatMap(filesUnder)
    .filter((f) => /\.jsonl?$/.test(f) && !f.endsWith('.expected.json'))
    .flatMap(jsonValuesOf)
    .filter(isObj);
  assert.ok(values.length > 300, `${values.length} messages`);
  const types = [...ahpEventTypes(), 'x.acme.thing.done'];
  const own = new Map<string, number>();
  const seen = new Set<string>();
  for (const value of values) {
    const text = JSON.stringify(value);
    if (seen.has(text)) continue;
    seen.add(text);
    const variants = [value, ...types.map((t) => withType(value, t))];
    for (const v of variants) {
      if (!v) continue;
      const msg = staged(v);
      const type = ruleType(msg);
      for (const rule of gated) {
        const reports: unknown[] = [];
        rule.check(msg, { report: (r) => void reports.push(r) });
        if (typeof type === 'string' && rule.types!.includes(type))
          own.set(rule.id, (own.get(rule.id) ?? 0) + reports.length);
        else if (reports.length > 0)
          assert.fail(`${rule.id} reported on a message of type ${String(type)}: ${msg.text}`);
      }
    }
  }
  for (const rule of gated) assert.ok((own.get(rule.id) ?? 0) > 0, `${rule.id} finds something on its own types`);
});

test('Engine.eventRulesOf: the rules of eventRulesFor for a named type, the untyped ones for any other or none', () => {
  const engine = new Engine<AhpMessage, undefined, undefined>(
    AHP_EVENT_RULES,
    [],
    { state: undefined, observe: () => undefined },
    () => {},
  );
  const ids = (l: readonly { rule: { id: string } }[]) => l.map((e) => e.rule.id);
  for (const t of [...ahpEventTypes(), 'x.acme.thing.done', ''])
    assert.deepEqual(ids(engine.eventRulesOf(t)), ids(engine.eventRulesFor(t)), t);
  const untyped = AHP_EVENT_RULES.filter((r) => r.types === undefined).map((r) => r.id);
  for (const t of [undefined, 7, null, {}]) assert.deepEqual(ids(engine.eventRulesOf(t)), untyped);
  const one = new Engine<AhpMessage, undefined, undefined>(
    AHP_EVENT_RULES,
    [],
    { state: undefined, observe: () => undefined },
    () => {},
    new Set(['ahp/attention-shape']),
  );
  assert.deepEqual(ids(one.eventRulesOf('user.attention')), ['ahp/attention-shape']);
  assert.deepEqual(ids(one.eventRulesOf('tool.before')), []);
});
