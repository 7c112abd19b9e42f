/**
 * The assessment analyzer (AEP-0009 §2): where the events an assessment may judge by `cause` were, with their run and
 * session. Only the assessed events §2 names are kept, under the memory budget; an id seen twice with different runs is
 * not judged.
 */
import type { Mark } from '../../core/mark.ts';
import type { StateHolder } from '../../core/state-budget.ts';
import { isAssessment } from '../assessment.ts';
import { attr, type AepEvent } from '../event.ts';

/** Event types an assessment judges by `cause` (AEP-0009 §2, §6 examples). */
const ASSESSABLE: ReadonlySet<string> = new Set([
  'run.finished',
  'run.failed',
  'run.cancelled',
  'tool.completed',
  'tool.failed',
  'message.agent.replied',
]);

/** An assessable event: its session and run, and where it was. */
interface Assessed {
  session: string;
  run: string;
  at: Mark;
}

/** What the assessment analyzer found about one event. */
export interface AssessmentFacts {
  /** The event this assessment's `cause` names, when its run or session differs from the assessment's envelope. */
  assessedElsewhere?: { at: Mark; type: 'run' | 'session' };
}

/** Estimated bytes of one remembered event (its id, session and run strings, the record and its mark). */
const ENTRY_BYTES = 240;

/** Assessable events by id, for one run; a StateHolder of the memory budget (`--max-state-mb`). */
export class AssessmentAnalyzer implements StateHolder {
  /** id -> the event, or `null` when the id named two different runs. */
  private readonly byId = new Map<string, Assessed | null>();

  bytes(): number {
    return this.byId.size * ENTRY_BYTES;
  }

  forgetOldest(): boolean {
    const first = this.byId.keys().next();
    if (first.done) return false;
    this.byId.delete(first.value);
    return true;
  }

  observe(ev: AepEvent, facts: AssessmentFacts & { at: Mark }): void {
    const type = ev.type;
    if (ASSESSABLE.has(type)) {
      const session = attr(ev, 'session');
      const run = attr(ev, 'run');
      if (session === undefined || run === undefined) return;
      const id = attr(ev, 'id')!;
      const prior = this.byId.get(id);
      if (prior === undefined) {
        this.byId.set(id, { session, run, at: facts.at });
      } else if (prior !== null && (prior.session !== session || prior.run !== run)) this.byId.set(id, null);
      return;
    }
    if (!isAssessment(type)) return;
    const cause = attr(ev, 'cause');
    const target = cause === undefined ? undefined : this.byId.get(cause);
    if (!target) return;
    if (target.session !== attr(ev, 'session')) facts.assessedElsewhere = { at: target.at, type: 'session' };
    else if (target.run !== attr(ev, 'run')) facts.assessedElsewhere = { at: target.at, type: 'run' };
  }
}
