/**
 * A binary input is decided on its first bytes and then no longer read, from any source: an endless stream of zeros
 * (`/dev/zero`, `cat /dev/zero |`) ends the run with one jsonl/binary-input. The sources here count the bytes taken
 * from them and end themselves at a bound, so a run that reads on fails the test instead of hanging it.
 */
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { test } from 'node:test';
import { validate } from '../../src/index.ts';
import { runCli } from '../cli/helpers.ts';

/** Far more than the sniff needs (1 KiB) plus the chunks read ahead; an endless source ends itself here. */
const BOUND = 64 << 20;
const CHUNK = Buffer.alloc(64 << 10);

/** An endless source of zeros, as a Readable, that stops at {@link BOUND}; `taken()` is the bytes it gave. */
function zeros(): { stream: Readable; taken: () => number } {
  let given = 0;
  const stream = new Readable({
    read() {
      if (given >= BOUND) return void this.push(null);
      given += CHUNK.length;
      this.push(CHUNK);
    },
  });
  return { stream, taken: () => given };
}

/** The same as an async generator, as the CLI reads its standard input. */
function zeroChunks(): { stdin: AsyncGenerator<Buffer>; taken: () => number } {
  let given = 0;
  const stdin = (async function* () {
    while (given < BOUND) {
      given += CHUNK.length;
      yield CHUNK;
    }
  })();
  return { stdin, taken: () => given };
}

test('validate over an endless stream of zeros: one jsonl/binary-input, the stream read no further (JSONL and document)', async () => {
  const cases: Array<['aep' | 'ahp', Record<string, unknown>]> = [
    ['aep', {}],
    ['ahp', {}],
    ['ahp', { binding: 'http' }],
  ];
  for (const [protocol, options] of cases) {
    const z = zeros();
    const run = await validate(protocol, { stream: z.stream, source: 'zeros' }, options);
    const name = `${protocol} ${JSON.stringify(options)}`;
    assert.deepEqual(
      run.findings.map((f) => f.ruleId),
      ['jsonl/binary-input'],
      name,
    );
    assert.ok(z.taken() < BOUND / 4, `${name}: read ${z.taken()} bytes of an endless source`);
  }
});

test('aep and ahp validate - over endless zeros on standard input: exit 1, one jsonl/binary-input, stdin no longer read', async () => {
  for (const bin of ['aep', 'ahp'] as const) {
    const z = zeroChunks();
    const r = await runCli(bin, ['validate', '-f', 'json', '-'], '', { stdin: z.stdin });
    assert.equal(r.code, 1, r.stderr);
    assert.deepEqual(
      JSON.parse(r.stdout).findings.map((f: { ruleId: string }) => f.ruleId),
      ['jsonl/binary-input'],
    );
    assert.ok(z.taken() < BOUND / 4, `${bin}: read ${z.taken()} bytes of an endless stdin`);
  }
});
