/**
 * The values issues of invalid `control.attention.respond` commands, held until their target decides (AEP-0006
 * amending AEP-0002 §5.3: "An emitter MUST reject (control.rejected{reason:"invalid"})" such a command). A rejection
 * with reason `invalid` is the required behaviour and drops them; any other decision, or none by the end of input,
 * reports them at the command's own location, computed while its text is at hand.
 */
import type { Location } from '../../core/finding.ts';
import type { MessageArgs } from '../../core/message.ts';
import { isObj } from '../../core/value.ts';
import { eventLocation } from '../../core/rule.ts';
import type { StateHolder } from '../../core/state-budget.ts';
import type { AepEvent } from '../event.ts';
import type { FormIssueKind } from '../forms.ts';
import { issueReport } from './form-common.ts';
import type { FormObservation } from './form-values.ts';

/** The issue kinds that make a respond one the target must reject. */
export const REJECT_KINDS: ReadonlySet<FormIssueKind> = new Set(['type', 'required', 'choice']);

/** One held issue: its kind and the report of it, located at the respond. */
export interface HeldIssue {
  kind: FormIssueKind;
  report: { at: Location; messageId: string; args: MessageArgs; related: Location[] };
}

interface Held {
  session: string;
  issues: HeldIssue[];
  bytes: number;
}

/** Estimated bytes of one held command (key, record) and of one issue (location, arguments, related location). */
const HELD_BYTES = 160;
const ISSUE_BYTES = 360;

/**
 * Held issues keyed by the control analyzer's command key; an entry lives no longer than its pending command (a
 * `maxOpen` slot). Under the memory budget the oldest entry is forgotten: that command then gets no values warning.
 */
export class HeldResponds implements StateHolder {
  private readonly held = new Map<string, Held>();
  private total = 0;

  bytes(): number {
    return this.total;
  }

  forgetOldest(): boolean {
    const first = this.held.keys().next();
    if (first.done) return false;
    this.drop(first.value);
    return true;
  }

  /** Hold the reject-kind issues of the respond `ev` (command key `key`, addressed to `session`). */
  hold(key: string, session: string, ev: AepEvent, form: FormObservation): void {
    if (form.outcome.kind !== 'checked') return;
    const request = form.outcome.request;
    let h = this.held.get(key);
    for (const issue of form.outcome.issues) {
      if (!REJECT_KINDS.has(issue.kind)) continue;
      const { pointer, ...r } = issueReport(form, request, issue);
      if (!h) {
        this.held.set(key, (h = { session, issues: [], bytes: HELD_BYTES }));
        this.total += HELD_BYTES;
      }
      h.issues.push({ kind: issue.kind, report: { at: eventLocation(ev, pointer), ...r } });
      const n = ISSUE_BYTES + 2 * (pointer.length + issue.fieldId.length);
      h.bytes += n;
      this.total += n;
    }
  }

  /**
   * The first decision on the command `key` (an ack, or an `attention.answered` it caused): its issues to report, none
   * when `ev` rejects it with reason `invalid` or is a rejection whose payload failed its schema (its reason unknown).
   */
  decide(key: string, ev: AepEvent): HeldIssue[] | undefined {
    const h = this.held.get(key);
    if (!h) return undefined;
    this.drop(key);
    if (ev.type !== 'control.rejected') return h.issues;
    const data = ev.value.data;
    return !ev.payloadValid || (isObj(data) && data.reason === 'invalid') ? undefined : h.issues;
  }

  /** The issues of the commands no event decided, but those of sessions `mayBeAcked` (an ack of unknown cause). */
  *undecided(mayBeAcked: (session: string) => boolean): IterableIterator<HeldIssue> {
    for (const h of this.held.values()) if (!mayBeAcked(h.session)) yield* h.issues;
  }

  private drop(key: string): void {
    const h = this.held.get(key);
    if (!h) return;
    this.held.delete(key);
    this.total -= h.bytes;
  }
}
