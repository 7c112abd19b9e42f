/**
 * Random mutations of valid AEP and AHP streams (dropped, duplicated and reordered lines,
 * flipped and inserted bytes, truncated lines, changed value types, prototype-named members,
 * odd read chunking) never make the validator throw, always terminate, and every finding
 * names a place that exists in the input.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import fc from 'fast-check';
import type { Finding } from '../../src/core/finding.ts';
import { generateAep } from '../../tools/bench/generate-aep.ts';
import { generateAhp } from '../../tools/bench/generate-ahp.ts';
import { type TestDriver, aepDriver, ahpDriver, runPipeline } from '../run.ts';
import { runs } from '../scale.ts';
import { withTempDir } from '../temp.ts';

/** Runs per property; PROPERTY_RUNS raises it for a deeper local search. */
const RUNS = Number(process.env.PROPERTY_RUNS ?? runs(120));

function baseStream(kind: 'aep' | 'ahp'): string[] {
  return withTempDir('ac-prop-', (dir) => {
    const file = join(dir, 's.jsonl');
    if (kind === 'aep') generateAep(file, { events: 40, concurrency: 3, seed: 11 });
    else generateAhp(file, { messages: 40, concurrency: 3, seed: 11 });
    return readFileSync(file, 'utf8').split('\n').slice(0, -1);
  });
}

const REPLACEMENTS: unknown[] = [
  null,
  0,
  -1,
  1.5,
  9007199254740993n,
  '',
  'x',
  '__proto__',
  true,
  [],
  {},
  [[[]]],
  { __proto__: 1 },
  { constructor: { prototype: 1 } },
  'aep://h',
  '2026-13-45T99:99:99Z',
];

type Mutation =
  | { op: 'drop' | 'dup'; at: number }
  | { op: 'swap'; a: number; b: number }
  | { op: 'truncate'; at: number; keep: number }
  | { op: 'retype'; at: number; node: number; to: number }
  | { op: 'rename'; at: number; node: number; name: string }
  | { op: 'flip'; at: number; bit: number }
  | { op: 'insert'; at: number; bytes: Uint8Array };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ op: fc.constantFrom<'drop' | 'dup'>('drop', 'dup'), at: fc.nat() }),
  fc.record({ op: fc.constant<'swap'>('swap'), a: fc.nat(), b: fc.nat() }),
  fc.record({
    op: fc.constant<'truncate'>('truncate'),
    at: fc.nat(),
    keep: fc.double({ min: 0, max: 1, noNaN: true }),
  }),
  fc.record({
    op: fc.constant<'retype'>('retype'),
    at: fc.nat(),
    node: fc.nat(),
    to: fc.nat({ max: REPLACEMENTS.length - 1 }),
  }),
  fc.record({
    op: fc.constant<'rename'>('rename'),
    at: fc.nat(),
    node: fc.nat(),
    name: fc.constantFrom(
      '__proto__',
      'constructor',
      'toString',
      'id',
      'type',
      'seq',
      'jsonrpc',
      'params',
      'event',
      'result',
      'A',
      '',
    ),
  }),
  fc.record({ op: fc.constant<'flip'>('flip'), at: fc.nat(), bit: fc.nat({ max: 7 }) }),
  fc.record({
    op: fc.constant<'insert'>('insert'),
    at: fc.nat(),
    bytes: fc.oneof(
      fc.uint8Array({ minLength: 1, maxLength: 4 }),
      fc.constantFrom(
        ...['\n', '\r', '\r\n', '\ufeff', '\u2028', '"', '{', '}', ','].map((s) => new Uint8Array(Buffer.from(s))),
      ),
    ),
  }),
);

function stringify(v: unknown): string {
  return JSON.stringify(v, (_k, x: unknown) => (typeof x === 'bigint' ? `@@${x}@@` : x)).replace(
    /"@@(-?\d+)@@"/g,
    '$1',
  );
}

/** Visit the `node`-th container member (pre-order) and replace its value or its name. */
function editJson(
  line: string,
  node: number,
  edit: (holder: Record<string, unknown> | unknown[], key: string | number) => void,
): string {
  let v: unknown;
  try {
    v = JSON.parse(line);
  } catch {
    return line;
  }
  const slots: [Record<string, unknown> | unknown[], string | number][] = [];
  const walk = (x: unknown) => {
    if (Array.isArray(x))
      for (const [i, y] of x.entries()) {
        slots.push([x, i]);
        walk(y);
      }
    else if (x !== null && typeof x === 'object')
      for (const k of Object.keys(x)) {
        slots.push([x as Record<string, unknown>, k]);
        walk((x as Record<string, unknown>)[k]);
      }
  };
  walk(v);
  if (!slots.length) return line;
  const [holder, k] = slots[node % slots.length];
  edit(holder, k);
  return stringify(v);
}

function apply(lines: string[], muts: Mutation[]): Buffer {
  const out = [...lines];
  const pick = (n: number) => (out.length ? n % out.length : 0);
  const byteEdits: Extract<Mutation, { op: 'flip' | 'insert' }>[] = [];
  for (const m of muts) {
    if (!out.length && m.op !== 'flip' && m.op !== 'insert') continue;
    switch (m.op) {
      case 'drop':
        out.splice(pick(m.at), 1);
        break;
      case 'dup':
        out.splice(pick(m.at), 0, out[pick(m.at)]);
        break;
      case 'swap': {
        const a = pick(m.a);
        const b = pick(m.b);
        [out[a], out[b]] = [out[b], out[a]];
        break;
      }
      case 'truncate': {
        const i = pick(m.at);
        out[i] = out[i].slice(0, Math.floor(out[i].length * m.keep));
        break;
      }
      case 'retype': {
        const i = pick(m.at);
        out[i] = editJson(out[i], m.node, (h, k) => ((h as Record<string, unknown>)[k] = REPLACEMENTS[m.to]));
        break;
      }
      case 'rename': {
        const i = pick(m.at);
        out[i] = editJson(out[i], m.node, (h, k) => {
          if (Array.isArray(h)) return;
          const val = h[k as string];
          delete h[k as string];
          Object.defineProperty(h, m.name, { value: val, enumerable: true, writable: true, configurable: true });
        });
        break;
      }
      default:
        byteEdits.push(m);
    }
  }
  let bytes = Buffer.from(out.length ? out.join('\n') + '\n' : '');
  for (const m of byteEdits) {
    const at = bytes.length ? m.at % bytes.length : 0;
    if (m.op === 'flip' && bytes.length) {
      bytes = Buffer.from(bytes);
      bytes[at] ^= 1 << m.bit;
    } else if (m.op === 'insert')
      bytes = Buffer.concat([bytes.subarray(0, at), Buffer.from(m.bytes), bytes.subarray(at)]);
  }
  return bytes;
}

function physicalLines(b: Buffer): number {
  if (!b.length) return 0;
  let n = 0;
  for (let i = b.indexOf(0x0a); i !== -1; i = b.indexOf(0x0a, i + 1)) n++;
  return b[b.length - 1] === 0x0a ? n : n + 1;
}

async function check(driver: () => TestDriver, bytes: Buffer, chunk: number): Promise<void> {
  const chunks: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += chunk) chunks.push(bytes.subarray(i, i + chunk));
  const findings: Finding[] = [];
  const stats = await runPipeline(
    [
      {
        source: 'm.jsonl',
        open: async function* () {
          yield* chunks;
        },
      },
    ],
    driver(),
    (f) => findings.push(f),
    { maxLineBytes: 4096 },
  );
  const lines = physicalLines(bytes);
  // a head judged binary (src/core/binary.ts: e.g. NUL bytes in its first 16) is one finding and is not read on
  assert.equal(stats.lines, findings.some((f) => f.ruleId === 'jsonl/binary-input') ? 0 : lines);
  for (const f of findings) {
    assert.ok(typeof f.ruleId === 'string' && typeof f.message === 'string' && f.message.length > 0, JSON.stringify(f));
    assert.ok(f.severity === 'error' || f.severity === 'warning' || f.severity === 'info');
    if (f.line === undefined) {
      assert.ok(f.ruleId === 'jsonl/empty-input' && lines === 0, `${f.ruleId} has no line: ${f.message}`);
      continue;
    }
    assert.ok(Number.isInteger(f.line) && f.line >= 1 && f.line <= lines, `${f.ruleId} at line ${f.line} of ${lines}`);
    if (f.column !== undefined)
      assert.ok(Number.isInteger(f.column) && f.column >= 1, `${f.ruleId} column ${f.column}`);
    if (f.byteOffset !== undefined)
      assert.ok(
        Number.isInteger(f.byteOffset) && f.byteOffset >= 0 && f.byteOffset <= bytes.length,
        `${f.ruleId} offset ${f.byteOffset} of ${bytes.length}`,
      );
    for (const r of f.related ?? [])
      if (r.line !== undefined) assert.ok(r.line >= 1 && r.line <= lines, `${f.ruleId} related line ${r.line}`);
  }
}

for (const [name, driver] of [
  ['aep', () => aepDriver()],
  ['ahp', () => ahpDriver()],
] as const) {
  const base = baseStream(name);

  test(`${name}: the unmutated generated stream gives no error or warning (it stops mid-session: open-at-end notes only)`, async () => {
    const findings: Finding[] = [];
    await runPipeline(
      [
        {
          source: 'm.jsonl',
          open: async function* () {
            yield base.join('\n') + '\n';
          },
        },
      ],
      driver(),
      (f) => findings.push(f),
    );
    assert.deepEqual(
      findings.filter((f) => f.severity !== 'info').map((f) => f.ruleId),
      [],
    );
  });

  test(`${name}: mutated streams never throw, and every finding is located inside the input`, {
    timeout: 120_000,
  }, async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(mutation, { minLength: 1, maxLength: 6 }),
        fc.constantFrom(1 << 20, 7, 64),
        async (muts, chunk) => {
          await check(driver, apply(base, muts), chunk);
        },
      ),
      { numRuns: RUNS },
    );
  });
}
