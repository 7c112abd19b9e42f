/**
 * The change-lineage analyzer: an after event keeps its before's task `id` and `operation` or workspace `kind` ("after
 * values need not equal proposed values"), from the rows' control fingerprints, in either arrival order (a subscriber
 * may receive the after first: task-workspace-lineage.md names late parents among the pair checks).
 */
import type { Hash64 } from '../../core/canonical.ts';
import type { Mark } from '../../core/mark.ts';
import type { CONTROL_FIELDS, EventIdentity } from './identity.ts';
import type { MessageScope } from './scope.ts';

type Field = (typeof CONTROL_FIELDS)[number];

/** The before type and the compared fields of each after type (a Map: an object's miss is dear, docs/benchmarks.md). */
const PAIRS: ReadonlyMap<
  unknown,
  { before: 'task.change.before' | 'workspace.change.before'; fields: readonly Field[] }
> = new Map([
  ['task.change.after', { before: 'task.change.before', fields: ['task.id', 'task.operation'] }],
  ['workspace.change.after', { before: 'workspace.change.before', fields: ['workspace.kind'] }],
] as const);

/** The after type each before type is the proposal of, and the compared fields. */
const LATE: ReadonlyMap<unknown, { after: string; fields: readonly Field[] }> = new Map(
  [...PAIRS].map(([after, p]) => [p.before, { after: after as string, fields: p.fields }] as const),
);

/** Change-lineage facts of the first occurrence of an event. */
export interface ChangeFacts {
  /** An after event whose task id / operation or workspace kind differs from the before it parents to. */
  changeAfterMismatch?: { before: Mark; beforeType: string; fields: string[] };
  /** A before event whose earlier-arrived after (parenting to it) differs in task id / operation or workspace kind. */
  changeBeforeMismatch?: { after: Mark; afterType: string; fields: string[] };
}

/** The change-lineage analyzer */
export class ChangeLineage {
  constructor(private readonly identity: EventIdentity) {}

  /** Facts of the first occurrence of the event of `scope` (naming a parent) into `facts`. */
  firstOccurrence(scope: MessageScope, facts: ChangeFacts): void {
    const ev = scope.ev;
    const pair = PAIRS.get(ev.type);
    if (!pair || ev.parentEventId === ev.id) return;
    const ps = scope.parentSlot();
    if (ps === undefined || !this.identity.isType(ps, pair.before)) return;
    const fields = this.identity.differs(ps, scope, pair.fields);
    if (fields.length)
      facts.changeAfterMismatch = { before: this.identity.rows.markAt(ps), beforeType: pair.before, fields };
  }

  /** Facts of a before event that events named as parent before it arrived (`children`: their keys) into `facts`. */
  lateParent(scope: MessageScope, children: readonly Hash64[], facts: ChangeFacts): void {
    const late = LATE.get(scope.ev.type);
    if (!late) return;
    for (const child of children) {
      const r = this.identity.rows.peek(child);
      if (r === undefined || this.identity.typeName(r) !== late.after) continue;
      const fields = this.identity.differs(r, scope, late.fields);
      if (fields.length) {
        facts.changeBeforeMismatch = { after: this.identity.rows.markAt(r), afterType: late.after, fields };
        return;
      }
    }
  }
}
