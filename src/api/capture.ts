/**
 * The library's `aep downlevel` and `aep redact` in process (README §Share a log safely; AEP-0001 §8.2, AEP-0003 §9).
 */
import { downlevelEvent, type DownlevelOptions } from '../aep/downlevel.ts';
import { createRedactor, redactEvent as redactGatedEvent, type RedactOptions, type Redactor } from '../aep/redact.ts';
import type { AepCaptureLevel } from '../aep/schema/registry.ts';

/** An AEP capture level (AEP-0001 §8.2): `none < metadata < redacted < full`. */
export type CaptureLevel = AepCaptureLevel;

const compiled = new WeakMap<RedactOptions, Redactor>();
const defaultRedactor = createRedactor();

function redactorOf(options: RedactOptions | Redactor | undefined): Redactor {
  if (!options) return defaultRedactor;
  if (typeof (options as Redactor).text === 'function') return options as Redactor;
  let r = compiled.get(options as RedactOptions);
  if (!r) compiled.set(options as RedactOptions, (r = createRedactor(options as RedactOptions)));
  return r;
}

/**
 * One AEP event down to `ceiling` as a relay must (AEP-0001 §8.2(b)-(e)); never raises a level nor modifies the input
 * (one at or below the ceiling that honours its level is returned as is). @throws TypeError when `ceiling` is no level.
 */
export function downlevel(
  event: Readonly<Record<string, unknown>>,
  ceiling: CaptureLevel,
  options: DownlevelOptions = {},
): Record<string, unknown> {
  return downlevelEvent(event, ceiling, options).event;
}

/** AEP-0003 §9.4 redaction of text, or of each string of a JSON value; options compile once per object. */
export function redact(text: string, options?: RedactOptions | Redactor): string;
export function redact(value: unknown, options?: RedactOptions | Redactor): unknown;
export function redact(value: unknown, options?: RedactOptions | Redactor): unknown {
  const r = redactorOf(options);
  return typeof value === 'string' ? r.text(value) : r.value(value);
}

/** Redact one event as `aep redact` does (a changed `full` event becomes `redacted`); same object when unchanged. */
export function redactEvent(
  event: Readonly<Record<string, unknown>>,
  options?: RedactOptions | Redactor,
): Record<string, unknown> {
  return redactGatedEvent(event, redactorOf(options));
}

export { createRedactor, type DownlevelOptions, type RedactOptions, type Redactor };
