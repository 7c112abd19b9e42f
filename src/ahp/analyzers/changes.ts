/**
 * The change-lineage analyzer: an after event keeps its before's task `id` and `operation` or workspace `kind` ("after
 * values
 * need not equal proposed values"), from the rows' control fingerprints, when the before came first.
 */
import type { Mark } from '../../core/mark.ts';
import type { CONTROL_FIELDS, EventIdentity } from './identity.ts';
import type { Obj } from '../../core/value.ts';

type Field = (typeof CONTROL_FIELDS)[number];

/** The before type and the compared fields of each after type (a Map: an object's miss is dear, docs/benchmarks.md). */
const PAIRS: ReadonlyMap<
  unknown,
  { before: 'task.change.before' | 'workspace.change.before'; fields: readonly Field[] }
> = new Map([
  ['task.change.after', { before: 'task.change.before', fields: ['task.id', 'task.operation'] }],
  ['workspace.change.after', { before: 'workspace.change.before', fields: ['workspace.kind'] }],
] as const);

/** Change-lineage facts of the first occurrence of an event. */
export interface ChangeFacts {
  /** An after event whose task id / operation or workspace kind differs from the before it parents to. */
  changeAfterMismatch?: { before: Mark; beforeType: string; fields: string[] };
}

/** The change-lineage analyzer */
export class ChangeLineage {
  constructor(private readonly identity: EventIdentity) {}

  /** Facts of the first occurrence `ev` (the event being observed, naming a parent) into `facts`. */
  firstOccurrence(ev: Obj, facts: ChangeFacts): void {
    const pair = PAIRS.get(ev.type);
    if (!pair || ev.parentEventId === ev.id) return;
    const ps = this.identity.parentSlotOf(ev);
    if (ps === undefined || !this.identity.isType(ps, pair.before)) return;
    const fields = this.identity.differsFromCurrent(ps, pair.fields);
    if (fields.length)
      facts.changeAfterMismatch = { before: this.identity.markAt(ps), beforeType: pair.before, fields };
  }
}
