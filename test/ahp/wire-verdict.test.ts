import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fastWirePass } from '../../src/ahp/schema/wire-fast.ts';
import { wireVerdict, wireVerdictUndispatched } from '../../src/ahp/schema/wire-verdict.ts';
import { isAhpValid, validateAhpMessage } from '../../src/run/ahp-message.ts';
import { generateAhp } from '../../tools/bench/generate-ahp.ts';
import { AHP_CORPUS_DIR, filesUnder, jsonValuesOf, REPO_DIR } from './helpers.ts';
import { needShared, SHARED } from '../shared.ts';
import { tempDir } from '../temp.ts';

const files = filesUnder;
const values = jsonValuesOf;

/** The value and its variants at the members the dispatch reads, each one member away from it. */
function variants(v: unknown): unknown[] {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return [v];
  const o = v as Record<string, unknown>;
  const out: unknown[] = [o];
  for (const method of [undefined, 'hooks/intercept', 'hooks/observe', 'hooks/capabilities', 'hooks/other', 7])
    out.push({ ...o, method });
  const { id: _id, result: _r, error: _e, params: _p, method: _m, ...rest } = o;
  out.push({ ...o, result: {} }, { ...o, error: { code: 1, message: 'x' } }, { ...o, id: 1 });
  out.push({ ...rest, id: o.id, result: o.result }, { ...rest, id: o.id, error: o.error }, rest, { ...o, params: 1 });
  if (o.result !== undefined) out.push({ ...o, error: { code: -32001, message: 'm' } });
  return out.map((x) => JSON.parse(JSON.stringify(x)));
}

function assertSame(all: unknown[], what: string): number {
  let n = 0;
  for (const v of all)
    for (const x of variants(v)) {
      n++;
      // the message only on a mismatch (made for every variant, it cost more than the check)
      if (wireVerdict(x) !== wireVerdictUndispatched(x)) assert.fail(`${what}: ${JSON.stringify(x).slice(0, 300)}`);
    }
  return n;
}

test('wire verdict: the dispatched oneOf gives the whole oneOf verdict on every conformance case and its one-member variants', () => {
  const all = files(join(REPO_DIR, 'conformance/ahp')).filter(
    (f) => /\.jsonl?$/.test(f) && !f.endsWith('.expected.json'),
  );
  const n = assertSame(all.flatMap(values), 'conformance/ahp');
  assert.ok(n > 1000, `only ${n} values checked`);
});

test('wire verdict: the same on generated traffic (the bench generator) and its variants', (t) => {
  const dir = tempDir(t, 'wire-verdict-');
  const path = join(dir, 'ahp.jsonl');
  generateAhp(path, { messages: 3000, seed: 7 });
  const all = values(path);
  assert.equal(all.length, 3000);
  assert.ok(
    all.every((v) => wireVerdict(v)),
    'the generated traffic is valid',
  );
  assertSame(all, 'generated');
});

test('wire verdict: the same on the upstream AHP corpus and its variants', (t) => {
  if (!needShared(t, SHARED.ahpCorpus)) return;
  const all = files(AHP_CORPUS_DIR).filter((f) => /\.jsonl?$/.test(f));
  assert.ok(assertSame(all.flatMap(values), 'upstream corpus') > 100);
});

test('wire verdict: values that are not objects take the whole validator', () => {
  for (const v of [null, 1, 'x', [], [{ jsonrpc: '2.0' }], true])
    assert.equal(wireVerdict(v), wireVerdictUndispatched(v));
});

test('wire verdict: a value without text whose members JSON never makes (not enumerable, an accessor) is judged by the schema, not the fast pass', () => {
  const line = readFileSync(join(REPO_DIR, 'examples/ahp/session.jsonl'), 'utf8').split('\n')[2]!;
  const valid = JSON.parse(line) as { params: { event: Record<string, unknown> } };
  assert.ok(isAhpValid(validateAhpMessage(valid)) && fastWirePass(valid), 'the example passes, by the fast pass');
  const hidden = JSON.parse(line) as typeof valid;
  Object.defineProperty(hidden.params.event, 'session', { value: 5, enumerable: false });
  const inherited = JSON.parse(line) as typeof valid;
  const { session: _s, ...rest } = inherited.params.event;
  inherited.params.event = Object.assign(
    Object.create({
      get session() {
        return 5;
      },
    }),
    rest,
  );
  for (const v of [hidden, inherited]) {
    assert.equal(wireVerdictUndispatched(v), false);
    const findings = validateAhpMessage(v);
    assert.ok(
      findings.some((f) => f.severity === 'error' && f.pointer === '/params/event/session'),
      JSON.stringify(findings),
    );
  }
});
