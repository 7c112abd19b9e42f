/**
 * Per-event rules that name their `types` (src/core/rule.ts) are left out for other types by the AEP checker
 * (src/aep/protocol.ts): each must report nothing for an event of any other type. Every conformance and example event
 * (and every upstream corpus event) is given each registered type and each vendor type in turn; a rule's own types must
 * still find something, so a list cannot be emptied unseen.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { AepEvent } from '../../src/aep/event.ts';
import { isSubprofileType, STREAM_TYPES } from '../../src/aep/subprofile.ts';
import { AEP_EVENT_RULES } from '../../src/aep/rules/index.ts';
import { knownAepTypes } from '../../src/aep/schema/validators.ts';
import type { AepCaptureLevel } from '../../src/aep/schema/registry.ts';
import { eventsOfFile, jsonFiles } from '../aep-schemas/helpers.ts';
import { optionalShared, SHARED } from '../shared.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

function values(dirs: string[]): Record<string, unknown>[] {
  return dirs
    .filter(existsSync)
    .flatMap(jsonFiles)
    .flatMap((p) => eventsOfFile(p, (o) => typeof o.type === 'string' && 'data' in o));
}

/**
 * `value` given `type` and `capture`, as the schema stage leaves it for the per-event rules. The line's text is made
 * only for a rule that reads it (most do not; making it for every pair was most of this test's time).
 */
class AsEvent {
  readonly source = 'rule-types.jsonl';
  readonly line = 1;
  readonly byteOffset = 0;
  readonly duplicates = [];
  readonly bigIntegers = [];
  readonly payloadValid = true;
  readonly registered = true;
  readonly value: Record<string, unknown>;
  // as the schema stage marks them under --profile aep-0007 (src/aep/schema/check.ts)
  readonly subprofile?: true;
  private json: string | undefined;

  constructor(
    value: Record<string, unknown>,
    readonly type: string,
    readonly capture: AepCaptureLevel,
  ) {
    this.value = { ...value, type, capture };
    if (isSubprofileType(type)) this.subprofile = true;
  }

  get text(): string {
    this.json ??= JSON.stringify(this.value);
    return this.json;
  }
}

test('per-event rule types: a rule reports nothing for the types it leaves out, and something for its own', (t) => {
  const upstream = optionalShared(t, SHARED.aepCorpus);
  const gated = AEP_EVENT_RULES.filter((r) => r.types !== undefined);
  assert.ok(gated.length >= 6, `${gated.length} rules name types`);
  const events = values([join(ROOT, 'conformance/aep'), join(ROOT, 'examples/aep'), ...(upstream ? [upstream] : [])]);
  assert.ok(events.length > 300, `${events.length} events`);
  const others = [...knownAepTypes(), ...STREAM_TYPES, 'x.acme.thing.done', 'x.acme.control.do'];
  const captures: AepCaptureLevel[] = ['none', 'metadata', 'redacted', 'full'];
  const own = new Map(gated.map((r) => [r, 0]));
  let reports = 0;
  const context = { report: () => void reports++ };
  for (const value of events)
    for (const capture of captures)
      for (const type of [value.type as string, ...others]) {
        const ev = new AsEvent(value, type, capture) as unknown as AepEvent;
        for (const rule of gated) {
          reports = 0;
          rule.check(ev, context);
          if (rule.types!.includes(type)) own.set(rule, own.get(rule)! + reports);
          else if (reports > 0) assert.fail(`${rule.id} reported on ${type}: ${JSON.stringify(value)}`);
        }
      }
  for (const [rule, n] of own) assert.ok(n > 0, `${rule.id} finds something on its own types`);
});
