/**
 * The event envelope: strict RFC 3339 time, an absolute URI source, ids, extension keys, synthesized markers,
 * session and turn shapes, `tool` on tool events only (base/events.md §Common event fields).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { isDateTime as isRfc3339DateTime } from '../../src/core/schema/formats.ts';
import { event, observe } from '../ahp/builders.ts';
import { obsOf, ruleRows } from './helpers.ts';

const { valid, invalid } = ruleRows(['ahp/envelope', 'ahp/extensions', 'ahp/overlay']);

describe('envelope', () => {
  test('time is strict RFC 3339', () => {
    for (const good of [
      '2026-09-15T12:00:00Z',
      '2026-09-15t12:00:00.123456z',
      '2026-09-15T12:00:00+05:30',
      '2016-12-31T23:59:60Z',
      '2016-12-31T18:59:60-05:00',
      '2024-02-29T00:00:00Z',
    ]) {
      assert.ok(isRfc3339DateTime(good), good);
    }
    for (const bad of [
      '20260915T120000Z',
      '2026-09-15 12:00:00Z',
      '2026-09-15T12:00:00',
      '2026-09-15T12:00:00+0100',
      '2026-09-15T12:00:00+01',
      '2026-02-29T00:00:00Z',
      '2026-09-15T24:00:00Z',
      '2026-09-15T23:59:60Z',
      '2026-06-30T12:59:60Z',
      '2026-09-15T12:00:00+24:00',
      '2026-9-15T12:00:00Z',
    ]) {
      assert.ok(!isRfc3339DateTime(bad), bad);
    }
    invalid(obsOf('turn.start', { time: '20260915T120000Z' }), 'ahp/envelope', '/params/event/time'); // timestamp-compact (absent upstream case)
  });
  test('source is an absolute URI', () => {
    valid(obsOf('turn.start', { source: 'https://harness.example/runtime/42' }));
    valid(obsOf('turn.start', { source: 'urn:uuid:5b7de29e-a9e0-41a8-bf26-d94b05f0656d' }));
    invalid(obsOf('turn.start', { source: 'harness-42' }), 'ahp/envelope', '/params/event/source');
    invalid(obsOf('turn.start', { source: 'https://bad host/%zz' }), 'ahp/envelope', '/params/event/source');
  });
  test('id and type are required, non-empty strings', () => {
    invalid(obsOf('turn.start', { id: '' }), 'ahp/envelope', '/params/event/id');
    const e = event('turn.start');
    delete e.id;
    invalid(observe(e), 'ahp/envelope', '/params/event');
  });
  test('extension keys are reverse-DNS (AHP-EXT-001)', () => {
    valid(
      obsOf('turn.start', {
        extensions: { 'org.w3c.trace_context': { traceparent: 'x' }, 'com.example-corp.audit': true },
      }),
    );
    invalid(obsOf('turn.start', { extensions: { trace: {} } }), 'ahp/extensions', '/params/event/extensions/trace');
  });
  test('synthesized markers are JSON booleans', () => {
    valid(
      obsOf('tool.after', {
        synthesized: true,
        call: { id: 'c1', synthesized: true },
        turn: { id: 't', synthesized: true },
      }),
    );
    invalid(
      obsOf('tool.after', { call: { id: 'c1', synthesized: 'true' } }),
      'ahp/overlay',
      '/params/event/call/synthesized',
    ); // synthesized-call-string (absent upstream case)
    invalid(
      obsOf('turn.start', { session: { id: 's', synthesized: 'true' } }),
      'ahp/envelope',
      '/params/event/session/synthesized',
    );
    invalid(obsOf('turn.start', { synthesized: 1 }), 'ahp/envelope', '/params/event/synthesized');
  });
  test('session, turn, gaps and parentEventId shapes', () => {
    invalid(obsOf('turn.start', { session: { cwd: '/x' } }), 'ahp/envelope', '/params/event/session');
    invalid(
      obsOf('turn.start', { session: { id: 's', agent: { type: 'sub' } } }),
      'ahp/envelope',
      '/params/event/session/agent',
    );
    invalid(obsOf('tool.before', { turn: {} }), 'ahp/envelope', '/params/event/turn');
    invalid(obsOf('tool.before', { gaps: [{ path: 'tool.input' }] }), 'ahp/envelope', '/params/event/gaps/0');
    invalid(obsOf('tool.before', { parentEventId: '' }), 'ahp/envelope', '/params/event/parentEventId');
  });
  test('`tool` belongs to tool events only', () => {
    invalid(
      obsOf('session.start', { tool: { name: 'x', input: {}, origin: 'native' } }),
      'ahp/envelope',
      '/params/event/tool',
    );
  });
});
