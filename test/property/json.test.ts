/**
 * Properties of the JSON layer against independent oracles: the cheap screen never hides a
 * duplicate or a big integer the full scanner would find, the scanner agrees with JSON.parse
 * on validity, indexed and targeted locating agree, the two UTF-8 decoders agree, and chunking
 * never changes what the reader sees.
 */
import assert from 'node:assert/strict';
import { isUtf8 } from 'node:buffer';
import { test } from 'node:test';
import fc from 'fast-check';
import type { Finding } from '../../src/core/finding.ts';
import { locateIndex, parseJsonText, scanJson } from '../../src/core/json.ts';
import { firstInvalidUtf8, readJsonl, type JsonlLine } from '../../src/core/jsonl.ts';
import { escapeToken } from '../../src/core/pointer.ts';
import { runs } from '../scale.ts';

/** Runs per property; PROPERTY_RUNS raises it for a deeper local search. */
const RUNS = Number(process.env.PROPERTY_RUNS ?? runs(200));

/** A JSON value whose objects are member lists, so repeats can be written on purpose. */
type Tree = { t: 'obj'; m: [string, Tree][] } | { t: 'arr'; a: Tree[] } | { t: 'lit'; s: string };

const key = fc.constantFrom('a', 'b', 'c', '__proto__', 'constructor', 'x/y', 'm~n', 'é', 'a"b', 'k:');
const literal = fc.oneof(
  fc.constantFrom(
    'null',
    'true',
    'false',
    '0',
    '-1',
    '1.5e3',
    '"s"',
    '"\\":"',
    '" :"',
    '"\\u0061"',
    '9007199254740991',
    '9007199254740993',
    '-123456789012345678901',
    '1e400',
  ),
  fc.string({ maxLength: 6 }).map((s) => JSON.stringify(s)),
);
const { tree } = fc.letrec<{ tree: Tree }>((tie) => ({
  tree: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    literal.map((s): Tree => ({ t: 'lit', s })),
    fc.array(fc.tuple(key, tie('tree')), { maxLength: 5 }).map((m): Tree => ({ t: 'obj', m })),
    fc.array(tie('tree'), { maxLength: 4 }).map((a): Tree => ({ t: 'arr', a })),
  ),
}));
const space = fc.constantFrom('', '', '', ' ', '\t', '\r\n ');

function write(t: Tree, ws: string, out: string[]): void {
  if (t.t === 'lit') out.push(t.s);
  else if (t.t === 'arr') {
    out.push('[');
    t.a.forEach((x, i) => {
      if (i) out.push(',', ws);
      write(x, ws, out);
    });
    out.push(']');
  } else {
    out.push('{');
    t.m.forEach(([k, v], i) => {
      if (i) out.push(',');
      out.push(ws, JSON.stringify(k), ws, ':', ws);
      write(v, ws, out);
    });
    out.push(ws, '}');
  }
}

/** Expected repeats and big integers, from the tree itself (first occurrence of a name wins). */
function expected(t: Tree, path: string, dups: string[], bigs: string[]): void {
  if (t.t === 'lit') {
    if (/^-?\d{16,}$/.test(t.s) && !Number.isSafeInteger(Number(t.s))) bigs.push(`${path}=${t.s}`);
  } else if (t.t === 'arr') for (const [i, x] of t.a.entries()) expected(x, `${path}/${i}`, dups, bigs);
  else {
    const seen = new Set<string>();
    for (const [k, v] of t.m) {
      const p = `${path}/${escapeToken(k)}`;
      if (seen.has(k)) dups.push(p);
      seen.add(k);
      expected(v, p, dups, bigs);
    }
  }
}

test('parseJsonText finds exactly the repeated names and big integers the tree holds, whatever the screen decides', () => {
  fc.assert(
    fc.property(tree, space, (t, ws) => {
      const out: string[] = [];
      write(t, ws, out);
      const text = out.join('');
      const parsed = parseJsonText(text, 10_000);
      assert.equal(parsed.ok, true, text);
      if (!parsed.ok) return;
      const dups: string[] = [];
      const bigs: string[] = [];
      expected(t, '', dups, bigs);
      assert.deepEqual(
        parsed.duplicates.map((d) => d.pointer),
        dups,
        text,
      );
      assert.deepEqual(
        parsed.bigIntegers.map((b) => `${b.pointer}=${b.text}`),
        bigs,
        text,
      );
      const scanned = scanJson(text, { maxDepth: 10_000 });
      assert.deepEqual(scanned.duplicates, parsed.duplicates);
      assert.equal(scanned.error, undefined);
    }),
    { numRuns: RUNS * 2 },
  );
});

test('the scanner and JSON.parse agree on which texts are JSON (random edits of valid texts)', () => {
  const edit = fc.tuple(
    fc.nat(),
    fc.constantFrom('', '"', ',', ':', '}', ']', '{', '[', '\\', '\u0000', 'x', ' ', '1', '-', '.', 'e', '\u2028'),
    fc.nat({ max: 2 }),
  );
  fc.assert(
    fc.property(tree, fc.array(edit, { maxLength: 3 }), (t, edits) => {
      const out: string[] = [];
      write(t, '', out);
      let text = out.join('');
      for (const [at, ins, del] of edits) {
        const i = text.length ? at % (text.length + 1) : 0;
        text = text.slice(0, i) + ins + text.slice(i + del);
      }
      let native = true;
      try {
        JSON.parse(text);
      } catch {
        native = false;
      }
      const s = scanJson(text, { maxDepth: Infinity });
      assert.equal(
        s.error === undefined,
        native,
        `${JSON.stringify(text)}: scanner ${s.error?.message ?? 'ok'}, JSON.parse ${native ? 'ok' : 'error'}`,
      );
      const p = parseJsonText(text);
      assert.equal(p.ok || (!p.ok && p.kind === 'max-depth'), native);
      if (!p.ok && p.kind === 'invalid-json') assert.ok(p.index >= 0 && p.index <= text.length);
    }),
    { numRuns: RUNS * 2 },
  );
});

function pointers(t: Tree, path: string, out: string[]): void {
  out.push(path);
  if (t.t === 'arr') for (const [i, x] of t.a.entries()) pointers(x, `${path}/${i}`, out);
  else if (t.t === 'obj') for (const [k, v] of t.m) pointers(v, `${path}/${escapeToken(k)}`, out);
}

test('locating through the whole-text index gives the same position as a targeted scan, for every pointer', () => {
  fc.assert(
    fc.property(tree, space, (t, ws) => {
      const out: string[] = [];
      write(t, ws, out);
      const text = out.join('');
      const all: string[] = [];
      pointers(t, '', all);
      all.push('/nope', '/0/nope', 'no-slash', '/a/~2');
      const targeted = all.map((p) => scanJson(text, { maxDepth: 10_000, target: p }).targetIndex);
      // a fresh copy of the text defeats the cache; after 4 lookups locateIndex switches to its index
      const copy = (' ' + text).slice(1);
      const indexed = [...all, ...all].map((p) => locateIndex(copy, p, 10_000));
      assert.deepEqual(indexed, [...targeted, ...targeted], text);
    }),
    { numRuns: RUNS },
  );
});

test('isUtf8 and firstInvalidUtf8 agree on every byte string', () => {
  const utf8ish = fc.array(
    fc.oneof(
      fc.uint8Array({ maxLength: 4 }).map((b) => Buffer.from(b)),
      fc.string({ unit: 'grapheme', maxLength: 3 }).map((s) => Buffer.from(s)),
      fc.constantFrom(
        Buffer.from([0xed, 0xa0, 0x80]),
        Buffer.from([0xf4, 0x90, 0x80, 0x80]),
        Buffer.from([0xe0, 0x80, 0x80]),
        Buffer.from([0xc0, 0x80]),
        Buffer.from([0xf0, 0x9f, 0x98]),
      ),
    ),
    { maxLength: 8 },
  );
  fc.assert(
    fc.property(utf8ish, (parts) => {
      const b = Buffer.concat(parts);
      const bad = firstInvalidUtf8(b);
      assert.equal(isUtf8(b), bad === b.length, b.toString('hex'));
      if (bad < b.length)
        assert.equal(isUtf8(b.subarray(0, bad)), true, 'the prefix before the first bad byte is valid');
    }),
    { numRuns: RUNS * 3 },
  );
});

test('splitting the input into arbitrary read chunks never changes lines, offsets or findings', async () => {
  const lineArb = fc.oneof(
    fc.constantFrom('{"a":1}', '', ' ', '{"a":"é€😀"}', '{"b":"\u2028"}', '\r', 'x\ry', '{"a":', '\ufeff{}'),
    fc.string({ maxLength: 12 }),
  );
  await fc.assert(
    fc.asyncProperty(
      fc.array(lineArb, { maxLength: 6 }),
      fc.boolean(),
      fc.boolean(),
      fc.array(fc.integer({ min: 1, max: 9 }), { minLength: 1, maxLength: 8 }),
      fc.constantFrom<'accept-crlf' | 'reject'>('accept-crlf', 'reject'),
      async (lines, bom, finalNl, sizes, cr) => {
        const bytes = Buffer.concat([
          bom ? Buffer.from([0xef, 0xbb, 0xbf]) : Buffer.alloc(0),
          Buffer.from(lines.join('\n') + (finalNl ? '\n' : '')),
        ]);
        const read = async (chunks: Buffer[]) => {
          const got: JsonlLine[] = [];
          const findings: Finding[] = [];
          const stats = await readJsonl(
            chunks,
            't',
            (l) => got.push(l),
            (f) => findings.push(f),
            { cr, maxLineBytes: 24 },
          );
          return { got, findings, stats };
        };
        const whole = await read([bytes]);
        const chunks: Buffer[] = [];
        for (let i = 0, k = 0; i < bytes.length; k++) {
          const n = sizes[k % sizes.length];
          chunks.push(bytes.subarray(i, i + n));
          i += n;
        }
        assert.deepEqual(await read(chunks), whole);
        for (const f of whole.findings) {
          if (f.line !== undefined)
            assert.ok(f.line >= 1 && f.line <= whole.stats.lines, `${f.ruleId} line ${f.line} of ${whole.stats.lines}`);
          if (f.byteOffset !== undefined) assert.ok(f.byteOffset >= 0 && f.byteOffset <= bytes.length);
        }
        for (const l of whole.got)
          assert.equal(
            bytes
              .subarray(l.byteOffset, l.byteOffset + l.byteLength)
              .toString('utf8')
              .replace(/\r$/, ''),
            l.text.replace(/\r$/, ''),
          );
      },
    ),
    { numRuns: RUNS },
  );
});
