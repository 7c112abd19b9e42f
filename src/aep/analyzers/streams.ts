/**
 * The AEP-0007 stream analyzer (only under `--profile aep-0007`: other events reach it only as `tool.requested`): one
 * record per open stream `(source, session, subject)`, holding its `stream.started` id, its kind, and a bounded tail of
 * its delta text at capture `redacted`, so a secret split across two deltas is found (AEP-0007 §6) without keeping
 * whole streams. A finished `message` or `tool_args` stream stays until the fact it owes arrives (AEP-0007 §5.2, §5.4).
 */
import type { Mark } from '../../core/mark.ts';
import {
  findSecrets,
  FLOOR_SECRET_CLASSES,
  hostColonAt,
  type PiiClass,
  type SecretClass,
  type SecretMatch,
} from '../../core/secrets.ts';
import type { StateHolder } from '../../core/state-budget.ts';
import { isObj } from '../../core/value.ts';
import { attr, type AepEvent } from '../event.ts';
import { homePathRanges } from '../redact.ts';
import { MESSAGE_TYPES } from '../subprofile.ts';
import type { AepCapLog } from './budget.ts';

/**
 * Characters of delta text kept per stream: a secret longer than this, split across deltas, is not seen (README
 * §AEP-0007). Every AEP-0003 §9.4 floor pattern but a PEM block fits.
 */
export const DELTA_TAIL = 1024;

/** One stream being produced, or finished and owing its fact. */
export interface StreamRecord {
  subject: string;
  /** `stream.started`'s `id` and mark, when the input holds it. */
  startedId?: string;
  started?: Mark;
  kind?: string;
  /** The last {@link DELTA_TAIL} characters of the concatenated delta text at capture `redacted`. */
  tail: string;
  /** Where the tail's text starts (the first delta that contributed to it), for the finding's related location. */
  tailFrom?: Mark;
  finishedId?: string;
  finished?: Mark;
  reason?: string;
}

/** What the stream analyzer found about one event. */
export interface StreamFacts {
  /** A `stream.delta` whose text completes a floor secret with the text of the deltas before it. */
  splitLeak?: { classes: SecretClass[]; from: Mark };
  /** A `stream.delta` whose text completes a home directory path (§9.4 c) with the text of the deltas before it. */
  splitHome?: Mark;
  /** A `stream.delta` whose text completes an email address or phone number (§9.4 d) with the deltas before it. */
  splitPii?: { classes: PiiClass[]; from: Mark };
  /** A `stream.finished` whose `cause` is not its `stream.started` id (`expected` when the start is in the input). */
  finishedCause?: { expected?: string; started?: Mark };
  /** A `message.*` produced by a finished stream of the same subject whose `cause` is not that `stream.finished`. */
  messageCause?: { finished: Mark };
}

const key = (source: string, session: string, subject: string): string => `${source}\0${session}\0${subject}`;

const floorSecrets = (s: string): SecretMatch[] => findSecrets(s, { classes: FLOOR_SECRET_CLASSES });
const PII_CLASSES: readonly PiiClass[] = ['email', 'phone'];
/** Emails and phone numbers as aep/redaction-leak-pii reads them: `user@host:port` is a host, not a mailbox. */
const piiMatches = (s: string): SecretMatch[] =>
  findSecrets(s, { classes: PII_CLASSES }).filter((m) => m.class !== 'email' || !hostColonAt(s, m.end));

/** The matches of `find` over `tail + text` ending in `text` that `text` alone does not show (the per-event rules'). */
function across<T extends { start: number; end: number; class?: string }>(
  tail: string,
  text: string,
  find: (s: string) => readonly T[],
): T[] {
  const joined = find(tail + text);
  if (joined.length === 0) return [];
  const alone = find(text);
  const n = tail.length;
  return joined.filter(
    (m) => m.end > n && !alone.some((a) => a.class === m.class && a.start === m.start - n && a.end === m.end - n),
  );
}

/** Estimated bytes of one stream record besides its tail, for the memory budget: measured 466, docs/benchmarks.md. */
const RECORD_BYTES = 480;

/** The AEP-0007 streams of one run; over the memory budget it forgets finished streams first, then tails. */
export class StreamAnalyzer implements StateHolder {
  private readonly streams = new Map<string, StreamRecord>();
  /** Characters held in all tails. */
  private tailChars = 0;
  /** `stream.finished` ids of the records still owing a fact, to their keys (a message.* may name it in `cause`). */
  private readonly byFinished = new Map<string, string>();

  constructor(
    private readonly max: number,
    private readonly caps: AepCapLog,
  ) {}

  /** Streams held now (tests). */
  get size(): number {
    return this.streams.size;
  }

  /** Estimated bytes held (records and tails). */
  bytes(): number {
    return this.streams.size * RECORD_BYTES + this.tailChars * 2;
  }

  /** Forget the oldest finished stream (its missing fact goes unreported), else the oldest tail (a split goes unseen). */
  forgetOldest(): boolean {
    for (const [k, r] of this.streams)
      if (r.finished !== undefined) {
        this.drop(k, r);
        return true;
      }
    for (const r of this.streams.values())
      if (r.tail !== '') {
        this.setTail(r, '');
        r.tailFrom = undefined;
        return true;
      }
    return false;
  }

  private setTail(r: StreamRecord, tail: string): void {
    this.tailChars += tail.length - r.tail.length;
    r.tail = tail;
  }

  /** Finished `message` and `tool_args` streams whose fact never came, in input order (end of input). */
  *owing(): Iterable<StreamRecord> {
    for (const r of this.streams.values()) if (r.finished !== undefined) yield r;
  }

  observe(ev: AepEvent, facts: StreamFacts & { at: Mark }): void {
    const type = ev.type;
    const source = attr(ev, 'source')!;
    const session = attr(ev, 'session');
    if (session === undefined) return;
    const u = ev.untrusted;
    if (u && (u.has('type') || u.has('subject') || u.has('cause') || u.has('data'))) {
      // its type, links or payload failed the schema stage: it may have been the fact a finished stream of its session
      // owes, so none is owed any more (README §Decisions on a partly broken envelope)
      const prefix = `${source}\0${session}\0`;
      for (const [k, r] of this.streams) if (r.finished !== undefined && k.startsWith(prefix)) this.drop(k, r);
    }
    if (type === 'tool.requested') {
      if (this.streams.size === 0) return;
      const tool = isObj(ev.value.data) ? ev.value.data.tool : undefined;
      const call = isObj(tool) ? tool.call_id : undefined;
      if (typeof call === 'string') this.settle(key(source, session, call), 'tool_args');
      return;
    }
    if (!ev.subprofile) return;
    const subject = attr(ev, 'subject');
    if (MESSAGE_TYPES.has(type)) {
      this.message(ev, source, session, subject, facts);
      return;
    }
    if (subject === undefined) return; // aep/stream-subject
    const k = key(source, session, subject);
    let r = this.streams.get(k);
    if (type === 'stream.started') {
      if (r?.finished !== undefined) this.drop(k, r); // a new production under a reused id
      r = this.streams.get(k);
      if (!r && !(r = this.open(k, subject, facts))) return;
      r.startedId = attr(ev, 'id');
      r.started = facts.at;
      const kind = isObj(ev.value.data) ? ev.value.data.kind : undefined;
      if (typeof kind === 'string') r.kind = kind;
      return;
    }
    if (type === 'stream.delta') {
      if (!r && !(r = this.open(k, subject, facts))) return;
      this.delta(ev, r, facts);
      return;
    }
    if (type !== 'stream.finished') return;
    const cause = attr(ev, 'cause');
    if (r?.startedId !== undefined) {
      if (cause !== r.startedId) facts.finishedCause = { expected: r.startedId, started: r.started! };
    } else if (cause === undefined) facts.finishedCause = {};
    if (!r) return;
    const reason = isObj(ev.value.data) ? ev.value.data.reason : undefined;
    r.reason = typeof reason === 'string' ? reason : 'completed';
    this.setTail(r, '');
    // only a completed message or tool_args stream owes a fact (AEP-0007 §5.2, §5.4)
    if (r.reason !== 'completed' || (r.kind !== 'message' && r.kind !== 'tool_args')) {
      this.drop(k, r);
      return;
    }
    r.finished = facts.at;
    const id = attr(ev, 'id')!;
    r.finishedId = id;
    this.byFinished.set(id, k);
  }

  /** A record for a new stream, or `undefined` when `max` streams are held (noted once as `maxOpen`). */
  private open(k: string, subject: string, facts: { at: Mark }): StreamRecord | undefined {
    if (this.streams.size >= this.max) {
      this.caps.note('maxOpen', this.max, () => facts.at);
      return undefined;
    }
    const r: StreamRecord = { subject, tail: '' };
    this.streams.set(k, r);
    return r;
  }

  private drop(k: string, r: StreamRecord): void {
    this.setTail(r, '');
    this.streams.delete(k);
    if (r.finishedId !== undefined) this.byFinished.delete(r.finishedId);
  }

  /** A finished stream of `kind` under `k` got its fact. */
  private settle(k: string, kind: string): void {
    const r = this.streams.get(k);
    if (r?.finished !== undefined && r.kind === kind) this.drop(k, r);
  }

  /** A delta: its text scanned with the stream's tail for floor secrets that need both (AEP-0007 §6). */
  private delta(ev: AepEvent, r: StreamRecord, facts: StreamFacts & { at: Mark }): void {
    const text = isObj(ev.value.data) ? ev.value.data.text : undefined;
    // only redacted text claims to have passed the pipeline; a full or absent text breaks the window
    if (ev.capture !== 'redacted' || typeof text !== 'string') {
      this.setTail(r, '');
      r.tailFrom = undefined;
      return;
    }
    const tail = r.tail;
    if (tail !== '') {
      const from = r.tailFrom ?? facts.at;
      const classes: SecretClass[] = [];
      for (const m of across(tail, text, floorSecrets))
        if (!classes.includes(m.class as SecretClass)) classes.push(m.class as SecretClass);
      if (classes.length) facts.splitLeak = { classes, from };
      if (across(tail, text, homePathRanges).length) facts.splitHome = from;
      // an email holds "@" (or an escaped one, `%40`) and a phone number ends in a digit: without any no new match can
      // end in this delta
      if (text.includes('@') || tail.includes('@') || /\d/.test(text) || text.includes('%') || tail.includes('%')) {
        const pii: PiiClass[] = [];
        for (const m of across(tail, text, piiMatches))
          if (!pii.includes(m.class as PiiClass)) pii.push(m.class as PiiClass);
        if (pii.length) facts.splitPii = { classes: pii, from };
      }
    }
    const joined = tail + text;
    if (joined.length > DELTA_TAIL) {
      this.setTail(r, joined.slice(joined.length - DELTA_TAIL));
      if (text.length >= DELTA_TAIL) r.tailFrom = facts.at;
    } else this.setTail(r, joined);
    r.tailFrom ??= facts.at;
  }

  /** A `message.*`: the fact of the finished stream it names in `cause`, or of the one with its subject (AG-UI). */
  private message(
    ev: AepEvent,
    source: string,
    session: string,
    subject: string | undefined,
    facts: StreamFacts & { at: Mark },
  ): void {
    const cause = attr(ev, 'cause');
    const byCause = cause === undefined ? undefined : this.byFinished.get(cause);
    if (byCause?.startsWith(`${source}\0${session}\0`)) {
      this.settle(byCause, 'message');
      return;
    }
    if (subject === undefined) return;
    const k = key(source, session, subject);
    const r = this.streams.get(k);
    if (r?.finished === undefined || r.kind !== 'message') return;
    if (cause !== r.finishedId) facts.messageCause = { finished: r.finished };
    this.settle(k, 'message');
  }
}
