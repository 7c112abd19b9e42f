/**
 * The configuration analyzer: a `config.change.after` whose `config.change.before` was denied (a `deny`, or a
 * fail-closed `hook.failure`, base/failure.md §Failure policy: recorded by decisions.ts).
 */
import type { Mark } from '../../core/mark.ts';
import type { Decisions } from './decisions.ts';
import type { EventIdentity } from './identity.ts';
import type { MessageScope } from './scope.ts';

/** Configuration facts of the first occurrence of an event. */
export interface ConfigFacts {
  configAfterDenied?: { before: Mark; deniedAt: Mark };
}

/** The configuration analyzer */
export class Configuration {
  constructor(
    private readonly identity: EventIdentity,
    private readonly decisions: Decisions,
  ) {}

  /** Facts of the first occurrence of the event of `scope` (naming a parent) into `facts`. */
  firstOccurrence(scope: MessageScope, facts: ConfigFacts): void {
    const ev = scope.ev;
    if (ev.type !== 'config.change.after' || ev.parentEventId === ev.id) return;
    const ps = scope.parentSlot();
    if (ps === undefined || !this.identity.isType(ps, 'config.change.before')) return;
    const deniedAt = this.decisions.deniedAt(ps);
    if (deniedAt) facts.configAfterDenied = { before: this.identity.rows.markAt(ps), deniedAt };
  }
}
