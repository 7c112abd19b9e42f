/** The library's option checks: an unknown or mistyped option is a TypeError naming it, never silently ignored. */
import type { AepStreamOptions } from '../aep/analyzers/options.ts';
import { isAbortSignal } from '../core/abort.ts';
import type { AhpStreamOptions } from '../ahp/analyzers/options.ts';
import type { Severity } from '../core/finding.ts';
import { nearestWord } from '../core/nearest.ts';
import { FORMATS } from '../report/index.ts';
import type { AepOptions, AhpOptions, Protocol } from './protocols.ts';

/** What an option holds: `count` int >= 0, `positive-int` int >= 1, `positive` > 0 (the CLI flags' ranges). */
export type Kind =
  | 'boolean'
  | 'count'
  | 'positive-int'
  | 'positive'
  | 'string'
  | 'string-or-false'
  | 'strings'
  | 'array'
  | 'object'
  | 'function'
  | 'signal';

const AEP: Record<keyof AepOptions, Kind> = {
  strict: 'boolean',
  maxLineBytes: 'positive-int',
  maxDepth: 'positive-int',
  rules: 'strings',
  stream: 'object',
  from: 'string',
  maxCapture: 'string',
  profile: 'string',
};

const AHP: Record<keyof AhpOptions, Kind> = {
  strict: 'boolean',
  maxLineBytes: 'positive-int',
  maxDepth: 'positive-int',
  rules: 'strings',
  stream: 'object',
  binding: 'string',
};

const AEP_STREAM: Record<keyof AepStreamOptions, Kind> = {
  maxSessions: 'positive-int',
  maxOpen: 'positive-int',
  maxIds: 'positive-int',
  maxStateMb: 'positive',
  ackWindowMs: 'positive-int',
  spillRows: 'positive-int',
  forms: 'string',
  profile: 'string',
};

const AHP_STREAM: Record<keyof AhpStreamOptions, Kind> = {
  maxPending: 'positive-int',
  maxEvents: 'positive-int',
  maxStateMb: 'positive',
  spillRows: 'positive-int',
};

/** Options `validate` and `validateStream` add to a protocol's. */
export const VALIDATE_OPTIONS: Readonly<Record<string, Kind>> = {
  maxFindings: 'count',
  each: 'boolean',
  failFast: 'boolean',
  signal: 'signal',
};

/** Options `createSession` and `checkEvent` add to a protocol's. */
export const SESSION_OPTIONS: Readonly<Record<string, Kind>> = { failFast: 'boolean', source: 'string' };

const SEVERITIES: readonly Severity[] = ['error', 'warning', 'info'];

// the keys of report.ts's ReportOptions (not imported: report.ts imports this module)
const REPORT: Record<string, Kind> = {
  protocol: 'string',
  format: 'string',
  color: 'boolean',
  failOn: 'string',
  quiet: 'boolean',
  sources: 'strings',
};

function holds(kind: Kind, v: unknown): boolean {
  if (kind === 'count') return Number.isSafeInteger(v) && (v as number) >= 0;
  if (kind === 'positive-int') return Number.isSafeInteger(v) && (v as number) >= 1;
  if (kind === 'positive') return typeof v === 'number' && Number.isFinite(v) && v > 0;
  if (kind === 'strings') return Array.isArray(v) && v.every((s) => typeof s === 'string');
  if (kind === 'string-or-false') return typeof v === 'string' || v === false;
  if (kind === 'array') return Array.isArray(v);
  if (kind === 'object') return typeof v === 'object' && v !== null && !Array.isArray(v);
  if (kind === 'signal') return isAbortSignal(v);
  return typeof v === kind;
}

const WHAT: Readonly<Record<Kind, string>> = {
  boolean: 'true or false',
  count: '0 or a positive integer',
  'positive-int': 'a positive integer',
  positive: 'a positive number',
  function: 'a function',
  string: 'a string',
  'string-or-false': 'a string or false',
  strings: 'an array of strings',
  array: 'an array',
  object: 'an object',
  signal: 'an AbortSignal (AbortController.signal, AbortSignal.timeout())',
};

/** What a value is, for a message: `the number 42`, `a string`, `an array`, `an ArrayBuffer`, `null`. */
export function described(v: unknown): string {
  if (v === null || v === undefined) return String(v);
  if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint') return `the ${typeof v} ${String(v)}`;
  if (Array.isArray(v)) return 'an array';
  const name = typeof v === 'object' ? (Object.getPrototypeOf(v) as { constructor?: { name?: unknown } } | null) : null;
  const ctor = name?.constructor?.name;
  if (typeof ctor === 'string' && ctor !== '' && ctor !== 'Object')
    return `${/^[AEIOU]/.test(ctor) ? 'an' : 'a'} ${ctor}`;
  return typeof v === 'object' ? 'an object' : `a ${typeof v}`;
}

/** @throws TypeError unless `v` is a JSON object (not null, not an array): `what` names the argument. */
export function checkObjectArg(v: unknown, what: string): asserts v is Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v))
    throw new TypeError(`${what} must be an object, not ${described(v)}`);
}

/** @throws TypeError naming the first key of `options` that `known` lacks, or whose value is of another kind. */
export function checkKeys(options: object, known: Readonly<Record<string, Kind>>, where: string): void {
  for (const [key, v] of Object.entries(options)) {
    const kind = Object.hasOwn(known, key) ? known[key] : undefined;
    if (kind === undefined) {
      const near = nearestWord(key, Object.keys(known), true);
      throw new TypeError(`unknown option ${where}${key}${near ? ` (did you mean ${where}${near}?)` : ''}`);
    }
    if (v !== undefined && !holds(kind, v))
      throw new TypeError(
        `option ${where}${key} must be ${WHAT[kind]}${kind === 'signal' ? `, not ${described(v)}` : ''}`,
      );
  }
}

/** Check `options` of `protocol` with the `extra` options of the calling function. @throws TypeError */
export function checkOptions(protocol: Protocol, options: unknown, extra: Readonly<Record<string, Kind>>): void {
  if (options === undefined) return;
  checkObjectArg(options, 'the options');
  const aep = protocol === 'aep';
  checkKeys(options, { ...(aep ? AEP : AHP), ...extra }, '');
  const stream = (options as { stream?: object }).stream;
  if (stream !== undefined) checkKeys(stream, aep ? AEP_STREAM : AHP_STREAM, 'stream.');
}

/** Check the options of `formatReport` / `createReporter`. @throws TypeError */
export function checkReportOptions(options: unknown): void {
  if (typeof options !== 'object' || options === null)
    throw new TypeError("the report options must be an object: { protocol: 'aep' or 'ahp', format }");
  checkKeys(options, REPORT, '');
  const { format, failOn } = options as { format?: unknown; failOn?: unknown };
  if (!(FORMATS as readonly unknown[]).includes(format)) {
    const lower = typeof format === 'string' ? format.toLowerCase() : '';
    const near = (FORMATS as readonly string[]).includes(lower) ? lower : nearestWord(lower, FORMATS, true);
    throw new TypeError(
      `unknown report format ${JSON.stringify(format)}: one of ${FORMATS.join(', ')}${near ? ` (did you mean ${near}?)` : ''}`,
    );
  }
  if (failOn !== undefined && !(SEVERITIES as readonly unknown[]).includes(failOn))
    throw new TypeError(`option failOn must be one of ${SEVERITIES.join(', ')}`);
}
