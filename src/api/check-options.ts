/** The library's option checks: an unknown or mistyped option is a TypeError naming it, never silently ignored. */
import type { AepStreamOptions } from '../aep/analyzers/options.ts';
import { isAbortSignal } from '../core/abort.ts';
import type { AhpStreamOptions } from '../ahp/analyzers/options.ts';
import type { Severity } from '../core/finding.ts';
import { nearestWord } from '../core/nearest.ts';
import { FORMATS } from '../report/index.ts';
import type { ProtocolDefinition } from '../core/protocol.ts';
import { protocolDefinition } from '../run/protocols.ts';
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

/**
 * @throws TypeError unless `v` is one of `choices` (as the CLI's `choices` refuse it), naming them and the nearest;
 * `name` is the option's path (`stream.forms`).
 */
export function checkChoice(name: string, v: unknown, choices: readonly string[]): void {
  if (choices.includes(v as string)) return;
  const lower = typeof v === 'string' ? v.toLowerCase() : '';
  const near = choices.includes(lower) ? lower : typeof v === 'string' ? nearestWord(lower, choices, true) : undefined;
  throw new TypeError(
    `option ${name} must be one of ${choices.map((c) => JSON.stringify(c)).join(', ')}, not ${
      typeof v === 'string' ? JSON.stringify(v) : described(v)
    }${near ? ` (did you mean ${JSON.stringify(near)}?)` : ''}`,
  );
}

/** Where an option that is not at this level belongs: a stream option at the top, a top-level one in `stream`. */
function misplaced(
  def: ProtocolDefinition,
  options: object,
  top: Readonly<Record<string, Kind>>,
  streamKeys: Readonly<Record<string, Kind>>,
): void {
  const stream = (options as { stream?: unknown }).stream;
  const inStream = typeof stream === 'object' && stream !== null ? Object.keys(stream) : [];
  for (const key of Object.keys(options)) {
    if (Object.hasOwn(top, key)) continue;
    // the CLI flag's name (`ackWindow`, `maxCapture`) names its option path in the flags table
    const flag = def.flags.find((f) => f.name === key || f.to[f.to.length - 1] === key);
    const path = flag ? flag.to : Object.hasOwn(streamKeys, key) ? (['stream', key] as const) : undefined;
    if (!path) continue;
    const written = path.length === 1 ? `${path[0]}` : `stream: { ${path[1]} }`;
    throw new TypeError(
      `unknown option ${key}: the library names it ${written}${flag ? ` (${flag.flags.split(' ')[0]})` : ''}`,
    );
  }
  for (const key of inStream)
    if (!Object.hasOwn(streamKeys, key) && Object.hasOwn(top, key))
      throw new TypeError(`unknown option stream.${key}: ${key} is an option of its own, beside stream, not in it`);
}

/**
 * An option of the other protocol (`binding` given to AEP, `profile` to AHP, a stream option of the other) is a
 * TypeError saying so, not an unknown name with a far-fetched nearest one.
 */
function otherProtocol(protocol: Protocol, options: object, top: Readonly<Record<string, Kind>>): void {
  const aep = protocol === 'aep';
  const [otherTop, otherStream, streamKeys] = aep ? [AHP, AHP_STREAM, AEP_STREAM] : [AEP, AEP_STREAM, AHP_STREAM];
  const other = aep ? 'ahp' : 'aep';
  const refuse = (given: string, written: string) => {
    throw new TypeError(
      `unknown option ${given}: an option of ${other.toUpperCase()} (createSession('${other}', { ${written} })), not of ${protocol.toUpperCase()}`,
    );
  };
  for (const key of Object.keys(options)) {
    if (Object.hasOwn(top, key) || Object.hasOwn(streamKeys, key)) continue;
    if (Object.hasOwn(otherTop, key)) refuse(key, key);
    if (Object.hasOwn(otherStream, key)) refuse(key, `stream: { ${key} }`);
  }
  const stream = (options as { stream?: unknown }).stream;
  if (typeof stream !== 'object' || stream === null) return;
  for (const key of Object.keys(stream))
    if (!Object.hasOwn(streamKeys, key) && !Object.hasOwn(top, key) && Object.hasOwn(otherStream, key))
      refuse(`stream.${key}`, `stream: { ${key} }`);
}

/**
 * The values of the flags table (src/core/protocol.ts `FlagSpec`) the library takes as options: a `choice` one of its
 * `choices`, one that `requires` another only with that value, as the CLI refuses both. @throws TypeError
 */
function checkFlagValues(def: ProtocolDefinition, options: Record<string, unknown>): void {
  const stream = (options.stream ?? {}) as Record<string, unknown>;
  const at = (to: readonly string[]) => (to.length === 1 ? options[to[0]!] : stream[to[1]!]);
  for (const f of def.flags) {
    const v = at(f.to);
    if (v === undefined) continue;
    const name = f.to.join('.');
    if (f.kind === 'choice') checkChoice(name, v, f.choices ?? []);
    const needs = f.requires;
    if (!needs) continue;
    const need = def.flags.find((g) => g.name === needs.name);
    const values = typeof needs.value === 'string' ? [needs.value] : needs.value;
    if (!values.includes(at(need?.to ?? [needs.name]) as string))
      throw new TypeError(
        `option ${name} applies only with ${(need?.to ?? [needs.name]).join('.')}: ${values
          .map((x) => JSON.stringify(x))
          .join(' or ')} (as ${f.flags.split(' ')[0]} only with ${needs.flags})`,
      );
  }
  // the checker's own copy of `profile` (set from the top-level option) takes the same names
  const profile = def.flags.find((f) => f.name === 'profile');
  if (profile && stream.profile !== undefined) checkChoice('stream.profile', stream.profile, profile.choices ?? []);
}

/** Check `options` of `protocol` with the `extra` options of the calling function. @throws TypeError */
export function checkOptions(protocol: Protocol, options: unknown, extra: Readonly<Record<string, Kind>>): void {
  const def = protocolDefinition(protocol);
  if (options === undefined) return;
  checkObjectArg(options, 'the options');
  const aep = protocol === 'aep';
  const top = { ...(aep ? AEP : AHP), ...extra };
  const streamKeys = aep ? AEP_STREAM : AHP_STREAM;
  misplaced(def, options, top, streamKeys);
  otherProtocol(protocol, options, top);
  checkKeys(options, top, '');
  const stream = (options as { stream?: object }).stream;
  if (stream !== undefined) checkKeys(stream, streamKeys, 'stream.');
  checkFlagValues(def, options);
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
  if (failOn !== undefined) checkChoice('failOn', failOn, SEVERITIES);
}
