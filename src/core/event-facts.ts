/**
 * What a report's timeline knows of one event (docs/architecture.md §The timeline of a report): its place and its
 * envelope's position facts (type, time, seq, session), and the ids that pair it with other events. Never a payload
 * value: each protocol's `eventFacts` reads only envelope members.
 */
import { visible } from './visible.ts';

/** How two events pair: an AEP attention request and its followers, an AEP-0004 command and its acks, a JSON-RPC request and its response, an AHP elicitation request and its result. */
export type LinkKind = 'attention' | 'control' | 'rpc' | 'elicitation';

/** One event's facts; strings are already visible (src/core/visible.ts) and cut to {@link FACT_MAX_CHARS}. */
export interface EventFacts {
  source: string;
  line: number;
  /** The event type (coverage counts it). */
  type?: string;
  /** The message kind when it is not an event (AHP: the JSON-RPC method, `result`, `error`). */
  method?: string;
  time?: string;
  seq?: number;
  session?: string;
  /** Groups this event opens, by the id later events name. */
  opens?: readonly { kind: LinkKind; id: string }[];
  /** Groups this event joins: the id it names and its role there (`answered`, `accepted`, `response`). */
  answers?: readonly { kind: LinkKind; id: string; role: string }[];
}

/** The longest string kept of one fact. */
export const FACT_MAX_CHARS = 80;

/** A string member as a fact: visible, cut to {@link FACT_MAX_CHARS}; `undefined` for anything else. */
export function factText(v: unknown): string | undefined {
  if (typeof v !== 'string') return undefined;
  const s = visible(v);
  return s.length > FACT_MAX_CHARS ? `${s.slice(0, FACT_MAX_CHARS - 1)}…` : s;
}

/** An id member (string, or a JSON-RPC number) as a fact; `undefined` for anything else. */
export function factId(v: unknown): string | undefined {
  return typeof v === 'number' && Number.isFinite(v) ? `#${v}` : factText(v);
}
