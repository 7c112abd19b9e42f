// Typed rule metadata (issue 41 item 3): a rule's `messages` decide, at compile time, which `messageId`s
// `ctx.report` takes and which `args` each needs. Each `@ts-expect-error` below is an assertion that `tsc`
// (run by `npm test`) checks: if the line stopped being an error, the directive itself would fail to compile.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { defineEventRule } from '../../src/core/engine.ts';
import { makeFinding, messageKey, type ParsedEvent, type ReportInput } from '../../src/core/rule.ts';

const event: ParsedEvent = {
  source: 'x.jsonl',
  line: 1,
  byteOffset: 0,
  text: '{"a":1}',
  value: { a: 1 },
  duplicates: [],
  bigIntegers: [],
};

const twoTemplates = defineEventRule({
  id: 'x/two',
  severity: 'error',
  description: 'd',
  spec: 's',
  messages: { first: 'First {a}.', second: 'Second {a} and {b:json}.' },
  check(ev: ParsedEvent, ctx) {
    ctx.report({ messageId: 'first', args: { a: 1 } });
    ctx.report({ messageId: ev.line === 1 ? 'first' : 'second', args: { a: 1 } });
    // @ts-expect-error: no template is called `nope`
    ctx.report({ messageId: 'nope', args: { a: 1 } });
    // @ts-expect-error: `second` needs `b`
    ctx.report({ messageId: 'second', args: { a: 1 } });
    // @ts-expect-error: `first` needs `a`
    ctx.report({ messageId: 'first' });
    // @ts-expect-error: with two templates the default is not known to the type system, so `messageId` is required
    ctx.report({ args: { a: 1 } });
  },
});

const oneTemplate = defineEventRule({
  id: 'x/one',
  severity: 'warning',
  description: 'd',
  spec: 's',
  messages: { only: 'Only {n:s}.' },
  check(_ev: ParsedEvent, ctx) {
    ctx.report({ args: { n: 2 } });
    // @ts-expect-error: `only` needs `n`
    ctx.report({});
  },
});

/** Runs `rule.check` on `event`, collecting what it reports as findings; throws where rendering would. */
function run(rule: typeof twoTemplates | typeof oneTemplate): string[] {
  const out: string[] = [];
  const ctx = { report: (r: ReportInput) => void out.push(makeFinding(rule, r, event).message) };
  rule.check(event, ctx as never);
  return out;
}

test('typed rule metadata: the calls the compiler refuses are the ones that fail at run time', () => {
  assert.throws(() => run(twoTemplates), /no message "nope"|placeholder \{b\} has no argument/);
  assert.throws(() => run(oneTemplate), /placeholder \{n\} has no argument/);
});

test('messageKey: an analyzer-chosen id is a key of the rule, or the rule throws (reported as internal/rule-error)', () => {
  const messages = { a: 'A.', b: 'B.' } as const;
  assert.equal(messageKey(messages, 'b'), 'b');
  assert.throws(() => messageKey(messages, 'c'), /no message "c"/);
  assert.throws(() => messageKey(messages, 'toString'), /no message "toString"/);
});
