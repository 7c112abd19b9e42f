/**
 * The registry and the schema files agree, every schema compiles under strict ajv 2020, and
 * every schema follows our conventions ($id, title, spec-citing $comment, capture annotations
 * on every payload field, open payloads), and our schemas differ from the upstream registry
 * (AEP-0002 Abstract: authoritative) only as schemas/aep/deviations.json lists, with reasons.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { loadAepSchemas, AEP_SCHEMA_BASE_ID } from '../../src/aep/schema/registry.ts';
import { CAPTURE_ANNOTATIONS, compileAll, createAjv } from './helpers.ts';
import { diffAgainstRegistry, diffSchemaForTest, type SchemaDiff } from './registry-diff.ts';
import { SHARED, sharedAbsent, sharedPath } from '../shared.ts';

const TYPES_DIR = fileURLToPath(new URL('../../schemas/aep/types/', import.meta.url));
const CITATION = /AEP-000\d( §\d+(\.\d+)*)?/;

type Json = Record<string, unknown>;

test('registry lists exactly the types that have a payload schema file, plus the reserved schema-less ones', () => {
  const { registry } = loadAepSchemas();
  const files = readdirSync(TYPES_DIR)
    .filter((f) => f.endsWith('.schema.json'))
    .sort();
  const withSchema = registry.types.filter((t) => t.schema !== null);
  assert.deepEqual(withSchema.map((t) => t.schema).sort(), files);
  for (const t of withSchema) assert.equal(t.schema, `${t.type}.schema.json`, t.type);
  const schemaLess = registry.types.filter((t) => t.schema === null);
  assert.deepEqual(schemaLess.map((t) => t.type).sort(), ['message.agent.replied', 'message.user.submitted']);
  for (const t of schemaLess) assert.equal(t.status, 'reserved', t.type);
  assert.equal(files.length, 44);
  assert.equal(registry.types.length, 46);
});

test('registry counts and scopes follow AEP-0002 §4 and AEP-0004 §2.2', () => {
  const { registry } = loadAepSchemas();
  const count = (f: (t: (typeof registry.types)[number]) => boolean) => registry.types.filter(f).length;
  assert.equal(
    count((t) => t.status === 'mandatory'),
    14,
  );
  assert.equal(
    count((t) => t.status === 'mandatory' && t.scope === 'session'),
    14,
  );
  assert.equal(
    count((t) => t.status === 'optional' && t.scope === 'session'),
    22,
  );
  assert.equal(
    count((t) => t.status === 'optional' && t.scope === 'agent'),
    4,
  );
  assert.equal(
    count((t) => t.status === 'optional' && t.scope === 'command'),
    4,
  );
  assert.equal(
    count((t) => t.status === 'reserved'),
    2,
  );
  for (const t of registry.types) {
    assert.equal(t.scope === 'agent', t.type.startsWith('agent.'), t.type);
    assert.match(t.spec, CITATION, t.type);
    assert.equal(typeof t.summary, 'string');
    assert.equal(t.experimental, /^(resource|assessment|control)\./.test(t.type), t.type);
  }
  const foreign = registry.types
    .filter((t) => t.foreignEmitter)
    .map((t) => t.type)
    .sort();
  assert.deepEqual(foreign, [
    'attention.routed',
    'control.attention.respond',
    'control.cancel',
    'control.pause',
    'control.resume',
  ]);
  assert.deepEqual(
    registry.types
      .filter((t) => t.scope === 'command')
      .map((t) => t.type)
      .sort(),
    foreign.filter((t) => t !== 'attention.routed'),
  );
});

test('registry closed sets agree with the envelope schema and control.rejected', () => {
  const { registry, envelope, payload } = loadAepSchemas();
  const props = (envelope as Json).properties as Record<string, Json>;
  assert.deepEqual(props.capture!.enum, registry.capture.order);
  assert.deepEqual(props.severity!.enum, registry.severity.order);
  assert.equal(props.capture!.default, registry.capture.default);
  assert.equal(props.severity!.default, registry.severity.default);
  const rejected = payload('control.rejected') as Json;
  assert.deepEqual(
    ((rejected.properties as Record<string, Json>).reason!.enum as string[]).slice().sort(),
    registry.nackReasons.reasons.slice().sort(),
  );
  // The 13 categories of AEP-0002 §3 are exactly the alternatives of the core part of the type pattern.
  const pattern = props.type!.pattern as string;
  const alternatives = /^\^\(\(([a-z|]+)\)/.exec(pattern)![1]!.split('|').sort();
  const categories = registry.categories.list
    .filter((c) => c.name !== 'x')
    .map((c) => c.name)
    .sort();
  assert.deepEqual(alternatives, categories);
  assert.equal(categories.length, 13);
  for (const t of registry.types) assert.ok(categories.includes(t.type.split('.')[0]!), t.type);
});

test('the envelope schema and every payload schema compile under strict ajv 2020', () => {
  const { schemas, envelope, payload } = compileAll();
  assert.equal(typeof envelope, 'function');
  for (const t of schemas.registry.types) {
    if (t.schema === null) assert.equal(payload(t.type), undefined);
    else assert.equal(typeof payload(t.type), 'function', t.type);
  }
  // Each file also compiles on its own (no cross-file $ref).
  for (const f of readdirSync(TYPES_DIR)) {
    const ajv = createAjv();
    ajv.compile(JSON.parse(readFileSync(new URL(f, new URL('../../schemas/aep/types/', import.meta.url)), 'utf8')));
  }
});

test('payload schemas carry $schema, $id, title and a spec-citing $comment', () => {
  const s = loadAepSchemas();
  for (const t of s.registry.types) {
    const p = s.payload(t.type) as Json | undefined;
    if (!p) continue;
    assert.equal(p.$schema, 'https://json-schema.org/draft/2020-12/schema', t.type);
    assert.equal(p.$id, `${AEP_SCHEMA_BASE_ID}types/${t.type}.schema.json`, t.type);
    assert.equal(typeof p.title, 'string', t.type);
    assert.match(p.$comment as string, CITATION, t.type);
    assert.equal(p.type, 'object', t.type);
  }
  const env = s.envelope as Json;
  assert.equal(env.$schema, 'https://json-schema.org/draft/2020-12/schema');
  assert.equal(env.$id, `${AEP_SCHEMA_BASE_ID}envelope.schema.json`);
  assert.equal(typeof env.title, 'string');
});

/** Every subschema below the root, with its JSON Pointer-ish path. */
function* subschemas(node: unknown, path: string): Generator<[string, Json]> {
  if (typeof node !== 'object' || node === null || Array.isArray(node)) return;
  const n = node as Json;
  yield [path, n];
  for (const key of ['properties', '$defs']) {
    const m = n[key] as Record<string, unknown> | undefined;
    if (m) for (const [k, v] of Object.entries(m)) yield* subschemas(v, `${path}/${key}/${k}`);
  }
  for (const key of ['items', 'additionalProperties', 'propertyNames', 'if', 'then', 'else', 'not']) {
    if (n[key] !== undefined) yield* subschemas(n[key], `${path}/${key}`);
  }
  for (const key of ['allOf', 'anyOf', 'oneOf']) {
    const a = n[key] as unknown[] | undefined;
    if (a) for (const [i, v] of a.entries()) yield* subschemas(v, `${path}/${key}/${i}`);
  }
}

test('every subschema of the envelope has a $comment citing the spec (boolean `false` leaves: their parent)', () => {
  const env = loadAepSchemas().envelope;
  let n = 0;
  for (const [path, s] of subschemas(env, '')) {
    // the schemas inside an `if` test the type pattern; their parent `if` carries the citation
    if (/\/if\/properties\//.test(path)) continue;
    assert.match(String(s.$comment), CITATION, `envelope${path || '/'} lacks a citing $comment`);
    n++;
  }
  assert.ok(n > 20);
});

test('every payload field, nested object member and array item carries x-aep-capture', () => {
  const s = loadAepSchemas();
  for (const t of s.registry.types) {
    const p = s.payload(t.type);
    if (!p) continue;
    for (const [path, sub] of subschemas(p, '')) {
      if (path === '' || /\/(if|then|else|not|additionalProperties)(\/|$)/.test(path)) continue;
      if (!/\/(properties\/[^/]+|items)$/.test(path)) continue;
      const cap = sub['x-aep-capture'];
      assert.ok(
        (CAPTURE_ANNOTATIONS as readonly unknown[]).includes(cap),
        `${t.type}${path}: x-aep-capture is ${String(cap)}`,
      );
    }
  }
});

test('payload schemas are open: no additionalProperties:false or unevaluatedProperties:false (AEP-0002 §5.4)', () => {
  const s = loadAepSchemas();
  for (const t of s.registry.types) {
    const p = s.payload(t.type);
    if (!p) continue;
    for (const [path, sub] of subschemas(p, '')) {
      assert.notEqual(sub.additionalProperties, false, `${t.type}${path}`);
      assert.notEqual(sub.unevaluatedProperties, false, `${t.type}${path}`);
    }
  }
});

test('loadAepSchemas returns frozen, cached objects and undefined for unregistered or schema-less types', () => {
  const a = loadAepSchemas();
  assert.equal(loadAepSchemas(), a);
  assert.ok(Object.isFrozen(a.envelope));
  assert.ok(Object.isFrozen(a.registry.types[0]));
  assert.ok(Object.isFrozen(a.payload('tool.completed')));
  assert.equal(a.payload('x.acme.tool.ran'), undefined);
  assert.equal(a.payload('message.user.submitted'), undefined);
  assert.equal(a.payload('progress.some_future_member'), undefined);
});

// ---- our schemas against the upstream registry (AEP-0002 Abstract: the registry is authoritative)

const UPSTREAM_SCHEMAS = sharedPath(SHARED.aepSchemas);

interface Deviation {
  schema: string;
  pointer: string;
  kind: SchemaDiff['kind'];
  reason: string;
  check?: 'same-verdicts';
}
const deviations = (
  JSON.parse(readFileSync(new URL('../../schemas/aep/deviations.json', import.meta.url), 'utf8')) as {
    deviations: Deviation[];
  }
).deviations;
const devKey = (d: { schema: string; pointer: string; kind: string }) => `${d.schema} ${d.pointer} ${d.kind}`;

test('deviations.json: each entry names a schema, a JSON Pointer, a kind and a spec-citing reason, once', () => {
  const seen = new Set<string>();
  for (const d of deviations) {
    assert.match(d.pointer, /^(\/[^/]*)*$/, devKey(d));
    assert.ok(['added', 'removed', 'changed'].includes(d.kind), devKey(d));
    assert.match(d.reason, CITATION, devKey(d));
    assert.ok(!seen.has(devKey(d)), `listed twice: ${devKey(d)}`);
    seen.add(devKey(d));
  }
});

test('our AEP schemas differ from the upstream registry only where deviations.json says why', {
  skip: sharedAbsent(SHARED.aepSchemas),
}, () => {
  const diffs = diffAgainstRegistry(UPSTREAM_SCHEMAS);
  const listed = new Set(deviations.map(devKey));
  const unlisted = diffs.filter((d) => !listed.has(devKey(d)));
  assert.deepEqual(
    unlisted.map((d) =>
      `${devKey(d)}: ours ${JSON.stringify(d.ours)}, upstream ${JSON.stringify(d.upstream)}`.slice(0, 400),
    ),
    [],
    'differences from the registry not in schemas/aep/deviations.json',
  );
  const found = new Set(diffs.map(devKey));
  assert.deepEqual(
    deviations.filter((d) => !found.has(devKey(d))).map(devKey),
    [],
    'stale deviations: no longer a difference',
  );
});

test('the semantic diff sees what it must: a dropped required member, a new minimum, a changed capture level, a renamed property', {
  skip: sharedAbsent(SHARED.aepSchemas),
}, () => {
  // the comparator itself, on doctored copies of one upstream schema (never written to disk)
  const up = JSON.parse(readFileSync(`${UPSTREAM_SCHEMAS}/types/tool.completed.schema.json`, 'utf8')) as Json;
  const copy = structuredClone(up) as { required: string[]; properties: Record<string, Json> };
  copy.required = [];
  copy.properties.status!.minLength = 1;
  copy.properties.status!['x-aep-capture'] = 'full';
  copy.properties.state = copy.properties.status!;
  delete copy.properties.status;
  copy.properties.tool!.$comment = 'annotations never count';
  const d = diffSchemaForTest(copy, up)
    .map((x) => `${x.pointer} ${x.kind}`)
    .sort();
  assert.deepEqual(d, ['/properties/state added', '/properties/status removed', '/required removed']);
  const d2 = diffSchemaForTest(
    {
      ...up,
      properties: {
        ...(up.properties as Json),
        status: { ...(up.properties as Record<string, Json>).status, minLength: 1, 'x-aep-capture': 'full' },
      },
    },
    up,
  )
    .map((x) => `${x.pointer} ${x.kind}`)
    .sort();
  assert.deepEqual(d2, ['/properties/status/minLength added', '/properties/status/x-aep-capture changed']);
});

test("deviations marked same-verdicts: our envelope scoping and the registry's give the same verdict", {
  skip: sharedAbsent(SHARED.aepSchemas),
}, () => {
  const marked = deviations.filter((d) => d.check === 'same-verdicts');
  assert.deepEqual(
    marked.map((d) => d.schema),
    ['envelope'],
  );
  const ajv = createAjv();
  const upstream = ajv.compile(JSON.parse(readFileSync(`${UPSTREAM_SCHEMAS}/aep-event.schema.json`, 'utf8')));
  const ours = compileAll().envelope;
  const types = [
    ...loadAepSchemas().registry.types.map((t) => t.type),
    'x.acme.control.pause',
    'x.acme-co.control.restart.now',
    'x.acme.tool.ran',
    'x.acme.agent.ping',
    'x.acme-co.agent.ping.now',
    'x.agent.tool.ran',
    'agent.unknown',
    'control.unknown',
    'attention.unknown',
    'message.user.submitted',
  ];
  const base = { aep: '0.1', id: 'p1', time: '2026-11-30T10:00:00Z', source: 'aep://h/', agent: 'a' };
  const optional = { session: 's', run: 'r', step: 'st', seq: 1 } as const;
  const keys = Object.keys(optional) as (keyof typeof optional)[];
  const VENDOR_AGENT = /^x\.[a-z0-9_-]+\.agent\./;
  let n = 0;
  let vendorAgent = 0;
  for (const type of types) {
    for (let mask = 0; mask < 1 << keys.length; mask++) {
      const ev: Json = { ...base, type };
      keys.forEach((k, i) => {
        if (mask & (1 << i)) ev[k] = optional[k];
      });
      const label = `${type} with ${keys.filter((_, i) => mask & (1 << i)).join(',') || 'none'}`;
      // the traceparent refinement is its own deviation: keep it out of this comparison
      if (VENDOR_AGENT.test(type)) {
        // the one listed difference: category agent (AEP-0001 §5.2, §6) omits all four; the registry wants session, seq
        assert.equal(ours(ev), mask === 0, label);
        assert.equal(upstream(ev), (mask & 1) !== 0 && (mask & 8) !== 0, label);
        vendorAgent++;
      } else assert.equal(ours(ev), upstream(ev), label);
      n++;
    }
  }
  assert.ok(n >= 46 * 16);
  assert.equal(vendorAgent, 2 * 16);
});
