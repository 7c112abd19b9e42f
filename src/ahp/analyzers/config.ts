/**
 * The configuration analyzer: denied `config.change.before` proposals (a `deny`, or a fail-closed `hook.failure`,
 * base/failure.md §Failure policy), kept in the event's row.
 */
import type { Hash64 } from '../../core/canonical.ts';
import type { Mark } from '../../core/mark.ts';
import type { EventIdentity } from './identity.ts';
import { isObj, type Obj } from '../../core/value.ts';

/** Configuration facts of the first occurrence of an event. */
export interface ConfigFacts {
  configAfterDenied?: { before: Mark; deniedAt: Mark };
}

/** The configuration analyzer */
export class Configuration {
  constructor(private readonly identity: EventIdentity) {}

  /**
   * Facts of the first occurrence `ev` (at `at`, the event being observed, naming a parent) into `facts`; a fail-closed
   * hook.failure denies its parent.
   */
  firstOccurrence(ev: Obj, at: Mark, facts: ConfigFacts): void {
    if (ev.type !== 'config.change.after' && ev.type !== 'hook.failure') return;
    if (ev.parentEventId === ev.id) return;
    const ps = this.identity.parentSlotOf(ev);
    if (ps === undefined || !this.identity.isType(ps, 'config.change.before')) return;
    if (ev.type === 'config.change.after') {
      const deniedAt = this.identity.deniedAt(ps);
      if (deniedAt) facts.configAfterDenied = { before: this.identity.markAt(ps), deniedAt };
    } else if (isObj(ev.failure) && ev.failure.policy === 'fail-closed') {
      // a fail-closed operational failure denies the operation (base/failure.md §Failure policy)
      this.identity.setDenied(ps, at);
    }
  }

  /** An accepted intercept response (at `at`) with `effects` to the event `eventKey`: a deny denies a before event. */
  acceptedResponse(effects: readonly unknown[], eventKey: Hash64 | undefined, at: Mark): void {
    if (eventKey === undefined || !effects.some((e) => isObj(e) && e.type === 'deny')) return;
    const s = this.identity.slot(eventKey);
    if (s !== undefined && this.identity.isType(s, 'config.change.before')) this.identity.setDenied(s, at);
  }
}
