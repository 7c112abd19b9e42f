import { defineAhpStreamRule } from '../analyzers/model.ts';

/**
 * `ahp/timeout-range-narrow`: a manifest's `limits.minTimeoutMs` above 100 or `limits.maxTimeoutMs` below 30,000 states
 * that the harness does not support part of the range the SHOULD names; an absent limit is
 * ahp/manifest-limit-unexplained's concern, not this rule's.
 */
export const timeoutRangeNarrow = defineAhpStreamRule({
  id: 'ahp/timeout-range-narrow',
  severity: 'warning',
  description:
    'A capabilities manifest supports interception deadlines from 100 ms through 30,000 ms: `limits.minTimeoutMs` is at most 100 and `limits.maxTimeoutMs` at least 30,000.',
  detail:
    'The limits are the smallest and largest `timeoutMs` the harness accepts (capability-auth.md §Discovery and honest capabilities names them), so a narrower pair is the harness saying it does not support the whole range.',
  spec: 'AHP base/failure.md §Deadlines',
  quote: 'A harness SHOULD support values from 100 ms through 30,000 ms.',
  messages: {
    narrow:
      'The manifest states `{name}` {value}, so not every deadline from 100 ms through 30,000 ms is supported; a harness SHOULD support them all.',
  },
  on: ['manifest'],
  onEvent(facts, ctx) {
    const m = facts.manifest;
    for (const { name, value } of m?.narrowTimeouts ?? [])
      ctx.report({ pointer: `${m!.pointer}/limits/${name}`, args: { name, value } });
  },
});
