/**
 * An absent `data` lacks every member its type REQUIRES (AEP-0001 §5.1 #17; AEP-0002 §5.1
 * rule 1): over every registered type and every capture level, an event without `data` gets
 * exactly one `aep/payload-schema` finding per required member gated at or below its capture
 * (none at `capture: none`). The expectation is read from the schema files themselves
 * (`required` and each member's `x-aep-capture`), not from the code under test.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CAPTURE_RANK, scopeOf } from '../../src/aep/event.ts';
import { ENVELOPE_RULES } from '../../src/aep/schema/rules.ts';
import { knownAepTypes, registryEntry, requiredMembers } from '../../src/aep/schema/validators.ts';
import type { AepCaptureLevel } from '../../src/aep/schema/registry.ts';
import { checkText, jsonl } from '../aep-stream/helpers.ts';

const TYPES_DIR = fileURLToPath(new URL('../../schemas/aep/types/', import.meta.url));
const LEVELS: (AepCaptureLevel | undefined)[] = [undefined, 'none', 'metadata', 'redacted', 'full'];

/** `[member, level]` of each top-level member the type's schema file requires. */
function requiredOf(type: string): [string, AepCaptureLevel][] {
  const file = join(TYPES_DIR, `${type}.schema.json`);
  if (!existsSync(file)) return [];
  const s = JSON.parse(readFileSync(file, 'utf8')) as {
    required?: string[];
    properties?: Record<string, { 'x-aep-capture'?: AepCaptureLevel }>;
  };
  return (s.required ?? []).map((m) => [m, s.properties?.[m]?.['x-aep-capture'] ?? 'metadata']);
}

function envelope(type: string, i: number, capture: AepCaptureLevel | undefined): Record<string, unknown> {
  const e: Record<string, unknown> = {
    aep: '0.1',
    id: `ad-${i}`,
    type,
    time: '2026-11-30T12:00:00Z',
    source: `aep://unit-host/agent/unit/session/ad_${i}`,
    agent: 'unit',
  };
  const scope = scopeOf(type);
  if (scope !== 'agent') e.session = `ad_${i}`;
  if (scope === 'session') e.seq = 0;
  if (capture !== undefined) e.capture = capture;
  return e;
}

test('an event without data is refused for each required member at or below its capture, over every type and level', async () => {
  const types = knownAepTypes().filter((t) => registryEntry(t)?.status !== 'reserved');
  const events: Record<string, unknown>[] = [];
  const want: string[] = [];
  let withRequired = 0;
  for (const type of types) {
    const req = requiredOf(type);
    if (req.length) withRequired++;
    for (const capture of LEVELS) {
      events.push(envelope(type, events.length, capture));
      const rank = CAPTURE_RANK[capture ?? 'metadata'];
      for (const [m, level] of req)
        if (rank > 0 && CAPTURE_RANK[level] <= rank) want.push(`${events.length}/data/${m}`);
    }
  }
  assert.ok(withRequired >= 10, `types with required members: ${withRequired}`);
  const got = (await checkText(jsonl(events), { rules: new Set(['aep/payload-schema']) })).map(
    (f) => `${f.line}${f.pointer}`,
  );
  assert.deepEqual(got.sort(), want.sort());
});

test('with data absent the verdict matches data {} at the same capture (the members owed are the same)', async () => {
  const types = knownAepTypes().filter((t) => registryEntry(t)?.status !== 'reserved' && requiredOf(t).length > 0);
  const absent = types.map((t, i) => envelope(t, i, 'full'));
  const empty = types.map((t, i) => ({ ...envelope(t, i, 'full'), data: {} }));
  const key = async (evs: Record<string, unknown>[]) =>
    (await checkText(jsonl(evs), { rules: new Set(['aep/payload-schema']) })).map(
      (f) => `${f.ruleId}@${f.line}${f.pointer}`,
    );
  assert.deepEqual(await key(absent), await key(empty));
});

test('the absent-payload template belongs to exactly the rules a required member names (`aep explain` lists no other)', () => {
  const naming = new Set<string>();
  for (const t of knownAepTypes()) for (const m of requiredMembers(t)) naming.add(m.finding.ruleId);
  assert.ok(naming.size > 0);
  const having = Object.values(ENVELOPE_RULES)
    .filter((r) => r.messages && 'no-data' in r.messages)
    .map((r) => r.id);
  assert.deepEqual(having.sort(), [...naming].sort());
});
