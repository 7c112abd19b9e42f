/**
 * The bounded timeline of `--format html` (docs/architecture.md §The timeline of a report): event facts and findings
 * per session; past {@link TIMELINE_KEEP_ALL} events only those around findings, their pairs and each session's last
 * few, at most {@link TIMELINE_MAX_EVENTS}.
 */
import type { EventFacts, LinkKind } from '../core/event-facts.ts';
import type { Finding, Severity } from '../core/finding.ts';

/** Events kept whatever their findings while the run has no more than this many. */
export const TIMELINE_KEEP_ALL = 2000;
/** Events kept at most (the rest of a large run is counted). */
export const TIMELINE_MAX_EVENTS = 5000;
/** Events kept on each side of an event with a finding, in its session. */
export const TIMELINE_CONTEXT = 3;
/** Findings drawn on one event (the rest are counted; the list by rule has every one). */
export const TIMELINE_EVENT_FINDINGS = 8;
/** Sessions drawn per run; events of later sessions are counted. */
export const TIMELINE_MAX_SESSIONS = 1000;
/** Pair groups remembered (request ids), the oldest forgotten first. */
const MAX_GROUPS = 50_000;

/** A finding as the timeline draws it on its event. */
export interface TimelineFinding {
  severity: Severity;
  ruleId: string;
  message: string;
  column?: number;
  pointer?: string;
}

/** One kept event (or a line that is not one: `notEvent`). */
export interface TimelineEvent {
  line: number;
  /** Its place among its session's events (1-based): a gap between two kept events is their difference less one. */
  ord: number;
  type?: string;
  method?: string;
  time?: string;
  seq?: number;
  notEvent?: boolean;
  findings: TimelineFinding[];
  /** Findings on it beyond {@link TIMELINE_EVENT_FINDINGS}. */
  moreFindings: number;
  /** Groups it opens (a request) and joins (an answer), by group number. */
  opens: number[];
  joins: { group: number; role: string }[];
}

/** A pair group: what kind, and the line of the event that opened it. */
export interface TimelineGroup {
  kind: LinkKind;
  line: number;
}

/** One session's kept events, in line order. */
export interface SessionTimeline {
  source: string;
  /** `undefined`: events with no session; `notEvents`: lines that did not parse to an event. */
  session: string | undefined;
  notEvents?: boolean;
  events: TimelineEvent[];
  /** Events seen in the session. */
  seen: number;
  /** Findings drawn on its kept events. */
  findings: number;
}

/** What one input's timeline left out. */
export interface InputTimelineFacts {
  events: number;
  types: Map<string, number>;
  /** Findings whose event is no longer kept, or that name no line. */
  offTimeline: number;
  /** Events of sessions past {@link TIMELINE_MAX_SESSIONS}. */
  otherSessions: number;
}

type SessionState = SessionTimeline;

interface GroupEntry extends TimelineGroup {
  n: number;
  session: string;
}

/** A bitset of line numbers, grown as needed. */
class LineSet {
  private bits = new Uint8Array(1024);
  add(n: number): void {
    const i = n >> 3;
    if (i >= this.bits.length) {
      const next = new Uint8Array(Math.max(i + 1, this.bits.length * 2));
      next.set(this.bits);
      this.bits = next;
    }
    this.bits[i]! |= 1 << (n & 7);
  }
  has(n: number): boolean {
    const i = n >> 3;
    return i < this.bits.length && (this.bits[i]! & (1 << (n & 7))) !== 0;
  }
}

const key = (source: string, x: string | number | undefined) => `${source}\u0000${x ?? ''}`;

/** The collector: feed it `event` and `finding` in run order, read `sessions()` and `input()` at the end. */
export class Timeline {
  private readonly sessionMap = new Map<string, SessionState>();
  private readonly byLine = new Map<string, TimelineEvent>();
  private readonly groups = new Map<string, GroupEntry>();
  private readonly groupInfo = new Map<number, TimelineGroup>();
  private readonly inputs = new Map<string, InputTimelineFacts & { lines: LineSet }>();
  private pending: Finding[] = [];
  private stored = 0;
  private limit = TIMELINE_KEEP_ALL;
  private nextGroup = 0;
  /** Events seen past {@link TIMELINE_MAX_EVENTS} or dropped by compaction. */
  dropped = 0;

  constructor(private readonly limits: { keepAll?: number; maxEvents?: number; context?: number } = {}) {
    this.limit = Math.min(limits.keepAll ?? TIMELINE_KEEP_ALL, limits.maxEvents ?? TIMELINE_MAX_EVENTS);
  }

  private input(source: string) {
    let i = this.inputs.get(source);
    if (!i) {
      i = { events: 0, types: new Map(), offTimeline: 0, otherSessions: 0, lines: new LineSet() };
      this.inputs.set(source, i);
    }
    return i;
  }

  private session(source: string, session: string | undefined, notEvents = false): SessionState | undefined {
    const k = key(source, notEvents ? '\u0001' : session === undefined ? '\u0002' : `s${session}`);
    let s = this.sessionMap.get(k);
    if (!s) {
      if (this.sessionMap.size >= TIMELINE_MAX_SESSIONS) return undefined;
      s = { source, session, events: [], seen: 0, findings: 0 };
      if (notEvents) s.notEvents = true;
      this.sessionMap.set(k, s);
    }
    return s;
  }

  /** One event's facts, after its checks (its line's findings came before it). */
  event(f: EventFacts): void {
    const inp = this.input(f.source);
    inp.events++;
    inp.lines.add(f.line);
    if (f.type !== undefined) inp.types.set(f.type, (inp.types.get(f.type) ?? 0) + 1);
    // a response carries no session: it joins its request's
    let sessionName = f.session;
    const joins: TimelineEvent['joins'] = [];
    for (const a of f.answers ?? []) {
      const g = this.groups.get(key(f.source, `${a.kind}\u0000${a.id}`));
      if (!g) continue;
      joins.push({ group: g.n, role: a.role });
      sessionName ??= g.session === '\u0002' ? undefined : g.session;
    }
    const s = this.session(f.source, sessionName);
    const mine = this.takePending(f.source, f.line);
    if (!s) {
      inp.otherSessions++;
      inp.offTimeline += mine.length;
      return;
    }
    s.seen++;
    const opens: number[] = [];
    for (const o of f.opens ?? []) {
      const n = this.nextGroup++;
      const k = key(f.source, `${o.kind}\u0000${o.id}`);
      this.groups.delete(k);
      this.groups.set(k, { n, kind: o.kind, line: f.line, session: sessionName ?? '\u0002' });
      this.groupInfo.set(n, { kind: o.kind, line: f.line });
      if (this.groups.size > MAX_GROUPS) {
        const oldest = this.groups.entries().next().value!;
        this.groups.delete(oldest[0]);
        this.groupInfo.delete(oldest[1].n);
      }
      opens.push(n);
    }
    const ev: TimelineEvent = { line: f.line, ord: s.seen, findings: [], moreFindings: 0, opens, joins };
    if (f.type !== undefined) ev.type = f.type;
    if (f.method !== undefined) ev.method = f.method;
    if (f.time !== undefined) ev.time = f.time;
    if (f.seq !== undefined) ev.seq = f.seq;
    // an event that opens work may get its finding only at the end of the stream (open at end, never answered),
    // after compaction dropped it: it is remembered (as many as the groups) so that finding can bring it back
    if (opens.length) {
      const k = key(f.source, f.line);
      this.openers.delete(k);
      this.openers.set(k, { s, ev });
      if (this.openers.size > MAX_GROUPS) this.openers.delete(this.openers.keys().next().value!);
    }
    this.store(s, ev, mine);
  }

  /** One finding (before its event when both are of one line; after it for a stream's later verdicts). */
  finding(f: Finding): void {
    if (f.line === undefined) {
      this.input(f.source).offTimeline++;
      return;
    }
    const inp = this.input(f.source);
    if (inp.lines.has(f.line)) {
      const ev = this.byLine.get(key(f.source, f.line)) ?? this.restore(f.source, f.line);
      if (ev) this.attach(ev, f, this.sessionOfLine.get(ev)!);
      else inp.offTimeline++;
      return;
    }
    // a finding of a later line: earlier held lines of this input never became events
    this.settle(f.source, f.line);
    this.pending.push(f);
  }

  private readonly sessionOfLine = new WeakMap<TimelineEvent, SessionState>();
  /** Events that opened groups, by line, the oldest forgotten first (see {@link restore}). */
  private readonly openers = new Map<string, { s: SessionState; ev: TimelineEvent }>();

  /** Put a dropped opening event back in its session, in order, for a finding that came late; while there is room. */
  private restore(source: string, line: number): TimelineEvent | undefined {
    const o = this.openers.get(key(source, line));
    if (!o || this.stored >= (this.limits.maxEvents ?? TIMELINE_MAX_EVENTS)) return undefined;
    const events = o.s.events;
    let at = events.length;
    while (at > 0 && events[at - 1]!.ord > o.ev.ord) at--;
    events.splice(at, 0, o.ev);
    this.byLine.set(key(source, line), o.ev);
    this.sessionOfLine.set(o.ev, o.s);
    this.stored++;
    this.dropped--;
    return o.ev;
  }

  private takePending(source: string, line: number): Finding[] {
    this.settle(source, line);
    if (this.pending.length === 0) return [];
    const mine = this.pending.filter((p) => p.source === source && p.line === line);
    if (mine.length) this.pending = this.pending.filter((p) => !(p.source === source && p.line === line));
    return mine;
  }

  /** Held findings of `source` before `line`: their lines are not events; each such line is a row of its own. */
  private settle(source: string, line: number): void {
    if (this.pending.length === 0) return;
    const done = this.pending.filter((p) => p.source === source && p.line! < line);
    if (done.length === 0) return;
    this.pending = this.pending.filter((p) => !(p.source === source && p.line! < line));
    this.notEventRows(done);
  }

  private notEventRows(findings: readonly Finding[]): void {
    const byLine = new Map<string, Finding[]>();
    for (const f of findings) {
      const k = key(f.source, f.line);
      const list = byLine.get(k);
      if (list) list.push(f);
      else byLine.set(k, [f]);
    }
    for (const list of byLine.values()) {
      const first = list[0]!;
      const s = this.session(first.source, undefined, true);
      if (!s) {
        this.input(first.source).offTimeline += list.length;
        continue;
      }
      s.seen++;
      this.store(
        s,
        { line: first.line!, ord: s.seen, notEvent: true, findings: [], moreFindings: 0, opens: [], joins: [] },
        list,
      );
    }
  }

  private store(s: SessionState, ev: TimelineEvent, findings: readonly Finding[]): void {
    if (this.stored >= this.limit) this.compact();
    if (this.stored >= (this.limits.maxEvents ?? TIMELINE_MAX_EVENTS)) {
      this.dropped++;
      this.input(s.source).offTimeline += findings.length;
      return;
    }
    s.events.push(ev);
    this.byLine.set(key(s.source, ev.line), ev);
    this.sessionOfLine.set(ev, s);
    this.stored++;
    for (const f of findings) this.attach(ev, f, s);
  }

  private attach(ev: TimelineEvent, f: Finding, s: SessionState): void {
    if (ev.findings.length >= TIMELINE_EVENT_FINDINGS) {
      ev.moreFindings++;
      return;
    }
    const t: TimelineFinding = { severity: f.severity, ruleId: f.ruleId, message: f.message };
    if (f.column !== undefined) t.column = f.column;
    if (f.pointer !== undefined) t.pointer = f.pointer;
    ev.findings.push(t);
    s.findings++;
  }

  /** Keep the events near a finding, every member of a group one of them is in, and each session's last few. */
  private compact(): void {
    const context = this.limits.context ?? TIMELINE_CONTEXT;
    const withFinding = (e: TimelineEvent) => e.findings.length > 0 || e.moreFindings > 0;
    const keepGroups = new Set<number>();
    for (const s of this.sessionMap.values())
      for (const e of s.events)
        if (withFinding(e)) {
          for (const g of e.opens) keepGroups.add(g);
          for (const j of e.joins) keepGroups.add(j.group);
        }
    let stored = 0;
    for (const s of this.sessionMap.values()) {
      const ords = s.events.filter(withFinding).map((e) => e.ord);
      let i = 0;
      const last = s.events.length - context;
      s.events = s.events.filter((e, at) => {
        while (i < ords.length && ords[i]! < e.ord - context) i++;
        const keep =
          at >= last ||
          (i < ords.length && Math.abs(ords[i]! - e.ord) <= context) ||
          e.opens.some((g) => keepGroups.has(g)) ||
          e.joins.some((j) => keepGroups.has(j.group));
        if (!keep) {
          this.byLine.delete(key(s.source, e.line));
          this.dropped++;
        }
        return keep;
      });
      stored += s.events.length;
    }
    this.stored = stored;
    // each compaction frees a quarter of the room at least, or is the last (the rest of the run is counted)
    const max = this.limits.maxEvents ?? TIMELINE_MAX_EVENTS;
    this.limit =
      stored >= (max * 3) / 4
        ? Infinity
        : Math.min(max, Math.max(this.limits.keepAll ?? TIMELINE_KEEP_ALL, 2 * stored));
  }

  /** Settle what is held; call once, after the last finding. */
  end(): void {
    const rest = this.pending;
    this.pending = [];
    if (rest.length) this.notEventRows(rest);
  }

  /** The sessions of `source`, in order of their first event (lines that are not events last). */
  sessionsOf(source: string): SessionTimeline[] {
    const out: SessionTimeline[] = [];
    for (const s of this.sessionMap.values()) if (s.source === source) out.push(s);
    return out.sort((a, b) => Number(a.notEvents ?? false) - Number(b.notEvents ?? false));
  }

  /** What the timeline knows of `source` as a whole (`undefined`: no event nor finding of it came). */
  inputFacts(source: string): InputTimelineFacts | undefined {
    return this.inputs.get(source);
  }

  /** The kept event at `line` of `source`, if any. */
  eventAt(source: string, line: number): TimelineEvent | undefined {
    return this.byLine.get(key(source, line));
  }

  /** A group's kind and opening line (`undefined` once forgotten). */
  group(n: number): TimelineGroup | undefined {
    return this.groupInfo.get(n);
  }
}
