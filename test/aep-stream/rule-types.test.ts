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

function asEvent(value: Record<string, unknown>, type: string, capture: AepCaptureLevel): AepEvent {
  const v = { ...value, type, capture };
  const text = JSON.stringify(v);
  return {
    source: 'rule-types.jsonl',
    line: 1,
    byteOffset: 0,
    text,
    value: v,
    duplicates: [],
    bigIntegers: [],
    type,
    capture,
    payloadValid: true,
    registered: true,
    // as the schema stage marks them under --profile aep-0007 (src/aep/schema/check.ts)
    ...(isSubprofileType(type) ? { subprofile: true as const } : {}),
  };
}

test('per-event rule types: a rule reports nothing for the types it leaves out, and something for its own', (t) => {
  const upstream = optionalShared(t, SHARED.aepCorpus);
  const gated = AEP_EVENT_RULES.filter((r) => r.types !== undefined);
  assert.ok(gated.length >= 6, `${gated.length} rules name types`);
  const events = values([join(ROOT, 'conformance/aep'), join(ROOT, 'examples/aep'), ...(upstream ? [upstream] : [])]);
  assert.ok(events.length > 300, `${events.length} events`);
  const others = [...knownAepTypes(), ...STREAM_TYPES, 'x.acme.thing.done', 'x.acme.control.do'];
  const captures: AepCaptureLevel[] = ['none', 'metadata', 'redacted', 'full'];
  for (const rule of gated) {
    let own = 0;
    for (const value of events)
      for (const capture of captures)
        for (const type of [value.type as string, ...others]) {
          const reports: unknown[] = [];
          rule.check(asEvent(value, type, capture), { report: (r) => void reports.push(r) });
          if (rule.types!.includes(type)) own += reports.length;
          else assert.deepEqual(reports, [], `${rule.id} reported on ${type}: ${JSON.stringify(value)}`);
        }
    assert.ok(own > 0, `${rule.id} finds something on its own types`);
  }
});
