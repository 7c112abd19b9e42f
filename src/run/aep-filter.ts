/**
 * AEP filters (`aep downlevel`, `aep redact`, `aep convert`) over the run without stream rules. A line with an error of
 * its
 * own is not written: a filter cannot vouch for an event it cannot read. Unchanged events are written byte for byte.
 */
import type { Finding, FindingSink } from '../core/finding.ts';
import { aboutTheInput } from '../core/framing.ts';
import { asciiJson, changedNumbers, serializeEvent } from '../core/serialize.ts';
import type { InputSpec } from '../core/pipeline.ts';
import type { ParsedEvent } from '../core/rule.ts';
import { type RunHooks, runInputs, type RunResult } from './run.ts';
import { AEP } from '../aep/definition.ts';
import { AEP_EVENT_RULES, AEP_SCHEMA_RULES } from '../aep/rules/index.ts';
import { RECOMMENDED_FORM_RULES } from '../aep/protocol.ts';
import { BRIDGE_INPUT_RULE } from '../aep/bridges/rules.ts';
import { isSetAside } from '../aep/bridges/hint.ts';

/**
 * A counter's test of findings: true at the first error of a line that refuses it (not one about the whole input such
 * as `jsonl/empty-input`), so each refused line counts once however many errors it has.
 */
export function lineRejections(): (f: Finding) => boolean {
  let last = '';
  return (f) => {
    const at = f.line === undefined ? '' : `${f.source}\n${f.line}`;
    if (f.severity !== 'error' || at === '' || at === last || f.ruleId === 'jsonl/empty-input' || aboutTheInput(f))
      return false;
    last = at;
    return true;
  };
}

/** A line the transform cannot write (`aep convert`: a value the target format has no exact form for), and why. */
export interface Refusal {
  readonly refused: string;
  /** The pointer (in the event) of the value the target cannot hold. */
  readonly pointer: string;
}

const REFUSAL = new WeakSet<object>();

/** A {@link Refusal}: the line is not written and counts as refused; `reason` is one sentence for stderr. */
export function refuse(reason: string, pointer = ''): Refusal {
  const r = { refused: reason, pointer };
  REFUSAL.add(r);
  return r;
}

/** A line written as this text exactly (`aep convert`: number literals kept where a double cannot hold them). */
export interface ExactText {
  readonly text: string;
}

const EXACT = new WeakSet<object>();

/** An {@link ExactText}. */
export function exactText(text: string): ExactText {
  const t = { text };
  EXACT.add(t);
  return t;
}

/**
 * A new value, `undefined` to keep the line as is, `null` to write nothing (`aep convert --to ocsf`: no OCSF class), a
 * {@link Refusal} to refuse the line (`aep convert`: no exact form in the target), or the text to write ({@link ExactText}).
 */
export type EventTransform = (
  ev: ParsedEvent,
  invalid: boolean,
) => Record<string, unknown> | undefined | null | Refusal | ExactText;

/** Options of {@link runAepFilter}. */
export interface AepFilterOptions {
  maxLineBytes?: number;
  maxDepth?: number;
  /** Also refuse `aep/redaction-leak` lines (`downlevel` at `redacted` / `full` passes gated text as is). */
  refuseLeaks?: boolean;
  /** Write changed events as ASCII-only JSON (`aep convert`: the bytes of the upstream pins). */
  ascii?: boolean;
  /** Run every rule, stream rules included, so a line `aep validate` fails is refused (`aep convert`). */
  allRules?: boolean;
  /** Told of each line the transform refused (a {@link Refusal}). */
  onRefused?: (ev: ParsedEvent, refusal: Refusal) => void;
  /** A sub-profile the lines are checked under (`aep-0007`), as `aep validate --profile`. */
  profile?: string;
  /** Also transform a parsed line with error findings; the transform writes or refuses it (`downlevel`, `redact`). */
  invalid?: boolean;
  /** Read bridge output, checked as `aep validate --from` checks it (`aep convert --from`). */
  from?: 'cloudevents' | 'otlp';
  /** With {@link from} `otlp`: the exporter's capture ceiling (AEP-0005 §3.3). */
  maxCapture?: string;
}

/** The outcome of a filter run: the run's result, and the lines written and refused. */
export interface AepFilterResult extends RunResult {
  written: number;
  rejected: number;
  /** Of `rejected`, the lines the transform refused (a {@link Refusal}: a sentence of its own). */
  refused: number;
  /** Of `written`, the lines with error findings of their own (with {@link AepFilterOptions.invalid}). */
  invalidWritten: number;
  /** Of `rejected`, the lines of another format (`aep/bridge-input`: bridge output, AHP messages), never transformed. */
  setAside: number;
}

// the RECOMMENDED-form rules run only when asked for (--forms recommended), never in a filter
const FILTER_RULES: readonly string[] = [
  ...AEP_SCHEMA_RULES.map((r) => r.id),
  ...AEP_EVENT_RULES.map((r) => r.id),
  BRIDGE_INPUT_RULE.id,
].filter((id) => !RECOMMENDED_FORM_RULES.includes(id));
// `aep redact` repairs what the leak, home-path and PII rules report, so none is reported on its input
const REPAIRED = [
  'aep/redaction-leak',
  'aep/redaction-leak-provider',
  'aep/redaction-home-path',
  'aep/redaction-leak-pii',
];
const FILTER_RULES_NO_LEAK: readonly string[] = FILTER_RULES.filter((id) => !REPAIRED.includes(id));

/** Run `transform` over every valid event of `inputs` (one stream), output lines to `write`. @throws InputError. */
export async function runAepFilter(
  inputs: readonly InputSpec[],
  transform: EventTransform,
  write: (line: string) => void,
  sink: FindingSink,
  opts: AepFilterOptions = {},
  ready?: RunHooks['ready'],
): Promise<AepFilterResult> {
  let written = 0;
  // lines with an error finding: framing findings (a bad byte) come before the line reaches
  // the checker, the others while it is checked; either refuses the line
  let rejected = 0;
  let refused = 0;
  let invalidWritten = 0;
  let setAside = 0;
  const rejectsLine = lineRejections();
  const rules = opts.allRules ? undefined : opts.refuseLeaks ? FILTER_RULES : FILTER_RULES_NO_LEAK;
  const { allRules: _a, onRefused: _r, invalid: _i, ...runOpts } = opts;
  const result = await runInputs(
    AEP,
    inputs,
    { ...runOpts, ...(rules ? { rules } : {}), each: false },
    {
      finding(f) {
        if (rejectsLine(f)) rejected++;
        sink(f);
      },
      event(ev, bad) {
        // not an AEP event (the checker set it aside, its first line has the one aep/bridge-input finding): no capture
        // annotation says what of it a level may carry, so no verb transforms or writes it (AEP-0001 §8.2(a))
        if (!opts.from && isSetAside(ev.value)) {
          setAside++;
          if (!bad) rejected++;
          return;
        }
        if (bad && !opts.invalid) return;
        const out = transform(ev, bad);
        if (out === null) return;
        if (REFUSAL.has(out as object)) {
          if (!bad) rejected++;
          refused++;
          opts.onRefused?.(ev, out as Refusal);
          return;
        }
        const text =
          out === undefined
            ? ev.text
            : EXACT.has(out)
              ? (out as ExactText).text
              : serializeEvent(out as Record<string, unknown>, changedNumbers(ev.text, ev.value, ev.bigIntegers));
        write((opts.ascii && out !== undefined ? asciiJson(text) : text) + '\n');
        written++;
        if (bad) {
          rejected--;
          invalidWritten++;
        }
      },
      ready,
    },
  );
  return { ...result, written, rejected, refused, invalidWritten, setAside };
}

export { serializeEvent };
