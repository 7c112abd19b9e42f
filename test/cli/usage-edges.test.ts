/**
 * Usage edges (issue 26 item 5): an unknown verb is a usage error however it is asked (also with
 * --help), with a suggestion; help examples name the protocol's own rules; the BOM message says
 * what was skipped (the mark) and what was checked (the rest).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { aepRules } from '../../src/aep/protocol.ts';
import { ahpRules } from '../../src/ahp/driver.ts';
import { EXPLAIN_EXAMPLE } from '../../src/cli/verbs.ts';
import { runCli } from './helpers.ts';

test('an unknown verb is exit 2 with a suggestion, with or without --help, at every level', async () => {
  const cases: Array<['aep' | 'ahp', string[], RegExp]> = [
    [
      'aep',
      ['nosuchverb', '--help'],
      /unknown command 'nosuchverb'; the commands are validate, fixtures, rules, explain/,
    ],
    ['aep', ['nosuchverb'], /unknown command 'nosuchverb'; the commands are validate/],
    ['aep', ['-h', 'valdate'], /unknown command 'valdate' \(Did you mean validate\?\)/],
    ['ahp', ['explian', '--help'], /unknown command 'explian' \(Did you mean explain\?\)/],
    ['ahp', ['pin', 'verfy', '--help'], /unknown command 'verfy' of 'pin' \(Did you mean verify\?\)/],
  ];
  for (const [bin, args, what] of cases) {
    const r = await runCli(bin, args);
    assert.equal(r.code, 2, `${bin} ${args.join(' ')}`);
    assert.equal(r.stdout, '', `${bin} ${args.join(' ')}: no help on stdout`);
    assert.match(r.stderr, new RegExp(`^${bin}: [^\\n]+ \\(run with --help for usage\\)\\n$`));
    assert.match(r.stderr, what);
  }
  // known verbs' help and commander's own `help` verb still answer with exit 0
  for (const args of [['--help'], ['validate', '--help'], ['help', 'validate'], ['pin', '--help']]) {
    const r = await runCli('ahp', args);
    assert.equal(r.code, 0, args.join(' '));
    assert.match(r.stdout, /^Usage: ahp/);
  }
  // a group without its subcommand is a usage error, as no verb at all is: the help goes to stderr, exit 2
  for (const [bin, args] of [
    ['ahp', ['pin']],
    ['ahp', []],
    ['aep', []],
  ] as const) {
    const r = await runCli(bin, [...args]);
    assert.equal(r.code, 2, `${bin} ${args.join(' ')}`);
    assert.match(r.stderr, new RegExp(`^Usage: ${bin}`));
    assert.equal(r.stdout, '');
  }
});

test("every verb's help lists the exit codes and marks its required options", async () => {
  for (const [bin, verb] of [
    ['aep', ['validate']],
    ['aep', ['filter']],
    ['aep', ['downlevel']],
    ['aep', ['convert']],
    ['aep', ['redact']],
    ['aep', ['fixtures']],
    ['aep', ['live']],
    ['ahp', ['pin', 'verify']],
    ['ahp', ['explain']],
  ] as const) {
    const r = await runCli(bin, [...verb, '--help']);
    assert.equal(r.code, 0);
    assert.match(
      r.stdout,
      /\nExit codes \(README §Exit codes\):\n {2}0 .+\n( {2}1 .+\n)? {2}2 .+/,
      `${bin} ${verb.join(' ')}`,
    );
  }
  for (const [verb, flag] of [
    ['filter', '--where'],
    ['downlevel', '--ceiling'],
    ['convert', '--to'],
  ]) {
    const r = await runCli('aep', [verb, '--help']);
    const from = r.stdout.slice(r.stdout.indexOf(`${flag} `));
    const option = from.slice(0, from.search(/\n {2}-/));
    assert.match(option, /\(required( unless --from)?\)/, `${verb} ${flag}: ${option}`);
  }
});

test("each verb's help lists only the exit codes that verb has", async () => {
  let verbs = 0;
  for (const bin of ['aep', 'ahp'] as const) {
    const top = (await runCli(bin, ['--help'])).stdout;
    const names = [...(top.split('Commands:')[1] ?? '').matchAll(/^ {2}([a-z][a-z-]*)/gm)].map((m) => m[1]!);
    const paths = names
      .filter((v) => v !== 'help')
      .flatMap((v) =>
        v === 'pin'
          ? [
              ['pin', 'verify'],
              ['pin', 'refresh'],
            ]
          : [[v]],
      );
    for (const path of paths) {
      verbs++;
      const help = (await runCli(bin, [...path, '--help'])).stdout;
      const [options, exits = ''] = help.split('\nExit codes (README §Exit codes):\n');
      const what = `${bin} ${path.join(' ')}`;
      assert.match(exits, /^ {2}0 {2}.+\n( {2}1 {2}.+\n)? {2}2 {2}.+\n$/, what);
      // --fail-on is named only where the verb has it (fixtures has it, but for verdicts: its exits are by case);
      // fixtures and pins only where the verb has them
      if (/--fail-on/.test(exits)) assert.match(options!, /^ {2}--fail-on /m, `${what}: --fail-on`);
      if (['validate', 'live'].includes(path[0]!)) assert.match(exits, /--fail-on/, what);
      assert.equal(/fixture/.test(exits), path[0] === 'fixtures', `${what}: fixtures`);
      assert.equal(/\bpin\b/.test(exits), path[0] === 'pin', `${what}: pin`);
      assert.equal(/capture verb/.test(exits), false, `${what}: names another verb`);
      // the catalogue verbs find nothing, so they have no exit 1
      assert.equal(/^ {2}1 /m.test(exits), !['rules', 'explain'].includes(path[0]!), `${what}: exit 1`);
    }
  }
  assert.ok(verbs >= 15, `verbs whose help was read: ${verbs}`);
});

test('explain --help gives an example rule of its own protocol, one that exists', async () => {
  for (const [bin, rules] of [
    ['aep', aepRules()],
    ['ahp', ahpRules()],
  ] as const) {
    const r = await runCli(bin, ['explain', '--help']);
    assert.equal(r.code, 0);
    const example = /e\.g\. (\S+)/.exec(r.stdout)?.[1];
    assert.equal(example, EXPLAIN_EXAMPLE[bin]);
    assert.ok(example.startsWith(`${bin}/`) && rules.some((x) => x.id === example), `${bin}: ${example}`);
  }
});

test('a BOM: its finding is the input, later-line or document one, and the rest of its line (or document) is checked', async () => {
  const bom = '\uFEFF';
  const ev =
    '{"aep":"0.1","id":"e1","type":"agent.heartbeat","time":"2026-11-31T10:00:00Z","source":"aep://h/agent/a/session/s","agent":"a"}';
  const cases: Array<['aep' | 'ahp', string[], string, string]> = [
    ['aep', ['validate', '-f', 'json', '-'], `${bom}${ev}\n`, 'input'],
    [
      'aep',
      ['validate', '-f', 'json', '-'],
      `${ev.replace('e1', 'e0').replace('11-31', '11-30')}\n${bom}${ev}\n`,
      'laterLine',
    ],
    ['ahp', ['validate', '-f', 'json', '--binding', 'http', '-'], `${bom}{"jsonrpc": "2.0"}`, 'document'],
  ];
  for (const [bin, args, input, messageId] of cases) {
    const r = await runCli(bin, args, input);
    const findings = (
      JSON.parse(r.stdout) as { findings: Array<{ ruleId: string; messageId?: string; line?: number }> }
    ).findings;
    const b = findings.find((f) => f.ruleId === 'jsonl/bom');
    assert.ok(b, r.stdout);
    assert.equal(b.messageId, messageId);
    // the rest was checked: a finding of the same line after the mark
    assert.ok(
      findings.some((f) => f.ruleId !== 'jsonl/bom' && (f.line ?? 1) === b.line),
      JSON.stringify(findings),
    );
  }
});
