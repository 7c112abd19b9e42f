// A stream rule's `on` (src/core/engine.ts FactRule): the engine calls its onEvent only for an
// event whose facts set one of the named members; a rule without `on` sees every event.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { defineStreamRule, Engine, type FactRule } from '../../src/core/engine.ts';
import type { ParsedEvent, RuleMeta } from '../../src/core/rule.ts';

type Facts = { n: number; odd?: true; big?: number };

function runAll(withBits: boolean): Record<string, number[]> {
  const seen: Record<string, number[]> = { odd: [], big: [], either: [], all: [] };
  const meta = { severity: 'info' as const, description: 'd', spec: 's', messages: { m: 'm' } } as const;
  // a typed rule reaches the engine as the protocols' lists pass it: as RuleMeta, narrowed (src/aep/rules/index.ts)
  const rules: readonly RuleMeta[] = [
    defineStreamRule<Facts, undefined, 'x/odd', { m: 'm' }>({
      ...meta,
      id: 'x/odd',
      on: ['odd'],
      onEvent(f) {
        seen.odd!.push(f.n);
      },
    }),
    defineStreamRule<Facts, undefined, 'x/big', { m: 'm' }>({
      ...meta,
      id: 'x/big',
      on: ['big'],
      onEvent(f) {
        seen.big!.push(f.n);
      },
    }),
    defineStreamRule<Facts, undefined, 'x/either', { m: 'm' }>({
      ...meta,
      id: 'x/either',
      on: ['odd', 'big'],
      onEvent(f) {
        seen.either!.push(f.n);
      },
    }),
    defineStreamRule<Facts, undefined, 'x/all', { m: 'm' }>({
      ...meta,
      id: 'x/all',
      onEvent(f) {
        seen.all!.push(f.n);
      },
    }),
  ];
  const model = {
    state: undefined,
    observe(ev: ParsedEvent): Facts {
      const n = (ev.value as { n: number }).n;
      const f: Facts = { n };
      if (n % 2) f.odd = true;
      if (n >= 3) f.big = n;
      return f;
    },
    ...(withBits
      ? {
          factBits: { odd: 1, big: 2 },
          presence: (f: Facts) => (f.odd !== undefined ? 1 : 0) | (f.big !== undefined ? 2 : 0),
        }
      : {}),
  };
  const engine = new Engine<ParsedEvent, Facts, undefined>(
    [],
    rules as readonly FactRule<Facts, undefined>[],
    model,
    () => undefined,
  );
  for (let n = 0; n < 5; n++)
    engine.streamEvent({
      source: 's',
      line: n + 1,
      byteOffset: 0,
      text: '',
      value: { n },
      duplicates: [],
      duplicatesOmitted: 0,
      bigIntegers: [],
    } as unknown as ParsedEvent);
  return seen;
}

test("Engine: onEvent runs for the facts named in `on` only; without `on`, for every event (by name, and by the model's fact bits)", () => {
  const expected = { odd: [1, 3], big: [3, 4], either: [1, 3, 4], all: [0, 1, 2, 3, 4] };
  assert.deepEqual(runAll(false), expected);
  assert.deepEqual(runAll(true), expected);
});

test('Engine: a rule gated `on` a name the model has no fact bit for is refused at construction', () => {
  const rule = defineStreamRule<Facts, undefined, 'x/typo', { m: 'm' }>({
    severity: 'info',
    description: 'd',
    spec: 's',
    messages: { m: 'm' },
    id: 'x/typo',
    on: ['od'],
    onEvent() {},
  });
  const model = { state: undefined, observe: (): Facts => ({ n: 0 }), factBits: { odd: 1 }, presence: () => 0 };
  assert.throws(
    () =>
      new Engine<ParsedEvent, Facts, undefined>(
        [],
        [rule as RuleMeta as FactRule<Facts, undefined>],
        model,
        () => undefined,
      ),
    /x\/typo: `on` names "od"/,
  );
});
