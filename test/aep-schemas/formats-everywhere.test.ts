/**
 * Every RFC 3339 `date-time` and RFC 3986 `uri` in our AEP schemas gets the strict verdict of
 * src/core/schema/formats.ts through the whole pipeline (envelope `time` and `source`, payload
 * `expires_at`, and any location added later): the test enumerates the `format` locations of
 * the envelope and every payload schema, and fails on a location without a base event below.
 * A time- or URI-named member without `format` must be one the spec types as a plain string.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadAepSchemas } from '../../src/aep/schema/registry.ts';
import { STRICT_FORMATS } from '../../src/core/schema/formats.ts';
import { checkText, jsonl, brief } from '../aep-stream/helpers.ts';

type Json = Record<string, unknown>;

/** `[schema, instance pointer, node]` for every subschema reachable through properties/items. */
function* locations(node: unknown, ptr: string): Generator<[string, Json]> {
  if (typeof node !== 'object' || node === null || Array.isArray(node)) return;
  const n = node as Json;
  yield [ptr, n];
  if (n.properties) for (const [k, v] of Object.entries(n.properties as Json)) yield* locations(v, `${ptr}/${k}`);
  if (n.items) yield* locations(n.items, `${ptr}/0`);
  if (n.additionalProperties && typeof n.additionalProperties === 'object')
    yield* locations(n.additionalProperties, `${ptr}/any`);
  for (const key of ['allOf', 'anyOf', 'oneOf'])
    for (const s of (n[key] as unknown[] | undefined) ?? []) yield* locations(s, ptr);
  for (const key of ['if', 'then', 'else']) if (n[key]) yield* locations(n[key], ptr);
}

/** Every `format` location: `envelope:/time`, `attention.requested:/data/expires_at`, ... */
function formatLocations(): Map<string, string> {
  const s = loadAepSchemas();
  const out = new Map<string, string>();
  for (const [p, n] of locations(s.envelope, '')) if (typeof n.format === 'string') out.set(`envelope:${p}`, n.format);
  for (const t of s.registry.types) {
    const schema = s.payload(t.type);
    if (!schema) continue;
    for (const [p, n] of locations(schema, '/data'))
      if (typeof n.format === 'string') out.set(`${t.type}:${p}`, n.format);
  }
  return out;
}

const SRC = 'aep://fmt-host/agent/demo/session/s_fmt';
/** A valid event for each format location, and the rule a bad value there is reported under. */
const BASES: Record<string, { event: Json; rule: string }> = {
  'envelope:/time': {
    event: { aep: '0.1', id: 'f1', type: 'agent.heartbeat', time: '2026-11-30T10:00:00Z', source: SRC, agent: 'demo' },
    rule: 'aep/time-format',
  },
  'envelope:/source': {
    event: { aep: '0.1', id: 'f1', type: 'agent.heartbeat', time: '2026-11-30T10:00:00Z', source: SRC, agent: 'demo' },
    rule: 'aep/source-uri',
  },
  'attention.requested:/data/expires_at': {
    event: {
      aep: '0.1',
      id: 'f1',
      type: 'attention.requested',
      time: '2026-11-30T10:00:00Z',
      source: SRC,
      agent: 'demo',
      session: 's_fmt',
      seq: 0,
      data: { kind: 'input', prompt: 'demo requests input' },
    },
    rule: 'aep/payload-schema',
  },
  // AEP-0002 §5.2 cost.currency: an ISO 4217 code in force (format iso4217)
  ...Object.fromEntries(
    (
      [
        ['run.started', { run: 'r1' }],
        ['run.finished', { run: 'r1' }],
        ['tool.completed', { tool: { name: 'grep' } }],
      ] as const
    ).map(([type, extra]) => [
      `${type}:/data/cost/currency`,
      {
        event: {
          aep: '0.1',
          id: 'f1',
          type,
          time: '2026-11-30T10:00:00Z',
          source: SRC,
          agent: 'demo',
          session: 's_fmt',
          seq: 0,
          ...('run' in extra ? { run: extra.run } : {}),
          data: { ...('tool' in extra ? { tool: extra.tool } : {}), cost: { currency: 'USD' } },
        },
        rule: 'aep/cost-currency',
      },
    ]),
  ),
};

/** Probes per format: RFC 3339 §5.6 / RFC 3986 §3 verdicts (the cases and their neighbours). */
const PROBES: Record<string, { good: string[]; bad: string[] }> = {
  'date-time': {
    good: [
      '2026-11-30T10:00:00Z',
      '2026-11-30T10:00:00-00:00',
      '2026-11-30T10:00:00+05:30',
      '2026-11-30t10:00:00z',
      '2026-11-30T10:00:00.5+23:59',
      '2026-06-30T23:59:60Z',
    ],
    bad: [
      '2026-11-30T10:00:00+0530',
      '2026-11-30T10:00:00+05',
      '2026-11-30T10:00:00-0000',
      '2026-11-30\t10:00:00Z',
      '2026-11-30\n10:00:00Z',
      '2026-11-30\u200310:00:00Z',
      '2026-11-30 10:00:00Z',
      '2026-11-30T10:00:00',
      '2026-11-30T10:00Z',
      '2026-02-30T10:00:00Z',
      '2026-11-30T10:00:00+24:00',
      '2026-11-30T10:00:60Z',
      ' 2026-11-30T10:00:00Z',
      '2026-11-30T10:00:00.Z',
    ],
  },
  iso4217: {
    good: ['USD', 'EUR', 'JPY', 'CHF', 'GBP'],
    bad: ['ABC', 'usd', 'US', 'USDD', 'ZZZ', 'XXX', ''],
  },
  uri: {
    good: [
      'aep:',
      'a:',
      'aep://h/',
      'aep://h:/',
      'aep://h:8080/p',
      'aep://u:p@h/',
      'aep://[::1]/x',
      'aep://[v7.a:b]/',
      'urn:x:y',
      'aep:/p?q#f',
      'aep://h/%41',
      'a+b-c.d:x',
    ],
    bad: [
      'aep://h:abc/',
      'aep://h:-1/',
      'aep://a@b@c/',
      'aep://h/a b',
      'aep://h/%g1',
      'aep://h/%4',
      '1a:',
      ':x',
      'aep',
      '/relative',
      'aep://[::1/',
      'aep://h/\u00e9',
      'aep://h/\t',
      'aep://[1::2::3]/',
    ],
  },
};

test('the probes say what RFC 3339 §5.6 and RFC 3986 §3 say', () => {
  for (const [format, { good, bad }] of Object.entries(PROBES)) {
    const f = STRICT_FORMATS[format as keyof typeof STRICT_FORMATS];
    for (const g of good) assert.equal(f(g), true, `${format} ${JSON.stringify(g)}`);
    for (const b of bad) assert.equal(f(b), false, `${format} ${JSON.stringify(b)}`);
  }
});

test('every format location of our AEP schemas has a base event here (a new location must be added)', () => {
  const locs = formatLocations();
  assert.deepEqual([...locs.keys()].sort(), Object.keys(BASES).sort());
  for (const format of locs.values()) assert.ok(format in PROBES, format);
});

test('time- and URI-named members without a format are those the spec types as plain strings', () => {
  // AEP-0002 §5.2 citation `source.uri?: string [redacted]`; §5.4 progress.artifact.produced `uri?: string [redacted]`
  const PLAIN = new Set([
    'resource.citation.recorded:/data/citations/0/source/uri',
    'progress.artifact.produced:/data/artifact/uri',
  ]);
  const s = loadAepSchemas();
  const found: string[] = [];
  const scan = (name: string, schema: unknown, base: string) => {
    for (const [p, n] of locations(schema, base)) {
      const member = p.slice(p.lastIndexOf('/') + 1);
      if (
        /^(time|.*_at|.*_time|timestamp|uri|url|href)$/.test(member) &&
        n.type === 'string' &&
        typeof n.format !== 'string'
      )
        found.push(`${name}:${p}`);
    }
  };
  scan('envelope', s.envelope, '');
  for (const t of s.registry.types) if (s.payload(t.type)) scan(t.type, s.payload(t.type), '/data');
  assert.deepEqual(found.sort(), [...PLAIN].sort());
});

/** Put `value` at `pointer` (object members only; `/0` of an array) in a copy of `event`. */
function withValue(event: Json, pointer: string, value: string): Json {
  const copy = structuredClone(event);
  const tokens = pointer.slice(1).split('/');
  let at: Json = copy;
  for (const t of tokens.slice(0, -1)) at = (at[t] ??= {}) as Json;
  at[tokens[tokens.length - 1]!] = value;
  return copy;
}

test('every format location gives the strict verdict through the whole pipeline', async () => {
  for (const [loc, format] of formatLocations()) {
    const { event, rule } = BASES[loc]!;
    const pointer = loc.slice(loc.indexOf(':') + 1);
    const { good, bad } = PROBES[format]!;
    const text = jsonl(
      [...good, ...bad].map((v, i) =>
        withValue({ ...event, id: `f${i}`, ...(typeof event.seq === 'number' ? { seq: i } : {}) }, pointer, v),
      ),
    );
    const findings = (await checkText(text)).filter((f) => f.pointer === pointer);
    const lines = findings.map((f) => f.line);
    const expected = bad.map((_, i) => good.length + i + 1);
    assert.deepEqual(lines, expected, `${loc}: ${brief(findings)}`);
    for (const f of findings) {
      assert.equal(f.ruleId, rule, loc);
      assert.equal(f.severity, 'error', loc);
      // never a raw control or invisible character in a message
      assert.doesNotMatch(f.message, /[\u0000-\u001f\u2003]/, loc);
    }
  }
});
