/**
 * `validateAhpMessage`: one parsed JSON value checked against a named AHP root, for the
 * upstream fixture manifest runner (its `schema` / `eventSchema` roots) and the library.
 *
 * It is a one-event run (src/run/run.ts `EventStream`) of the same checks `ahp validate` runs on
 * each message: the message-schema stage (src/ahp/schema/stage.ts) against the root, then every
 * per-event rule (src/ahp/rules/); no stream rules. Framing (JSONL lines, CR, blank lines,
 * duplicate member names of the outer text) belongs to the reader, not here.
 */
import type { RuleSelection } from '../core/engine.ts';
import type { Finding } from '../core/finding.ts';
import { EventStream } from './run.ts';
import { AHP } from '../ahp/definition.ts';
import type { ValidateAhpOptions } from '../ahp/schema/stage.ts';

export type { AhpRoot, ValidateAhpOptions } from '../ahp/schema/stage.ts';

/**
 * Validate one parsed JSON value as an AHP draft message (default), a registration document or
 * the root named by `opts.root`, returning every finding (an empty array means valid; only
 * `error` findings make the value invalid, see {@link isAhpValid}). Findings carry the rule's
 * id, severity and citation, the RFC 6901 `pointer` into `value` and a sentence; a finding
 * inside embedded MCP JSON carries `partPointer` and `innerPointer` in its `args`. Their line and
 * column are not meaningful (there is no text). `opts.rules` runs only the selected rules.
 *
 * Roots: see {@link AhpRoot}. Spec: AHP base/versioning.md §JSON-RPC,
 * base/events.md, interaction-payloads.md (incl. §MCP elicitation binding), content-upload.md,
 * execution-payloads.md, capability-auth.md, base/registration.md.
 * Schemas are compiled once per process on first use.
 * @throws Error when `opts.root` / `opts.eventSchema` names an unknown root, or when a schema
 *   file cannot be loaded (an installation problem).
 */
export function validateAhpMessage(
  value: unknown,
  opts: ValidateAhpOptions & { rules?: RuleSelection } = {},
): Finding[] {
  const single: ValidateAhpOptions = {
    root: opts.root ?? 'message',
    ...(opts.eventSchema !== undefined ? { eventSchema: opts.eventSchema } : {}),
  };
  // the run's single-message check: no stream rules, findings framed like every other entry's
  const stream = new EventStream(AHP, { single, ...(opts.rules ? { rules: [...opts.rules] as never } : {}) }, '');
  return stream.value(value);
}

/** True when `findings` hold no `error` (warnings and infos do not invalidate). */
export function isAhpValid(findings: readonly Pick<Finding, 'severity'>[]): boolean {
  return !findings.some((f) => f.severity === 'error');
}
