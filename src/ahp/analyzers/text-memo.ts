/** A bounded memo of what a body text parses to (forms and answers recur, a harness sends the same body again). */
export class TextMemo<V> {
  private readonly values = new Map<string, V>();

  /** At most `size` texts kept (all dropped when full), none longer than `longest` code units. */
  constructor(
    private readonly size: number,
    private readonly longest: number,
  ) {}

  /** `compute()`, kept for `text` when it is a string short enough: the same text gives the same value. */
  of(text: unknown, compute: () => V): V {
    if (typeof text !== 'string' || text.length > this.longest) return compute();
    let v = this.values.get(text);
    if (v === undefined) {
      v = compute();
      if (this.values.size >= this.size) this.values.clear();
      this.values.set(text, v);
    }
    return v;
  }
}
