/**
 * The elicitation analyzer (AHP interaction-payloads.md §MCP elicitation binding (2025-11-25)): request/result pairs,
 * answers against the form, advertised modes. A form stays open until an accepted answer is checked, then is kept
 * until the budget needs the room; after that a result is "not verifiable", never passed. Requests are held as hashed
 * keys and marks only.
 */
import type { Mark } from '../../core/mark.ts';
import type { ElicitationBody } from '../elicitation-body.ts';
import { formAnswerProblems, type AnswerProblem } from './form-answer.ts';
import type { AhpMessage } from '../message.ts';
import { pairKey, pairSourceWords, type Hash64 } from '../../core/canonical.ts';
import { CompactTable, keyNumber } from '../../core/table.ts';
import { recentKey, valueWords } from './digest.ts';
import { TextMemo } from '../../core/text-memo.ts';
import { EVENT_PTR, type EventIdentity, type FormVerdict } from './identity.ts';
import { isObj, type Obj } from '../../core/value.ts';

const FORM_OVERHEAD = 96;
const REQUEST_BYTES = 160;
const FORM_SIZE_MEMO = 64;
const FORM_TEXT_MAX = 16384;
/** Most distinct checked-form texts (of at most 4096 characters) shared between requests: forms recur. */
const MAX_FORM_TEXTS = 1024;

/** Estimated bytes of a `requestedSchema` of JSON text `json` ('' for none): the text as UTF-16, plus the overhead of a map entry. */
function formBytes(json: string): number {
  return 2 * json.length + FORM_OVERHEAD;
}

/**
 * The correlation signature of an elicitation event (its `source` a string): the session id, server and mode hashed
 * under the source's key words (pairKey, whose words are cached by source).
 */
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

/**
 * `keyNumber(recentKey(source))` from the source's cached key words (pairSourceWords: words 0 and 1 are its SipHash,
 * the very words of `recentKey`), without hashing the source again.
 */
function sourceNumber(source: string): number {
  const w = pairSourceWords(source);
  return keyNumber({ hi: w[1]!, lo: w[0]! });
}

const part = (v: unknown): string => (typeof v === 'string' ? `${v.length}:${v}` : '-');

function remember<V>(m: Map<number, V>, k: number, v: V): void {
  m.delete(k);
  m.set(k, v);
}

/** What an elicitation request event tells its result. */
export interface ElicitRequestInfo {
  server: unknown;
  mode: unknown;
  /** The form behind it: `parsed` (`schema` holds `requestedSchema`), `url` (none), `view`, `invalid` or `absent`. */
  form: FormVerdict;
  /** `requestedSchema` of a `parsed` form while still held (released once a result's answer was checked). */
  schema?: unknown;
  released?: boolean;
}

/** The elicitation request a result answers (first occurrence of the result). */
export interface PairFacts {
  /** `unknown`: the parent was not seen (yet); `not-request`: it is another event type. */
  parent: 'absent' | 'unknown' | 'not-request' | 'request';
  parentType?: string;
  parentAt?: Mark;
  request?: ElicitRequestInfo;
  /** `absent`: the one earlier open request of the same source, session, server and mode. */
  candidate?: Mark;
  sessionMismatch?: 'other' | 'absent';
  /** `unknown`: an earlier user.elicitation.request with the parent's id from another source. */
  otherSource?: Mark;
}

/** The answer of an accepted form result checked against the request's form. */
export interface ContentFacts {
  partPointer: string;
  /** `checked`: `problems` lists what fails; otherwise why the answer cannot be verified. */
  status: 'checked' | 'no-request' | 'request-view' | 'request-invalid' | 'request-absent' | 'request-released';
  problems: AnswerProblem[];
  request?: Mark;
  /** The accepted result carries no `content` member (judged as the empty answer). */
  absent?: boolean;
  /** `request-released`: results the memory budget left unverified so far, this one included. */
  lost?: number;
}

/** An elicitation event whose mode is not among the advertised ones. */
export interface ModeFacts {
  mode: string;
  advertised: string[];
  by: 'request' | 'manifest';
  at?: Mark;
}

/** Elicitation facts of an event. */
export interface ElicitationFacts {
  pair?: PairFacts;
  /** user.elicitation.result with an accepted form answer not checked before. */
  content?: ContentFacts;
  mode?: ModeFacts;
}

/** The modes a `capabilities.elicitation` object grants (`form` / `url` members that are objects). */
function grantedModes(el: unknown): string[] | undefined {
  if (!isObj(el)) return undefined;
  return ['form', 'url'].filter((m) => isObj(el[m]));
}

/** The elicitation analyzer. */
export class Elicitation {
  /** Open forms by request key number: `requestedSchema` and its JSON text ('' for none), kept for its release. */
  private readonly openForms = new Map<number, { schema: unknown; json: string }>();
  /** Checked forms as JSON text (a parsed form is ~2x its text), the same texts shared through {@link formTexts}. */
  private readonly checkedSchemas = new Map<number, string | undefined>();
  private readonly formTexts = new Map<string, string>();
  private lostToBudget = 0;
  /**
   * {@link formBytes} of every form held, open or checked: a form's JSON text is the same length open and checked, so
   * each adds and takes away its own text's figure.
   */
  private formBytes = 0;
  /** `JSON.stringify` of a parsed form ('' for none) by its request body text. */
  private readonly formJsons = new TextMemo<string>(FORM_SIZE_MEMO, FORM_TEXT_MAX);
  /** The answer words ({@link valueWords} of `content`) by the result body text. */
  private readonly answerWords = new TextMemo<[number, number]>(FORM_SIZE_MEMO, FORM_TEXT_MAX);
  /** Answer texts found clean, by the form object they were checked against. */
  private readonly cleanAnswers = new WeakMap<Obj, Set<string>>();
  private releaseAfter: number | undefined;
  private manifestModes = new Map<string, { modes: string[]; at: Mark }>();
  private readonly openRequests = new Map<number, { at: Mark; key: number }>();
  /** Request ids by `recentKey`: the source's key number, and where the request was (budget.ts `EventBudget.pos`). */
  private readonly requestIds = new CompactTable({ u32: 0, f64: 2, load: 2 });
  /** The `absent` body made for the message `absentFor` (a message without a parsed body: made once a message). */
  private absentFor: AhpMessage | undefined;
  private absentBody: ElicitationBody | undefined;
  /** The parent request verdict read for the result `readFor` being observed (row `readSlot`), for its host context. */
  private readFor: Obj | undefined;
  private readSlot = -1;
  private readInfo: ElicitRequestInfo | undefined;

  constructor(private readonly identity: EventIdentity) {}

  /** Forms of requests whose answer was not checked yet (open work). */
  get heldForms(): number {
    return this.openForms.size;
  }

  /** Forms kept after their answer was checked (the grace window). */
  get recentForms(): number {
    return this.checkedSchemas.size;
  }

  forget(key: Hash64): void {
    if (this.openForms.size === 0 && this.checkedSchemas.size === 0) return;
    this.dropForm(keyNumber(key));
  }

  /** Forget the form of request key number `n`, open or checked. */
  private dropForm(n: number): void {
    // the checked form first: while the open one is held, the two count once, as the open one
    this.dropChecked(n);
    const open = this.openForms.get(n);
    if (open !== undefined) {
      this.openForms.delete(n);
      this.formBytes -= formBytes(open.json);
    }
  }

  /** Forget the checked form of `n`; its figure leaves formBytes unless its open form (counted alone) is still held. */
  private dropChecked(n: number): void {
    if (!this.checkedSchemas.has(n)) return;
    const text = this.checkedSchemas.get(n);
    this.checkedSchemas.delete(n);
    if (!this.openForms.has(n)) this.formBytes -= formBytes(text ?? '');
  }

  /** Estimated bytes held: forms (open and checked) and remembered requests (the memory budget). */
  bytes(): number {
    return this.formBytes + (this.openRequests.size + this.requestIds.size) * REQUEST_BYTES;
  }

  /** Forget the oldest checked form, else the oldest remembered request; open forms are open work and stay. */
  forgetOldest(): boolean {
    const k = this.checkedSchemas.keys().next();
    if (!k.done) {
      this.dropChecked(k.value);
      return true;
    }
    if (this.requestIds.size >= this.openRequests.size) return this.requestIds.forgetOldest();
    const r = this.openRequests.keys().next();
    if (r.done) return false;
    this.openRequests.delete(r.value);
    return true;
  }

  /** The elicitation body of `msg`'s event `ev`, parsed once per message. */
  bodyOf(msg: AhpMessage, ev: Obj): ElicitationBody {
    if (msg.elicitation !== undefined) return msg.elicitation;
    if (this.absentFor !== msg) {
      this.absentFor = msg;
      this.absentBody = {
        status: 'absent',
        partPointer: `${EVENT_PTR}/elicitation/${ev.type === 'user.elicitation.request' ? 'request' : 'result'}`,
      };
    }
    return this.absentBody!;
  }

  /** What the elicitation request of row `s` (key `key`) tells its result (undefined: no form verdict recorded). */
  requestOf(s: number, key: Hash64): ElicitRequestInfo | undefined {
    const form = this.identity.formOf(s);
    if (!form) return undefined;
    const { server, mode } = this.identity.elicitServerMode(s);
    const info: ElicitRequestInfo = { server, mode, form };
    if (form === 'parsed') {
      const n = keyNumber(key);
      const open = this.openForms.get(n);
      if (open !== undefined) info.schema = open.schema;
      else if (this.checkedSchemas.has(n)) {
        const text = this.checkedSchemas.get(n);
        info.schema = text === undefined ? undefined : JSON.parse(text);
      } else info.released = true;
    }
    return info;
  }

  /** The parsed-form request `ev` (an elicitation result) names as parent, with its row. */
  parentRequest(ev: Obj): { info: ElicitRequestInfo; slot: number } | undefined {
    const pk = this.identity.parentKeyOf(ev);
    if (pk === undefined) return undefined;
    const ps = this.identity.parentSlotOf(ev);
    if (ps === undefined || !this.identity.isType(ps, 'user.elicitation.request')) return undefined;
    // the result being observed read it already (nothing in between changes it; endMessage ends the message)
    const info = ev === this.readFor && ps === this.readSlot ? this.readInfo : this.requestOf(ps, pk);
    return info ? { info, slot: ps } : undefined;
  }

  /** Elicitation facts of `ev` of `msg` into `facts`; records a request's form verdict. */
  observeEvent(
    msg: AhpMessage,
    ev: Obj,
    key: Hash64,
    s: number | undefined,
    first: boolean,
    facts: ElicitationFacts,
  ): void {
    const type = ev.type;
    if (type !== 'user.elicitation.request' && type !== 'user.elicitation.result') return;
    const id = this.identity;
    if (type === 'user.elicitation.request' && s !== undefined) {
      const form = id.formOf(s);
      if (first || form !== 'parsed') {
        const info = this.requestInfo(msg, ev);
        if (!form || info.form === 'parsed') {
          id.setElicitRequest(s, info.form, info.server, info.mode);
          if (info.form === 'parsed') {
            const n = keyNumber(key);
            const part = isObj(ev.elicitation) ? ev.elicitation.request : undefined;
            const json = this.formJsons.of(
              isObj(part) ? part.text : undefined,
              () => JSON.stringify(info.schema) ?? '',
            );
            // a row records its parsed form once (its verdict stays `parsed`, and a forgotten row's form went with it),
            // so no form is held for `n` here: only the open forms are asked, a small map
            const prior = this.openForms.get(n);
            if (prior !== undefined) this.formBytes -= formBytes(prior.json);
            this.openForms.set(n, { schema: info.schema, json });
            this.formBytes += formBytes(json);
          }
        }
      }
      if (first) {
        // remembered for results that name no parent, or name it from another source
        const at = id.markAt(s);
        remember(this.openRequests, signature(ev), { at, key: keyNumber(key) });
        const r = this.requestIds;
        const rs = r.put(recentKey(ev.id as string));
        r.setF(rs, 0, sourceNumber(ev.source as string));
        r.setF(rs, 1, id.budget.pos(at));
      }
    }
    if (type === 'user.elicitation.result') this.resultFacts(msg, ev, s, first, facts);
    if (!(s !== undefined && id.modeReported(s))) {
      const mode = this.modeFacts(msg, ev);
      if (mode) {
        facts.mode = mode;
        if (s !== undefined) id.setModeReported(s);
      }
    }
  }

  /** Remember the elicitation modes a capabilities manifest advertises (the latest manifest wins). */
  readManifest(manifest: Obj, at: Mark): void {
    if (!Array.isArray(manifest.events)) return;
    const modes = new Map<string, { modes: string[]; at: Mark }>();
    for (const e of manifest.events) {
      if (!isObj(e) || (e.event !== 'user.elicitation.request' && e.event !== 'user.elicitation.result')) continue;
      const granted = isObj(e.capabilities) ? grantedModes(e.capabilities.elicitation) : undefined;
      if (granted) modes.set(e.event, { modes: granted, at });
    }
    this.manifestModes = modes;
  }

  /** End of a message: release the form whose answer it checked; forget the parsed body. */
  endMessage(): void {
    const k = this.releaseAfter;
    const open = k === undefined ? undefined : this.openForms.get(k);
    if (open !== undefined) {
      // JSON text '' is a form JSON cannot write (undefined): kept as undefined, the same figure in formBytes
      const text = open.json === '' ? undefined : open.json;
      const shared = text === undefined ? undefined : this.formTexts.get(text);
      if (text !== undefined && shared === undefined && text.length <= 4096 && this.formTexts.size < MAX_FORM_TEXTS)
        this.formTexts.set(text, text);
      this.checkedSchemas.set(k!, shared ?? text);
      this.openForms.delete(k!);
    }
    this.releaseAfter = undefined;
    this.absentFor = undefined;
    this.absentBody = undefined;
    this.readFor = undefined;
    this.readInfo = undefined;
  }

  private requestInfo(msg: AhpMessage, ev: Obj): ElicitRequestInfo {
    const el = isObj(ev.elicitation) ? ev.elicitation : {};
    const server = el.server;
    const mode = el.mode;
    if (mode === 'url') return { server, mode, form: 'url' };
    const body = this.bodyOf(msg, ev);
    if (body.status !== 'parsed') return { server, mode, form: body.status };
    if (body.value.mode === 'url') return { server, mode, form: 'url' };
    return { server, mode, form: 'parsed', schema: body.value.requestedSchema };
  }

  /** Pairing (first occurrence) and answer facts of the user.elicitation.result being observed (`s`: its row). */
  private resultFacts(msg: AhpMessage, ev: Obj, s: number | undefined, first: boolean, facts: ElicitationFacts): void {
    const id = this.identity;
    const source = ev.source as string;
    const parentId = typeof ev.parentEventId === 'string' ? ev.parentEventId : undefined;
    const pk = id.parentKeyOf(ev);
    const ps = id.parentSlotOf(ev);
    const isRequest = ps !== undefined && id.isType(ps, 'user.elicitation.request');
    // the parent request's place and verdict, read once for the pair and the answer (nothing between changes them)
    let requestAt: Mark | undefined;
    let request: ElicitRequestInfo | undefined;
    if (first) {
      if (parentId === undefined) {
        facts.pair = { parent: 'absent' };
        const open = this.openRequests.get(signature(ev));
        if (open) facts.pair.candidate = open.at;
      } else if (ps === undefined) {
        facts.pair = { parent: 'unknown' };
        const r = this.requestIds;
        const o = r.slot(recentKey(parentId));
        if (o !== undefined && r.getF(o, 0) !== sourceNumber(source))
          facts.pair.otherSource = id.budget.markAt(r.getF(o, 1));
      } else if (!isRequest)
        facts.pair = { parent: 'not-request', parentType: id.typeName(ps), parentAt: id.markAt(ps) };
      else {
        requestAt = id.markAt(ps);
        request = this.read(ev, ps, pk!);
        facts.pair = { parent: 'request', parentAt: requestAt };
        if (request) facts.pair.request = request;
        const mine = id.currentSessionPrint;
        const theirs = id.sessionPrint(ps);
        if (theirs !== undefined && mine !== theirs)
          facts.pair.sessionMismatch = mine === undefined ? 'absent' : 'other';
        // the request is answered: a later result without a parent is not taken for its answer
        const sig = signature(ev);
        if (this.openRequests.get(sig)?.key === keyNumber(pk!)) this.openRequests.delete(sig);
      }
    }
    const el = isObj(ev.elicitation) ? ev.elicitation : {};
    if (el.mode !== 'form' || el.action !== 'accept') return;
    const body = this.bodyOf(msg, ev);
    if (body.status !== 'parsed') return;
    // no `content` answers no field: judged as the empty answer, so required fields fail either way
    const absent = !Object.hasOwn(body.value, 'content');
    if (!absent && !isObj(body.value.content)) return;
    const content = absent ? {} : (body.value.content as Obj);
    const part = isObj(ev.elicitation) ? ev.elicitation.result : undefined;
    const cd = this.answerWords.of(isObj(part) ? part.text : undefined, () => valueWords(content));
    if (s !== undefined) {
      if (id.answerCheckedIs(s, cd)) return;
      id.setAnswerChecked(s, cd);
    }
    const out: ContentFacts = {
      partPointer: body.partPointer,
      status: 'checked',
      problems: [],
      ...(absent ? { absent } : {}),
    };
    const req = isRequest ? (requestAt !== undefined ? request : this.read(ev, ps!, pk!)) : undefined;
    if (!req) out.status = 'no-request';
    else {
      out.request = requestAt ?? id.markAt(ps!);
      if (req.form === 'url') return; // a form answer to a URL request: ahp/elicitation-result-mode says so
      if (req.form === 'view') out.status = 'request-view';
      else if (req.form === 'invalid') out.status = 'request-invalid';
      else if (req.form === 'absent') out.status = 'request-absent';
      else if (req.released) {
        out.status = 'request-released';
        out.lost = ++this.lostToBudget;
      } else {
        out.problems = this.answerProblems(content, req.schema, isObj(part) ? part.text : undefined);
        // released once this message is done, so an intercept of this answer still sees the form
        this.releaseAfter = keyNumber(pk!);
      }
    }
    facts.content = out;
  }

  /** {@link requestOf} of the parent row `ps` (key `pk`) of the result `ev` being observed, kept for the message. */
  private read(ev: Obj, ps: number, pk: Hash64): ElicitRequestInfo | undefined {
    this.readFor = ev;
    this.readSlot = ps;
    return (this.readInfo = this.requestOf(ps, pk));
  }

  /**
   * {@link formAnswerProblems} of `content` (parsed from the result body `text`) against `schema`; an answer text found
   * clean against a form object is clean again (forms and answers repeat; the parsed bodies are never mutated).
   */
  private answerProblems(content: Obj, schema: unknown, text: unknown): AnswerProblem[] {
    const clean =
      isObj(schema) && typeof text === 'string' && text.length <= FORM_TEXT_MAX
        ? this.cleanAnswers.get(schema)
        : undefined;
    if (clean?.has(text as string)) return [];
    const out = formAnswerProblems(content, schema);
    if (out.length === 0 && isObj(schema) && typeof text === 'string' && text.length <= FORM_TEXT_MAX) {
      let set = clean ?? this.cleanAnswers.get(schema);
      if (set === undefined) this.cleanAnswers.set(schema, (set = new Set()));
      if (set.size >= FORM_SIZE_MEMO) set.clear();
      set.add(text);
    }
    return out;
  }

  /** An elicitation event whose mode the stream's advertisement does not grant. */
  private modeFacts(msg: AhpMessage, ev: Obj): ModeFacts | undefined {
    const el = isObj(ev.elicitation) ? ev.elicitation : undefined;
    const mode = el && typeof el.mode === 'string' ? el.mode : undefined;
    if (mode === undefined) return undefined;
    if (msg.kind === 'intercept-request') {
      const caps = isObj(msg.value.params) ? (msg.value.params as Obj).capabilities : undefined;
      const granted = isObj(caps) ? grantedModes(caps.elicitation) : undefined;
      if (granted && !granted.includes(mode)) return { mode, advertised: granted, by: 'request' };
    }
    const m = this.manifestModes.get(ev.type as string);
    if (m && !m.modes.includes(mode)) return { mode, advertised: m.modes, by: 'manifest', at: m.at };
    return undefined;
  }
}
