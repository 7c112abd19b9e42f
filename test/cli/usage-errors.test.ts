// Usage errors (commander's: bad option values, unknown options and verbs) are one line on
// stderr, prefixed with the command's name like every other error of the CLI, and exit 2.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runCli } from './helpers.ts';

test('usage errors: one prefixed line, exit 2, nothing on stdout', async () => {
  const cases: Array<['aep' | 'ahp', string[], RegExp]> = [
    ['aep', ['validate', '--fail-on', 'bogus', 'x.jsonl'], /argument 'bogus' is invalid/],
    ['aep', ['validate', '--bogus'], /unknown option '--bogus'/],
    ['aep', ['validat', 'x.jsonl'], /unknown command 'validat' \(Did you mean validate\?\)/],
    ['ahp', ['validate', '--max-line-bytes', '-3'], /--max-line-bytes/],
    ['ahp', ['pin', 'verfy'], /unknown command 'verfy'/],
    // `help VERB` names an unknown verb exactly as `VERB --help` does
    ['aep', ['help', 'nope'], /unknown command 'nope'/],
    ['aep', ['help', 'valdate'], /unknown command 'valdate' \(Did you mean validate\?\)/],
    ['ahp', ['help', 'nope'], /unknown command 'nope'/],
    [
      'aep',
      ['validate', '--max-capture', 'full', 'examples/aep/session.jsonl'],
      /--max-capture applies only with --from otlp/,
    ],
  ];
  for (const [bin, args, what] of cases) {
    const r = await runCli(bin, args);
    assert.equal(r.code, 2, `${bin} ${args.join(' ')}`);
    assert.equal(r.stdout, '');
    assert.match(
      r.stderr,
      new RegExp(`^${bin}: [^\\n]+ \\(run with --help for usage\\)\\n$`),
      `${bin} ${args.join(' ')}: ${JSON.stringify(r.stderr)}`,
    );
    assert.match(r.stderr, what);
  }
});

test('a bin with no verb prints its help on stderr and exits 2 (a usage error)', async () => {
  for (const bin of ['aep', 'ahp'] as const) {
    const r = await runCli(bin, []);
    assert.equal(r.code, 2, bin);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, /Usage: /);
  }
});
