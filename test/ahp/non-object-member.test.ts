/**
 * A member described as an object (or a list) that holds a value of another JSON type (base/versioning.md §JSON values:
 * "Fields described as JSON objects MUST contain objects") is at most one finding at that member (none where the member
 * is open JSON). Object and array conditions (`if`/`then` over `required` or `contains`, `not: {required}`) hold
 * vacuously for such a value under JSON Schema, so without care they added findings about the rest of the message that
 * the original and a copy without the member both refute. Relation, over the object and list members of the conformance
 * pass messages: the findings of the copy with a value of another type there, outside that member, are among those of
 * the original or of the copy with the member deleted.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { childPointer } from '../../src/core/pointer.ts';
import { isObj } from '../../src/core/value.ts';
import { type ValidateAhpOptions, validateAhpMessage } from '../../src/run/ahp-message.ts';
import { filesUnder, jsonValuesOf, REPO_DIR } from './helpers.ts';

const OTHER_TYPES: unknown[] = ['{"a":1}', 5, true, null];

/** Every (pointer, key, value) of an object- or list-valued member under `v`, depth first. */
function objectMembers(v: unknown, at = ''): Array<{ at: string; key: string; value: unknown }> {
  if (!isObj(v)) return Array.isArray(v) ? v.flatMap((x, i) => objectMembers(x, `${at}/${i}`)) : [];
  return Object.entries(v).flatMap(([k, x]) => {
    const p = childPointer(at, k);
    return [...(isObj(x) || Array.isArray(x) ? [{ at: p, key: k, value: x }] : []), ...objectMembers(x, p)];
  });
}

const keyOf = (f: { ruleId: string; pointer?: string; message: string }): string =>
  `${f.ruleId} ${f.pointer} ${f.message}`;

/** The problems of the relation over `docs` (each validated with `opts`); `mutated` counts the copies checked. */
function relation(docs: unknown[], opts: ValidateAhpOptions | undefined, counter: { mutated: number }): string[] {
  const problems: string[] = [];
  for (const m of docs) {
    const seen = new Set(validateAhpMessage(m, opts).map(keyOf));
    for (const { at, key, value } of objectMembers(m).slice(0, 30)) {
      // the place, found again in a copy
      const copyAt = (c: unknown): Record<string, unknown> =>
        at
          .split('/')
          .slice(1, -1)
          .reduce<unknown>(
            (o, s) => (o as Record<string, unknown>)[s.replace(/~1/g, '/').replace(/~0/g, '~')],
            c,
          ) as Record<string, unknown>;
      const deleted = structuredClone(m);
      delete copyAt(deleted)[key];
      const allowed = new Set([...seen, ...validateAhpMessage(deleted, opts).map(keyOf)]);
      for (const bad of [Array.isArray(value) ? {} : [], ...OTHER_TYPES]) {
        const copy = structuredClone(m);
        copyAt(copy)[key] = bad;
        counter.mutated++;
        const findings = validateAhpMessage(copy, opts);
        const here = findings.filter((f) => (f.pointer ?? '') === at);
        // a scalar is one type finding; an object where a list belongs may be a shape the place also takes (a union)
        if (here.length > 1 && (bad === null || typeof bad !== 'object'))
          problems.push(
            `${at} = ${JSON.stringify(bad)}: ${here.length} findings there (${here.map(keyOf).join('; ')})`,
          );
        for (const f of findings)
          if ((f.pointer ?? '') !== at && !(f.pointer ?? '').startsWith(`${at}/`) && !allowed.has(keyOf(f)))
            problems.push(`${at} = ${JSON.stringify(bad)}: ${keyOf(f)}`);
      }
    }
  }
  return problems;
}

test('a value of another type where an object or a list belongs is at most one finding there and says nothing about the rest', () => {
  const messages = filesUnder(join(REPO_DIR, 'conformance/ahp/pass'))
    .filter((p) => p.endsWith('.jsonl'))
    .flatMap(jsonValuesOf)
    .filter((m) => isObj(m) && isObj(m.params) && isObj(m.params.event));
  assert.ok(messages.length > 50, 'the pass cases hold messages with events');
  const counter = { mutated: 0 };
  const problems = relation(messages.slice(0, 300), undefined, counter);
  assert.ok(counter.mutated > 1000, `${counter.mutated} mutations`);
  assert.deepEqual(problems.slice(0, 20), []);
});

test('the same in registration documents (a bearer condition held for an authentication that is no object)', () => {
  const docs = filesUnder(join(REPO_DIR, 'conformance/ahp/pass'))
    .filter((p) => p.endsWith('.registration.json'))
    .flatMap(jsonValuesOf);
  assert.ok(docs.length >= 3, 'the pass cases hold registration documents');
  const counter = { mutated: 0 };
  const problems = relation(docs, { root: 'registration' }, counter);
  assert.ok(counter.mutated > 100, `${counter.mutated} mutations`);
  assert.deepEqual(problems.slice(0, 20), []);
});

test('every if-condition of our AHP schemas over typed keywords names its type (so it selects no branch vacuously)', () => {
  const typed = new Set([
    'required',
    'properties',
    'contains',
    'items',
    'minItems',
    'maxItems',
    'minLength',
    'pattern',
  ]);
  const loose: string[] = [];
  const check = (s: unknown, at: string): void => {
    if (!isObj(s)) return;
    if (!('type' in s) && Object.keys(s).some((k) => typed.has(k))) loose.push(at);
    if (isObj(s.properties)) for (const [k, v] of Object.entries(s.properties)) check(v, `${at}/properties/${k}`);
  };
  const walk = (v: unknown, at: string): void => {
    if (Array.isArray(v)) for (const [i, x] of v.entries()) walk(x, `${at}/${i}`);
    if (!isObj(v)) return;
    if (isObj(v.if)) check(v.if, `${at}/if`);
    for (const [k, x] of Object.entries(v)) walk(x, `${at}/${k}`);
  };
  const files = filesUnder(join(REPO_DIR, 'schemas/ahp')).filter((p) => p.endsWith('.json'));
  for (const f of files) walk(jsonValuesOf(f)[0], f.slice(f.lastIndexOf('/') + 1));
  assert.ok(files.length > 5);
  assert.deepEqual(loose, []);
});
