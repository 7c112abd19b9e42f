/**
 * The configuration analyzer: a `config.change.after` whose `config.change.before` was denied (a `deny`, or a
 * fail-closed `hook.failure`, base/failure.md §Failure policy: marked in the event's row by decisions.ts).
 */
import type { Mark } from '../../core/mark.ts';
import type { EventIdentity } from './identity.ts';
import type { Obj } from '../../core/value.ts';

/** Configuration facts of the first occurrence of an event. */
export interface ConfigFacts {
  configAfterDenied?: { before: Mark; deniedAt: Mark };
}

/** The configuration analyzer */
export class Configuration {
  constructor(private readonly identity: EventIdentity) {}

  /** Facts of the first occurrence `ev` (the event being observed, naming a parent) into `facts`. */
  firstOccurrence(ev: Obj, facts: ConfigFacts): void {
    if (ev.type !== 'config.change.after' || ev.parentEventId === ev.id) return;
    const ps = this.identity.parentSlotOf(ev);
    if (ps === undefined || !this.identity.isType(ps, 'config.change.before')) return;
    const deniedAt = this.identity.deniedAt(ps);
    if (deniedAt) facts.configAfterDenied = { before: this.identity.markAt(ps), deniedAt };
  }
}
