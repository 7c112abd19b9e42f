/**
 * The gated-string walk (src/aep/capture.ts forEachGatedString, which skips subtrees without gated text) against the
 * plain walk that visits every member: the same strings at the same pointers in the same order, over every registered
 * type's full payload, the payloads of the conformance cases, examples, generated bench events and the upstream corpus,
 * one-member mutations of each (delete, change the type, add), and values deeper than its recursion.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { generateAep } from '../../tools/bench/generate-aep.ts';
import { forEachGatedString, type CaptureNode } from '../../src/aep/capture.ts';
import { CAPTURE_RANK } from '../../src/aep/event.ts';
import { captureTreeFor, knownAepTypes } from '../../src/aep/schema/validators.ts';
import { childPointer } from '../../src/core/pointer.ts';
import { CORPUS_DIR, eventsOfFile, jsonFiles } from './helpers.ts';
import { needShared, SHARED } from '../shared.ts';
import { tempDir } from '../temp.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** An event of the corpora: an object with a string `type` and a `data` member. */
const hasData = (o: Record<string, unknown>): boolean => typeof o.type === 'string' && 'data' in o;
const eventsOf = (path: string) => eventsOfFile(path, hasData);

/** The plain walk: every member below `data`, gated at `redacted` or `[metadata*]`, `full` members left out. */
function reference(data: unknown, tree: CaptureNode): string[] {
  const out: string[] = [];
  const walk = (v: unknown, node: CaptureNode | undefined, gated: boolean, p: string): void => {
    if (typeof v === 'string') {
      if (gated) out.push(`${p} ${v}`);
      return;
    }
    if (v === null || typeof v !== 'object') return;
    const step = (x: unknown, c: CaptureNode | undefined, k: string | number): void => {
      if (c && CAPTURE_RANK[c.level] > CAPTURE_RANK.redacted) return;
      walk(x, c, gated || (c !== undefined && (c.level === 'redacted' || c.star === true)), childPointer(p, k));
    };
    if (Array.isArray(v)) for (let i = 0; i < v.length; i++) step(v[i], node?.items, i);
    else for (const k of Object.keys(v)) step((v as Record<string, unknown>)[k], node?.properties?.get(k), k);
  };
  walk(data, tree, false, '/data');
  return out;
}

function gated(data: unknown, tree: CaptureNode): string[] {
  const out: string[] = [];
  forEachGatedString(data, tree, (text, at) => out.push(`${at.pointer()} ${text}`));
  return out;
}

/** A payload naming every member of `tree` (arrays of two), plus members the schema does not name. */
function fullPayload(node: CaptureNode, depth = 0): unknown {
  if (depth > 6) return 'x';
  if (node.properties) {
    const o: Record<string, unknown> = { 'x-unnamed': { deep: ['u', 2] }, 'a/b~c': 'odd key' };
    for (const [k, c] of node.properties) o[k] = fullPayload(c, depth + 1);
    return o;
  }
  if (node.items) return [fullPayload(node.items, depth + 1), fullPayload(node.items, depth + 1)];
  return 'value';
}

const VALUES: unknown[] = [null, 0, 'text', true, [], ['a', { b: 'c' }], {}, { prompt: 'p', label: 'l', x: ['y'] }];

/** `data` and its one-member mutations, at every depth of members named by the tree. */
function* mutations(data: unknown): Generator<unknown> {
  yield data;
  if (data === null || typeof data !== 'object' || Array.isArray(data)) return;
  const o = data as Record<string, unknown>;
  for (const k of Object.keys(o)) {
    const { [k]: _, ...rest } = o;
    yield rest;
    for (const x of VALUES) yield { ...o, [k]: x };
    for (const inner of mutations(o[k])) if (inner !== o[k]) yield { ...o, [k]: inner };
  }
  for (const k of ['prompt', 'message', 'fields', 'answer', 'values', 'zz'])
    for (const x of VALUES) if (!(k in o)) yield { ...o, [k]: x };
}

function check(events: Record<string, unknown>[], label: string, all = true): number {
  let strings = 0;
  for (const ev of events) {
    const tree = captureTreeFor(ev.type as string);
    if (!tree) continue;
    for (const data of all ? mutations(ev.data) : [ev.data]) {
      const want = reference(data, tree);
      assert.deepEqual(gated(data, tree), want, `${label} ${ev.type as string}: ${JSON.stringify(data)}`);
      strings += want.length;
    }
  }
  return strings;
}

test('gated walk: the plain walk over every registered type full payload and its mutations', () => {
  let strings = 0;
  for (const type of knownAepTypes()) {
    const tree = captureTreeFor(type);
    if (tree) strings += check([{ type, data: fullPayload(tree) }], 'full payload');
  }
  assert.ok(strings > 100, `${strings} gated strings`);
});

test('gated walk: the plain walk over the conformance cases, examples and their mutations', () => {
  const events = [...jsonFiles(join(ROOT, 'conformance/aep')), ...jsonFiles(join(ROOT, 'examples/aep'))].flatMap(
    eventsOf,
  );
  assert.ok(events.length > 300, `${events.length} events`);
  assert.ok(check(events, 'conformance') > 100);
});

test('gated walk: the plain walk over generated bench events', (t) => {
  const dir = tempDir(t, 'gated-walk-');
  const path = join(dir, 'aep.jsonl');
  generateAep(path, { events: 3000, concurrency: 40, seed: 11 });
  const events = eventsOf(path);
  assert.ok(check(events, 'bench', false) > 1000);
  check(events.slice(0, 200), 'bench mutation');
});

test('gated walk: the upstream corpus and its mutations', (t) => {
  if (!needShared(t, SHARED.aepCorpus)) return;
  check(jsonFiles(CORPUS_DIR).flatMap(eventsOf), 'upstream');
});

test('gated walk: values nested deeper than its recursion', () => {
  const tree = captureTreeFor('attention.requested')!;
  let deep: unknown = 'secret-ish';
  for (let i = 0; i < 1300; i++) deep = i % 2 ? [deep, 'x'] : { k: deep, 'a/b': 'y' };
  for (const data of [{ prompt: deep }, { kind: 'form', fields: [{ label: deep }] }, { zz: deep }]) {
    const want = reference(data, tree);
    assert.deepEqual(gated(data, tree), want);
  }
});
