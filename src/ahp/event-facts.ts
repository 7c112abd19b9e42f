/**
 * The timeline facts of an AHP message (src/core/event-facts.ts): the JSON-RPC method or answer kind, and of the hook
 * event it carries its type, time and session id; never the event's payload.
 */
import { type EventFacts, factId, factText, type LinkKind } from '../core/event-facts.ts';
import type { ParsedEvent } from '../core/rule.ts';
import { isObj } from '../core/value.ts';

/**
 * A request opens a group its response joins by JSON-RPC `id`; a `user.elicitation.request` event opens one that the
 * `user.elicitation.result` naming it in `parentEventId` joins (AHP interaction-payloads.md §MCP elicitation binding).
 */
export function ahpEventFacts(ev: ParsedEvent): EventFacts {
  const v = ev.value;
  const facts: EventFacts = { source: ev.source, line: ev.line };
  if (!isObj(v)) return facts;
  const opens: { kind: LinkKind; id: string }[] = [];
  const answers: { kind: LinkKind; id: string; role: string }[] = [];
  const rpcId = factId(v.id);
  const method = factText(v.method);
  if (method !== undefined) {
    facts.method = method;
    if (rpcId !== undefined) opens.push({ kind: 'rpc', id: rpcId });
  } else if (rpcId !== undefined && ('result' in v || 'error' in v)) {
    const role = 'error' in v ? 'error' : 'result';
    facts.method = role;
    answers.push({ kind: 'rpc', id: rpcId, role });
  }
  const event = isObj(v.params) && isObj(v.params.event) ? v.params.event : isObj(v.event) ? v.event : undefined;
  if (event) {
    const type = factText(event.type);
    const time = factText(event.time);
    const session = isObj(event.session) ? factText(event.session.id) : undefined;
    if (type !== undefined) facts.type = type;
    if (time !== undefined) facts.time = time;
    if (session !== undefined) facts.session = session;
    const eventId = factId(event.id);
    if (eventId !== undefined && type === 'user.elicitation.request') opens.push({ kind: 'elicitation', id: eventId });
    const parent = factId(event.parentEventId);
    if (parent !== undefined && type === 'user.elicitation.result')
      answers.push({ kind: 'elicitation', id: parent, role: 'result' });
  }
  if (opens.length) facts.opens = opens;
  if (answers.length) facts.answers = answers;
  return facts;
}
