/**
 * An over-long line is one finding with one message, however its bytes arrive: a file, a gzip file, gzip bytes, text,
 * and a stream in chunks smaller or larger than the cap (the reader then meets the cap with or without the line's end
 * in sight). The message gives the line's length in bytes, so it cannot depend on the route.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { test } from 'node:test';
import { gzipSync } from 'node:zlib';
import { validate, type Finding } from '../../src/index.ts';
import { fileTempDir } from '../temp.ts';

const TMP = fileTempDir('ac-line-too-long-');
const CAP = 64;

function chunked(bytes: Buffer, size: number): Readable {
  const parts: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += size) parts.push(bytes.subarray(i, i + size));
  return Readable.from(parts);
}

const shown = (fs: readonly Finding[]) => fs.map((f) => `${f.ruleId}@${f.line}:${f.byteOffset} ${f.message}`);

test('jsonl/line-too-long: the same findings and messages by every route, both protocols', async () => {
  const long = `{"a":"${'x'.repeat(3 * CAP)}"}`;
  const short = '{"b":1}';
  const texts: Record<string, string> = {
    'long line first': `${long}\n${short}\n`,
    'long line last, unterminated': `${short}\n${long}`,
    'long line with CRLF': `${long}\r\n${short}\n`,
    'two long lines': `${long}\n${long}x\n`,
  };
  let n = 0;
  for (const protocol of ['aep', 'ahp'] as const)
    for (const [what, text] of Object.entries(texts)) {
      const bytes = Buffer.from(text);
      const o = { maxLineBytes: CAP };
      const source = 'in.jsonl';
      const want = shown((await validate(protocol, { bytes, source }, o)).findings);
      assert.ok(
        want.some((m) => m.startsWith('jsonl/line-too-long') && / bytes long, over the cap of 64 bytes/.test(m)),
        `${protocol} ${what}: ${want.join('\n')}`,
      );
      const file = join(TMP, `${protocol}-${n++}.jsonl`);
      writeFileSync(file, bytes);
      writeFileSync(`${file}.gz`, gzipSync(bytes));
      const routes: Record<string, Parameters<typeof validate>[1]> = {
        file: { path: file, source },
        'gzip file': { path: `${file}.gz`, source },
        'gzip bytes': { bytes: gzipSync(bytes), source },
        text: { text, source },
        'stream, 7-byte chunks': { stream: chunked(bytes, 7), source },
        'stream, 100-byte chunks': { stream: chunked(bytes, 100), source },
        'stream, one chunk': { stream: chunked(bytes, bytes.length), source },
      };
      for (const [route, input] of Object.entries(routes))
        assert.deepEqual(shown((await validate(protocol, input, o)).findings), want, `${protocol} ${what}: ${route}`);
    }
});
