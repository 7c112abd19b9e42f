/**
 * The Annex A mapping pins (mappings/*.json) are extra valid payload vectors: every expected
 * `{type, data}` whose type is registered validates against that type's payload schema, and
 * every expected type is grammar-legal. claude-code.json pins whole attention.requested
 * payloads (`expected_data`, `expected_data_metadata`).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CORPUS_DIR, compileAll, showErrors } from './helpers.ts';
import { needShared, SHARED } from '../shared.ts';

interface Expected {
  where: string;
  type: string;
  data: unknown;
}

/**
 * Collect every expected `{type, data}` in a mapping file: values under `expected`,
 * `deltas_expected`, `companion` and `primary` (object or list), wherever they sit; vendor
 * inputs (`input`) are never descended into.
 */
function collect(node: unknown, where: string, out: Expected[], underExpected = false): void {
  if (Array.isArray(node)) {
    for (const [i, v] of node.entries()) collect(v, `${where}[${i}]`, out, underExpected);
    return;
  }
  if (typeof node !== 'object' || node === null) return;
  const o = node as Record<string, unknown>;
  if (underExpected && typeof o.type === 'string' && 'data' in o) {
    out.push({ where, type: o.type, data: o.data });
    return;
  }
  for (const [k, v] of Object.entries(o)) {
    if (k === 'input' || k === '$comment') continue;
    const isExpectedKey = k === 'expected' || k === 'deltas_expected' || k === 'companion' || k === 'primary';
    collect(v, `${where}.${k}`, out, isExpectedKey || (underExpected && Array.isArray(v)));
  }
}

const ENVELOPE_TYPE_PATTERN = (c: ReturnType<typeof compileAll>) =>
  new RegExp((c.schemas.envelope as Record<string, Record<string, Record<string, string>>>).properties!.type!.pattern!);

test('mappings/*.json: every expected payload of a registered type validates', async (t) => {
  if (!needShared(t, SHARED.aepCorpus)) return;
  const c = compileAll();
  const grammar = ENVELOPE_TYPE_PATTERN(c);
  const dir = join(CORPUS_DIR, 'mappings');
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.json') && f !== 'claude-code.json')
    .sort();
  assert.ok(files.length > 0, 'no mapping files');
  let total = 0;
  for (const f of files) {
    await t.test(f, () => {
      const found: Expected[] = [];
      collect(JSON.parse(readFileSync(join(dir, f), 'utf8')), f, found);
      assert.ok(found.length > 0, `${f}: no expected entries found`);
      for (const e of found) {
        assert.match(e.type, grammar, `${e.where}: type ${e.type} is not grammar-legal`);
        const v = c.payload(e.type);
        if (!v) {
          // unregistered: must be a vendor type (an unregistered core type is an emitter error)
          assert.ok(
            e.type.startsWith('x.') || c.schemas.registry.types.some((r) => r.type === e.type),
            `${e.where}: unregistered core type ${e.type}`,
          );
          continue;
        }
        assert.equal(v(e.data), true, `${e.where} (${e.type}): ${showErrors(v.errors)}`);
        total++;
      }
    });
  }
  assert.ok(total > 50, `only ${total} registered payloads were checked`);
});

test('mappings/claude-code.json: expected_data and expected_data_metadata are valid attention.requested payloads', (t) => {
  if (!needShared(t, SHARED.aepCorpus)) return;
  const c = compileAll();
  const v = c.payload('attention.requested')!;
  const doc = JSON.parse(readFileSync(join(CORPUS_DIR, 'mappings/claude-code.json'), 'utf8')) as Record<
    string,
    Record<string, unknown>
  >;
  let n = 0;
  for (const [name, entry] of Object.entries(doc)) {
    if (name === '$comment') continue;
    for (const key of ['expected_data', 'expected_data_metadata']) {
      assert.ok(key in entry, `${name}.${key} missing`);
      assert.equal(v(entry[key]), true, `${name}.${key}: ${showErrors(v.errors)}`);
      assert.equal((entry[key] as { kind: string }).kind, 'form');
      n++;
    }
  }
  assert.ok(n >= 4);
});
