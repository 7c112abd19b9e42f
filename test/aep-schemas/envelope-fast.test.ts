/**
 * The envelope fast path (src/aep/schema/envelope-fast.ts) against the generated envelope validator: it may only say
 * "surely valid" where the validator says valid, over every conformance case, the examples, generated bench events,
 * the upstream corpus and one-member mutations of each (delete, change the type, add).
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { generateAep } from '../../tools/bench/generate-aep.ts';
import { isUri } from '../../src/core/schema/formats.ts';
import {
  ENVELOPE_PRINT,
  envelopeFastOn,
  envelopePrint,
  envelopeSurelyValid,
  plainUri,
} from '../../src/aep/schema/envelope-fast.ts';
import { envelopeValidator } from '../../src/aep/schema/validators.ts';
import { typeInfo } from '../../src/aep/schema/type-info.ts';
import { CORPUS_DIR, eventsOfFile, jsonFiles } from './helpers.ts';
import { needShared, SHARED } from '../shared.ts';
import { tempDir } from '../temp.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Objects that look like an event (have `aep`, or `id` and `type`). */
const eventsOf = (path: string) => eventsOfFile(path, (o) => 'aep' in o || ('id' in o && 'type' in o));

const VALUES: unknown[] = [null, 0, -1, 1.5, 2 ** 53, Infinity, '', 'x', 'aep://h/a', 'not a uri', true, [], {}];
const TYPES = [
  'agent.heartbeat',
  'control.cancel',
  'control.attention.respond',
  'x.acme.control.do',
  'attention.routed',
  'x.acme.thing.y',
  'tool.requested',
  'Tool.bad',
  'agent',
];
const KEYS = ['zz', 'ext1', 'BadKey', 'a'.repeat(21), 'session', 'seq', 'run', 'step', 'data', 'traceparent', 'epoch'];
const ADDED: unknown[] = [
  'v',
  1,
  -1,
  1.5,
  true,
  null,
  {},
  [],
  '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01',
];

/** The event and its one-member mutations. */
function* mutations(ev: Record<string, unknown>): Generator<unknown> {
  yield ev;
  for (const k of Object.keys(ev)) {
    const { [k]: _, ...rest } = ev;
    yield rest;
    for (const x of k === 'type' ? [...VALUES, ...TYPES] : VALUES) yield { ...ev, [k]: x };
  }
  for (const k of KEYS) for (const x of ADDED) yield { ...ev, [k]: x };
}

function check(events: Record<string, unknown>[], label: string): { fast: number; total: number } {
  const ajv = envelopeValidator();
  let fast = 0;
  let total = 0;
  for (const ev of events)
    for (const v of mutations(ev)) {
      total++;
      const type = (v as Record<string, unknown>).type;
      // the branch a caller passes from the type's info decides as the fast path's own lookup
      if (typeof type === 'string')
        assert.equal(envelopeSurelyValid(v, typeInfo(type).branch), envelopeSurelyValid(v), `${label}: ${type}`);
      if (!envelopeSurelyValid(v)) continue;
      fast++;
      if (!ajv(v)) assert.fail(`${label}: fast path accepts an envelope the schema rejects: ${JSON.stringify(v)}`);
    }
  return { fast, total };
}

test('envelope fast path: on, for the envelope schema it was written against (ENVELOPE_PRINT)', () => {
  // an edit of schemas/aep/envelope.schema.json turns the path off: read envelope-fast.ts against the new schema (its
  // patterns, members and allOf branches), then set ENVELOPE_PRINT to the print below
  assert.equal(
    envelopePrint(),
    ENVELOPE_PRINT,
    `schemas/aep/envelope.schema.json changed: re-read envelope-fast.ts, then ENVELOPE_PRINT = 0x${envelopePrint().toString(16)}`,
  );
  assert.ok(envelopeFastOn());
});

test('envelope fast path: never accepts what the schema rejects (conformance cases, examples, mutations)', () => {
  const events = [...jsonFiles(join(ROOT, 'conformance/aep')), ...jsonFiles(join(ROOT, 'examples/aep'))].flatMap(
    eventsOf,
  );
  assert.ok(events.length > 500, `${events.length} events`);
  const r = check(events, 'conformance');
  assert.ok(r.fast > 1000 && r.fast < r.total, `${r.fast} of ${r.total} on the fast path`);
});

test('envelope fast path: every generated bench event takes it; no mutation of one is wrongly accepted', (t) => {
  const dir = tempDir(t, 'envelope-fast-');
  const path = join(dir, 'aep.jsonl');
  generateAep(path, { events: 3000, concurrency: 40, seed: 7 });
  const events = eventsOf(path).filter((e) => 'aep' in e);
  assert.equal(events.length, 3000);
  // the path answers once the print is read (before, the first PRINT_AFTER envelopes go to the validator)
  assert.ok(envelopeFastOn());
  for (const ev of events) assert.equal(envelopeSurelyValid(ev), true, JSON.stringify(ev));
  check(events.slice(0, 400), 'bench');
});

test('envelope fast path: the upstream corpus and its mutations', (t) => {
  if (!needShared(t, SHARED.aepCorpus)) return;
  const events = jsonFiles(CORPUS_DIR).flatMap(eventsOf);
  assert.ok(events.length > 50, `${events.length} events`);
  check(events, 'upstream');
});

test('plainUri: only ever true for an RFC 3986 URI (every string of 1-4 units over a URI-edge alphabet, sources, mutations)', () => {
  const alphabet = ['a', 'Z', '0', '+', '-', '.', '_', '~', '/', ':', '@', '?', '#', '%', '[', ']', ' ', 'é', '\u0141'];
  const strings: string[] = [''];
  for (let len = 1, level = ['']; len <= 4; len++) {
    level = level.flatMap((p) => alphabet.map((c) => p + c));
    for (const x of level) strings.push(x);
  }
  const sources = [...jsonFiles(join(ROOT, 'conformance/aep')), ...jsonFiles(join(ROOT, 'examples/aep'))]
    .flatMap(eventsOf)
    .map((e) => e.source)
    .filter((s): s is string => typeof s === 'string');
  for (const s of sources)
    for (let i = 0; i <= s.length; i++) for (const c of alphabet) strings.push(s.slice(0, i) + c + s.slice(i));
  let plain = 0;
  for (const s of [...strings, ...sources]) {
    if (!plainUri(s)) continue;
    plain++;
    assert.equal(isUri(s), true, `plainUri accepts ${JSON.stringify(s)}, which is no URI`);
  }
  assert.ok(plain > 1000 && sources.some(plainUri), `${plain} plain`);
});
