/**
 * The lineage analyzer: `parentEventId` within one source ("Parentage is single and acyclic"). Parents may arrive late,
 * so an unseen parent waits for its arrival or the end; over `--max-events` new unresolved links are dropped.
 */
import type { Hash64 } from '../../core/canonical.ts';
import type { Location } from '../../core/finding.ts';
import { keyNumber } from '../../core/table.ts';
import type { Mark } from '../../core/mark.ts';
import { eventLocation } from '../../core/rule.ts';
import type { AhpMessage } from '../message.ts';
import type { BudgetHolder, EventBudget } from './budget.ts';
import { EVENT_PTR, type EventIdentity } from './identity.ts';
import type { MessageScope } from './scope.ts';

/** An event naming a parent never seen in the input (end of stream). */
export interface UnresolvedParent {
  source: string;
  parentId: string;
  at: Location;
  seq: number;
  /** The key of the naming event (its row, while held, is where a late parent's pair check reads it). */
  child: Hash64;
}

/** Lineage facts of the first occurrence of an event. */
export interface LineageFacts {
  /** The parent chain of this event leads back to it: the events of the cycle (this one first). */
  cycle?: Mark[];
  /** Keys of the events that named this one as their parent before it arrived (a late parent). */
  lateChildren?: Hash64[];
}

/** Estimated bytes of one unresolved link (entry, location, strings, list, map entry): measured 493, docs/benchmarks.md. */
const UNRESOLVED_BYTES = 512;

/** The lineage analyzer */
export class Lineage implements BudgetHolder {
  private readonly unresolved = new Map<number, UnresolvedParent[]>();
  private unresolvedCount = 0;
  private seq = 0;

  constructor(
    private readonly identity: EventIdentity,
    private readonly budget: EventBudget,
  ) {}

  held(): number {
    return this.unresolvedCount;
  }

  bytes(): number {
    return this.unresolvedCount * UNRESOLVED_BYTES;
  }

  /** Unresolved parents are never forgotten for the budget: new ones are not recorded instead. */
  forgetOldest(): boolean {
    return false;
  }

  /** Events naming a parent that never arrived (end of stream), in arrival order of the naming events. */
  unresolvedParents(): UnresolvedParent[] {
    return [...this.unresolved.values()].flat().sort((a, b) => a.seq - b.seq);
  }

  /** Cycle facts of the first occurrence of the event of `scope` into `facts`; a parent not seen yet waits. */
  firstOccurrence(scope: MessageScope, facts: LineageFacts): void {
    const { ev, at, key, slot: s, parentKey: parent } = scope;
    if (parent !== undefined) {
      if (ev.parentEventId === ev.id) facts.cycle = [at];
      else if (scope.parentSlot() === undefined)
        this.addUnresolved(ev.source as string, ev.parentEventId as string, parent, key, scope.msg, at);
    }
    // a late parent: events named this one before it arrived; a cycle must pass through it
    if (this.unresolved.size === 0) return;
    const kn = keyNumber(key);
    const waiting = this.unresolved.get(kn);
    if (!waiting) return;
    this.unresolved.delete(kn);
    this.unresolvedCount -= waiting.length;
    facts.lateChildren = waiting.map((w) => w.child);
    if (s === undefined || facts.cycle || parent === undefined) return;
    const chain: Mark[] = [at];
    const seen = new Set<number>([kn]);
    let cur: Hash64 | undefined = parent;
    while (cur !== undefined) {
      if (cur.hi === key.hi && cur.lo === key.lo) {
        facts.cycle = chain;
        break;
      }
      const cn = keyNumber(cur);
      if (seen.has(cn)) break;
      seen.add(cn);
      const r = this.identity.rows.peek(cur);
      if (r === undefined) break;
      chain.push(this.identity.rows.markAt(r));
      cur = this.identity.parentKey(r);
    }
  }

  /** Wait for the parent `parentId` (key `parent`) of the event of `msg`, unless the budget is full. */
  private addUnresolved(
    source: string,
    parentId: string,
    parent: Hash64,
    child: Hash64,
    msg: AhpMessage,
    at: Mark,
  ): void {
    if (!this.budget.makeRoom(at)) return;
    if (this.budget.held() >= this.budget.opts.maxEvents) return;
    const k = keyNumber(parent);
    const list = this.unresolved.get(k);
    const entry = {
      source,
      parentId,
      at: eventLocation(msg, `${EVENT_PTR}/parentEventId`),
      seq: this.seq++,
      child: { hi: child.hi, lo: child.lo },
    };
    if (list) list.push(entry);
    else this.unresolved.set(k, [entry]);
    this.unresolvedCount++;
  }
}
