/**
 * AEP-0003 §9 item 2 for the envelope: `subject` and extension attributes travel at every capture (AEP-0001 §8.2), so
 * `aep/metadata-content` screens them as it screens metadata-level payload strings, at `none` to `redacted`.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AEP_CORE_ATTRIBUTES } from '../../src/aep/bridges/types.ts';
import { screened } from '../../src/aep/envelope-members.ts';
import { envelopeFastOn, envelopeSurelyValid, screenedMembersOf } from '../../src/aep/schema/envelope-fast.ts';
import { event, runRule } from './helpers.ts';

const at = (capture: string, over: Record<string, unknown>, type = 'run.started') =>
  event(type, 0, { capture, run: 'r1', ...(capture === 'none' ? {} : { data: { trigger: 'user' } }), ...over });

test('a secret or PII in subject or an extension attribute is an error at none, metadata and redacted', async () => {
  for (const capture of ['none', 'metadata', 'redacted']) {
    for (const [member, value] of [
      ['subject', 'AKIAABCDEFGHIJKLMNOP'],
      ['acmenote', 'password=hunter2'],
      ['acmeuser', 'alice@example.com'],
      ['acmecall', 'call +1 555 123 4567'],
    ]) {
      assert.deepEqual(await runRule('aep/metadata-content', [at(capture, { [member]: value })]), [
        `error:aep/metadata-content@1/${member}`,
      ]);
    }
  }
});

test('a structured extension value (itself aep/extension-value) is screened at any depth', async () => {
  const ev = at('metadata', { acmebag: { inner: ['ok', 'token=abcdef123456'] } });
  assert.deepEqual(await runRule('aep/metadata-content', [ev]), ['error:aep/metadata-content@1/acmebag/inner/1']);
});

test('identifiers, trace context, URIs, numbers and booleans are metadata', async () => {
  const ev = at('none', {
    subject: 'src/app.ts',
    traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01',
    acmetracestate: 'congo=t61rcWkgMzE,rojo=00f067aa0ba902b7',
    acmereq: '123e4567-e89b-12d3-a456-426614174000',
    acmerepo: 'https://github.com/acme/app',
    acmeretry: 3,
    acmedry: true,
  });
  assert.deepEqual(await runRule('aep/metadata-content', [ev]), []);
});

test('not at full (verbatim, as for payloads), and no PII in assessment.* (AEP-0009 decides it there)', async () => {
  assert.deepEqual(await runRule('aep/metadata-content', [at('full', { acmenote: 'password=hunter2' })]), []);
  const assessment = (over: Record<string, unknown>) =>
    event('assessment.feedback.received', 0, { run: 'r1', cause: 'e1', data: { comment: 'c' }, ...over });
  assert.deepEqual(await runRule('aep/metadata-content', [assessment({ acmeuser: 'alice@example.com' })]), []);
  assert.deepEqual(await runRule('aep/metadata-content', [assessment({ acmenote: 'password=hunter2' })]), [
    'error:aep/metadata-content@1/acmenote',
  ]);
});

test('the envelope screen skips exactly the core attributes but subject (AEP-0001 §5.1)', () => {
  for (const k of AEP_CORE_ATTRIBUTES) assert.equal(screened(k), k === 'subject', k);
  for (const k of ['acmenote', 'x', 'datax', 'Type']) assert.equal(screened(k), true, k);
});

test('the envelope fast path hands the screen the members it names, in order, for the envelope it passed', async () => {
  envelopeFastOn();
  const ev = at('metadata', { acmeb: 'x', subject: 's', acmea: 'y' });
  assert.equal(envelopeSurelyValid(ev), true);
  const kept = screenedMembersOf(ev)!;
  const names = kept.names.slice(0, kept.count);
  assert.deepEqual(names, Object.keys(ev).filter(screened));
  assert.deepEqual(names, ['acmeb', 'subject', 'acmea']);
  assert.deepEqual(kept.values.slice(0, kept.count), ['x', 's', 'y']);
  // another envelope, or one the fast path refused, gets the screen's own walk
  assert.equal(screenedMembersOf({ ...ev }), undefined);
  assert.equal(envelopeSurelyValid({ ...ev, acmec: null }), false);
  assert.equal(screenedMembersOf(ev), undefined);
  // and both walks find the same: a secret in an extension attribute of an envelope the fast path refuses
  for (const over of [{ acmenote: 'password=hunter2' }, { acmenote: 'password=hunter2', ACME: 1 }])
    assert.deepEqual(await runRule('aep/metadata-content', [at('metadata', over)]), [
      'error:aep/metadata-content@1/acmenote',
    ]);
});
