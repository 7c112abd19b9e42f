/**
 * The elicitation analyzer (AHP interaction-payloads.md §MCP elicitation binding (2025-11-25)): request/result pairs,
 * answers against the form, advertised modes. A form stays open until an accepted answer is checked, then is kept
 * until the budget needs the room (elicitation-forms.ts); after that a result is "not verifiable", never passed.
 * Requests are held as hashed keys and marks only; what a request's row keeps is in elicitation-rows.ts.
 */
import { pairKey, pairSourceWords, type Hash64 } from '../../core/canonical.ts';
import type { Mark } from '../../core/mark.ts';
import type { StateHolder } from '../../core/state-budget.ts';
import { CompactTable, keyNumber } from '../../core/table.ts';
import { TextMemo } from '../../core/text-memo.ts';
import { isObj, type Obj } from '../../core/value.ts';
import { recentKey, valueWords } from './digest.ts';
import type { ContentFacts, ElicitationFacts, ElicitRequestInfo } from './elicitation-facts.ts';
import { FormStore } from './elicitation-forms.ts';
import { ElicitationModes } from './elicitation-modes.ts';
import { ElicitationRows, sessionPrintOf } from './elicitation-rows.ts';
import { eventKey, type EventIdentity } from './identity.ts';
import type { MessageScope } from './scope.ts';

export type {
  ContentFacts,
  ElicitationFacts,
  ElicitRequestInfo,
  FormVerdict,
  ModeFacts,
  PairFacts,
} from './elicitation-facts.ts';

const REQUEST_BYTES = 160;
/** Most answer texts kept per memo (answers recur), and the longest kept. */
const ANSWER_MEMO = 64;
const ANSWER_TEXT_MAX = 16384;

/** The correlation signature of an elicitation event: session id, server and mode under the source's key words. */
function signature(ev: Obj): number {
  const el = isObj(ev.elicitation) ? ev.elicitation : undefined;
  // strings only (an ill-typed member, already reported by the schema stage, is never part of it), length-prefixed
  return keyNumber(
    pairKey(
      ev.source as string,
      part(isObj(ev.session) ? ev.session.id : undefined) + part(el?.server) + part(el?.mode),
    ),
  );
}

/** `keyNumber(recentKey(source))` from the source's cached key words, without hashing the source again. */
function sourceNumber(source: string): number {
  const w = pairSourceWords(source);
  return keyNumber({ hi: w[1]!, lo: w[0]! });
}

const part = (v: unknown): string => (typeof v === 'string' ? `${v.length}:${v}` : '-');

function remember<V>(m: Map<number, V>, k: number, v: V): void {
  m.delete(k);
  m.set(k, v);
}

/** The elicitation analyzer. */
export class Elicitation implements StateHolder {
  private readonly forms = new FormStore();
  /** The modes the stream advertises (a request's capabilities, the latest manifest). */
  readonly modes = new ElicitationModes();
  private readonly rowsOf: ElicitationRows;
  private lostToBudget = 0;
  /** The answer words ({@link valueWords} of `content`) by the result body text. */
  private readonly answerWords = new TextMemo<[number, number]>(ANSWER_MEMO, ANSWER_TEXT_MAX);
  /** The request whose form the message being observed checked: released once the message is done. */
  private releaseAfter: number | undefined;
  private readonly openRequests = new Map<number, { at: Mark; key: number }>();
  /** Request ids by `recentKey`: the source's key number, and where the request was (budget.ts `EventBudget.pos`). */
  private readonly requestIds = new CompactTable({ u32: 0, f64: 2, load: 2 });

  constructor(private readonly identity: EventIdentity) {
    this.rowsOf = new ElicitationRows(identity);
    identity.rows.onForget((key) => {
      if (!this.forms.empty) this.forms.drop(keyNumber(key));
    });
  }

  /** Forms of requests whose answer was not checked yet (open work). */
  get heldForms(): number {
    return this.forms.openCount;
  }

  /** Forms kept after their answer was checked (the grace window). */
  get recentForms(): number {
    return this.forms.checkedCount;
  }

  /** Estimated bytes held: forms (open and checked) and remembered requests (the memory budget). */
  bytes(): number {
    return this.forms.bytes() + (this.openRequests.size + this.requestIds.size) * REQUEST_BYTES;
  }

  /** Forget the oldest checked form, else the oldest remembered request; open forms are open work and stay. */
  forgetOldest(): boolean {
    if (this.forms.forgetOldestChecked()) return true;
    if (this.requestIds.size >= this.openRequests.size) return this.requestIds.forgetOldest();
    const r = this.openRequests.keys().next();
    if (r.done) return false;
    this.openRequests.delete(r.value);
    return true;
  }

  /** What the elicitation request of row `s` (key `key`) tells its result (undefined: no form verdict recorded). */
  private requestOf(s: number, key: Hash64): ElicitRequestInfo | undefined {
    const form = this.rowsOf.formOf(s);
    if (!form) return undefined;
    const { server, mode } = this.rowsOf.serverMode(s);
    const info: ElicitRequestInfo = { server, mode, form };
    if (form === 'parsed') {
      const held = this.forms.formOf(keyNumber(key));
      if (held !== undefined) info.schema = held.schema;
      else info.released = true;
    }
    return info;
  }

  /** The request the event of `scope` names as parent, with its row (undefined: no elicitation request held). */
  parentRequest(scope: MessageScope): { info: ElicitRequestInfo; slot: number } | undefined {
    const pk = scope.parentKey;
    if (pk === undefined) return undefined;
    const ps = scope.parentSlot();
    if (ps === undefined || !this.identity.isType(ps, 'user.elicitation.request')) return undefined;
    // read once a message: nothing in between changes it (a row forgotten since gives another slot)
    let read = scope.request;
    if (read === undefined || read.slot !== ps) read = scope.request = { slot: ps, info: this.requestOf(ps, pk) };
    return read.info ? { info: read.info, slot: ps } : undefined;
  }

  /** {@link parentRequest} of an event that has no scope (its `id` is no string): looked up from `ev` itself. */
  parentRequestOf(ev: Obj): { info: ElicitRequestInfo; slot: number } | undefined {
    if (typeof ev.source !== 'string' || typeof ev.parentEventId !== 'string') return undefined;
    const pk = eventKey(ev.source, ev.parentEventId);
    const ps = this.identity.rows.slot(pk);
    if (ps === undefined || !this.identity.isType(ps, 'user.elicitation.request')) return undefined;
    const info = this.requestOf(ps, pk);
    return info ? { info, slot: ps } : undefined;
  }

  /** Elicitation facts of the event of `scope` into `facts`; records a request's form verdict. */
  observeEvent(scope: MessageScope, facts: ElicitationFacts): void {
    const { ev, slot: s } = scope;
    const type = ev.type;
    if (type !== 'user.elicitation.request' && type !== 'user.elicitation.result') return;
    const rows = this.rowsOf;
    if (type === 'user.elicitation.request' && s !== undefined) {
      if (scope.first) rows.setSession(s, scope);
      const form = rows.formOf(s);
      if (scope.first || form !== 'parsed') {
        const info = this.requestInfo(scope);
        if (!form || info.form === 'parsed') {
          rows.setRequest(s, info.form, info.server, info.mode);
          if (info.form === 'parsed') {
            const part = isObj(ev.elicitation) ? ev.elicitation.request : undefined;
            this.forms.hold(keyNumber(scope.key), info.schema, isObj(part) ? part.text : undefined);
          }
        }
      }
      if (scope.first) {
        // remembered for results that name no parent, or name it from another source
        const at = this.identity.rows.markAt(s);
        remember(this.openRequests, signature(ev), { at, key: keyNumber(scope.key) });
        const r = this.requestIds;
        const rs = r.put(recentKey(ev.id as string));
        r.setF(rs, 0, sourceNumber(ev.source as string));
        r.setF(rs, 1, this.identity.rows.pos(s));
      }
    }
    if (type === 'user.elicitation.result') this.resultFacts(scope, facts);
    if (!(s !== undefined && rows.isModeReported(s))) {
      const mode = this.modes.factsOf(scope.msg, ev);
      if (mode) {
        facts.mode = mode;
        if (s !== undefined) rows.setModeReported(s);
      }
    }
  }

  /** End of a message: the form whose answer it checked is released (an intercept of that answer still saw it). */
  endMessage(): void {
    if (this.releaseAfter === undefined) return;
    this.forms.check(this.releaseAfter);
    this.releaseAfter = undefined;
  }

  private requestInfo(scope: MessageScope): ElicitRequestInfo {
    const ev = scope.ev;
    const el = isObj(ev.elicitation) ? ev.elicitation : {};
    const server = el.server;
    const mode = el.mode;
    if (mode === 'url') return { server, mode, form: 'url' };
    const body = scope.body();
    if (body.status !== 'parsed') return { server, mode, form: body.status };
    if (body.value.mode === 'url') return { server, mode, form: 'url' };
    return { server, mode, form: 'parsed', schema: body.value.requestedSchema };
  }

  /** Pairing (first occurrence) and answer facts of the user.elicitation.result of `scope`. */
  private resultFacts(scope: MessageScope, facts: ElicitationFacts): void {
    const { ev, slot: s } = scope;
    const rows = this.identity.rows;
    const parentId = typeof ev.parentEventId === 'string' ? ev.parentEventId : undefined;
    const ps = scope.parentSlot();
    if (scope.first) {
      if (parentId === undefined) {
        facts.pair = { parent: 'absent' };
        const open = this.openRequests.get(signature(ev));
        if (open) facts.pair.candidate = open.at;
      } else if (ps === undefined) {
        facts.pair = { parent: 'unknown' };
        const r = this.requestIds;
        const o = r.slot(recentKey(parentId));
        if (o !== undefined && r.getF(o, 0) !== sourceNumber(ev.source as string))
          facts.pair.otherSource = rows.budget.markAt(r.getF(o, 1));
      } else if (!this.identity.isType(ps, 'user.elicitation.request'))
        facts.pair = { parent: 'not-request', parentType: this.identity.typeName(ps), parentAt: rows.markAt(ps) };
      else {
        const request = this.parentRequest(scope)?.info;
        facts.pair = { parent: 'request', parentAt: rows.markAt(ps) };
        if (request) facts.pair.request = request;
        const mine = sessionPrintOf(scope);
        const theirs = this.rowsOf.sessionPrint(ps);
        if (theirs !== undefined && mine !== theirs)
          facts.pair.sessionMismatch = mine === undefined ? 'absent' : 'other';
        // one elicitation/create has one ElicitResult (MCP 2025-11-25 elicitation): a second, different one contradicts it
        const body = scope.body();
        const words = body.status === 'parsed' ? valueWords(body.value) : undefined;
        const el = isObj(ev.elicitation) ? ev.elicitation : {};
        const first = this.rowsOf.otherAnswer(ps, { body: words, action: el.action, at: scope.at });
        if (first) facts.pair.answered = first;
        // the request is answered: a later result without a parent is not taken for its answer
        const sig = signature(ev);
        if (this.openRequests.get(sig)?.key === keyNumber(scope.parentKey!)) this.openRequests.delete(sig);
      }
    }
    const el = isObj(ev.elicitation) ? ev.elicitation : {};
    if (el.mode !== 'form' || el.action !== 'accept') return;
    const body = scope.body();
    if (body.status !== 'parsed') return;
    // no `content` answers no field: judged as the empty answer, so required fields fail either way
    const absent = !Object.hasOwn(body.value, 'content');
    if (!absent && !isObj(body.value.content)) return;
    const content = absent ? {} : (body.value.content as Obj);
    const part = isObj(ev.elicitation) ? ev.elicitation.result : undefined;
    const cd = this.answerWords.of(isObj(part) ? part.text : undefined, () => valueWords(content));
    if (s !== undefined) {
      if (this.rowsOf.answerCheckedIs(s, cd)) return;
      this.rowsOf.setAnswerChecked(s, cd);
    }
    const out: ContentFacts = {
      partPointer: body.partPointer,
      status: 'checked',
      problems: [],
      ...(absent ? { absent } : {}),
    };
    const req = this.parentRequest(scope)?.info;
    if (!req) out.status = 'no-request';
    else {
      out.request = rows.markAt(ps!);
      if (req.form === 'url') return; // a form answer to a URL request: ahp/elicitation-result-mode says so
      if (req.form === 'view') out.status = 'request-view';
      else if (req.form === 'invalid') out.status = 'request-invalid';
      else if (req.form === 'absent') out.status = 'request-absent';
      else if (req.released) {
        out.status = 'request-released';
        out.lost = ++this.lostToBudget;
      } else {
        out.problems = this.forms.answerProblems(content, req.schema, isObj(part) ? part.text : undefined);
        // released once this message is done, so an intercept of this answer still sees the form
        this.releaseAfter = keyNumber(scope.parentKey!);
      }
    }
    facts.content = out;
  }
}
