/**
 * The form analyzer (AEP-0006; AEP-0002 §5.3): an answer is checked against its own `(source, session)`'s request
 * (AEP-0001
 * §7.4); a respond against that session's request from any source (its `source` is the sender's, AEP-0004 §2.2).
 */
import { isObj, own } from '../../core/value.ts';
import { checkFormValues, compileForm, type FormIssue } from '../forms.ts';
import type { AepEvent } from '../event.ts';
import { markLocation, type Mark } from '../../core/mark.ts';
import type { AttentionFacts } from './attention.ts';

/** Pointer of `answer.values` in both event types. */
export const VALUES_POINTER = '/data/answer/values';

/** The report of one form issue on an answering event: its pointer, template, arguments and the field it breaks. */
export function issueReport(form: FormObservation, request: Mark, issue: FormIssue) {
  return {
    pointer: form.absent ? '/data/answer' : VALUES_POINTER + issue.pointer,
    messageId: form.absent ? 'absent' : issue.messageId,
    args: issue.args,
    related: [
      markLocation(request, issue.fieldIndex === undefined ? '/data/fields' : `/data/fields/${issue.fieldIndex}`),
    ],
  };
}

/** What the form checks found on an `answer.values`. */
export type FormOutcome =
  | { kind: 'checked'; issues: FormIssue[]; request: Mark }
  | { kind: 'not-form'; requestKind: string | undefined; request: Mark }
  | {
      kind: 'unverifiable';
      reason: 'missing' | 'ambiguous' | 'unusable' | 'closed' | 'closed-kind' | 'withheld';
      request?: Mark;
    };

/** The form facts of one answering event. */
export interface FormObservation {
  /** `answered`: the emitter's validated record. `respond`: a sender's command. */
  role: 'answered' | 'respond';
  values: Record<string, unknown>;
  /** The answer has no `values` member at all (it answers a form with required fields by `option` or `text` alone). */
  absent?: true;
  subject: string;
  outcome: FormOutcome;
}

/** What the form analyzer found about one event. */
export interface FormFacts {
  form?: FormObservation;
}

/** Form fields of requests, and the checks of the values that answer them. */
export class FormValuesAnalyzer {
  /** Compile the fields of a new form request; check the values of an answer. */
  observe(ev: AepEvent, facts: FormFacts & Pick<AttentionFacts, 'requested' | 'attention'>): void {
    const r = facts.requested;
    if (r) {
      if (r.kind === 'form' && !r.terminal) {
        const data = ev.value.data;
        const fields = isObj(data) ? data.fields : undefined;
        r.form = ev.payloadValid && Array.isArray(fields) ? compileForm(fields as unknown[]) : 'unusable';
      }
      return;
    }
    const a = facts.attention;
    if (!a || a.subject === undefined || (ev.type !== 'attention.answered' && ev.type !== 'control.attention.respond'))
      return;
    if (!ev.payloadValid) return; // the payload findings already describe it
    const data = ev.value.data;
    const answer = isObj(data) && own(data, 'answer') && isObj(data.answer) ? data.answer : undefined;
    if (!answer) return;
    const role = ev.type === 'attention.answered' ? 'answered' : 'respond';
    if (!own(answer, 'values')) {
      this.withoutValues(ev, role, a, facts);
      return;
    }
    if (!isObj(answer.values)) return;
    const values = answer.values;
    const subject = a.subject;
    const link = a.link;
    if (link.status === 'closed') {
      // the same account as for a closed request still held (below): its fields went at its terminal
      const c = link.request;
      const outcome: FormOutcome = c.withheld
        ? { kind: 'unverifiable', reason: 'withheld', request: c.at }
        : c.kind === 'form'
          ? { kind: 'unverifiable', reason: 'closed', request: c.at }
          : c.kind === null
            ? { kind: 'unverifiable', reason: 'closed-kind', request: c.at }
            : { kind: 'not-form', requestKind: c.kind, request: c.at };
      facts.form = { role, values, subject, outcome };
      return;
    }
    if (link.status !== 'found') {
      facts.form = { role, values, subject, outcome: { kind: 'unverifiable', reason: link.status } };
      return;
    }
    const req = link.request;
    let outcome: FormOutcome;
    if (req.withheld) outcome = { kind: 'unverifiable', reason: 'withheld', request: req.at };
    else if (req.kind === undefined && req.form === 'unusable')
      outcome = { kind: 'unverifiable', reason: 'unusable', request: req.at };
    else if (req.kind !== 'form') outcome = { kind: 'not-form', requestKind: req.kind, request: req.at };
    else if (req.terminal) outcome = { kind: 'unverifiable', reason: 'closed', request: req.at };
    else if (req.form === undefined || req.form === 'unusable')
      outcome = { kind: 'unverifiable', reason: 'unusable', request: req.at };
    else
      outcome = {
        kind: 'checked',
        issues: checkFormValues(req.form, values, ev.untrusted?.has('capture') ? undefined : ev.capture),
        request: req.at,
      };
    facts.form = { role, values, subject, outcome }; // a literal, not a spread (docs/benchmarks.md)
  }

  /**
   * An answer without `values` to an open form of the input covers none of its required fields (AEP-0006: "whose
   * values does not cover every field_spec with required: true"); judged only then, never reported as unverifiable.
   */
  private withoutValues(
    ev: AepEvent,
    role: FormObservation['role'],
    a: NonNullable<AttentionFacts['attention']>,
    facts: FormFacts,
  ): void {
    const link = a.link;
    if (link.status !== 'found' || a.subject === undefined) return;
    const req = link.request;
    if (req.withheld || req.kind !== 'form' || req.terminal || req.form === undefined || req.form === 'unusable')
      return;
    const issues = checkFormValues(req.form, {}, ev.untrusted?.has('capture') ? undefined : ev.capture);
    if (issues.length === 0) return;
    const outcome: FormOutcome = { kind: 'checked', issues, request: req.at };
    facts.form = { role, values: {}, absent: true, subject: a.subject, outcome };
  }
}
