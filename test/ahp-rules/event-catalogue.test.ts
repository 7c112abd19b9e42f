/**
 * The event catalogue: every catalogue event is valid through `hooks/observe`, the interceptable ones through
 * `hooks/intercept`, an unknown type is unsupported, the envelope is open (base/events.md).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ahpEventTypes, ahpInterceptableEventTypes } from '../../src/ahp/schema/schemas.ts';
import { MINIMAL, event, intercept, observe } from '../ahp/builders.ts';
import { obsOf, ruleRows } from './helpers.ts';

const { valid, invalid } = ruleRows(['ahp/event-type', 'ahp/envelope']);

describe('catalogue', () => {
  test('the catalogue has 32 event types, 19 of them interceptable', () => {
    assert.equal(ahpEventTypes().length, 32);
    assert.equal(ahpInterceptableEventTypes().length, 19);
    assert.deepEqual(Object.keys(MINIMAL).sort(), [...ahpEventTypes()].sort());
  });
  for (const type of Object.keys(MINIMAL)) {
    test(`a minimal ${type} is valid through hooks/observe`, () => valid(obsOf(type)));
  }
  test('every interceptable event is valid through hooks/intercept; every other one is an event-type error', () => {
    for (const type of ahpEventTypes()) {
      const msg = intercept(event(type));
      if (ahpInterceptableEventTypes().includes(type)) valid(msg);
      else invalid(msg, 'ahp/event-type', '/params/event/type');
    }
  });
  test('an overlay is never validated alone: the event root requires the envelope', () => {
    const overlayOnly = { type: 'user.attention', attention: MINIMAL['user.attention'].attention };
    const issues = invalid(overlayOnly, 'ahp/envelope', '', {
      root: 'schema/draft/catalogue-event.schema.json#/$defs/user.attention',
    });
    assert.deepEqual(issues.map((i) => [i.messageId, i.args?.member, i.args?.type]).sort(), [
      ['requiredEvent', 'id', 'user.attention'],
      ['requiredEvent', 'source', 'user.attention'],
      ['requiredEvent', 'time', 'user.attention'],
    ]);
    valid(event('user.attention'), { root: 'schema/draft/interaction-event.schema.json#/$defs/user.attention' });
  });
  test('an unknown event type is unsupported semantics', () => {
    invalid(observe({ ...event('tool.before'), type: 'tool.error' }), 'ahp/event-type', '/params/event/type');
  });
  test('unknown top-level event members are ignored (open envelope)', () =>
    valid(obsOf('turn.start', { 'x-vendor': { a: 1 }, trigger: 'user' })));
});
