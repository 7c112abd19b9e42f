/**
 * AEP-0002 §2 lifecycle units beyond runs, sessions and attention requests: a unit's first terminal leaves a completion
 * mark keyed within its emitter session, so a second is found (convention 5; keys in README §AEP-0002).
 */
import type { Mark } from '../../core/mark.ts';
import { isObj } from '../../core/value.ts';
import { attr, type AepEvent } from '../event.ts';
import { copiesAt, type IdentityFacts } from './identity-facts.ts';
import type { CompletionMarks } from './markers.ts';
import type { MarkTag, SessionRecord } from './session.ts';

/** A lifecycle unit this analyzer tracks. */
export type UnitKind = 'tool' | 'step' | 'subagent' | 'task' | 'retrieval' | 'stream';

/** A second terminal of one unit: where the event names the unit, and the unit's first terminal. */
export interface UnitTerminal {
  unit: UnitKind;
  /** The unit's id as the event names it: call id, step, child session or subject, task id or subject, cause, stream id. */
  key: string;
  /** A step's run, when it has one. */
  run?: string;
  pointer: string;
  prior: Mark;
  priorType: string;
}

/** A `stream.started` under a stream id this emitter session already started or finished (AEP-0007 §3 item 1). */
export interface StreamReused {
  key: string;
  prior: Mark;
  priorType: string;
}

/** What the unit analyzer found about one event. */
export interface UnitFacts {
  unitTerminal?: UnitTerminal;
  streamReused?: StreamReused;
}

/** The terminal types of each unit (AEP-0002 §4, §5.3-§5.4; AEP-0007 §4). */
const TERMINAL_UNIT: ReadonlyMap<string, UnitKind> = new Map([
  ['tool.completed', 'tool'],
  ['tool.failed', 'tool'],
  ['tool.denied', 'tool'],
  ['run.step.finished', 'step'],
  ['delegation.subagent.stopped', 'subagent'],
  ['progress.task.completed', 'task'],
  ['resource.retrieval.returned', 'retrieval'],
  ['stream.finished', 'stream'],
]);

const RETRIEVAL_REQUEST = 'resource.retrieval.requested';

/** The mark key of one unit and where the event names it. */
interface UnitId {
  tag: MarkTag;
  name: string;
  key: string;
  pointer: string;
  run?: string;
}

/** `<length>:<text>`, or `-` for none: parts of a mark name that stay injective when joined. */
const part = (s: string | undefined): string => (s === undefined ? '-' : s.length + ':' + s);

/** `data[member]` when an object; `null` when `data` is untrusted or a copy of the member repeats. */
function payloadPart(ev: AepEvent, member: string): Record<string, unknown> | undefined | null {
  if (ev.untrusted?.has('data')) return null;
  const data = ev.value.data;
  if (!isObj(data)) return undefined;
  // which copy JSON.parse kept must not decide the key (docs/architecture.md §The run: duplicate member names)
  const root = '/data/' + member;
  for (const d of ev.duplicates) if (d.pointer === root || d.pointer.startsWith(root + '/')) return null;
  const v = data[member];
  return isObj(v) ? v : undefined;
}

const idOf = (o: Record<string, unknown> | undefined | null, member: string): string | undefined => {
  const v = o?.[member];
  return typeof v === 'string' && v !== '' ? v : undefined;
};

/** The subject as the unit's id (`tag`), or `undefined`. */
function bySubject(ev: AepEvent, tag: MarkTag, prefix: string): UnitId | undefined {
  const subject = attr(ev, 'subject');
  return subject === undefined ? undefined : { tag, name: prefix + subject, key: subject, pointer: '/subject' };
}

/** How the event names its unit: the payload's id first, the envelope `subject` (convention 1) when it has none. */
function unitId(ev: AepEvent, unit: UnitKind): UnitId | undefined {
  switch (unit) {
    case 'tool': {
      const call = idOf(payloadPart(ev, 'tool'), 'call_id');
      return call === undefined ? undefined : { tag: 't', name: call, key: call, pointer: '/data/tool/call_id' };
    }
    case 'step': {
      const step = attr(ev, 'step');
      if (step === undefined || ev.untrusted?.has('run')) return undefined;
      const run = attr(ev, 'run');
      return { tag: 's', name: part(run) + step, key: step, pointer: '/step', run };
    }
    case 'subagent': {
      const child = payloadPart(ev, 'child');
      const session = idOf(child, 'session');
      if (child === null) return undefined;
      if (session === undefined) return bySubject(ev, 'd', 's');
      const name = 'c' + part(session) + part(idOf(child, 'run')) + part(idOf(child, 'agent'));
      return { tag: 'd', name, key: session, pointer: '/data/child/session' };
    }
    case 'task': {
      const task = payloadPart(ev, 'task');
      const id = idOf(task, 'id');
      if (task === null) return undefined;
      return id === undefined
        ? bySubject(ev, 'k', 's')
        : { tag: 'k', name: 'i' + id, key: id, pointer: '/data/task/id' };
    }
    case 'retrieval': {
      const cause = attr(ev, 'cause');
      return cause === undefined ? undefined : { tag: 'v', name: cause, key: cause, pointer: '/cause' };
    }
    case 'stream':
      return ev.subprofile ? bySubject(ev, 'm', 'f') : undefined;
  }
}

/** Terminals of the units of {@link UnitKind}, as completion marks (held by the run's {@link CompletionMarks}). */
export class UnitAnalyzer {
  constructor(private readonly marks: CompletionMarks) {}

  /** `facts.session`: the event's emitter session (lifecycle.ts); `collision`, `unverifiable`: its id's first copy. */
  observe(ev: AepEvent, facts: UnitFacts & IdentityFacts & { session?: SessionRecord; at: Mark }): void {
    const rec = facts.session;
    if (rec === undefined) return;
    const type = ev.type;
    const unit = TERMINAL_UNIT.get(type);
    if (unit === undefined) {
      if (type === RETRIEVAL_REQUEST) this.retrievalRequested(ev, rec, facts.at);
      else if (type === 'stream.started' && ev.subprofile) this.streamStarted(ev, rec, facts);
      return;
    }
    const id = unitId(ev, unit);
    if (id === undefined) return;
    const k = rec.markKey(id.tag, id.name);
    const prior = this.marks.get(k);
    if (unit === 'retrieval') {
      // a retrieval is named only by its request's id (the returned event's cause): only a request of the input is one
      if (prior === undefined) return;
      if (prior.type === RETRIEVAL_REQUEST) {
        this.marks.put(k, facts.at, type, ev);
        return;
      }
    } else if (prior === undefined) {
      this.marks.add(k, facts.at, type, ev);
      return;
    }
    if (copiesAt(facts, prior.at)) return;
    const t: UnitTerminal = { unit, key: id.key, pointer: id.pointer, prior: prior.at, priorType: prior.type };
    if (id.run !== undefined) t.run = id.run;
    facts.unitTerminal = t;
  }

  /** A stream id names one production of content (AEP-0007 §3 item 1): a start after its start or finish reuses it. */
  private streamStarted(ev: AepEvent, rec: SessionRecord, facts: UnitFacts & IdentityFacts & { at: Mark }): void {
    const subject = attr(ev, 'subject');
    if (subject === undefined) return; // aep/stream-subject
    const k = rec.markKey('m', 'b' + subject);
    const first = this.marks.get(k);
    if (first === undefined) this.marks.add(k, facts.at, ev.type, ev);
    const prior = first ?? this.marks.get(rec.markKey('m', 'f' + subject));
    if (prior !== undefined && !copiesAt(facts, prior.at))
      facts.streamReused = { key: subject, prior: prior.at, priorType: prior.type };
  }

  private retrievalRequested(ev: AepEvent, rec: SessionRecord, at: Mark): void {
    const k = rec.markKey('v', attr(ev, 'id')!);
    if (this.marks.get(k) === undefined) this.marks.add(k, at, RETRIEVAL_REQUEST, ev);
  }
}
