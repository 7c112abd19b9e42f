/**
 * What the event-identity analyzer (identity.ts) reads back instead of keeping: the lines of re-readable inputs by
 * place, and the events of the latest re-readable first occurrences, so a repeat close behind is not read back.
 */
import type { Hash64 } from '../../core/canonical.ts';
import { parseJsonText } from '../../core/json.ts';
import { getAt } from '../../core/pointer.ts';
import { isObj, type Obj } from '../../core/value.ts';
import type { EventBudget } from './budget.ts';
import { EVENT_PTR } from './identity-rows.ts';

/** A re-reader of one input: the line at a byte offset (undefined: it cannot be read back). */
export type Reread = (byteOffset: number) => string | undefined;

/** The event of a line read back (undefined: no line, or no event object in it). */
export function eventOfLine(line: string | undefined): Obj | undefined {
  const parsed = line === undefined ? undefined : parseJsonText(line, Number.MAX_SAFE_INTEGER);
  const ev = parsed?.ok ? getAt(parsed.value, EVENT_PTR) : undefined;
  return isObj(ev) ? ev : undefined;
}

/** The re-readers of the inputs, by the input code of an {@link EventBudget} place. */
export class Rereaders {
  private readonly byFile = new Map<number, Reread>();
  /** The input code and re-reader last set (most events come from the input before them). */
  private lastFile = -1;
  private lastReread: Reread | undefined;

  constructor(private readonly budget: EventBudget) {}

  /** Keep `reread` as the re-reader of the input of place `pos`. */
  note(pos: number, reread: Reread): void {
    const fileCode = this.budget.posFile(pos);
    if (fileCode !== this.lastFile || reread !== this.lastReread) {
      this.byFile.set(fileCode, reread);
      this.lastFile = fileCode;
      this.lastReread = reread;
    }
  }

  /** The line at place `pos` read back (undefined: its input cannot be read back). */
  lineAt(pos: number): string | undefined {
    const reread = this.byFile.get(this.budget.posFile(pos));
    const off = this.budget.posOffset(pos);
    return reread && !Number.isNaN(off) ? reread(off) : undefined;
  }
}

/** First occurrences whose events are kept (a power of two): a repeat close behind is printed from the event. */
const RECENT = 64;

/** The events of the last {@link RECENT} re-readable first occurrences, by their keys. */
export class RecentEvents {
  private readonly events: (Obj | undefined)[] = new Array<Obj | undefined>(RECENT).fill(undefined);
  /** Their keys' words, newest at `at - 1`. */
  private readonly keys = new Uint32Array(2 * RECENT);
  private at = 0;

  /** Keep `ev`, the first occurrence of `key`, as the newest. */
  add(key: Hash64, ev: Obj): void {
    const i = this.at;
    this.events[i] = ev;
    this.keys[2 * i] = key.hi;
    this.keys[2 * i + 1] = key.lo;
    this.at = (i + 1) & (RECENT - 1);
  }

  /** The event of the first occurrence of `key`, if it is one of the last {@link RECENT}. */
  get(key: Hash64): Obj | undefined {
    const k = this.keys;
    for (let n = 1; n <= RECENT; n++) {
      const i = (this.at - n) & (RECENT - 1);
      if (k[2 * i] === key.hi && k[2 * i + 1] === key.lo) return this.events[i];
    }
    return undefined;
  }
}
