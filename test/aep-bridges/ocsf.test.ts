/**
 * `--from ocsf` against our own projection (AEP-0005 §4): every event of every passing AEP case, projected at every
 * ceiling, decodes with no OCSF finding and back to its envelope; and the upstream OCSF pins decode with none either.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { decodeOcsf, toOcsf } from '../../src/aep/bridges/ocsf.ts';
import { needShared, SHARED, sharedPath } from '../shared.ts';

const PASS = fileURLToPath(new URL('../../conformance/aep/pass/', import.meta.url));
const PINS_REL = `${SHARED.aepCorpus}/ocsf/ocsf-expected.json`;

function passEvents(): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  for (const f of readdirSync(PASS).filter((n) => n.endsWith('.jsonl') && !/\.(ce|otlp|ocsf)\.jsonl$/.test(n)))
    for (const l of readFileSync(PASS + f, 'utf8').split('\n')) {
      try {
        const v: unknown = JSON.parse(l);
        if (v && typeof v === 'object' && !Array.isArray(v) && typeof (v as { aep?: unknown }).aep === 'string')
          out.push(v as Record<string, unknown>);
      } catch {
        // not JSON: not an event
      }
    }
  return out;
}

test('our projection at every ceiling gives no OCSF finding and decodes back to the envelope', () => {
  let records = 0;
  for (const ev of passEvents())
    for (const maxCapture of ['none', 'metadata', 'redacted', 'full'] as const) {
      const { record } = toOcsf(ev, { maxCapture });
      if (!record) continue;
      records++;
      const res = decodeOcsf(record, { maxCapture });
      assert.deepEqual(res.issues, [], `${String(ev.type)} at ${maxCapture}`);
      assert.equal(res.events.length, 1);
      const back = { ...res.events[0]!.event };
      delete back.data;
      delete back.capture;
      const env = { ...ev };
      delete env.data;
      delete env.capture;
      assert.deepEqual(back, env);
    }
  assert.ok(records > 50, `${records} records`);
});

test('the upstream OCSF pins decode with no OCSF finding', (t) => {
  if (!needShared(t, PINS_REL)) return;
  const pins = JSON.parse(readFileSync(sharedPath(PINS_REL), 'utf8')) as Record<string, unknown>;
  for (const [k, rec] of Object.entries(pins)) assert.deepEqual(decodeOcsf(rec).issues, [], `pin ${k}`);
});

test('an answered finding with a disposition, a wrong type_uid and a wrong severity are each found', () => {
  const ev = {
    aep: '0.1',
    id: 'r',
    type: 'attention.resolved',
    time: '2026-01-01T00:00:00Z',
    source: 'aep://h/a',
    agent: 'a',
    session: 's',
    seq: 3,
    subject: 'q',
    severity: 'error',
    data: { resolution: 'answered' },
  };
  const rec = toOcsf(ev).record!;
  const ids = (r: Record<string, unknown>) => decodeOcsf(r).issues.map((i) => `${i.ruleId}@${i.pointer}`);
  assert.deepEqual(
    ids({ ...rec, disposition_id: 1, metadata: { ...(rec.metadata as object), profiles: ['security_control'] } }),
    ['aep/ocsf-disposition@/disposition_id'],
  );
  assert.deepEqual(ids({ ...rec, type_uid: 200401 }), ['aep/ocsf-type-uid@/type_uid']);
  assert.deepEqual(ids({ ...rec, severity_id: 1 }), ['aep/ocsf-severity@/severity_id']);
});
