/**
 * The bridge inputs as the ecosystems' SDKs write them: every other spelling the CloudEvents JSON format and the OTLP/JSON
 * encoding allow for an event's bridge form maps back to the same AEP event with no new error (a relation over every
 * event of our pass cases and golden), and `aep convert --from` writes the inverse mapping.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { isDeepStrictEqual } from 'node:util';
import { ceRefusal, decodeCloudEvents, fromCloudEvent, toCloudEvent } from '../../src/aep/bridges/cloudevents.ts';
import { isAepExtensionName } from '../../src/aep/bridges/types.ts';
import { toOtlp } from '../../src/aep/bridges/otlp.ts';
import { decodeOtlp } from '../../src/aep/bridges/otlp-decode.ts';
import { bridgeRule } from '../../src/aep/bridges/rules.ts';
import type { BridgeIssue, DecodeResult } from '../../src/aep/bridges/types.ts';
import { parseJsonText } from '../../src/core/json.ts';
import { runCli } from '../cli/helpers.ts';
import { events } from './helpers.ts';
import { Ajv } from 'ajv';
import formats from 'ajv-formats';
import { needShared, SHARED, sharedPath } from '../shared.ts';

type Obj = Record<string, unknown>;

/** The errors of a decode, as `ruleId:messageId`, sorted. */
const errors = (issues: readonly BridgeIssue[]) =>
  issues
    .filter((i) => bridgeRule(i.ruleId).severity === 'error')
    .map((i) => `${i.ruleId}:${i.messageId}`)
    .sort();

/** The value at an RFC 6901 pointer, or `undefined`. */
function at(v: unknown, pointer: string): unknown {
  let cur = v;
  for (const t of pointer === '' ? [] : pointer.slice(1).split('/')) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Obj)[t.replace(/~1/g, '/').replace(/~0/g, '~')];
  }
  return cur;
}

/** `v` with every object's members in reverse order (member order never matters). */
const reversed = (v: unknown): unknown =>
  Array.isArray(v)
    ? v.map(reversed)
    : v && typeof v === 'object'
      ? Object.fromEntries(
          Object.entries(v)
            .reverse()
            .map(([k, x]) => [k, reversed(x)]),
        )
      : v;

/** Hold `variant` of each event's bridge form to the form itself: the same event back, no error the form lacks. */
function holds(
  name: string,
  forms: Array<{ where: string; form: Obj }>,
  decode: (v: unknown) => DecodeResult,
  variant: (form: Obj) => unknown,
): number {
  let n = 0;
  for (const { where, form } of forms) {
    const base = decode(form);
    const v = variant(structuredClone(form));
    if (v === undefined) continue;
    const got = decode(v);
    const value = typeof v === 'string' ? (JSON.parse(v) as unknown) : v;
    assert.equal(got.events.length, base.events.length, `${name}: ${where}`);
    assert.ok(
      got.events.every((d, i) => isDeepStrictEqual(d.event, base.events[i]!.event)),
      `${name}: ${where} maps back to ${JSON.stringify(got.events[0]?.event)}`,
    );
    const extra = errors(got.issues).filter((e) => e !== 'aep/otlp-shape:proto-name');
    assert.deepEqual(extra, errors(base.issues), `${name}: ${where}`);
    // every pointer a finding on the mapped event would get names a member of the input
    for (const d of got.events)
      for (const k of Object.keys(d.event).filter((k) => k !== 'aep'))
        assert.notEqual(
          at(value, d.pointerOf('/' + k)),
          undefined,
          `${name}: ${where} /${k} -> ${d.pointerOf('/' + k)}`,
        );
    n++;
  }
  return n;
}

const ceForms = () =>
  events()
    .filter(({ event }) => typeof event.type === 'string' && ceRefusal(event) === undefined)
    .map(({ where, event }) => ({ where, form: toCloudEvent(event) }));

test('CloudEvents as the SDKs write them map back to the same event (JSON format §3.1, §3.1.2)', () => {
  const forms = ceForms();
  const ce = (v: unknown) => decodeCloudEvents(v);
  assert.ok(holds('reversed members', forms, ce, reversed) > 50);
  // the Go and JS SDKs write bytes given as the data as data_base64; under a JSON datacontenttype they are the payload
  const b64 = holds('data_base64', forms, ce, (f) => {
    // (a value JSON.stringify cannot write, 1e400 read as Infinity, is left out: its text is not at hand here)
    if (f.data === undefined || !isDeepStrictEqual(JSON.parse(JSON.stringify(f.data)), f.data)) return undefined;
    f.data_base64 = Buffer.from(JSON.stringify(f.data)).toString('base64');
    delete f.data;
    return f;
  });
  assert.ok(b64 > 50);
  holds('datacontenttype with parameters', forms, ce, (f) =>
    f.data === undefined ? undefined : { ...f, datacontenttype: 'Application/JSON; charset=utf-8' },
  );
  // the Python SDK writes no datacontenttype: the JSON format reads its absence as application/json
  holds('datacontenttype absent', forms, ce, (f) => {
    delete f.datacontenttype;
    return f;
  });
  // a structured-mode batch (application/cloudevents-batch+json): the events in their order
  const batch = decodeCloudEvents(forms.slice(0, 20).map((f) => f.form));
  assert.deepEqual(
    batch.events.map((d) => d.event),
    forms.slice(0, 20).flatMap((f) => decodeCloudEvents(f.form).events.map((d) => d.event)),
  );
});

test('data_base64 is the payload only under a JSON datacontenttype, as base64 of JSON text (JSON format §3.1.2)', () => {
  const f = ceForms().find((x) => x.form.data !== undefined)!.form;
  const b64 = Buffer.from(JSON.stringify(f.data)).toString('base64');
  const { data: _d, ...rest } = f;
  const cases: Array<[Obj, string]> = [
    [{ ...rest, datacontenttype: undefined, data_base64: b64 }, 'base64'],
    [{ ...rest, datacontenttype: 'application/octet-stream', data_base64: b64 }, 'base64'],
    [{ ...rest, data_base64: `${b64.slice(0, -2)}!` }, 'base64-not-json'],
    [{ ...rest, data_base64: Buffer.from('{"a":1,"a":2}').toString('base64') }, 'base64-not-json'],
    [{ ...rest, data_base64: Buffer.from([0x7b, 0xff, 0x7d]).toString('base64') }, 'base64-not-json'],
    [{ ...f, data_base64: b64 }, 'both'],
  ];
  for (const [ce, id] of cases) {
    const r = decodeCloudEvents(JSON.parse(JSON.stringify(ce)));
    assert.ok(
      r.issues.some((i) => i.ruleId === 'aep/ce-data' && i.messageId === id && i.pointer === '/data_base64'),
      id,
    );
  }
  const ok = decodeCloudEvents({ ...rest, data_base64: b64 });
  assert.deepEqual(ok.events[0]!.event.data, f.data);
  assert.equal(ok.events[0]!.pointerOf('/data/x'), '/data_base64');
});

const otlpForms = () =>
  events().flatMap(({ where, event }) => {
    const r = toOtlp([event], { maxCapture: 'full' });
    return r.refused.length || typeof event.type !== 'string' ? [] : [{ where, form: r.request as Obj }];
  });

const snake = (v: unknown): unknown =>
  Array.isArray(v)
    ? v.map(snake)
    : v && typeof v === 'object'
      ? Object.fromEntries(
          Object.entries(v).map(([k, x]) => [k.replace(/[A-Z]/g, (c) => '_' + c.toLowerCase()), snake(x)]),
        )
      : v;

/** Each LogRecord of a request. */
const records = (req: Obj): Obj[] =>
  (req.resourceLogs as Obj[]).flatMap((rl) => (rl.scopeLogs as Obj[]).flatMap((sl) => sl.logRecords as Obj[]));

test('OTLP/JSON in the other forms the encoding allows maps back to the same event (JSON Protobuf Encoding)', () => {
  const forms = otlpForms();
  const otlp = (v: unknown) => decodeOtlp(v, { maxCapture: 'full' });
  assert.ok(holds('reversed members', forms, otlp, reversed) > 50);
  // "OTLP/JSON receivers MUST ignore message fields with unknown names"
  holds('unknown fields', forms, otlp, (f) => {
    const add = (v: unknown): void => {
      if (Array.isArray(v)) v.forEach(add);
      else if (v && typeof v === 'object') {
        for (const x of Object.values(v)) add(x);
        (v as Obj).futureField = { nested: [1] };
      }
    };
    add(f);
    return f;
  });
  // 64-bit integers: "either numbers or strings are accepted when decoding" (read from the text, exact beyond 2^53);
  // fixed32 flags likewise
  const text = (v: unknown) => {
    if (typeof v !== 'string') return otlp(v);
    const p = parseJsonText(v);
    assert.ok(p.ok);
    return decodeOtlp(p.value, { maxCapture: 'full', bigIntegers: p.bigIntegers });
  };
  holds('int64 as numbers, flags as a string', forms, text, (f) => {
    for (const r of records(f)) if (r.flags !== undefined) r.flags = String(r.flags);
    return JSON.stringify(f).replace(/"(timeUnixNano|intValue)":"(-?\d+)"/g, '"$1":$2');
  });
  // logs.proto: "Use time_unix_nano if it is present, otherwise use observed_time_unix_nano"
  holds('observedTimeUnixNano only', forms, otlp, (f) => {
    for (const r of records(f)) {
      r.observedTimeUnixNano = r.timeUnixNano;
      r.timeUnixNano = '0';
    }
    return f;
  });
  // default values written out, as an SDK may: empty strings, zero counts, an empty scope
  holds('defaults written out', forms, otlp, (f) => {
    for (const rl of f.resourceLogs as Obj[]) {
      rl.schemaUrl = '';
      for (const sl of rl.scopeLogs as Obj[]) sl.scope = { name: '', version: '', droppedAttributesCount: 0 };
    }
    for (const r of records(f)) {
      r.droppedAttributesCount = 0;
      r.observedTimeUnixNano = r.timeUnixNano;
      if (r.traceId === undefined) Object.assign(r, { traceId: '', spanId: '', flags: 0 });
      if (r.severityNumber === undefined) Object.assign(r, { severityNumber: 0, severityText: '' });
    }
    return f;
  });
  // the original proto field names are read as their fields, and each is reported once (OTLP/JSON keys are camelCase)
  holds('proto field names', forms, otlp, snake);
  const one = snake(forms[0]!.form);
  const names = otlp(one).issues.filter((i) => i.messageId === 'proto-name');
  assert.ok(names.some((i) => i.pointer === '/resource_logs'));
  assert.equal(new Set(names.map((i) => i.args.member)).size, names.length);
  for (const i of names) assert.notEqual(at(one, i.pointer), undefined, i.pointer);
});

test('aep convert --from writes the inverse mapping: the round trip of the example session is the session', async () => {
  const path = new URL('../../examples/aep/session.jsonl', import.meta.url).pathname;
  const want = readFileSync(path, 'utf8')
    .trimEnd()
    .split('\n')
    .map((l) => JSON.parse(l) as Obj);
  for (const [to, extra] of [
    ['cloudevents', []],
    ['otlp', ['--max-capture', 'full']],
  ] as const) {
    const there = await runCli('aep', ['convert', '--to', to, ...extra, path]);
    assert.equal(there.code, 0, there.stderr);
    const back = await runCli('aep', ['convert', '--from', to, ...extra, '-'], there.stdout);
    assert.equal(back.code, 0, back.stderr);
    assert.deepEqual(
      back.stdout
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l) as Obj),
      want,
      to,
    );
    assert.match(back.stderr, new RegExp(`${want.length} AEP events written from ${to}`));
  }
  // a line with an error is not converted; a foreign CloudEvent is counted, not written
  const ce = toCloudEvent(want[0]!);
  const r = await runCli(
    'aep',
    ['convert', '--from', 'cloudevents', '-'],
    `${JSON.stringify({ ...ce, specversion: '0.3' })}\n${JSON.stringify({ ...ce, type: 'com.example.x' })}\n${JSON.stringify(ce)}\n`,
  );
  assert.equal(r.code, 1);
  assert.deepEqual(JSON.parse(r.stdout), want[0]);
  assert.match(r.stderr, /aep\/ce-specversion/);
  assert.match(r.stderr, /1 foreign record not written/);
  for (const args of [['--to', 'otlp', '--from', 'otlp'], [], ['--from', 'cloudevents', '--max-capture', 'full']]) {
    const u = await runCli('aep', ['convert', ...args, '-'], '');
    assert.equal(u.code, 2, args.join(' '));
    assert.equal(u.stdout, '');
  }
});

test('convert --to cloudevents writes what the CloudEvents JSON Schema accepts, extension names CE-legal (§5 item 2)', (t) => {
  if (!needShared(t, SHARED.ceSchema)) return;
  const ajv = new Ajv({ strict: false, allErrors: true });
  // ajv-formats is CommonJS: its default export is the plugin
  (formats as unknown as { default: (a: Ajv) => void }).default(ajv);
  const valid = ajv.compile(JSON.parse(readFileSync(sharedPath(SHARED.ceSchema), 'utf8')) as object);
  const forms = ceForms();
  assert.ok(forms.length > 50);
  assert.equal(valid({ ...forms[0]!.form, id: 7 }), false, 'the schema checks');
  for (const { where, form } of forms) {
    assert.ok(valid(form), `${where}: ${JSON.stringify(valid.errors)}`);
    assert.equal(form.specversion, '1.0');
    // CloudEvents 1.0 §3.1.1: lower-case letters and digits; SHOULD NOT exceed 20 characters
    for (const k of Object.keys(form).filter((k) => k !== 'data')) assert.match(k, /^[a-z0-9]{1,20}$/, where);
    assert.equal(form.datacontenttype === 'application/json', form.data !== undefined, where);
  }
});

test('convert --to otlp writes OTLP/JSON: lowerCamelCase keys, 64-bit integers as strings, hex ids, integer enums', () => {
  let n = 0;
  for (const { where, form } of otlpForms()) {
    const walk = (v: unknown, p: string): void => {
      if (Array.isArray(v)) for (const [i, x] of v.entries()) walk(x, `${p}/${i}`);
      else if (v && typeof v === 'object')
        for (const [k, x] of Object.entries(v)) {
          assert.match(k, /^[a-z][a-zA-Z0-9]*$/, `${where} ${p}/${k}`);
          if (['timeUnixNano', 'observedTimeUnixNano', 'intValue'].includes(k))
            assert.match(String(typeof x === 'string' ? x : 'not a string'), /^-?\d+$/, `${where} ${p}/${k}`);
          walk(x, `${p}/${k}`);
        }
    };
    walk(form, '');
    for (const r of records(form)) {
      n++;
      if (r.traceId !== undefined) {
        assert.match(r.traceId as string, /^[0-9a-f]{32}$/, where);
        assert.match(r.spanId as string, /^[0-9a-f]{16}$/, where);
        assert.ok(Number.isInteger(r.flags) && (r.flags as number) >= 0 && (r.flags as number) <= 255, where);
      }
      if (r.severityNumber !== undefined) assert.ok(Number.isInteger(r.severityNumber), where);
      assert.equal(typeof r.eventName, 'string', where);
    }
  }
  assert.ok(n > 50);
});

test('an extension attribute under a name the CE form already uses is refused, never silently merged (AEP-0001 §5.4)', () => {
  let refused = 0;
  for (const { where, event } of events().slice(0, 40)) {
    if (typeof event.type !== 'string' || ceRefusal(event)) continue;
    // every CE attribute the forward mapping can write, the CE core ones it does not, and an ordinary vendor name
    const names = new Set([...Object.keys(toCloudEvent(event)), 'aepstep', 'aeprunid', 'dataschema', 'acmetenant']);
    for (const n of [...names].filter((n) => isAepExtensionName(n) && !(n in event))) {
      const e = { ...event, [n]: 'x' };
      if (ceRefusal(e)) refused++;
      else assert.deepEqual(fromCloudEvent(toCloudEvent(e)).event, e, `${where} + ${n}`);
    }
  }
  assert.ok(refused > 100);
});
