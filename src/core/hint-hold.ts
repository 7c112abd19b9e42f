/**
 * Holds a JSONL input's first findings until a line parses; if none does, a protocol's binding hint may fold the
 * per-line parse findings into one (they only repeat that the lines are not JSONL).
 */
import type { Finding, FindingSink } from './finding.ts';
import { withHint } from './framing.ts';
import type { JsonlLine } from './jsonl.ts';

/** The parse findings of single lines that one hinted finding replaces (a line of a pretty-printed value may be `1,` or `2`). */
const PER_LINE_PARSE: ReadonlySet<string> = new Set(['jsonl/invalid-json', 'jsonl/not-object']);

/** Text held for the hint at most (beyond it, findings pass on as they come). */
const HOLD_CHARS = 1 << 20;

/** One input's hold (see the module comment). */
export class HintHold {
  private held: Finding[] | undefined = [];
  private text = '';

  constructor(
    private readonly downstream: FindingSink,
    private readonly hint: (text: string) => string | undefined,
  ) {}

  readonly sink: FindingSink = (f) => (this.held ? this.held.push(f) : this.downstream(f));

  /**
   * A JSON array written one element per line (`[`, elements each ending in `,`, the last without, `]`): its last
   * element parses, yet the input is one array, as a pretty-printed one is; held until a line shows otherwise.
   */
  private arrayTail = false;

  /** A line was read (before it is parsed). */
  line(l: JsonlLine): void {
    if (!this.held) return;
    if (this.arrayTail && !/^\s*\]?\s*$/.test(l.text)) {
      this.arrayTail = false;
      this.release();
      return;
    }
    this.text += l.text + '\n';
    if (this.text.length > HOLD_CHARS) {
      this.arrayTail = false;
      this.release();
    }
  }

  /** A line parsed into a message: what was held passes on, and nothing more is held (but see {@link arrayTail}). */
  release(): void {
    if (this.held && !this.arrayTail && arrayHead(this.text)) {
      this.arrayTail = true;
      return;
    }
    if (this.arrayTail) return;
    const held = this.held;
    this.held = undefined;
    this.text = '';
    for (const f of held ?? []) this.downstream(f);
  }

  /** The input ended: the held findings pass on, the parse findings folded into one when the hint applies. */
  end(): void {
    this.arrayTail = false;
    const held = this.held;
    if (!held) return;
    const sentence = held.some((f) => PER_LINE_PARSE.has(f.ruleId)) ? this.hint(this.text) : undefined;
    this.held = undefined;
    this.text = '';
    let first = true;
    for (const f of held) {
      if (sentence === undefined || !PER_LINE_PARSE.has(f.ruleId)) this.downstream(f);
      else if (first) {
        first = false;
        this.downstream(withHint(f, sentence));
      }
    }
  }
}

/** True when `text` is `[` on its own line, then lines each ending in `,` but its last (the element that parsed). */
function arrayHead(text: string): boolean {
  const lines = text.split('\n').filter((l) => l.trim() !== '');
  return lines.length >= 2 && lines[0]!.trim() === '[' && lines.slice(1, -1).every((l) => l.trimEnd().endsWith(','));
}
