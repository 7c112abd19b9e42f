/**
 * The AEP envelope validator's remembered `uri` and composed `date-time` formats
 * (src/aep/payload.ts) give exactly the verdicts of ajv-formats on any string.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { envelopeValidator } from '../../src/aep/payload.ts';
import { loadAepSchemas } from '../../src/aep/schemas.ts';
import { createAjv } from '../../src/core/ajv.ts';

/** Runs per property; PROPERTY_RUNS raises it for a deeper local search. */
const RUNS = Number(process.env.PROPERTY_RUNS ?? 300);

const reference = createAjv().compile(loadAepSchemas().envelope);
const ours = envelopeValidator();

function pieces(parts: string[]): fc.Arbitrary<string> {
  return fc.array(fc.oneof(fc.constantFrom(...parts), fc.string({ maxLength: 3 })), { maxLength: 8 }).map((a) => a.join(''));
}

const timeLike = fc.oneof(
  pieces(['2026', '2024', '1900', '-', '02', '29', '30', '13', '00', 'T', 't', ' ', '\n', '23', '59', '60', ':', '.', '123', 'Z', 'z', '+', '05:30', '-00:00', '24']),
  fc.date({ min: new Date(0), max: new Date(4102444800000), noInvalidDate: true }).map((d) => d.toISOString()),
  fc.constantFrom('2026-02-29T00:00:00Z', '2024-02-29T00:00:00Z', '2026-12-31T23:59:60Z', '2026-12-31T23:59:60+01:00', '2026-07-03 10:14:00Z', '2026-07-03T10:14:00', '2026-07-03T10:14:00.5+0530'),
);
const uriLike = fc.oneof(
  pieces(['aep', 'https', ':', '//', '/', 'host', '[::1]', '%2', '%20', '?', '#', ' ', 'é', '@', 'a', '1', '.']),
  fc.webUrl(),
  fc.constantFrom('aep://host-a/agent/claude-code/session/s_8f2c', 'urn:test:harness', 'not a uri', 'a:', ''),
);

test('envelope verdicts and errors with our formats equal those with ajv-formats', () => {
  const base = { aep: '0.1', id: 'x', type: 'agent.heartbeat', agent: 'a' };
  fc.assert(
    fc.property(timeLike, uriLike, (time, source) => {
      for (const s of [source, source, time]) {
        // each value twice: the second verdict comes from the remembered table
        const ev = { ...base, time, source: s };
        const a = reference(ev);
        const b = ours(ev);
        assert.equal(b, a, `time ${JSON.stringify(time)} source ${JSON.stringify(s)}`);
        assert.deepEqual(ours.errors ?? null, reference.errors ?? null);
      }
    }),
    { numRuns: RUNS },
  );
});
