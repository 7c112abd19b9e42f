/**
 * The stream model reuses one event-facts object a run (src/ahp/analyzers/facts.ts `clearEventFacts`): cleared, it is
 * what `emptyEventFacts` makes, so no fact of one message shows in the next.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { clearEventFacts, emptyEventFacts, type EventFacts } from '../../src/ahp/analyzers/facts.ts';

test('a cleared event-facts object holds every member emptyEventFacts makes, none of them left set', () => {
  const e = emptyEventFacts() as unknown as Record<string, unknown>;
  for (const k of Object.keys(e)) e[k] = { set: k };
  assert.deepEqual(clearEventFacts(e as unknown as EventFacts), emptyEventFacts());
  assert.deepEqual(Object.keys(e), Object.keys(emptyEventFacts()));
});
