/**
 * Rule metadata, parsed events and the reporting context: `ctx.report` stamps rule id, severity, citation and location,
 * so a rule cannot mislabel or re-grade a finding (docs/architecture.md §Rules).
 */
import { ConformanceError } from './errors.ts';
import type { Finding, Location, Severity } from './finding.ts';
import { renderMessage, type MessageArg, type MessageArgs, type MessageTemplates } from './message.ts';
import { locateIndex, type BigIntegerLiteral, type DuplicateKey } from './json.ts';

/** What every rule declares. `id` is stable (`aep/<name>`, `ahp/<name>`, ...). */
export interface RuleMeta {
  id: string;
  severity: Severity;
  /** What it checks: one sentence of at most 200 characters (test/meta/rule-meta-length.test.ts). */
  description: string;
  /** The rest: why, what it leaves to other rules, how a heuristic decides (`explain`, RULES.md, `rules --format json`). */
  detail?: string;
  /** The citation: document and section (`AEP-0003 §9.4`, `AHP base/failure.md §Failure policy`), at most 80 characters. */
  spec: string;
  /** A short literal quote of the cited sentence, where it helps. */
  quote?: string;
  /** How its findings read, by key (the first is the default); placeholders per src/core/message.ts. */
  messages?: MessageTemplates;
  /** A table of templates several rules share (the schema stage's wording), looked up after `messages`. */
  sharedMessages?: MessageTemplates;
}

/** The metadata alone of a rule (no `check`, `types`, state), as a catalogue lists it. */
export function metaOf(r: RuleMeta): RuleMeta {
  const { id, severity, description, detail, spec, quote, messages, sharedMessages } = r;
  return {
    id,
    severity,
    description,
    ...(detail ? { detail } : {}),
    spec,
    ...(quote ? { quote } : {}),
    ...(messages ? { messages } : {}),
    ...(sharedMessages ? { sharedMessages } : {}),
  };
}

/** One parsed JSONL line that is a JSON object, with what locating findings needs. */
export interface ParsedEvent {
  source: string;
  line: number;
  byteOffset: number;
  text: string;
  /** The parsed object (an array only when the pipeline ran with `acceptArrays`). */
  value: Record<string, unknown>;
  duplicates: DuplicateKey[];
  /** Integer literals beyond 2^53 with their exact text (for ordering and identity). */
  bigIntegers: BigIntegerLiteral[];
  /** Reads the line at `byteOffset` of a regular-file input again (`undefined` when it cannot). */
  reread?: (byteOffset: number) => string | undefined;
  /** `text` renders a binary message (JsonlLine.binary, src/core/jsonl.ts): locations are the message's byte offset, no column. */
  binary?: boolean;
}

/** What a rule passes to `ctx.report`, untyped (see {@link TypedReport} for a rule's own). */
export interface ReportInput {
  /** RFC 6901 pointer inside the event; default `""` (the whole event). */
  pointer?: string;
  /** Key of the rule's template (default: its first). */
  messageId?: string;
  args?: MessageArgs;
  related?: Location[];
  /** Report at another event (stream rules), or at a bare location (end of stream). */
  at?: ParsedEvent | Location;
}

/** The placeholder names of a template literal type (`{name}`, `{name:json}`, `{name:s}`), as src/core/message.ts reads them. */
export type PlaceholderNames<T extends string> = T extends `${string}{${infer Body}}${infer Rest}`
  ? PlaceholderName<Body> | PlaceholderNames<Rest>
  : never;
type PlaceholderName<B extends string> = B extends `${infer N}:${string}` ? IdentifierOrNever<N> : IdentifierOrNever<B>;
// `{}` or `{"a": 1}` in a template's prose is not a placeholder (the run-time pattern takes identifiers only)
type IdentifierOrNever<N extends string> = N extends '' | `${string}${' ' | '"' | "'" | '{' | ','}${string}`
  ? never
  : N;

/** The arguments template `T` needs: every placeholder is required; a template not known literally takes any. */
export type ArgsOf<T extends string> = string extends T
  ? MessageArgs
  : { readonly [K in PlaceholderNames<T>]: MessageArg } & { readonly [k: string]: MessageArg | undefined };

// the names every template of K uses (a union K is a messageId chosen at run time: only what all share is required)
type CommonNames<M extends MessageTemplates, K extends keyof M & string> = {
  [P in K]: (x: PlaceholderNames<M[P]>) => void;
}[K] extends (x: infer I) => void
  ? I & string
  : never;
type KeyedArgs<M extends MessageTemplates, K extends keyof M & string> = {
  readonly [N in CommonNames<M, K>]: MessageArg;
} & {
  readonly [N in PlaceholderNames<M[K]>]?: MessageArg;
} & { readonly [k: string]: MessageArg | undefined };
type ArgsMember<M extends MessageTemplates, K extends keyof M & string> = [CommonNames<M, K>] extends [never]
  ? { args?: KeyedArgs<M, K> }
  : { args: KeyedArgs<M, K> };
type ReportCommon = Omit<ReportInput, 'messageId' | 'args'>;
type IsUnion<K, All = K> = K extends unknown ? ([All] extends [K] ? false : true) : never;
// leaving `messageId` out picks the first template, which the type system cannot name: only a one-template rule may
type Default<M> = true extends IsUnion<keyof M> ? never : { messageId?: undefined };

/** What a rule with templates `M` passes to `ctx.report` for template `K`, placeholders checked at compile time. */
export type TypedReport<M extends MessageTemplates, K extends keyof M & string> = string extends keyof M
  ? ReportInput
  : ReportCommon & ({ messageId: K } | Default<M>) & ArgsMember<M, K>;

/** The reporting context handed to a rule with templates `M`. */
export interface RuleContext<M extends MessageTemplates = MessageTemplates> {
  report<K extends keyof M & string>(r: TypedReport<M, K>): void;
}

/** A stateless per-event rule. */
export interface EventRule<E extends ParsedEvent = ParsedEvent, M extends MessageTemplates = MessageTemplates>
  extends RuleMeta {
  /** The event types `check` judges, so a checker can leave the rule out for the rest; absent: every event. */
  types?: readonly string[];
  check(event: E, ctx: RuleContext<M>): void;
}

const VERDICT_MISSING = (where: string) =>
  `its verdict ${where} is missing (a bug in agent-conformance: please report it). The rest of the input is still checked.`;

/** The finding of a rule or analyzer that threw (src/run/run.ts): the verdict of that event is incomplete. */
export const RULE_ERROR = {
  id: 'internal/rule-error',
  severity: 'error',
  description:
    'A rule or analyzer of agent-conformance threw on this event (a bug in the checker): its verdict here is missing, the rest of the input is still checked, and the run exits 2.',
  spec: 'agent-conformance README §Exit codes',
  messages: {
    rule: `Rule {rule} threw {cause} on this event; ${VERDICT_MISSING('here')}`,
    ruleAtEnd: `Rule {rule} threw {cause} at the end of input; ${VERDICT_MISSING('there')}`,
    component: `The {component} threw {cause} on this event; ${VERDICT_MISSING('here')}`,
    componentAtEnd: `The {component} threw {cause} at the end of input; ${VERDICT_MISSING('there')}`,
  },
} as const satisfies RuleMeta;

/** A rule or analyzer threw: reported as `internal/rule-error` (exit 2), or thrown when failing fast. */
export class RuleCrashError extends ConformanceError {
  constructor(
    readonly ruleId: string,
    readonly where: string,
    override readonly cause: unknown,
    /** The event it threw on (absent at the end of input). */
    readonly event?: ParsedEvent,
  ) {
    super(
      'internal',
      `internal error in rule ${ruleId} at ${where}: ${cause instanceof Error ? cause.message : String(cause)}`,
    );
  }
}

function isParsedEvent(x: ParsedEvent | Location): x is ParsedEvent {
  return typeof (x as ParsedEvent).text === 'string' && typeof (x as ParsedEvent).value === 'object';
}

/** Location of `pointer` in `event` (UTF-16 column of the key or value); column 1 when it names nothing. */
export function eventLocation(event: ParsedEvent, pointer: string): Location {
  // a protobuf message has no text to count columns in: its number, its first byte, and the pointer
  if (event.binary) return { source: event.source, line: event.line, byteOffset: event.byteOffset, pointer };
  let idx = pointer === '' ? 0 : locateIndex(event.text, pointer);
  if (idx === undefined) {
    // a missing member: locate its parent instead
    const cut = pointer.lastIndexOf('/');
    idx = cut > 0 ? locateIndex(event.text, pointer.slice(0, cut)) : 0;
  }
  idx ??= 0;
  // documents (HTTP binding) span several physical lines: count the newlines before idx
  let line = event.line;
  let column = idx + 1;
  const lastNl = idx > 0 ? event.text.lastIndexOf('\n', idx - 1) : -1;
  if (lastNl !== -1) {
    for (let i = event.text.indexOf('\n'); i !== -1 && i < idx; i = event.text.indexOf('\n', i + 1)) line++;
    column = idx - lastNl;
  }
  return {
    source: event.source,
    line,
    column,
    byteOffset: event.byteOffset + prefixBytes(event, idx),
    pointer,
  };
}

/** Whether each event's text is pure ASCII (then UTF-16 index = byte count); computed once per event. */
const asciiText = new WeakMap<ParsedEvent, boolean>();

/** UTF-8 byte length of `event.text.slice(0, idx)`, without re-encoding ASCII lines for every finding. */
function prefixBytes(event: ParsedEvent, idx: number): number {
  let ascii = asciiText.get(event);
  if (ascii === undefined) {
    ascii = Buffer.byteLength(event.text, 'utf8') === event.text.length;
    asciiText.set(event, ascii);
  }
  return ascii ? idx : Buffer.byteLength(event.text.slice(0, idx), 'utf8');
}

/** Build the finding a rule reports at `event` (or at `r.at`). */
export function makeFinding(rule: RuleMeta, r: ReportInput, event?: ParsedEvent): Finding {
  const pointer = r.pointer ?? '';
  const at = r.at ?? event;
  let loc: Location;
  if (!at) loc = { source: '', pointer };
  else if (isParsedEvent(at)) loc = eventLocation(at, pointer);
  else loc = { ...at, pointer: r.pointer ?? at.pointer };
  const f: Finding = {
    ruleId: rule.id,
    severity: rule.severity,
    message: ruleMessage(rule, r.messageId, r.args, loc.source),
    spec: rule.spec,
    ...loc,
  };
  f.messageId = r.messageId ?? Object.keys(rule.messages ?? {})[0];
  if (r.args) f.args = r.args;
  if (r.related?.length) f.related = r.related;
  return f;
}

/** The sentence of `rule`'s template `key` (default: its first) with `args`; throws when the rule has no such template. */
export function ruleMessage(
  rule: RuleMeta,
  key: string | undefined,
  args: MessageArgs | undefined,
  source: string,
): string {
  const templates = rule.messages ?? {};
  const k = key ?? Object.keys(templates)[0] ?? '';
  const template = templates[k] ?? rule.sharedMessages?.[k];
  if (template === undefined) throw new Error(`rule ${rule.id} has no message ${JSON.stringify(key ?? 'default')}`);
  return renderMessage(template, args, source);
}

/** A finding of `rule` at `loc` with no event to locate in (framing, files, the run), from template `messageId`. */
export function findingAt(rule: RuleMeta, loc: Location, messageId?: string, args?: MessageArgs): Finding {
  const message = ruleMessage(rule, messageId, args, loc.source);
  const f: Finding = { ruleId: rule.id, severity: rule.severity, message, spec: rule.spec, ...loc };
  f.messageId = messageId ?? Object.keys(rule.messages ?? {})[0];
  if (args) f.args = args;
  return f;
}

/**
 * `id` as a key of `messages`, for a message id an analyzer chose at run time; throws (a rule bug, reported as
 * `internal/rule-error`) when the rule has no such template, as rendering it would.
 */
export function messageKey<M extends MessageTemplates>(messages: M, id: string): keyof M & string {
  if (!Object.hasOwn(messages, id)) throw new Error(`no message ${JSON.stringify(id)}`);
  return id;
}

/** A rule's metadata as one literal (rule tables without `check`), keeping the literal types of `id` and templates. */
export function ruleMeta<const Id extends string, const M extends MessageTemplates>(
  meta: RuleMeta & { id: Id; messages: M },
): RuleMeta & { id: Id; messages: M } {
  return meta;
}
