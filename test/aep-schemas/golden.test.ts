/**
 * Every line of the upstream golden corpus is a valid envelope and, when it has `data` and a
 * registered type, a valid payload (AEP-0001 §5, AEP-0002 §5).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CORPUS_DIR, NO_CORPUS, compileAll, corpusPresent, validateEvent } from './helpers.ts';

test('golden.jsonl: every line validates against the envelope and its payload schema', (t) => {
  if (!corpusPresent()) {
    t.skip(NO_CORPUS);
    return;
  }
  const c = compileAll();
  const lines = readFileSync(join(CORPUS_DIR, 'golden/golden.jsonl'), 'utf8').split('\n').filter((l) => l.trim() !== '');
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
