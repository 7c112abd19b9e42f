/** The timeline facts of an AEP event (src/core/event-facts.ts): envelope members only, never `data`. */
import { type EventFacts, factId, factText, type LinkKind } from '../core/event-facts.ts';
import type { ParsedEvent } from '../core/rule.ts';
import { ATTENTION_FOLLOWERS } from './analyzers/attention.ts';
import { ACKS } from './analyzers/control.ts';

const FOLLOWER_ROLE: Readonly<Record<string, string>> = {
  'attention.routed': 'routed',
  'attention.answered': 'answered',
  'attention.resolved': 'resolved',
  'attention.timeout': 'timed out',
  'control.attention.respond': 'respond',
};

/**
 * Type, time, seq, session; an `attention.requested` opens a group its followers join by `subject` (AEP-0002 §7); a
 * command opens one its acks join by `cause` (AEP-0004 §3).
 */
export function aepEventFacts(ev: ParsedEvent): EventFacts {
  const v = ev.value;
  const facts: EventFacts = { source: ev.source, line: ev.line };
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return facts;
  const type = factText(v.type);
  const time = factText(v.time);
  const session = factText(v.session);
  const id = factId(v.id);
  if (type !== undefined) facts.type = type;
  if (time !== undefined) facts.time = time;
  if (session !== undefined) facts.session = session;
  if (typeof v.seq === 'number' && Number.isSafeInteger(v.seq)) facts.seq = v.seq;
  if (type === undefined) return facts;
  const opens: { kind: LinkKind; id: string }[] = [];
  const answers: { kind: LinkKind; id: string; role: string }[] = [];
  if (id !== undefined && type === 'attention.requested') opens.push({ kind: 'attention', id });
  if (id !== undefined && type.startsWith('control.') && !ACKS.has(type)) opens.push({ kind: 'control', id });
  const subject = factId(v.subject);
  if (subject !== undefined && ATTENTION_FOLLOWERS.has(type))
    answers.push({ kind: 'attention', id: subject, role: FOLLOWER_ROLE[type] ?? type });
  const cause = factId(v.cause);
  if (cause !== undefined && ACKS.has(type))
    answers.push({ kind: 'control', id: cause, role: type === 'control.accepted' ? 'accepted' : 'rejected' });
  if (opens.length) facts.opens = opens;
  if (answers.length) facts.answers = answers;
  return facts;
}
