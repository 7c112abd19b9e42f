/**
 * ahp/elicitation-unpaired (error): a `user.elicitation.result` names the
 * `user.elicitation.request` it answers: its `parentEventId` is the id of that request event of
 * the same source ("`parentEventId` correlates the result with the AHP request event").
 * - A parent that is a known event of another type: error.
 * - No `parentEventId` at all: warning (a producer omits a parent it does not know, but then the
 *   answer cannot be correlated with its request).
 * A parent that is not in the input is reported by ahp/parent-unknown (info), and an answer that
 * therefore cannot be checked by ahp/elicitation-content-schema (info). Judged on the first
 * occurrence of the result event.
 * AHP interaction-payloads.md §MCP elicitation binding (2025-11-25); task-workspace-lineage.md
 * §Lineage and actual changes.
 */
import { markLocation, trackedRule } from './tracker.ts';

/** The `ahp/elicitation-unpaired` rule, as described in the module comment above. */
export const elicitationUnpaired = trackedRule(
  {
    id: 'ahp/elicitation-unpaired',
    severity: 'error',
    description: "A user.elicitation.result's parentEventId names the user.elicitation.request it answers (a missing parentEventId is a warning).",
    spec: 'AHP interaction-payloads.md §MCP elicitation binding (2025-11-25); task-workspace-lineage.md §Lineage and actual changes',
  },
  () => ({
    onEvent(obs, ctx) {
      const pair = obs.event?.pair;
      if (!pair) return;
      if (pair.parent === 'absent') {
        ctx.report({
          pointer: '/params/event',
          severity: 'warning',
          message: 'This elicitation result has no `parentEventId`, so it cannot be correlated with the request it answers (the result repeats the request\'s server and mode and names it as parent).',
        });
      } else if (pair.parent === 'not-request') {
        ctx.report({
          pointer: '/params/event/parentEventId',
          message: `The parent of this elicitation result is a ${pair.parentType} event (line ${pair.parentAt!.line}), not the user.elicitation.request it answers.`,
          related: [markLocation(pair.parentAt!)],
        });
      }
    },
  }),
);
