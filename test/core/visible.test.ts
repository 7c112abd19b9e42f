/**
 * No finding message carries a raw invisible or control character (src/core/visible.ts): the
 * escaping is a property of the message layer, so it holds for every rule of both protocols.
 * The broad check mutates every string of every conformance case with each kind of invisible
 * character (and raw bytes that make the JSON invalid) and reads every message.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { validate } from '../../src/api/validate.ts';
import { codePointName, visible } from '../../src/core/visible.ts';
import { runCli } from '../cli/helpers.ts';
import { sweep, TEST_SCALE } from '../scale.ts';

const REPO = fileURLToPath(new URL('../../', import.meta.url));

/** Independent of the module: any character a terminal would not show as itself. */
const RAW =
  /[\u0000-\u001f\u007f-\u009f\u00a0\u00ad\u061c\u180e\u2000-\u200f\u2028-\u202f\u205f-\u206f\u3000\ufeff\ufff9-\ufffb\ufffe\uffff\ue000-\uf8ff]|[\ud800-\udfff]/;

const CHARS = [
  0xfeff, 0x200b, 0x200e, 0x202e, 0x2066, 0x00ad, 0x0000, 0x0007, 0x001b, 0x0085, 0x009b, 0x2028, 0x2029, 0x00a0,
  0x2003, 0x3000, 0xe000, 0xd800, 0xfffe,
];

test('visible: each invisible or control character becomes U+XXXX; visible text is unchanged', () => {
  for (const cp of CHARS) {
    const s = `a${String.fromCharCode(cp)}b`;
    assert.equal(visible(s), `a${codePointName(cp)}b`, codePointName(cp));
  }
  assert.equal(visible('a\u{10ffff}b'), 'aU+10FFFFb');
  for (const s of ['plain ASCII with spaces', 'é ü 中文 Ελληνικά', 'emoji 😀 and 𝄞', '"quoted" `code` /a/b~0'])
    assert.equal(visible(s), s);
  const once = visible('x\ufeff\u200by');
  assert.equal(visible(once), once);
});

/** Every string in `v` (keys too) with `c` appended. */
function mutate(v: unknown, c: string): unknown {
  if (typeof v === 'string') return v + c;
  if (Array.isArray(v)) return v.map((x) => mutate(x, c));
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k + c, mutate(x, c)]));
  return v;
}

/** Only string values (not keys) mutated: the envelope and payloads keep their shape, so deeper rules run. */
function mutateValues(v: unknown, c: string): unknown {
  if (typeof v === 'string') return c + v;
  if (Array.isArray(v)) return v.map((x) => mutateValues(x, c));
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, mutateValues(x, c)]));
  return v;
}

function caseTexts(protocol: 'aep' | 'ahp'): { name: string; text: string }[] {
  const out: { name: string; text: string }[] = [];
  for (const group of ['pass', 'fail']) {
    const dir = `${REPO}conformance/${protocol}/${group}/`;
    for (const f of readdirSync(dir))
      if (f.endsWith('.jsonl') || (f.endsWith('.json') && !f.endsWith('.expected.json')))
        out.push({ name: `${group}/${f}`, text: readFileSync(dir + f, 'utf8') });
  }
  return out;
}

for (const protocol of ['aep', 'ahp'] as const) {
  test(`${protocol}: no finding message on any mutated conformance case holds a raw invisible character`, async (t) => {
    let messages = 0;
    for (const { name, text } of sweep(t, caseTexts(protocol))) {
      for (const cp of CHARS) {
        const c = String.fromCharCode(cp);
        const variants: string[] = [];
        const lines = text.split('\n');
        for (const how of [mutate, mutateValues]) {
          variants.push(
            lines
              .map((l) => {
                try {
                  return JSON.stringify(how(JSON.parse(l), c));
                } catch {
                  return l;
                }
              })
              .join('\n'),
          );
        }
        // raw, unescaped in the text: invalid JSON (or a control in a string), at a rotating place
        variants.push(
          lines.map((l, i) => (l.length ? l.slice(0, i % l.length) + c + l.slice(i % l.length) : l)).join('\n'),
        );
        for (const v of variants) {
          const source = name.endsWith('.json') && !name.includes('/stdio') ? name : `${name}`;
          const { findings } = await validate(protocol, { text: v, source });
          for (const f of findings) {
            messages++;
            assert.doesNotMatch(
              f.message,
              RAW,
              `${name} ${codePointName(cp)} ${f.ruleId}: ${JSON.stringify(f.message)}`,
            );
          }
        }
      }
    }
    assert.ok(messages > (TEST_SCALE === 'full' ? 1000 : 250), `only ${messages} messages were read`);
  });
}

test('CLI: a BOM at the start of a later line (two files on stdin) is jsonl/bom there, and no output line prints U+FEFF raw', async () => {
  const a = '{"a":1}\n';
  const r = await runCli('aep', ['validate', '-'], `${a}\ufeff{"b":2}\n\ufeff{"c":`);
  assert.equal(r.code, 1);
  assert.match(r.stdout, /^<stdin>:2:1 +error +jsonl\/bom /m);
  assert.match(r.stdout, /^<stdin>:3:1 +error +jsonl\/bom /m);
  assert.doesNotMatch(r.stdout, /jsonl\/invalid-json.*:2:/);
  assert.doesNotMatch(r.stdout + r.stderr, /\ufeff/);
  // the JSON scanner names an invisible character it stops at
  const r2 = await runCli('aep', ['validate', '-', '-f', 'json'], '{"a":\u200b1}\n');
  const msg = JSON.parse(r2.stdout).findings.find((f: { ruleId: string }) => f.ruleId === 'jsonl/invalid-json')
    .message as string;
  assert.match(msg, /U\+200B/);
});
