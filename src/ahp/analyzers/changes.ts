/**
 * The change-lineage analyzer: a `task.change.after` or `workspace.change.after` against the
 * proposal it parents to, for `ahp/change-after-mismatch` (AHP task-workspace-lineage.md §Lineage
 * and actual changes: "When both task boundaries exist, after parents to its corresponding
 * before"; "Workspace after similarly links to its known proposal"; the interop lineage check
 * verifies "matching task identity/operation for known proposal parents").
 *
 * An after event whose parent is a before of its own family is the applied side of that
 * proposal, so it keeps the proposal's task `id` and `operation`, or its workspace `kind`
 * ("after values need not equal proposed values": the changed values may differ, which change it
 * is may not). Parents of another type (an originating tool event, a proposal of the other
 * family) are not compared.
 *
 * Keeps: nothing of its own; the before's task id, operation and workspace kind are
 * control-metadata fingerprints of its event row (identity.ts {@link CONTROL_FIELDS}).
 * Releases: with the event row. Cap: the event rows' `--max-events` (budget.ts). Decided when the
 * before precedes its after in the input; an after whose before arrives later is not compared.
 */
import type { Mark } from '../../core/mark.ts';
import { eventKey, type CONTROL_FIELDS, type EventIdentity } from './identity.ts';
import type { Obj } from '../../core/value.ts';

type Field = (typeof CONTROL_FIELDS)[number];

/** The before type and the compared fields of each after type. */
const PAIRS: Readonly<
  Record<string, { before: 'task.change.before' | 'workspace.change.before'; fields: readonly Field[] }>
> = {
  'task.change.after': { before: 'task.change.before', fields: ['task.id', 'task.operation'] },
  'workspace.change.after': { before: 'workspace.change.before', fields: ['workspace.kind'] },
};

/** Change-lineage facts of the first occurrence of an event. */
export interface ChangeFacts {
  /** An after event whose task id / operation or workspace kind differs from the before it parents to. */
  changeAfterMismatch?: { before: Mark; beforeType: string; fields: string[] };
}

/** The change-lineage analyzer */
export class ChangeLineage {
  constructor(private readonly identity: EventIdentity) {}

  /** Facts of the first occurrence `ev` (the event identity just observed) into `facts`. */
  firstOccurrence(ev: Obj, facts: ChangeFacts): void {
    const pair = typeof ev.type === 'string' ? PAIRS[ev.type] : undefined;
    if (!pair) return;
    const parentId = ev.parentEventId;
    if (typeof parentId !== 'string' || parentId === ev.id) return;
    const ps = this.identity.slot(eventKey(ev.source as string, parentId));
    if (ps === undefined || !this.identity.isType(ps, pair.before)) return;
    const fields = this.identity.differsFromCurrent(ps, pair.fields);
    if (fields.length)
      facts.changeAfterMismatch = { before: this.identity.markAt(ps), beforeType: pair.before, fields };
  }
}
