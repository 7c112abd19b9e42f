/**
 * The strict formats (src/core/schema/formats.ts) on any string: the AEP envelope and an AHP
 * event give the verdict of the predicates (the same for both protocols), `date-time` agrees
 * with an oracle built on `Date.UTC`, and URIs generated from the RFC 3986 ABNF pass while
 * strings with characters outside it fail. (This test used to compare the AEP envelope with
 * ajv-formats; ajv-formats' lenient date-time and uri are gone, on purpose: issue 12.)
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import fc from 'fast-check';
import { envelopeValidator } from '../../src/aep/schema/validators.ts';
import { ahpSchemas } from '../../src/ahp/schema/schemas.ts';
import { isAbsoluteUri, isDateTime, isUri } from '../../src/core/schema/formats.ts';
import { runs } from '../scale.ts';

/** Runs per property; PROPERTY_RUNS raises it for a deeper local search. */
const RUNS = Number(process.env.PROPERTY_RUNS ?? runs(300));

function pieces(parts: string[]): fc.Arbitrary<string> {
  return fc
    .array(fc.oneof(fc.constantFrom(...parts), fc.string({ maxLength: 3 })), { maxLength: 8 })
    .map((a) => a.join(''));
}

const timeLike = fc.oneof(
  pieces([
    '2026',
    '2024',
    '1900',
    '2000',
    '-',
    '02',
    '29',
    '30',
    '31',
    '12',
    '13',
    '00',
    'T',
    't',
    ' ',
    '\t',
    '\n',
    '23',
    '59',
    '60',
    ':',
    '.',
    '123',
    'Z',
    'z',
    '+',
    '05:30',
    '-00:00',
    '24',
  ]),
  fc.date({ min: new Date(0), max: new Date(4102444800000), noInvalidDate: true }).map((d) => d.toISOString()),
  fc.constantFrom(
    '2026-02-29T00:00:00Z',
    '2024-02-29T00:00:00Z',
    '2026-12-31T23:59:60Z',
    '2026-12-31T23:59:60+01:00',
    '2026-07-03 10:14:00Z',
    '2026-07-03T10:14:00',
    '2026-07-03T10:14:00.5+0530',
  ),
);
const uriLike = fc.oneof(
  pieces([
    'aep',
    'https',
    ':',
    '//',
    '/',
    'host',
    '[::1]',
    '[v1.x]',
    '%2',
    '%20',
    '?',
    '#',
    ' ',
    'é',
    '@',
    'a',
    '1',
    '.',
    ':80',
    ':x',
  ]),
  fc.webUrl(),
  fc.constantFrom(
    'aep://host-a/agent/claude-code/session/s_8f2c',
    'urn:test:harness',
    'not a uri',
    'a:',
    '',
    'aep://h:abc/',
  ),
);

/** An independent reading of RFC 3339 §5.6/§5.7: split by position, check the calendar with Date.UTC. */
function oracle(s: string): boolean {
  if (s.length < 20) return false;
  const digits = (from: number, n: number) =>
    /^[0-9]+$/.test(s.slice(from, from + n)) && s.slice(from, from + n).length === n;
  if (
    !(digits(0, 4) && s[4] === '-' && digits(5, 2) && s[7] === '-' && digits(8, 2) && (s[10] === 'T' || s[10] === 't'))
  )
    return false;
  if (!(digits(11, 2) && s[13] === ':' && digits(14, 2) && s[16] === ':' && digits(17, 2))) return false;
  let i = 19;
  if (s[i] === '.') {
    let j = i + 1;
    while (j < s.length && s[j]! >= '0' && s[j]! <= '9') j++;
    if (j === i + 1) return false;
    i = j;
  }
  let offset = 0;
  const rest = s.slice(i);
  if (rest === 'Z' || rest === 'z') offset = 0;
  else if (rest.length === 6 && (rest[0] === '+' || rest[0] === '-') && /^[0-9]{2}:[0-9]{2}$/.test(rest.slice(1))) {
    const oh = Number(rest.slice(1, 3));
    const om = Number(rest.slice(4, 6));
    if (oh > 23 || om > 59) return false;
    offset = (rest[0] === '-' ? -1 : 1) * (oh * 60 + om);
  } else return false;
  const [y, mo, d, h, mi, se] = [0, 5, 8, 11, 14, 17].map((k, n) => Number(s.slice(k, k + (n === 0 ? 4 : 2))));
  const day = new Date(Date.UTC(2000, 0, 1));
  day.setUTCFullYear(y!, mo! - 1, d!);
  if (day.getUTCFullYear() !== y || day.getUTCMonth() !== mo! - 1 || day.getUTCDate() !== d) return false;
  if (h! > 23 || mi! > 59 || se! > 60) return false;
  if (se! < 60) return true;
  const utc = new Date(day.getTime() + (h! * 60 + mi! - offset) * 60_000);
  const next = new Date(utc.getTime() + 60_000);
  return utc.getUTCHours() === 23 && utc.getUTCMinutes() === 59 && next.getUTCDate() === 1;
}

test('date-time: the predicate agrees with an oracle on any string', () => {
  fc.assert(
    fc.property(timeLike, (s) => assert.equal(isDateTime(s), oracle(s), JSON.stringify(s))),
    { numRuns: RUNS * 3 },
  );
});

const ALPHA = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';
const UNRESERVED = ALPHA + '0123456789-._~';
const SUB = "!$&'()*+,;=";
const chars = (set: string, max: number) =>
  fc.array(fc.constantFrom(...set), { maxLength: max }).map((a) => a.join(''));
const pct = fc
  .tuple(fc.constantFrom(...'0123456789ABCDEFabcdef'), fc.constantFrom(...'0123456789ABCDEFabcdef'))
  .map(([a, b]) => `%${a}${b}`);
const pchars = (max: number) =>
  fc.array(fc.oneof(chars(UNRESERVED + SUB + ':@', 1), pct), { maxLength: max }).map((a) => a.join(''));
const octet = fc.integer({ min: 0, max: 255 }).map(String);
const h16 = fc.array(fc.constantFrom(...'0123456789abcdef'), { minLength: 1, maxLength: 4 }).map((a) => a.join(''));
/** URIs generated from the RFC 3986 §3 ABNF. */
const grammarUri = fc
  .record({
    scheme: fc.tuple(fc.constantFrom(...ALPHA), chars(ALPHA + '0123456789+-.', 5)).map(([a, b]) => a + b),
    userinfo: fc.option(
      fc.array(fc.oneof(chars(UNRESERVED + SUB + ':', 1), pct), { maxLength: 4 }).map((a) => a.join('') + '@'),
      { nil: '' },
    ),
    host: fc.oneof(
      fc.array(fc.oneof(chars(UNRESERVED + SUB, 1), pct), { maxLength: 6 }).map((a) => a.join('')),
      fc.tuple(octet, octet, octet, octet).map((o) => o.join('.')),
      fc.array(h16, { minLength: 8, maxLength: 8 }).map((a) => `[${a.join(':')}]`),
      fc.tuple(h16, h16).map(([a, b]) => `[${a}::${b}]`),
    ),
    port: fc.option(
      fc.stringMatching(/^[0-9]{0,5}$/).map((p) => ':' + p),
      { nil: '' },
    ),
    path: fc.array(pchars(4), { maxLength: 3 }).map((a) => a.map((x) => '/' + x).join('')),
    query: fc.option(
      fc.array(fc.oneof(pchars(2), fc.constantFrom('/', '?')), { maxLength: 3 }).map((a) => '?' + a.join('')),
      { nil: '' },
    ),
    fragment: fc.option(
      fc.array(fc.oneof(pchars(2), fc.constantFrom('/', '?')), { maxLength: 3 }).map((a) => '#' + a.join('')),
      { nil: '' },
    ),
    authority: fc.boolean(),
  })
  .map((u) =>
    u.authority
      ? `${u.scheme}://${u.userinfo}${u.host}${u.port}${u.path}${u.query}${u.fragment}`
      : `${u.scheme}:${u.path.replace(/^\/+/, '/')}${u.query}${u.fragment}`,
  );

test('uri: URIs generated from the ABNF pass', () => {
  fc.assert(
    fc.property(grammarUri, (s) => assert.ok(isUri(s), JSON.stringify(s))),
    { numRuns: RUNS * 3 },
  );
});

test('absolute-uri: a URI generated from the ABNF is an absolute-URI exactly when it has no fragment (RFC 3986 §4.3)', () => {
  fc.assert(
    fc.property(grammarUri, (s) => {
      assert.equal(isAbsoluteUri(s), !s.includes('#'), JSON.stringify(s));
      const cut = s.indexOf('#');
      if (cut >= 0)
        assert.ok(isAbsoluteUri(s.slice(0, cut)), `without its fragment: ${JSON.stringify(s.slice(0, cut))}`);
    }),
    { numRuns: RUNS * 3 },
  );
});

test('uri: a string with a character outside RFC 3986, or a bad pct-encoding, fails', () => {
  const allowed = new Set(UNRESERVED + SUB + ':/?#[]@%');
  fc.assert(
    fc.property(uriLike, (s) => {
      if ([...s].some((c) => !allowed.has(c)) || /%(?![0-9A-Fa-f]{2})/.test(s) || !/^[A-Za-z][A-Za-z0-9+.-]*:/.test(s))
        assert.ok(!isUri(s), JSON.stringify(s));
    }),
    { numRuns: RUNS * 3 },
  );
});

test("the AEP envelope and an AHP event give the predicates' verdict on time and source (AEP `URI`, AHP `absolute-URI`)", () => {
  const aep = envelopeValidator();
  const ahp = ahpSchemas().check('events.schema.json#/$defs/event');
  const aepBase = { aep: '0.1', id: 'x', type: 'agent.heartbeat', agent: 'a' };
  // a config.change.after event of the bundled example session
  const line = readFileSync(new URL('../../examples/ahp/session.jsonl', import.meta.url), 'utf8').split('\n')[14]!;
  const ahpBase = (JSON.parse(line) as { params: { event: Record<string, unknown> } }).params.event;
  assert.ok(ahp(ahpBase), 'the AHP base event is valid');
  fc.assert(
    fc.property(timeLike, uriLike, (time, source) => {
      const expected = isDateTime(time) && isUri(source) && source !== '';
      assert.equal(
        aep({ ...aepBase, time, source }),
        expected,
        `aep time ${JSON.stringify(time)} source ${JSON.stringify(source)}`,
      );
      assert.equal(
        ahp({ ...ahpBase, time, source }),
        isDateTime(time) && isAbsoluteUri(source),
        `ahp time ${JSON.stringify(time)} source ${JSON.stringify(source)}`,
      );
    }),
    { numRuns: RUNS },
  );
});
