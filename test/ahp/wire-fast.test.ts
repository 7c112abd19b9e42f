import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { fastWirePass, handEnvelopeOn } from '../../src/ahp/schema/wire-fast.ts';
import { wireVerdict, wireVerdictUndispatched } from '../../src/ahp/schema/wire-verdict.ts';
import { isObj } from '../../src/core/value.ts';
import { generateAhp } from '../../tools/bench/generate-ahp.ts';
import { AHP_CORPUS_DIR, filesUnder, jsonValuesOf, REPO_DIR } from './helpers.ts';
import { needShared, SHARED } from '../shared.ts';
import { tempDir } from '../temp.ts';

const files = filesUnder;
const values = jsonValuesOf;

/** Other values for a member: another type, and nearby values of the same type (the vocabulary the fast pass reads). */
function replacements(v: unknown): unknown[] {
  if (typeof v === 'string') return [7, '', `${v}x`, `${v}.x`, 'modify', 'flow', 'inject', 'deny', 'draft', '2.0'];
  if (typeof v === 'boolean') return [!v, 'x'];
  if (typeof v === 'number') return ['x', -1, 1.5];
  if (v === null) return [true];
  if (Array.isArray(v)) return [{}, []];
  return [[], null, {}];
}

/**
 * Calls `visit` with every value one member away from `root`: a member deleted, replaced or added, an item dropped or
 * repeated. The mutation is made in place and undone after the call (`visit` must not keep the value).
 */
function eachMutation(root: unknown, visit: (v: unknown) => void): void {
  const walk = (node: unknown) => {
    if (Array.isArray(node)) {
      if (node.length) {
        const last = node.pop();
        visit(root);
        node.push(last, node[0]);
        visit(root);
        node.pop();
      }
      for (let i = 0; i < node.length; i++) {
        const was = node[i];
        for (const r of replacements(was)) {
          node[i] = r;
          visit(root);
        }
        node[i] = was;
        walk(was);
      }
    } else if (isObj(node)) {
      node.added = 1;
      visit(root);
      delete node.added;
      for (const k of Object.keys(node)) {
        const was = node[k];
        delete node[k];
        visit(root);
        for (const r of replacements(was)) {
          node[k] = r;
          visit(root);
        }
        node[k] = was;
        walk(was);
      }
    }
  };
  walk(root);
}

/** Holds the fast pass to the whole validator on `all` and their mutations; returns how often it passed. */
function assertFastSound(all: unknown[], what: string): { fast: number; checked: number } {
  let fast = 0;
  let checked = 0;
  const seen = new Set<string>();
  const check = (x: unknown) => {
    checked++;
    if (!isObj(x) || !fastWirePass(x)) return;
    fast++;
    if (!wireVerdictUndispatched(x)) assert.fail(`${what}: the fast pass accepts ${JSON.stringify(x).slice(0, 400)}`);
    assert.equal(wireVerdict(x), true);
  };
  for (const v of all) {
    const text = JSON.stringify(v);
    if (seen.has(text)) continue;
    seen.add(text);
    check(v);
    // a large value (deep nesting, long lists: the parser's limits) is checked as it is, not mutated
    if (text.length <= 4000) eachMutation(v, check);
  }
  return { fast, checked };
}

test('wire fast pass: never accepts what the whole validator refuses, on generated traffic and its one-member mutations', (t) => {
  const dir = tempDir(t, 'wire-fast-');
  const path = join(dir, 'ahp.jsonl');
  generateAhp(path, { messages: 3000, seed: 11 });
  const all = values(path);
  assert.ok(
    all.every((v) => isObj(v) && fastWirePass(v)),
    'the fast pass takes every generated message',
  );
  // one of each shape (method, event type, capabilities, result) for the mutations
  const seen = new Set<string>();
  const shapes = all.filter((v) => {
    const o = v as {
      method?: unknown;
      params?: { event?: { type?: unknown }; capabilities?: unknown };
      result?: { effects?: { type?: unknown }[] };
    };
    const k = JSON.stringify([o.method, o.params?.event?.type, o.params?.capabilities, o.result?.effects?.[0]?.type]);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
  const { fast, checked } = assertFastSound(shapes, 'generated');
  assert.ok(fast > 500 && checked > 2000, `fast ${fast} of ${checked}`);
});

test('wire fast pass: events get the hand envelope check (the envelope is the one ENVELOPE_PRINT names)', () => {
  // an edit of events.schema.json#/$defs/envelope turns it off: read envelopePass against the new envelope, then
  // set ENVELOPE_PRINT to fnv32 of its JSON text
  assert.ok(handEnvelopeOn());
});

test('wire fast pass: the same on every conformance case and its one-member mutations', () => {
  const all = files(join(REPO_DIR, 'conformance/ahp')).filter(
    (f) => /\.jsonl?$/.test(f) && !f.endsWith('.expected.json'),
  );
  const { fast } = assertFastSound(all.flatMap(values), 'conformance/ahp');
  assert.ok(fast > 1000, `the fast pass took only ${fast} values`);
});

test('wire fast pass: the same on the upstream AHP corpus and its one-member mutations', (t) => {
  if (!needShared(t, SHARED.ahpCorpus)) return;
  const all = files(AHP_CORPUS_DIR).filter((f) => /\.jsonl?$/.test(f));
  const { fast } = assertFastSound(all.flatMap(values), 'upstream corpus');
  assert.ok(fast > 50, `the fast pass took only ${fast} values`);
});
