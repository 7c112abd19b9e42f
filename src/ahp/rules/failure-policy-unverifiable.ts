import { markLocation } from '../../core/mark.ts';
import { defineAhpStreamRule } from '../analyzers/model.ts';

/** `ahp/failure-policy-unverifiable`: the complement of `ahp/denied-call-ran` where the policy is not on the wire. */
export const failurePolicyUnverifiable = defineAhpStreamRule({
  id: 'ahp/failure-policy-unverifiable',
  severity: 'info',
  description:
    'A tool call ran after its interception failed and no `hook.failure` names the policy, or after a deny that came after a `hook.failure` naming the event (not verified).',
  detail:
    'An operational failure is a JSON-RPC error, or a rejected response. Under fail-open the call continues, under fail-closed it must not run, and the policy is harness-local configuration. A response after a `hook.failure` naming its event is late: the harness ignores it and applies failure policy (§Deadlines: "When the deadline expires, the harness MUST ignore any later response and apply failure policy"), so a deny there is no accepted denial and a fail-open call may run; the `hook.failure` may be another backend\'s, though (the one of this connection then denied in time), which the wire does not tell. Also cited: §Deadlines; §Failure classes; base/errors.md §JSON-RPC errors; base/index.md §Tool Interception profile.',
  spec: 'AHP base/failure.md §Failure policy (AHP-FAIL-001)',
  messages: {
    late: "The call of the tool.before at {before} ran after the deny at {failed}, which came after a `hook.failure` naming the event: a response after the deadline is ignored and failure policy applies (base/failure.md §Deadlines), unless that failure was another backend's (then this deny was in time and the call must not run); not verified.",
    ran: "The call of the tool.before at {before} ran after its interception failed at {failed}; the subscription's failure policy is not in the input, so whether it had to be denied (fail-closed) is not verified.",
  },
  on: ['failedCallRan'],
  onEvent(facts, ctx) {
    for (const d of facts.event?.failedCallRan ?? []) {
      const before = markLocation(d.before);
      const failed = markLocation(d.at);
      const pointer = d.entry === undefined ? '/params/event' : `/params/event/calls/${d.entry}`;
      ctx.report({ pointer, messageId: d.late ? 'late' : 'ran', args: { before, failed }, related: [before, failed] });
    }
  },
});
