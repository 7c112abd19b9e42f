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

/** The verbs a bin's `--help` lists under `Commands:` (`help` aside), each with its subcommands' paths. */
async function verbPaths(bin: 'aep' | 'ahp', path: string[] = []): Promise<string[][]> {
  const help = (await runCli(bin, [...path, '--help'])).stdout;
  const names = [...(help.split('Commands:')[1] ?? '').matchAll(/^ {2}([a-z][a-z-]*)/gm)].map((m) => m[1]!);
  const out: string[][] = [];
  for (const n of names.filter((n) => n !== 'help')) {
    const sub = await verbPaths(bin, [...path, n]);
    out.push(...(sub.length ? sub : [[...path, n]]));
  }
  return out;
}

test('every option of every verb that names a file or folder refuses an empty name: exit 2, before the verb runs', async () => {
  const seen: string[] = [];
  for (const bin of ['aep', 'ahp'] as const)
    for (const path of await verbPaths(bin)) {
      const help = (await runCli(bin, [...path, '--help'])).stdout;
      for (const [, flag] of help.matchAll(/^ {2}(?:-\w, )?(--[a-z-]+) <(?:file|dir|path)>/gm)) {
        const args = [...path, flag!, '', 'examples/aep/session.jsonl'];
        const r = await runCli(bin, args);
        const what = `${bin} ${args.join(' ')}`;
        seen.push(`${bin} ${path.join(' ')} ${flag}`);
        assert.equal(r.code, 2, `${what}: ${r.stderr}`);
        assert.equal(r.stdout, '', what);
        assert.match(
          r.stderr,
          new RegExp(`^${bin}: option '[^']*${flag}[^']*' argument '' is invalid\\. expected a name`),
          what,
        );
        // no internals (a temporary file's name, an errno) and no closing line of a run that did not happen
        assert.doesNotMatch(r.stderr, /ENOENT|\.tmp|written/, what);
      }
    }
  for (const must of [
    'aep validate --output',
    'aep redact --output',
    'aep downlevel --output',
    'aep filter --output',
    'aep convert --output',
    'aep fixtures --output',
    'aep live --record',
    'ahp validate --output',
  ])
    assert.ok(seen.includes(must), `${must} not found among ${seen.join(', ')}`);
});
