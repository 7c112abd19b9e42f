/** Issues of invalid `control.attention.respond` commands, held at the command until the target decides (AEP-0006). */
import type { Location } from '../../core/finding.ts';
import type { MessageArgs } from '../../core/message.ts';
import { isObj } from '../../core/value.ts';
import { eventLocation } from '../../core/rule.ts';
import type { StateHolder } from '../../core/state-budget.ts';
import type { AepEvent } from '../event.ts';
import type { FormIssueKind } from '../forms.ts';
import { issueReport, type FormObservation } from './form-values.ts';
import type { AckDecision } from './pending-command.ts';

/** The issue kinds that make a respond one the target must reject. */
const REJECT_KINDS: ReadonlySet<FormIssueKind> = new Set(['type', 'required', 'choice']);

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

/**
 * Estimated bytes of one held command (key, record) and of one issue (location, arguments, related location): measured
 * about 320 and 714 (docs/benchmarks.md).
 */
const HELD_BYTES = 320;
const ISSUE_BYTES = 720;

/** Held issues by command key, no longer than their pending command; under the memory budget the oldest go first. */
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

  /** Hold the reject-kind issues of the respond `ev` (command key `key`, to `session`); true when it has any. */
  hold(key: string, session: string, ev: AepEvent, form: FormObservation): boolean {
    if (form.outcome.kind !== 'checked') return false;
    const request = form.outcome.request;
    let h = this.held.get(key);
    let any = false;
    for (const issue of form.outcome.issues) {
      if (!REJECT_KINDS.has(issue.kind)) continue;
      any = true;
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
    return any;
  }

  /** The first decision on `key` (an event, or a kept ack's): its issues, none for a rejection `invalid` or of unknown reason. */
  decide(key: string, ev: AepEvent | AckDecision): HeldIssue[] | undefined {
    const h = this.held.get(key);
    if (!h) return undefined;
    this.drop(key);
    if (ev.type !== 'control.rejected') return h.issues;
    if ('reasonKnown' in ev) return !ev.reasonKnown || ev.reason === 'invalid' ? undefined : h.issues;
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
