/**
 * The parse-only baseline the bench compares `validate` with: the same bytes read line by
 * line and `JSON.parse`d, nothing else. Run as a child process (like the CLI) so both sides
 * pay the same start-up:
 *
 *   node --import tsx tools/bench/baseline.ts readline|split FILE
 *
 * `readline`: `node:readline` over a file stream (the usual idiom). `split`: 1 MiB chunks
 * split on LF with `Buffer.indexOf`, each line decoded and parsed (a faster, stricter
 * baseline). Prints `{"lines":N,"objects":M}` on stdout.
 */
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';

async function viaReadline(file: string): Promise<{ lines: number; objects: number }> {
  let lines = 0;
  let objects = 0;
  const rl = createInterface({ input: createReadStream(file, { highWaterMark: 1 << 20 }), crlfDelay: Infinity });
  for await (const line of rl) {
    lines++;
    const v = JSON.parse(line) as unknown;
    if (v !== null && typeof v === 'object') objects++;
  }
  return { lines, objects };
}

async function viaSplit(file: string): Promise<{ lines: number; objects: number }> {
  let lines = 0;
  let objects = 0;
  let carry: Buffer | null = null;
  const one = (b: Buffer, s: number, e: number) => {
    lines++;
    const v = JSON.parse(b.toString('utf8', s, e)) as unknown;
    if (v !== null && typeof v === 'object') objects++;
  };
  for await (const piece of createReadStream(file, { highWaterMark: 1 << 20 })) {
    let chunk = piece as Buffer;
    if (carry) {
      chunk = Buffer.concat([carry, chunk]);
      carry = null;
    }
    let pos = 0;
    for (let nl = chunk.indexOf(0x0a, pos); nl !== -1; nl = chunk.indexOf(0x0a, pos)) {
      one(chunk, pos, nl);
      pos = nl + 1;
    }
    if (pos < chunk.length) carry = Buffer.from(chunk.subarray(pos));
  }
  if (carry?.length) one(carry, 0, carry.length);
  return { lines, objects };
}

const [mode, file] = process.argv.slice(2);
if (!file || (mode !== 'readline' && mode !== 'split')) {
  process.stderr.write('usage: baseline.ts readline|split FILE\n');
  process.exit(2);
}
const r = mode === 'readline' ? await viaReadline(file) : await viaSplit(file);
process.stdout.write(JSON.stringify(r) + '\n');
