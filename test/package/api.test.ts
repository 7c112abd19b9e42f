/**
 * The library API (src/index.ts, README §Library API) from the sources: every input kind as
 * one stream, the same findings as the pipeline the CLI runs, sessions, reporters, the rule
 * catalogue and its generated id unions, and the installed-package rules of the pin verbs.
 * The built package is exercised as a user would in test/package/package.test.ts.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, createReadStream, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { isInstalledPackage, refreshCommand, refreshRefusal } from '../../src/cli/pin.ts';
import {
  AEP_RULE_IDS,
  AHP_RULE_IDS,
  checkEvent,
  createSession,
  fixtureExitCode,
  formatReport,
  InputError,
  ruleCatalogue,
  rules,
  runFixtures,
  validate,
  validateStream,
  type Finding,
} from '../../src/index.ts';
import { buildRuleIdsModule, RULE_IDS_TS } from '../../tools/gen-rules.ts';
import { fixtureSample, runCli } from '../cli/helpers.ts';
import { tempDir } from '../temp.ts';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const AEP_BROKEN = 'examples/aep/session-broken.jsonl';
const AHP_BROKEN = 'examples/ahp/session-broken.jsonl';
const key = (f: Finding) => `${f.source}:${f.line}:${f.column} ${f.ruleId} ${f.severity} ${f.pointer} ${f.message}`;

test('src/generated/rule-ids.ts is current (run `npm run rules:gen` after changing a rule registry)', () => {
  assert.equal(
    readFileSync(RULE_IDS_TS, 'utf8'),
    buildRuleIdsModule(),
    'src/generated/rule-ids.ts is stale: run `npm run rules:gen` and commit the result',
  );
  assert.deepEqual(
    [...AEP_RULE_IDS],
    rules('aep').map((r) => r.id),
  );
  assert.deepEqual(
    [...AHP_RULE_IDS],
    rules('ahp').map((r) => r.id),
  );
  assert.ok(ruleCatalogue('aep').every((r) => r.spec && r.description));
});

test('validate gives the findings and summary of `validate --format json`, for paths, text, bytes, Node and web streams', async () => {
  for (const [protocol, file] of [
    ['aep', AEP_BROKEN],
    ['ahp', AHP_BROKEN],
  ] as const) {
    const cli = JSON.parse((await runCli(protocol, ['validate', '--format', 'json', file])).stdout) as {
      findings: Finding[];
      summary: { errors: number; byRule: Record<string, number> };
    };
    // the JSON report sorts findings by location; the API streams them in the order found
    const sorted = (fs: Finding[]) => fs.map(key).sort();
    const want = sorted(cli.findings);
    const bytes = readFileSync(join(REPO, file));
    const asPath = await validate(protocol, file);
    assert.deepEqual(sorted(asPath.findings), want, `${protocol}: path`);
    assert.equal(asPath.summary.errors, cli.summary.errors);
    assert.deepEqual(asPath.summary.byRule, cli.summary.byRule);
    for (const [what, input] of [
      ['text', { text: bytes.toString('utf8'), source: file }],
      ['bytes', { bytes, source: file }],
      ['node stream', { stream: createReadStream(join(REPO, file)), source: file }],
      ['web stream', { stream: Readable.toWeb(Readable.from([bytes])), source: file }],
    ] as const) {
      const r = await validate(protocol, input as never);
      // the identity rules read a repeated line back from a regular file; streams keep a digest: same verdicts
      assert.deepEqual(sorted(r.findings), want, `${protocol}: ${what}`);
    }
  }
});

test('several inputs are one stream; unnamed inputs are <input N>; a bare Buffer or stream is an input', async () => {
  const lines = readFileSync(join(REPO, 'examples/aep/session.jsonl'), 'utf8').split('\n');
  const half = lines.slice(0, 4).join('\n') + '\n';
  const rest = lines.slice(4).join('\n');
  const whole = await validate('aep', 'examples/aep/session.jsonl');
  const split = await validate('aep', [Buffer.from(half), Readable.from([rest])]);
  assert.equal(split.summary.events, whole.summary.events);
  assert.equal(split.summary.inputs, 2);
  assert.deepEqual(split.findings, []);
  const dup = await validate('aep', [
    { text: lines[0] + '\n' },
    { text: lines[0]!.replace('ev-0001', 'ev-0001') + '\n' },
  ]);
  assert.ok(
    dup.findings.every((f) => f.source === '<input 2>'),
    'the repeat is reported in the second input',
  );
});

test('validateStream: findings as an async iterable, then summary(); summary() alone counts; errors reject', async () => {
  const run = validateStream('aep', AEP_BROKEN, { maxFindings: 2 });
  const seen: Finding[] = [];
  for await (const f of run) seen.push(f);
  const s = await run.summary();
  assert.equal(seen.length, 2);
  assert.equal(s.omitted, s.errors + s.warnings + s.infos - 2);
  assert.equal((await validateStream('aep', AEP_BROKEN).summary()).errors, s.errors);
  await assert.rejects(validate('aep', 'no/such/file.jsonl'), InputError);
  assert.throws(
    () => validateStream('aep', AEP_BROKEN, { rules: ['aep/no-such-rule' as never] }),
    /unknown aep rule "aep\/no-such-rule"/,
  );
  assert.throws(() => validateStream('xyz' as never, AEP_BROKEN), /unknown protocol/);
  const twice = validateStream('aep', AEP_BROKEN);
  for await (const _ of twice) break;
  await assert.rejects(async () => {
    for await (const _ of twice) break;
  }, /iterated once/);
});

test('validateStream keeps reading bounded by a slow consumer and stops when the consumer breaks', async () => {
  const line = '{"not":"aep"}\n';
  let pulled = 0;
  const source = Readable.from(
    (function* () {
      for (let i = 0; i < 200; i++) {
        pulled++;
        yield Buffer.from(line.repeat(100));
      }
    })(),
    { objectMode: true },
  );
  const run = validateStream('aep', source);
  let n = 0;
  for await (const _ of run) {
    if (++n === 10) break;
  }
  assert.ok(
    pulled < 200,
    `the whole input was read (${pulled} chunks) although the consumer stopped after 10 findings`,
  );
  await assert.rejects(run.summary(), /stopped before its end/);
});

test('no input at all is a finding, never a clean pass; fixtureExitCode takes the run or its summary', async () => {
  for (const protocol of ['aep', 'ahp'] as const) {
    const r = await validate(protocol, []);
    assert.deepEqual(
      r.findings.map((f) => f.ruleId),
      ['jsonl/empty-input'],
    );
    assert.equal(r.summary.errors, 1);
  }
  const run = await runFixtures('aep', fixtureSample('aep'));
  assert.equal(fixtureExitCode(run), 0);
  assert.equal(fixtureExitCode(run.summary), 0);
});

test('rules selection, strict and the AHP binding by source name', async () => {
  const only = await validate('aep', AEP_BROKEN, { rules: ['aep/time-format'] });
  assert.ok(
    only.findings.length > 0 &&
      only.findings.every((f) => f.ruleId === 'aep/time-format' || f.ruleId.startsWith('json')),
  );
  const http = await validate('ahp', {
    text: '{"jsonrpc":"2.0",\n "method":"hooks/capabilities", "id": 1, "params": {}}',
    source: 'body.json',
  });
  assert.ok(!http.findings.some((f) => f.ruleId.startsWith('jsonl/')), 'a .json source is one HTTP body, not JSONL');
  const stdio = await validate(
    'ahp',
    { text: '{"jsonrpc":"2.0",\n "method":"hooks/capabilities", "id": 1, "params": {}}', source: 'body.json' },
    { binding: 'stdio' },
  );
  assert.ok(stdio.findings.some((f) => f.ruleId === 'jsonl/invalid-json'));
});

test('sessions check in-memory events in order with stream state; checkEvent checks one alone', async () => {
  const events = readFileSync(join(REPO, 'examples/aep/session.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  const s = createSession('aep');
  for (const e of events) assert.deepEqual(s.check(e), [], `event ${String(e.id)}`);
  const again = s.check(events[1]!);
  assert.ok(
    again.some((f) => f.ruleId === 'aep/seq-regression' || f.ruleId === 'aep/redelivery'),
    'a repeat is seen as a repeat',
  );
  assert.ok(again.every((f) => f.source === '<session>' && f.line === events.length + 1));
  s.end();
  assert.throws(() => s.check(events[0]!), /ended/);
  assert.equal(s.summary().events, events.length + 1);
  const bad = checkEvent('aep', { ...events[1], time: 'yesterday' });
  assert.deepEqual(
    bad.map((f) => [f.ruleId, f.pointer]),
    [['aep/time-format', '/time']],
  );
  assert.deepEqual(checkEvent('aep', JSON.stringify(events[0])), []);
  assert.ok(checkEvent('ahp', { jsonrpc: '1.0' }).some((f) => f.severity === 'error'));
  assert.throws(() => checkEvent('aep', { n: 1n }), TypeError);
  // bytes are an input of validate(), not an event: a TypeError naming what to pass, never findings about a "Buffer"
  const json = JSON.stringify(events[0]);
  for (const bytes of [Buffer.from(json), new TextEncoder().encode(json), new TextEncoder().encode(json).buffer])
    for (const call of [() => checkEvent('aep', bytes), () => createSession('ahp').check(bytes)])
      assert.throws(
        call,
        (e: unknown) => e instanceof TypeError && /object or its JSON text.*validate\(\)/.test(e.message),
      );
  // the same verdicts as the stream: the broken example event by event
  const lines = readFileSync(join(REPO, AEP_BROKEN), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '');
  const viaSession = createSession('aep', { source: AEP_BROKEN });
  const perEvent = lines.flatMap((l) => viaSession.check(l)).concat(viaSession.end());
  const viaStream = (await validate('aep', AEP_BROKEN)).findings;
  assert.deepEqual(
    perEvent.map((f) => [f.ruleId, f.line]),
    viaStream.map((f) => [f.ruleId, f.line]),
  );
});

test('an unknown or mistyped option is a TypeError naming it, in every entry point, never ignored', async () => {
  const unknown = (fn: () => unknown, name: string, near?: string) =>
    assert.throws(fn, (e: unknown) => {
      assert.ok(e instanceof TypeError, String(e));
      assert.match(e.message, new RegExp(`unknown (option|report format) "?${name.replace('.', '\\.')}`));
      if (near) assert.match(e.message, new RegExp(`did you mean ${near.replace('.', '\\.')}\\?`));
      return true;
    });
  const typed = (fn: () => unknown, name: string, what: string) =>
    assert.throws(fn, new RegExp(`option ${name.replace('.', '\\.')} must be ${what}`));
  const misspelt = { maxFindigs: 1 } as unknown as Record<string, never>;
  unknown(() => validateStream('aep', AEP_BROKEN, misspelt), 'maxFindigs', 'maxFindings');
  await assert.rejects(validate('aep', AEP_BROKEN, misspelt), /unknown option maxFindigs/);
  unknown(
    () => validateStream('aep', AEP_BROKEN, { stream: { maxStateMB: 1 } as never }),
    'stream.maxStateMB',
    'stream.maxStateMb',
  );
  unknown(() => validateStream('ahp', AEP_BROKEN, { stream: { maxIds: 5 } as never }), 'stream.maxIds');
  unknown(() => validateStream('ahp', AEP_BROKEN, { from: 'otlp' } as never), 'from');
  unknown(() => createSession('aep', { sorce: 'x' } as never), 'sorce', 'source');
  unknown(() => checkEvent('aep', {}, { strikt: true } as never), 'strikt', 'strict');
  typed(
    () => validateStream('aep', AEP_BROKEN, { rules: 'aep/seq-regression' as never }),
    'rules',
    'an array of strings',
  );
  typed(() => validateStream('aep', AEP_BROKEN, { strict: 'yes' as never }), 'strict', 'true or false');
  typed(
    () => createSession('ahp', { stream: { maxPending: '5' as never } }),
    'stream.maxPending',
    'a positive integer',
  );
  // the ranges the CLI's flags take: --max-findings 0 is allowed, -1 is not (nor a fraction)
  typed(() => validateStream('aep', AEP_BROKEN, { maxFindings: -1 }), 'maxFindings', '0 or a positive integer');
  typed(() => validateStream('aep', AEP_BROKEN, { maxFindings: 1.5 }), 'maxFindings', '0 or a positive integer');
  validateStream('aep', AEP_BROKEN, { maxFindings: 0 });
  typed(() => createSession('aep', { maxDepth: 0 }), 'maxDepth', 'a positive integer');
  typed(() => checkEvent('aep', {}, { stream: { maxStateMb: -1 } }), 'stream.maxStateMb', 'a positive number');
  await assert.rejects(validate('aep', [{ text: '' }], { maxFindings: -1 }), /option maxFindings must be/);
  assert.throws(() => validateStream('aep', AEP_BROKEN, 7 as never), /options must be an object/);
  const { findings, summary } = await validate('aep', AEP_BROKEN, { stream: { maxIds: 5 }, each: undefined });
  assert.ok(findings.length > 0);
  unknown(() => formatReport(findings, summary, { protocol: 'aep', format: 'SARIF' as never }), 'SARIF', 'sarif');
  unknown(() => formatReport(findings, summary, { protocol: 'aep', format: 'nope' as never }), 'nope');
  unknown(
    () => formatReport(findings, summary, { protocol: 'aep', format: 'json', colour: true } as never),
    'colour',
    'color',
  );
  assert.throws(
    () => formatReport(findings, summary, { protocol: 'aep', format: 'json', failOn: 'warn' as never }),
    /failOn must be one of "error", "warning", "info", not "warn"$/,
  );
  assert.throws(
    () => (formatReport as (f: unknown, s: unknown) => string)(findings, summary),
    /^TypeError: the report options must be an object: \{ protocol: 'aep' or 'ahp', format \}$/,
  );
  assert.throws(() => formatReport(findings, summary, { format: 'json' } as never), /unknown protocol undefined/);
});

test('a stream chunk that is neither bytes nor text is named as received', async () => {
  const of = (v: unknown) =>
    ({
      stream: (async function* () {
        yield v;
      })(),
    }) as never;
  await assert.rejects(
    validate('aep', of(42)),
    /cannot read <input>: the stream yielded the number 42: a stream yields bytes/,
  );
  await assert.rejects(
    validate('aep', of({ a: 1 })),
    /yielded an object: .* \(events as objects go one by one to createSession\(\)\.check\)$/,
  );
  await assert.rejects(validate('aep', of(null)), /yielded null/);
  assert.equal((await validate('aep', of('{}\n'))).summary.events, 1);
});

test('reporters render findings and a summary as the CLI does', async () => {
  const { findings, summary } = await validate('aep', AEP_BROKEN);
  for (const format of ['text', 'json', 'sarif', 'junit', 'github'] as const) {
    const cli = await runCli('aep', ['validate', '--format', format, AEP_BROKEN]);
    const mine = formatReport(findings, summary, { protocol: 'aep', format, sources: [AEP_BROKEN] });
    // the exit code is the command's: SARIF's invocation has it from the CLI only
    const stable = (s: string) =>
      s
        .replace(/"?(startTimeUtc|endTimeUtc|timestamp|time)"?[=:] ?"[^"]*"/g, '$1=T')
        .replace(/time="[^"]*"/g, 'time=T')
        .replace(/,\n\s*"exitCode": \d+/, '');
    assert.equal(stable(mine), stable(cli.stdout), format);
  }
});

test('runFixtures runs our conformance folders like `fixtures`', async () => {
  for (const protocol of ['aep', 'ahp'] as const) {
    const run = await runFixtures(protocol, `conformance/${protocol}`, { cwd: REPO });
    const cli = JSON.parse(
      (await runCli(protocol, ['fixtures', '--format', 'json', `conformance/${protocol}`])).stdout,
    ) as { summary: { counts: unknown } };
    assert.deepEqual(run.summary.counts, cli.summary.counts);
    assert.equal(run.summary.counts.fail, 0);
  }
});

test('pin verbs: an installed package is detected by its node_modules folder; refresh refuses to write inside it', () => {
  assert.equal(isInstalledPackage(REPO), false);
  const root = join('/elsewhere', 'x', 'node_modules', 'agent-conformance');
  assert.equal(isInstalledPackage(root), true);
  assert.match(
    refreshRefusal(join(root, 'upstream/mcp/2025-11-25'), join(root, 'schemas/mcp/e.json'), false, root)!,
    /installed package .* --dir/,
  );
  assert.equal(
    refreshRefusal(join('/elsewhere', 'mine'), join(root, 'schemas/mcp/e.json'), false, root),
    undefined,
    'reading the shipped extraction is fine',
  );
  assert.match(
    refreshRefusal(join('/elsewhere', 'mine'), join(root, 'schemas/mcp/e.json'), true, root)!,
    /--adopt would rewrite .* --extraction/,
  );
  assert.equal(refreshRefusal(join('/elsewhere', 'mine'), join('/elsewhere', 'e.json'), true, root), undefined);
  assert.equal(
    refreshRefusal(join(REPO, 'upstream/mcp/2025-11-25'), join(REPO, 'schemas/mcp/e.json'), true, REPO),
    undefined,
    'a checkout may refresh its own pin',
  );
});

test('pin verify suggests the pin refresh command that works where it runs (--dir / --extraction as given; in an installed package, folders of your own)', async (t) => {
  const root = join('/elsewhere', 'x', 'node_modules', 'agent-conformance');
  assert.equal(refreshCommand(undefined, undefined, REPO, REPO), 'ahp pin refresh', 'a checkout refreshes its own pin');
  assert.equal(refreshCommand('my pins', undefined, REPO, REPO), "ahp pin refresh --dir 'my pins'");
  assert.equal(
    refreshCommand(undefined, undefined, root, root),
    'ahp pin refresh --dir <a copy of the pin folder> --extraction <a copy of the extraction>',
  );
  assert.equal(
    refreshCommand('/tmp/mine', '/tmp/e.json', root, root),
    'ahp pin refresh --dir /tmp/mine --extraction /tmp/e.json',
  );
  assert.equal(
    refreshCommand(join(root, 'upstream/mcp/2025-11-25'), undefined, root, root),
    'ahp pin refresh --dir <a copy of the pin folder> --extraction <a copy of the extraction>',
    'a folder inside the installed package is not one of your own',
  );
  // through the verb: a pin folder holding only pin.json
  const dir = tempDir(t, 'agent-conformance-pin-');
  copyFileSync(join(REPO, 'upstream/mcp/2025-11-25/pin.json'), join(dir, 'pin.json'));
  const r = await runCli('ahp', ['pin', 'verify', '--dir', dir, '--format', 'json']);
  assert.equal(r.code, 1);
  const messages = (JSON.parse(r.stdout) as { findings: { ruleId: string; message: string }[] }).findings
    .filter((f) => f.ruleId === 'pin/missing-source')
    .map((f) => f.message);
  assert.ok(messages.length > 0);
  for (const m of messages)
    assert.ok(
      m.includes(`\`ahp pin refresh --dir ${dir}\``) && m.includes(`\`ahp pin refresh --dir ${dir} --adopt\``),
      m,
    );
});

test('a bin run without a build prints one line and exits 2', (t) => {
  const dir = tempDir(t, 'agent-conformance-nobuild-');
  mkdirSync(join(dir, 'bin'));
  // the whole bin/ folder (the bins, their launcher and bin/package.json), without dist/
  for (const f of readdirSync(join(REPO, 'bin'))) copyFileSync(join(REPO, 'bin', f), join(dir, 'bin', f));
  for (const b of ['aep', 'ahp']) {
    const r = spawnSync(process.execPath, [join(dir, 'bin', `${b}.js`), '--version'], { encoding: 'utf8' });
    assert.equal(r.status, 2);
    assert.equal(r.stdout, '');
    assert.match(
      r.stderr,
      new RegExp(`^${b}: cannot load the build \\(.*\\): run npm ci \\(or npm run build\\) first\\n$`),
    );
  }
});
