/** What a memo keeps for `undefined`, so that a hit is one lookup. */
const NONE: unique symbol = Symbol('none');

/**
 * The bounded memo of a pure function of a text (types, sources, names, bodies recur from event to event): at most
 * `size` texts are kept, all dropped at once when it is full, and texts longer than `longest` are not kept.
 */
export class TextMemo<V> {
  private readonly values = new Map<string, V | typeof NONE>();

  constructor(
    private readonly size: number,
    private readonly longest = Number.POSITIVE_INFINITY,
  ) {}

  /** `compute(text)`, kept for `text` unless it is longer than `longest`. */
  of(text: string, compute: (text: string) => V): V;
  /** `compute()`, kept for `text` when it is a string (at most `longest` long); else computed each time. */
  of(text: unknown, compute: () => V): V;
  of(text: unknown, compute: (text: string) => V): V {
    if (typeof text !== 'string' || text.length > this.longest) return compute(text as string);
    const kept = this.values.get(text);
    if (kept === NONE) return undefined as V;
    if (kept !== undefined) return kept;
    const v = compute(text);
    if (this.values.size >= this.size) this.values.clear();
    this.values.set(text, v === undefined ? NONE : v);
    return v;
  }
}
