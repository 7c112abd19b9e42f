/**
 * AEP-0006 amending AEP-0002 §5.3: "An emitter MUST reject (control.rejected{reason:"invalid"}) a
 * control.attention.respond" whose values break the form. The MUST binds the target, so an invalid respond is judged
 * by its target's first decision (AEP-0004 §3): the aep/respond-values-* warnings stay at the command's own location
 * unless that decision is the required rejection.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Finding } from '../../src/core/finding.ts';
import { bothRoutes, brief, checkText, event, jsonl, type RunOptions, UNIT_FORM } from './helpers.ts';

const FORM = UNIT_FORM;

/** A form request, a respond breaking it three ways (required, type, choice), then `after` of the target. */
function stream(after: (respondId: string) => Record<string, unknown>[]): string {
  const req = event('attention.requested', 0, { id: 'q', capture: 'redacted', data: FORM });
  const respond = event('control.attention.respond', undefined, {
    id: 'c',
    subject: 'q',
    cause: 'q',
    source: 'aep://ops-host/agent/console',
    agent: 'console',
    capture: 'redacted',
    data: { answer: { values: { n: 'three', tier: 'platinum' } } },
  });
  return jsonl([req, respond, ...after('c')]);
}

const timeout = (seq: number) => event('attention.timeout', seq, { subject: 'q', data: { after_ms: 1 } });
const rejected = (reason: unknown, seq = 1) => event('control.rejected', seq, { cause: 'c', data: { reason } });

/** The target's decisions, each with whether it reports the warnings and whether it is the acceptance error. */
const DECISIONS: [string, (id: string) => Record<string, unknown>[], boolean, boolean][] = [
  ['rejected invalid', () => [rejected('invalid'), timeout(2)], false, false],
  ['rejected refused', () => [rejected('refused'), timeout(2)], true, false],
  ['rejected busy', () => [rejected('busy'), timeout(2)], true, false],
  ['rejected unsupported', () => [rejected('unsupported'), timeout(2)], true, false],
  ['no ack', () => [timeout(1)], true, false],
  ['accepted', (c) => [event('control.accepted', 1, { cause: c }), timeout(2)], true, true],
  [
    'answered without an ack',
    (c) => [
      event('attention.answered', 1, {
        id: 'an',
        subject: 'q',
        cause: c,
        capture: 'redacted',
        data: { answer: { values: { name: 'x' } }, via: 'control' },
      }),
      event('attention.resolved', 2, { subject: 'q', cause: 'an', data: { resolution: 'answered' } }),
    ],
    true,
    true,
  ],
  [
    'rejected invalid, then accepted',
    () => [rejected('invalid'), event('control.accepted', 2, { cause: 'c' })],
    false,
    false,
  ],
];

const isValues = (f: Finding) => f.ruleId.startsWith('aep/respond-values-');
const where = (f: Finding) => `${f.ruleId}@${f.line}:${f.column}:${f.byteOffset}${f.pointer}`;

test('an invalid respond is judged by its target: the required rejection clears it, any other decision keeps it', async () => {
  let located: string[] | undefined;
  for (const [name, after, warns, error] of DECISIONS) {
    const fs = await checkText(stream(after));
    const values = fs.filter(isValues);
    const accepted = fs.filter((f) => f.ruleId === 'aep/respond-invalid-accepted');
    assert.equal(values.length, warns ? 3 : 0, `${name}: ${brief(fs)}`);
    assert.equal(accepted.length, error ? 1 : 0, `${name}: ${brief(fs)}`);
    if (!warns) continue;
    // decided at a later line or at the end, the warnings stay where the command breaks the form
    const here = values.map(where).sort();
    located ??= here;
    assert.deepEqual(here, located, name);
    // the line and column of the member in the command's text, not the line start a mark alone gives
    for (const f of values) assert.ok(f.line === 2 && f.column! > 1, `${name}: ${where(f)}`);
    assert.deepEqual(values.map((f) => f.ruleId).sort(), [
      'aep/respond-values-choice',
      'aep/respond-values-required',
      'aep/respond-values-type',
    ]);
  }
});

test('the decision is the ack of the addressed session: one elsewhere, or one of unknown cause, decides nothing', async () => {
  const elsewhere = event('control.rejected', 0, {
    source: 'aep://unit-host/agent/unit/session/u_2',
    session: 'u_2',
    cause: 'c',
    data: { reason: 'invalid' },
  });
  const fs = await checkText(stream(() => [elsewhere, timeout(1)]));
  assert.equal(fs.filter(isValues).length, 3, brief(fs));
  // an ack whose cause failed its schema may have been the rejection: not knowing says nothing
  const unknown = event('control.rejected', 1, { cause: 7, data: { reason: 'invalid' } });
  const fu = await checkText(stream(() => [unknown, timeout(2)]));
  assert.deepEqual(fu.filter(isValues), [], brief(fu));
  // a rejection whose payload fails its schema has no known reason
  const fp = await checkText(stream(() => [rejected('nope'), timeout(2)]));
  assert.deepEqual(fp.filter(isValues), [], brief(fp));
  assert.ok(
    fp.some((f) => f.line === 3 && f.severity === 'error'),
    brief(fp),
  );
});

test('respond decisions: file and stdin give the same findings', async () => {
  for (const [name, after] of DECISIONS) {
    const text = stream(after);
    assert.deepEqual(
      (await bothRoutes(text)).filter((k) => k.startsWith('aep/respond-')),
      (await checkText(text))
        .filter((f) => f.severity !== 'info' && f.ruleId.startsWith('aep/respond-'))
        .map((f) => `${f.ruleId}@${f.line}`),
      name,
    );
  }
});

test('held respond issues are bounded: past a cap the verdicts say less, never more, with the cap noted', async () => {
  for (const [name, after] of DECISIONS) {
    const text = stream(after);
    const full = new Set((await checkText(text)).map(where));
    for (const stream of [{ maxStateMb: 0.0005 }, { maxOpen: 1 }] as RunOptions['stream'][]) {
      const fs = await checkText(text, { stream });
      const capped = fs.filter((f) => f.ruleId !== 'aep/state-cap' && !full.has(where(f)));
      assert.deepEqual(capped, [], `${name} ${JSON.stringify(stream)}: ${brief(capped)}`);
      if (fs.filter(isValues).length < [...full].filter((k) => k.startsWith('aep/respond-values-')).length)
        assert.ok(
          fs.some((f) => f.ruleId === 'aep/state-cap'),
          `${name} ${JSON.stringify(stream)}: ${brief(fs)}`,
        );
    }
  }
  // a budget too small for any held issue: the accepted command is still the error, its warnings are forgotten
  const fs = await checkText(stream(DECISIONS[5]![1]), { stream: { maxStateMb: 0.0005 } });
  assert.ok(
    fs.some((f) => f.ruleId === 'aep/respond-invalid-accepted'),
    brief(fs),
  );
  assert.deepEqual(fs.filter(isValues), [], brief(fs));
});

test('no decision in the input but an unreadable line after the respond: the warnings are withheld (it may have held the ack)', async () => {
  const text = stream(() => [timeout(2)]);
  const lines = text.trimEnd().split('\n');
  // the rejection would have been line 3; here line 3 is cut short
  const cut = [...lines.slice(0, 2), '{"aep":"0.1","type":"control.rejec', ...lines.slice(2)].join('\n') + '\n';
  const fs = await checkText(cut);
  assert.ok(
    fs.some((f) => f.ruleId === 'jsonl/invalid-json'),
    brief(fs),
  );
  assert.deepEqual(fs.filter(isValues), [], brief(fs));
  // the same stream without the cut line keeps them
  assert.equal((await checkText(text)).filter(isValues).length, 3);
});
