/**
 * `validateAhpMessage`: one parsed value against a named AHP root, as a one-event run of the message-schema stage and
 * the per-event rules (no stream rules, no framing): the manifest runner's `schema` / `eventSchema` check and the
 * library's.
 */
import type { RuleSelection } from '../core/engine.ts';
import type { Finding } from '../core/finding.ts';
import { EventStream } from './run.ts';
import { AHP } from '../ahp/definition.ts';
import type { ValidateAhpOptions } from '../ahp/schema/stage.ts';

export type { AhpRoot, ValidateAhpOptions } from '../ahp/schema/stage.ts';

/**
 * Every finding of `value` as an AHP message, registration or `opts.root` (only errors make it invalid, isAhpValid);
 * pointers into `value`, no meaningful line. @throws Error for an unknown root or an unloadable schema.
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
