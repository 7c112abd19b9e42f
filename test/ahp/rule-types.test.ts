/**
 * AHP per-event rules that name their `types` (src/core/rule.ts) may be left out for messages whose event has another
 * type, or no string type, or no event at all (Engine.eventRulesFor): each must report nothing for such a message.
 * Every message of the conformance cases, the examples and the upstream corpus is checked as it is and with its
 * event's `type` set to each AHP event type, a vendor type and a few non-strings in turn, through the message-schema
 * stage (which parses an elicitation body only for the elicitation types); a rule's own types must still find
 * something, so a list cannot be emptied unseen.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { parseLine } from '../../src/core/pipeline.ts';
import type { AhpMessage } from '../../src/ahp/message.ts';
import { AHP_EVENT_RULES } from '../../src/ahp/rules/index.ts';
import { resolveRoot, schemaStage } from '../../src/ahp/schema/stage.ts';
import { ahpEventTypes } from '../../src/ahp/schema/schemas.ts';
import { AHP_CORPUS_DIR, REPO_DIR, filesUnder, jsonValuesOf } from './helpers.ts';

const WIRE = resolveRoot('message');

/** `value` as the driver's per-event rules see it: parsed from its text and through the message-schema stage. */
function messageOf(value: unknown): AhpMessage | undefined {
  const text = JSON.stringify(value);
  const ev = parseLine(
    { source: 'rule-types.jsonl', line: 1, byteOffset: 0, text, byteLength: text.length, unterminated: false },
    () => {},
  );
  if (!ev) return undefined;
  schemaStage(ev, WIRE);
  return ev as AhpMessage;
}

/** `value` with the type of its `params.event` set to `type` (deleted when undefined). */
function retyped(value: Record<string, unknown>, type: unknown): Record<string, unknown> {
  const copy = structuredClone(value) as { params: { event: Record<string, unknown> } };
  if (type === undefined) delete copy.params.event.type;
  else copy.params.event.type = type;
  return copy;
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

test('AHP per-event rule types: a rule reports nothing for a message of another type, and something for its own', () => {
  const gated = AHP_EVENT_RULES.filter((r) => r.types !== undefined);
  assert.ok(gated.length >= 11, `${gated.length} rules name types`);
  const dirs = [join(REPO_DIR, 'conformance/ahp'), join(REPO_DIR, 'examples/ahp'), AHP_CORPUS_DIR].filter(existsSync);
  // each distinct message once (cases repeat their setup lines)
  const texts = new Set(
    dirs
      .flatMap(filesUnder)
      .filter((p) => p.endsWith('.jsonl') || (p.endsWith('.json') && !p.endsWith('.expected.json')))
      .flatMap(jsonValuesOf)
      .filter(isObject)
      .map((v) => JSON.stringify(v)),
  );
  const values = [...texts].map((t) => JSON.parse(t) as Record<string, unknown>);
  assert.ok(values.length > 300, `${values.length} messages`);
  const types: unknown[] = [...ahpEventTypes(), 'x.acme.thing.done', 42, null, undefined];
  const own = new Map<string, number>(gated.map((r) => [r.id, 0]));
  const check = (msg: AhpMessage, what: string) => {
    const type = msg.event?.type;
    for (const rule of gated) {
      const reports: unknown[] = [];
      rule.check(msg, { report: (r) => void reports.push(r) });
      if (typeof type === 'string' && rule.types!.includes(type)) own.set(rule.id, own.get(rule.id)! + reports.length);
      else assert.deepEqual(reports, [], `${rule.id} reported on ${what}`);
    }
  };
  for (const value of values) {
    const msg = messageOf(value);
    if (msg) check(msg, JSON.stringify(value));
    if (!isObject(value.params) || !isObject(value.params.event)) continue;
    for (const type of types) {
      const m = messageOf(retyped(value, type));
      if (m) check(m, `${String(type)}: ${JSON.stringify(value)}`);
    }
  }
  for (const [id, n] of own) assert.ok(n > 0, `${id} finds something on its own types`);
});
