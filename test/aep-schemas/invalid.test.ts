/**
 * The single-event cases of the upstream invalid corpus that are about the envelope or the
 * payload fail against the schema named here. The multi-event cases (`events`) are stream
 * rules, not schema facts, and are out of scope for this suite.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CORPUS_DIR, compileAll, showErrors } from './helpers.ts';
import { needShared, SHARED } from '../shared.ts';

type Which = 'envelope' | 'payload';

/** Case name -> the schema that must reject it (and the instance path its error must mention). */
const TABLE: Record<string, { schema: Which; path: string }> = {
  'session-scoped without session': { schema: 'envelope', path: '' },
  'session-scoped without seq': { schema: 'envelope', path: '' },
  'agent-scoped with session': { schema: 'envelope', path: '/session' },
  'agent-scoped with seq': { schema: 'envelope', path: '/seq' },
  'command with seq': { schema: 'envelope', path: '/seq' },
  'attention.routed with seq': { schema: 'envelope', path: '/seq' },
  'single-segment type': { schema: 'envelope', path: '/type' },
  'unknown category': { schema: 'envelope', path: '/type' },
  'uppercase in type': { schema: 'envelope', path: '/type' },
  'vendor type too short (x.vendor.verb)': { schema: 'envelope', path: '/type' },
  'extension attribute name over 20 chars': { schema: 'envelope', path: '' },
  'extension attribute with object value': { schema: 'envelope', path: '/acmemeta' },
  'extension attribute name with illegal charset': { schema: 'envelope', path: '' },
  'unknown severity': { schema: 'envelope', path: '/severity' },
  'malformed traceparent': { schema: 'envelope', path: '/traceparent' },
  'unsupported envelope version': { schema: 'envelope', path: '/aep' },
  'negative seq': { schema: 'envelope', path: '/seq' },
  'form select field without choices': { schema: 'payload', path: '/fields/0' },
  'agent.presence with an unregistered state': { schema: 'payload', path: '/state' },
  'agent.presence missing the required state': { schema: 'payload', path: '' },
  'agent.health with an unregistered status': { schema: 'payload', path: '/status' },
  'session.compacted with a non-integer token count': { schema: 'payload', path: '/estimated_token_count' },
  'state.delta with a non-array delta': { schema: 'payload', path: '/delta' },
  'run.finished cost missing the required currency': { schema: 'payload', path: '/cost' },
  'tool.completed cost total is a string (amounts are numbers, not bare-float strings)': {
    schema: 'payload',
    path: '/cost/total',
  },
};

interface Case {
  name: string;
  rule: string;
  event?: { type?: unknown; data?: unknown };
  events?: unknown[];
}

test('invalid/cases.json: every single-event case fails against the schema the table names', async (t) => {
  if (!needShared(t, SHARED.aepCorpus)) return;
  const c = compileAll();
  const { cases } = JSON.parse(readFileSync(join(CORPUS_DIR, 'invalid/cases.json'), 'utf8')) as { cases: Case[] };
  const single = cases.filter((k) => k.event !== undefined);
  // The table covers exactly the corpus's single-event cases: a new upstream case must be classified here.
  assert.deepEqual(single.map((k) => k.name).sort(), Object.keys(TABLE).sort());
  for (const k of single) {
    await t.test(k.name, () => {
      const want = TABLE[k.name]!;
      const ev = k.event!;
      if (want.schema === 'envelope') {
        assert.equal(c.envelope(ev), false, `the envelope schema accepted it (${k.rule})`);
        const paths = (c.envelope.errors ?? []).map((e) => e.instancePath);
        assert.ok(paths.includes(want.path), `no envelope error at "${want.path}": ${showErrors(c.envelope.errors)}`);
      } else {
        // a payload case is a valid envelope whose data fails its type's payload schema
        assert.equal(c.envelope(ev), true, `envelope unexpectedly invalid: ${showErrors(c.envelope.errors)}`);
        const v = c.payload(String(ev.type));
        assert.ok(v, `no payload schema for ${String(ev.type)}`);
        assert.equal(v(ev.data), false, `the payload schema accepted it (${k.rule})`);
        const paths = (v.errors ?? []).map((e) => e.instancePath);
        assert.ok(paths.includes(want.path), `no payload error at "${want.path}": ${showErrors(v.errors)}`);
      }
    });
  }
});

test('invalid/cases.json: multi-event (stream) cases are schema-valid line by line', async (t) => {
  if (!needShared(t, SHARED.aepCorpus)) return;
  // These fail only through cross-event rules; if the schemas rejected a line, the schema would
  // be stricter than the spec (or the case would not be testing what it says).
  const c = compileAll();
  const { cases } = JSON.parse(readFileSync(join(CORPUS_DIR, 'invalid/cases.json'), 'utf8')) as { cases: Case[] };
  for (const k of cases.filter((x) => x.events !== undefined)) {
    for (const [i, ev] of k.events!.entries()) {
      assert.equal(c.envelope(ev), true, `${k.name} [${i}]: ${showErrors(c.envelope.errors)}`);
      const e = ev as { type: string; data?: unknown };
      const v = c.payload(e.type);
      if (v && e.data !== undefined) assert.equal(v(e.data), true, `${k.name} [${i}]: ${showErrors(v.errors)}`);
    }
  }
});
