/**
 * The scope of one AHP event message with a string `source`, `id` and `type`: made once by the stream model and handed
 * to each analyzer, holding what several read (key, row, parent, control print, elicitation body), for that message
 * only.
 */
import { pairKeyUnder, pairSourceWords, type Hash64 } from '../../core/canonical.ts';
import type { Mark } from '../../core/mark.ts';
import { isObj, type Obj } from '../../core/value.ts';
import type { ElicitationBody } from '../elicitation-body.ts';
import type { AhpMessage } from '../message.ts';
import type { ElicitRequestInfo } from './elicitation-facts.ts';
import type { EventRows } from './event-rows.ts';
import { CONTROL_FIELDS, controlDigest, controlPrintInto, EVENT_PTR, fieldPrintOf } from './identity-rows.ts';

const SESSION_FIELD = CONTROL_FIELDS.indexOf('session.id');

/** The scope of one event message (see the module comment); the model keeps one and {@link open}s it a message. */
export class MessageScope {
  msg!: AhpMessage;
  ev!: Obj;
  at!: Mark;
  /** The event's identity key `(source, id)` (identity-rows.ts `eventKey`): a new object a message (records keep it). */
  key!: Hash64;
  /** The key of the parent it names (undefined: no string `parentEventId`). */
  parentKey: Hash64 | undefined = undefined;
  /** Its row (undefined: not held, the budget was full); set by the identity analyzer. */
  slot: number | undefined = undefined;
  /** Whether this is the first occurrence of its `(source, id)` among the rows held; set by the identity analyzer. */
  first = false;
  /**
   * The control-metadata print of the event (identity-rows.ts `controlPrintInto`): fingerprints, mask, digest, made by
   * {@link print} when first asked (a repeat, a parent compared, an input that cannot be read back), not for every event.
   */
  readonly fp = new Uint32Array(CONTROL_FIELDS.length);
  mask = 0;
  digest = 0;
  private printed = false;
  private parentRow: number | undefined = undefined;
  /** {@link EventRows.forgotten} when the parent's row was looked up (-1: not yet): a row forgotten since asks again. */
  private parentAsked = -1;
  private absent: ElicitationBody | undefined = undefined;
  /** The parent elicitation request's verdict, once read (elicitation.ts), with the row it was read from. */
  request: { slot: number; info: ElicitRequestInfo | undefined } | undefined = undefined;
  private words: Uint32Array | undefined = undefined;
  private lastId: string | undefined = undefined;
  private lastKey: Hash64 | undefined = undefined;

  constructor(private readonly rows: EventRows) {}

  /** Make this the scope of `msg`, whose event `ev` has a string `source`, `id` and `type`, at `at`. */
  open(msg: AhpMessage, ev: Obj, at: Mark): this {
    this.msg = msg;
    this.ev = ev;
    this.at = at;
    const source = ev.source as string;
    const words = pairSourceWords(source);
    this.words = words;
    this.key = pairKeyUnder(words, source, ev.id as string);
    const parentId = ev.parentEventId;
    this.parentKey = typeof parentId === 'string' ? pairKeyUnder(words, source, parentId) : undefined;
    this.slot = undefined;
    this.first = false;
    this.printed = false;
    this.parentRow = undefined;
    this.parentAsked = -1;
    this.absent = undefined;
    this.request = undefined;
    this.lastId = undefined;
    this.lastKey = undefined;
    return this;
  }

  /** `pairKey(source, id)` under the event's source; the last one is kept (a call id is keyed by two analyzers). */
  idKey(id: string): Hash64 {
    if (id !== this.lastId || this.lastKey === undefined) {
      this.lastKey = pairKeyUnder(this.words!, this.ev.source as string, id);
      this.lastId = id;
    }
    return this.lastKey;
  }

  /** Make the event's control print ({@link fp}, {@link mask}, {@link digest}) unless made for this message already. */
  print(): this {
    if (!this.printed) {
      this.mask = controlPrintInto(this.ev, this.fp);
      this.digest = controlDigest(this.mask, this.fp);
      this.printed = true;
    }
    return this;
  }

  /** The print of the event's `session.id` (undefined: none), as in its control print, without making the rest. */
  sessionPrint(): number | undefined {
    if (this.printed) return (this.mask >>> SESSION_FIELD) & 1 ? this.fp[SESSION_FIELD] : undefined;
    const session = this.ev.session;
    const id = isObj(session) ? session.id : undefined;
    return id === undefined ? undefined : fieldPrintOf(id);
  }

  /** The row of the parent the event names (undefined: it names none, or none is held), looked up once. */
  parentSlot(): number | undefined {
    const gen = this.rows.forgotten;
    if (this.parentAsked !== gen) {
      this.parentRow = this.parentKey === undefined ? undefined : this.rows.slot(this.parentKey);
      this.parentAsked = gen;
    }
    return this.parentRow;
  }

  /** The elicitation body of the event: the stage's parse, else an `absent` body made once. */
  body(): ElicitationBody {
    const b = this.msg.elicitation;
    if (b !== undefined) return b;
    return (this.absent ??= absentBody(this.ev));
  }
}

/** The body of an elicitation event `ev` whose message holds none parsed (`absent`, at the part it names). */
export function absentBody(ev: Obj): ElicitationBody {
  return {
    status: 'absent',
    partPointer: `${EVENT_PTR}/elicitation/${ev.type === 'user.elicitation.request' ? 'request' : 'result'}`,
  };
}
