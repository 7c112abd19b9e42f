/**
 * Properties of hop down-leveling (AEP-0001 §8.2(b), AEP-0003 §9 item 5) over random streams:
 * the output never declares a level above the input's or the ceiling, never carries a member
 * above its declared level, only claims `redacted` when it was `redacted` already or the hop
 * redacts (§8.2(e)), and is idempotent; events already at or below the ceiling are kept as
 * they are, or, by a redacting hop, go through the path of `aep redact`. And redaction: after the pipeline no rule (a) class is left in any string.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { captureViolations } from '../../src/aep/capture.ts';
import { CAPTURE_RANK } from '../../src/aep/event.ts';
import { captureTreeFor } from '../../src/aep/schema/validators.ts';
import { downlevelStream } from '../../src/aep/downlevel.ts';
import { firstFloorSecret } from '../../src/core/secrets.ts';
import { createRedactor, redact, redactEvent, type CaptureLevel } from '../../src/index.ts';
import { runs } from '../scale.ts';

const LEVELS: CaptureLevel[] = ['none', 'metadata', 'redacted', 'full'];
const level = fc.constantFrom(...LEVELS);
const text = fc.oneof(
  fc.string(),
  fc.constantFrom('AKIAIOSFODNN7EXAMPLE', 'token=abc123', 'Bearer abc123def456', 'a@b.test', 'eyJa.eyJb.c'),
);

// payload generators per type: every gated kind (redacted, full, nested, [metadata*])
const payload = fc.oneof(
  fc.record({
    type: fc.constant('tool.completed'),
    data: fc.record(
      { tool: fc.record({ name: fc.string() }), result: text, result_redacted: text, duration_ms: fc.nat() },
      { requiredKeys: ['tool'] },
    ),
  }),
  fc.record({
    type: fc.constant('run.failed'),
    data: fc.record(
      { reason: fc.string(), error: fc.record({ type: fc.string(), message: text }) },
      { requiredKeys: ['reason'] },
    ),
  }),
  fc.record({
    type: fc.constant('attention.requested'),
    data: fc.record(
      {
        kind: fc.constantFrom('input', 'permission'),
        prompt: text,
        options: fc.array(fc.record({ id: fc.string(), label: text })),
        context: fc.dictionary(fc.string(), text),
      },
      { requiredKeys: ['kind', 'prompt'] },
    ),
  }),
  fc.record({
    type: fc.constant('attention.answered'),
    data: fc.record({
      answer: fc.record(
        { option: fc.string(), text, values: fc.dictionary(fc.string(), fc.oneof(text, fc.integer(), fc.boolean())) },
        { requiredKeys: [] },
      ),
    }),
  }),
  fc.record({
    type: fc.constant('resource.retrieval.returned'),
    data: fc.record({ documents: fc.array(fc.record({ id: fc.string(), content: text, content_redacted: text })) }),
  }),
  fc.record({ type: fc.constant('state.delta'), data: fc.record({ delta: fc.array(fc.anything()), rev: fc.nat() }) }),
  fc.record({ type: fc.constant('x.acme.thing.done'), data: fc.dictionary(fc.string(), text) }),
);
const stream = fc.array(fc.tuple(payload, fc.option(level, { nil: undefined })), { maxLength: 12 });

test('downlevel over random streams never raises a level and leaves nothing above the level it declares', () => {
  fc.assert(
    fc.property(stream, level, fc.boolean(), (events, ceiling, redacting) => {
      const step = downlevelStream(ceiling, redacting ? { redact: true } : {});
      const again = downlevelStream(ceiling, redacting ? { redact: true } : {});
      events.forEach(([p, capture], i) => {
        const ev: Record<string, unknown> = {
          aep: '0.1',
          id: `e${i}`,
          type: p.type,
          agent: 'a',
          session: 's',
          subject: 'q',
          ...(capture ? { capture } : {}),
          data: p.data,
        };
        const declared = capture ?? 'metadata';
        const out = step(ev);
        const tree = captureTreeFor(p.type);
        if (CAPTURE_RANK[declared] <= CAPTURE_RANK[ceiling]) {
          // AEP-0001 §8.2(a): it keeps its level and loses only what that level may not carry
          const honest = !tree || captureViolations(ev.data, tree, declared).length === 0;
          if (!redacting && honest && declared !== 'none')
            assert.equal(out, undefined, 'an honest event at or below the ceiling is kept as it is');
          const kept = out ?? ev;
          if (tree && kept.data !== undefined)
            assert.deepEqual(captureViolations(kept.data, tree, kept.capture as CaptureLevel), []);
          // a redacting hop sends it through the path of `aep redact` (issue 43 item 4), once
          if (redacting && honest && declared !== 'none')
            assert.deepEqual(kept, redactEvent(ev, createRedactor()), 'the aep redact path');
          if (out) assert.equal(again(out), undefined, 'idempotent');
          return;
        }
        assert.ok(out);
        const got = out.capture as CaptureLevel;
        assert.ok(CAPTURE_RANK[got] <= CAPTURE_RANK[ceiling] && CAPTURE_RANK[got] < CAPTURE_RANK[declared]);
        if (got === 'redacted')
          assert.ok(redacting && declared === 'full', 'redacted is minted only by a redacting hop');
        if (got === 'none') assert.ok(!('data' in out));
        if (tree && out.data !== undefined) assert.deepEqual(captureViolations(out.data, tree, got), []);
        assert.equal(again(out), undefined, 'idempotent: the output is at or below the ceiling');
        assert.equal(ev.capture, capture, 'the input is not modified');
      });
    }),
    { numRuns: runs(300) },
  );
});

test('redact leaves no rule (a) class in any string of a random value', () => {
  const secret = fc.constantFrom(
    'AKIAIOSFODNN7EXAMPLE',
    'password: hunter2',
    'Bearer abc123def456',
    'eyJhbGciOi.eyJzdWIi.c2ln',
    '-----BEGIN X KEY-----\nQUJD\n-----END X KEY-----',
    'secret=\nvalue1',
  );
  const piece = fc.oneof(fc.string(), secret);
  const str = fc.array(piece, { maxLength: 4 }).map((a) => a.join(' '));
  const value = fc.letrec((tie) => ({
    v: fc.oneof(
      { depthSize: 'small' },
      str,
      fc.integer(),
      fc.array(tie('v'), { maxLength: 3 }),
      fc.dictionary(fc.string(), tie('v'), { maxKeys: 3 }),
    ),
  })).v;
  fc.assert(
    fc.property(value, (v) => {
      const out = redact(v);
      const walk = (x: unknown): void => {
        if (typeof x === 'string') assert.equal(firstFloorSecret(x), undefined, JSON.stringify(x));
        else if (x && typeof x === 'object') Object.values(x).forEach(walk);
      };
      walk(out);
    }),
    { numRuns: runs(300) },
  );
});

test('a type without annotations (vendor, reserved) keeps no data below the level it came at, on every path', () => {
  const vendorType = fc
    .tuple(
      fc.constantFrom('acme', 'big-co', 'x1'),
      fc.constantFrom('session', 'tool', 'run'),
      fc.constantFrom('custom_blob', 'ran', 'note.added'),
    )
    .map(([v, c, r]) => `x.${v}.${c}.${r}`);
  const type = fc.oneof(vendorType, fc.constantFrom('message.user.submitted', 'message.agent.replied'));
  const secret = fc.constantFrom(
    'SECRET',
    'password=hunter2sequel',
    'Bearer yvxpthLIcYpZweFpPOVeCOtot',
    'AKIAIOSFODNN7EXAMPLE',
  );
  const data = fc.dictionary(
    fc.string({ minLength: 1, maxLength: 8 }),
    fc.oneof(
      secret,
      fc.integer(),
      fc.array(secret, { maxLength: 2 }),
      fc.dictionary(fc.string({ maxLength: 4 }), secret, { maxKeys: 2 }),
    ),
    { minKeys: 1, maxKeys: 4 },
  );
  fc.assert(
    fc.property(type, level, level, data, fc.boolean(), (t, capture, ceiling, d, redacting) => {
      const ev = { aep: '0.1', id: 'e1', type: t, agent: 'a', session: 's', seq: 0, capture, data: d };
      const out = downlevelStream(ceiling, redacting ? { redact: true } : {})(ev);
      if (capture === 'none') assert.ok(out && !('data' in out), 'capture none carries no payload');
      else if (CAPTURE_RANK[capture] <= CAPTURE_RANK[ceiling]) {
        if (redacting) assert.deepEqual(out ?? ev, redactEvent(ev, createRedactor()));
        else assert.equal(out, undefined);
      } else {
        assert.ok(out && !('data' in out), `${t} ${capture} -> ${ceiling}: data stripped wholesale`);
        assert.ok(out.capture !== 'redacted', 'no redacted claim is minted without a field known to be redacted-gated');
      }
      const red = redactEvent(ev, createRedactor());
      const walk = (x: unknown): void => {
        if (typeof x === 'string')
          assert.equal(firstFloorSecret(x), undefined, `aep redact leaves ${JSON.stringify(x)} in ${t}`);
        else if (x && typeof x === 'object') Object.values(x).forEach(walk);
      };
      if (capture === 'redacted' || capture === 'full') walk(red.data);
      else assert.equal(red, ev, 'below redacted, redact touches nothing');
    }),
    { numRuns: runs(300) },
  );
});
