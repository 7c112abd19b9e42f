/**
 * AEP-0006 field_spec: `required`, `multi` and `other` default to false, so a member written out at its default claims
 * nothing and is never a finding on any field type; the same member with a non-default value off its field type is.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { brief, checkText, event, jsonl } from './helpers.ts';

const TYPES = ['string', 'number', 'boolean', 'select'] as const;

function field(type: (typeof TYPES)[number], extra: Record<string, unknown>): Record<string, unknown> {
  const f: Record<string, unknown> = { id: `f_${type}`, type, label: `Field ${type}`, ...extra };
  if (type === 'select') f.choices = [{ id: 'a', label: 'A' }];
  return f;
}

async function findingsOf(extra: Record<string, unknown>): Promise<string[]> {
  const req = event('attention.requested', 0, {
    id: 'q',
    capture: 'redacted',
    data: { kind: 'form', prompt: 'Settings', fields: TYPES.map((t) => field(t, extra)) },
  });
  const fs = await checkText(jsonl([req, event('attention.timeout', 1, { subject: 'q', data: { after_ms: 1 } })]));
  return brief(fs) === '(none)' ? [] : fs.map((f) => `${f.severity}:${f.ruleId}@${f.pointer}`);
}

test('form defaults: required, multi and other written out as false pass on every field type', async () => {
  assert.deepEqual(await findingsOf({ required: false, multi: false, other: false }), []);
});

test('form defaults: the same members set true are judged off their field type', async () => {
  const fs = await findingsOf({ multi: true, other: true });
  // multi: true off select is the "only meaningful" warning; other: true off select the "select only" error
  for (const [i, t] of TYPES.entries()) {
    const multi = `warning:aep/form-field-constraint@/data/fields/${i}/multi`;
    const other = `error:aep/form-field-misplaced@/data/fields/${i}/other`;
    assert.equal(fs.includes(multi), t !== 'select', `${t} multi: ${fs.join(' ')}`);
    assert.equal(fs.includes(other), t !== 'select', `${t} other: ${fs.join(' ')}`);
  }
});
