/**
 * The library's `aep downlevel` and `aep redact` in process (README §Share a log safely; AEP-0001 §8.2, AEP-0003 §9).
 */
import { downlevelEvent, isCaptureLevel, type DownlevelOptions } from '../aep/downlevel.ts';
import {
  createRedactor as compileRedactor,
  redactEvent as redactGatedEvent,
  type RedactOptions,
  type Redactor,
} from '../aep/redact.ts';
import type { AepCaptureLevel } from '../aep/schema/registry.ts';
import { assertAepEvent } from '../aep/bridges/hint.ts';
import { checkKeys, checkObjectArg, described, type Kind } from './check-options.ts';

/** An AEP capture level (AEP-0001 §8.2): `none < metadata < redacted < full`. */
export type CaptureLevel = AepCaptureLevel;

const REDACT: Record<keyof RedactOptions, Kind> = {
  secretNames: 'strings',
  secretValues: 'strings',
  home: 'string-or-false',
  pii: 'boolean',
};
const DOWNLEVEL: Record<keyof DownlevelOptions, Kind> = {
  redact: 'boolean',
  form: 'array',
  profile: 'string',
  screen: 'object',
};

const compiled = new WeakMap<RedactOptions, Redactor>();
const defaultRedactor = compileRedactor();
const isRedactor = (o: object): o is Redactor =>
  typeof (o as Redactor).text === 'function' && typeof (o as Redactor).value === 'function';

/** A {@link Redactor} from {@link RedactOptions}; the options compile once. @throws TypeError for an unknown option. */
export function createRedactor(options: RedactOptions = {}): Redactor {
  checkObjectArg(options, 'the redact options');
  checkKeys(options, REDACT, '');
  return compileRedactor(options);
}

function redactorOf(options: RedactOptions | Redactor | undefined, where = ''): Redactor {
  if (options === undefined) return defaultRedactor;
  checkObjectArg(options, where ? `option ${where.slice(0, -1)}` : 'the redact options');
  if (isRedactor(options)) return options;
  let r = compiled.get(options);
  if (!r) {
    checkKeys(options, REDACT, where);
    compiled.set(options, (r = compileRedactor(options)));
  }
  return r;
}

/**
 * One AEP event down to `ceiling` as a relay must (AEP-0001 §8.2(b)-(e)); never raises a level nor modifies the input
 * (one at or below the ceiling that honours its level is returned as is). @throws TypeError when `ceiling` is no level,
 * or `event` is no AEP event (bridge output, an AHP message: what the commands refuse as `aep/bridge-input`).
 */
export function downlevel(
  event: object,
  ceiling: CaptureLevel,
  options: DownlevelOptions = {},
): Record<string, unknown> {
  checkObjectArg(event, 'the event');
  assertAepEvent(event);
  checkObjectArg(options, 'the downlevel options');
  const { redact: r, screen, ...rest } = options as DownlevelOptions;
  checkKeys(rest, DOWNLEVEL, '');
  if (screen !== undefined) redactorOf(screen, 'screen.');
  if (typeof r === 'object') redactorOf(r, 'redact.');
  else if (r !== undefined && typeof r !== 'boolean')
    throw new TypeError(`option redact must be true, false or an object`);
  if (!isCaptureLevel(ceiling)) {
    const got = typeof ceiling === 'string' ? JSON.stringify(ceiling) : described(ceiling);
    throw new TypeError(`ceiling must be one of none, metadata, redacted, full, not ${got}`);
  }
  return downlevelEvent(event, ceiling, options).event;
}

/** AEP-0003 §9.4 redaction of text, or of each string of a JSON value; options compile once per object. */
export function redact(text: string, options?: RedactOptions | Redactor): string;
export function redact(value: unknown, options?: RedactOptions | Redactor): unknown;
export function redact(value: unknown, options?: RedactOptions | Redactor): unknown {
  const r = redactorOf(options);
  return typeof value === 'string' ? r.text(value) : r.value(value);
}

/**
 * Redact one event as `aep redact` does (a changed `full` event becomes `redacted`); same object when unchanged.
 * @throws TypeError when `event` is no object, or no AEP event (bridge output or an AHP message, `aep/bridge-input`).
 */
export function redactEvent(event: object, options?: RedactOptions | Redactor): Record<string, unknown> {
  checkObjectArg(event, 'the event');
  assertAepEvent(event);
  return redactGatedEvent(event, redactorOf(options));
}

export type { DownlevelOptions, RedactOptions, Redactor };
