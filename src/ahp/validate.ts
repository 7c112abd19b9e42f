/**
 * `validateAhpMessage`: one parsed JSON value checked against a named AHP root, for the
 * upstream fixture manifest runner (its `schema` / `eventSchema` roots) and the library.
 *
 * It is a one-event run of the same checks `ahp validate` runs on each message: the
 * message-schema stage (src/ahp/rules/schema.ts) against the root, then every per-event rule
 * (src/ahp/rules/) on the Engine; findings come back instead of going to a sink. Framing (JSONL
 * lines, CR, blank lines, duplicate member names of the outer text) belongs to the reader
 * (`runPipeline`), not here.
 */
import { Engine, type RuleSelection } from '../core/engine.ts';
import type { Finding } from '../core/finding.ts';
import type { ParsedEvent } from '../core/rule.ts';
import type { AhpMessage } from './message.ts';
import { AHP_EVENT_RULES } from './rules/index.ts';
import { reportSchemaFindings, resolveRoot, schemaStage, type AhpRoot, type ValidateAhpOptions } from './rules/schema.ts';

export type { AhpRoot, ValidateAhpOptions } from './rules/schema.ts';

const NO_STREAM = { state: undefined, observe: () => undefined };

/**
 * Validate one parsed JSON value as an AHP draft message (default), a registration document or
 * the root named by `opts.root`, returning every finding (an empty array means valid; only
 * `error` findings make the value invalid, see {@link isAhpValid}). Findings carry the rule's
 * id, severity and citation, the RFC 6901 `pointer` into `value` and a sentence; a finding
 * inside embedded MCP JSON carries `data.embedded: {partPointer, innerPointer}`. Their line and
 * column are not meaningful (there is no text). `opts.rules` runs only the selected rules.
 *
 * Roots: see {@link AhpRoot}. Spec: AHP base/versioning.md §JSON-RPC,
 * base/events.md, interaction-payloads.md (incl. §MCP elicitation binding), content-upload.md,
 * execution-payloads.md, capability-auth.md, base/registration.md.
 * Schemas are compiled once per process on first use.
 * @throws Error when `opts.root` / `opts.eventSchema` names an unknown root, or when a schema
 *   file cannot be loaded (an installation problem).
 */
export function validateAhpMessage(value: unknown, opts: ValidateAhpOptions & { rules?: RuleSelection } = {}): Finding[] {
  const root = resolveRoot(opts.root ?? 'message');
  const eventSchema = opts.eventSchema !== undefined ? resolveRoot(opts.eventSchema) : undefined;
  if (eventSchema && eventSchema.kind !== 'event') throw new Error(`eventSchema ${JSON.stringify(opts.eventSchema)} does not name an event schema`);
  const out: Finding[] = [];
  const sink = (f: Finding) => void out.push(f);
  const ev: ParsedEvent = { source: '', line: 1, byteOffset: 0, text: '', value: value as Record<string, unknown>, duplicates: [], bigIntegers: [] };
  const findings = schemaStage(ev, root, { eventSchema });
  reportSchemaFindings(findings, ev, sink, opts.rules);
  // per-event rules see objects only, as in the pipeline (nothing else carries an event)
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) new Engine<AhpMessage, undefined, undefined>(AHP_EVENT_RULES, [], NO_STREAM, sink, opts.rules).checkEvent(ev as AhpMessage);
  return out;
}

/** True when `findings` hold no `error` (warnings and infos do not invalidate). */
export function isAhpValid(findings: readonly Pick<Finding, 'severity'>[]): boolean {
  return !findings.some((f) => f.severity === 'error');
}
