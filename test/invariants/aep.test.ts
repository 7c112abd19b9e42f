// The invariants of issue 23 over AEP (test/invariants/define.ts), and a rule that throws.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { RuleCrashError, type Finding } from '../../src/index.ts';
import { PROTOCOLS } from '../../src/run/protocols.ts';
import { runInputs } from '../../src/run/run.ts';
import { defineInvariants } from './define.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

defineInvariants('aep');

test('a rule that throws is one internal/rule-error finding; the rest of the stream is still checked; failFast throws', async () => {
  const def = PROTOCOLS.aep;
  const broken = {
    ...def,
    checker: (o: Parameters<typeof def.checker>[0], out: Parameters<typeof def.checker>[1]) => {
      const inner = def.checker(o, out);
      return {
        onEvent(ev: Parameters<typeof inner.onEvent>[0]) {
          if (ev.line === 2) throw new TypeError('boom');
          inner.onEvent(ev);
        },
        end: () => inner.end(),
      };
    },
  };
  const text = readFileSync(join(ROOT, 'examples/aep/session-broken.jsonl'));
  const input = () => [
    {
      source: 'x.jsonl',
      open: async function* () {
        yield text;
      },
    },
  ];
  const findings: Finding[] = [];
  const r = await runInputs(broken, input(), {}, { finding: (f) => void findings.push(f) });
  assert.equal(r.incomplete, true);
  const crash = findings.filter((f) => f.ruleId === 'internal/rule-error');
  assert.equal(crash.length, 1);
  assert.equal(crash[0]!.line, 2);
  assert.match(String(crash[0]!.args?.cause), /TypeError: boom/);
  assert.doesNotMatch(crash[0]!.message, /\n\s+at /, 'no stack trace in the message');
  assert.ok(
    findings.some((f) => (f.line ?? 0) > 2 && f.ruleId.startsWith('aep/')),
    'later lines are still checked',
  );
  await assert.rejects(
    runInputs(broken, input(), { failFast: true }),
    (e: Error) => e instanceof RuleCrashError && /boom/.test(e.message),
  );
});
