import { markLocation, mayFollow } from '../../core/mark.ts';
import { defineAhpStreamRule } from '../analyzers/model.ts';

/** `ahp/denied-call-ran`: judged when the refused `tool.before` is in the input (see `detail`). */
export const deniedCallRan = defineAhpStreamRule({
  id: 'ahp/denied-call-ran',
  severity: 'error',
  description:
    'A tool call whose tool.before was refused (an accepted `deny`, or a fail-closed `hook.failure` naming it) does not run.',
  detail:
    'No `tool.progress` for it, and neither its `tool.after` nor its entry in a `tool.batch.after`\'s `calls` reports executed execution or an `ok` outcome (the denial is reported with `outcome: "denied"` and skipped/policy execution). Also cited: server/tool-interception.md §`deny` (AHP-DEC-002); base/index.md §Tool Interception profile ("Stop tool execution after an explicit denial or fail-closed operational failure"); base/failure.md §Failure policy.',
  spec: 'AHP server/lifecycle-observation.md §`tool.before` (AHP-TB-001)',
  quote: 'If any interceptor denies the event, the harness MUST NOT execute the tool',
  messages: {
    progress:
      'This tool.progress reports the call of the tool.before at {before}, which was refused at {denied}; a refused call does not run.',
    executed:
      'This tool.after reports executed execution for the call of the tool.before at {before}, which was refused at {denied}; a refused call does not run (a denial is `outcome: "denied"` with skipped/policy execution).',
    ok: 'This tool.after reports an `ok` outcome for the call of the tool.before at {before}, which was refused at {denied}; no supplied or original result bypasses the settled denial.',
    batchExecuted:
      'Entry {entry} of this tool.batch.after reports executed execution for the call of the tool.before at {before}, which was refused at {denied}; a refused call does not run.',
    batchOk:
      'Entry {entry} of this tool.batch.after reports an `ok` outcome for the call of the tool.before at {before}, which was refused at {denied}; no supplied or original result bypasses the settled denial.',
  },
  on: ['deniedCallRan'],
  onEvent(facts, ctx, state) {
    for (const d of facts.event?.deniedCallRan ?? []) {
      // a line between the request and the denial that gave no message may have been a hook.failure making the denial late (base/failure.md §Deadlines)
      if (state.unreadable && mayFollow(state.unreadable, d.before) && mayFollow(d.at, state.unreadable)) continue;
      const before = markLocation(d.before);
      const denied = markLocation(d.at);
      const at = d.entry === undefined ? '/params/event' : `/params/event/calls/${d.entry}`;
      ctx.report({
        pointer: d.ran === 'progress' ? at : d.ran === 'executed' ? `${at}/execution/status` : `${at}/outcome`,
        messageId: d.entry === undefined ? d.ran : `batch${d.ran === 'ok' ? 'Ok' : 'Executed'}`,
        args: { before, denied, entry: d.entry ?? '' },
        related: [before, denied],
      });
    }
  },
});
