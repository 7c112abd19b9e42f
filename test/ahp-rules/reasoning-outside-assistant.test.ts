/**
 * `ahp/reasoning-outside-assistant`: a reasoning part belongs to its owning assistant message (content-upload.md
 * §Canonical messages and content selection); any other role carrying one is an error, any other category is not.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { obsOf, ruleRows } from './helpers.ts';

const { validate } = ruleRows(['ahp/reasoning-outside-assistant']);

const part = (category?: string) => ({
  id: 'p',
  kind: 'text',
  mediaType: 'text/plain',
  selection: 'body',
  text: 't',
  ...(category ? { category } : {}),
});
const items = (role: string, category?: string) =>
  obsOf('model.response.after', { items: [{ id: 'm', role, parts: [part(category)] }] });
const found = (role: string, category?: string) => validate(items(role, category)).map((i) => [i.ruleId, i.severity]);

test('a reasoning part outside an assistant message', () => {
  for (const role of ['user', 'tool'])
    assert.deepEqual(found(role, 'reasoning'), [['ahp/reasoning-outside-assistant', 'error']], role);
  assert.deepEqual(found('assistant', 'reasoning'), []);
  assert.deepEqual(found('user', 'skill'), []);
});
