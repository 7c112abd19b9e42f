/**
 * AEP-0006 audit cases. field_spec `required`, `multi` and `other` default to false, so a member written out at its
 * default claims nothing on any field type (the same member set true off its type is judged); and an answer to a form
 * that carries no `values` covers none of its required fields.
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

const FORM = {
  kind: 'form',
  prompt: 'unit requests form',
  fields: [
    { id: 's', type: 'string', label: 's', required: true },
    { id: 'n', type: 'number', label: 'n', required: true },
    { id: 'o', type: 'select', label: 'o', choices: [{ id: 'a', label: 'a' }] },
  ],
};

test('form answers without values: every required field is unanswered, but a string field below redacted', async () => {
  for (const answer of [{}, { option: 'a' }, { text: 'a' }])
    for (const capture of ['redacted', 'metadata'] as const) {
      const req = event('attention.requested', 0, { id: 'q', capture, data: FORM });
      const ans = event('attention.answered', 1, { id: 'an', subject: 'q', capture, data: { answer } });
      const res = event('attention.resolved', 2, { subject: 'q', cause: 'an', data: { resolution: 'answered' } });
      const fs = (await checkText(jsonl([req, ans, res]))).filter((f) => f.ruleId === 'aep/form-values-required');
      // below redacted a string answer is dropped (AEP-0006 gating), so only the number field is owed
      const owed = capture === 'redacted' ? ['s', 'n'] : ['n'];
      assert.deepEqual(
        fs.map((f) => `${f.line}${f.pointer}:${f.args?.field}`),
        owed.map((id) => `2/data/answer:${id}`),
        `${JSON.stringify(answer)} at ${capture}`,
      );
    }
});

test('form answers without values: nothing owed (no required field, or the request not in the input) is no finding', async () => {
  const optional = { ...FORM, fields: [FORM.fields[2]] };
  const req = event('attention.requested', 0, { id: 'q', capture: 'redacted', data: optional });
  const ans = event('attention.answered', 1, { id: 'an', subject: 'q', capture: 'redacted', data: { answer: {} } });
  const res = event('attention.resolved', 2, { subject: 'q', cause: 'an', data: { resolution: 'answered' } });
  assert.equal(brief(await checkText(jsonl([req, ans, res]))), '(none)');
  const alone = event('attention.answered', 0, { subject: 'elsewhere', data: { answer: { text: 'a' } } });
  const fs = (await checkText(jsonl([alone]))).filter((f) => f.ruleId.startsWith('aep/form-'));
  assert.deepEqual(fs, [], brief(fs));
});

test('a respond without values to a form with required fields must be rejected; accepting it is the error', async () => {
  const req = event('attention.requested', 0, { id: 'q', capture: 'redacted', data: FORM });
  const respond = event('control.attention.respond', undefined, {
    id: 'c',
    subject: 'q',
    cause: 'q',
    source: 'aep://ops-host/agent/console',
    agent: 'console',
    capture: 'redacted',
    data: { answer: { text: 'a' } },
  });
  const timeout = event('attention.timeout', 2, { subject: 'q', data: { after_ms: 1 } });
  for (const [ack, error] of [
    ['control.accepted', true],
    ['control.rejected', false],
  ] as const) {
    const a = event(ack, 1, { cause: 'c', ...(ack === 'control.rejected' ? { data: { reason: 'invalid' } } : {}) });
    const fs = await checkText(jsonl([req, respond, a, timeout]));
    assert.equal(
      fs.some((f) => f.ruleId === 'aep/respond-invalid-accepted' && f.line === 3),
      error,
      `${ack}: ${brief(fs)}`,
    );
    // the required rejection clears the command's warning too; an acceptance keeps it at the command
    assert.equal(
      fs.some((f) => f.ruleId === 'aep/respond-values-required' && f.line === 2 && f.pointer === '/data/answer'),
      error,
      `${ack}: ${brief(fs)}`,
    );
  }
});
