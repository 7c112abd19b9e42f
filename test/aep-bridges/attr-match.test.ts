/**
 * attr-match (AEP-0003 §6) as relations: a filter matches iff each of its members does (a
 * conjunction over single-member filters), defaults apply only to severity/capture/epoch,
 * type patterns are strict prefixes, and every malformed filter is refused with a reason.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FILTERABLE_CORE, InvalidFilterError, matches, NOT_FILTERABLE, parseFilter } from '../../src/aep/attr-match.ts';
import { AEP_SEVERITIES } from '../../src/aep/bridges/types.ts';

const EVENTS: Array<Record<string, unknown>> = [
  { type: 'attention.requested', session: 's1', severity: 'notice' },
  { type: 'attention', session: 's1' },
  { type: 'tool.completed', agent: 'codex', epoch: 2, capture: 'full' },
  { type: 'x.acme.foo.bar', acmeregion: 'eu-1', severity: 'critical' },
  { type: 'run.started', agent: 'claude-code', run: 'r1', step: 'turn-3', seq: 5 },
  { agent: 'codex' },
  {},
];

const FILTERS: Array<Record<string, unknown>> = [
  { type: ['attention.*'] },
  { type: 'attention' },
  { type: ['x.acme.*', 'run.started'] },
  { severity: { gte: 'notice' } },
  { severity: { lte: 'info' } },
  { severity: 'info' },
  { capture: 'metadata' },
  { epoch: 0 },
  { agent: ['codex', 'claude-code'] },
  { step: 'turn-3' },
  { acmeregion: 'eu-1' },
  { epoch: true },
];

test('a filter is the conjunction of its members, on partial events', () => {
  for (const a of FILTERS)
    for (const b of FILTERS) {
      if (Object.keys(a).some((k) => k in b)) continue;
      const both = parseFilter({ ...a, ...b });
      for (const e of EVENTS)
        assert.equal(
          matches(both, e),
          matches(parseFilter(a), e) && matches(parseFilter(b), e),
          `${JSON.stringify({ ...a, ...b })} on ${JSON.stringify(e)}`,
        );
    }
  for (const e of EVENTS) assert.equal(matches(parseFilter({}), e), true);
});

test('absent attributes: only severity, capture and epoch take their defaults (§6.2 rule 5)', () => {
  const defaults: Record<string, unknown> = { severity: 'info', capture: 'metadata', epoch: 0 };
  for (const key of FILTERABLE_CORE) {
    const value = defaults[key] ?? 'v';
    assert.equal(matches(parseFilter({ [key]: value }), {}), key in defaults, key);
  }
  assert.equal(matches(parseFilter({ acmeregion: 'eu-1' }), {}), false);
});

test('severity bands are inclusive in the §8.1 order', () => {
  for (const [i, lo] of AEP_SEVERITIES.entries())
    for (const [j, hi] of AEP_SEVERITIES.entries()) {
      const f = parseFilter({ severity: { gte: lo, lte: hi } });
      for (const [k, s] of AEP_SEVERITIES.entries())
        assert.equal(matches(f, { severity: s }), i <= k && k <= j, `${lo}..${hi} on ${s}`);
    }
});

test('type patterns: a strict prefix followed by a dot, on core and vendor types', () => {
  const f = parseFilter({ type: 'attention.*' });
  for (const [t, m] of [
    ['attention.requested', true],
    ['attention', false],
    ['attentionx.y', false],
    ['attention.', false],
    ['x.attention.y', false],
  ] as const)
    assert.equal(matches(f, { type: t }), m, t);
  assert.equal(matches(parseFilter({ type: 'attention.*' }), { type: 5 }), false);
  // equality compares JSON values exactly: no coercion
  assert.equal(matches(parseFilter({ epoch: 1 }), { epoch: '1' }), false);
});

test('invalid filters are refused with a reason, never matched as everything (fail closed)', () => {
  const invalid: unknown[] = [
    ...NOT_FILTERABLE.map((k) => ({ [k]: 'x' })),
    { Agent: 'x' },
    { 'acme-region': 'x' },
    { abcdefghijklmnopqrstu: 'x' },
    { type: '*' },
    { type: 'attention*' },
    { type: '.*' },
    { type: ['tool.*', '*'] },
    { agent: 'claude*' },
    { agent: [] },
    { agent: null },
    { agent: 1.5 },
    { agent: { eq: 'x' } },
    { agent: [['x']] },
    { severity: {} },
    { severity: { gt: 'info' } },
    { severity: { gte: 'loud' } },
    [],
    null,
    'text',
    '{"agent":"a","agent":"b"}',
    '{"agent":',
  ];
  for (const f of invalid) {
    assert.throws(
      () => parseFilter(f),
      (e: unknown) => e instanceof InvalidFilterError && e.code === 'invalid-filter' && e.reason.length > 5,
      JSON.stringify(f),
    );
  }
  assert.deepEqual(parseFilter('{"type":["tool.*"],"severity":{"gte":"info"}}').predicates.length, 2);
});
