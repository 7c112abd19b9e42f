/**
 * The library API's option types and the one mapping from flat option names (the CLI's flags,
 * a case sidecar's `options`) to them. Type-only imports: the CLI of one protocol loads this
 * without the other protocol's driver (start-up of `validate`).
 */
import type { AepStreamOptions } from '../aep/stream/options.ts';
import type { AhpBinding } from '../ahp/message.ts';
import type { AhpStreamOptions } from '../ahp/stream/options.ts';
import type { ProtocolDriver } from '../core/pipeline.ts';
import type { RuleMeta } from '../core/rule.ts';
import type { AepRuleId, AhpRuleId } from './rule-ids.ts';

/** A protocol name: `aep` (Agent Event Protocol 0.1) or `ahp` (Agent Hooks Protocol draft). */
export type Protocol = 'aep' | 'ahp';

/** Options every check understands. */
export interface CommonOptions {
  /** Raise warnings to errors (`--strict`). */
  strict?: boolean;
  /** Longest line accepted, in bytes (default 16 MiB, `--max-line-bytes`). */
  maxLineBytes?: number;
  /** Deepest nesting of arrays and objects accepted (`--max-depth`). */
  maxDepth?: number;
}

/** AEP options: the rule selection and the stream caps (`aep validate --rule`, `--max-*`, `--ack-window`). */
export interface AepOptions extends CommonOptions {
  /** Run only these rules; framing findings (`jsonl/*`, `json/*`) always appear. Default: all. */
  rules?: readonly AepRuleId[];
  /** Stream state caps and the ack window (README §Options of `validate`). */
  stream?: Partial<AepStreamOptions>;
}

/** AHP options: the rule selection, the stream caps and the binding (`ahp validate --rule`, `--max-*`, `--binding`). */
export interface AhpOptions extends CommonOptions {
  /** Run only these rules; framing findings (`jsonl/*`, `json/*`) always appear. Default: all. */
  rules?: readonly AhpRuleId[];
  /** Stream state caps (README §Options of `validate`). */
  stream?: Partial<AhpStreamOptions>;
  /**
   * Read every input as this binding. Default: by input name, as the CLI does
   * (`*.registration.json` registration, other `.json` HTTP, anything else stdio JSONL).
   */
  binding?: AhpBinding;
}

/** The options of protocol `P`. */
export type OptionsFor<P extends Protocol> = P extends 'aep' ? AepOptions : AhpOptions;

/** What the API needs of one protocol. */
export interface ProtocolSpec {
  name: Protocol;
  /** A fresh driver (one per stream). */
  driver(options: AepOptions | AhpOptions): ProtocolDriver;
  rules(): RuleMeta[];
  knownTypes(): readonly string[];
  /** Framing of an input named `source`. */
  framing(source: string, options: AepOptions | AhpOptions): 'jsonl' | 'document';
}

/** The rule selection of `rules`, checked against the catalogue. @throws TypeError for an unknown id */
export function selection(spec: Pick<ProtocolSpec, 'name' | 'rules'>, ids: readonly string[] | undefined): ReadonlySet<string> | undefined {
  if (!ids?.length) return undefined;
  const known = new Set(spec.rules().map((r) => r.id));
  const unknown = ids.find((id) => !known.has(id));
  if (unknown !== undefined) throw new TypeError(`unknown ${spec.name} rule "${unknown}" (rules('${spec.name}') lists them all)`);
  return new Set(ids);
}

/**
 * The API options of `protocol` from flat option names: the `validate` flags in camelCase
 * (`rule`, `maxSessions`, `maxOpen`, `maxIds`, `maxStateMb`, `ackWindow`, `maxPending`, `maxEvents`,
 * `binding`, `strict`, `maxLineBytes`, `maxDepth`), as commander parses them and as a case
 * sidecar's `options` names them (src/fixture-runner/expect.ts). The one mapping from those
 * names to the drivers' options: the CLI and the fixture runners build their drivers through it.
 * Absent names keep the drivers' defaults; other names are ignored (report options).
 */
export function optionsFromFlags<P extends Protocol>(protocol: P, flags: Readonly<Record<string, unknown>>): OptionsFor<P> {
  const f = flags as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  const rules = f.rule ?? f.rules;
  if (Array.isArray(rules) && rules.length) out.rules = rules;
  if (typeof f.strict === 'boolean') out.strict = f.strict;
  if (typeof f.maxLineBytes === 'number') out.maxLineBytes = f.maxLineBytes;
  if (typeof f.maxDepth === 'number') out.maxDepth = f.maxDepth;
  const stream: Record<string, unknown> = {};
  const caps: Readonly<Record<string, string>> =
    protocol === 'aep' ? { maxSessions: 'maxSessions', maxOpen: 'maxOpen', maxIds: 'maxIds', maxStateMb: 'maxStateMb', ackWindow: 'ackWindowMs' } : { maxPending: 'maxPending', maxEvents: 'maxEvents', maxStateMb: 'maxStateMb' };
  for (const [flag, name] of Object.entries(caps)) if (typeof f[flag] === 'number') stream[name] = f[flag];
  if (Object.keys(stream).length) out.stream = stream;
  if (protocol === 'ahp' && typeof f.binding === 'string') out.binding = f.binding;
  return out as OptionsFor<P>;
}
