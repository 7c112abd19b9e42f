import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { msg, text } from '../ahp/builders.ts';
import { obsOf, ruleRows } from './helpers.ts';

const { valid, invalid, validate } = ruleRows(['ahp/content-part', 'ahp/canonical-message']);

describe('content parts and canonical messages', () => {
  const part = (p: object) => obsOf('task.change.after', { items: [p] });
  const base = { id: 'i1', category: 'tool_result' };
  const sha = 'a'.repeat(64);
  test('the eight variants', () => {
    valid(part({ ...base, kind: 'text', mediaType: 'text/plain', selection: 'body', text: 'hi', synthesized: true }));
    valid(
      part({
        ...base,
        kind: 'text',
        mediaType: 'text/plain',
        selection: 'body',
        gap: { reason: 'unavailable', path: 'x' },
        size: 3,
        sha256: sha,
      }),
    );
    valid(part({ ...base, kind: 'text', mediaType: 'text/plain', selection: 'metadata', size: 0, sha256: sha }));
    valid(part({ ...base, kind: 'text', mediaType: 'text/plain', selection: 'omit' })); // text-omit (absent upstream case)
    valid(
      part({ ...base, kind: 'attachment', mediaType: 'image/svg+xml', selection: 'body', body: { ref: 'upload-1' } }),
    );
    valid(
      part({
        ...base,
        kind: 'attachment',
        mediaType: 'application/pdf',
        selection: 'body',
        gap: { reason: 'too large' },
      }),
    );
    valid(part({ ...base, kind: 'attachment', mediaType: 'audio/ogg', selection: 'metadata', size: 10 }));
    valid(part({ ...base, kind: 'attachment', mediaType: 'video/mp4', selection: 'omit', sha256: sha }));
  });
  test('text parts are inline text/plain text', () => {
    invalid(
      part({ ...base, kind: 'text', mediaType: 'text/plain', selection: 'body', body: { ref: 'r' } }),
      'ahp/content-part',
      '/params/event/items/0',
    ); // text-as-ref (absent)
    invalid(
      part({ ...base, kind: 'text', mediaType: 'text/markdown', selection: 'body', text: 'x' }),
      'ahp/content-part',
      '/params/event/items/0/mediaType',
    );
    invalid(
      part({ ...base, kind: 'text', mediaType: 'text/plain', selection: 'body', text: 'x', size: 1 }),
      'ahp/content-part',
      '/params/event/items/0/size',
    );
    invalid(
      part({ ...base, kind: 'reasoning', mediaType: 'text/plain', selection: 'body', text: 'x' }),
      'ahp/content-part',
      '/params/event/items/0/kind',
    );
  });
  test('metadata, omit and gap views carry neither text nor body', () => {
    invalid(
      part({ ...base, kind: 'text', mediaType: 'text/plain', selection: 'omit', text: 'leak' }),
      'ahp/content-part',
      '/params/event/items/0/text',
    ); // omit-text-leak (absent)
    invalid(
      part({ ...base, kind: 'attachment', mediaType: 'image/png', selection: 'omit', body: { ref: 'r' } }),
      'ahp/content-part',
      '/params/event/items/0/body',
    );
    invalid(
      part({
        ...base,
        kind: 'attachment',
        mediaType: 'image/png',
        selection: 'body',
        gap: { reason: 'x' },
        body: { ref: 'r' },
      }),
      'ahp/content-part',
      '/params/event/items/0/body',
    );
    invalid(
      part({ ...base, kind: 'text', mediaType: 'text/plain', selection: 'body', gap: {} }),
      'ahp/content-part',
      '/params/event/items/0/gap',
    );
    invalid(
      part({ ...base, kind: 'text', mediaType: 'text/plain', selection: 'metadata', sha256: sha.toUpperCase() }),
      'ahp/content-part',
      '/params/event/items/0/sha256',
    );
    invalid(
      part({ ...base, kind: 'text', mediaType: 'text/plain', selection: 'metadata', size: -1 }),
      'ahp/content-part',
      '/params/event/items/0/size',
    );
    invalid(
      part({ ...base, kind: 'text', mediaType: 'text/plain', selection: 'full' }),
      'ahp/content-part',
      '/params/event/items/0/selection',
    );
  });
  test('attachments are never text or JSON media and carry only {ref}', () => {
    for (const mt of [
      'application/ld+json',
      'application/json; charset=utf-8',
      'TEXT/html',
      'Application/JSON',
      'text/csv',
    ]) {
      invalid(
        part({ ...base, kind: 'attachment', mediaType: mt, selection: 'body', body: { ref: 'r' } }),
        'ahp/content-part',
        '/params/event/items/0/mediaType',
      ); // attachment-json-suffix (absent)
    }
    invalid(
      part({ ...base, kind: 'attachment', mediaType: 'image/png', selection: 'body', body: { ref: '' } }),
      'ahp/content-part',
      '/params/event/items/0/body/ref',
    );
  });
  test('a missing shared member is one finding, whichever variant the part is', () => {
    // `part` requires id, kind, mediaType and selection once; a variant repeating that reported each absence twice
    const views = [
      { kind: 'text', selection: 'body', text: 'x' },
      { kind: 'text', selection: 'body', gap: { reason: 'r' } },
      { kind: 'text', selection: 'metadata' },
      { kind: 'attachment', selection: 'body', body: { ref: 'r' } },
      { kind: 'attachment', selection: 'omit' },
    ];
    for (const view of views) {
      const fs = validate(part({ category: 'tool_result', ...view })).filter((f) => f.ruleId === 'ahp/content-part');
      assert.deepEqual(
        fs.map((f) => [f.pointer, f.message]),
        [
          ['/params/event/items/0', '`id` is required here.'],
          ['/params/event/items/0', '`mediaType` is required here.'],
        ],
        JSON.stringify(view),
      );
    }
  });
  test('role belongs to the message', () => {
    invalid(
      obsOf('turn.start', { items: [{ id: 'm', role: 1, parts: [] }] }),
      'ahp/canonical-message',
      '/params/event/items/0/role',
    ); // message-role-wrong-type (absent)
    invalid(
      obsOf('model.request.before', { items: [{ id: 'm', parts: [text('x')] }] }),
      'ahp/canonical-message',
      '/params/event/items/0',
    ); // model-child-role-missing (absent)
    invalid(
      obsOf('turn.start', { items: [{ ...msg('user'), parentItemId: 'x' }] }),
      'ahp/canonical-message',
      '/params/event/items/0/parentItemId',
    );
    invalid(
      obsOf('turn.start', { items: [{ ...msg('user'), synthesized: 'yes' }] }),
      'ahp/canonical-message',
      '/params/event/items/0/synthesized',
    );
    invalid(obsOf('turn.progress', { delta: text('x') }), 'ahp/canonical-message', '/params/event/delta');
  });
  test('a content part where a message belongs is one finding, at the list when all are parts', () => {
    // execution-payloads.md §Content and accounting: "bare part lists ... MUST be rejected"; one defect, one finding
    const at = (v: unknown) => validate(v).map((f) => [f.ruleId, f.pointer, f.messageId]);
    const bare = { jsonrpc: '2.0', id: 'e', result: { protocolVersion: 'draft', effects: [] as unknown[] } };
    bare.result.effects.push({
      type: 'modify',
      target: 'output',
      operation: 'replace',
      value: [text('x'), text('y', 'p2')],
    });
    assert.deepEqual(at(bare), [['ahp/canonical-message', '/result/effects/0/value', 'bareList']]);
    // a part among messages: one finding at that item; a singular message slot holding a part: one at the slot
    assert.deepEqual(at(obsOf('turn.start', { items: [msg('user'), text('x')] })), [
      ['ahp/canonical-message', '/params/event/items/1', 'barePart'],
    ]);
    assert.deepEqual(at(obsOf('turn.progress', { delta: text('x') })), [
      ['ahp/canonical-message', '/params/event/delta', 'barePart'],
    ]);
    // a message with a wrong member is still judged member by member
    assert.deepEqual(at(obsOf('turn.start', { items: [{ ...msg('user'), kind: 'text' }] })), [
      ['ahp/canonical-message', '/params/event/items/0/kind', 'x-message'],
    ]);
    // generic slots hold bare parts, not messages
    invalid(obsOf('file.changed', { items: [msg('user')] }), 'ahp/content-part', '/params/event/items/0');
  });
});
