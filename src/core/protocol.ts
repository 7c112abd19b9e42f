/**
 * What a protocol is to the run: the interface both definitions implement and the options every entry passes
 * (docs/architecture.md §The run).
 */
import type { FindingSink } from './finding.ts';
import type { FramingSpecs, JsonlLine } from './jsonl.ts';
import type { ProtocolChecker, RunStats } from './pipeline.ts';
import type { EventFacts } from './event-facts.ts';
import type { ParsedEvent, RuleCrashError, RuleMeta } from './rule.ts';

/** A protocol name: `aep` (Agent Event Protocol 0.1) or `ahp` (Agent Hooks Protocol draft). */
export type Protocol = 'aep' | 'ahp';

/** Options every check understands. */
export interface CommonOptions {
  /** Raise warnings to errors (`--strict`). */
  strict?: boolean;
  /** Longest line accepted, in bytes (default 16 MiB, `--max-line-bytes`). */
  maxLineBytes?: number;
  maxDepth?: number;
}

/** Either protocol's options as the run passes them (the library's `AepOptions` / `AhpOptions` are of this shape). */
export interface ProtocolOptions extends CommonOptions {
  /** Run only these rules; framing findings (`jsonl/*`, `json/*`) always appear. Default: all. */
  rules?: readonly string[];
  /** Stream state caps by name (each protocol's `*StreamOptions`). */
  stream?: object;
  /** AHP: read every input as this binding (`stdio`, `http`, `registration`). */
  binding?: string;
  /** AEP: read bridge output (`cloudevents`, `otlp`, `ocsf`; AEP-0005) instead of AEP JSONL. */
  from?: string;
  /** AEP `--from otlp` / `--from ocsf`: the exporter's capture ceiling (AEP-0005 §3.3, §4.6; default `metadata`). */
  maxCapture?: string;
  /** AEP: a sub-profile checked beside AEP 0.1 (`aep-0007`: the message and stream sub-profile). */
  profile?: string;
}

/** One message checked alone against a named root (AHP manifest `schema` / `eventSchema`); no stream rules run. */
export interface SingleMessageOptions {
  /** The root to validate against; default `'message'`. */
  root?: string;
  eventSchema?: string;
}

/** Where a protocol checker's output goes: findings, statistics, and a rule that threw. */
export interface CheckerOutput {
  sink: FindingSink;
  stats: RunStats;
  /** A rule or analyzer threw on an event: the run turns it into an `internal/rule-error` finding. */
  crash(error: RuleCrashError): void;
}

/** A protocol's own `validate` flag: `name` in camelCase (commander, case sidecars), `to` the option path it sets. */
export interface FlagSpec {
  name: string;
  flags: string;
  description: string;
  to: readonly ['binding' | 'from' | 'maxCapture' | 'profile'] | readonly ['stream', string];
  kind: 'positive-int' | 'positive-number' | 'choice';
  choices?: readonly string[];
  default?: number;
  /** The flag applies only with another flag's value (`--max-capture` needs `--from otlp`): otherwise a usage error. */
  requires?: { name: string; value: string | readonly string[]; flags: string };
}

/**
 * A binary encoding a protocol reads besides JSON text (AEP `--from otlp`: OTLP protobuf), told from an input's first
 * bytes: the run hands such an input to {@link BinaryEncoding.read} instead of the JSONL reader.
 */
export interface BinaryEncoding {
  /** Whether an input starting with `head` is of this encoding; `undefined` while more bytes are needed and may come. */
  detect(head: Buffer, ended: boolean): boolean | undefined;
  /**
   * Read one input: each message goes to `onLine` as the line record of its JSON rendering (`binary: true`), what
   * cannot be read to `sink`; `maxBytes` caps one message. @returns the bytes and messages read.
   */
  read(
    input: AsyncIterable<Uint8Array | string>,
    source: string,
    onLine: (line: JsonlLine) => void | Promise<void>,
    sink: FindingSink,
    maxBytes: number,
  ): Promise<{ bytes: number; messages: number }>;
}

/** A protocol, as every entry of the run sees it. */
export interface ProtocolDefinition {
  readonly name: Protocol;
  readonly description: string;
  readonly cr: 'accept-crlf' | 'reject';
  /** The protocol's own citations of the framing rules (its binding, per options), stamped by the run. */
  readonly framingSpecs?: FramingSpecs | ((options: ProtocolOptions) => FramingSpecs);
  /** Framing messages this protocol words its own way (AHP: message, not event; an array is a batch): see `reworded`. */
  readonly framingWords?: Readonly<Record<string, string>>;
  readonly flags: readonly FlagSpec[];
  /** Every rule this protocol can report (catalogue order). */
  rules(): readonly RuleMeta[];
  /** Known event types (coverage statistics), under the run's options (a sub-profile adds its types). */
  knownTypes(options?: ProtocolOptions): readonly string[];
  /** The sentence naming the `--binding` that reads `text` when this framing did not, else `undefined`. */
  bindingHint?(
    text: string,
    source: string,
    framing: 'jsonl' | 'document',
    options: ProtocolOptions,
  ): string | undefined;
  /** Options a fixture case gets from its file name (AEP: `*.ce.jsonl` is read `--from cloudevents`, ...). */
  caseOptions?(name: string): ProtocolOptions;
  /** True when a line may hold a JSON array (a CloudEvents batch): it then reaches the checker. */
  acceptArrays?(options: ProtocolOptions): boolean;
  /** True when a `document` input whose first line is one JSON document is read as JSON lines (AEP `--from`). */
  documentLines?(options: ProtocolOptions): boolean;
  /** The binary encoding inputs may have under `options` (AEP `--from otlp`: protobuf), told from their bytes. */
  binaryEncoding?(options: ProtocolOptions): BinaryEncoding | undefined;
  /** Framing of an input named `source`: one message per line, or the whole input one document. */
  framing(source: string, options: ProtocolOptions): 'jsonl' | 'document';
  /**
   * A fresh checker for one stream; `single` checks each message alone (AHP). @throws TypeError for an unknown rule id.
   */
  checker(options: ProtocolOptions & { single?: SingleMessageOptions }, out: CheckerOutput): ProtocolChecker;
  /** The timeline facts of one parsed event (envelope members only, src/core/event-facts.ts): `--format html`. */
  eventFacts?(ev: ParsedEvent): EventFacts;
}

/** Options of `def` from flat camelCase names (commander, case sidecars); absent keep defaults, others ignored. */
export function optionsFromFlags(def: ProtocolDefinition, flags: Readonly<Record<string, unknown>>): ProtocolOptions {
  const out: Record<string, unknown> = {};
  const rules = flags.rule ?? flags.rules;
  if (Array.isArray(rules) && rules.length) out.rules = rules;
  if (typeof flags.strict === 'boolean') out.strict = flags.strict;
  if (typeof flags.maxLineBytes === 'number') out.maxLineBytes = flags.maxLineBytes;
  if (typeof flags.maxDepth === 'number') out.maxDepth = flags.maxDepth;
  for (const f of def.flags) {
    const v = flags[f.name];
    if (f.kind === 'choice' ? typeof v !== 'string' : typeof v !== 'number') continue;
    if (f.to.length === 1) out[f.to[0]] = v;
    else ((out.stream ??= {}) as Record<string, unknown>)[f.to[1]] = v;
  }
  return out as ProtocolOptions;
}

/** The names a flat flags record (a fixture sidecar's `options`) may hold for `def`, each with the type it takes. */
export function flagTypes(def: ProtocolDefinition): ReadonlyMap<string, 'string' | 'number' | 'boolean'> {
  const out = new Map<string, 'string' | 'number' | 'boolean'>([
    ['strict', 'boolean'],
    ['maxLineBytes', 'number'],
    ['maxDepth', 'number'],
  ]);
  for (const f of def.flags) out.set(f.name, f.kind === 'choice' ? 'string' : 'number');
  return out;
}

/** The first id of `ids` that `def` has no rule for, or `undefined`. */
export function unknownRuleId(def: ProtocolDefinition, ids: readonly string[] | undefined): string | undefined {
  if (!ids?.length) return undefined;
  const known = new Set(def.rules().map((r) => r.id));
  return ids.find((id) => !known.has(id));
}

/** The rule selection of `ids` (`undefined`: every rule). @throws TypeError for an id `def` has no rule for */
export function ruleSelection(
  def: ProtocolDefinition,
  ids: readonly string[] | undefined,
): ReadonlySet<string> | undefined {
  const unknown = unknownRuleId(def, ids);
  if (unknown !== undefined)
    throw new TypeError(`unknown ${def.name} rule "${unknown}" (rules('${def.name}') lists them all)`);
  return ids?.length ? new Set(ids) : undefined;
}
