/**
 * Every line of the upstream golden corpus is a valid envelope and, when it has `data` and a
 * registered type, a valid payload (AEP-0001 §5, AEP-0002 §5); so are the AEP events pinned by
 * the CE inbound cases and the forms and answers of the capture-gating cases.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CORPUS_DIR, compileAll, showErrors, validateEvent } from './helpers.ts';
import { needShared, SHARED } from '../shared.ts';

test('golden.jsonl: every line validates against the envelope and its payload schema', (t) => {
  if (!needShared(t, SHARED.aepCorpus)) return;
  const c = compileAll();
  const lines = readFileSync(join(CORPUS_DIR, 'golden/golden.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '');
  assert.ok(lines.length >= 64, `expected at least 64 golden lines, got ${lines.length}`);
  let payloadsChecked = 0;
  for (const [i, line] of lines.entries()) {
    const event = JSON.parse(line) as { type: string; data?: unknown };
    const r = validateEvent(c, event);
    assert.ok(r.envelope && r.payload !== false, `golden line ${i + 1} (${event.type}): ${r.errors}`);
    if (r.payload) payloadsChecked++;
    // registered or vendor: every golden type is emitter-legal
    const registered = c.schemas.registry.types.some((row) => row.type === event.type);
    assert.ok(registered || event.type.startsWith('x.'), `golden line ${i + 1}: unregistered core type ${event.type}`);
  }
  assert.ok(payloadsChecked >= 55, `only ${payloadsChecked} payloads were checked`);
});

test('ce-roundtrip/inbound-cases.json: every expected AEP event is envelope- and payload-valid', (t) => {
  if (!needShared(t, SHARED.aepCorpus)) return;
  const c = compileAll();
  const { cases } = JSON.parse(readFileSync(join(CORPUS_DIR, 'ce-roundtrip/inbound-cases.json'), 'utf8')) as {
    cases: { name: string; expected: unknown }[];
  };
  assert.ok(cases.length > 0);
  for (const k of cases) {
    const r = validateEvent(c, k.expected);
    assert.ok(r.envelope && r.payload !== false, `${k.name}: ${r.errors}`);
  }
});

test('capture-gating/cases.json: every form is a valid attention.requested payload and every values map a valid answer', (t) => {
  if (!needShared(t, SHARED.aepCorpus)) return;
  const c = compileAll();
  const requested = c.payload('attention.requested')!;
  const answered = c.payload('attention.answered')!;
  const { cases } = JSON.parse(readFileSync(join(CORPUS_DIR, 'capture-gating/cases.json'), 'utf8')) as {
    cases: { name: string; fields: unknown[]; values: unknown; expect: unknown }[];
  };
  assert.ok(cases.length > 0);
  for (const k of cases) {
    assert.equal(
      requested({ kind: 'form', prompt: 'p', fields: k.fields }),
      true,
      `${k.name}: ${showErrors(requested.errors)}`,
    );
    for (const values of [k.values, k.expect]) {
      assert.equal(answered({ answer: { values } }), true, `${k.name}: ${showErrors(answered.errors)}`);
    }
  }
});
