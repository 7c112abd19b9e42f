import { test } from 'node:test';
import assert from 'node:assert/strict';
import { captureRank, captureViolations, type CaptureNode } from '../../src/aep/capture.ts';
import { CAPTURE_RANK } from '../../src/aep/event.ts';
import { captureTreeFor, knownAepTypes } from '../../src/aep/schema/validators.ts';
import { childPointer } from '../../src/core/pointer.ts';
import type { AepCaptureLevel } from '../../src/aep/schema/registry.ts';

const LEVELS = Object.keys(CAPTURE_RANK) as AepCaptureLevel[];

/** The plain walk (every named member visited), as captureViolations must answer. */
function reference(data: unknown, tree: CaptureNode, capture: AepCaptureLevel, ptr = '/data'): string[] {
  const out: string[] = [];
  const rank = CAPTURE_RANK[capture];
  const visit = (v: unknown, node: CaptureNode, p: string): void => {
    if (v === null || typeof v !== 'object') return;
    if (Array.isArray(v)) {
      if (node.items)
        for (const [i, x] of v.entries()) {
          if (CAPTURE_RANK[node.items.level] > rank) out.push(`${childPointer(p, i)} ${node.items.level}`);
          else visit(x, node.items, childPointer(p, i));
        }
      return;
    }
    for (const k of Object.keys(v)) {
      const c = node.properties?.get(k);
      if (!c) continue;
      if (CAPTURE_RANK[c.level] > rank) out.push(`${childPointer(p, k)} ${c.level}`);
      else visit((v as Record<string, unknown>)[k], c, childPointer(p, k));
    }
  };
  visit(data, tree, ptr);
  return out.sort();
}

/** A payload naming every member of `tree` (arrays of two), plus members the schema does not name. */
function fullPayload(node: CaptureNode, depth = 0): unknown {
  if (depth > 6) return 'x';
  if (node.properties) {
    const o: Record<string, unknown> = { 'x-unnamed': { deep: [1, 2] } };
    for (const [k, c] of node.properties) o[k] = fullPayload(c, depth + 1);
    return o;
  }
  if (node.items) return [fullPayload(node.items, depth + 1), fullPayload(node.items, depth + 1)];
  return 'value';
}

test("capture walk: skipping subtrees that name nothing above the capture gives the plain walk's violations, for every registered type and level", () => {
  let checked = 0;
  let violations = 0;
  for (const type of knownAepTypes()) {
    const tree = captureTreeFor(type);
    if (!tree) continue;
    const data = fullPayload(tree);
    for (const level of LEVELS) {
      const got: string[] = captureViolations(data, tree, level).map((v) => `${v.pointer} ${v.level}`);
      const want = reference(data, tree, level);
      assert.deepEqual([...got].sort(), want, `${type} at ${level}`);
      checked++;
      violations += want.length;
    }
  }
  assert.ok(checked > 40, `checked ${checked}`);
  assert.ok(violations > 0, 'some payload member ranks above some level');
});

test('captureRank: the rank of CAPTURE_RANK for every capture level', () => {
  for (const level of Object.keys(CAPTURE_RANK) as (keyof typeof CAPTURE_RANK)[])
    assert.equal(captureRank(level), CAPTURE_RANK[level], level);
  assert.deepEqual(
    (['none', 'metadata', 'redacted', 'full'] as const).map((l) => captureRank(l)),
    [0, 1, 2, 3],
  );
});
