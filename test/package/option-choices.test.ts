/**
 * Every `validate` flag of the flags table (src/core/protocol.ts `FlagSpec`) is checked the same way as a library
 * option: a value outside a `choice` flag's choices, a number out of its range, or an option its flag `requires` another
 * for, is a TypeError from `validate`, `validateStream`, `createSession` and `checkEvent` alike, as the CLI refuses it.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runCli } from '../cli/helpers.ts';
import { checkEvent, createSession, validate, validateStream } from '../../src/index.ts';
import { PROTOCOLS } from '../../src/run/protocols.ts';
import type { FlagSpec } from '../../src/core/protocol.ts';

/** The library options of `flag` set to `v`, with what the flag requires. */
function optionsOf(flag: FlagSpec, v: unknown, flags: readonly FlagSpec[]): Record<string, unknown> {
  const o: Record<string, unknown> = {};
  const set = (to: FlagSpec['to'], x: unknown) => {
    if (to.length === 1) o[to[0]] = x;
    else o.stream = { ...(o.stream as object), [to[1]]: x };
  };
  if (flag.requires) {
    const need = flags.find((g) => g.name === flag.requires!.name)!;
    const value = flag.requires.value;
    set(need.to, typeof value === 'string' ? value : value[0]);
  }
  set(flag.to, v);
  return o;
}

/** The TypeError message each library entry throws for `o`, or `undefined` when all accept it. One message for all. */
async function refusal(protocol: 'aep' | 'ahp', o: Record<string, unknown>): Promise<string | undefined> {
  const messages: (string | undefined)[] = [];
  for (const call of [
    () => createSession(protocol, o),
    () => checkEvent(protocol, {}, o),
    () => validateStream(protocol, [{ text: '' }], o),
    () => validate(protocol, [{ text: '' }], o),
  ])
    try {
      await call();
      messages.push(undefined);
    } catch (e) {
      assert.ok(e instanceof TypeError, `${JSON.stringify(o)}: ${String(e)}`);
      messages.push(e.message);
    }
  assert.equal(new Set(messages).size, 1, `${JSON.stringify(o)}: the entries disagree: ${messages.join(' / ')}`);
  return messages[0];
}

test('every choice flag: each choice is accepted; a typo or another case is a TypeError naming the choices and the nearest', async () => {
  let choices = 0;
  for (const protocol of ['aep', 'ahp'] as const) {
    const flags = PROTOCOLS[protocol].flags;
    for (const flag of flags.filter((f) => f.kind === 'choice')) {
      const name = flag.to.join('.');
      for (const c of flag.choices!) {
        assert.equal(await refusal(protocol, optionsOf(flag, c, flags)), undefined, `${protocol} ${name} ${c}`);
        for (const wrong of [`${c}x`, c.toUpperCase()]) {
          const m = (await refusal(protocol, optionsOf(flag, wrong, flags))) ?? '';
          assert.ok(m?.startsWith(`option ${name} must be one of `), `${protocol} ${name} ${wrong}: ${m}`);
          for (const each of flag.choices!) assert.ok(m.includes(JSON.stringify(each)), m);
          assert.ok(m.endsWith(`(did you mean ${JSON.stringify(c)}?)`), m);
        }
        choices++;
      }
    }
  }
  assert.equal(choices, 13); // from 3, maxCapture 4, forms 2, profile 1, binding 3
});

test('every number flag refuses 0 and a negative number; every requires is refused without what it needs', async () => {
  for (const protocol of ['aep', 'ahp'] as const) {
    const flags = PROTOCOLS[protocol].flags;
    for (const flag of flags.filter((f) => f.kind !== 'choice'))
      for (const v of [0, -1, '5'])
        assert.match(
          (await refusal(protocol, optionsOf(flag, v, flags))) ?? '',
          /^option .* must be a positive/,
          flag.name,
        );
    for (const flag of flags.filter((f) => f.requires)) {
      const v = flag.choices?.[0] ?? 1;
      const alone = await refusal(protocol, { [String(flag.to[0])]: v });
      assert.match(alone ?? '', new RegExp(`^option ${flag.to[0]} applies only with ${flag.requires!.name}: `));
      const needed = flag.requires!.value as readonly string[];
      const other = flags.find((g) => g.name === flag.requires!.name)!.choices!.find((c) => !needed.includes(c));
      if (other)
        assert.equal(await refusal(protocol, { [flag.requires!.name]: other, [String(flag.to[0])]: v }), alone);
    }
  }
});

test('a stream option at the top level (its flag name or its own) says where it goes; a top-level one in stream too', async () => {
  for (const protocol of ['aep', 'ahp'] as const)
    for (const flag of PROTOCOLS[protocol].flags.filter((f) => f.to.length === 2)) {
      const v = flag.choices?.[0] ?? 1;
      for (const key of new Set([flag.name, String(flag.to[1])]))
        assert.equal(
          await refusal(protocol, { [key]: v }),
          `unknown option ${key}: the library names it stream: { ${flag.to[1]} } (${flag.flags.split(' ')[0]})`,
        );
    }
  assert.match(
    (await refusal('ahp', { stream: { binding: 'http' } })) ?? '',
    /binding is an option of its own, beside stream/,
  );
});

test('the CLI refuses the same values (exit 2), so the library and the command cannot drift apart', async () => {
  const forms = await runCli('aep', ['validate', '--forms', 'recomended', 'examples/aep/session.jsonl']);
  assert.equal(forms.code, 2);
  assert.match((await refusal('aep', { stream: { forms: 'recomended' } })) ?? '', /"recommended"/);
  const capture = await runCli('aep', ['validate', '--max-capture', 'full', 'examples/aep/session.jsonl']);
  assert.equal(capture.code, 2);
  assert.match(capture.stderr, /--max-capture applies only with --from otlp or --from ocsf/);
  assert.match(
    (await refusal('aep', { maxCapture: 'full' })) ?? '',
    /as --max-capture only with --from otlp or --from ocsf/,
  );
});

test('an option of the other protocol says whose it is, at the top or in stream, not a far-fetched nearest name', async () => {
  assert.equal(
    await refusal('aep', { binding: 'http' }),
    "unknown option binding: an option of AHP (createSession('ahp', { binding })), not of AEP",
  );
  assert.equal(
    await refusal('ahp', { profile: 'aep-0007' }),
    "unknown option profile: an option of AEP (createSession('aep', { profile })), not of AHP",
  );
  // every flag of one protocol the other lacks, where the library takes it
  for (const [protocol, other] of [
    ['aep', 'ahp'],
    ['ahp', 'aep'],
  ] as const) {
    const own = new Set(PROTOCOLS[protocol].flags.map((f) => f.to.join('.')));
    for (const flag of PROTOCOLS[other].flags.filter((f) => !own.has(f.to.join('.')))) {
      const key = String(flag.to[flag.to.length - 1]);
      const o =
        flag.to.length === 1 ? { [key]: flag.choices?.[0] ?? 1 } : { stream: { [key]: flag.choices?.[0] ?? 1 } };
      const written = flag.to.length === 1 ? key : `stream: { ${key} }`;
      assert.match(
        (await refusal(protocol, o)) ?? '',
        new RegExp(
          `an option of ${other.toUpperCase()} \\(createSession\\('${other}', \\{ ${written.replace(/[{}]/g, '\\$&')} \\}\\)\\)`,
        ),
        `${protocol} ${flag.to.join('.')}`,
      );
    }
  }
});

test('the CLI refuses a mistyped choice with the nearest one, as the library does', async () => {
  const binding = await runCli('ahp', ['validate', '--binding', 'htpp', 'x.jsonl']);
  assert.equal(binding.code, 2);
  assert.match(binding.stderr, /Allowed choices are stdio, http, registration\. \(Did you mean http\?\)/);
  const forms = await runCli('aep', ['validate', '--forms', 'recomended', 'examples/aep/session.jsonl']);
  assert.match(forms.stderr, /\(Did you mean recommended\?\)/);
  const far = await runCli('ahp', ['validate', '--binding', 'zzzzz', 'x.jsonl']);
  assert.doesNotMatch(far.stderr, /Did you mean/);
});
