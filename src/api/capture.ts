/**
 * The capture pipeline of the library (README §Share a log safely): the same down-leveling and
 * redaction as `aep downlevel` and `aep redact`, for relays and adapters that want them in
 * process. AEP-0001 §8.2; AEP-0002 §5.1; AEP-0003 §9.
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
 * Bring one AEP event (a JSON object whose envelope is valid AEP 0.1) down to `ceiling` as a
 * relay must (AEP-0001 §8.2(b)-(e)): members above the level dropped by the payload schema's
 * `x-aep-capture` annotations, the `[metadata*]` members degraded structurally below
 * `redacted`, `capture` rewritten; a `full` event under a `redacted` ceiling lands on
 * `metadata` unless `options.redact` is set. Never raises a level: an event at or below the
 * ceiling is returned as it is (the same object). The input is never modified.
 * @throws TypeError when `ceiling` is not a capture level.
 */
export function downlevel(
  event: Readonly<Record<string, unknown>>,
  ceiling: CaptureLevel,
  options: DownlevelOptions = {},
): Record<string, unknown> {
  return downlevelEvent(event, ceiling, options).event;
}

/**
 * The AEP-0003 §9.4 redaction pipeline: (a) secrets and credentials -> `[REDACTED:secret]`,
 * (b) configured names and values, (c) home directory -> `~`, (d) emails and phone numbers ->
 * `[REDACTED:pii]` (unless `pii: false`). A string is redacted as text; any other JSON value
 * is copied with every string redacted and the string values of credential-named members
 * (`token`, `password`, `apiKey`, `authorization`, ...) replaced. Options are compiled once
 * per options object (or pass a {@link Redactor} from {@link createRedactor}).
 */
export function redact(text: string, options?: RedactOptions | Redactor): string;
export function redact(value: unknown, options?: RedactOptions | Redactor): unknown;
export function redact(value: unknown, options?: RedactOptions | Redactor): unknown {
  const r = redactorOf(options);
  return typeof value === 'string' ? r.text(value) : r.value(value);
}

/**
 * Redact one AEP event as `aep redact` does: at capture `redacted` or `full`, the
 * `redacted`-gated free text of its payload (by the `x-aep-capture` annotations and the
 * `[metadata*]` exceptions); nothing else, `*_digest` members included. Returns the same
 * object when nothing changed.
 */
export function redactEvent(
  event: Readonly<Record<string, unknown>>,
  options?: RedactOptions | Redactor,
): Record<string, unknown> {
  return redactGatedEvent(event, redactorOf(options));
}

export { createRedactor, type DownlevelOptions, type RedactOptions, type Redactor };
