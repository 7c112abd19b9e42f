import { markLocation } from '../../core/mark.ts';
import { defineAhpStreamRule } from '../analyzers/model.ts';
import { messageKey } from '../../core/rule.ts';
import { isObj, type Obj } from '../../core/value.ts';
import { isViewMember } from '../analyzers/identity-rows.ts';

/** The rule's templates, shared with the helpers that report for it. */
const MESSAGES = {
  type: 'Event id already used by this source on {prior} for an event of another type; event ids are unique per harness.',
  retry:
    'This intercept request re-sends the event of {prior} with different content; a retry reuses the event id, JSON-RPC id and event contents exactly.',
  retryField:
    'This intercept request re-sends the event of {prior} with different content ({fields} differs); a retry reuses the event id, JSON-RPC id and event contents exactly.',
  retryFields:
    'This intercept request re-sends the event of {prior} with different content ({fields} differ); a retry reuses the event id, JSON-RPC id and event contents exactly.',
  metadata:
    'This event reuses the id of {prior} with different control metadata or members outside its content views; a retry or another view of the same event keeps them.',
  metadataField:
    'This event reuses the id of {prior} with different control metadata or members ({fields} differs); a retry or another view of the same event keeps them.',
  metadataFields:
    'This event reuses the id of {prior} with different control metadata or members ({fields} differ); a retry or another view of the same event keeps them.',
} as const;

const EVENT = '/params/event/';
const SHOWN = /^[A-Za-z][A-Za-z0-9_]{0,39}$/;

/**
 * `fields` with "rest of the event" named by its member, where the first difference is one outside the control fields
 * and content views (a dropped `extensions`, a changed `outcome`): the sentence names what to fix, as the pointer does.
 */
function restNamed(fields: string[], pointer: string | undefined, value: Obj): string[] {
  const rest = fields.indexOf('rest of the event');
  if (rest < 0 || !pointer?.startsWith(EVENT)) return fields;
  const token = pointer.slice(EVENT.length).split('/')[0]!;
  const member = token.replace(/~1/g, '/').replace(/~0/g, '~');
  const event = isObj(value.params) && isObj(value.params.event) ? value.params.event : {};
  // a member name of the protocol's shape only: an unknown member's name is the input's text, never echoed
  if (!SHOWN.test(member) || fields.some((f) => f.split('.')[0] === member) || isViewMember(member, event[member]))
    return fields;
  const named = [...fields];
  named[rest] = `\`${member}\``;
  return named;
}

/**
 * An event may come again as an exact retry (AHP-CORE-004) or another view: only content parts, `native`, `input` and
 * modify targets may differ (selection, projection, accepted edits); identical means the same JSON value.
 */
export const eventIdReuse = defineAhpStreamRule({
  id: 'ahp/event-id-reuse',
  severity: 'error',
  description:
    'An event id is reused by the same source only by an identical intercept retry or another view of the same event (which may differ only in content parts, native, input and modify targets).',
  detail: 'Also cited: base/failure.md §Duplicate delivery and retries (AHP-CORE-004); observation-disposition.md.',
  spec: 'AHP base/events.md §Common event fields',
  messages: MESSAGES,
  on: ['reuse'],
  onEvent(facts, ctx) {
    const r = facts.event?.reuse;
    if (!r || r.kind === 'unverifiable') return;
    const fields = restNamed(
      r.fields.filter((f) => f !== 'type'),
      r.pointer,
      facts.msg.value,
    );
    const suffix = r.kind === 'type' || fields.length === 0 ? '' : fields.length === 1 ? 'Field' : 'Fields';
    const prior = markLocation(r.prior, '/params/event/id');
    // the first member that differs, where the copies could be compared member by member; else the id that repeats
    ctx.report({
      pointer: r.pointer ?? '/params/event/id',
      messageId: messageKey(MESSAGES, `${r.kind}${suffix}`),
      args: { prior, fields: fields.join(', ') },
      related: [prior],
    });
  },
});
