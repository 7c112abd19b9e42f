/**
 * The library as an adapter author calls it from their own tests (README §Library API): an argument of the wrong
 * shape is a TypeError at the call that says what it got, never a crash deep inside or later; a stream that fails
 * midway ends the run after the findings of what was read; errors carry their class's name.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { tempDir } from '../temp.ts';
import {
  checkEndpoint,
  ConformanceError,
  createRedactor,
  createReporter,
  createSession,
  DeviationsError,
  downlevel,
  FixtureError,
  fixtureExitCode,
  formatReport,
  InputError,
  InvalidFilterError,
  LiveConnectError,
  redact,
  redactEvent,
  RuleCrashError,
  ruleCatalogue,
  runFixtures,
  SEVERITY_RANK,
  validate,
  validateStream,
  type Finding,
  type Input,
  type Severity,
} from '../../src/index.ts';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const LINES = readFileSync(join(REPO, 'examples/aep/session-broken.jsonl'), 'utf8').split('\n').filter(Boolean);
const typeError = (pattern: RegExp) => (e: unknown) => {
  assert.ok(e instanceof TypeError, `a TypeError, not ${String(e)}`);
  assert.match(e.message, pattern);
  return true;
};

test('an input of no known shape is a TypeError at the call of validateStream, naming the input and what it is', async (t) => {
  const bad: [unknown, RegExp][] = [
    [undefined, /^input 1 is undefined: expected a path/],
    [42, /^input 1 is the number 42: expected/],
    [new ArrayBuffer(4), /^input 1 is an ArrayBuffer: expected/],
    [{ foo: 1 }, /^input 1 is an object with none of path, text, bytes, stream/],
    [{ text: 42 }, /^input 1 has a text that is the number 42, not a string/],
    [{ bytes: 'abc' }, /^input 1 has bytes that are a string, not a Uint8Array or Buffer/],
    [{ stream: 'abc' }, /^input 1 has a stream that is a string, not a Node Readable, async iterable or web/],
    [{ path: 5 }, /^input 1 has a path that is the number 5, not a string or a file: URL/],
    [{ text: '', source: 7 }, /^input 1 has a source that is the number 7, not a string/],
    [new URL('https://example.com/events.jsonl'), /^input 1 is a https: URL: only a file: URL names a file/],
    [{ path: new URL('http://example.com/x') }, /^input 1 is a http: URL/],
    // a URL as a string is the same slip as a URL object, not a missing file (InputError)
    ['https://x.example/a.jsonl', /^input 1 is a https: URL: only a file: URL names a file \(fetch it and pass/],
    [{ path: 'HTTP://x.example/a' }, /^input 1 is a http: URL/],
    ['file:///tmp/a.jsonl', /^input 1 is a file: URL as a string: a string input is a path; pass new URL/],
    [[{ text: '' }, null], /^input 2 is null/],
    // a string input is a path: JSON text there is the caller's slip, not a file that happens to be missing
    [LINES[0], /^input 1 is JSON text, not a path: a string input names a file; pass text as \{ text \}$/],
    [['x.jsonl', '{"a":1}\n{"b":2}'], /^input 2 is JSON text, not a path/],
  ];
  for (const [input, pattern] of bad) {
    // at the call, before any iteration: the mistake is in the caller's code, not in the input's bytes
    assert.throws(() => validateStream('aep', input as Input), typeError(pattern));
    await assert.rejects(validate('ahp', input as Input), typeError(pattern));
  }
  // a file whose name only looks like JSON text is still read: the check is for text that names no file
  const dir = tempDir(t, 'json-named-');
  writeFileSync(join(dir, '{a}'), `${LINES[0]}\n`);
  const cwd = process.cwd();
  process.chdir(dir);
  try {
    assert.equal((await validateStream('aep', '{a}').summary()).events, 1);
  } finally {
    process.chdir(cwd);
  }
  // a missing file is the input's problem: an InputError on iteration, as the CLI's exit 2
  const run = validateStream('aep', join(REPO, 'examples/no-such-file.jsonl'));
  await assert.rejects(run.summary(), (e: unknown) => e instanceof InputError && e.name === 'InputError');
});

test('a stream that errors or is aborted midway: the findings of the lines read, then an InputError with its cause', async () => {
  const prefix = LINES.slice(0, 4).map((l) => `${l}\n`);
  const whole = (await validate('aep', { text: prefix.join('') })).findings;
  const reset = new Error('socket reset');
  const failing = () => {
    let i = 0;
    return new Readable({
      read() {
        if (i < prefix.length) this.push(prefix[i++]);
        else this.destroy(reset);
      },
    });
  };
  const web = () => {
    let i = 0;
    return new ReadableStream<Uint8Array>({
      pull(c) {
        if (i < prefix.length) c.enqueue(new TextEncoder().encode(prefix[i++]));
        else c.error(reset);
      },
    });
  };
  const aborted = () => {
    const ac = new AbortController();
    return Readable.from(
      (async function* () {
        yield* prefix;
        ac.abort();
        yield '{}\n';
      })(),
      { signal: ac.signal },
    );
  };
  for (const [name, make, cause] of [
    ['Node Readable', failing, (c: unknown) => c === reset],
    ['web ReadableStream', web, (c: unknown) => c === reset],
    ['aborted Readable', aborted, (c: unknown) => (c as Error).name === 'AbortError'],
  ] as const) {
    const got: Finding[] = [];
    const error = await (async () => {
      for await (const f of validateStream('aep', { stream: make(), source: 'emitter' })) got.push(f);
    })().then(
      () => assert.fail(`${name}: the run ended without an error`),
      (e: unknown) => e,
    );
    assert.ok(error instanceof InputError, `${name}: ${String(error)}`);
    assert.ok(cause(error.cause), `${name}: the cause is the stream's error`);
    assert.match(String(error), /^InputError: cannot read emitter: /);
    // the findings of the lines read before the error, in order: the run of those lines alone, short of the
    // end-of-input findings an erroring stream never reaches
    assert.ok(got.length > 0, name);
    const key = (f: Finding) => `${f.line}:${f.column} ${f.ruleId} ${f.message}`;
    assert.deepEqual(got.map(key), whole.slice(0, got.length).map(key), name);
    await assert.rejects(validate('aep', make()), InputError);
  }
});

test('capture verbs: an event that is not an object or an unknown option is a TypeError; a typed event is accepted', () => {
  for (const event of [null, '{}', [], 42]) {
    assert.throws(() => downlevel(event as object, 'metadata'), typeError(/^the event must be an object, not /));
    assert.throws(() => redactEvent(event as object), typeError(/^the event must be an object, not /));
  }
  assert.throws(() => downlevel({}, 'hi' as never), typeError(/^ceiling must be one of .*, not "hi"$/));
  assert.throws(() => downlevel({}, undefined as never), typeError(/, not undefined$/));
  assert.throws(() => downlevel({}, 'none', { redcat: true } as never), typeError(/unknown option redcat/));
  assert.throws(() => downlevel({}, 'none', { redact: 'yes' } as never), typeError(/option redact must be/));
  assert.throws(() => downlevel({}, 'none', { redact: { pi: false } } as never), typeError(/option redact\.pi\b/));
  assert.throws(
    () => redact('x', { secretName: ['A'] } as never),
    typeError(/secretName \(did you mean secretNames\?\)/),
  );
  assert.throws(() => redact('x', 'y' as never), typeError(/^the redact options must be an object, not a string/));
  assert.throws(() => createRedactor({ home: 1 } as never), typeError(/option home must be a string or false/));
  // an emitter's own event interface has no index signature: the verbs take any object
  interface MyEvent {
    aep: '0.1';
    id: string;
    type: string;
    capture: 'full';
    data: { text: string };
  }
  const ev: MyEvent = { aep: '0.1', id: 'e1', type: 'message.user', capture: 'full', data: { text: 'hi' } };
  assert.equal(downlevel(ev, 'metadata').data, undefined);
  assert.equal(redactEvent(ev, createRedactor({ pii: false })), ev);
});

test('reporters, the fixture runner, checkEndpoint and sessions name a wrong argument at the call', async () => {
  const { findings, summary } = await validate('aep', { text: `${LINES[0]}\n` });
  const options = { protocol: 'aep', format: 'text' } as const;
  // without this check a reporter with no output failed later, outside any caller's try (an uncaught exception)
  assert.throws(
    () => createReporter(null as never, options),
    typeError(/^the output must have a write\(text\) method/),
  );
  assert.throws(() => createReporter({} as never, options), typeError(/not an object$/));
  assert.throws(() => formatReport(5 as never, summary, options), typeError(/^the findings must be an iterable/));
  assert.throws(() => formatReport(findings, null as never, options), typeError(/^the summary .* must be an object/));
  // a hand-built summary: every format names the member it lacks, never an internal TypeError deep in a reporter
  const mine = [{ ruleId: 'mine/x', severity: 'error', message: 'custom' }] as unknown as Finding[];
  const formats = ['text', 'json', 'ndjson', 'sarif', 'junit', 'github', 'html'] as const;
  for (const format of formats) {
    const o = { protocol: 'aep', format } as const;
    const partial = { errors: 1, warnings: 0, infos: 0 } as never;
    assert.throws(
      () => formatReport(mine, partial, o),
      typeError(
        /^the summary needs inputs \(0 or a positive integer\), not undefined: pass the summary validate\(\) returns/,
      ),
    );
    const { byRule: _, ...noByRule } = summary;
    assert.throws(
      () => formatReport(mine, noByRule as never, o),
      typeError(/^the summary needs byRule \(an object of counts/),
    );
    assert.throws(
      () => formatReport(mine, { ...summary, coverage: {} } as never, o),
      typeError(/^the summary needs coverage/),
    );
    assert.throws(
      () => createReporter({ write: () => undefined }, o).finish(partial),
      typeError(/^the summary needs inputs/),
    );
    // a whole hand-built one works in every format
    const built = {
      inputs: 1,
      bytes: 0,
      lines: 1,
      events: 1,
      errors: 1,
      warnings: 0,
      infos: 0,
      omitted: 0,
      byRule: { 'mine/x': 1 },
    };
    assert.match(formatReport(mine, built, o), /mine\/x/, format);
  }
  assert.throws(() => fixtureExitCode(5 as never), typeError(/^fixtureExitCode takes what runFixtures\(\) resolves/));
  await assert.rejects(runFixtures('aep', 5 as never), typeError(/^the fixture directory must be a path/));
  await assert.rejects(checkEndpoint(5 as never), typeError(/^the endpoint must be an http: or https: URL/));
  for (const event of [undefined, () => 1, Symbol('e')])
    assert.throws(
      () => createSession('aep').check(event as never),
      typeError(/^the event is .*, which has no JSON text/),
    );
  assert.throws(
    () => createSession('aep', 'strict' as never),
    typeError(/^the options must be an object, not a string/),
  );
});

test('every exported error class names itself (e.name, String(e), a stack), as the CLI never shows', () => {
  const made: [Error, string][] = [
    [new ConformanceError('usage', 'x'), 'ConformanceError'],
    [new InputError('in.jsonl', new Error('gone')), 'InputError'],
    [new RuleCrashError('aep/x', 'line 1', new Error('bug')), 'RuleCrashError'],
    [new FixtureError('x'), 'FixtureError'],
    [new DeviationsError('x'), 'DeviationsError'],
    [new InvalidFilterError('x'), 'InvalidFilterError'],
    [new LiveConnectError('x'), 'LiveConnectError'],
  ];
  for (const [e, name] of made) {
    assert.equal(e.name, name);
    assert.ok(String(e).startsWith(`${name}: `), String(e));
    assert.ok(!Object.keys(e).includes('name'), `${name}: name is not enumerable, as Error's own`);
  }
});

test('runFixtures checks its options as validate does: a misspelt name or a wrong value is a TypeError', async () => {
  const dir = join(REPO, 'conformance');
  await assert.rejects(runFixtures('aep', dir, { maxFindigs: 1 } as never), typeError(/unknown option maxFindigs/));
  await assert.rejects(runFixtures('aep', dir, { failOn: 'warn' as never }), typeError(/failOn must be one of/));
  await assert.rejects(
    runFixtures('aep', dir, { onCase: 'x' as never }),
    typeError(/option onCase must be a function/),
  );
  await assert.rejects(runFixtures('ahq' as never, dir), typeError(/unknown protocol "ahq"/));
});

test('the catalogue types its severities as the Severity union the runtime uses', () => {
  for (const protocol of ['aep', 'ahp'] as const)
    for (const row of ruleCatalogue(protocol)) {
      const severity: Severity = row.severity; // a compile error while CatalogueRow typed it `string`
      assert.ok(Object.hasOwn(SEVERITY_RANK, severity), `${row.id}: ${severity}`);
    }
});
