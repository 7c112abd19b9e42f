/**
 * The forms of the elicitation analyzer, by request key number: open until an accepted answer is checked against one,
 * then kept as JSON text (a parsed form is about twice its text; texts that recur shared) until the memory budget
 * needs the room. Every form held counts {@link formBytes} of its text.
 */
import { TextMemo } from '../../core/text-memo.ts';
import { isObj, type Obj } from '../../core/value.ts';
import { formAnswerProblems, type AnswerProblem } from './form-answer.ts';

const FORM_OVERHEAD = 96;
/** Most request body texts whose form's JSON text is kept, and answer texts kept clean per form (they recur); the longest kept. */
const FORM_JSON_MEMO = 64;
const FORM_TEXT_MAX = 16384;
/** Most distinct checked-form texts (of at most 4096 characters) shared between requests: forms recur. */
const MAX_FORM_TEXTS = 1024;

/** Estimated bytes of a `requestedSchema` of JSON text `json` ('' for none): the text as UTF-16, plus a map entry. */
function formBytes(json: string): number {
  return 2 * json.length + FORM_OVERHEAD;
}

/** The forms held (see the module comment). */
export class FormStore {
  /** Open forms: `requestedSchema` and its JSON text ('' for none), kept for its release. */
  private readonly open = new Map<number, { schema: unknown; json: string }>();
  private readonly checked = new Map<number, string | undefined>();
  private readonly texts = new Map<string, string>();
  /** {@link formBytes} of every form held: a form's text is the same open and checked, so each counts its own. */
  private held = 0;
  /** Answer texts found clean, by the form object they were checked against. */
  private readonly cleanAnswers = new WeakMap<Obj, Set<string>>();
  /** `JSON.stringify` of a parsed form ('' for none) by its request body text. */
  private readonly jsons = new TextMemo<string>(FORM_JSON_MEMO, FORM_TEXT_MAX);

  /** Forms of requests whose answer was not checked yet (open work). */
  get openCount(): number {
    return this.open.size;
  }

  /** Forms kept after their answer was checked (the grace window). */
  get checkedCount(): number {
    return this.checked.size;
  }

  bytes(): number {
    return this.held;
  }

  /** Whether any form is held (a forgotten row then has nothing to drop). */
  get empty(): boolean {
    return this.open.size === 0 && this.checked.size === 0;
  }

  /** Hold `schema` (from the request body text `bodyText`) as the open form of request `n`. */
  hold(n: number, schema: unknown, bodyText: unknown): void {
    const json = this.jsons.of(bodyText, () => JSON.stringify(schema) ?? '');
    // a row records its parsed form once (its verdict stays `parsed`, and a forgotten row's form went with it),
    // so no form is held for `n` here: only the open forms are asked, a small map
    const prior = this.open.get(n);
    if (prior !== undefined) this.held -= formBytes(prior.json);
    this.open.set(n, { schema, json });
    this.held += formBytes(json);
  }

  /** The form of request `n`: `{ schema }` while held, undefined once released. */
  formOf(n: number): { schema: unknown } | undefined {
    const open = this.open.get(n);
    if (open !== undefined) return { schema: open.schema };
    if (!this.checked.has(n)) return undefined;
    const text = this.checked.get(n);
    return { schema: text === undefined ? undefined : JSON.parse(text) };
  }

  /** The open form of `n` becomes checked (its answer was checked): kept as text until the budget needs the room. */
  check(n: number): void {
    const open = this.open.get(n);
    if (open === undefined) return;
    // JSON text '' is a form JSON cannot write (undefined): kept as undefined, the same figure in `held`
    const text = open.json === '' ? undefined : open.json;
    const shared = text === undefined ? undefined : this.texts.get(text);
    if (text !== undefined && shared === undefined && text.length <= 4096 && this.texts.size < MAX_FORM_TEXTS)
      this.texts.set(text, text);
    this.checked.set(n, shared ?? text);
    this.open.delete(n);
  }

  /** Forget the form of `n`, open or checked. */
  drop(n: number): void {
    // the checked form first: while the open one is held, the two count once, as the open one
    this.dropChecked(n);
    const open = this.open.get(n);
    if (open !== undefined) {
      this.open.delete(n);
      this.held -= formBytes(open.json);
    }
  }

  /** Forget the oldest checked form (open forms are open work and stay); false when none is held. */
  forgetOldestChecked(): boolean {
    const k = this.checked.keys().next();
    if (k.done) return false;
    this.dropChecked(k.value);
    return true;
  }

  /** Forget the checked form of `n`; its figure leaves `held` unless its open form (counted alone) is still held. */
  private dropChecked(n: number): void {
    if (!this.checked.has(n)) return;
    const text = this.checked.get(n);
    this.checked.delete(n);
    if (!this.open.has(n)) this.held -= formBytes(text ?? '');
  }

  /** {@link formAnswerProblems} of `content` against `schema`; a clean answer text is remembered clean. */
  answerProblems(content: Obj, schema: unknown, text: unknown): AnswerProblem[] {
    const clean =
      isObj(schema) && typeof text === 'string' && text.length <= FORM_TEXT_MAX
        ? this.cleanAnswers.get(schema)
        : undefined;
    if (clean?.has(text as string)) return [];
    const out = formAnswerProblems(content, schema);
    if (out.length === 0 && isObj(schema) && typeof text === 'string' && text.length <= FORM_TEXT_MAX) {
      let set = clean ?? this.cleanAnswers.get(schema);
      if (set === undefined) this.cleanAnswers.set(schema, (set = new Set()));
      if (set.size >= FORM_JSON_MEMO) set.clear();
      set.add(text);
    }
    return out;
  }
}
