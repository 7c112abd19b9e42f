/** The `mappings/` folder of the upstream AEP corpus: every expected `{type, data}` of a vendor mapping. */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { payloadFindings, payloadValidator, registryEntry } from '../aep/schema/validators.ts';
import { loadAepSchemas } from '../aep/schema/registry.ts';
import { aepWording } from '../aep/schema/wording.ts';
import { schemaSentence } from '../core/schema/findings.ts';
import type { CaseResult } from '../core/fixture-result.ts';
import { readJsonFile } from './aep-case-files.ts';
import type { RunContext } from './context.ts';

const PAYLOAD_WORDING = aepWording('payload');

/** One expected `{type, data}` found in a mapping file. */
export interface MappingPayload {
  /** Where in the file (`hooks.PreToolUse.expected[0]`). */
  where: string;
  type: string;
  data: unknown;
}

const EXPECTED_KEYS = new Set(['expected', 'deltas_expected', 'companion', 'primary']);

/**
 * Every expected `{type, data}` of a mapping file (under `expected`, `deltas_expected`, `companion`, `primary`, and the
 * `expected_data*` attention payloads); vendor `input`s and `$comment`s are skipped.
 */
export function collectMappingPayloads(
  node: unknown,
  where: string,
  out: MappingPayload[] = [],
  under = false,
): MappingPayload[] {
  if (Array.isArray(node)) {
    for (const [i, v] of node.entries()) collectMappingPayloads(v, `${where}[${i}]`, out, under);
    return out;
  }
  if (typeof node !== 'object' || node === null) return out;
  const o = node as Record<string, unknown>;
  if (under && typeof o.type === 'string' && 'data' in o) {
    out.push({ where, type: o.type, data: o.data });
    return out;
  }
  for (const [k, v] of Object.entries(o)) {
    if (k === 'input' || k === '$comment') continue;
    const w = where ? `${where}.${k}` : k;
    if (k === 'expected_data' || k === 'expected_data_metadata') {
      out.push({ where: w, type: 'attention.requested', data: v });
      continue;
    }
    collectMappingPayloads(v, w, out, EXPECTED_KEYS.has(k) || (under && Array.isArray(v)));
  }
  return out;
}

export function runMappings(ctx: RunContext): void {
  const dir = join(ctx.dir, 'mappings');
  const envelope = loadAepSchemas().envelope as { properties: { type: { pattern: string } } };
  const grammar = new RegExp(envelope.properties.type.pattern);
  for (const name of readdirSync(dir)
    .filter((n) => n.endsWith('.json'))
    .sort()) {
    const path = join(dir, name);
    const file = ctx.display(path);
    const found = collectMappingPayloads(readJsonFile(path, file), '');
    const problems: string[] = [];
    let checked = 0;
    for (const p of found) {
      if (!grammar.test(p.type)) {
        problems.push(`${p.where}: type "${p.type}" is not grammar-legal (AEP-0001 §6)`);
        continue;
      }
      if (p.type.startsWith('x.')) continue;
      if (!registryEntry(p.type)) {
        problems.push(`${p.where}: "${p.type}" is in the core namespace but not registered (AEP-0002 §6)`);
        continue;
      }
      const v = payloadValidator(p.type);
      if (!v) continue;
      checked++;
      if (p.data === undefined) continue;
      if (!v(p.data)) {
        const first = payloadFindings(p.type, p.data, { wording: PAYLOAD_WORDING })[0];
        problems.push(`${p.where} (${p.type}): ${first ? schemaSentence(PAYLOAD_WORDING, first) : 'payload invalid'}`);
      }
    }
    const result: CaseResult = {
      id: `mappings/${name}`,
      group: 'mappings',
      file,
      expected: 'every expected payload valid',
      actual: problems.length
        ? `${problems.length} invalid of ${found.length}`
        : `${checked} payloads valid (${found.length - checked} vendor or schema-less)`,
      status: found.length === 0 || problems.length ? 'fail' : 'pass',
    };
    if (found.length === 0) result.detail = 'No expected {type, data} entries found in this mapping file.';
    else if (problems.length) result.detail = problems.join('; ') + '.';
    ctx.emit(result);
  }
}
