/**
 * One verdict for a timestamp and a URI, whichever protocol carries it: `aep validate` (the
 * envelope `time` and `source`) and `ahp validate` (an event's `time` and `source`), each run
 * in-process through its driver, agree with each other and with RFC 3339 §5.6 / RFC 3986 §3.
 * The one difference is the fragment: AEP types `source` "URI string" (AEP-0001 §5.1 #6, RFC
 * 3986 §3 `URI`), AHP "RFC 3986 absolute-URI grammar" (execution-payloads.md, §4.3: no fragment).
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import type { Finding } from '../../src/core/finding.ts';
import {
  isCurrencyCode,
  isAbsoluteUri,
  isDateTime,
  isEmail,
  isFullDate,
  isUri,
  isWebUrl,
  STRICT_FORMATS,
} from '../../src/core/schema/formats.ts';
import { type TestDriver, aepDriver, ahpDriver, runPipeline } from '../run.ts';

async function run(driver: TestDriver, line: string): Promise<Finding[]> {
  const found: Finding[] = [];
  await runPipeline(
    [
      {
        source: 'case.jsonl',
        open: async function* () {
          yield line + '\n';
        },
      },
    ],
    driver,
    (f) => found.push(f),
  );
  return found;
}

const AEP_BASE = {
  aep: '0.1',
  id: 'ev-1',
  type: 'agent.heartbeat',
  time: '2026-07-03T10:16:01Z',
  source: 'aep://h/agent/a',
  agent: 'a',
};
const AHP_BASE = JSON.parse(
  readFileSync(new URL('../../examples/ahp/session.jsonl', import.meta.url), 'utf8').split('\n')[14]!,
) as { params: { event: Record<string, unknown> } };

/** True when `aep validate` accepts `value` as the envelope member `field`. */
async function aepAccepts(field: 'time' | 'source', value: string): Promise<boolean> {
  const found = await run(aepDriver(), JSON.stringify({ ...AEP_BASE, [field]: value }));
  return !found.some((f) => f.severity === 'error' && f.pointer === '/' + field);
}

/** True when `ahp validate` accepts `value` as the event member `field`. */
async function ahpAccepts(field: 'time' | 'source', value: string): Promise<boolean> {
  const msg = structuredClone(AHP_BASE);
  msg.params.event[field] = value;
  const found = await run(ahpDriver(), JSON.stringify(msg));
  return !found.some((f) => f.severity === 'error' && f.pointer === '/params/event/' + field);
}

const D = '2026-07-03';
/** [value, RFC 3339 §5.6 verdict, why]. */
const TIMES: Array<[string, boolean, string]> = [
  [`${D}T10:16:01+0530`, false, 'offset without colon'],
  [`${D}T10:16:01+05`, false, 'hour-only offset'],
  [`${D}T10:16:01+05:30`, true, 'numeric offset'],
  [`${D}T10:16:01-00:00`, true, '-00:00 is in the ABNF'],
  [`${D}T10:16:01Z`, true, 'Z'],
  [`${D}\t10:16:01Z`, false, 'tab separator'],
  [`${D} 10:16:01Z`, false, 'space separator (§5.6 NOTE, not the ABNF)'],
  [`${D}\n10:16:01Z`, false, 'newline separator'],
  [`${D}\u200310:16:01Z`, false, 'em-space separator'],
  [`${D}t10:16:01z`, true, 'lower-case t and z'],
  [`${D}t10:16:01Z`, true, 'lower-case t'],
  [`${D}T10:16:01z`, true, 'lower-case z'],
  ['2026-02-29T10:16:01Z', false, 'Feb 29 of a common year'],
  ['2024-02-29T10:16:01Z', true, 'Feb 29 of a leap year'],
  ['2026-12-31T23:59:60Z', true, 'leap second at the end of a month (§5.7)'],
  ['2026-06-30T23:59:60Z', true, 'leap second at the end of June'],
  ['2026-12-31T18:59:60-05:00', true, 'leap second at 23:59:60 UTC with an offset'],
  [`${D}T23:59:60Z`, false, 'leap second in the middle of a month (§5.7)'],
  [`${D}T24:00:00Z`, false, 'hour 24'],
  [`${D}T10:60:00Z`, false, 'minute 60'],
  [`${D}T10:16:61Z`, false, 'second 61'],
  [`${D}T10:16:01.Z`, false, 'empty fraction'],
  [`${D}T10:16:01.123456789Z`, true, 'long fraction'],
  [`${D}T10:16:01+24:00`, false, 'offset hour 24'],
  [`${D}T10:16:01`, false, 'no offset'],
  ['2026-13-01T10:16:01Z', false, 'month 13'],
];

/** [value, RFC 3986 §3 `URI` verdict, why]; the §4.3 `absolute-URI` verdict is the same unless the row is in {@link FRAGMENTS}. */
const URIS: Array<[string, boolean, string]> = [
  ['aep:', true, 'empty hier-part (path-empty)'],
  ['a:', true, 'one-letter scheme, empty hier-part'],
  ['aep://h:abc/', false, 'port is *DIGIT'],
  ['aep://h:-1/', false, 'negative port'],
  ['aep://a@b@c/', false, 'userinfo holds no @'],
  ['aep://h:8080/x', true, 'numeric port'],
  ['aep://h:/', true, 'empty port (*DIGIT)'],
  ['aep://[::1]/x', true, 'IPv6 literal'],
  ['aep://[v1.x]/', true, 'IPvFuture literal'],
  ['aep://[1::2::3]/', false, 'two :: in an IPv6 literal'],
  ['aep://u:p@[2001:db8::7]:8080/a?b#c', true, 'IPv6 literal with userinfo and port'],
  ['aep://[1.2.3.4]/', false, 'an IPv4 address is no IP literal'],
  ['aep://[::1/', false, 'unclosed IP literal'],
  ['aep://h/[::1]', false, 'brackets outside the host'],
  ['aep://h/?q=[1]', false, 'brackets in the query'],
  ['aep://h/%zz', false, 'pct-encoding needs two hex digits'],
  ['aep://h/%2F?q=1#f', true, 'query and fragment'],
  ['aep://h/a b', false, 'space'],
  ['aep://h/é', false, 'non-ASCII (an IRI, not a URI)'],
  ['//h/x', false, 'no scheme'],
  ['1a:x', false, 'scheme starts with a digit'],
  ['urn:test:harness', true, 'path-rootless'],
  ['https://h.example/a#frag', true, 'a fragment'],
  ['https://h.example/a#', true, 'an empty fragment'],
  ['aep:#x', true, 'empty hier-part and a fragment'],
  ['urn:x?q#', true, 'query and empty fragment'],
  ['aep://h/a#b#c', false, 'a second "#" (fragment excludes it)'],
  ['aep://h/#%zz', false, 'bad escape in the fragment'],
];

/** URIs with a fragment: RFC 3986 §3 `URI`s that are no §4.3 `absolute-URI`. */
const FRAGMENTS = new Set(URIS.filter(([v, ok]) => ok && v.includes('#')).map(([v]) => v));

describe('aep validate and ahp validate give the RFC verdict on the same strings', () => {
  for (const [value, ok, why] of TIMES) {
    test(`date-time ${JSON.stringify(value)}: ${ok ? 'valid' : 'invalid'} (${why})`, async () => {
      assert.equal(isDateTime(value), ok);
      assert.equal(await aepAccepts('time', value), ok, 'aep');
      assert.equal(await ahpAccepts('time', value), ok, 'ahp');
    });
  }
  for (const [value, ok, why] of URIS) {
    const absolute = ok && !FRAGMENTS.has(value);
    test(`uri ${JSON.stringify(value)}: ${ok ? 'valid' : 'invalid'}, absolute-URI ${absolute ? 'valid' : 'invalid'} (${why})`, async () => {
      assert.equal(isUri(value), ok);
      assert.equal(isAbsoluteUri(value), absolute);
      assert.equal(await aepAccepts('source', value), ok, 'aep');
      assert.equal(await ahpAccepts('source', value), absolute, 'ahp');
    });
  }
});

describe('the other formats of the table', () => {
  test('date: RFC 3339 full-date with real calendar days', () => {
    for (const good of ['2024-02-29', '2026-12-31', '0000-01-01']) assert.ok(isFullDate(good), good);
    for (const bad of ['2026-02-29', '2026-04-31', '2026-7-03', '2026-07-03T00:00:00Z', '20260703', ''])
      assert.ok(!isFullDate(bad), bad);
  });
  test('email: RFC 5321 Mailbox', () => {
    for (const good of [
      'ada@example.com',
      'a.b+c@sub.example.org',
      '"a b"@example.com',
      'x@[192.0.2.1]',
      'x@[IPv6:2001:db8::1]',
      'x@localhost',
      '"a]"@example.com',
      '"[::1]"@[192.0.2.1]',
    ])
      assert.ok(isEmail(good), good);
    for (const bad of [
      'ada',
      '@example.com',
      'ada@',
      'a..b@example.com',
      '.a@example.com',
      'a@-x.com',
      'a@x-.com',
      'a b@example.com',
      'a@b@c.com',
      'a@[300.0.0.1]',
      'a@[IPv6:1::2::3]',
      'a@[::1]',
      'a@[192.0.2.1',
    ])
      assert.ok(!isEmail(bad), bad);
  });
  test('the table holds exactly the formats our schemas use', () => {
    const used = new Set<string>();
    const walk = (v: unknown): void => {
      if (Array.isArray(v)) {
        for (const x of v) walk(x);
        return;
      }
      if (v === null || typeof v !== 'object') return;
      for (const [k, x] of Object.entries(v)) {
        if (k.startsWith('x-')) continue;
        if (k === 'format' && typeof x === 'string') used.add(x);
        // the MCP StringSchema names the formats a form field may use as an enum
        else if (k === 'format' && Array.isArray((x as { enum?: unknown }).enum))
          for (const f of (x as { enum: string[] }).enum) used.add(f);
        else walk(x);
      }
    };
    for (const dir of ['aep', 'aep/types', 'ahp', 'mcp']) {
      const base = new URL(`../../schemas/${dir}/`, import.meta.url);
      for (const name of readdirSync(base))
        if (name.endsWith('.json')) walk(JSON.parse(readFileSync(new URL(name, base), 'utf8')));
    }
    for (const f of used) assert.ok(Object.hasOwn(STRICT_FORMATS, f), `format ${f} has no strict predicate`);
    assert.deepEqual(Object.keys(STRICT_FORMATS).sort(), [
      'absolute-uri',
      'date',
      'date-time',
      'email',
      'iso4217',
      'uri',
      'web-url',
    ]);
  });
  // Replays of https://github.com/colinhacks/zod/issues/5284 (fixed by zod#5672), nodejs/node#50919 and
  // servo/rust-url#1069: a URL parser repairs `https:host` and `https:/host` into `https://host/`, which no sender
  // wrote; RFC 9110 §4.2.1-§4.2.2 http(s) URIs are `"//" authority` with a host.
  test('web-url: an http(s) URI with "//", a host and a port of at most 65535, that a URL parser takes', () => {
    for (const good of [
      'https://x.example/a?b#c',
      'HTTP://X.EXAMPLE',
      'https://u:p@x.example:65535/',
      'https://x.example:/',
      'https://10.0.0.1/',
      'https://[::1]:8443/x',
      'http://localhost',
    ])
      assert.ok(isWebUrl(good), good);
    for (const bad of [
      'https:x.example',
      'https:/x.example',
      'https:///x.example',
      'https://',
      'https://?q',
      'https://#f',
      'https://:443/',
      'https://u@/',
      'https://x.example:65536/',
      'https://999.1.1.1/',
      'https://x .example/',
      'https://例え.jp/',
      'ftp://x.example/',
      'urn:x',
      '',
    ])
      assert.ok(!isWebUrl(bad), bad);
  });
  test('web-url: every one is a URI and a URL parser keeps its host; every "//"-less http(s) URI is not one', () => {
    const hosts = ['x.example', 'a-b.c', '127.0.0.1', '[::1]', 'localhost', 'xn--r8jz45g.jp'];
    for (const scheme of ['http', 'https', 'HTTPS'])
      for (const host of hosts)
        for (const tail of ['', '/', '/p?q#f', ':8080/p', ':'])
          for (const slashes of ['', '/', '//', '///']) {
            const s = `${scheme}:${slashes}${host}${tail}`;
            const verdict = isWebUrl(s);
            if (verdict) {
              assert.ok(isUri(s), s);
              assert.equal(new URL(s).hostname, host.toLowerCase(), s);
            }
            // the parser takes all four spellings; only "//" names the authority
            assert.equal(verdict, slashes === '//' && isUri(s), s);
          }
  });
  test('iso4217: an ISO 4217 code in force, as the runtime lists them (AEP-0002 §5.2 cost)', () => {
    for (const good of ['USD', 'EUR', 'JPY', 'CHF']) assert.ok(isCurrencyCode(good), good);
    for (const bad of ['ABC', 'ZZZ', 'usd', 'US', 'USDD', '', 'ÉUR']) assert.ok(!isCurrencyCode(bad), bad);
    // every code the runtime lists is accepted, and nothing else is
    for (const c of Intl.supportedValuesOf('currency')) assert.ok(isCurrencyCode(c), c);
  });
});

test('date-time: a non-digit or a missing separator at any position of a valid one is invalid', () => {
  const valid = '2026-07-03T10:14:00.125+05:30';
  assert.equal(isDateTime(valid), true);
  for (let i = 0; i < valid.length; i++) {
    if (valid[i] === '.') continue; // the fraction is optional: replacing its dot leaves digits after the seconds
    for (const c of ['x', ' ', '/', '\u0660']) {
      const s = valid.slice(0, i) + c + valid.slice(i + 1);
      assert.equal(isDateTime(s), false, JSON.stringify(s));
    }
  }
  for (let n = 0; n < valid.length; n++) assert.equal(isDateTime(valid.slice(0, n)), false, `cut to ${n}`);
});
